"""The response turn (대응턴) and step 1's (전투) cards, at declaration: who may declare what (the
opener, a 맞대응 on a response cell while the rulings allow it), the declaring piece or set card, the player's
choices fixed now (target, cell), the cells each effect applies to, and the costs paid.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .. import effects as fx
from ..cards import hooks_of
from ..scenario import Declaration, cell_sort_key
from ..types import CELL_LIMIT, SIDE_LIMIT, EventType as E, Role
from .state import COUNTER_CARDS, COUNTER_SP, MOBILE, SETTLED, STRUCT_IMMOVABLE, Decl, Piece, withdrawn


@dataclass
class DeclaredEffect:
    """What the primitives of one declaration's effect read and add when declared (Primitive.declare): the
    item, the phase, the choices fixed now (`ctx`: target, self, chosen), the combat's cell in step 1, the
    encounters; the cells the effect applies to (`add`) and the cells of the pieces it names."""

    d: Declaration
    phase: str
    ctx: dict
    combat_cell: str | None
    encounters: list[str]
    encounter_set: set[str]
    applies: list[str] = field(default_factory=list)
    from_cells: dict[str, str] = field(default_factory=dict)

    def add(self, cell: str | None) -> None:
        if cell is not None and cell not in self.applies:
            self.applies.append(cell)


class Declaring:
    """The response turn and step 1's declarations — a room of `Engine` (engine/combat.py), on the state of
    `CombatState`; each primitive's own checks are its `declare` (engine/primitives/)."""

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
                combat_cell: str | None = None, encounter_set: set[str] | None = None) -> Decl:
        """Check one declaration at declaration time and perform its flip and costs
        (`encounter_set`: the encounters as a set, when the caller has one)."""
        role = self.role(d.side)
        counter = phase == "response" and role is Role.ATTACKER
        counter_rule = self._counter_rule(d) if counter else None
        ability, card, edef = self._declared_card(d, phase)
        effect, inline, known = self._effect_of(d, edef, phase)
        self_id, slot = self._declarer(d, card, phase)
        target, chosen = self._choices(d, effect, edef, inline, phase, combat_cell)
        ctx = {"target": target.id if target else None, "self": self_id, "chosen": chosen}
        dc = DeclaredEffect(d, phase, ctx, combat_cell, encounters,
                            set(encounters) if encounter_set is None else encounter_set)
        for pr in effect:  # each primitive checks what it names and adds the cells it applies to
            pr.declare(self, dc)
        if d.cell is not None and not dc.applies:
            dc.add(d.cell)
        if counter and not set(dc.applies) & response_cells:
            raise self.forbid("counter-off-response-cell", "response.counter", d, "side", applies=list(dc.applies),
                              response_cells=sorted(response_cells, key=cell_sort_key))
        decl = Decl(d=d, role=role, card=d.card, ability=ability, effect=tuple(effect), inline=inline, self_id=self_id,
                    target_id=target.id if target else None, target_cell=target.cell if target else None,
                    chosen_cell=chosen, applies=tuple(dc.applies), slot=slot, from_cells=dc.from_cells)
        self._record_declaration(decl, counter_rule, known, phase, combat_cell)
        if self_id is not None:  # a piece's SP: flipped face up at declaration
            p = self.pieces[self_id]
            p.state = MOBILE
            self.emit(E.FLIP, cell=p.cell, piece=p.id, **{"from": "settled"}, to="mobile", phase="response",
                      rule="response.declare.timing")
        self._pay(d, decl, edef, phase)
        return decl

    def _counter_rule(self, d: Declaration):
        """A 맞대응: the page dates the exception for set (대응) cards (counter-with-set-cards; its earlier rule:
        only in the opponent's round); whether a settled piece's (대응) SP could counter before it, the pages do
        not say (counter-with-piece-sp: declared under its reading and reported as a gap)."""
        special = d.card is None or self.corpus.cards[d.card]["type"] == "special"
        counter_rule = self.ask(COUNTER_CARDS if special else COUNTER_SP)
        if not counter_rule.applied:
            raise self.forbid("counter-before-ruling", "response.opener", d, "side", ruling=counter_rule.cite,
                              side=d.side, as_of=self.as_of, date=counter_rule.date, **withdrawn(counter_rule))
        if not counter_rule.known:
            self.rule_gap(counter_rule, ruling=counter_rule.cite, index=d.index, side=d.side, card=d.card,
                          rule="response.counter.requirements")
        return counter_rule

    def _declared_card(self, d: Declaration, phase: str):
        """(ability, card data, the card's effect definition) of a declaration naming a card, else Nones."""
        if d.card is None:
            return None, None, None
        ability, card = self._ability_for(d, "대응" if phase == "response" else "전투")
        return ability, card, fx.find(self.effects, d.card, ability)

    def _effect_of(self, d: Declaration, edef, phase: str) -> tuple[tuple, bool, bool]:
        """(effect, inline, known): the file's own `effect:` or the card's. An effect the pages do not give is
        declared, its cost paid, and reported as a gap at resolution (the rest of the combat is computed
        without it); a scenario may supply it with `effect:`."""
        inline = d.effect is not None
        effect = d.effect if inline else (edef.effect if edef is not None else None)
        if inline and edef is not None and edef.known:
            self.assume(("inline", d.where), choice="inline-effect-overrides-card", card=d.card, index=d.index,
                        rule="response.declare.timing" if phase == "response" else "combat.step1.battle-cards")
        return (effect if effect is not None else ()), inline, effect is not None

    def _declarer(self, d: Declaration, card, phase: str) -> tuple[str | None, tuple[str, int] | None]:
        """Who declares: (the settled piece whose SP it is — flipped now —, the set special card's slot)."""
        if card is not None and card["type"] == "piece":
            if phase != "response":
                raise self.forbid("piece-sp-in-battle-cards", "combat.step3.sp", d, "card", card=d.card)
            return self._declaring_piece(d), None
        if card is not None and phase == "response":
            return None, self._use_set_card(d)
        return None, None

    def _choices(self, d: Declaration, effect, edef, inline: bool, phase: str, combat_cell: str | None):
        """The player's choices, fixed now (response.declare.timing): (target piece, chosen cell)."""
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
            self._check_target(d, edef.choose.get("target"), target)
        chosen = d.cell
        if need_cell and chosen is None:
            if phase != "response":
                chosen = combat_cell
            else:
                raise self.error(d, None, "cell-required", card=d.card)
        return target, chosen

    def _check_target(self, d: Declaration, want: str | None, target: Piece) -> None:
        """The card's own words on its target (own piece, own settled piece)."""
        if want in ("own-settled-piece", "own-piece") and target.side != d.side:
            raise self.forbid("target-not-own", "response.declare.timing", d, "target", card=d.card,
                              target=target.id, target_side=target.side)
        if want == "own-settled-piece" and target.state is not SETTLED:
            raise self.forbid("target-not-settled", "response.declare.timing", d, "target", card=d.card,
                              target=target.id)

    def _record_declaration(self, decl: Decl, counter_rule, known: bool, phase: str, combat_cell: str | None) -> None:
        """The `declare` event: in the response turn with the clause that let it be declared, else in step 1."""
        d = decl.d
        ev = dict(index=d.index, side=d.side, role=decl.role.value, card=d.card, ability=decl.ability,
                  piece=decl.self_id, target=decl.target_id, chosen_cell=decl.chosen_cell, applies=list(decl.applies),
                  counter=counter_rule is not None, effect=[pr.describe() for pr in decl.effect], inline=decl.inline,
                  effect_known=known)
        if phase == "response":
            rule, ruling = ("response.counter", counter_rule.cite) if counter_rule is not None else (
                "response.opener" if d.index == 0 else "response.declare.order", None)
            self.emit(E.DECLARE, phase="response", **ev, rule=rule, ruling=ruling)
        else:
            self.emit(E.DECLARE, cell=combat_cell, step=1, **ev, rule="combat.step1.battle-cards")

    def declared_piece(self, dc: "DeclaredEffect", ref) -> Piece:
        """The piece an effect names (`target`, `self`, an id), on the board now: its cell is noted (a move
        out of it before resolution makes the effect fizzle) and applied to."""
        pid = self.piece_ref(ref, dc)
        p = self.pieces[pid]
        if not p.on_board:
            raise self.forbid("effect-piece-gone", "response.declare.timing", dc.d, "effect", piece=pid)
        dc.from_cells[pid] = p.cell
        dc.add(p.cell)
        return p

    def cell_ref(self, ref, dc: "DeclaredEffect") -> str:
        """The cell an effect's `cell` names at declaration: the player's chosen cell, the cell written, or
        (none written) the item's `cell:`, else — in step 1 — the combat's own cell."""
        if ref == fx.CHOSEN:
            return dc.ctx["chosen"]
        if ref is None:
            # an effect without its own cell applies where the item says (`cell:`), else
            # (step 1) the combat's own cell
            if dc.ctx["chosen"] is not None:
                return dc.ctx["chosen"]
            if dc.combat_cell is None:
                raise self.error(dc.d, "effect", "attack-effect-cell")
            return dc.combat_cell
        return ref

    def piece_ref(self, ref, dc: "DeclaredEffect") -> str:
        """The piece an effect names at declaration (`target`, `self` or a piece id of the file)."""
        if ref == fx.TARGET:
            return dc.ctx["target"]
        if ref == fx.SELF:
            if dc.ctx["self"] is None:
                raise self.error(dc.d, "effect", "self-outside-sp")
            return dc.ctx["self"]
        if ref not in self.pieces:
            raise self.error(dc.d, "effect", "effect-unknown-piece", piece=ref)
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

    def check_move(self, d: Declaration, p: Piece, to: str) -> None:
        """A move effect declared on `p`: refused when a structure may not be moved by effects
        (structures-immovable-by-effects) or when the destination is full (response.move-impossible)."""
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

    def _pay(self, d: Declaration, decl: Decl, edef, phase: str) -> None:
        given = list(d.cost)
        to_pay: list[str] = []
        for c in (edef.cost if edef is not None else ()):
            if c.piece == fx.SELF:
                if decl.self_id is None:
                    raise self.error(d, "cost", "cost-self-outside-sp")
                to_pay.append(decl.self_id)
                continue

            def ok(p: Piece) -> bool:
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
            self.take_off(p)
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
