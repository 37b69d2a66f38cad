"""The victory check (승리확인턴) as rules: secured cells, the VP gain, the two
win conditions. Pure; events cite clause ids and templates word them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from .scenario import cell_sort_key

VP_TO_WIN = 7  # victory.conditions


@dataclass(frozen=True)
class VictoryResult:
    secured: dict
    vp_gain: int
    vp: dict
    winner: str | None
    reasons: tuple[str, ...]
    cells: dict
    events: tuple[dict, ...]
    unresolved: tuple[dict, ...]


def check_victory(pieces: Iterable, player: str, sides: tuple[str, str], vp: dict, homes: dict) -> VictoryResult:
    """`pieces` have side, cell and state. Only `player` gains VP or wins here
    (victory.when); the opponent's count is only compared (victory.vp)."""
    pieces = list(pieces)
    opponent = sides[1] if sides[0] == player else sides[0]
    by_cell: dict[str, list] = {}
    for p in pieces:
        by_cell.setdefault(p.cell, []).append(p)
    events: list[dict] = []
    cells: dict[str, dict] = {}
    secured = {s: 0 for s in sides}
    for cell in sorted(by_cell, key=cell_sort_key):
        present = {p.side for p in by_cell[cell]}
        settled = {p.side for p in by_cell[cell] if getattr(p.state, "value", p.state) == "settled"}
        if len(present) > 1:
            status, by = "contested", None
        elif settled:
            status, by = "secured", next(iter(settled))
            secured[by] += 1
        else:
            status, by = "occupied", next(iter(present))
        cells[cell] = {"status": status, "by": by, "sides": sorted(present)}
        events.append({"type": "cell", "cell": cell, "status": status, "by": by, "sides": sorted(present),
                       "rule": "victory.secure", "interpretation": "interp.secure.value-cells" if status == "secured" else None})
    a, b = secured[player], secured[opponent]
    gain = a - b if a > b else 0
    after = dict(vp)
    after[player] = vp.get(player, 0) + gain
    events.append({"type": "vp", "side": player, "a": a, "b": b, "gain": gain, "before": vp.get(player, 0),
                   "after": after[player], "rule": "victory.vp"})
    reasons: list[str] = []
    if after[player] >= VP_TO_WIN:
        reasons.append("vp")
        events.append({"type": "win-check", "condition": "vp", "met": True, "vp": after[player],
                       "rule": "victory.conditions"})
    else:
        events.append({"type": "win-check", "condition": "vp", "met": False, "vp": after[player],
                       "rule": "victory.conditions"})
    unresolved: list[dict] = []
    opp_homes = homes.get(opponent)
    if opp_homes is None:
        events.append({"type": "win-check", "condition": "home", "met": None, "homes": None,
                       "rule": "victory.conditions"})
    else:
        inside = sorted({p.cell for p in pieces if p.side == player and p.cell in opp_homes}, key=cell_sort_key)
        shared = [c for c in inside if any(p.side == opponent for p in by_cell.get(c, []))]
        met = bool(inside)
        if met:
            reasons.append("home")
        events.append({"type": "win-check", "condition": "home", "met": met, "homes": list(opp_homes),
                       "cells": inside, "rule": "victory.conditions",
                       "interpretation": "interp.home.any-presence" if shared else None})
        if met and len(shared) == len(inside):
            # every home cell that wins is shared with the opponent: the pages disagree there (victory:
            # '자기 기물이 위치해 있으면(기동·정착 무관)' vs combat: '대립 셀은 어느 쪽도 점령·확보하지 못합니다') —
            # the win stands as a reading, said in unresolved
            unresolved.append({"reason": "home-contested", "cells": shared, "side": player,
                               "rule": "victory.conditions", "interpretation": "interp.home.any-presence",
                               "also": "combat.standoff"})
        events.append({"type": "home-timing", "rule": "victory.home-timing"})
    winner = player if reasons else None
    events.append({"type": "result", "winner": winner, "reasons": list(reasons), "rule": "victory.conditions"})
    return VictoryResult(secured=secured, vp_gain=gain, vp=after, winner=winner, reasons=tuple(reasons),
                         cells=cells, events=tuple(events), unresolved=tuple(unresolved))
