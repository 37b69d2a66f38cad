"""The engine: deterministic, pure Python, no file reads and no sentences (docs/ENGINE.md).
Scenario objects are parsed and validated by `scenario` (combat) and `turns` / `round`
(the other kinds); the data it needs comes in with the corpus (`corpus.effects`,
`corpus.example_board`, read by the data layer); `combat.simulate` resolves a combat
scenario into a frozen `result.CombatResult` of events; the Korean words of errors and
gaps are added by the presentation layer (`render.word_result`, templates/simulate/).

    from flamer_ref.corpus import load
    from flamer_ref.engine import simulate
    from flamer_ref.scenario_files import load_scenario   # reading a file: not the engine's job
    corpus = load()
    result = simulate(load_scenario("scene5.yaml", corpus), corpus)
    result.to_json()
"""

from __future__ import annotations

from . import round as _round, turns as _turns
from .combat import combat_orders, simulate
from .result import CellResult, CombatResult, Event
from .scenario import Scenario, parse as parse_scenario, parse_text as parse_scenario_text
from .types import EventType, PieceState, Role, Side, Step

# kind: round plays the other turns (it imports turns); registered here so turns does not import it
_turns.PARSERS["round"] = _round.parse_round
_turns.RUNS["round"] = _round.run_round

#: scenario kinds this engine resolves (others are reported as not supported yet)
SUPPORTED_KINDS = ("combat", "move", "victory", "field", "round")

__all__ = [
    "CellResult", "CombatResult", "Event", "EventType", "PieceState", "Role", "SUPPORTED_KINDS", "Scenario", "Side",
    "Step", "combat_orders", "parse_scenario", "parse_scenario_text", "simulate",
]
