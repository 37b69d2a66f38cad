"""Issue 29 "Rooms of a human size" (outside flamer_ref/engine/, which has its own map: docs/ENGINE.md).

Read with `ast`, never run: no function over MAX_FUNCTION_LINES lines, no class over MAX_CLASS_LINES lines, and
no module takes another module's private names (`from .x import _name`, `from flamer_ref.x import _name`, or
`x._name` on a module of the package it imported). docs/ARCHITECTURE.md draws the rooms floor by floor; every
module of the package (outside the engine) stands on exactly one floor of that drawing, and no module imports
one drawn on a floor above its own.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import sourcetree

PKG = Path(__file__).resolve().parents[2] / "flamer_ref"
ARCHITECTURE = PKG.parent / "docs" / "ARCHITECTURE.md"
MAX_FUNCTION_LINES = 100
MAX_CLASS_LINES = 600


def _house() -> dict[str, ast.Module]:
    """flamer_ref's modules outside engine/, by module name (flamer_ref.x), parsed."""
    out = {}
    for path in sorted(PKG.rglob("*.py")):
        rel = path.relative_to(PKG)
        if rel.parts[0] == "engine":
            continue
        name = ".".join(("flamer_ref", *rel.with_suffix("").parts)).removesuffix(".__init__")
        out[name] = sourcetree.parse(path)
    return out


def _sizes(tree: ast.Module, kinds) -> list[tuple[str, int]]:
    return [(f"{node.name}:{node.lineno}", node.end_lineno - node.lineno + 1)
            for node in ast.walk(tree) if isinstance(node, kinds)]


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _imported_from(module: str, node: ast.ImportFrom) -> str | None:
    """The flamer_ref module an import names (absolute or relative), or None for another package's."""
    if node.level:
        base = module.split(".")[:-node.level] if node.level else []
        return ".".join(base + ([node.module] if node.module else []))
    if node.module and (node.module == "flamer_ref" or node.module.startswith("flamer_ref.")):
        return node.module
    return None


def private_imports(module: str, tree: ast.Module) -> list[str]:
    """Every private name `module` takes from another module of the package: imported by name, or read as
    an attribute of a package module it imported."""
    found, modules = [], set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            source = _imported_from(module, node)
            if source is None:
                continue
            for alias in node.names:
                if _private(alias.name) and source != module:
                    found.append(f"{module}:{node.lineno} from {source} import {alias.name}")
                elif not _private(alias.name):
                    modules.add(alias.asname or alias.name)  # maybe a module (from . import corpus)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("flamer_ref.") and alias.asname:
                    modules.add(alias.asname)
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and _private(node.attr) and isinstance(node.value, ast.Name)
                and node.value.id in modules and (PKG / f"{node.value.id}.py").exists()):
            found.append(f"{module}:{node.lineno} {node.value.id}.{node.attr}")
    return found


# ------------------------------------------------------------------ sizes ----
def test_no_function_is_longer_than_a_screenful_or_two():
    long = {f"{mod}.{name}": n for mod, tree in _house().items()
            for name, n in _sizes(tree, (ast.FunctionDef, ast.AsyncFunctionDef)) if n > MAX_FUNCTION_LINES}
    assert long == {}


def test_no_class_is_a_house_of_its_own():
    long = {f"{mod}.{name}": n for mod, tree in _house().items()
            for name, n in _sizes(tree, ast.ClassDef) if n > MAX_CLASS_LINES}
    assert long == {}


def test_the_size_checks_see_what_they_measure():
    tree = ast.parse("def f():\n" + "    x = 1\n" * 120 + "class C:\n    def g(self):\n        pass\n")
    assert dict(_sizes(tree, ast.FunctionDef)) == {"f:1": 121, "g:123": 2}
    assert dict(_sizes(tree, ast.ClassDef)) == {"C:122": 3}
    assert len(_house()) > 40 and not any(m.startswith("flamer_ref.engine") for m in _house())


# --------------------------------------------------------- private names ----
def test_no_module_takes_another_modules_private_names():
    found = [hit for mod, tree in _house().items() for hit in private_imports(mod, tree)]
    assert found == []


def test_the_private_name_check_sees_every_form():
    tree = ast.parse("from .corpus import _MEMO, load\nfrom flamer_ref.search import _words\n"
                     "from . import runner\nfrom .engine.result import _thaw\n"
                     "def f():\n    return runner._check_case, runner.answer, load._x\n")
    assert private_imports("flamer_ref.book", tree) == [
        "flamer_ref.book:1 from flamer_ref.corpus import _MEMO", "flamer_ref.book:2 from flamer_ref.search import _words",
        "flamer_ref.book:4 from flamer_ref.engine.result import _thaw", "flamer_ref.book:6 runner._check_case"]
    # a module's own names, other packages' names and dunders are not taken from another room
    assert private_imports("flamer_ref.x", ast.parse("from typer import _x\nfrom . import __version__\n")) == []


# ------------------------------------------------------------- the drawing ----
def drawn_floors(text: str) -> list[set[str]]:
    """docs/ARCHITECTURE.md's drawing (the first ``` block), top floor first: each floor's modules, the
    names ending in `.py` (a floor may run over several lines; a line starting with ↓ ends a floor)."""
    block = text.split("```", 2)[1]
    floors: list[set[str]] = [set()]
    for line in block.splitlines():
        if line.strip().startswith("↓"):
            floors.append(set())
            continue
        floors[-1] |= {f"flamer_ref.{m}" for m in re.findall(r"\b([a-z_][a-z0-9_]*)\.py", line)}
        if "engine/" in line:
            floors[-1].add("flamer_ref.engine")
    return [f for f in floors if f]


def _imports(module: str, tree: ast.Module, known: set[str]) -> set[str]:
    """The package's modules `module` imports anywhere in its body (engine/… counts as flamer_ref.engine)."""
    out = set()
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.ImportFrom):
            source = _imported_from(module, node)
            if source is not None:
                names = [source] + [f"{source}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        for name in names:
            if name.startswith("flamer_ref.engine"):
                name = "flamer_ref.engine"
            if name in known and name != module:
                out.add(name)
    return out


def test_architecture_draws_every_room_once_and_no_door_opens_upwards():
    floors = drawn_floors(ARCHITECTURE.read_text(encoding="utf-8"))
    house = {m: t for m, t in _house().items() if m not in ("flamer_ref", "flamer_ref.__main__")}
    drawn = [m for floor in floors for m in floor]
    assert sorted(set(drawn)) == sorted(drawn)  # each room on one floor
    assert sorted(set(drawn) - {"flamer_ref.engine"}) == sorted(house)
    level = {m: i for i, floor in enumerate(floors) for m in floor}  # 0 = the top floor
    known = set(house) | {"flamer_ref.engine"}
    upwards = sorted(f"{m} -> {d}" for m, tree in house.items() for d in _imports(m, tree, known)
                     if level[d] < level[m])
    assert upwards == []


def test_the_drawing_reader_reads_floors():
    text = "x\n```\nA  a.py · b.py\n   c.py\n   ↓\nB  engine/  d.py · i18n.py\n```\n"
    assert drawn_floors(text) == [{"flamer_ref.a", "flamer_ref.b", "flamer_ref.c"},
                                  {"flamer_ref.engine", "flamer_ref.d", "flamer_ref.i18n"}]
