"""Resolving a declaration, in step 1 or in the stack of step 2 (LIFO): each primitive of its effect
applied (attack, buff, flip, move, build), or fizzled when it cannot; a used special card goes to the trash.
"""

from __future__ import annotations

from .. import effects as fx
from ..scenario import PieceSpec
from ..types import CELL_LIMIT, SIDE_LIMIT, EventType as E, FizzleReason, Role, UnresolvedReason
from .state import MOBILE, VACATED, Piece, Decl


class Resolving:
    """The stack room of `Engine` (engine/combat.py): its methods run on the one combat state
    (combat_turn/state.py)."""

    def resolve(self, decl: Decl, at: str, step: int) -> None:
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

    def apply(self, pr, decl: Decl, ctx, at: str, step: int) -> None:
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

    def build(self, pr, decl: Decl, ctx, at: str, step: int) -> None:
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
        p = Piece(spec, MOBILE, None)
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

    def buff(self, p: Piece, pr, step: int, source, rule: str) -> None:
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
