"""What a special card's module gives the engine: `CardHooks`, the hooks the rooms call, every one optional,
and the registry its modules fill (`@special_card`).

The data (cards/cards.yaml, cards/effects.yaml) says what a card is and what its effects do in primitives;
a card whose behaviour the primitives cannot say — a 등장효과 that picks a card on the field, a cost that is
a ruling's decision, a gap the pages leave, a reach into other cells — has a module in this package with
one subclass of `CardHooks` (its `name` is the card's name in the data), registered with `@special_card`.
The rooms call the hooks of every registered card, in the registry's order, and never name a card.

Hooks of the field (engine/fieldplay.py, one side's `FieldPlay` as `fp`):

- `field_entered(fp, i, card)` — the card, on top of slot i, entered face up (its 등장효과 fired): what it
  chose, fixed at entry (`card.target`, and `fp.lasting[name]` for '영구 적용');
- `field_released(fp, index, gone, how)` — a card retired or left the field (while entry effects end with
  their card): what of this card's 등장효과 it releases;
- `field_levels(fp, levels, ends)`, `field_bonds(fp, bonds, ends)` — the field's continuous effects now
  (Lv of a card's pieces; 결속 pairs), with their events; `ends` is the decision
  entry-effect-ends-with-card.

Hooks of the combat (engine/combat.py's `Engine` as `c`, its rooms in engine/combat_turn/):

- `combat_setup(c)` — before the response turn, on the `field:` given: the continuous part of its 등장효과;
- `combat_entered_again(c, side, i, cell, step)` — the card came back face up in slot i during the
  combat (field.uncover) and its 등장효과 fired again;
- `entry_lasts(c, side, card)` — would `card` leaving the field end a continuous part of this card's
  등장효과 (then the decision entry-effect-ends-with-card is asked);
- `combat_card_left(c, side, card, cell, step)` — `card` left the field face up (its kind exhausted):
  what of this card's 등장효과 ends;
- `own_cost(c, decl, piece)` — a piece paid as the cost of this card's declaration: (rule, ruling) the
  cost event cites, or None for the ordinary cost (response.declare.timing);
- `hp_captured(c, piece, cell)` — a piece of this card captured at HP 0 or less.

`remote` maps the card's remote (전투) SPs (combat.remote) to their reach in cells (None: the pages give
none).
"""

from __future__ import annotations

from typing import Any, ClassVar, Mapping

#: card name → its hooks, filled by @special_card as the modules of this package are imported
REGISTRY: dict[str, "CardHooks"] = {}


def special_card(cls: type["CardHooks"]) -> type["CardHooks"]:
    """Register a card's hooks under its name (its module is imported by cards/__init__.py)."""
    if cls.name in REGISTRY:
        raise ValueError(f"two modules for the card {cls.name!r}")
    REGISTRY[cls.name] = cls()
    return cls


def tops_of(slots) -> list:
    """A combat's field row (scenario Slots) as the field rules read it: per slot None or
    (name, face_up, type) of its top card."""
    return [None if s is None else (s.card, s.face_up, s.type) for s in slots]


class CardHooks:
    """A special card's behaviour (see the module docstring). Subclasses set `name` and override what they need."""

    name: ClassVar[str]
    remote: ClassVar[Mapping[str, int | None]] = {}

    # ----------------------------------------------------------------- field ----
    def field_entered(self, fp, i: int, card) -> None:
        pass

    def field_released(self, fp, index: int, gone, how: str) -> None:
        pass

    def field_levels(self, fp, levels: dict, ends) -> None:
        pass

    def field_bonds(self, fp, bonds: dict, ends) -> None:
        pass

    # ---------------------------------------------------------------- combat ----
    def combat_setup(self, c) -> None:
        pass

    def combat_entered_again(self, c, side: str, i: int, cell: str, step: int | None) -> None:
        pass

    def entry_lasts(self, c, side: str, card: str | None) -> bool:
        return False

    def combat_card_left(self, c, side: str, card: str | None, cell: str, step: int | None) -> None:
        pass

    def own_cost(self, c, decl, piece: str) -> tuple[str, Any] | None:
        return None

    def hp_captured(self, c, piece, cell: str) -> None:
        pass
