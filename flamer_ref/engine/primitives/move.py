"""`{move: PIECE, to: CELL}` — a piece leaves its cell for another (a departure from a combat, or an arrival)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from .base import Primitive, cell_text, effect_primitive


@effect_primitive
@dataclass(frozen=True)
class Move(Primitive):
    piece: str
    to: str

    head: ClassVar[str] = "move"
    head_aliases: ClassVar[tuple[str, ...]] = ("옮기기",)
    hover: ClassVar[str] = "옮기기: 기물 id (도착 셀로)."
    keys: ClassVar[tuple[str, ...]] = ("to",)
    example: ClassVar[str] = "{move: PIECE, to: CELL}"
    example_ko: ClassVar[str] = "{옮기기: 기물, 도착: 셀}"
    data_schema: ClassVar[dict] = {
        "type": "object", "required": ["move", "to"], "additionalProperties": False,
        "properties": {"move": {"$ref": "#/$defs/piece"}, "to": {"$ref": "#/$defs/cell"}}}

    @classmethod
    def parse(cls, obj, where, sink):
        piece, to = obj.get("move"), cell_text(obj.get("to"))
        if not isinstance(piece, str):
            sink.add(obj, "move", f"{where}.move", "move-piece")
            return None
        if to is None:
            sink.add(obj, "to" if "to" in obj else None, f"{where}.to", "move-to")
            return None
        return cls(piece, to)

    def describe(self) -> dict:
        return {"move": self.piece, "to": self.to}
