"""잠식된 석산 — 광역증폭, a remote (전투) SP (combat.remote) whose reach the pages do not give: reported as a
gap (remote-range-unknown), never ignored."""

from __future__ import annotations

from .base import CardHooks, special_card


@special_card
class ErodedQuarry(CardHooks):
    name = "잠식된 석산"
    remote = {"광역증폭": None}
