"""`{destroy: PIECE}` / `{destroy: {own, card, state}}` — a cost: a piece taken off the board at declaration
(a structure becomes a fragment). Costs are paid by the declaration (combat_turn/declare.py), not resolved:
this is not one of the effect primitives of the registry."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..types import PieceState


@dataclass(frozen=True)
class Destroy:
    """A cost: remove a piece from the board at declaration (a structure becomes a fragment)."""

    piece: str | None = None  # a piece id or SELF; None = chosen by the player among matching pieces
    own: bool = True
    card: str | None = None
    state: PieceState | None = None

    kind = "destroy"

    def describe(self) -> dict:
        if self.piece is not None:
            return {"destroy": self.piece}
        sel: dict[str, Any] = {"own": self.own}
        if self.card:
            sel["card"] = self.card
        if self.state:
            sel["state"] = self.state.value
        return {"destroy": sel}


def parse_destroy(obj, where: str, sink) -> Destroy | None:
    if not isinstance(obj, dict) or set(obj) != {"destroy"}:
        sink.add(obj if isinstance(obj, dict) else None, None, where, "cost-form")
        return None
    v = obj["destroy"]
    if isinstance(v, str):
        return Destroy(piece=v)
    if isinstance(v, dict):
        extra = set(v) - {"own", "card", "state"}
        if extra:
            sink.add(v, None, where, "destroy-unknown-key", extra=sorted(extra))
            return None
        state = v.get("state")
        if state is not None and state not in ("mobile", "settled"):
            sink.add(v, "state", where, "destroy-state")
            return None
        own = v.get("own", True)
        if not isinstance(own, bool):
            sink.add(v, "own", where, "destroy-own")
            return None
        return Destroy(piece=None, own=own, card=v.get("card"),
                       state=PieceState(state) if state else None)
    sink.add(obj, "destroy", where, "destroy-value")
    return None
