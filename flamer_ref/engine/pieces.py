"""The frozen things a scenario is made of, below every rule: a piece as given (`PieceSpec`), a field slot
(`Slot`), a declaration of the response turn or of step 1 (`Declaration`), and the order of cell names
(`cell_sort_key`). Types first: the parsers (scenario.py, turns.py, round.py) build them, the rooms of the
combat (combat_turn/), the effect primitives (primitives/) and the card modules (cards/) read them, and this
module imports only the vocabulary (types.py); scenario.py re-exports every name for its callers."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from .types import PieceState


@dataclass(frozen=True)
class PieceSpec:
    id: str
    side: str
    cell: str
    card: str | None
    name: str | None
    lv: int | None
    hp: int | None
    atk: int | None
    cost: int | None
    state: PieceState
    structure: bool
    order: int  # position in the file (0-based, over the whole file)
    line: int | None
    given: frozenset[str] = frozenset()

    @property
    def label(self) -> str:
        return self.card or self.name or self.id


@dataclass(frozen=True)
class Slot:
    card: str
    face_up: bool
    type: str  # piece | special
    #: the card this one covers (엎어 세트, field.stack): it comes back when this one leaves the field
    #: (trashed in step 2, or its kind exhausted) — field.uncover. None: nothing underneath.
    under: "Slot | None" = None
    #: for a covered piece card: it was retired in this same round (its pieces stay settled when it
    #: comes back, field.uncover / same-round-uncover-stays-settled)
    same_round: bool = False


@dataclass(frozen=True)
class Declaration:
    """A response-turn item (대응턴) or a step-1 (전투) special card."""

    index: int
    side: str
    card: str | None
    ability: str | None
    piece: str | None  # the declaring piece for a piece's SP
    target: str | None
    cell: str | None
    cost: tuple  # of primitives.Destroy: the costs the file names
    effect: tuple | None  # of effect primitives (primitives/): the inline effect
    line: int | None
    where: str
    lines: Mapping[str, int | None] = field(default_factory=dict)

    def line_of(self, key: str) -> int | None:
        return self.lines.get(key) or self.line


def cell_sort_key(cell: str):
    parts = cell.split(",")
    try:
        return (0, tuple(int(p) for p in parts), cell)
    except ValueError:
        return (1, (), cell)
