"""The effect primitives, one module each (flip.py, move.py, attack.py, buff.py, build.py), and their
registry. A primitive's module holds all of it: how it is written (head, keys, Korean spellings, hover
text, JSON Schema, example), how it is parsed and described, what it touches when declared and how it is
applied (primitives/base.py lists the hooks). A new primitive is a new module here and its name in the
import line below (docs/DATA.md 「카드 효과를 더하려면」 lists the other files it touches).

Made from the registry, never written twice: the Korean keys of an effect item (aliases.KEYS["effect"]),
the effect item of schemas/scenario.schema.json (scenario_schema.py) and the primitives of
schemas/effects.schema.json (effects_schema.py), the words of the problem `effect-head`.

Costs are not effect primitives: `Destroy` (destroy.py) is paid at declaration.
"""

from __future__ import annotations

from .base import (BONDED, CHOSEN, PLACEHOLDERS, REGISTRY, SELF, SHARED_KEYS, TARGET, Key, Primitive,  # noqa: F401
                   effect_primitive)
from .destroy import Destroy, parse_destroy  # noqa: F401

# the registry: each module registers its primitive (@effect_primitive), in this order — the order of the alias
# table, the schemas and the words of `effect-head`. (Named here, not found by listing this folder: the
# engine reads no files, not even its own folder — tests/scenarios/test_model.py runs it with file access blocked.)
from . import flip, move, attack, buff, build  # noqa: E402,F401,I001 - the order is the registry's

#: the effect primitives in the registry's order
PRIMITIVES: tuple[type[Primitive], ...] = tuple(REGISTRY.values())
HEADS: tuple[str, ...] = tuple(cls.head for cls in PRIMITIVES)


def key_table() -> dict[str, Key]:
    """Every key an effect item may have besides its head → its Key: the shared ones the primitives use,
    in SHARED_KEYS' order, then each primitive's own keys in the registry's order."""
    used = {k for cls in PRIMITIVES for k in cls.keys}
    out = {k: key for k, key in SHARED_KEYS.items() if k in used}
    for cls in PRIMITIVES:
        for k, key in cls.own_keys.items():
            out.setdefault(k, key)
    return out


def effect_canonical() -> tuple[str, ...]:
    """The canonical keys of an effect item: the heads, then the other keys (aliases.CANONICAL["effect"])."""
    return HEADS + tuple(key_table())


def effect_aliases() -> dict[str, str]:
    """Korean spelling → canonical key of an effect item (aliases.KEYS["effect"]): heads, then other keys."""
    out: dict[str, str] = {}
    for cls in PRIMITIVES:
        for alias in cls.head_aliases:
            out[alias] = cls.head
    for k, key in key_table().items():
        for alias in key.aliases:
            out[alias] = k
    return out


def effect_hover() -> dict[str, str]:
    """Canonical key → its hover text in the scenario schema (scenario_schema.DESCRIPTIONS["effect"])."""
    return {**{cls.head: cls.hover for cls in PRIMITIVES}, **{k: key.hover for k, key in key_table().items()}}


def effect_item_schema() -> dict[str, dict]:
    """Canonical key → the JSON Schema of its value in a scenario file."""
    return {**{cls.head: cls.head_schema for cls in PRIMITIVES}, **{k: key.schema for k, key in key_table().items()}}


def head_problem(obj, where: str, sink) -> None:
    """No head, or several: the problem names every primitive with an example (the words: the catalogue)."""
    sink.add(obj, None, where, "effect-head", heads=[[cls.head, cls.head_aliases[0] if cls.head_aliases else None]
                                                      for cls in PRIMITIVES],
             examples=[cls.example for cls in PRIMITIVES], examples_ko=[cls.example_ko for cls in PRIMITIVES])


def parse_primitive(obj, where: str, sink) -> Primitive | None:
    """One effect primitive from YAML (canonical keys); problems go to sink."""
    if not isinstance(obj, dict):
        sink.add(None, None, where, "effect-not-mapping")
        return None
    heads = [k for k in HEADS if k in obj]
    if len(heads) != 1:
        head_problem(obj, where, sink)
        return None
    cls = REGISTRY[heads[0]]
    allowed = cls.allowed()
    for k in obj:
        if k not in allowed:
            sink.add(obj, k, f"{where}.{k}", "effect-unknown-key", head=cls.head, key=k, allowed=sorted(allowed))
            return None
    return cls.parse(obj, where, sink)


def parse_effect_list(value, where: str, sink) -> tuple[Primitive, ...] | None:
    """An effect: one primitive or a list of them (shared by cards/effects.yaml and a scenario's `effect:`)."""
    items = value if isinstance(value, list) else [value]
    out = []
    for i, item in enumerate(items):
        p = parse_primitive(item, f"{where}[{i}]" if isinstance(value, list) else where, sink)
        if p is None:
            return None
        out.append(p)
    if not out:
        sink.add(None, None, where, "effect-list-empty")
        return None
    return tuple(out)
