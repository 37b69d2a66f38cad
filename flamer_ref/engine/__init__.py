"""The combat and response engine (issue 3): deterministic, pure Python, no I/O
and no sentences. Scenario files are parsed and validated by `scenario`, card
effects come from cards/effects.yaml (`effects`), `combat.simulate` resolves a
combat scenario into a frozen `result.CombatResult` of events that the
templates in templates/simulate/ turn into Korean.

    from flamer_ref.corpus import load
    from flamer_ref.engine import load_scenario, simulate
    corpus = load()
    result = simulate(load_scenario("scene5.yaml", corpus), corpus)
    result.to_json()
"""

from __future__ import annotations

from .combat import combat_orders, simulate
from .result import CellResult, CombatResult, Event
from .scenario import Scenario, load_file as load_scenario, parse as parse_scenario, parse_text as parse_scenario_text
from .types import EventType, PieceState, Role, Side, Step

#: scenario kinds this engine resolves (others are reported as not supported yet)
SUPPORTED_KINDS = ("combat", "move", "victory", "field", "round")

__all__ = [
    "CellResult", "CombatResult", "Event", "EventType", "PieceState", "Role", "SUPPORTED_KINDS", "Scenario", "Side",
    "Step", "combat_orders", "load_scenario", "parse_scenario", "parse_scenario_text", "simulate",
]
