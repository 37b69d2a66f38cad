"""Attacks and captures: one hit (combat.attack, combat.settled), a capture or a fragment
(combat.capture), a side's volley in steps 4–5, and step 7's sweep of settled pieces.
"""

from __future__ import annotations

from ..cards import hooks_of
from ..decisions import Answer
from ..types import CaptureReason, EventType as E
from .state import COST_EMPTIED, MOBILE, MOBILE_STRUCTURES, SETTLED, SWEEP, VACATED, Piece, tie_cites, withdrawn


class Attacks:
    """Hits, captures, volleys and the sweep — a room of `Engine` (engine/combat.py), on the state of
    `CombatState`."""

    def hit(self, cell, step, rnd, actor_id, side, amount, target: Piece, level: int, order_ties, rule, source=None,
            ruling=None, why: dict | None = None) -> None:
        settled = target.state is SETTLED
        hp_before = self.hp_or_none(target) if settled else self.stat(
            target, "hp", {"need": "hp-left"})
        target.damage += amount
        hp_after = None if hp_before is None else hp_before - amount
        self.emit(E.ATTACK, cell=cell, step=step, round=rnd, actor=actor_id, side=side, source=source,
                  target=target.id, target_state=target.state.value, amount=amount, hp_before=hp_before,
                  hp_after=hp_after, order_ties=order_ties, target_ties=tie_cites(level), **(why or {}), rule=rule,
                  ruling=ruling)
        if settled:
            self.capture(target, actor_id, side, CaptureReason.SETTLED_HIT, cell, step, rnd, "combat.settled")
        elif hp_after <= 0:
            self._hp_capture(target, actor_id, side, cell, step, rnd)

    def _hp_capture(self, p: Piece, by, side, cell, step, rnd) -> None:
        hooks = hooks_of(p.card)
        if hooks is not None:
            hooks.hp_captured(self, p, cell)
        self.capture(p, by, side, CaptureReason.HP, cell, step, rnd, "combat.attack")

    def capture(self, p: Piece, by, side, reason: CaptureReason, cell, step, rnd, rule, ruling=None) -> None:
        interpretation = None
        if self.vacated_cause.get(cell) == "cost" and self.vacated_side(cell) == side:
            # the emptied side's attack effect hit a piece of the side that stayed (the page: '포획은 없습니다'
            # and '10 ATK도 정상 적중' in one paragraph) — captured by the normal rule, as the project reads it
            interpretation = "interp.vacated.effect-capture"
            self.assume(("vacated-capture", cell), choice="vacated-effect-capture", cell=cell,
                        rule="response.cost.emptied-cell", interpretation=interpretation)
        self.take_off(p)
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
            self.hit(cell, step, rnd, p.id, side, atk, target, tlevel, tie_cites(level), rule,
                     ruling=ruling, why=why)
        return changed

    def _structure_idle(self, a: Answer, p: Piece, cell: str, step: int, rnd: int, atk: int | None) -> None:
        """A mobile structure that does not attack by mobile-structures-attack: unknown on this day (a gap) or
        set so by a ruling."""
        if not a.known:
            self.rule_gap(a, cell=cell, piece=p.id, ruling=a.cite, rule="combat.structures")
        self.emit(E.NO_ATTACK, cell=cell, step=step, round=rnd, actor=p.id, atk=atk,
                  why="ruling-not-in-force" if not a.known else "ruling", rule="combat.structures", ruling=a.cite,
                  **withdrawn(a))

    def _no_target(self, p: Piece, cell: str, step: int, rnd: int, atk: int | None) -> None:
        cause = self.vacated_cause.get(cell)
        self.emit(E.NO_ATTACK, cell=cell, step=step, round=rnd, actor=p.id, atk=atk, why="no-target",
                  rule={"cost": "response.cost.emptied-cell", "stack": "response.resolve.depart"}.get(
                      cause, "combat.targeting"),
                  ruling=self.ask(COST_EMPTIED if cause == "cost" else VACATED).cite if cause else None)

    def _idle_whatever_atk(self, p: Piece, cell: str, side: str, step: int, rnd: int) -> bool:
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
                          ruling=a.cite, **withdrawn(a))
                if not a.known:
                    self.rule_gap(a, cell=cell, ruling=a.cite, rule="combat.step7.sweep", pieces=[p.id for p in rest])
                continue
            by = next(p.id for p in mine if p.attacked)
            self.emit(E.SWEEP, cell=cell, step=7, side=side, pieces=[p.id for p in rest], applies=True, why=None,
                      rule="combat.step7.sweep", ruling=a.cite)
            for p in rest:
                self.capture(p, by, side, CaptureReason.SWEEP, cell, 7, None, "combat.step7.sweep", ruling=a.cite)
