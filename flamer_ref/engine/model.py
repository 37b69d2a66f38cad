"""The parsed scenario of every kind, as frozen objects sharing one small shape.

Every kind parses into one frozen dataclass: `scenario.Scenario` (combat), `MoveScenario`,
`VictoryScenario`, `FieldScenario` and `RoundScenario`. All of them have `kind`, `title`,
`as_of`, `file` and `notices` (card names read as another name), so the layers above the engine
(runner, cli, book, site, templates) dispatch on `scn.kind` and never on the Python type. The
pieces are `scenario.PieceSpec`, the board `board.Board`, a move `movement.MoveOrder`, a field
action `FieldAction`, a production `Production`, a blackout flip `BlackoutFlip`.

`api.run(scn, corpus, as_of)` turns any of them into a frozen result of the matching kind
(`result.CombatResult`, `result.MoveTurnResult` …), each with `to_json()`.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, ClassVar, Mapping, NamedTuple, Protocol, runtime_checkable

from .board import Board
from .movement import MoveOrder
from .scenario import Declaration, PieceSpec, ScenarioBase


def frozen_map(d: Mapping | None) -> Mapping:
    """A read-only view of a small mapping (its list values as tuples)."""
    return MappingProxyType({k: tuple(v) if isinstance(v, list) else v for k, v in (d or {}).items()})


class FieldAction(NamedTuple):
    """One field action (kind field's `actions`, kind round's `field_actions.SIDE`): `verb` is
    place | activate | trash | exhausted | round; `index` its position in the file's list; for
    place the card, the slot (1-based; 0 for a special card played face up) and the face; for
    activate / trash / exhausted the slot (1-based, as written)."""

    verb: str
    index: int
    card: str | None = None
    slot: int | None = None
    face_up: bool | None = None
    #: kind round: the turn it happens in (`at:`; None = not written, played after the 보급턴)
    at: str | None = None


class Production(NamedTuple):
    """A `produce` item of kind round: card, cell, optional piece id, its place and YAML line."""

    index: int
    card: str
    cell: str
    id: str | None
    line: int | None


class BlackoutFlip(NamedTuple):
    """A `blackout` item of kind round: the piece and the state it is turned to."""

    index: int
    piece: str
    to: str  # mobile | settled


@runtime_checkable
class AnyScenario(Protocol):
    """What every parsed scenario has (combat's `scenario.Scenario` included)."""

    kind: str
    title: str | None
    as_of: str | None
    file: str
    notices: tuple[dict, ...]


@dataclass(frozen=True)
class MoveScenario(ScenarioBase):
    kind: ClassVar[str] = "move"
    file: str
    title: str | None
    as_of: str | None
    sides: tuple[str, str]
    pieces: tuple[PieceSpec, ...]
    board: Board
    assumed: tuple[Mapping[str, Any], ...]  # choices the file left (the example board)
    outside: tuple[str, ...]  # cells of pieces missing from the assumed example board
    first_round: bool
    activate: tuple[str, ...]
    moves: tuple[MoveOrder, ...]
    notices: tuple[dict, ...] = ()


@dataclass(frozen=True)
class VictoryScenario(ScenarioBase):
    kind: ClassVar[str] = "victory"
    file: str
    title: str | None
    as_of: str | None
    sides: tuple[str, str]
    pieces: tuple[PieceSpec, ...]
    vp: Mapping[str, int]
    homes: Mapping[str, tuple[str, ...]]
    notices: tuple[dict, ...] = ()


@dataclass(frozen=True)
class FieldScenario(ScenarioBase):
    kind: ClassVar[str] = "field"
    file: str
    title: str | None
    as_of: str | None
    side: str
    initial: tuple[tuple[str, bool] | None, ...]  # five slots: (card, face_up) or None
    actions: tuple[FieldAction, ...]
    notices: tuple[dict, ...] = ()


@dataclass(frozen=True)
class RoundScenario(ScenarioBase):
    kind: ClassVar[str] = "round"
    file: str
    title: str | None
    as_of: str | None
    sides: tuple[str, str]  # (player, opponent)
    pieces: tuple[PieceSpec, ...]
    board: Board
    assumed: tuple[Mapping[str, Any], ...]
    outside: tuple[str, ...]
    first_round: bool
    vp: Mapping[str, int]
    dor: Mapping[str, int]
    homes: Mapping[str, tuple[str, ...]] | None  # None: the board's homes
    fields: Mapping[str, tuple[tuple[str, bool] | None, ...]]
    field_actions: Mapping[str, tuple[FieldAction, ...]]
    activate: tuple[str, ...]
    moves: tuple[MoveOrder, ...]
    response: tuple[Declaration, ...]
    battle_cards: tuple[Declaration, ...]
    combat_order: tuple[str, ...] | None
    produce: tuple[Production, ...]
    blackout: tuple[BlackoutFlip, ...]
    notices: tuple[dict, ...] = ()
    #: (이동) special cards used in the 이동턴 (move.special-cards), by name
    move_cards: tuple[str, ...] = ()
