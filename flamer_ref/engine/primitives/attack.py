"""`{attack: N, cell: CELL}` — an N ATK attack in a cell, on the target the ordinary rule picks."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from .base import Primitive, cell_text, effect_primitive, is_int


@effect_primitive
@dataclass(frozen=True)
class Attack(Primitive):
    amount: int
    cell: str | None  # a cell id, CHOSEN, or None (= the item's cell, else the combat's own cell in step 1)

    head: ClassVar[str] = "attack"
    head_aliases: ClassVar[tuple[str, ...]] = ("공격",)
    hover: ClassVar[str] = "공격: N ATK 공격 (셀에서 보통의 대상 규칙으로)."
    head_schema: ClassVar[dict] = {"type": "integer"}
    keys: ClassVar[tuple[str, ...]] = ("cell",)
    example: ClassVar[str] = "{attack: N, cell: CELL}"
    example_ko: ClassVar[str] = "{공격: N, 셀: 셀}"
    data_schema: ClassVar[dict] = {
        "type": "object", "required": ["attack"], "additionalProperties": False,
        "properties": {"attack": {"type": "integer"}, "cell": {"$ref": "#/$defs/cell"}}}

    @classmethod
    def parse(cls, obj, where, sink):
        n = obj.get("attack")
        if not is_int(n):
            sink.add(obj, "attack", f"{where}.attack", "attack-value", value=n)
            return None
        cell = obj.get("cell")
        if cell is not None and cell_text(cell) is None:
            sink.add(obj, "cell", f"{where}.cell", "attack-cell")
            return None
        return cls(n, cell_text(cell) if cell is not None else None)

    def describe(self) -> dict:
        return {"attack": self.amount, "cell": self.cell}
