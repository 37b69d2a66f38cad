"""The field during the combat: the special cards' 등장효과 on the `field:` given (their hooks,
engine/cards/), the 결속 read by `bonded`, a card leaving its slot (trashed: the card under it comes back,
field.uncover) and a kind leaving the board (field.kind-exhausted).
"""

from __future__ import annotations

from ..cards import CARD_HOOKS, hooks_of
from ..types import EventType as E
from .state import ENTRY_ENDS, MOBILE, SAME_ROUND, SETTLED, UNCOVER_ENTRY, Piece


class FieldRoom:
    """The field during the combat — a room of `Engine` (engine/combat.py), on the state of `CombatState`;
    the special cards' own parts are their hooks (engine/cards/)."""

    def field_setup(self) -> None:
        """The continuous part of the 등장효과 of the special cards on the `field:` given (their modules,
        engine/cards/: 별마대 병풍, 증폭기 결속): the field after its cards entered, read once at the start."""
        if self.slots is None:
            return
        for hooks in CARD_HOOKS.values():
            hooks.combat_setup(self)

    def bonded_cards(self, side: str) -> set[str] | None:
        """결속 (증폭기): the piece card immediately to the left of each face-up 증폭기. None: no field."""
        if self.slots is None or side not in self.slots:
            return None
        return self.bonds.get(side, set())

    def _slot_left(self, side: str, i: int, cell: str, step: int | None) -> None:
        """The top card of `side`'s slot i left the field (trashed, or its kind exhausted): the card it
        covered comes back at once (field.uncover: '위 카드가 폐기되면 아래 기물 카드는 복귀합니다'), its pieces
        turn mobile at once unless it was retired in the same round (same-round-uncover-stays-settled), and its 등장효과
        fires again ('다시 공개되는 것이므로 등장효과가 재발동합니다': 별마대 병풍 again, 증폭기 결속 again)
        — before the steps that follow, not after the combat."""
        under = self.slots[side][i].under
        self.slots[side][i] = under
        if under is None or under.type != "piece":
            return
        where = {"cell": cell, "step": step} if step is not None else {"cell": cell, "phase": "response"}
        flipped: list[str] = []
        stays = None  # a card retired this round: does it stay settled (same-round-uncover-stays-settled)?
        if under.same_round:
            stays = self.ask(SAME_ROUND)
            if not stays.known and under.face_up:
                self.rule_gap(stays, cell=cell, card=under.card, ruling=stays.cite, rule="field.uncover")
        if under.face_up and not (stays is not None and stays.applied):
            for p in self.by_side.get(side, ()):
                if p.on_board and p.card == under.card and p.state is SETTLED:
                    p.state = MOBILE
                    flipped.append(p.id)
                    self.emit(E.FLIP, cell=p.cell, **({"step": step} if step is not None else {"phase": "response"}),
                              piece=p.id, **{"from": "settled"}, to="mobile", rule="field.uncover")
        self.emit(E.FIELD, **where, side=side, effect="uncover", card=under.card, slot=i + 1, source=None,
                  pieces=flipped, lv=None, face="up" if under.face_up else "down", same_round=under.same_round,
                  entry_effect=any(a["timing"] == "등장" for a in self.corpus.cards[under.card]["abilities"]),
                  rule="field.uncover", ruling=stays.cite if stays is not None else None)
        if not under.face_up:
            return  # a face-down set piece card comes back face down: no 등장
        if any(a["timing"] == "등장" for a in self.corpus.cards[under.card]["abilities"]):
            again = self.ask(UNCOVER_ENTRY)  # is coming back face up an entry (its 등장효과 again)?
            if not again.known:
                self.rule_gap(again, cell=cell, card=under.card, ruling=again.cite, rule="field.uncover")
            if not again.applied:
                return
        hooks = hooks_of(under.card)
        if hooks is not None:
            hooks.combat_entered_again(self, side, i, cell, step)

    def _left_board(self, p: Piece, cell: str, step: int | None) -> None:
        """`p` left the board: when its kind's limit is used up (exhausted) and no piece of it is left on
        the board, its card leaves the field at once and its 등장효과 ends (field.kind-exhausted: '종류 한도가
        모두 소진된 상태에서 보드 위 그 종류 기물이 0기가 되면 그 기물 카드는 필드에서 제거되어 자리가 해제됩니다')."""
        ex = self.scn.exhausted
        if not ex or p.card is None or p.card not in ex.get(p.side, ()) or self.slots is None:
            return
        if any(q.on_board for q in self.by_card.get((p.side, p.card), ())):
            return
        slots = self.slots.get(p.side)
        i = next((k for k, sl in enumerate(slots or ()) if sl is not None and sl.card == p.card), None)
        if i is None:
            return
        where = {"cell": cell, "step": step} if step is not None else {"cell": cell, "phase": "response"}
        self.emit(E.FIELD, **where, side=p.side, effect="removed", card=p.card, slot=i + 1, source=None, pieces=[],
                  lv=None, last=p.id, rule="field.kind-exhausted")
        was_face_up = slots[i].face_up
        self._slot_left(p.side, i, cell, step)
        if not was_face_up:
            return
        if any(hooks.entry_lasts(self, p.side, p.card) for hooks in CARD_HOOKS.values()):
            if not self.ask(ENTRY_ENDS).applied:
                return  # '영구 적용': the continuous part stays after its card left (entry-effect-ends-with-card)
        for hooks in CARD_HOOKS.values():  # what of a special card's 등장효과 ends with it (engine/cards/)
            hooks.combat_card_left(self, p.side, p.card, cell, step)
