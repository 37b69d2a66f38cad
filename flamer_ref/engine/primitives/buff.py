"""`{buff: PIECE, atk: N, hp: N, lv: N, cell: CELL}` — a change of a piece's stats for the combat (그 전투 한정);
`bonded` reaches the pieces bonded to the declaring card in the effect's cell."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from .base import Primitive, cell_text, effect_primitive, is_int


@effect_primitive
@dataclass(frozen=True)
class Buff(Primitive):
    piece: str
    atk: int = 0
    hp: int = 0
    lv: int = 0
    cell: str | None = None  # for BONDED: where the bonded pieces are looked for
    duration: str = "combat"

    head: ClassVar[str] = "buff"
    head_aliases: ClassVar[tuple[str, ...]] = ("강화",)
    hover: ClassVar[str] = "강화: 기물 id (그 전투 한정)."
    keys: ClassVar[tuple[str, ...]] = ("atk", "hp", "lv", "cell", "duration")
    example: ClassVar[str] = "{buff: PIECE, atk: 1}"
    example_ko: ClassVar[str] = "{강화: 기물, 공격력: 1}"
    data_schema: ClassVar[dict] = {
        "type": "object", "required": ["buff"], "additionalProperties": False,
        "properties": {"buff": {"$ref": "#/$defs/piece"}, "atk": {"type": "integer"}, "hp": {"type": "integer"},
                       "lv": {"type": "integer"}, "cell": {"$ref": "#/$defs/cell"}, "duration": {"const": "combat"}}}

    @classmethod
    def parse(cls, obj, where, sink):
        piece = obj.get("buff")
        if not isinstance(piece, str):
            sink.add(obj, "buff", f"{where}.buff", "buff-piece")
            return None
        vals = {}
        for k in ("atk", "hp", "lv"):
            v = obj.get(k, 0)
            if not is_int(v):
                sink.add(obj, k, f"{where}.{k}", "buff-stat", stat=k, value=v)
                return None
            vals[k] = v
        if not any(vals.values()):
            sink.add(obj, None, where, "buff-empty")
            return None
        if obj.get("duration", "combat") != "combat":
            sink.add(obj, "duration", f"{where}.duration", "buff-duration")
            return None
        cell = obj.get("cell")
        return cls(piece, cell=cell_text(cell) if cell is not None else None, **vals)

    def describe(self) -> dict:
        out: dict[str, Any] = {"buff": self.piece}
        for k in ("atk", "hp", "lv"):
            if getattr(self, k):
                out[k] = getattr(self, k)
        if self.cell is not None:
            out["cell"] = self.cell
        out["duration"] = self.duration
        return out
