"""개미 — 불사: what happens when a 개미 is captured at HP 0 or less the pages do not give; the capture stands
and the gap is reported (effect-unknown)."""

from __future__ import annotations

from ..types import UnresolvedReason
from .base import CardHooks, special_card


@special_card
class Ant(CardHooks):
    name = "개미"

    def hp_captured(self, c, piece, cell):
        c.gap(UnresolvedReason.EFFECT_UNKNOWN, cell=cell, piece=piece.id, card=self.name, ability="불사",
              rule="combat.attack")
