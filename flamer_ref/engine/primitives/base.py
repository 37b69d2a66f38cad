"""What every effect primitive is: `Primitive`, the hooks it owns, the keys effect items share, and the
registry its modules fill (`@effect_primitive`).

A primitive is a frozen dataclass naming one thing an effect does (flip, move, attack, buff, build). Its
class says how it is written — its head key, the other keys it takes, their Korean spellings and editor
hover text, its JSON Schema and an example (the alias table, both JSON Schemas and the problem
`effect-head` are made from these) — and owns:

- `parse(obj, where, sink)` — the item (canonical keys, already checked: one head, only allowed keys) →
  the primitive, or None after a coded problem on `sink`;
- `describe()` — the item as events and fizzles show it (the `effect` of a `declare` event);
- `declare(c, dc)` — what it touches when declared (response.declare.timing): its checks, and the cells it
  applies to (the `applies` of the declaration);
- `apply(c, decl, ctx, at, step)` — its resolution in step 1 or 2 (a fizzle when it cannot);
- `reach(decl)` — the cells it changes for `stack_cells` (None: it has no cell of its own);
- `apply_sp(c, piece, side, cell, remote)` — its part in a (전투) SP fired in step 3.

`c` is the combat being resolved (engine/combat.py's `Engine`, its rooms in combat_turn/); `dc` what the
declaration fixed (combat_turn/declare.py `DeclaredEffect`); the rules a primitive applies are the combat's
named verbs (pick_target, hit, buff, fizzle, declared_piece, piece_at_resolution, joins …).
"""

from __future__ import annotations

from typing import Any, ClassVar, NamedTuple

from ..types import BONDED, CHOSEN, SELF, TARGET  # noqa: F401 - the placeholders, re-exported

PLACEHOLDERS = (TARGET, SELF, BONDED)


class Key(NamedTuple):
    """A key of an effect item besides its head: its Korean spellings, the hover text of the scenario
    schema, and its JSON Schema in a scenario file."""

    aliases: tuple[str, ...]
    hover: str
    schema: dict


#: the keys primitives share, in the order of the alias table (aliases.KEYS["effect"]) and the schemas
SHARED_KEYS: dict[str, Key] = {
    "id": Key(("아이디",), "건설한 새 기물의 id (없으면 자동).", {"type": ["string", "integer"]}),
    "to": Key(("상태", "도착"), "뒤집기의 상태(기동/정착) 또는 옮기기의 도착 셀.",
              {"anyOf": [{"$ref": "#/$defs/state"}, {"type": "string"}]}),
    "cell": Key(("셀",), "셀 \"x,y\".", {"type": "string"}),
    "atk": Key(("공격력", "ATK"), "ATK 변화.", {"type": "integer"}),
    "hp": Key(("체력", "HP"), "HP 변화.", {"type": "integer"}),
    "lv": Key(("레벨", "Lv"), "Lv 변화.", {"type": "integer"}),
    "duration": Key(("지속",), "지속: combat(그 전투 한정)만.", {"enum": ["combat"]}),
}

#: head → primitive class, filled by @effect_primitive as the modules of this package are imported
REGISTRY: dict[str, type["Primitive"]] = {}


def effect_primitive(cls: type["Primitive"]) -> type["Primitive"]:
    """Register a primitive class under its head (its module is imported by primitives/__init__.py)."""
    if cls.head in REGISTRY:
        raise ValueError(f"two primitives with the head {cls.head!r}")
    own = set(cls.own_keys)
    if own & set(SHARED_KEYS):
        raise ValueError(f"{cls.head}: own keys {sorted(own & set(SHARED_KEYS))} are shared keys")
    unknown = set(cls.keys) - set(SHARED_KEYS) - own
    if unknown:
        raise ValueError(f"{cls.head}: keys {sorted(unknown)} are neither shared nor its own")
    REGISTRY[cls.head] = cls
    return cls


def step_rule(step: int) -> str:
    """The clause a declaration's effect applies under: the stack (step 2) or step 1's (전투) cards."""
    return "combat.step2.response" if step == 2 else "combat.step1.battle-cards"


def is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def cell_text(v) -> str | None:
    """A cell as written in an effect ("2, 4" → "2,4"), or None when it is no text."""
    if isinstance(v, str) and v.strip():
        return v.replace(" ", "")
    return None


class Primitive:
    """The base of every effect primitive (see the module docstring for the hooks)."""

    #: the key that names the primitive in an effect item, its Korean spellings and its hover text
    head: ClassVar[str]
    head_aliases: ClassVar[tuple[str, ...]] = ()
    hover: ClassVar[str] = ""
    #: JSON Schema of the head's value in a scenario file (its Korean spellings share it)
    head_schema: ClassVar[dict] = {"type": "string"}
    #: the other keys it takes: shared ones (SHARED_KEYS) or its own (own_keys), in the order of the table
    keys: ClassVar[tuple[str, ...]] = ()
    own_keys: ClassVar[dict[str, Key]] = {}
    #: an item as a writer would write it, with canonical keys and with Korean keys (the fix of `effect-head`)
    example: ClassVar[str] = ""
    example_ko: ClassVar[str] = ""
    #: JSON Schema of its canonical form, as cards/effects.yaml writes it (schemas/effects.schema.json)
    data_schema: ClassVar[dict] = {}

    @classmethod
    def allowed(cls) -> set[str]:
        return {cls.head, *cls.keys}

    @classmethod
    def parse(cls, obj: dict, where: str, sink) -> "Primitive | None":  # pragma: no cover - each overrides
        raise NotImplementedError

    def describe(self) -> dict:  # pragma: no cover - each overrides
        raise NotImplementedError

    def piece_refs(self) -> tuple[str, ...]:
        """The piece ids (or placeholders) the effect names: checked against the file's pieces."""
        piece = getattr(self, "piece", None)
        return (piece,) if piece is not None else ()

    # ---------------------------------------------------------------- combat ----
    def declare(self, c, dc) -> None:
        """At declaration: check what it names and add the cells it applies to (`dc.add`)."""

    def apply(self, c, decl, ctx: dict, at: str, step: int) -> None:
        """At resolution (step 1, or the stack in step 2)."""

    def reach(self, decl) -> set[str] | None:
        """The cells it changes at resolution besides those its pieces stand in (stack_cells); None when
        it has no cell of its own (it applies where the stack resolves)."""
        return set()

    def apply_sp(self, c, piece, side: str, cell: str, remote: bool) -> None:
        """Its part in a (전투) SP fired in step 3 of the combat in `cell` (remote: from another cell).
        None are defined by the pages but the buff; another primitive in an SP does nothing."""


def describe_sequence(effect) -> list[dict[str, Any]]:
    return [pr.describe() for pr in effect]
