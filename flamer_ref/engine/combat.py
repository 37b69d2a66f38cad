"""The combat turn (전투턴) with its response turn (대응턴): a deterministic,
pure resolution of a validated `Scenario`. No I/O and no sentences: the engine
only records events (see result.py); templates do all the wording.

Entry point: `simulate(scenario, corpus, as_of=None, effects=None, combat_order=None)`.

Order of play
-------------
1. setup — the special cards' field effects (engine/cards/) when `field:` is given.
2. response turn — the declarations in file order: who may declare (the
   defender opens; a 맞대응 only on a response cell, and only while the decision
   counter-with-set-cards / counter-with-piece-sp allows it), what (a set (대응) card / a settled piece's (대응) SP, flipped
   at once), player-chosen targets and cells fixed, costs paid.
3. combats in the attacker's order (`combat_order`, else sorted cells — the
   result says so in `assumed`): step 1 (전투) cards, step 2 the whole stack
   LIFO (first combat only), step 3 (전투) SP, steps 4–6 volleys, step 7 sweep,
   then HP and combat-limited changes are restored. Encounters created by the
   stack fight too, with an empty step 2.

The rooms (engine/combat_turn/, one concern each) are the mixins `Engine` is made of; this module is their
front door (`simulate`, `Engine`, `stack_cells`, `combat_orders`):

- `state.py` — the types (`Piece`, `Decl`, `Need`) and `CombatState`: the pieces, the field, the stack,
  the record, and the small verbs every room uses (emit, gap, assume, ask, forbid, error);
- `targeting.py` — stats as read in a combat, the priority order, the target (combat.targeting, tiebreak);
- `field.py` — the field during the combat (the special cards' hooks, engine/cards/);
- `declare.py` — the response turn and step 1's declarations: who may declare what, choices, costs;
- `stack.py` — resolving a declaration: each primitive of its effect applied, or fizzled;
- `attacks.py` — hits, captures, the volleys of steps 4–5 and the sweep of step 7;
- `steps.py` — one combat, steps 1–7.
"""

from __future__ import annotations

import gc
import itertools
from collections import deque
from typing import Iterable

from ..errors import DataError, Forbidden, Problem
from . import effects as fx
from .combat_turn.attacks import Attacks
from .combat_turn.declare import Declaring
from .combat_turn.field import FieldRoom
from .combat_turn.stack import Resolving
from .combat_turn.state import (COST_EMPTIED, MAX_TOTAL_ROUNDS, VACATED, CombatState, Decl, Need, Piece,  # noqa: F401
                                withdrawn)
from .combat_turn.steps import Steps
from .combat_turn.targeting import Targeting
from .result import CombatResult
from .scenario import Declaration, Scenario, cell_sort_key
from .types import EndReason, EventType as E, UnresolvedReason

STAT_KO = {"lv": "Lv", "hp": "HP", "atk": "ATK", "cost": "cost"}
# the names the rooms had when they were one class here (tests patch the piece type through them)
_P, _Decl, _Need = Piece, Decl, Need


class Engine(Steps, Attacks, Resolving, Declaring, FieldRoom, Targeting, CombatState):
    """One combat turn resolved: the rooms of engine/combat_turn/ on one state; `run` plays it in order."""

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
        """The combat turn in order: the (전투) cards' order, the field, the response turn, the combats in
        the attacker's order (new encounters among them), what is left after the turn."""
        encounters = self.response_turn()
        explicit = self.order_override if self.order_override is not None else self.scn.combat_order
        pending = self._combat_order(encounters, explicit)
        self.vacated_cause = {c: "cost" for c in pending if self.vacated_side(c) is not None}
        self._end_cost_emptied(pending)
        first_done = self._fight_all(deque(pending), explicit)
        self._after_turn(explicit, first_done)
        return self.result()

    def response_turn(self) -> list[str]:
        """Up to the end of the response turn: the (전투) cards' order checked, the field set up, every
        declaration checked and paid for (the stack). The encounter cells, sorted."""
        self.check_battle_card_order()
        self.field_setup()
        encounters = sorted((c for c in self.by_cell if self.both_present(c)), key=cell_sort_key)
        self.combat_cells = set(encounters)
        self.declare_all(encounters)
        return encounters

    def _combat_order(self, encounters: list[str], explicit) -> list[str]:
        """The combats to fight, in the attacker's order (combat.order): the cells listed, then the rest sorted."""
        if explicit is None:
            if len(encounters) > 1:
                self.assume(("order",), choice="combat-order", order=list(encounters), rule="combat.order",
                            why="no-combat-order")
            return list(encounters)
        listed = [c for c in explicit if c in self.combat_cells]
        listed_set = set(listed)
        rest = [c for c in encounters if c not in listed_set]
        # a listed cell that is no encounter yet may become one when the stack resolves
        # (response.resolve.new-encounter); it is reported at the end if it never fought
        if rest:
            self.assume(("order-rest",), choice="combat-order-rest-sorted", cells=rest, rule="combat.order")
        return listed + rest

    def _end_cost_emptied(self, pending: list[str]) -> None:
        """Unless cost-emptied-cell-fights, an encounter cell emptied by costs holds no combat (it ended on the
        spot, as a departure did: interp.vacated.cost-before-ruling while the pages give no rule)."""
        if not self.vacated_cause or (a := self.ask(COST_EMPTIED)).applied:
            return
        reading = {} if a.known else {"interpretation": "interp.vacated.cost-before-ruling"}
        for c in list(self.vacated_cause):
            pending.remove(c)
            self.ended.add(c)
            self.emit(E.VACATED, cell=c, side=self.vacated_side(c), cause="cost", continues=False,
                      phase="response", rule="response.resolve.depart", ruling=a.cite, **reading,
                      **withdrawn(a))
            if not a.known:
                self.rule_gap(a, cell=c, ruling=a.cite, cause="cost", rule="response.cost.emptied-cell",
                              interpretation="interp.vacated.cost-before-ruling")
            self.order_used.append(c)
            self.cells_out.append(self.finish(c, 0, EndReason.VACATED, False))

    def _fight_all(self, pending: deque, explicit) -> bool:
        """Every combat in turn (the first hosts the stack); after the first, the encounters the stack made
        join the queue. Whether a combat was fought."""
        first_done = False
        new_cells: set[str] = set()
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
                pending = self._new_encounters(pending, explicit, new_cells)
        return first_done

    def _new_encounters(self, pending: deque, explicit, new_cells: set[str]) -> deque:
        """Cells that hold both sides after the stack resolved (response.resolve.new-encounter): the
        attacker's order (combat_order) places them among the combats still to come; unlisted cells keep
        their place after the listed ones."""
        fresh = [c for c in self.by_cell if self.both_present(c) and c not in self.combat_cells]
        if not fresh:
            return pending
        pos = {c: i for i, c in enumerate(explicit or ())}
        fresh.sort(key=lambda c: (pos.get(c, len(pos)), cell_sort_key(c)))
        if any(c not in pos for c in fresh):
            self.assume(("new-order",), choice="new-encounter-order", cells=fresh,
                        rule="response.resolve.new-encounter")
        for c in fresh:
            self.combat_cells.add(c)
            new_cells.add(c)
        queue = list(pending) + fresh
        rank = {c: i for i, c in enumerate(queue)}
        queue.sort(key=lambda c: (pos.get(c, len(pos)), rank[c]))
        return deque(queue)

    def _after_turn(self, explicit, first_done: bool) -> None:
        """What the turn leaves to say: listed cells that never fought, (전투) cards with no combat, a stack
        with no combat to host it; and the restore of anything still buffed or damaged."""
        if explicit is not None:
            for c in explicit:
                if c not in self.order_used:
                    self.assume(("order-not-encounter", c), choice="combat-order-cell-not-encounter", cell=c,
                                rule="combat.order")
        for d in self.scn.battle_cards:  # a (전투) card is declared in step 1 of a combat at its cell
            if d.cell not in self.combat_cells:
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
    except Need as need:
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
        eng.response_turn()
    except (DataError, Forbidden, Need):
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
        for pr in decl.effect:  # the cells each primitive changes (primitives/*.py reach)
            reach = pr.reach(decl)
            if reach is None:
                return None  # it resolves at the hosting combat's cell
            cells.update(reach)
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
