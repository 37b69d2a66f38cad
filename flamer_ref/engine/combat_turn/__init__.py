"""The rooms of the combat turn (전투턴) with its response turn (대응턴), one concern each; `engine/combat.py`
is their front door (`simulate`, `Engine`, `stack_cells`, `combat_orders`).

- `state.py` — the types of a resolution (`Piece`, `Decl`, `Need`) and `Combat`, the one state object: the
  pieces and where they stand, the field, the record (events, gaps, assumptions) and the small verbs every
  room uses on it (emit, gap, assume, ask, forbid, error, stats of a piece).
- `targeting.py` — combat.targeting and combat.tiebreak as named functions: the target pool, the priority
  order (`rank`), the target (`pick_target`).
- `refs.py` — what a declaration's placeholders name (`target`, `self`, `chosen`) and the move check.
- `field.py` — the field during the combat: setup, a card leaving its slot, a kind leaving the board; the
  special cards' own parts are their hooks (engine/cards/).
- `attacks.py` — attacks, captures, buffs and the volleys of steps 4–5.
- `declare.py` — the response turn and step 1's declarations: who may declare what, choices, costs.
- `stack.py` — resolving a declaration (step 1, and the stack in step 2): each primitive applies itself.
- `steps.py` — one combat, steps 1–7, with step 3's SPs (here and remote) and the step-7 sweep.

The package's own __init__ imports nothing, so a room can be imported without the others.
"""
