"""One combat, steps 1–7 (`fight`): the (전투) cards, the stack in the first combat, the (전투) SPs
of step 3 (in the cell and remote), the rounds of steps 4–6 with their bound, and the end (`finish`: step 7,
HP and combat-limited changes restored, the occupant).
"""

from __future__ import annotations

from .. import effects as fx
from ..cards import REMOTE_SP
from ..result import CellResult
from ..types import MAX_ROUNDS, EndReason, EventType as E, UnresolvedReason
from .state import COST_EMPTIED, MAX_TOTAL_ROUNDS, MOBILE, SETTLED, VACATED


class Steps:
    """One combat, steps 1–7 — a room of `Engine` (engine/combat.py), on the state of `CombatState`."""

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
        return self.rounds(cell, resolved_here)

    def rounds(self, cell: str, resolved_here: bool) -> CellResult:
        """Steps 4–6, round after round, until a side has no mobile piece (then step 7), nothing changed
        (a stalemate, interp.stalemate) or the computing limit is certain to be passed (round-limit)."""
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
                    for pr in edef.effect:  # each primitive's part in an SP (primitives/*.py apply_sp)
                        pr.apply_sp(self, p, side, cell, remote=False)

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
                    for pr in edef.effect:  # the remote piece itself takes no part in this combat
                        pr.apply_sp(self, p, side, cell, remote=True)

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
