"""Issue 29, the engine's rooms: every room of flamer_ref/engine/ is of a human size, and a special card's
behaviour lives in its own module (flamer_ref/engine/cards/) — no card name anywhere else in the engine.

Both walk the source with `ast` (nothing is imported to measure it), so they cannot pass by skipping a file:
each first checks that it read the package and found what it is looking for.
"""

from __future__ import annotations

import ast
from pathlib import Path

import sourcetree
import yaml

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "flamer_ref" / "engine"
CARD_MODULES = ENGINE / "cards"
MAX_FUNCTION_LINES = 100
MAX_CLASS_LINES = 600


def _engine_files() -> list[Path]:
    return sorted(ENGINE.rglob("*.py"))


def _sizes(path: Path) -> list[tuple[str, str, int]]:
    """(kind, qualified name, lines) of every function, method and class of a module."""
    out: list[tuple[str, str, int]] = []

    def walk(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                kind = "class" if isinstance(child, ast.ClassDef) else "function"
                name = f"{prefix}{child.name}"
                out.append((kind, name, child.end_lineno - child.lineno + 1))
                walk(child, name + ".")
            else:
                walk(child, prefix)

    walk(sourcetree.parse(path), "")
    return out


def test_the_size_walk_sees_nested_functions_and_classes(tmp_path):
    src = tmp_path / "m.py"
    src.write_text("class A:\n    def f(self):\n        def g():\n            pass\n        return g\n\n"
                   "def h():\n    if True:\n        class B:\n            pass\n", encoding="utf-8")
    assert _sizes(src) == [("class", "A", 5), ("function", "A.f", 4), ("function", "A.f.g", 2),
                           ("function", "h", 4), ("class", "h.B", 2)]


def test_no_function_over_100_lines_and_no_class_over_600_in_the_engine():
    files = _engine_files()
    assert len(files) > 20 and (ENGINE / "combat.py") in files  # the walk reads the package, subpackages too
    too_big = []
    for path in files:
        for kind, name, lines in _sizes(path):
            limit = MAX_CLASS_LINES if kind == "class" else MAX_FUNCTION_LINES
            if lines > limit:
                too_big.append(f"{path.relative_to(ROOT)}: {kind} {name} {lines} lines (limit {limit})")
    assert not too_big, "rooms too big:\n" + "\n".join(too_big)


def _card_names() -> set[str]:
    doc = yaml.safe_load((ROOT / "cards" / "cards.yaml").read_text(encoding="utf-8"))
    names = set()
    for card in doc["cards"]:
        names.add(card["name"])
        names.update(card.get("aliases") or ())
    return names


def _strings(path: Path) -> list[tuple[int, str]]:
    """(line, value) of every string constant of a module, f-string parts included."""
    tree = sourcetree.parse(path)
    return sorted((n.lineno, n.value) for n in ast.walk(tree)
                  if isinstance(n, ast.Constant) and isinstance(n.value, str))


def test_no_card_name_in_engine_code_outside_its_card_module():
    names = _card_names()
    assert {"별마대", "증폭기", "폭약", "개미", "봉수장"} <= names  # the names come from the card data
    found = []
    for path in _engine_files():
        if CARD_MODULES in path.parents:
            continue
        for line, value in _strings(path):
            if value.strip() in names:
                found.append(f"{path.relative_to(ROOT)}:{line}: {value!r}")
    assert not found, ("a card's name in engine code (its behaviour belongs in its module under "
                       "flamer_ref/engine/cards/):\n" + "\n".join(found))


def test_every_special_card_module_names_its_card_and_the_card_exists():
    """The registry's modules hold the names the other modules may not: each names one card of the data."""
    from flamer_ref.engine.cards import CARD_HOOKS

    names = _card_names()
    modules = sorted(p.stem for p in CARD_MODULES.glob("*.py") if not p.stem.startswith("_") and p.stem != "base")
    assert len(modules) >= 5
    assert len(CARD_HOOKS) == len(modules)  # one card per module, each registered
    assert set(CARD_HOOKS) <= names
    for name, hooks in CARD_HOOKS.items():
        assert hooks.name == name
        module = CARD_MODULES / f"{type(hooks).__module__.rsplit('.', 1)[-1]}.py"
        assert any(value == name for _, value in _strings(module)), module


def test_every_effect_primitive_owns_its_parsing_declaration_and_resolution():
    """Each primitive's module holds all of it (engine/primitives/base.py): its class defines the hooks
    itself, and the combat's rooms never ask which primitive they hold (no isinstance on a primitive)."""
    from flamer_ref.engine.primitives import PRIMITIVES

    assert {cls.head for cls in PRIMITIVES} >= {"flip", "move", "attack", "buff", "build"}
    for cls in PRIMITIVES:
        own = set(vars(cls))
        assert {"parse", "describe", "declare", "apply"} <= own, (cls.head, sorted(own))
    names = {cls.__name__ for cls in PRIMITIVES}
    rooms = [ENGINE / "combat.py", *sorted((ENGINE / "combat_turn").glob("*.py"))]
    assert len(rooms) >= 8
    asked = []
    for path in rooms:
        for node in ast.walk(sourcetree.parse(path)):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "isinstance" and len(node.args) == 2:
                used = {n.attr if isinstance(n, ast.Attribute) else getattr(n, "id", None)
                        for n in ast.walk(node.args[1])}
                if used & names:
                    asked.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not asked, "a combat room dispatches on a primitive's type:\n" + "\n".join(asked)
