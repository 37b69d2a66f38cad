"""The work one game record may do, shared by all its rounds (issue 25).

A combat scenario is bounded by its own budget (combat.MAX_TOTAL_ROUNDS rounds of steps 4–6 for all
its cells together), and a round plays one combat. A game replays up to 500 rounds, and each round's
combat could spend the whole combat budget again while every event of every round is kept: a record
well inside the documented limits then ran for minutes and gigabytes. So a game carries one
`GameBudget` through all its rounds:

- combat rounds: every round of steps 4–6 that any combat of the record fights (refused attempts of
  the round engine included) counts against MAX_GAME_COMBAT_ROUNDS — the budget of one combat
  scenario, shared by the whole record;
- result size: every round entry the record keeps (its turns, events, final state and what the game's
  own lists repeat of it) is measured as compact UTF-8 JSON, and all of them together may not pass
  MAX_GAME_RESULT_BYTES.

Past either, the replay stops at once with a `WorkLimit` (a DataError with its own code, exit 1)
whose coded problem names the round reached and what made the record big: never a partial answer,
a MemoryError or a hang. The engine words nothing: the codes are worded by the presentation layer
(templates/problems/scenario.txt.j2).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from enum import Enum

from ..errors import Problem, WorkLimit

#: rounds of steps 4–6 of every combat of one game record together (the budget of one combat scenario,
#: combat.MAX_TOTAL_ROUNDS, shared by all the rounds instead of given to each)
MAX_GAME_COMBAT_ROUNDS = 5_000
#: the game result JSON (compact, UTF-8) that the rounds kept may add up to
MAX_GAME_RESULT_BYTES = 8_000_000


def _as_plain(o):
    """A value the result JSON holds in another form (a read-only mapping, an enum): measured as it is written."""
    if isinstance(o, Mapping):
        return dict(o)
    if isinstance(o, Enum):
        return o.value
    if isinstance(o, (set, frozenset)):
        return sorted(o, key=str)
    return str(o)


_COMPACT = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), check_circular=False, default=_as_plain)


class GameBudget:
    """What a game record has spent so far; `round` is the round being played (1-based)."""

    def __init__(self, file: str):
        self.file = file
        self.rounds_limit = MAX_GAME_COMBAT_ROUNDS
        self.size_limit = MAX_GAME_RESULT_BYTES
        self.round = 0
        self.combat_rounds = 0  # rounds of steps 4–6 fought by every combat so far
        self.size = 0  # bytes of the round entries kept so far
        self.combat_events = 0  # events of the combats kept so far (what the size message names)

    def combat_round(self, cell: str) -> None:
        """One more round of steps 4–6 in `cell`: past the record's budget, the replay stops."""
        self.combat_rounds += 1
        if self.combat_rounds > self.rounds_limit:
            raise WorkLimit([Problem(self.file, None, f"rounds[{self.round - 1}]", code="game-budget-rounds",
                                     params={"round": self.round, "cell": cell, "limit": self.rounds_limit})])

    def keep(self, entry: dict, *more, board_cells: int = 0, pieces: int = 0) -> None:
        """A round entry (and the game's own lists' share of it) kept: past the size budget, the replay
        stops, naming the round and the largest parts of the record."""
        size = len(_COMPACT.encode(entry).encode("utf-8"))
        for part in more:
            size += len(_COMPACT.encode(part).encode("utf-8"))
        self.size += size
        for t in entry.get("turns") or ():
            if t.get("turn") == "combat":
                self.combat_events += len(t["result"].get("events") or ())
        if self.size > self.size_limit:
            raise WorkLimit([Problem(self.file, None, f"rounds[{self.round - 1}]", code="game-budget-size",
                                     params={"round": self.round, "limit_mb": self.size_limit // 1_000_000,
                                             "size_mb": round(self.size / 1_000_000, 1),
                                             "last_kb": round(size / 1000),
                                             "combat_events": self.combat_events, "board_cells": board_cells,
                                             "pieces": pieces})])
