"""Special cards that carry their behaviour: one module per card, beside its data (cards/cards.yaml,
cards/effects.yaml), each a `CardHooks` subclass registered with `@special_card` (cards/base.py lists the
hooks). The engine's rooms call the hooks of every card here and never write a card's name; a new special
card is a new module here and its name in the import line below (docs/DATA.md 「특수 카드를 더하려면」).

Made from the registry: `REMOTE_SP`, the remote (전투) SPs and their reach (combat.remote), which the
scenario parser and the runner read to know when a combat needs a board.
"""

from __future__ import annotations

from .base import REGISTRY, CardHooks, special_card, tops_of  # noqa: F401

# the registry: each module registers its card (@special_card), in this order — the order the rooms call
# the hooks in. (Named here, not found by listing this folder: the engine reads no files.)
from . import byeolmadae, amplifier, explosive, ant, beacon_keeper, eroded_quarry  # noqa: E402,F401,I001

#: card name → its hooks, in the registry's order
CARD_HOOKS: dict[str, CardHooks] = dict(REGISTRY)

#: 원격 참여 SP (combat.remote): (card, ability) → reach in cells; None where the pages give no reach
REMOTE_SP: dict[tuple[str, str], int | None] = {(h.name, ability): reach for h in CARD_HOOKS.values()
                                                for ability, reach in h.remote.items()}


def hooks_of(card: str | None) -> CardHooks | None:
    """The hooks of a special card, or None for a card without a module (its data says all it does)."""
    return CARD_HOOKS.get(card) if card is not None else None
