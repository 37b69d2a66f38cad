"""The combat turn (전투턴) with its response turn (대응턴): a deterministic,
pure resolution of a validated `Scenario`. No I/O and no sentences: the engine
only records events (see result.py); templates do all the wording.

Entry point: `simulate(scenario, corpus, as_of=None, effects=None, combat_order=None)`.

Order of play
-------------
1. setup — field effects (별마대 병풍) when `field:` is given.
2. response turn — the declarations in file order: who may declare (the
   defender opens; a 맞대응 only on a response cell, and only while the decision
   counter-with-set-cards / counter-with-piece-sp allows it), what (a set (대응) card / a settled piece's (대응) SP, flipped
   at once), player-chosen targets and cells fixed, costs paid.
3. combats in the attacker's order (`combat_order`, else sorted cells — the
   result says so in `assumed`): step 1 (전투) cards, step 2 the whole stack
   LIFO (first combat only), step 3 (전투) SP, steps 4–6 volleys, step 7 sweep,
   then HP and combat-limited changes are restored. Encounters created by the
   stack fight too, with an empty step 2.
"""

from __future__ import annotations

import gc
import itertools
from collections import deque
from dataclasses import dataclass, field
from typing import Iterable

from ..errors import DataError, Forbidden, Problem
from . import effects as fx
from .decisions import Answer, rules_at
from .cards import CARD_HOOKS, REMOTE_SP, hooks_of
from .probe import PROBE, unknown_key
from .result import CellResult, CombatResult, Event
from .scenario import Declaration, PieceSpec, Scenario, cell_sort_key
from .types import (
    CELL_LIMIT, MAX_ROUNDS, SIDE_LIMIT, CaptureReason, EndReason, EventType as E, FizzleReason, PieceState, Role, UnresolvedReason,
)

MOBILE, SETTLED = PieceState.MOBILE, PieceState.SETTLED
#: rounds of steps 4–6 of every cell together, per scenario (resolution): past it, each combat still
#: going stops as a `round-limit` gap with `total` — the work and the output stay bounded (1,000 cells
#: × 10 rounds fit; 1,000 cells × 999 rounds would be minutes and gigabytes of JSON)
MAX_TOTAL_ROUNDS = 5_000
STATS = ("lv", "hp", "atk", "cost")
STAT_KO = {"lv": "Lv", "hp": "HP", "atk": "ATK", "cost": "cost"}


_STEP_RULE = {1: "combat.step1.battle-cards", 2: "combat.step2.response", 3: "combat.step3.sp",
              4: "combat.step4.attacker-volley", 5: "combat.step5.defender-volley", 6: "combat.step6.check",
              7: "combat.step7.sweep"}
_TARGET_RULE = {"hp": "combat.tiebreak", "atk": "combat.tiebreak", "cost": "combat.tiebreak",
                "listing": "interp.tiebreak.listing-order"}


# the decisions a dated ruling sets (engine/decisions.py): the combat asks them, never a date
COUNTER_CARDS, COUNTER_SP = "counter-with-set-cards", "counter-with-piece-sp"
STRUCT_IMMOVABLE = "structures-immovable-by-effects"
VACATED, COST_EMPTIED = "vacated-combat-continues", "cost-emptied-cell-fights"
MOBILE_STRUCTURES, SWEEP = "mobile-structures-attack", "step7-sweeps-settled"
UNCOVER_ENTRY, SAME_ROUND = "uncover-is-entry", "same-round-uncover-stays-settled"
ENTRY_ENDS = "entry-effect-ends-with-card"


def _withdrawn(a: Answer) -> dict:
    """The key a gap or a refusal adds when it cites a withdrawal: the ruling withdrawn."""
    return {"withdrawn": a.withdrawn} if a.withdrawn else {}


# ------------------------------------------------------------ runtime state ----
@dataclass(eq=False)
class _P:
    """A piece during the resolution (mutable; never leaves this module)."""

    spec: PieceSpec
    state: PieceState
    cell: str | None
    where: str = "board"  # board | prisoner | fragment | removed
    field_lv: int | None = None
    b_atk: int = 0
    b_hp: int = 0
    b_lv: int = 0
    damage: int = 0
    attacked: bool = False  # executed an attack in step 4/5 of the current combat

    @property
    def id(self) -> str:
        return self.spec.id

    @property
    def side(self) -> str:
        return self.spec.side

    @property
    def card(self) -> str | None:
        return self.spec.card

    @property
    def on_board(self) -> bool:
        return self.where == "board"


@dataclass
class _Decl:
    """A declaration after its checks: everything fixed at declaration time."""

    d: Declaration
    role: Role
    card: str | None
    ability: str | None
    effect: tuple
    inline: bool
    self_id: str | None
    target_id: str | None
    target_cell: str | None
    chosen_cell: str | None
    applies: tuple[str, ...]
    slot: tuple[str, int] | None = None  # (side, slot index) of a set special card
    from_cells: dict = field(default_factory=dict)  # piece id → its cell at declaration


class _Need(Exception):
    """A stat the card data and the file do not give is needed; `why` says for what, as data
    ({need: tie | hp-left | hp-lowered | attacker-atk, level, what, step}) worded by the problem
    catalogue. `needs` lists every (piece, stat, why) the one decision that stopped needs: a tie
    compares the stat of every tied piece, so all the unknown ones are needed at once (each a
    problem of its own); anything later depends on their values and is not looked at."""

    def __init__(self, piece: _P, stat: str, why: dict, more: tuple = ()):
        self.piece, self.stat, self.why = piece, stat, why
        self.needs = ((piece, stat, why), *more)


def _tie_cites(level: int) -> list[str]:
    if level <= 0:
        return []
    out = ["combat.tiebreak", "interp.tiebreak.current-hp"]
    if level >= 4:
        out.append("interp.tiebreak.listing-order")
    return out


class Engine:
    def __init__(self, scn: Scenario, corpus, as_of: str, effects: dict, combat_order=None,
                 overrides: dict[str, bool] | None = None, budget=None):
        self.scn = scn
        self.budget = budget  # a game record's shared budget (engine/budget.py), or None
        self.corpus = corpus
        self.as_of = as_of
        # the decisions the dated rulings set, on this day (engine/decisions.py); it records what was asked
        self.rules = rules_at(corpus, as_of, overrides)
        self.effects = effects
        self.order_override = tuple(combat_order) if combat_order is not None else None
        self.attacker, self.defender = scn.attacker, scn.defender
        self.pieces: dict[str, _P] = {}
        self.by_cell: dict[str, list[_P]] = {}
        # pieces by (side, card) and by side, in listing order, on the board or not: where a declaration
        # looks for its declaring piece or its cost without scanning every piece of the scenario
        self.by_card: dict[tuple, list[_P]] = {}
        self.by_side: dict[str, list[_P]] = {}
        for spec in scn.pieces:
            p = _P(spec, spec.state, spec.cell)
            self.pieces[spec.id] = p
            self.by_cell.setdefault(spec.cell, []).append(p)
            self.by_card.setdefault((spec.side, spec.card), []).append(p)
            self.by_side.setdefault(spec.side, []).append(p)
        self.slots = {s: list(v) for s, v in scn.field.items()} if scn.field is not None else None
        self.bonds: dict[str, set[str]] = {}  # 결속 partners per side, fixed at the start (cards/amplifier.py)
        self._remote: list | None = None  # pieces with a remote (전투) SP (remote_step)
        self.events: list[Event] = []
        self.unresolved: list[dict] = []
        self.assumed: list[dict] = []
        self._assumed_keys: set = set()
        self._gap_keys: set = set()
        self.prisoners: dict[str, list[str]] = {scn.attacker: [], scn.defender: []}
        self.fragments: list[str] = []
        self.removed: list[str] = []
        self.stack: list[_Decl] = []
        self.ended: set[str] = set()  # cells whose combat ended on the spot (vacated-combat-continues false)
        self.cells_out: list[CellResult] = []
        self.vacated_cause: dict[str, str] = {}
        self._combat_cells: set[str] = set()
        self._used_slots: set = set()
        self.built: list[str] = []  # pieces placed by a build effect (their specs are in `pieces` of the result)
        self.order_used: list[str] = []
        self.rounds_used = 0  # rounds of every cell so far (MAX_TOTAL_ROUNDS)

    # ----------------------------------------------------------- helpers ----
    def ask(self, decision: str) -> Answer:
        """What a decision is on this day and which ruling the explanation cites (recorded as consulted)."""
        return self.rules.ask(decision)

    def rule_gap(self, a: Answer, **kw) -> None:
        """A `ruling-not-in-force` gap: the decision is unknown on this day (the ruling that settles it is
        later, or withdrawn) and the engine computed with its reading (Decision.while_unknown). `kw` holds
        `ruling=a.cite` where the gap's keys put it."""
        self.gap(UnresolvedReason.RULING_NOT_IN_FORCE, **kw, **_withdrawn(a))

    def emit(self, type_: E, **kw) -> None:
        self.events.append(Event.make(type_._value_, **kw))  # (_value_: the enum's value, read directly)

    def assume(self, key, **kw) -> None:
        if key in self._assumed_keys:
            return
        self._assumed_keys.add(key)
        self.assumed.append(kw)

    def gap(self, reason: UnresolvedReason, **kw) -> None:
        item = {"reason": reason.value, **kw}
        key = repr(sorted(item.items(), key=lambda kv: kv[0]))
        if key not in self._gap_keys:
            self._gap_keys.add(key)
            self.unresolved.append(item)

    def opp(self, side: str) -> str:
        return self.defender if side == self.attacker else self.attacker

    def role(self, side: str) -> Role:
        return Role.ATTACKER if side == self.attacker else Role.DEFENDER

    def in_cell(self, cell: str, side: str | None = None) -> list[_P]:
        return [p for p in self.by_cell.get(cell, ()) if side is None or p.side == side]

    def mobile(self, cell: str, side: str) -> list[_P]:
        return [p for p in self.by_cell.get(cell, ()) if p.side == side and p.state is MOBILE]

    def both_present(self, cell: str) -> bool:
        sides = {p.side for p in self.by_cell.get(cell, ())}
        return len(sides) == 2

    def _take_off(self, p: _P) -> None:
        lst = self.by_cell.get(p.cell)
        if lst is not None:
            lst.remove(p)
        p.cell = None

    def _put(self, p: _P, cell: str) -> None:
        lst = self.by_cell.setdefault(cell, [])
        i = len(lst)
        while i > 0 and lst[i - 1].spec.order > p.spec.order:
            i -= 1
        lst.insert(i, p)
        p.cell = cell

    def forbid(self, reason: str, rule: str, d: Declaration | None = None, key: str | None = None,
               ruling: str | None = None, **detail) -> Forbidden:
        """A play the rules forbid (errors.Forbidden), located at item d (key) of the scenario."""
        line = (d.line_of(key) if key else d.line) if d is not None else None
        where = (f"{d.where}.{key}" if key else d.where) if d is not None else None
        refs = {}
        for i in (rule, ruling):
            if i in self.corpus.clauses:
                refs[i] = self.corpus.clauses[i]["title"]
            elif i in self.corpus.rulings:
                refs[i] = self.corpus.rulings[i]["title"]
        labels = {p.id: p.spec.label for p in self.pieces.values()}
        return Forbidden(reason, rule, ruling=ruling, file=self.scn.file, line=line, key=where,
                         detail={**detail, "labels": labels}, refs=refs)

    def error(self, d: Declaration | None, key: str | None, code: str, /, **params) -> DataError:
        """An invalid scenario at item d (key): a problem code and its data (worded later)."""
        if d is None:
            return DataError([Problem(self.scn.file, None, key, code=code, params=params)])
        return DataError([Problem(self.scn.file, d.line_of(key) if key else d.line,
                                  f"{d.where}.{key}" if key else d.where, code=code, params=params)])

    # ------------------------------------------------------------- stats ----
    def stat(self, p: _P, stat: str, why: dict) -> int:
        if stat == "lv":
            base = p.field_lv if p.field_lv is not None else p.spec.lv
            return (self.unknown(p, "lv", why) if base is None else base) + p.b_lv
        if stat == "hp":
            return (self.unknown(p, "hp", why) if p.spec.hp is None else p.spec.hp) + p.b_hp - p.damage
        if stat == "atk":
            return (self.unknown(p, "atk", why) if p.spec.atk is None else p.spec.atk) + p.b_atk
        return self.unknown(p, "cost", why) if p.spec.cost is None else p.spec.cost

    @staticmethod
    def unknown(p: _P, stat: str, why: dict) -> int:
        """A stat nobody gave, needed: the runner's probe when it follows that stat (engine/probe.py:
        one value standing for a range), else the need stops the run (stat-unknown)."""
        probe = PROBE.get()
        if probe is not None and probe.matches(unknown_key(p.spec.card, p.id), stat):
            return probe.value()
        raise _Need(p, stat, why)

    def hp_or_none(self, p: _P) -> int | None:
        return None if p.spec.hp is None else p.spec.hp + p.b_hp - p.damage

    @staticmethod
    def _why(level: int, what: tuple[str, int | None]) -> dict:
        """Why a tie at `level` needs a stat: in which choice (`what`: effect-target | attack-order |
        attack-target, and the step) — data for the problem's words (stat-unknown)."""
        return {"need": "tie", "level": level, "what": what[0], "step": what[1]}

    def rank(self, group: list[_P], what: tuple[str, int | None], top_only: bool = False) -> list[tuple[_P, int]]:
        """Priority order (combat.tiebreak): Lv, current HP, ATK, cost, then listing order.

        Returns (piece, level) pairs; level = index of the comparison that placed
        the piece (0 Lv, 1 HP, 2 ATK, 3 cost, 4 listing order). A stat is read
        only when a comparison needs it; with top_only, only the first place is
        decided."""
        out: list[tuple[_P, int]] = []

        def rec(g: list[_P], level: int) -> None:
            if len(g) == 1:
                out.append((g[0], level))
                return
            if level == 4:
                ordered = sorted(g, key=lambda p: p.spec.order)
                for p in (ordered[:1] if top_only else ordered):
                    out.append((p, 4))
                if ("interchangeable", tuple(p.id for p in g)) not in self._assumed_keys:
                    self.assume(("listing", tuple(p.id for p in ordered)), choice="tiebreak-listing-order",
                                pieces=[p.id for p in ordered], rule="interp.tiebreak.listing-order")
                return
            if level == 3 and not top_only and any(p.spec.cost is None for p in g):
                # Attack order: pieces tied down to ATK strike for the same amount, so their
                # order cannot change the outcome — an unknown cost is not needed here.
                rec(g, 4)
                return
            why = self._why(level, what)
            vals, needs = [], []
            for p in g:
                try:
                    vals.append((self.stat(p, STATS[level], why), p))
                except _Need as need:
                    needs += need.needs
            if needs:
                # An unknown stat is needed only if the choice could matter: pieces that are
                # mechanically identical (same card, state, stats, damage, changes) are interchangeable.
                mech = [self._mechanics(p) for p in g]  # compared, not hashed (a probed value: engine/probe.py)
                if all(m == mech[0] for m in mech[1:]):
                    self.assume(("interchangeable", tuple(p.id for p in g)), choice="tiebreak-interchangeable",
                                pieces=[p.id for p in g], stat=STATS[level], rule="interp.tiebreak.listing-order")
                    rec(g, 4)
                    return
                # Pieces of one card share its unknown value: their order is the order of what was added
                # to or taken from it (HP x−1 < HP x whatever x is), so the value itself is not needed.
                shared = self._shared_unknown(g, STATS[level])
                if shared is None:  # else the comparison reads every tied piece's stat: each unknown one
                    raise _Need(*needs[0], more=tuple(needs[1:]))
                vals = shared
            desc = sorted((v for v, _ in vals), reverse=True)
            for v in [v for i, v in enumerate(desc) if i == 0 or v != desc[i - 1]]:  # distinct, by comparing
                sub = [p for vv, p in vals if vv == v]
                rec(sub, level + 1 if len(sub) > 1 else level)
                if top_only and out:
                    return

        if len(group) == 1:  # nothing to compare
            return [(group[0], 0)]
        if group:
            rec(list(group), 0)
        return out

    @staticmethod
    def _shared_unknown(g: list[_P], stat: str) -> list[tuple[int, _P]] | None:
        """When every piece of `g` is of one card whose `stat` is unknown (not given for any of them), the
        pieces' values differ only by what the combat added or took: those offsets, comparable as the
        values are. None otherwise (a known value, another card, a piece named in the file only)."""
        cards = {p.spec.card for p in g}
        if len(cards) != 1 or None in cards:
            return None
        out = []
        for p in g:
            if stat == "lv":
                if p.field_lv is not None or p.spec.lv is not None:
                    return None
                out.append((p.b_lv, p))
            elif stat == "hp":
                if p.spec.hp is not None:
                    return None
                out.append((p.b_hp - p.damage, p))
            elif stat == "atk":
                if p.spec.atk is not None:
                    return None
                out.append((p.b_atk, p))
            else:
                if p.spec.cost is not None:
                    return None
                out.append((0, p))
        return out

    @staticmethod
    def _mechanics(p: _P) -> tuple:
        s = p.spec
        lv = p.field_lv if p.field_lv is not None else s.lv
        # an unknown stat is the same unknown for two pieces of one card, so what was added to or
        # taken from it still tells them apart (HP x+1 is more than HP x whatever x is)
        return (s.side, s.card, s.structure, p.state, ("?", p.b_lv) if lv is None else lv + p.b_lv,
                ("?", p.b_hp - p.damage) if s.hp is None else s.hp + p.b_hp - p.damage,
                ("?", p.b_atk) if s.atk is None else s.atk + p.b_atk, s.cost)

    def pick_target(self, cell: str, side: str, what: tuple[str, int | None]) -> tuple[_P, int, dict] | None:
        """combat.targeting: the side's highest-priority mobile piece in the cell, else settled.

        Returns (piece, tie level, why): why says from which pool the target came (``mobile`` |
        ``settled``), among how many candidates, and which comparison picked it (``only`` | ``lv`` |
        ``hp`` | ``atk`` | ``cost`` | ``listing``) with the deciding value and the clause."""
        pool = "mobile"
        cands = self.mobile(cell, side)
        if not cands:
            pool = "settled"
            cands = [p for p in self.in_cell(cell, side) if p.state is SETTLED]
        if not cands:
            return None
        target, level = self.rank(cands, what, top_only=True)[0]
        by = "only" if len(cands) == 1 else ("lv", "hp", "atk", "cost", "listing")[level]
        value = None
        if by == "lv":
            value = self.lv_or_none(target)
        elif by == "hp":
            value = self.hp_or_none(target)
        elif by == "atk":
            value = self.atk_or_none(target)
        elif by == "cost":
            value = target.spec.cost
        rule = _TARGET_RULE.get(by, "combat.targeting")
        why = {"target_pool": pool, "target_candidates": len(cands), "target_by": by, "target_value": value,
               "target_lv": self.lv_or_none(target), "target_rule": rule}
        return target, level, why

    def lv_or_none(self, p: _P) -> int | None:
        base = p.field_lv if p.field_lv is not None else p.spec.lv
        return None if base is None else base + p.b_lv

    def atk_or_none(self, p: _P) -> int | None:
        return None if p.spec.atk is None else p.spec.atk + p.b_atk

    # ------------------------------------------------------------- field ----
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

    # ---------------------------------------------------- response turn ----
    def declare_all(self, encounters: list[str]) -> None:
        if not self.scn.response:
            return
        if not encounters:
            raise self.forbid("no-encounter", "response.when", self.scn.response[0])
        response_cells: set[str] = set()
        known = set(encounters)  # membership, asked once per attack of every declaration
        for d in self.scn.response:
            decl = self.declare(d, encounters, response_cells, phase="response", encounter_set=known)
            if decl.role is Role.DEFENDER:
                response_cells.update(decl.applies)
            self.stack.append(decl)
        self._response_cells = set(response_cells)

    def _ability_for(self, d: Declaration, timing: str) -> tuple[str | None, dict | None]:
        card = self.corpus.cards[d.card]
        if card["type"] == "special":
            if d.ability not in (None, d.card):
                names = [a["name"] for a in card["abilities"]]
                if d.ability not in names:
                    raise self.error(d, "ability", "special-no-ability", card=d.card, ability=d.ability)
            t = card.get("timing")
            if t is None:
                self.assume(("timing", d.card), choice="card-timing-unknown", card=d.card,
                            rule="field.special.response-set" if timing == "대응" else "combat.step1.battle-cards")
            elif t != timing:
                raise self.forbid("card-wrong-timing", "response.declare.what" if timing == "대응"
                                  else "combat.step1.battle-cards", d, "card", card=d.card, card_timing=t,
                                  timing=timing)
            return None, card
        abil = [a for a in card["abilities"] if a["timing"] == timing]
        if d.ability is not None:
            named = [a for a in card["abilities"] if a["name"] == d.ability]
            if not named:
                raise self.error(d, "ability", "no-such-ability", card=d.card, ability=d.ability,
                                 abilities=[a["name"] for a in card["abilities"]])
            if named[0]["timing"] != timing:
                raise self.forbid("ability-wrong-timing", "response.declare.what" if timing == "대응"
                                  else "combat.step3.sp", d, "ability", card=d.card, ability=d.ability,
                                  ability_timing=named[0]["timing"], timing=timing)
            return d.ability, card
        if not abil:
            raise self.forbid("no-timing-sp", "response.declare.what", d, "card", card=d.card, timing=timing)
        if len(abil) > 1:
            raise self.error(d, "card", "several-abilities", card=d.card, timing=timing,
                             abilities=[a["name"] for a in abil])
        return abil[0]["name"], card

    def declare(self, d: Declaration, encounters: list[str], response_cells: set[str], phase: str,
                combat_cell: str | None = None, encounter_set: set[str] | None = None) -> _Decl:
        """Check one declaration at declaration time and perform its flip and costs
        (`encounter_set`: the encounters as a set, when the caller has one)."""
        if encounter_set is None:
            encounter_set = set(encounters)
        timing = "대응" if phase == "response" else "전투"
        role = self.role(d.side)
        counter = phase == "response" and role is Role.ATTACKER
        counter_rule = None
        if counter:
            # the page dates the 맞대응 exception for set (대응) cards (counter-with-set-cards; its earlier rule:
            # only in the opponent's round); whether a settled piece's (대응) SP could counter before it, the
            # pages do not say (counter-with-piece-sp: declared under its reading and reported as a gap)
            special = d.card is None or self.corpus.cards[d.card]["type"] == "special"
            counter_rule = self.ask(COUNTER_CARDS if special else COUNTER_SP)
            if not counter_rule.applied:
                raise self.forbid("counter-before-ruling", "response.opener", d, "side", ruling=counter_rule.cite,
                                  side=d.side, as_of=self.as_of, date=counter_rule.date, **_withdrawn(counter_rule))
            if not counter_rule.known:
                self.rule_gap(counter_rule, ruling=counter_rule.cite, index=d.index, side=d.side, card=d.card,
                              rule="response.counter.requirements")
        ability = None
        card = None
        edef = None
        if d.card is not None:
            ability, card = self._ability_for(d, timing)
            edef = fx.find(self.effects, d.card, ability)
        inline = d.effect is not None
        effect = d.effect if inline else (edef.effect if edef is not None else None)
        # an effect the pages do not give: declared, its cost paid, and reported as a gap at resolution
        # (the rest of the combat is computed without it); a scenario may supply it with `effect:`
        unknown = effect is None
        if unknown:
            effect = ()
        if inline and edef is not None and edef.known:
            self.assume(("inline", d.where), choice="inline-effect-overrides-card", card=d.card, index=d.index,
                        rule="response.declare.timing" if phase == "response" else "combat.step1.battle-cards")

        # who declares: a set special card, or a settled piece's SP (flipped now)
        self_id = None
        slot = None
        if card is not None and card["type"] == "piece":
            if phase != "response":
                raise self.forbid("piece-sp-in-battle-cards", "combat.step3.sp", d, "card", card=d.card)
            self_id = self._declaring_piece(d)
        elif card is not None and phase == "response":
            slot = self._use_set_card(d)

        # player choices, fixed now (response.declare.timing)
        need_target = any(getattr(pr, "piece", None) == fx.TARGET for pr in effect)
        need_cell = any(getattr(pr, "cell", None) == fx.CHOSEN for pr in effect)
        target = None
        if d.target is not None:
            target = self.pieces[d.target]
            if not target.on_board:
                raise self.forbid("target-gone", "response.declare.timing", d, "target", target=d.target)
        elif need_target:
            raise self.error(d, None, "target-required", card=d.card)
        if target is not None and edef is not None and not inline:
            want = edef.choose.get("target")
            if want in ("own-settled-piece", "own-piece") and target.side != d.side:
                raise self.forbid("target-not-own", "response.declare.timing", d, "target", card=d.card,
                                  target=target.id, target_side=target.side)
            if want == "own-settled-piece" and target.state is not SETTLED:
                raise self.forbid("target-not-settled", "response.declare.timing", d, "target", card=d.card,
                                  target=target.id)
        chosen = d.cell
        if need_cell and chosen is None:
            if phase != "response":
                chosen = combat_cell
            else:
                raise self.error(d, None, "cell-required", card=d.card)
        ctx = {"target": target.id if target else None, "self": self_id, "chosen": chosen}

        applies: list[str] = []
        from_cells: dict[str, str] = {}

        def add(c):
            if c is not None and c not in applies:
                applies.append(c)

        for pr in effect:
            if isinstance(pr, fx.Attack):
                cell = self._cell_ref(pr.cell, ctx, d, combat_cell)
                if phase == "response" and cell not in encounter_set:
                    raise self.forbid("attack-cell-not-encounter", "response.attack-cells", d,
                                      "cell" if d.cell is not None else "effect", cell=cell, encounters=list(encounters))
                if phase == "response" and not self.both_present(cell):
                    # an earlier cost emptied one side: still an encounter cell for declaring
                    self.assume(("encounter-at-opening", cell), choice="encounter-at-opening", cell=cell,
                                rule="response.attack-cells", interpretation="interp.encounter.at-opening")
                add(cell)
            elif isinstance(pr, fx.Buff) and pr.piece == fx.BONDED:
                add(self._cell_ref(pr.cell, ctx, d, combat_cell) if pr.cell else combat_cell)
            elif isinstance(pr, fx.Build):
                info = self.corpus.cards.get(pr.card)
                if info is None or info["type"] != "piece":
                    raise self.error(d, "effect", "build-card-unknown", card=pr.card,
                                     candidates=[n for n, c in self.corpus.cards.items()
                                                 if c["type"] == "piece" and (pr.card in n or n in pr.card)][:3])
                if pr.id is not None and pr.id in self.pieces:
                    raise self.error(d, "effect", "build-id-taken", id=pr.id)
                add(self._cell_ref(pr.cell, ctx, d, combat_cell))
            else:
                pid = self._piece_ref(pr.piece, ctx, d)
                p = self.pieces[pid]
                if not p.on_board:
                    raise self.forbid("effect-piece-gone", "response.declare.timing", d, "effect", piece=pid)
                from_cells[pid] = p.cell
                add(p.cell)
                if isinstance(pr, fx.Move):
                    self._check_move(d, p, pr.to)
                    add(pr.to)
        if d.cell is not None and not applies:
            add(d.cell)

        if counter:
            if not set(applies) & response_cells:
                raise self.forbid("counter-off-response-cell", "response.counter", d, "side", applies=list(applies),
                                  response_cells=sorted(response_cells, key=cell_sort_key))

        decl = _Decl(d=d, role=role, card=d.card, ability=ability, effect=tuple(effect), inline=inline, self_id=self_id,
                     target_id=target.id if target else None, target_cell=target.cell if target else None,
                     chosen_cell=chosen, applies=tuple(applies), slot=slot, from_cells=from_cells)
        ev = dict(index=d.index, side=d.side, role=role.value, card=d.card, ability=ability, piece=self_id,
                  target=decl.target_id, chosen_cell=chosen, applies=list(applies), counter=counter,
                  effect=[pr.describe() for pr in effect], inline=inline, effect_known=not unknown)
        if phase == "response":
            rule, ruling = ("response.counter", counter_rule.cite) if counter else (
                "response.opener" if d.index == 0 else "response.declare.order", None)
            self.emit(E.DECLARE, phase="response", **ev, rule=rule, ruling=ruling)
        else:
            self.emit(E.DECLARE, cell=combat_cell, step=1, **ev, rule="combat.step1.battle-cards")

        if self_id is not None:  # a piece's SP: flipped face up at declaration
            p = self.pieces[self_id]
            p.state = MOBILE
            self.emit(E.FLIP, cell=p.cell, piece=p.id, **{"from": "settled"}, to="mobile", phase="response",
                      rule="response.declare.timing")
        self._pay(d, decl, edef, phase)
        return decl

    def _cell_ref(self, ref, ctx, d, combat_cell):
        if ref == fx.CHOSEN:
            return ctx["chosen"]
        if ref is None:
            # an effect without its own cell applies where the item says (`cell:`), else
            # (step 1) the combat's own cell
            if ctx["chosen"] is not None:
                return ctx["chosen"]
            if combat_cell is None:
                raise self.error(d, "effect", "attack-effect-cell")
            return combat_cell
        return ref

    def _piece_ref(self, ref, ctx, d) -> str:
        if ref == fx.TARGET:
            return ctx["target"]
        if ref == fx.SELF:
            if ctx["self"] is None:
                raise self.error(d, "effect", "self-outside-sp")
            return ctx["self"]
        if ref not in self.pieces:
            raise self.error(d, "effect", "effect-unknown-piece", piece=ref)
        return ref

    def _declaring_piece(self, d: Declaration) -> str:
        if d.piece is not None:
            p = self.pieces[d.piece]
            if p.card != d.card or p.side != d.side:
                raise self.error(d, "piece", "piece-not-card", piece=p.id, side=d.side, card=d.card)
            if not p.on_board:
                raise self.forbid("sp-piece-gone", "response.declare.timing", d, "piece", piece=p.id)
            if p.state is not SETTLED:
                raise self.forbid("sp-piece-mobile", self._sp_rule(d), d, "piece", piece=p.id, card=d.card,
                                  timing="대응")
            return p.id
        cands = [p for p in self.by_card.get((d.side, d.card), ()) if p.on_board and p.state is SETTLED]
        if not cands:
            raise self.forbid("no-settled-sp-piece", self._sp_rule(d), d, "card", side=d.side, card=d.card,
                              timing="대응")
        if len(cands) > 1:
            self.assume(("declaring", d.where), choice="declaring-piece", index=d.index, piece=cands[0].id,
                        candidates=[p.id for p in cands], rule="response.declare.what")
        return cands[0].id

    def _sp_rule(self, d: Declaration) -> str:
        """The clause that makes a piece's SP need a settled piece: for a 맞대응 its own requirements clause."""
        return "response.counter.requirements" if self.role(d.side) is Role.ATTACKER else "response.declare.what"

    def _use_set_card(self, d: Declaration):
        if self.slots is None:
            self.assume(("set-assumed",), choice="set-cards-assumed", rule="field.special.response-set")
            return None
        slots = self.slots.get(d.side) or []
        for i, s in enumerate(slots):
            if s is not None and s.card == d.card and s.type == "special" and (side_slot := (d.side, i)) not in self._used_slots:
                self._used_slots.add(side_slot)
                return side_slot
        raise self.forbid("response-card-not-set", "field.special.response-set", d, "card", card=d.card, side=d.side)

    def _check_move(self, d: Declaration, p: _P, to: str) -> None:
        if p.spec.structure:
            a = self.ask(STRUCT_IMMOVABLE)
            if a.applied:
                raise self.forbid("structure-cannot-move", "move.structures", d, "effect", ruling=a.cite, piece=p.id)
            if not a.known:
                self.rule_gap(a, ruling=a.cite, piece=p.id, rule="move.structures")
        if p.cell == to:
            return
        here = self.in_cell(to)
        mine = sum(1 for q in here if q.side == p.side)
        if mine >= SIDE_LIMIT or len(here) >= CELL_LIMIT:
            raise self.forbid("move-destination-full", "response.move-impossible", d, "effect", piece=p.id, to=to,
                              side=p.side, mine=mine, total=len(here), side_limit=SIDE_LIMIT, cell_limit=CELL_LIMIT)

    def _pay(self, d: Declaration, decl: _Decl, edef, phase: str) -> None:
        given = list(d.cost)
        to_pay: list[str] = []
        for c in (edef.cost if edef is not None else ()):
            if c.piece == fx.SELF:
                if decl.self_id is None:
                    raise self.error(d, "cost", "cost-self-outside-sp")
                to_pay.append(decl.self_id)
                continue

            def ok(p: _P) -> bool:
                return (p.on_board and (p.side == d.side) == c.own and (c.card is None or p.card == c.card)
                        and (c.state is None or p.state is c.state) and p.id not in to_pay)

            what = {"own": c.own, "state": c.state.value if c.state is not None else None, "cost_card": c.card}
            hit = next((g for g in given if ok(self.pieces[g.piece])), None)
            if hit is not None:
                given.remove(hit)
                to_pay.append(hit.piece)
                continue
            bad = next((g for g in given), None)
            if bad is not None:
                raise self.forbid("cost-mismatch", "response.declare.timing", d, "cost", piece=bad.piece, card=d.card,
                                  **what)
            pool = (self.pieces.values() if not c.own else self.by_card.get((d.side, c.card), ()) if c.card is not None
                    else self.by_side.get(d.side, ()))  # the same pieces in the same order, fewer looked at
            cands = [p for p in pool if ok(p)]
            if not cands:
                raise self.forbid("cost-unpayable", "response.declare.timing", d, "cost", card=d.card, **what)
            if len(cands) > 1:
                raise self.error(d, "cost", "cost-choice", card=d.card, candidates=[p.id for p in cands])
            self.assume(("cost", d.where), choice="cost-piece", index=d.index, piece=cands[0].id,
                        rule="response.declare.timing")
            to_pay.append(cands[0].id)
        for g in given:  # costs given in the scenario beyond the card's own
            p = self.pieces[g.piece]
            if not p.on_board:
                raise self.forbid("cost-piece-gone", "response.declare.timing", d, "cost", piece=p.id, card=d.card)
            if p.side != d.side:
                raise self.forbid("cost-not-own", "response.declare.timing", d, "cost", piece=p.id, piece_side=p.side,
                                  card=d.card)
            if p.id in to_pay:
                raise self.error(d, "cost", "cost-twice", piece=p.id)
            to_pay.append(p.id)
        hooks = hooks_of(edef.card) if edef is not None else None  # a card's own cost (engine/cards/explosive.py)
        for pid in to_pay:
            p = self.pieces[pid]
            cell = p.cell
            own = hooks.own_cost(self, decl, pid) if hooks is not None else None
            rule, ruling = own if own is not None else ("response.declare.timing", None)
            self._take_off(p)
            if p.spec.structure:
                p.where = "fragment"
                self.fragments.append(pid)
            else:
                p.where = "removed"
                self.removed.append(pid)
            kw = {"phase": phase} if phase == "response" else {"step": 1}
            self.emit(E.COST, cell=cell, **kw, index=d.index, piece=pid, side=p.side, action="destroy",
                      result=p.where if p.where == "fragment" else "removed", rule=rule, ruling=ruling)
            if p.spec.structure:
                self.emit(E.FRAGMENT, cell=cell, **kw, piece=pid, by=None, side=None, reason="cost",
                          rule="combat.capture")
            self._left_board(p, cell, None if phase == "response" else 1)

    # ------------------------------------------------------- resolution ----
    def resolve(self, decl: _Decl, at: str, step: int) -> None:
        d = decl.d
        self.emit(E.RESOLVE, cell=at, step=step, index=d.index, side=d.side, card=decl.card, ability=decl.ability,
                  at=at, rule="response.resolve.lifo" if step == 2 else "combat.step1.battle-cards")
        ctx = {"target": decl.target_id, "self": decl.self_id, "chosen": decl.chosen_cell}
        if not decl.effect:
            self.gap(UnresolvedReason.EFFECT_UNKNOWN, cell=at, index=d.index, side=d.side, card=decl.card,
                     ability=decl.ability, declared=True,
                     rule="response.resolve.lifo" if step == 2 else "combat.step1.battle-cards")
        for pr in decl.effect:
            self.apply(pr, decl, ctx, at, step)
        if decl.slot is not None and self.slots is not None:  # a special card goes to the trash: its slot empties
            side, i = decl.slot
            under = self.slots[side][i].under if self.slots[side][i] is not None else None
            self.emit(E.FIELD, cell=at, step=step, side=side, effect="trash", card=decl.card, slot=i + 1,
                      source=None, pieces=[], lv=None, **({"under": under.card} if under is not None else {}),
                      rule="field.special.trash")
            self._slot_left(side, i, at, step)

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

    def _left_board(self, p: _P, cell: str, step: int | None) -> None:
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

    def fizzle(self, decl: _Decl, at: str, step: int, reason: FizzleReason, pr, piece=None, cell=None,
               rule="response.fizzle", ruling=None) -> None:
        self.emit(E.FIZZLE, cell=at, step=step, index=decl.d.index, reason=reason.value, piece=piece, where=cell,
                  primitive=pr.describe(), rule=rule, ruling=ruling)

    def apply(self, pr, decl: _Decl, ctx, at: str, step: int) -> None:
        step_rule = "combat.step2.response" if step == 2 else "combat.step1.battle-cards"
        if isinstance(pr, fx.Attack):
            cell = ctx["chosen"] if pr.cell == fx.CHOSEN else (pr.cell or ctx["chosen"] or at)
            if pr.amount <= 0:
                # like a piece with ATK 0 or less: no attack is executed (no damage, no capture)
                self.emit(E.NO_ATTACK, cell=cell, step=step, actor=decl.self_id, side=decl.d.side, source=decl.card,
                          atk=pr.amount, why="atk-zero", rule="combat.attack")
                return None
            if cell in self.ended:
                return self.fizzle(decl, at, step, FizzleReason.COMBAT_ENDED, pr, cell=cell,
                                   rule="response.resolve.depart", ruling=self.ask(VACATED).cite)
            tgt = self.pick_target(cell, self.opp(decl.d.side), ("effect-target", None))
            if tgt is None:
                vac = cell in self._combat_cells
                return self.fizzle(decl, at, step, FizzleReason.NO_TARGET, pr, cell=cell,
                                   rule="response.resolve.depart" if vac else "response.fizzle",
                                   ruling=a.cite if vac and (a := self.ask(VACATED)).applied else None)
            target, level, why = tgt
            actor = self.pieces.get(decl.self_id) if decl.self_id else None
            if actor is not None and not actor.on_board:
                # the declaring piece is gone (e.g. a 폭약 destroyed as the cost): the effect attacks, not the piece
                why = {**why, "actor_where": actor.where}
            self.hit(cell, step, None, decl.self_id, decl.d.side, pr.amount, target, level, [],
                     rule="response.rule-targets" if step == 2 else step_rule, source=decl.card,
                     why={**why, "index": decl.d.index, "ability": decl.ability})
            return None
        if isinstance(pr, fx.Buff) and pr.piece == fx.BONDED:
            cell = (ctx["chosen"] if pr.cell == fx.CHOSEN else pr.cell) or at
            bonded = self.bonded_cards(decl.d.side)
            if bonded is None:
                self.assume(("no-field-bond",), choice="bond-unknown-without-field", rule="field.position-reference")
                return self.fizzle(decl, at, step, FizzleReason.NO_TARGET, pr, cell=cell,
                                   rule="field.position-reference")
            hits = [p for p in self.in_cell(cell, decl.d.side) if p.card in bonded]
            if not hits:
                return self.fizzle(decl, at, step, FizzleReason.NO_TARGET, pr, cell=cell, rule="response.rule-targets")
            for p in hits:
                self.buff(p, pr, step, decl.card, step_rule)
            return None
        if isinstance(pr, fx.Build):
            return self.build(pr, decl, ctx, at, step)
        pid = self._ref(pr.piece, ctx)
        p = self.pieces.get(pid)
        was = decl.from_cells.get(pid)
        if p is None or not p.on_board or (was is not None and p.cell != was):
            return self.fizzle(decl, at, step, FizzleReason.TARGET_GONE, pr, piece=pid, cell=was)
        if isinstance(pr, fx.Flip):
            if p.state is pr.to:
                return self.fizzle(decl, at, step, FizzleReason.ALREADY, pr, piece=pid, cell=p.cell)
            old = p.state
            p.state = pr.to
            self.emit(E.FLIP, cell=p.cell, step=step, piece=pid, **{"from": old.value}, to=pr.to.value, rule=step_rule)
            return None
        if isinstance(pr, fx.Move):
            if p.cell == pr.to:
                return self.fizzle(decl, at, step, FizzleReason.ALREADY, pr, piece=pid, cell=p.cell)
            here = self.in_cell(pr.to)
            if sum(1 for q in here if q.side == p.side) >= SIDE_LIMIT or len(here) >= CELL_LIMIT:
                return self.fizzle(decl, at, step, FizzleReason.MOVE_BLOCKED, pr, piece=pid, cell=pr.to,
                                   rule="move.limit")
            src = p.cell
            self._take_off(p)
            self._put(p, pr.to)
            # from_combat: src holds a combat this turn (the piece is out of it); joins: ``combat`` — the
            # destination is this very combat (in from step 3), ``later-combat`` — another combat cell of
            # this turn, ``new-encounter`` — a cell that now holds both sides and fights later this turn,
            # else null (a plain move)
            from_combat = src in self._combat_cells
            if pr.to == at:
                joins = "combat"
            elif pr.to in self._combat_cells:
                joins = "later-combat"
            else:
                joins = "new-encounter" if self.both_present(pr.to) else None
            self.emit(E.DEPART, cell=src, step=step, piece=pid, to=pr.to, from_combat=from_combat, at=at,
                      rule="response.resolve.depart" if from_combat else step_rule)
            self.emit(E.ARRIVE, cell=pr.to, step=step, piece=pid, **{"from": src}, joins=joins, at=at,
                      rule={"combat": "response.resolve.arrive", "new-encounter": "response.resolve.new-encounter"}.get(
                          joins, step_rule))
            return None
        if isinstance(pr, fx.Buff):
            self.buff(p, pr, step, decl.card, step_rule)
        return None

    def build(self, pr, decl: _Decl, ctx, at: str, step: int) -> None:
        """A new piece of pr.card in its cell: placed mobile, within the cell limits (production.placement:
        '생산·건설 기물은 기동으로'; the combat page: '잠입건설로 세운 구조물도 기동'); in a combat cell it joins from
        step 3 like an arrival (response.resolve.arrive). A 맞대응 of a card that reaches several cells builds
        only in the 대응 셀 (response.counter.multi-cell: '잠입건설은 대응 셀에만 생산')."""
        side = decl.d.side
        cell = ctx["chosen"] if pr.cell == fx.CHOSEN else (pr.cell or ctx["chosen"] or at)
        if decl.role is Role.ATTACKER and cell not in getattr(self, "_response_cells", set()):
            return self.fizzle(decl, at, step, FizzleReason.BUILD_BLOCKED, pr, cell=cell,
                               rule="response.counter.multi-cell")
        here = self.in_cell(cell)
        if sum(1 for q in here if q.side == side) >= SIDE_LIMIT or len(here) >= CELL_LIMIT:
            return self.fizzle(decl, at, step, FizzleReason.BUILD_BLOCKED, pr, cell=cell, rule="production.placement")
        info = self.corpus.cards[pr.card]
        pid = pr.id
        if pid is None:
            n = 1
            while f"{side}-{pr.card}-built-{n}" in self.pieces:
                n += 1
            pid = f"{side}-{pr.card}-built-{n}"
        order = 1 + max((q.spec.order for q in self.pieces.values()), default=-1)
        given = dict(pr.stats)
        spec = PieceSpec(id=pid, side=side, cell=cell, card=pr.card, name=None, lv=given.get("lv", info.get("lv")),
                         hp=given.get("hp", info.get("hp")), atk=given.get("atk", info.get("atk")),
                         cost=info.get("cost"), state=MOBILE, structure=bool(info.get("structure")), order=order,
                         line=None, given=frozenset(given))
        p = _P(spec, MOBILE, None)
        self.pieces[pid] = p
        self.by_card.setdefault((side, pr.card), []).append(p)
        self.by_side.setdefault(side, []).append(p)
        self._put(p, cell)
        self.built.append(pid)
        if cell == at:
            joins = "combat"
        elif cell in self._combat_cells:
            joins = "later-combat"
        else:
            joins = "new-encounter" if self.both_present(cell) else None
        self.emit(E.BUILD, cell=cell, step=step, piece=pid, card=pr.card, side=side, structure=spec.structure,
                  joins=joins, at=at, index=decl.d.index, rule="production.placement")
        return None

    def _ref(self, ref, ctx):
        if ref == fx.TARGET:
            return ctx["target"]
        if ref == fx.SELF:
            return ctx["self"]
        return ref

    def buff(self, p: _P, pr, step: int, source, rule: str) -> None:
        p.b_atk += pr.atk
        p.b_hp += pr.hp
        p.b_lv += pr.lv
        self.emit(E.BUFF, cell=p.cell, step=step, piece=p.id, atk=pr.atk, hp=pr.hp, lv=pr.lv, source=source,
                  duration="combat", rule=rule)
        # combat.attack: a piece at HP 0 or less is captured at once, however it got there
        # (a lowered HP too); the piece goes to its opponent's 포로 영역
        # whether a lowered HP captures needs the HP: an unknown one is asked for, never taken as safe
        hp = self.stat(p, "hp", {"need": "hp-lowered"}) if pr.hp < 0 else None
        if hp is not None and hp <= 0:
            self._hp_capture(p, None, self.opp(p.side), p.cell, step, None)

    # ------------------------------------------------------------ attacks ----
    def hit(self, cell, step, rnd, actor_id, side, amount, target: _P, level: int, order_ties, rule, source=None,
            ruling=None, why: dict | None = None) -> None:
        settled = target.state is SETTLED
        hp_before = self.hp_or_none(target) if settled else self.stat(
            target, "hp", {"need": "hp-left"})
        target.damage += amount
        hp_after = None if hp_before is None else hp_before - amount
        self.emit(E.ATTACK, cell=cell, step=step, round=rnd, actor=actor_id, side=side, source=source,
                  target=target.id, target_state=target.state.value, amount=amount, hp_before=hp_before,
                  hp_after=hp_after, order_ties=order_ties, target_ties=_tie_cites(level), **(why or {}), rule=rule,
                  ruling=ruling)
        if settled:
            self.capture(target, actor_id, side, CaptureReason.SETTLED_HIT, cell, step, rnd, "combat.settled")
        elif hp_after <= 0:
            self._hp_capture(target, actor_id, side, cell, step, rnd)

    def _hp_capture(self, p: _P, by, side, cell, step, rnd) -> None:
        hooks = hooks_of(p.card)
        if hooks is not None:
            hooks.hp_captured(self, p, cell)
        self.capture(p, by, side, CaptureReason.HP, cell, step, rnd, "combat.attack")

    def capture(self, p: _P, by, side, reason: CaptureReason, cell, step, rnd, rule, ruling=None) -> None:
        interpretation = None
        if self.vacated_cause.get(cell) == "cost" and self.vacated_side(cell) == side:
            # the emptied side's attack effect hit a piece of the side that stayed (the page: '포획은 없습니다'
            # and '10 ATK도 정상 적중' in one paragraph) — captured by the normal rule, as the project reads it
            interpretation = "interp.vacated.effect-capture"
            self.assume(("vacated-capture", cell), choice="vacated-effect-capture", cell=cell,
                        rule="response.cost.emptied-cell", interpretation=interpretation)
        self._take_off(p)
        if p.spec.structure:
            p.where = "fragment"
            self.fragments.append(p.id)
            self.emit(E.FRAGMENT, cell=cell, step=step, round=rnd, piece=p.id, by=by, side=side, reason=reason.value,
                      because=rule, rule="combat.capture", ruling=ruling,
                      **({"interpretation": interpretation} if interpretation else {}))
        else:
            p.where = "prisoner"
            self.prisoners[side].append(p.id)
            self.emit(E.CAPTURE, cell=cell, step=step, round=rnd, piece=p.id, by=by, side=side, reason=reason.value,
                      rule=rule, ruling=ruling, **({"interpretation": interpretation} if interpretation else {}))
        self._left_board(p, cell, step)

    def volley(self, cell: str, side: str, step: int, rnd: int) -> bool:
        rule = "combat.step4.attacker-volley" if step == 4 else "combat.step5.defender-volley"
        changed = False
        order = self.rank(self.mobile(cell, side), ("attack-order", step))
        self.step(cell, step, rnd, order=[p.id for p, _ in order])
        for p, level in order:
            if not p.on_board or p.cell != cell or p.state is not MOBILE:
                continue
            if p.spec.atk is None and self._idle_whatever_atk(p, cell, side, step, rnd):
                continue  # an unknown ATK that cannot matter is not read (nor asked for)
            atk = self.stat(p, "atk", {"need": "attacker-atk"})
            if atk <= 0:
                self.emit(E.NO_ATTACK, cell=cell, step=step, round=rnd, actor=p.id, atk=atk, why="atk-zero",
                          rule="combat.structures" if p.spec.structure else (
                              "combat.step7.sweep" if atk == 0 else "interp.sweep.attack-executed"))
                continue
            ruling = None
            if p.spec.structure:
                a = self.ask(MOBILE_STRUCTURES)
                ruling = a.cite
                if not a.applied:
                    self._structure_idle(a, p, cell, step, rnd, atk)
                    continue
            tgt = self.pick_target(cell, self.opp(side), ("attack-target", step))
            if tgt is None:
                self._no_target(p, cell, step, rnd, atk)
                continue
            target, tlevel, why = tgt
            p.attacked = True
            changed = True
            self.hit(cell, step, rnd, p.id, side, atk, target, tlevel, _tie_cites(level), rule,
                     ruling=ruling, why=why)
        return changed

    def _structure_idle(self, a: Answer, p: _P, cell: str, step: int, rnd: int, atk: int | None) -> None:
        """A mobile structure that does not attack by mobile-structures-attack: unknown on this day (a gap) or
        set so by a ruling."""
        if not a.known:
            self.rule_gap(a, cell=cell, piece=p.id, ruling=a.cite, rule="combat.structures")
        self.emit(E.NO_ATTACK, cell=cell, step=step, round=rnd, actor=p.id, atk=atk,
                  why="ruling-not-in-force" if not a.known else "ruling", rule="combat.structures", ruling=a.cite,
                  **_withdrawn(a))

    def _no_target(self, p: _P, cell: str, step: int, rnd: int, atk: int | None) -> None:
        cause = self.vacated_cause.get(cell)
        self.emit(E.NO_ATTACK, cell=cell, step=step, round=rnd, actor=p.id, atk=atk, why="no-target",
                  rule={"cost": "response.cost.emptied-cell", "stack": "response.resolve.depart"}.get(
                      cause, "combat.targeting"),
                  ruling=self.ask(COST_EMPTIED if cause == "cost" else VACATED).cite if cause else None)

    def _idle_whatever_atk(self, p: _P, cell: str, side: str, step: int, rnd: int) -> bool:
        """A mobile piece whose ATK is unknown does not attack whatever its ATK: a structure while mobile
        structures do not attack yet (ruling), or no opposing piece left in the cell. Then the event is
        recorded without the ATK (None) and True is returned; False when its ATK decides."""
        if p.spec.structure and not (a := self.ask(MOBILE_STRUCTURES)).applied:
            self._structure_idle(a, p, cell, step, rnd, None)
            return True
        if not self.in_cell(cell, self.opp(side)):
            self._no_target(p, cell, step, rnd, None)
            return True
        return False

    # ------------------------------------------------------------ combats ----
    def step(self, cell, n, rnd=None, **kw) -> None:
        rule = kw.pop("rule", None) or _STEP_RULE[n]
        self.emit(E.STEP, cell=cell, step=n, round=rnd, **kw, rule=rule)

    def vacated_side(self, cell: str) -> str | None:
        sides = {p.side for p in self.by_cell.get(cell, ())}
        for s in (self.attacker, self.defender):
            if s not in sides:
                return s
        return None

    def fight(self, cell: str, first: bool, new: bool) -> CellResult:
        for p in self.in_cell(cell):
            p.attacked = False
        vac_before = self.vacated_side(cell)  # emptied by a cost or by the stack of an earlier combat
        # step 1 — (전투) special cards, declared attacker first, applied in reverse
        items = [d for d in self.scn.battle_cards if d.cell == cell]
        if items:
            self.step(cell, 1)
            declared = [self.declare(d, [cell], set(), phase="battle", combat_cell=cell) for d in items]
            for decl in reversed(declared):
                self.resolve(decl, cell, 1)
        else:
            self.step(cell, 1, skipped=True)
        vac = self.vacated_side(cell)
        if vac_before is not None:
            # (a side captured by a step-1 (전투) card is no vacancy: it was captured, and the combat goes on)
            cause = self.vacated_cause.setdefault(cell, "stack")
            self.emit(E.VACATED, cell=cell, step=1, side=vac_before, cause=cause, continues=True,
                      rule="response.cost.emptied-cell" if cause == "cost" else "response.resolve.depart",
                      ruling=self.ask(COST_EMPTIED if cause == "cost" else VACATED).cite)
        # step 2 — the response stack, in the first combat only
        resolved_here = False
        if first and self.stack:
            self.step(cell, 2)
            for decl in reversed(self.stack):
                self.resolve(decl, cell, 2)
                if (cell not in self.ended and vac is None and self.vacated_side(cell) is not None
                        and not (a := self.ask(VACATED)).applied):
                    self.ended.add(cell)
                    self.emit(E.VACATED, cell=cell, step=2, side=self.vacated_side(cell), cause="stack",
                              continues=False, rule="response.resolve.depart", ruling=a.cite)
            resolved_here = True
        else:
            self.step(cell, 2, empty=True, why="resolved-earlier" if not first else "no-stack",
                      rule="response.resolve.once" if not first else "combat.step2.response")
        if cell in self.ended:
            return self.finish(cell, 0, EndReason.VACATED, resolved_here)
        vac2 = self.vacated_side(cell)
        if vac2 is not None and vac is None:
            self.vacated_cause[cell] = "stack"
            self.emit(E.VACATED, cell=cell, step=2, side=vac2, cause="stack", continues=True,
                      rule="response.resolve.depart", ruling=self.ask(VACATED).cite)
        # step 3 — (전투) SP
        self.step(cell, 3)
        self.sp_step(cell)
        self.remote_step(cell)
        # steps 4–6
        both_mobile_none = not self.mobile(cell, self.attacker) and not self.mobile(cell, self.defender)
        if both_mobile_none:
            if self.vacated_side(cell) is None:
                self.emit(E.STANDOFF, cell=cell, step=4, rule="combat.standoff")
                return self.finish(cell, 0, EndReason.STANDOFF, resolved_here, standoff=True)
            # a cell a cost or the stack emptied still goes through every step (response.cost.emptied-cell):
            # steps 4–6 are checked and find no mobile piece to attack with
            self.step(cell, 4, None, order=[])
            self.step(cell, 5, None, order=[])
            self.step(cell, 6, None, mobile={self.attacker: [], self.defender: []}, next="step7")
            return self.finish(cell, 0, EndReason.DECIDED, resolved_here, sweep=True)
        rnd = 0
        prev_shape = None  # (composition, damage per side) of the previous round, for the projection below
        projected = None
        cap = max(1, min(MAX_ROUNDS, MAX_TOTAL_ROUNDS - self.rounds_used))  # this cell's limit
        total = {"total": MAX_TOTAL_ROUNDS} if cap < MAX_ROUNDS else {}  # the scenario's budget set it
        spend = self.budget.combat_round if self.budget is not None else None
        while True:
            rnd += 1
            if spend is not None:  # a game record: every round of every combat counts (engine/budget.py)
                spend(cell)
            before = self._round_shape(cell)
            ch4 = self.volley(cell, self.attacker, 4, rnd)
            ch5 = self.volley(cell, self.defender, 5, rnd)
            a_mob, d_mob = self.mobile(cell, self.attacker), self.mobile(cell, self.defender)
            nxt = "step7" if not (a_mob and d_mob) else ("repeat" if (ch4 or ch5) else "stalemate")
            if nxt == "repeat" and rnd >= cap:
                nxt = "round-limit"
            elif nxt == "repeat":
                shape, projected = self._project(cell, before, prev_shape, rnd)
                prev_shape = shape
                if projected is not None and projected > cap:
                    # the same pieces dealt the same damage per side two rounds running and nothing but
                    # HP changed: no piece can reach HP 0 before round `projected`, past the limit
                    nxt = "round-limit"
            self.step(cell, 6, rnd, mobile={self.attacker: [p.id for p in a_mob], self.defender: [p.id for p in d_mob]},
                      next=nxt)
            if nxt == "step7":
                break
            if nxt == "stalemate":
                self.emit(E.STALEMATE, cell=cell, step=6, round=rnd, why="no-change", rule="interp.stalemate")
                self.gap(UnresolvedReason.STALEMATE, cell=cell, round=rnd, rule="interp.stalemate")
                return self.finish(cell, rnd, EndReason.STALEMATE, resolved_here)
            if nxt == "round-limit":
                # every round so far changed something (the combat would end some day), but the
                # HP left is too high for the tool to go on: not a stalemate, a computing limit
                extra = {"projected": projected} if projected is not None and projected > cap else {}
                self.emit(E.STALEMATE, cell=cell, step=6, round=rnd, why="round-limit", limit=cap,
                          rule="combat.step6.check", **extra, **total)
                self.gap(UnresolvedReason.ROUND_LIMIT, cell=cell, round=rnd, limit=cap,
                         rule="combat.step6.check", **extra, **total)
                return self.finish(cell, rnd, EndReason.STALEMATE, resolved_here, rule="combat.step6.check")
        return self.finish(cell, rnd, EndReason.DECIDED, resolved_here, sweep=True)

    def _round_shape(self, cell: str) -> tuple:
        """What a round of steps 4–5 may change besides HP: which pieces stand here, in which
        state, with which bonuses — and the damage taken so far by each."""
        return tuple(sorted((p.id, p.side, p.state.value, p.b_atk, p.b_hp, p.b_lv, p.damage)
                            for p in self.in_cell(cell)))

    def _project(self, cell: str, before: tuple, prev_shape, rnd: int):
        """(this round's shape, earliest round the combat could end or None).

        If the same pieces (same states and bonuses) took the same total damage per side in
        this round and the previous one, only HP changed; the side's damage per round is the
        sum of its opponents' ATK, so a piece with h HP left cannot fall before
        ceil(h / damage) more rounds — a lower bound that holds whatever the targeting picks."""
        after = self._round_shape(cell)
        if [x[:6] for x in before] != [x[:6] for x in after]:
            return None, None
        dmg: dict[str, int] = {}
        for b, a in zip(before, after):
            dmg[b[1]] = dmg.get(b[1], 0) + a[6] - b[6]
        shape = (tuple(x[:6] for x in after), tuple(sorted(dmg.items())))
        if shape != prev_shape:
            return shape, None
        earliest = None
        for p in self.in_cell(cell):
            d = dmg.get(p.side, 0)
            if d <= 0:
                continue
            if p.state is SETTLED:
                return shape, None
            h = self.hp_or_none(p)
            if h is None:
                return shape, None
            k = rnd + max(1, -(-h // d))
            earliest = k if earliest is None else min(earliest, k)
        return shape, earliest

    def sp_step(self, cell: str) -> None:
        for side in (self.attacker, self.defender):
            for p in list(self.in_cell(cell, side)):
                if p.card is None:
                    continue
                for ab in self.corpus.cards[p.card]["abilities"]:
                    if ab["timing"] != "전투" or ab["kind"] != "sp":
                        continue
                    base = dict(cell=cell, step=3, piece=p.id, card=p.card, ability=ab["name"])
                    if p.state is SETTLED:
                        self.emit(E.SP, **base, fired=False, why="settled", rule="combat.settled")
                        continue
                    edef = fx.find(self.effects, p.card, ab["name"])
                    want = (edef.condition.get("role") if edef is not None else None)
                    if want is not None and want != self.role(side).value:
                        self.emit(E.SP, **base, fired=False, why=f"only-{want}", rule="combat.step3.sp")
                        continue
                    if edef is None or not edef.known:
                        self.emit(E.SP, **base, fired="unknown", why="effect-unknown", rule="combat.sp-mandatory")
                        self.gap(UnresolvedReason.EFFECT_UNKNOWN, cell=cell, piece=p.id, card=p.card,
                                 ability=ab["name"], rule="combat.sp-mandatory")
                        continue
                    self.emit(E.SP, **base, fired=True, why=None, rule="combat.sp-mandatory")
                    if sum(1 for q in self.mobile(cell, side) if q.card == p.card) > 1:
                        self.assume(("sp-per-piece", cell, p.card, ab["name"]), choice="sp-per-piece", cell=cell,
                                    card=p.card, ability=ab["name"], rule="combat.sp-mandatory")
                    for pr in edef.effect:
                        if isinstance(pr, fx.Buff) and pr.piece == fx.BONDED:
                            bonded = self.bonded_cards(side)
                            if bonded is None:
                                self.assume(("no-field-bond",), choice="bond-unknown-without-field",
                                            rule="field.position-reference")
                                continue
                            for q in self.in_cell(cell, side):
                                if q.card in bonded:
                                    self.buff(q, pr, 3, p.card, "combat.step3.sp")
                        elif isinstance(pr, fx.Buff) and pr.piece == fx.SELF:
                            self.buff(p, pr, 3, p.card, "combat.step3.sp")
                        # other primitives in a (전투) SP: none are defined by the pages

    def distance(self, a: str, b: str, reach: int) -> int | None:
        """Cells from a to b on the scenario's board, if within `reach` (else reach + 1); None
        when there is no board or a cell is not on it."""
        board = self.scn.board
        if board is None or a not in board.cells or b not in board.cells:
            return None
        seen, frontier = {a}, [a]
        for d in range(reach + 1):
            if b in frontier:
                return d
            nxt = []
            for c in frontier:
                for n in board.neighbors(c):
                    if n not in seen:
                        seen.add(n)
                        nxt.append(n)
            frontier = nxt
        return reach + 1

    def remote_step(self, cell: str) -> None:
        """Step 3, remote participants (combat.remote): a mobile piece with a remote (전투) SP in another
        cell fires in this combat's step 3 when the combat is within its reach (봉수장 지원사격: '2셀
        이내'), staying in its own cell. An effect or reach the pages do not give is reported, never
        ignored."""
        if self._remote is None:  # the pieces whose card has a remote (전투) SP, found once
            cards = {c for c, _ in REMOTE_SP}
            self._remote = [p for p in self.pieces.values() if p.card in cards]
        for side in (self.attacker, self.defender):
            for p in self._remote:
                if not p.on_board or p.side != side or p.cell == cell or p.card is None or p.state is not MOBILE:
                    continue
                for ab in self.corpus.cards[p.card]["abilities"]:
                    key = (p.card, ab["name"])
                    if ab["timing"] != "전투" or key not in REMOTE_SP:
                        continue
                    reach = REMOTE_SP[key]
                    dist = self.distance(p.cell, cell, reach) if reach is not None else None
                    base = dict(cell=cell, step=3, piece=p.id, card=p.card, ability=ab["name"], remote=True,
                                home=p.cell)
                    if self.scn.board_assumed and dist is not None:
                        self.assume(("remote-board",), choice="board", value=self.scn.board.label,
                                    rule="combat.remote")
                    if reach is None or dist is None:
                        self.emit(E.SP, **base, fired="unknown", why="range-unknown", reach=reach,
                                  rule="combat.remote")
                        self.gap(UnresolvedReason.REMOTE_RANGE_UNKNOWN, cell=cell, piece=p.id, card=p.card,
                                 ability=ab["name"], home=p.cell, reach=reach,
                                 board=self.scn.board is not None, rule="combat.remote")
                        continue
                    if dist > reach:
                        continue
                    edef = fx.find(self.effects, p.card, ab["name"])
                    want = (edef.condition.get("role") if edef is not None else None)
                    if want is not None and want != self.role(side).value:
                        self.emit(E.SP, **base, fired=False, why=f"only-{want}", distance=dist, rule="combat.step3.sp")
                        continue
                    if edef is None or not edef.known:
                        self.emit(E.SP, **base, fired="unknown", why="effect-unknown", distance=dist,
                                  rule="combat.remote")
                        self.gap(UnresolvedReason.EFFECT_UNKNOWN, cell=cell, piece=p.id, card=p.card,
                                 ability=ab["name"], remote=True, home=p.cell, distance=dist, rule="combat.remote")
                        continue
                    # no remote effect is defined by the pages yet: one given in cards/effects.yaml fires here
                    self.emit(E.SP, **base, fired=True, why=None, distance=dist, rule="combat.remote")
                    for pr in edef.effect:
                        if isinstance(pr, fx.Buff) and pr.piece == fx.SELF:
                            continue  # the remote piece takes no part in this combat
                        if isinstance(pr, fx.Buff) and pr.piece == fx.BONDED:
                            bonded = self.bonded_cards(side) or set()
                            for q in self.in_cell(cell, side):
                                if q.card in bonded:
                                    self.buff(q, pr, 3, p.card, "combat.remote")

    def finish(self, cell: str, rounds: int, reason: EndReason, resolved_here: bool, standoff: bool = False,
               sweep: bool = False, rule: str | None = None) -> CellResult:
        self.rounds_used += rounds
        if sweep:
            self.step(cell, 7)
            self.sweep(cell)
        # restore HP and combat-limited changes of the pieces still in the cell
        restored = [p.id for p in self.in_cell(cell) if p.damage or p.b_atk or p.b_hp or p.b_lv]
        for p in self.in_cell(cell):
            p.damage = p.b_atk = p.b_hp = p.b_lv = 0
        if restored:
            self.emit(E.RESTORE, cell=cell, pieces=restored, rule="combat.combat-limited")
        left = {s: [p.id for p in self.in_cell(cell, s)] for s in (self.attacker, self.defender)}
        present = [s for s in left if left[s]]
        occupant = present[0] if len(present) == 1 else None
        # who is left in the cell after step 7 (정리) holds it: combat.step7.sweep decides the occupant
        self.emit(E.END, cell=cell, occupant=occupant, standoff=standoff, rounds=rounds, reason=reason.value,
                  survivors=left,
                  rule=rule or {EndReason.STANDOFF: "combat.standoff", EndReason.STALEMATE: "interp.stalemate",
                        EndReason.VACATED: "response.resolve.depart"}.get(reason, "combat.step7.sweep"),
                  ruling=self.ask(COST_EMPTIED if self.vacated_cause.get(cell) == "cost" else VACATED).cite
                  if reason is EndReason.VACATED else None)
        return CellResult(cell=cell, occupant=occupant, standoff=standoff, rounds=rounds,
                          survivors={s: tuple(v) for s, v in left.items()}, end=reason, resolved_stack=resolved_here)

    def sweep(self, cell: str) -> None:
        before = len(self.events)
        self._sweep(cell)
        if len(self.events) == before:
            self.emit(E.SWEEP, cell=cell, step=7, side=None, pieces=[], applies=False, why="nothing-to-sweep",
                      rule="combat.step7.sweep")

    def _sweep(self, cell: str) -> None:
        for side in (self.attacker, self.defender):
            opp = self.opp(side)
            rest = [p for p in self.in_cell(cell, opp) if p.state is SETTLED]
            if not rest:
                continue
            mine = self.in_cell(cell, side)
            if not mine:
                why = "no-piece-left"
            elif self.mobile(cell, opp):
                why = "opponent-mobile"
            elif not any(p.attacked for p in mine):
                why = "no-attack-executed"
            else:
                why = None
            if why is not None:
                # ATK 0 pieces only: the step-7 sentence itself ('ATK 0 기물뿐이라 공격을 실행하지 않은 경우');
                # a negative ATK is read the same way only by interpretation
                below = why == "no-attack-executed" and any((self.atk_or_none(p) or 0) < 0 for p in mine)
                self.emit(E.SWEEP, cell=cell, step=7, side=side, pieces=[], applies=False, why=why,
                          rule="combat.step7.sweep",
                          **({"interpretation": "interp.sweep.attack-executed"} if below else {}))
                continue
            a = self.ask(SWEEP)
            if not a.applied:
                self.emit(E.SWEEP, cell=cell, step=7, side=side, pieces=[], applies=False,
                          why="ruling-not-in-force" if not a.known else "ruling", rule="combat.step7.sweep",
                          ruling=a.cite, **_withdrawn(a))
                if not a.known:
                    self.rule_gap(a, cell=cell, ruling=a.cite, rule="combat.step7.sweep", pieces=[p.id for p in rest])
                continue
            by = next(p.id for p in mine if p.attacked)
            self.emit(E.SWEEP, cell=cell, step=7, side=side, pieces=[p.id for p in rest], applies=True, why=None,
                      rule="combat.step7.sweep", ruling=a.cite)
            for p in rest:
                self.capture(p, by, side, CaptureReason.SWEEP, cell, 7, None, "combat.step7.sweep", ruling=a.cite)

    # ----------------------------------------------------------------- run ----
    def check_battle_card_order(self) -> None:
        """combat.step1.battle-cards: in each combat the attacker declares first, then the defender — a
        defender's (전투) card listed before an attacker's card of the same cell is a play out of turn."""
        first: dict[str, Declaration] = {}
        for d in self.scn.battle_cards:
            f = first.setdefault(d.cell, d)
            if d.side == self.attacker and f.side == self.defender:
                raise self.forbid("battle-card-defender-first", "combat.step1.battle-cards", f, "side", cell=d.cell,
                                  defender=self.defender, attacker=self.attacker, card=f.card)

    def run(self) -> CombatResult:
        self.check_battle_card_order()
        self.field_setup()
        encounters = sorted((c for c in self.by_cell if self.both_present(c)), key=cell_sort_key)
        self._combat_cells = set(encounters)
        self.declare_all(encounters)

        explicit = self.order_override if self.order_override is not None else self.scn.combat_order
        if explicit is not None:
            listed = [c for c in explicit if c in self._combat_cells]
            listed_set = set(listed)
            rest = [c for c in encounters if c not in listed_set]
            # a listed cell that is no encounter yet may become one when the stack resolves
            # (response.resolve.new-encounter); it is reported at the end if it never fought
            if rest:
                self.assume(("order-rest",), choice="combat-order-rest-sorted", cells=rest, rule="combat.order")
            pending = listed + rest
        else:
            pending = list(encounters)
            if len(encounters) > 1:
                self.assume(("order",), choice="combat-order", order=list(encounters), rule="combat.order",
                            why="no-combat-order")

        first_done = False
        self.vacated_cause = {c: "cost" for c in pending if self.vacated_side(c) is not None}
        # unless cost-emptied-cell-fights, an encounter cell emptied by costs holds no combat (it ended on the
        # spot, as a departure did: interp.vacated.cost-before-ruling while the pages give no rule)
        if self.vacated_cause and not (a := self.ask(COST_EMPTIED)).applied:
            reading = {} if a.known else {"interpretation": "interp.vacated.cost-before-ruling"}
            for c in list(self.vacated_cause):
                pending.remove(c)
                self.ended.add(c)
                self.emit(E.VACATED, cell=c, side=self.vacated_side(c), cause="cost", continues=False,
                          phase="response", rule="response.resolve.depart", ruling=a.cite, **reading,
                          **_withdrawn(a))
                if not a.known:
                    self.rule_gap(a, cell=c, ruling=a.cite, cause="cost", rule="response.cost.emptied-cell",
                                  interpretation="interp.vacated.cost-before-ruling")
                self.order_used.append(c)
                self.cells_out.append(self.finish(c, 0, EndReason.VACATED, False))
        new_cells: set[str] = set()
        pending = deque(pending)
        while pending:
            cell = pending.popleft()
            if first_done and cell not in new_cells and self.vacated_side(cell) is not None:
                self.vacated_cause.setdefault(cell, "stack")
                if not (a := self.ask(VACATED)).applied:
                    self.emit(E.VACATED, cell=cell, side=self.vacated_side(cell), cause="stack", continues=False,
                              rule="response.resolve.depart", ruling=a.cite)
                    self.ended.add(cell)
                    self.order_used.append(cell)
                    self.cells_out.append(self.finish(cell, 0, EndReason.VACATED, False))
                    continue
            self.order_used.append(cell)
            self.cells_out.append(self.fight(cell, first=not first_done, new=cell in new_cells))
            if not first_done:
                first_done = True
                fresh = [c for c in self.by_cell if self.both_present(c) and c not in self._combat_cells]
                if fresh:
                    pos = {c: i for i, c in enumerate(explicit or ())}
                    fresh.sort(key=lambda c: (pos.get(c, len(pos)), cell_sort_key(c)))
                    if any(c not in pos for c in fresh):
                        self.assume(("new-order",), choice="new-encounter-order", cells=fresh,
                                    rule="response.resolve.new-encounter")
                    for c in fresh:
                        self._combat_cells.add(c)
                        new_cells.add(c)
                    # the attacker's order (combat_order) places a new encounter among the combats
                    # still to come; unlisted cells keep their place after the listed ones
                    queue = list(pending) + fresh
                    rank = {c: i for i, c in enumerate(queue)}
                    queue.sort(key=lambda c: (pos.get(c, len(pos)), rank[c]))
                    pending = deque(queue)
        if explicit is not None:
            for c in explicit:
                if c not in self.order_used:
                    self.assume(("order-not-encounter", c), choice="combat-order-cell-not-encounter", cell=c,
                                rule="combat.order")
        for d in self.scn.battle_cards:  # a (전투) card is declared in step 1 of a combat at its cell
            if d.cell not in self._combat_cells:
                raise self.forbid("battle-card-no-combat", "combat.step1.battle-cards", d, "cell", cell=d.cell,
                                  combat_cells=list(self.order_used))
        if self.stack and not first_done:
            self.gap(UnresolvedReason.NO_RESOLUTION_POINT, rule="response.cost.emptied-cell",
                     ruling=self.ask(COST_EMPTIED).cite,
                     declarations=[x.d.index for x in self.stack])
        # anything still buffed or damaged outside a combat cell is restored after the combat turn
        leftover = [p for p in self.pieces.values() if p.on_board and (p.damage or p.b_atk or p.b_hp or p.b_lv)]
        for p in leftover:
            p.damage = p.b_atk = p.b_hp = p.b_lv = 0
        if leftover:
            self.emit(E.RESTORE, pieces=[p.id for p in leftover], phase="after", rule="combat.combat-limited")
        return self.result()

    def result(self) -> CombatResult:
        positions = {p.id: p.cell for p in sorted(self.pieces.values(), key=lambda p: p.spec.order) if p.on_board}
        pieces = {}
        for s in list(self.scn.pieces) + [self.pieces[b].spec for b in self.built]:
            pieces[s.id] = {"side": s.side, "card": s.card, "name": s.name, "label": s.label, "cell": s.cell,
                            "state": s.state.value, "lv": s.lv, "hp": s.hp, "atk": s.atk, "cost": s.cost,
                            "structure": s.structure}
        return CombatResult(as_of=self.as_of, attacker=self.attacker, defender=self.defender,
                            order=tuple(self.order_used), cells=tuple(self.cells_out),
                            prisoners={s: tuple(v) for s, v in self.prisoners.items()},
                            fragments=tuple(self.fragments), removed=tuple(self.removed), positions=positions,
                            events=tuple(self.events), unresolved=tuple(self.unresolved),
                            assumed=tuple(self.assumed), pieces=pieces,
                            rulings_consulted=tuple(self.rules.rulings_consulted()),
                            decisions_consulted=tuple(self.rules.consulted), title=self.scn.title)


def default_as_of(corpus) -> str:
    return corpus.latest_date()


def simulate(scn: Scenario, corpus, as_of: str | None = None, effects: dict | None = None,
             combat_order: Iterable[str] | None = None, overrides: dict[str, bool] | None = None,
             work: list | None = None, budget=None) -> CombatResult:
    """Resolve a combat scenario. Raises DataError when the scenario is invalid
    (also for checks made at declaration time or a stat needed but unknown).

    as_of: the date in force (default: the file's as_of, else the latest ruling date).
    combat_order: overrides the file's combat_order (used by --all-branches).
    overrides: {ruling id: in force?} — forces single rulings on or off (used by --compare
    to tell which ruling makes a difference).
    work: a list to which the number of events recorded is appended, also when the scenario is
    refused midway (what --all-branches counts against its budget).
    budget: a game record's shared budget (engine/budget.GameBudget): each round of steps 4–6 is
    spent from it, and past it the resolution stops with its WorkLimit."""
    if effects is None:
        effects = fx.effects_of(corpus)  # read by the data layer, checked once per corpus
    when = as_of or scn.as_of or default_as_of(corpus)
    # The resolution allocates many small, acyclic objects; the cyclic GC would rescan the
    # growing heap again and again (super-linear on big boards), so it is paused meanwhile.
    gc_was_on = gc.isenabled()
    gc.disable()
    engine = None
    try:
        engine = Engine(scn, corpus, when, effects, combat_order, overrides, budget)
        return engine.run()
    except _Need as need:
        problems, seen = [], set()
        for p, stat, why in need.needs:
            if (p.id, stat) in seen:
                continue
            seen.add((p.id, stat))
            problems.append(Problem(scn.file, p.spec.line, f"{p.id}.{stat}", code="stat-unknown",
                                    params={"piece": p.id, "label": p.spec.label, "card": p.spec.card, "stat": stat,
                                            "stat_name": STAT_KO[stat], "why": why}))
        raise DataError(problems) from None
    finally:
        if work is not None:
            work.append(len(engine.events) if engine is not None else 0)
        if gc_was_on:
            gc.enable()


def stack_cells(scn: Scenario, corpus, as_of: str | None = None, effects: dict | None = None) -> frozenset | None:
    """The cells the response stack reaches, read from the declarations as the engine checks them
    (response turn only, no combat fought): every cell an effect applies to, a target's or a
    declaring piece's cell, a move's destination, and every cell where a declaration flipped or
    removed a piece (costs). A first combat elsewhere hosts the stack's resolution without being
    touched by it: the board after step 2 is the same whichever such cell hosts it.

    None when that cannot be said: an effect with no cell of its own (it applies where the stack
    resolves), an effect the pages do not give (its gap is reported at the hosting cell), or
    declarations the engine refuses (each order then shows it)."""
    if effects is None:
        effects = fx.effects_of(corpus)
    eng = Engine(scn, corpus, as_of or scn.as_of or default_as_of(corpus), effects)
    try:
        eng.check_battle_card_order()
        eng.field_setup()
        encounters = sorted((c for c in eng.by_cell if eng.both_present(c)), key=cell_sort_key)
        eng._combat_cells = set(encounters)
        eng.declare_all(encounters)
    except (DataError, Forbidden, _Need):
        return None
    cells: set[str] = set()
    for decl in eng.stack:
        if not decl.effect:
            return None
        cells.update(decl.applies)
        cells.update(decl.from_cells.values())
        cells.update(c for c in (decl.chosen_cell, decl.target_cell) if c is not None)
        if decl.self_id is not None:
            cells.add(eng.pieces[decl.self_id].spec.cell)
        for pr in decl.effect:
            if isinstance(pr, (fx.Attack, fx.Buff)) and (isinstance(pr, fx.Attack) or pr.piece == fx.BONDED):
                cell = decl.chosen_cell if pr.cell in (None, fx.CHOSEN) else pr.cell
                if cell is None:
                    return None  # resolves at the hosting combat's cell
                cells.add(cell)
            elif isinstance(pr, fx.Move):
                cells.add(pr.to)
            elif isinstance(pr, fx.Build):
                cell = decl.chosen_cell if pr.cell in (None, fx.CHOSEN) else pr.cell
                if cell is None:
                    return None
                cells.add(cell)
    for e in eng.events:  # flips and costs at declaration
        if e.get("cell") is not None:
            cells.add(e.get("cell"))
    for p in eng.pieces.values():
        if not p.on_board or p.cell != p.spec.cell or p.state is not p.spec.state:
            cells.add(p.spec.cell)
    return frozenset(cells)


def combat_orders(scn: Scenario, corpus, limit: int = 1) -> list[tuple[str, ...]]:
    """The orders the attacker could choose for the initial encounter cells that
    can lead to different outcomes. Only the first combat matters: it hosts the
    whole stack's resolution (response.resolve.once), and combats in different
    cells do not otherwise affect each other here. So each cell is tried first,
    the rest sorted; `limit` > 1 tries every permutation up to that many cells."""
    cells: dict[str, set] = {}
    for p in scn.pieces:
        cells.setdefault(p.cell, set()).add(p.side)
    enc = sorted((c for c, s in cells.items() if len(s) == 2), key=cell_sort_key)
    if len(enc) <= limit:
        return [tuple(o) for o in itertools.permutations(enc)]
    return [tuple([c] + [x for x in enc if x != c]) for c in enc]
