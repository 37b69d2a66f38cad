"""The field (필드 5자리) as rules: placing face up or setting face down,
activation and grades, 등장효과 and its continuous part (별마대 병풍, 증폭기
결속: the cards' own modules, engine/cards/), covering (엎어 세트 → 은퇴), trashing and uncovering (복귀), special
cards used from hand. Pure; every event and error cites a clause id.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .cards import CARD_HOOKS, hooks_of

SLOTS = 5
# the decisions a dated ruling sets (engine/decisions.py): the field asks them, never a date
ENTRY_ENDS, UNCOVER_ENTRY = "entry-effect-ends-with-card", "uncover-is-entry"
SAME_ROUND = "same-round-uncover-stays-settled"

ERROR_RULE = {
    "bad-slot": "field.slots",
    "slot-occupied": "field.stack",
    "empty-slot": "field.slots",
    "not-face-down": "field.activation",
    "special-card": "field.activation",
    "grade-requirement": "field.grades",
    "response-must-be-set": "field.special.response-set",
    "not-a-piece-card": "field.kind-exhausted",
}


@dataclass
class Card:
    name: str
    face_up: bool
    type: str  # piece | special
    retired: bool = False
    retired_round: int | None = None
    shown_before: bool = False  # has been face up on the field (등장 happened)
    #: the card a position-reference 등장효과 chose when this card entered (별마대 병풍's leftmost
    #: card, 증폭기 결속's partner): fixed at entry, not recomputed when the slots change
    target: "Card | None" = None


@dataclass(frozen=True)
class FieldResult:
    slots: tuple[dict, ...]
    active: tuple[str, ...]
    retired: tuple[str, ...]
    levels: dict
    bonds: dict
    errors: tuple[dict, ...]
    events: tuple[dict, ...]
    unresolved: tuple[dict, ...]
    round: int


class FieldPlay:
    """One side's field, played action by action. `rules`: the decisions the dated rulings set on the day
    (engine.decisions.rules_at) — what the entry effects, retirements and uncovers follow."""

    def __init__(self, cards_db: dict, initial: list[Any], rules):
        self.db = cards_db
        self.rules = rules
        self.round = 1
        self.slots: list[list[Card]] = [[] for _ in range(SLOTS)]
        self.events: list[dict] = []
        self.errors: list[dict] = []
        self.unresolved: list[dict] = []
        #: what a special card's 등장효과 chose at its last entry, by card (engine/cards/), for the rule with
        #: entry-effect-ends-with-card false ('영구 적용': the continuous part stays after the card left)
        self.lasting: dict[str, Any] = {}
        for i, entry in enumerate(initial):
            if entry is None:
                continue
            # a slot is one card (name, face_up) or a stack of them, bottom first (엎어 세트, field.stack):
            # a piece card under another was retired before the start (retired_round 0: not this round)
            stack = entry if isinstance(entry, list) else [entry]
            for k, (name, face_up) in enumerate(stack):
                card = Card(name, face_up, self.db[name]["type"], shown_before=face_up)
                if k < len(stack) - 1 and card.type == "piece":
                    card.retired, card.retired_round = True, 0
                self.slots[i].append(card)
        for i in range(SLOTS):  # the starting cards' 등장 happened at the start
            card = self.top(i)
            if card is not None and card.face_up and card.type == "piece":
                self._record_entry(i, card)

    # ------------------------------------------------------------ helpers
    def top(self, i: int) -> Card | None:
        return self.slots[i][-1] if self.slots[i] else None

    def tops(self) -> list:
        """Per slot None or (name, face_up, type) of its top card, for the special cards' hooks (engine/cards/)."""
        return [(c.name, c.face_up, c.type) if (c := self.top(i)) else None for i in range(SLOTS)]

    def active_piece_cards(self) -> list[tuple[int, Card]]:
        return [(i, c) for i in range(SLOTS) if (c := self.top(i)) and c.face_up and c.type == "piece"]

    def _slot_top(self, index: int, slot: int) -> Card | None:
        """The top card of slot N, or None after reporting why there is none."""
        if not 1 <= slot <= SLOTS:
            self._error(index, "bad-slot", slot=slot)
            return None
        card = self.top(slot - 1)
        if card is None:
            self._error(index, "empty-slot", slot=slot)
        return card

    def _error(self, index: int, reason: str, **detail):
        self.errors.append({"action": index, "reason": reason, "rule": ERROR_RULE[reason], **detail})

    def _entry_effect(self, index: int, slot: int, card: Card, again: bool):
        """A piece card became face up: its 등장효과 fires (field.entry-effect)."""
        has_entry = any(a["timing"] == "등장" for a in self.db[card.name]["abilities"])
        rule = "field.uncover" if again else "field.entry-effect"
        a = self.rules.ask(UNCOVER_ENTRY) if again else None  # coming back face up: an entry again?
        if a is not None and not a.known and has_entry:
            self._rule_gap(a, index, card.name, "field.uncover")
        fires = a is None or a.applied
        self.events.append({"type": "entry", "action": index, "slot": slot + 1, "card": card.name,
                            "again": again, "has_entry_effect": has_entry, "rule": rule,
                            "ruling": a.cite if a is not None else None, **({} if fires else {"fires": False})})
        card.shown_before = True
        if fires:
            self._record_entry(slot, card)
        else:
            card.target = None  # its continuous part does not come back with it

    def _rule_gap(self, a, index: int, card: str, rule: str) -> None:
        """A `ruling-not-in-force` gap: the decision is unknown on the day; computed with its reading."""
        self.unresolved.append({"reason": "ruling-not-in-force", "action": index, "card": card, "ruling": a.cite,
                                "rule": rule, **({"withdrawn": a.withdrawn} if a.withdrawn else {})})

    def _record_entry(self, i: int, card: Card) -> None:
        """What an entry effect did when it fired (its card's module, engine/cards/), for the rule with
        entry-effect-ends-with-card false ('영구 적용': the continuous part stayed after retirement or removal)."""
        hooks = hooks_of(card.name)
        if hooks is not None:
            hooks.field_entered(self, i, card)

    def on_field(self, card: Card) -> bool:
        return any(card is c for slot in self.slots for c in slot)

    def _released(self, index: int, gone: Card, how: str) -> None:
        """`gone` retired or left the field: a 결속 it was part of is released for good (결속은 두
        카드 중 하나가 필드에서 제거되거나 은퇴하면 해제: engine/cards/amplifier.py) — it comes back only when
        its card itself enters again. With entry-effect-ends-with-card false the continuous part stays ('영구 적용')."""
        if not self.rules.ask(ENTRY_ENDS).applied:
            return
        for hooks in CARD_HOOKS.values():
            hooks.field_released(self, index, gone, how)

    # ------------------------------------------------------------ actions
    def place(self, index: int, name: str, slot: int, face_up: bool) -> None:
        info = self.db[name]
        if info["type"] == "special" and face_up:
            if info.get("timing") == "대응":
                self._error(index, "response-must-be-set", card=name)
                return
            # a special card used straight from hand takes no slot and retires nothing
            self.events.append({"type": "from-hand", "action": index, "card": name,
                                "rule": "field.special.from-hand"})
            self.events.append({"type": "trash", "action": index, "card": name, "slot": None,
                                "rule": "field.special.trash"})
            return
        if not 1 <= slot <= SLOTS:
            self._error(index, "bad-slot", slot=slot)
            return
        i = slot - 1
        under = self.top(i)
        if under is not None and face_up:
            self._error(index, "slot-occupied", slot=slot, card=name, top=under.name)
            return
        if face_up and info["type"] == "piece" and not self._grade_ok(index, name):
            return
        card = Card(name, face_up, info["type"])
        self.slots[i].append(card)
        self.events.append({"type": "place", "action": index, "card": name, "slot": slot,
                            "face": "up" if face_up else "down", "on_top_of": under.name if under else None,
                            "rule": "field.stack" if under else ("field.activation" if face_up else "field.set")})
        if under is not None and under.type == "piece" and not under.retired:
            under.retired, under.retired_round = True, self.round
            self.events.append({"type": "retire", "action": index, "card": under.name, "slot": slot,
                                "face": "covered", "was_face": "up" if under.face_up else "down",
                                "permanent": not self.rules.ask(ENTRY_ENDS).applied, "rule": "field.retire"})
            self._released(index, under, "retired")
        if face_up and info["type"] == "piece":
            self._entry_effect(index, i, card, again=False)

    def _grade_ok(self, index: int, name: str) -> bool:
        grade = self.db[name]["grade"]
        if grade != "고급":
            return True
        mids = [c.name for _, c in self.active_piece_cards() if self.db[c.name]["grade"] == "중급"]
        if not mids:
            self._error(index, "grade-requirement", card=name)
            return False
        self.events.append({"type": "grade-check", "action": index, "card": name, "met_by": mids,
                            "rule": "field.grades"})
        return True

    def activate(self, index: int, slot: int) -> None:
        card = self._slot_top(index, slot)
        if card is None:
            return
        if card.face_up:
            self._error(index, "not-face-down", slot=slot, card=card.name)
            return
        if card.type != "piece":
            self._error(index, "special-card", slot=slot, card=card.name)
            return
        if not self._grade_ok(index, card.name):
            return
        card.face_up = True
        self.events.append({"type": "activate", "action": index, "card": card.name, "slot": slot,
                            "rule": "field.activation"})
        self._entry_effect(index, slot - 1, card, again=card.shown_before)

    def trash(self, index: int, slot: int) -> None:
        card = self._slot_top(index, slot)
        if card is None:
            return
        i = slot - 1
        self.slots[i].pop()
        self.events.append({"type": "trash", "action": index, "card": card.name, "slot": slot,
                            "rule": "field.special.trash" if card.type == "special" else "field.slots"})
        self._after_top_left(index, slot, "field.slots")

    def _after_top_left(self, index: int, slot: int, rule: str) -> None:
        """The top card of slot N left the field (trashed or removed): the slot is freed,
        or the piece card under it comes back (field.uncover)."""
        i = slot - 1
        below = self.top(i)
        if below is None:
            self.events.append({"type": "slot-freed", "action": index, "slot": slot, "rule": rule})
            return
        if below.type == "piece" and below.retired:
            same_round = below.retired_round == self.round
            below.retired, below.retired_round = False, None
            if not below.face_up:
                # a face-down set piece card was never activated: it comes back face down (no
                # 등장, no coins to flip; it activates when turned up or at its first production)
                self.events.append({"type": "uncover", "action": index, "card": below.name, "slot": slot,
                                    "pieces": "none", "face": "down", "same_round": same_round,
                                    "rule": "field.uncover", "ruling": None})
                return
            a = self.rules.ask(SAME_ROUND) if same_round else None
            if a is not None and not a.known:
                self._rule_gap(a, index, below.name, "field.uncover")
            self.events.append({"type": "uncover", "action": index, "card": below.name, "slot": slot,
                                "pieces": "stay-settled" if a is not None and a.applied else "mobile", "face": "up",
                                "same_round": same_round,
                                "rule": "field.uncover",
                                "ruling": a.cite if a is not None else None})
            self._entry_effect(index, i, below, again=True)

    def exhausted(self, index: int, slot: int) -> None:
        """The kind limit of the piece card on top of slot N is used up and none of
        its pieces is left on the board: the card leaves the field, the slot is freed."""
        card = self._slot_top(index, slot)
        if card is None:
            return
        i = slot - 1
        if card.type != "piece":
            self._error(index, "not-a-piece-card", slot=slot, card=card.name)
            return
        self.slots[i].pop()
        self.events.append({"type": "removed", "action": index, "card": card.name, "slot": slot,
                            "rule": "field.kind-exhausted"})
        self._released(index, card, "removed")
        self._after_top_left(index, slot, "field.kind-exhausted")

    def next_round(self, index: int) -> None:
        self.round += 1
        self.events.append({"type": "round", "action": index, "round": self.round})

    # ------------------------------------------------------------ result
    def _levels(self) -> tuple[dict, dict]:
        levels: dict[str, int | None] = {}
        for i in range(SLOTS):
            for c in self.slots[i]:
                if c.type == "piece":
                    levels.setdefault(c.name, self.db[c.name]["lv"])
        # the continuous part of the 등장효과 of the special cards (engine/cards/: 병풍, 결속)
        ends = self.rules.ask(ENTRY_ENDS)
        for hooks in CARD_HOOKS.values():
            hooks.field_levels(self, levels, ends)
        bonds: dict[str, str] = {}
        for hooks in CARD_HOOKS.values():
            hooks.field_bonds(self, bonds, ends)
        return levels, bonds

    def result(self) -> FieldResult:
        levels, bonds = self._levels()
        slots = []
        for i in range(SLOTS):
            top = self.top(i)
            slots.append({"slot": i + 1, "top": top.name if top else None,
                          "face": ("up" if top.face_up else "down") if top else None,
                          "type": top.type if top else None,
                          "under": [c.name for c in reversed(self.slots[i][:-1])]})
        active = tuple(c.name for _, c in self.active_piece_cards())
        retired = tuple(c.name for s in self.slots for c in s if c.type == "piece" and c.retired)
        return FieldResult(tuple(slots), active, retired, levels, bonds, tuple(self.errors), tuple(self.events),
                           tuple(self.unresolved), self.round)
