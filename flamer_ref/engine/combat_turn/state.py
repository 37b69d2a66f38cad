"""The state of one combat turn's resolution: its types (`Piece`, `Decl`, `Need`), the decisions it asks,
and `CombatState` — the pieces and their indexes (by cell, by card, by side), the field, the response stack,
what has happened (prisoners, fragments, removed and built pieces) and the record the result is made of
(events, unresolved gaps, assumptions), with the small verbs every room uses: record an event, a gap, an
assumption; ask a decision; make a refusal or an invalid-scenario error; move a piece between cells.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...errors import DataError, Forbidden, Problem
from ..decisions import Answer, rules_at
from ..result import CellResult, Event
from ..scenario import Declaration, PieceSpec, Scenario
from ..types import EventType as E, FizzleReason, PieceState, Role, UnresolvedReason

MOBILE, SETTLED = PieceState.MOBILE, PieceState.SETTLED
#: rounds of steps 4–6 of every cell together, per scenario (resolution): past it, each combat still
#: going stops as a `round-limit` gap with `total` — the work and the output stay bounded (1,000 cells
#: × 10 rounds fit; 1,000 cells × 999 rounds would be minutes and gigabytes of JSON)
MAX_TOTAL_ROUNDS = 5_000
STATS = ("lv", "hp", "atk", "cost")


STEP_RULE = {1: "combat.step1.battle-cards", 2: "combat.step2.response", 3: "combat.step3.sp",
             4: "combat.step4.attacker-volley", 5: "combat.step5.defender-volley", 6: "combat.step6.check",
             7: "combat.step7.sweep"}
TARGET_RULE = {"hp": "combat.tiebreak", "atk": "combat.tiebreak", "cost": "combat.tiebreak",
               "listing": "interp.tiebreak.listing-order"}


# the decisions a dated ruling sets (engine/decisions.py): the combat asks them, never a date
COUNTER_CARDS, COUNTER_SP = "counter-with-set-cards", "counter-with-piece-sp"
STRUCT_IMMOVABLE = "structures-immovable-by-effects"
VACATED, COST_EMPTIED = "vacated-combat-continues", "cost-emptied-cell-fights"
MOBILE_STRUCTURES, SWEEP = "mobile-structures-attack", "step7-sweeps-settled"
UNCOVER_ENTRY, SAME_ROUND = "uncover-is-entry", "same-round-uncover-stays-settled"
ENTRY_ENDS = "entry-effect-ends-with-card"


def withdrawn(a: Answer) -> dict:
    """The key a gap or a refusal adds when it cites a withdrawal: the ruling withdrawn."""
    return {"withdrawn": a.withdrawn} if a.withdrawn else {}


# ------------------------------------------------------------ runtime state ----
@dataclass(eq=False)
class Piece:
    """A piece during the resolution (mutable; never leaves the combat's rooms)."""

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
class Decl:
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


class Need(Exception):
    """A stat the card data and the file do not give is needed; `why` says for what, as data
    ({need: tie | hp-left | hp-lowered | attacker-atk, level, what, step}) worded by the problem
    catalogue. `needs` lists every (piece, stat, why) the one decision that stopped needs: a tie
    compares the stat of every tied piece, so all the unknown ones are needed at once (each a
    problem of its own); anything later depends on their values and is not looked at."""

    def __init__(self, piece: Piece, stat: str, why: dict, more: tuple = ()):
        self.piece, self.stat, self.why = piece, stat, why
        self.needs = ((piece, stat, why), *more)


def tie_cites(level: int) -> list[str]:
    if level <= 0:
        return []
    out = ["combat.tiebreak", "interp.tiebreak.current-hp"]
    if level >= 4:
        out.append("interp.tiebreak.listing-order")
    return out



class CombatState:
    """One combat turn being resolved: the pieces and where they stand, the field, the stack and the record
    (events, gaps, assumptions), with the small verbs every room uses on them."""

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
        self.pieces: dict[str, Piece] = {}
        self.by_cell: dict[str, list[Piece]] = {}
        # pieces by (side, card) and by side, in listing order, on the board or not: where a declaration
        # looks for its declaring piece or its cost without scanning every piece of the scenario
        self.by_card: dict[tuple, list[Piece]] = {}
        self.by_side: dict[str, list[Piece]] = {}
        for spec in scn.pieces:
            p = Piece(spec, spec.state, spec.cell)
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
        self.stack: list[Decl] = []
        self.ended: set[str] = set()  # cells whose combat ended on the spot (vacated-combat-continues false)
        self.cells_out: list[CellResult] = []
        self.vacated_cause: dict[str, str] = {}
        self.combat_cells: set[str] = set()
        self._used_slots: set = set()
        self.built: list[str] = []  # pieces placed by a build effect (their specs are in `pieces` of the result)
        self.order_used: list[str] = []
        self.rounds_used = 0  # rounds of every cell so far (MAX_TOTAL_ROUNDS)

    def ask(self, decision: str) -> Answer:
        """What a decision is on this day and which ruling the explanation cites (recorded as consulted)."""
        return self.rules.ask(decision)

    def rule_gap(self, a: Answer, **kw) -> None:
        """A `ruling-not-in-force` gap: the decision is unknown on this day (the ruling that settles it is
        later, or withdrawn) and the engine computed with its reading (Decision.while_unknown). `kw` holds
        `ruling=a.cite` where the gap's keys put it."""
        self.gap(UnresolvedReason.RULING_NOT_IN_FORCE, **kw, **withdrawn(a))

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

    def in_cell(self, cell: str, side: str | None = None) -> list[Piece]:
        return [p for p in self.by_cell.get(cell, ()) if side is None or p.side == side]

    def mobile(self, cell: str, side: str) -> list[Piece]:
        return [p for p in self.by_cell.get(cell, ()) if p.side == side and p.state is MOBILE]

    def both_present(self, cell: str) -> bool:
        sides = {p.side for p in self.by_cell.get(cell, ())}
        return len(sides) == 2

    def vacated_side(self, cell: str) -> str | None:
        sides = {p.side for p in self.by_cell.get(cell, ())}
        for s in (self.attacker, self.defender):
            if s not in sides:
                return s
        return None

    def take_off(self, p: Piece) -> None:
        lst = self.by_cell.get(p.cell)
        if lst is not None:
            lst.remove(p)
        p.cell = None

    def put(self, p: Piece, cell: str) -> None:
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

    def step(self, cell, n, rnd=None, **kw) -> None:
        rule = kw.pop("rule", None) or STEP_RULE[n]
        self.emit(E.STEP, cell=cell, step=n, round=rnd, **kw, rule=rule)

    def fizzle(self, decl: Decl, at: str, step: int, reason: FizzleReason, pr, piece=None, cell=None,
               rule="response.fizzle", ruling=None) -> None:
        self.emit(E.FIZZLE, cell=at, step=step, index=decl.d.index, reason=reason.value, piece=piece, where=cell,
                  primitive=pr.describe(), rule=rule, ruling=ruling)
