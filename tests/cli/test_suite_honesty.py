"""The suite itself (issue 29 item 6): a test must be able to fail.

Read with `ast`, never run. A test whose every check sits inside a loop over something computed passes
when that something is empty; a test that skips when the feature it guards is missing passes on the very
regression it is for. Both are refused here, except in the few places listed with their reason.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import sourcetree

TESTS = Path(__file__).resolve().parent.parent

# Checks that live in a helper the loop's items come from (it asserts before yielding), or a loop over
# data the test builds itself a line above.
LOOPS_CHECKED_ELSEWHERE = {
    "hardening/test_fuzz_scenarios.py::test_combat_scenarios": "checked() asserts the clean answer or refusal first",
    "hardening/test_fuzz_scenarios.py::test_round_scenarios": "checked() asserts the clean answer or refusal first",
    "hardening/test_fuzz_scenarios.py::test_game_scenarios": "checked() asserts the clean answer or refusal first",
    "engine/test_result_shape.py::test_spec_keys": "_all() asserts its samples are there",
    "engine/test_result_shape.py::test_events_typed_and_cite_real_ids": "_all() asserts its samples are there",
    "engine/test_result_shape.py::test_every_piece_ends_in_one_place": "_all() asserts its samples are there",
    "web/test_site_engine.py::test_the_browsers_fuzzy_scores_are_rapidfuzzs_own": "pairs built literally above",
}
CHECK_CALL = re.compile(r"(^|\.)(assert\w*|_assert\w*|no_trouble|check\w*|expect\w*)$")
# a skip is honest only for what the machine lacks, never for a feature of this package
MACHINE_REASON = re.compile(r"Chromium|chromium|PDF engine|WeasyPrint|poppler|pdftotext|node|Pyodide|libyaml|"
                            r"/dev/zero|bash|no \{name\}|rulebook pages|shared/spec|root|font|ulimit|tmpfs", re.I)


def _literal(node: ast.AST, names: set[str]) -> bool:
    """A loop over this cannot be empty without the test's own text changing."""
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        return bool(node.elts)
    if isinstance(node, ast.Dict):
        return bool(node.keys)
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str) and bool(node.value)
    if isinstance(node, ast.Name):
        return node.id in names or node.id.isupper()
    if isinstance(node, ast.Call):
        fn = ast.unparse(node.func)
        if fn in ("range", "enumerate", "zip", "sorted", "reversed", "list", "tuple"):
            return bool(node.args) and all(_literal(a, names) or isinstance(a, ast.Constant) for a in node.args)
        if isinstance(node.func, ast.Attribute) and node.func.attr in ("items", "keys", "values"):
            return _literal(node.func.value, names)
    return False


def _is_check(node: ast.AST) -> bool:
    if isinstance(node, ast.Assert):
        return True
    if isinstance(node, ast.With):
        return any("raises" in ast.unparse(i.context_expr) for i in node.items)
    return isinstance(node, ast.Call) and bool(CHECK_CALL.search(ast.unparse(node.func)))


def only_checks_in_computed_loops(fn: ast.FunctionDef) -> bool:
    """True when the test has checks, and every one of them sits in a loop over something computed."""
    names = {t.id for n in ast.walk(fn) if isinstance(n, ast.Assign) and _literal(n.value, set())
             for t in n.targets if isinstance(t, ast.Name)}
    sure = risky = 0

    def walk(node: ast.AST, computed: bool) -> None:
        nonlocal sure, risky
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
                continue
            if _is_check(child):
                if computed:
                    risky += 1
                else:
                    sure += 1
            inner = computed
            if isinstance(child, (ast.For, ast.AsyncFor)):
                literal = _literal(child.iter, names)
                if literal:  # what a literal loop hands out is literal too (for path, words in want.items())
                    names.update(n.id for n in ast.walk(child.target) if isinstance(n, ast.Name))
                inner = computed or not literal
            elif isinstance(child, ast.While):
                inner = True
            walk(child, inner)

    walk(fn, False)
    return sure == 0 and risky > 0


def _tests():
    files = sorted(TESTS.rglob("test_*.py"))
    assert len(files) > 80  # the walk reads the suite
    for path in files:
        tree = sourcetree.parse(path)
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test_"):
                yield path.relative_to(TESTS).as_posix(), node


def test_no_test_checks_only_inside_a_loop_that_may_be_empty():
    found = [f"{rel}::{fn.name}" for rel, fn in _tests() if only_checks_in_computed_loops(fn)]
    assert sorted(set(found) - set(LOOPS_CHECKED_ELSEWHERE)) == []
    assert sorted(set(LOOPS_CHECKED_ELSEWHERE) - set(found)) == []  # the list holds no stale entry


def test_no_test_skips_because_a_feature_of_this_package_is_missing():
    bad = []
    for rel, fn in _tests():
        for node in ast.walk(fn):
            if isinstance(node, ast.Call) and ast.unparse(node.func) in ("pytest.skip", "skip"):
                reason = ast.unparse(node.args[0]) if node.args else ""
                if not MACHINE_REASON.search(reason):
                    bad.append(f"{rel}::{fn.name}: {reason}")
    assert bad == []


def test_the_loop_check_sees_both_kinds():
    def fn(src: str) -> ast.FunctionDef:
        return ast.parse(src).body[0]

    assert only_checks_in_computed_loops(fn("def test_a(xs):\n    for x in xs:\n        assert x\n"))
    assert not only_checks_in_computed_loops(fn("def test_a(xs):\n    assert xs\n    for x in xs:\n        assert x\n"))
    assert not only_checks_in_computed_loops(fn("def test_a():\n    for x in (1, 2):\n        assert x\n"))
    assert not only_checks_in_computed_loops(fn("def test_a():\n    want = [1]\n    for x in want:\n        assert x\n"))
    assert only_checks_in_computed_loops(fn("def test_a(p):\n    for x in (1, 2):\n        for y in p.glob(x):\n"
                                            "            assert y\n"))


# ------------------------------------------------------- one way to run flamer (issue 29 item 6) ----
# `flamer` runs through tests/inprocess.py (in-process: invoke) or tests/flamer_fork.py (a real process: run).
# A test module that builds a CliRunner or starts `python -m flamer_ref` itself is one more private
# wrapper to keep in step, except where it needs what neither helper gives; those places, with the reason:
OWN_FLAMER_PROCESS = {
    "fight/test_fight.py::test_missing_stats_asked_at_a_terminal":
        "a pseudo-terminal (pty.fork): the prompt is asked only at a terminal",
    "publishing/test_book.py::_on_a_terminal": "stderr a pseudo-terminal: the progress line is shown only there",
    "web/test_site_engine.py::test_serve_opens_the_site_on_localhost":
        "`site --serve` keeps serving: read its first line while it runs, then stop it",
    "hardening/test_terminal.py::test_closed_stdout_ends_with_one_line": "file descriptor 1 closed (`>&-` in a shell)",
    "hardening/test_terminal.py::test_pipe_closed_early_ends_with_one_line":
        "stdout a pipe its reader closes before the answer is written",
    "hardening/test_writes_serve_fetch.py::test_a_page_cut_short_by_the_reader_is_not_called_written":
        "stdout a pipe its reader closes after 100 bytes",
    "hardening/test_writes_serve_fetch.py::limited_run": "a file size limit (RLIMIT_FSIZE) set in the child",
    "hardening/test_budgets.py::measured":
        "an address-space limit (RLIMIT_AS) in the child and its own peak memory (VmHWM as it exits)",
    "scenarios/test_scenario_input.py::test_stdin_through_a_real_pipe_equals_the_file":
        "standard input a pipe (the helper gives it a file)",
    "cli/test_install.py::test_wheel_carries_data_and_works_when_installed":
        "the installed wheel (PYTHONPATH): a fresh interpreter by construction, never a fork of this one",
}
HELPERS = ("inprocess.py", "flamer_fork.py")
SPAWN = re.compile(r"(^|\.)(run|Popen|call|check_call|check_output|exec\w*|spawn\w*|system)$")


#: a script given to `python -c` that runs the command line's entry itself
RUNS_MAIN = re.compile(r"from flamer_ref(\.cli)? import (cli|main)|runpy\.run_module\(.flamer_ref")


def _starts_flamer(call: ast.Call, scripts: dict[str, str]) -> bool:
    """A process started on `-m flamer_ref` (an argv list, or a shell line), or on a script (a string, or a
    module-level name bound to one: `scripts`) that runs flamer's entry itself."""
    if not SPAWN.search(ast.unparse(call.func)):
        return False
    for node in ast.walk(call):
        if isinstance(node, (ast.List, ast.Tuple)):
            words = [e.value if isinstance(e, ast.Constant) else None for e in node.elts]
            if any(a == "-m" and b == "flamer_ref" for a, b in zip(words, words[1:])):
                return True
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and (
                "-m flamer_ref" in node.value or RUNS_MAIN.search(node.value)):
            return True
        if isinstance(node, ast.Name) and RUNS_MAIN.search(scripts.get(node.id, "")):
            return True
    return False


def runs_flamer_itself(node: ast.AST, scripts: dict[str, str] | None = None) -> bool:
    """Builds a CliRunner, or starts `python -m flamer_ref` (or a script that runs its entry), instead of
    asking one of the two helpers."""
    for n in ast.walk(node):
        if isinstance(n, ast.Call) and (ast.unparse(n.func).split(".")[-1] == "CliRunner"
                                        or _starts_flamer(n, scripts or {})):
            return True
    return False


def _module_strings(tree: ast.Module) -> dict[str, str]:
    return {t.id: n.value.value for n in tree.body if isinstance(n, ast.Assign) and isinstance(n.value, ast.Constant)
            and isinstance(n.value.value, str) for t in n.targets if isinstance(t, ast.Name)}


def _own_flamer_runs() -> list[str]:
    found = []
    for path in sorted(TESTS.rglob("*.py")):
        rel = path.relative_to(TESTS).as_posix()
        if rel in HELPERS:
            continue
        tree = sourcetree.parse(path)
        scripts = _module_strings(tree)
        for node in tree.body:
            if isinstance(node, ast.ClassDef):
                parts = [(f"{node.name}.{getattr(m, 'name', '<body>')}", m) for m in node.body]
            else:
                parts = [(getattr(node, "name", "<module>"), node)]
            found += [f"{rel}::{name}" for name, part in parts if runs_flamer_itself(part, scripts)]
    return found


def test_flamer_runs_through_the_two_helpers():
    found = _own_flamer_runs()
    assert sorted(set(found) - set(OWN_FLAMER_PROCESS)) == [], "use tests/inprocess.py or tests/flamer_fork.py"
    assert sorted(set(OWN_FLAMER_PROCESS) - set(found)) == []  # the list holds no stale entry


def test_the_flamer_check_sees_each_way():
    def sees(src: str) -> bool:
        return runs_flamer_itself(ast.parse(src))

    assert sees("def invoke(*a):\n    return CliRunner().invoke(app, list(a))\n")
    assert sees("runner = typer.testing.CliRunner()\n")
    assert sees("def run(*a):\n    return subprocess.run([sys.executable, '-m', 'flamer_ref', *a])\n")
    assert sees("p = subprocess.Popen([sys.executable, '-m', 'flamer_ref', 'cards'], stdout=PIPE)\n")
    assert sees("os.execv(sys.executable, [sys.executable, '-m', 'flamer_ref', 'fight'])\n")
    assert sees("subprocess.run(f'exec {sys.executable} -m flamer_ref rule x >&-', shell=True)\n")
    assert not sees("r = invoke('rule', 'x')\np = flamer_fork.run('rule', 'x', env=ENV)\n")
    assert not sees("subprocess.run([sys.executable, '-m', 'pip', 'install', wheel])\n")
    assert not sees("subprocess.run(['pdftotext', path, '-'])\n")
    # a script that runs the entry itself, written out or bound to a module-level name
    assert sees("subprocess.run([sys.executable, '-c', 'from flamer_ref.cli import main; main()', 'rule'])\n")
    script = "S = 'import os\\nfrom flamer_ref.cli import main\\nmain()'\n"
    tree = ast.parse(script + "def m():\n    return subprocess.Popen([sys.executable, '-c', S, 'rule'])\n")
    assert runs_flamer_itself(tree.body[1], _module_strings(tree)) and not runs_flamer_itself(tree.body[1])
    assert not sees("subprocess.run([sys.executable, '-c', 'from flamer_ref import corpus; corpus.load()'])\n")
