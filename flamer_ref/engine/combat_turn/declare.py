"""The response turn (대응턴) and step 1's (전투) cards, at declaration: who may declare what (the
opener, a 맞대응 on a response cell while the rulings allow it), the declaring piece or set card, the player's
choices fixed now (target, cell), the cells each effect applies to, and the costs paid.
"""

from __future__ import annotations

from .. import effects as fx
from ..cards import hooks_of
from ..scenario import Declaration, cell_sort_key
from ..types import CELL_LIMIT, SIDE_LIMIT, EventType as E, Role
from .state import MOBILE, SETTLED, COUNTER_CARDS, COUNTER_SP, STRUCT_IMMOVABLE, withdrawn, Piece, Decl


class Declaring:
    """The declare room of `Engine` (engine/combat.py): its methods run on the one combat state
    (combat_turn/state.py)."""

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
                                  side=d.side, as_of=self.as_of, date=counter_rule.date, **withdrawn(counter_rule))
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

        decl = Decl(d=d, role=role, card=d.card, ability=ability, effect=tuple(effect), inline=inline, self_id=self_id,
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

    def _check_move(self, d: Declaration, p: Piece, to: str) -> None:
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
