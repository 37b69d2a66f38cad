"""`{flip: PIECE, to: mobile|settled}` — turn a piece face up (기동) or face down (정착)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..types import PieceState
from ..types import EventType as E, FizzleReason
from .base import Primitive, effect_primitive, step_rule


@effect_primitive
@dataclass(frozen=True)
class Flip(Primitive):
    piece: str
    to: PieceState

    head: ClassVar[str] = "flip"
    head_aliases: ClassVar[tuple[str, ...]] = ("뒤집기",)
    hover: ClassVar[str] = "뒤집기: 기물 id (상태로 기동/정착)."
    keys: ClassVar[tuple[str, ...]] = ("to",)
    example: ClassVar[str] = "{flip: PIECE, to: mobile}"
    example_ko: ClassVar[str] = "{뒤집기: 기물, 상태: 기동}"
    data_schema: ClassVar[dict] = {
        "type": "object", "required": ["flip", "to"], "additionalProperties": False,
        "properties": {"flip": {"$ref": "#/$defs/piece"}, "to": {"enum": ["mobile", "settled"]}}}

    @classmethod
    def parse(cls, obj, where, sink):
        piece, to = obj.get("flip"), obj.get("to")
        if not isinstance(piece, str):
            sink.add(obj, "flip", f"{where}.flip", "flip-piece")
            return None
        if to not in ("mobile", "settled"):
            sink.add(obj, "to" if "to" in obj else None, f"{where}.to", "flip-to")
            return None
        return cls(piece, PieceState(to))

    def describe(self) -> dict:
        return {"flip": self.piece, "to": self.to.value}

    # ---------------------------------------------------------------- combat ----
    def declare(self, c, dc) -> None:
        c.declared_piece(dc, self.piece)

    def apply(self, c, decl, ctx, at, step) -> None:
        p = c.piece_at_resolution(self, decl, ctx, at, step)
        if p is None:
            return
        if p.state is self.to:
            c.fizzle(decl, at, step, FizzleReason.ALREADY, self, piece=p.id, cell=p.cell)
            return
        old = p.state
        p.state = self.to
        c.emit(E.FLIP, cell=p.cell, step=step, piece=p.id, **{"from": old.value}, to=self.to.value,
               rule=step_rule(step))
