"""폭약 — 폭발: the 폭약 piece that declares it is destroyed as the declaration's cost, at declaration
(response.cost.explosive; the decision explosive-destroy-is-cost: the only reading coded). Its effect then
attacks, not the piece (primitives: attack)."""

from __future__ import annotations

from .base import CardHooks, special_card

EXPLOSIVE_COST = "explosive-destroy-is-cost"  # the decision a dated ruling sets (engine/decisions.py)


@special_card
class Explosive(CardHooks):
    name = "폭약"

    def own_cost(self, c, decl, piece):
        if piece != decl.self_id:
            return None
        a = c.ask(EXPLOSIVE_COST)
        if not a.known:
            c.rule_gap(a, ruling=a.cite, piece=piece, rule="response.cost.explosive")
        return "response.cost.explosive", a.cite
