"""Issue 10 "One model": the engine is pure and the package has no import cycles.

- flamer_ref/engine/ reads no files and makes no sentences: the data layer (corpus) loads the
  rules, cards, effects (`corpus.effects_document`) and the example board
  (`corpus.example_board_document`) and passes them in; the presentation layer (render.word_result) words errors and gaps.
- No module of flamer_ref imports itself back through others (module-level and function-level
  imports both count).
- Issue 19: the data room (corpus and what it imports) imports no engine and no search; errors
  imports no renderer.
"""

from __future__ import annotations

import ast
import functools
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import sourcetree

PKG = Path(__file__).resolve().parents[2] / "flamer_ref"


# ------------------------------------------------------------ import graph ----
def _modules() -> dict[str, tuple[Path, bool]]:
    mods = {}
    for p in PKG.rglob("*.py"):
        parts = list(p.relative_to(PKG.parent).with_suffix("").parts)
        is_pkg = parts[-1] == "__init__"
        if is_pkg:
            parts = parts[:-1]
        mods[".".join(parts)] = (p, is_pkg)
    return mods


def import_graph() -> dict[str, set[str]]:
    """module → the flamer_ref modules it imports anywhere in its body (ast: top level, functions,
    methods, conditionals alike). `from X import name` counts as X.name when that is a module. Walked
    once per process while the sources stay as they are (sourcetree's key: path, size, time); each
    caller gets its own copy."""
    key = tuple((name, path, os.stat(path).st_mtime_ns) for name, (path, _) in sorted(_modules().items()))
    return {m: set(d) for m, d in _walked_graph(key).items()}


@functools.lru_cache(maxsize=2)
def _walked_graph(_key) -> dict[str, set[str]]:
    mods = _modules()
    graph: dict[str, set[str]] = {}
    for name, (path, is_pkg) in mods.items():
        pkg = name if is_pkg else name.rsplit(".", 1)[0]
        deps: set[str] = set()
        for node in ast.walk(sourcetree.parse(path)):
            if isinstance(node, ast.Import):
                deps.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = pkg.split(".")[: len(pkg.split(".")) - node.level + 1]
                    mod = ".".join(base + ([node.module] if node.module else []))
                else:
                    mod = node.module or ""
                for a in node.names:
                    deps.add(f"{mod}.{a.name}" if f"{mod}.{a.name}" in mods else mod)
        graph[name] = {d for d in deps if d in mods and d != name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        comp.append(w)
                        if w == v:
                            break
                    if len(comp) > 1:
                        out.append(sorted(comp))
    return out


def test_cycle_finder_finds_a_cycle():
    g = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert cycles(g) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_graph_sees_function_level_imports():
    g = import_graph()
    # checks validates cards/effects.yaml with the engine's validator, inside a function
    assert "flamer_ref.engine.effects" in g["flamer_ref.checks"]
    # turns plays the field and the victory check through imports inside run_field / run_victory
    assert {"flamer_ref.engine.fieldplay", "flamer_ref.engine.victory"} <= g["flamer_ref.engine.turns"]


def test_flamer_ref_has_no_import_cycles():
    assert cycles(import_graph()) == []


def test_engine_imports_nothing_above_the_data_it_is_given():
    """No module of flamer_ref/engine/ imports the CLI, the templates (render), the search, the
    pages, file paths or the YAML reader; the runner and the data layer live outside it."""
    forbidden = {"flamer_ref.cli", "flamer_ref.render", "flamer_ref.search", "flamer_ref.book", "flamer_ref.site",
                 "flamer_ref.pdf", "flamer_ref.paths", "flamer_ref.corpus", "flamer_ref.runner", "flamer_ref.verdict",
                 "flamer_ref.diagram", "flamer_ref.lookup"}
    bad = {m: sorted(d & forbidden) for m, d in import_graph().items()
           if m.startswith("flamer_ref.engine") and d & forbidden}
    # typed card names are resolved by names.resolve_name (pure; lookup re-exports it)
    assert bad == {}


# ------------------------------------------------------------ the rooms ----
# Issue 19 "The data room only loads" (docs/ARCHITECTURE.md): the data room reads, validates and caches
# the YAML and nothing else; the search index (searchindex, search, similar) reads the corpus, the checks
# that run the engine (checks) read the corpus, and problems are worded at the edge (render).
DATA_ROOM = ("flamer_ref.corpus", "flamer_ref.entries", "flamer_ref.yamlio", "flamer_ref.numbering",
             "flamer_ref.paths", "flamer_ref.dates", "flamer_ref.constants")
ABOVE_THE_DATA = {"flamer_ref.search", "flamer_ref.similar", "flamer_ref.searchindex", "flamer_ref.checks",
                  "flamer_ref.runner", "flamer_ref.render", "flamer_ref.cli", "flamer_ref.lookup", "flamer_ref.site",
                  "flamer_ref.book", "flamer_ref.pdf", "flamer_ref.verdict", "flamer_ref.oneliner", "flamer_ref.web"}


def reach(graph: dict[str, set[str]], start: str) -> set[str]:
    """Every module `start` imports, directly or through others."""
    seen: set[str] = set()
    todo = [start]
    while todo:
        for dep in graph.get(todo.pop(), ()):
            if dep not in seen:
                seen.add(dep)
                todo.append(dep)
    return seen


def above_the_data(mods) -> list[str]:
    return sorted(m for m in mods if m.startswith("flamer_ref.engine") or m in ABOVE_THE_DATA)


def test_reach_follows_imports_through_others():
    assert reach({"a": {"b"}, "b": {"c"}, "c": set(), "d": {"a"}}, "a") == {"b", "c"}
    assert above_the_data({"flamer_ref.engine.board", "flamer_ref.search", "flamer_ref.korean"}) == [
        "flamer_ref.engine.board", "flamer_ref.search"]


def test_the_data_room_imports_no_engine_and_no_search():
    """Nothing the data room imports, directly or through another module, is the engine, the search
    (its index, its likeness model) or anything above them."""
    graph = import_graph()
    bad = {room: above_the_data(reach(graph, room)) for room in DATA_ROOM}
    assert bad == {room: [] for room in DATA_ROOM}


def test_the_search_and_the_checks_read_the_data_room():
    """The doors open one way: the index is built and cached by the search's room from the corpus; the
    scenarios of the data are checked next to the engine, which `flamer validate` calls."""
    graph = import_graph()
    assert "flamer_ref.corpus" in graph["flamer_ref.searchindex"]
    assert {"flamer_ref.corpus", "flamer_ref.engine.turns"} <= graph["flamer_ref.checks"]
    assert "flamer_ref.checks" in graph["flamer_ref.cli"]


def test_errors_import_no_renderer():
    """errors carries codes and data; the words come from the presentation layer, which registers them
    (errors.use_wording) — errors imports neither render nor Jinja."""
    graph = import_graph()
    assert reach(graph, "flamer_ref.errors") & {"flamer_ref.render", "flamer_ref.i18n", "flamer_ref.terminal"} == set()
    tree = sourcetree.parse(PKG / "errors.py")
    names = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    names |= {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert not {m for m in names if "render" in m or m.startswith("jinja2")}


ROOMS_AT_RUN_TIME = r'''
import json, sys
from flamer_ref import corpus
from flamer_ref.errors import Problem

fresh = corpus.load(use_cache=False)  # parsed and validated (with the thesaurus check)
cached = corpus.load()  # written to the cache, then read back
loaded = sorted(m for m in sys.modules if m.startswith(("flamer_ref.", "jinja2")))
try:
    Problem("f", 1, None, code="board-not-mapping").message
    worded = "worded"
except LookupError:
    worded = "not worded"
from flamer_ref import render  # the edge
print(json.dumps({"loaded": loaded, "before": worded, "after": Problem("f", 1, None, code="board-not-mapping").message,
                  "clauses": len(fresh.clauses) == len(cached.clauses) > 0}, ensure_ascii=False))
'''


def test_loading_the_data_runs_no_engine_search_or_renderer(tmp_path):
    """At run time too: parsing, validating and caching the bundled data imports no engine, search,
    likeness model or template; a coded problem is worded only once the presentation layer is there."""
    root = PKG.parent
    r = subprocess.run([sys.executable, "-c", ROOMS_AT_RUN_TIME], capture_output=True, text=True, encoding="utf-8",
                       cwd=str(root), timeout=120,
                       env={**os.environ, "PYTHONPATH": str(root), "FLAMER_CACHE_DIR": str(tmp_path)})
    assert r.returncode == 0, r.stderr[-3000:]
    data = json.loads(r.stdout)
    assert data["clauses"]
    assert above_the_data(data["loaded"]) == [] and not [m for m in data["loaded"] if m.startswith("jinja2")]
    assert data["before"] == "not worded" and data["after"] == "board는 '키: 값' 꼴로 적어야 합니다."
    assert sorted(p.suffix for p in tmp_path.iterdir()) == [".corpus"]  # the index is the search's to cache


# ------------------------------------------------------------ pure engine ----
PURE = r'''
import builtins, io, json, os, pathlib, sys

from flamer_ref.corpus import load
from flamer_ref.paths import data_root
from flamer_ref.yamlio import parse_text, read_yaml

corpus = load()
assert not any(m.startswith("flamer_ref.engine") for m in sys.modules), "loading the corpus needs no engine"
# what the data layer reads for the engine (engine.effects.effects_of and engine.board.example_board_of check it)
effects_doc = read_yaml(data_root() / "cards" / "effects.yaml", "cards/effects.yaml")
board_doc = corpus.example_board_document()
cases = []
for eid, ex in sorted(corpus.examples.items()):
    s = ex.get("scenario")
    for i, obj in enumerate(s if isinstance(s, list) else [s] if s else []):
        cases.append((f"{eid}#{i}", obj))
for path in sorted(pathlib.Path(sys.argv[1]).glob("*.yaml")):
    cases.append((path.name, parse_text(path.read_text(encoding="utf-8"), path.name)))
for name, text in json.loads(sys.argv[2]).items():
    cases.append((name, parse_text(text, name)))

# the engine, imported with every file read and the templates blocked
sys.modules["flamer_ref.render"] = None
sys.modules["jinja2"] = None
reads = []
def refuse(*a, **k):
    reads.append(repr(a[:1]))
    raise PermissionError("file access is blocked for the engine")
builtins.open = io.open = os.open = refuse
pathlib.Path.open = pathlib.Path.read_text = pathlib.Path.read_bytes = refuse
os.listdir = os.scandir = refuse

from flamer_ref.engine.board import check_example_board
from flamer_ref.engine.effects import parse_effects
from flamer_ref.engine.turns import parse_any, run_any

corpus.__dict__["_effects"] = parse_effects(effects_doc, corpus, "cards/effects.yaml")  # as effects_of does
corpus.__dict__["_example_board"] = check_example_board(*board_doc)  # as example_board_of does

out = {}
for name, obj in cases:
    res = run_any(parse_any(obj, name, corpus), corpus, None)
    out[name] = {"kind": res["kind"], "messages": sum(1 for k in ("errors", "unresolved")
                                                     for it in res.get(k, []) if "message" in it),
                 "unresolved": len(res.get("unresolved", [])), "result": res}
print(json.dumps({"reads": reads, "results": out}, ensure_ascii=False, default=str))
'''

EXTRA = {
    # a move without a board: the example board, passed in by the corpus
    "move-example-board.yaml": textwrap.dedent("""\
        kind: move
        attacker: DGM
        cells:
          "1,1": {DGM: [{id: a, card: 장인}]}
          "3,3": {BGM: [{id: b, card: 거신}]}
        activate: ["1,1"]
        moves:
          - {piece: a, path: ["1,1", "2,1", "2,2", "2,3"]}
        """),
    # a combat needing card effects (cards/effects.yaml, passed in by the corpus)
    "combat-effects.yaml": textwrap.dedent("""\
        kind: combat
        attacker: A
        cells:
          "1,1":
            A: [{id: a, name: 공, lv: 3, hp: 5, atk: 2, cost: 1}]
            B: [{id: b, name: 수, lv: 2, hp: 4, atk: 1, cost: 1}, {id: ant, card: 개미, lv: 1, hp: 1, atk: 1, state: settled}]
        response: [{side: B, card: 기폭}]
        """),
}


def test_engine_runs_every_kind_without_files_or_templates():
    root = PKG.parent
    r = subprocess.run([sys.executable, "-c", PURE, str(root / "scenarios"), json.dumps(EXTRA, ensure_ascii=False)],
                       capture_output=True, text=True, encoding="utf-8", cwd=str(root), timeout=120,
                       env={**os.environ, "PYTHONPATH": str(root)})
    assert r.returncode == 0, r.stderr[-3000:]
    data = json.loads(r.stdout)
    assert data["reads"] == []
    results = data["results"]
    kinds = {v["kind"] for v in results.values()}
    assert kinds >= {"combat", "move", "victory", "field", "round"}
    # the engine words nothing: no message on any error or gap, yet gaps are reported
    assert all(v["messages"] == 0 for v in results.values())
    assert any(v["unresolved"] for v in results.values())
    board = results["move-example-board.yaml"]["result"]
    assert board["assumed"][0]["choice"] == "board" and board["board"]["label"]
    combat = results["combat-effects.yaml"]["result"]
    assert combat["removed"] == ["ant"]  # 기폭's cost comes from cards/effects.yaml


def test_presentation_words_what_the_engine_leaves_unworded():
    """The same result, worded by render.word_result, carries a Korean message on each gap and
    error — what `--json` emits."""
    from flamer_ref.corpus import load
    from flamer_ref.engine.turns import parse_any, run_any
    from flamer_ref.render import word_result
    from flamer_ref.yamlio import parse_text

    corpus = load()
    raw = run_any(parse_any(parse_text(EXTRA["combat-effects.yaml"], "c.yaml"), "c.yaml", corpus), corpus)
    assert raw["unresolved"] and all("message" not in u for u in raw["unresolved"])
    worded = word_result(raw)
    assert all(u["message"] and "기폭" in u["message"] for u in worded["unresolved"] if u.get("card") == "기폭")
    again = json.dumps(word_result(worded), ensure_ascii=False)  # idempotent
    assert again == json.dumps(worded, ensure_ascii=False)
