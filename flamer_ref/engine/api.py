"""The engine's one entry: a scenario object of any kind in, a frozen result out.

    from flamer_ref.engine.api import parse, run
    scn = parse(doc, "scene.yaml", corpus)   # Scenario | MoveScenario | VictoryScenario | FieldScenario | RoundScenario
    res = run(scn, corpus, as_of=None)       # CombatResult | MoveTurnResult | VictoryTurnResult | FieldTurnResult | RoundResult
    res.kind, res.as_of, res.to_json()

Every parsed scenario has `kind`, `title`, `as_of`, `file`, `notices` (model.AnyScenario); every
result `kind`, `as_of` and `to_json()` (the result JSON of docs/SCENARIOS.md, without the Korean
messages, which the presentation layer adds: render.word_result). Callers dispatch on `kind`.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from .model import AnyScenario
from .turns import parse_any, run as _run


@runtime_checkable
class Result(Protocol):
    """What every result has (result.CombatResult and the result.TurnResult family)."""

    kind: str
    as_of: str

    def to_json(self) -> dict: ...


def parse(doc, file: str, corpus) -> AnyScenario:
    """A scenario object as read from YAML or a corpus example (Korean or English keys) → the
    frozen scenario of its kind; a malformed one is a DataError naming file, line and key."""
    return parse_any(doc, file, corpus)


def run(scn: AnyScenario, corpus, as_of: str | None = None) -> Result:
    """Resolve a parsed scenario of any kind at `as_of` (else its own, else the latest ruling)."""
    return _run(scn, corpus, as_of)


__all__ = ["AnyScenario", "Result", "parse", "run"]
