"""The engine: deterministic, pure Python, no file reads and no sentences (docs/ENGINE.md).
Every kind is parsed and validated into a frozen scenario object (`scenario.Scenario` for combat,
`model.MoveScenario`, `VictoryScenario`, `FieldScenario`, `RoundScenario`) and resolved into a
frozen result (`result.CombatResult`, `MoveTurnResult`, `VictoryTurnResult`, `FieldTurnResult`,
`RoundResult`) with `to_json()`; `api.parse` / `api.run` are the one entry for every kind. The data
it needs comes in with the corpus (the documents of cards/effects.yaml and the example board, read by the
data layer and checked here once per corpus: `effects.effects_of`, `board.example_board_of`);
the Korean words of errors and gaps are added by the presentation layer (`render.word_result`,
templates/simulate/).

    from flamer_ref.corpus import load
    from flamer_ref.engine import run
    from flamer_ref.scenario_files import load_any   # reading a file: not the engine's job
    corpus = load()
    result = run(load_any("scene5.yaml", corpus), corpus)
    result.kind, result.to_json()
"""

from __future__ import annotations

from . import game as _game, round as _round, turns as _turns
from .combat import combat_orders, simulate
from .result import CellResult, CombatResult, Event
from .scenario import Scenario, parse as parse_scenario, parse_text as parse_scenario_text
from .types import EventType, Kind, PieceState, Role, Side, Step, Turn

# kind: round plays the other turns (it imports turns); registered here so turns does not import it
_turns.PARSERS["round"] = _round.parse_round
_turns.RUNS["round"] = _round.run_round
_turns.PARSERS["game"] = _game.parse_game
_turns.RUNS["game"] = _game.run_game

#: scenario kinds this engine resolves (others are reported as not supported yet)
SUPPORTED_KINDS = tuple(k.value for k in Kind)

from .api import AnyScenario, Result, parse, run  # noqa: E402 - after the round is registered

__all__ = [
    "AnyScenario", "CellResult", "CombatResult", "Event", "EventType", "Kind", "PieceState", "Result", "Role",
    "SUPPORTED_KINDS", "Scenario", "Side", "Step", "Turn", "combat_orders", "parse", "parse_scenario",
    "parse_scenario_text", "run", "simulate",
]
