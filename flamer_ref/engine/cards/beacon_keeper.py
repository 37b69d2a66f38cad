"""봉수장 — 지원사격, a remote (전투) SP (combat.remote): '2셀 이내 전투의 SP 발동턴' — a mobile 봉수장 fires in
step 3 of a combat within 2 cells, staying in its own cell."""

from __future__ import annotations

from .base import CardHooks, special_card


@special_card
class BeaconKeeper(CardHooks):
    name = "봉수장"
    remote = {"지원사격": 2}
