"""`{build: CARD, cell: CELL, id: ID, lv/hp/atk: N}` — a new mobile piece of a piece card placed in a cell
(production.placement: '생산·건설 기물은 기동으로', within the cell limits)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from .base import CHOSEN, Primitive, cell_text, effect_primitive, is_int


@effect_primitive
@dataclass(frozen=True)
class Build(Primitive):
    """A new piece of `card` placed in `cell` at resolution; e.g. 잠입건설, whose own text the pages do not
    give: written inline by the user."""

    card: str
    cell: str | None  # a cell id, CHOSEN, or None (= the item's `cell`)
    id: str | None = None
    #: stats the card data does not give (e.g. 폭약's Lv and HP), as the user knows them
    stats: tuple[tuple[str, int], ...] = ()

    head: ClassVar[str] = "build"
    head_aliases: ClassVar[tuple[str, ...]] = ("건설",)
    hover: ClassVar[str] = "건설: 놓을 기물 카드 이름 (셀에 기동으로, 셀 한도 안에서)."
    keys: ClassVar[tuple[str, ...]] = ("cell", "id", "lv", "hp", "atk")
    example: ClassVar[str] = "{build: 폭약, cell: CELL}"
    example_ko: ClassVar[str] = "{건설: 폭약, 셀: 셀}"
    data_schema: ClassVar[dict] = {
        "type": "object", "required": ["build"], "additionalProperties": False,
        "properties": {"build": {"type": "string"}, "cell": {"$ref": "#/$defs/cell"}, "id": {"type": "string"},
                       "lv": {"type": "integer", "minimum": 0}, "hp": {"type": "integer", "minimum": 1},
                       "atk": {"type": "integer", "minimum": 0}}}

    @classmethod
    def parse(cls, obj, where, sink):
        card, cell, bid = obj.get("build"), obj.get("cell"), obj.get("id")
        if not isinstance(card, str) or not card.strip():
            sink.add(obj, "build", f"{where}.build", "build-card")
            return None
        if cell is not None and cell_text(cell) is None:
            sink.add(obj, "cell", f"{where}.cell", "attack-cell")
            return None
        if bid is not None and (isinstance(bid, (dict, list, bool)) or not str(bid).strip()):
            sink.add(obj, "id", f"{where}.id", "build-id")
            return None
        stats = []
        for k in ("lv", "hp", "atk"):
            if k in obj:
                if not is_int(obj[k]) or obj[k] < (1 if k == "hp" else 0):
                    sink.add(obj, k, f"{where}.{k}", "build-stat", stat=k, value=obj[k], least=1 if k == "hp" else 0)
                    return None
                stats.append((k, obj[k]))
        return cls(card.strip(), cell_text(cell) if cell is not None else None,
                   str(bid) if bid is not None else None, tuple(stats))

    def describe(self) -> dict:
        out: dict[str, Any] = {"build": self.card, "cell": self.cell}
        if self.id is not None:
            out["id"] = self.id
        out.update(dict(self.stats))
        return out

    # ---------------------------------------------------------------- combat ----
    def declare(self, c, dc) -> None:
        """A piece card of the data, a new id."""
        info = c.corpus.cards.get(self.card)
        if info is None or info["type"] != "piece":
            raise c.error(dc.d, "effect", "build-card-unknown", card=self.card,
                          candidates=[n for n, x in c.corpus.cards.items()
                                      if x["type"] == "piece" and (self.card in n or n in self.card)][:3])
        if self.id is not None and self.id in c.pieces:
            raise c.error(dc.d, "effect", "build-id-taken", id=self.id)
        dc.add(c.cell_ref(self.cell, dc))

    def apply(self, c, decl, ctx, at, step) -> None:
        c.build(self, decl, ctx, at, step)  # the new piece joins the combat's state (combat_turn/stack.py)

    def reach(self, decl) -> set[str] | None:
        cell = decl.chosen_cell if self.cell in (None, CHOSEN) else self.cell
        return None if cell is None else {cell}
