"""Resolving a declaration, in step 1 or in the stack of step 2 (LIFO): each primitive of its effect
applied (attack, buff, flip, move, build), or fizzled when it cannot; a used special card goes to the trash.
"""

from __future__ import annotations

from .. import effects as fx
from ..scenario import PieceSpec
from ..types import CELL_LIMIT, SIDE_LIMIT, EventType as E, FizzleReason, Role, UnresolvedReason
from .state import MOBILE, Decl, Piece


class Resolving:
    """Resolving a declaration — a room of `Engine` (engine/combat.py), on the state of `CombatState`; each
    primitive applies itself (engine/primitives/) with the verbs here."""

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
        """One primitive of the effect at resolution: the primitive applies itself (primitives/*.py)."""
        pr.apply(self, decl, ctx, at, step)

    def piece_at_resolution(self, pr, decl: Decl, ctx, at: str, step: int) -> Piece | None:
        """The piece a primitive names, as fixed at declaration; None — after the fizzle — when it left the
        board or the cell it stood in when declared (response.fizzle)."""
        pid = self.resolved_piece(pr.piece, ctx)
        p = self.pieces.get(pid)
        was = decl.from_cells.get(pid)
        if p is None or not p.on_board or (was is not None and p.cell != was):
            self.fizzle(decl, at, step, FizzleReason.TARGET_GONE, pr, piece=pid, cell=was)
            return None
        return p

    def joins(self, cell: str, at: str) -> str | None:
        """What a piece arriving in `cell` during the resolution at `at` joins: ``combat`` — this very combat
        (in from step 3), ``later-combat`` — another combat cell of this turn, ``new-encounter`` — a cell that
        now holds both sides and fights later this turn, else None (a plain move)."""
        if cell == at:
            return "combat"
        if cell in self.combat_cells:
            return "later-combat"
        return "new-encounter" if self.both_present(cell) else None

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
        self.put(p, cell)
        self.built.append(pid)
        joins = self.joins(cell, at)
        self.emit(E.BUILD, cell=cell, step=step, piece=pid, card=pr.card, side=side, structure=spec.structure,
                  joins=joins, at=at, index=decl.d.index, rule="production.placement")
        return None

    @staticmethod
    def resolved_piece(ref, ctx):
        """The piece an effect names at resolution (the choices fixed at declaration)."""
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
