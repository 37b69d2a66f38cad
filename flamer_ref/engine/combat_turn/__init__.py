"""The rooms of the combat turn (전투턴) with its response turn (대응턴), one concern each; `engine/combat.py`
is their front door (`simulate`, `Engine`, `stack_cells`, `combat_orders`), and its `Engine` is made of them.

- `state.py` — the types of a resolution (`Piece`, `Decl`, `Need`), the decisions it asks and
  `CombatState`: the pieces and where they stand, the field, the stack, the record (events, gaps,
  assumptions) and the small verbs every room uses on it (emit, gap, assume, ask, forbid, error, step).
- `targeting.py` — a piece's stats as the combat reads them, combat.targeting and combat.tiebreak: the
  priority order (`rank`), the target (`pick_target`).
- `field.py` — the field during the combat: setup, a card leaving its slot, a kind leaving the board; the
  special cards' own parts are their hooks (engine/cards/).
- `declare.py` — the response turn and step 1's declarations: who may declare what, choices, costs.
- `stack.py` — resolving a declaration (step 1, and the stack in step 2): each primitive applied.
- `attacks.py` — attacks, captures, the volleys of steps 4–5 and the step-7 sweep.
- `steps.py` — one combat, steps 1–7, with step 3's SPs (here and remote).

The package's own __init__ imports nothing, so a room can be imported without the others.
"""
