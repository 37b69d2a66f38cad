"""The engine words nothing (issue 10, 'Korean messages for errors and gaps are made by templates'):
an invalid scenario is reported with a problem code and its data (errors.Problem `code`, `params`),
worded on first read by the one catalogue templates/problems/scenario.txt.j2 (render.problem_words).
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest
import sourcetree

from flamer_ref.errors import DataError, Problem


@pytest.fixture(scope="module")
def corpus():
    from flamer_ref.corpus import load

    return load()

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "flamer_ref" / "engine"
CATALOGUE = ROOT / "templates" / "problems" / "scenario.txt.j2"
HANGUL = re.compile(r"[\uac00-\ud7a3\u3131-\u318e]")

#: modules whose Hangul is data, not sentences: the Korean keys and values of scenario files, and
#: the JSON schema's descriptions
DATA_MODULES = {"aliases.py", "scenario_schema.py", "effects_schema.py"}
#: assignments whose strings are data for editors and the alias table, wherever they are: an effect
#: primitive's Korean spellings, hover text and example (engine/primitives/, issue 29)
DATA_NAMES = {"head_aliases", "hover", "example", "example_ko", "SHARED_KEYS", "own_keys"}
#: modules still building sentences in Python (none: every engine module is converted)
NOT_YET_CONVERTED: set[str] = set()
#: identifiers the engine compares or names things with: timings, card and ability names, field
#: effects, grades — never a sentence
IDENTIFIERS = {
    "대응", "전투", "이동", "등장", "(이동)",  # timings; '(이동) 비행' names the SP '비행'
    "별마대", "증폭기", "병풍", "결속", "개미", "불사", "폭약", "봉수장", "지원사격", "잠식된 석산", "광역증폭",
    "고급", "중급",  # card grades
    "카드",  # the kind of name names.resolve_name looks up (its own message is never shown: caught)
}


def _docstrings(tree: ast.AST) -> set[int]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
                    and isinstance(first.value.value, str):
                out.add(id(first.value))
    return out


def _data_strings(tree: ast.AST) -> set[int]:
    """The string constants assigned to one of DATA_NAMES."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id in DATA_NAMES for t in targets) and node.value is not None:
                out.update(id(n) for n in ast.walk(node.value))
    return out


def _hangul_strings(path: Path) -> list[tuple[int, str, bool]]:
    """(line, text, in an f-string) of every string constant with Hangul outside docstrings."""
    tree = sourcetree.parse(path)
    docs = _docstrings(tree) | _data_strings(tree)
    in_fstring = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            in_fstring.update(id(v) for v in node.values)
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs \
                and HANGUL.search(node.value):
            out.append((node.lineno, node.value, id(node) in in_fstring))
    return sorted(out)


def test_no_sentences_in_the_engine():
    found = []
    for path in sorted(ENGINE.rglob("*.py")):
        if path.name in DATA_MODULES | NOT_YET_CONVERTED:
            continue
        for line, text, in_f in _hangul_strings(path):
            if in_f or text not in IDENTIFIERS:
                found.append(f"{path.name}:{line}: {text!r}" + (" (in an f-string)" if in_f else ""))
    assert not found, ("Korean text in the engine (words belong in templates/problems/scenario.txt.j2 — pass a "
                       "problem code and its data):\n" + "\n".join(found))


def test_the_scan_sees_sentences_and_fstrings(tmp_path):
    """The scan itself: a sentence, a sentence in an f-string and a bare identifier."""
    src = tmp_path / "m.py"
    src.write_text('"""문서 문자열은 괜찮다."""\n'
                   'def f(x):\n    """여기도."""\n    a = "대응"\n    b = "셀을 읽을 수 없습니다."\n'
                   '    return f"{x}는 없습니다."\n', encoding="utf-8")
    got = _hangul_strings(src)
    assert [(t, f) for _, t, f in got] == [("대응", False), ("셀을 읽을 수 없습니다.", False), ("는 없습니다.", True)]


def test_allowlists_are_honest():
    """Every module listed exists, and every allowed identifier is still used somewhere."""
    names = {p.name for p in ENGINE.rglob("*.py")}
    assert DATA_MODULES | NOT_YET_CONVERTED <= names
    used = {t for p in ENGINE.rglob("*.py") if p.name not in DATA_MODULES for _, t, _ in _hangul_strings(p)}
    assert IDENTIFIERS <= used, f"unused allowlist entries: {sorted(IDENTIFIERS - used)}"


# ------------------------------------------------------------ the catalogue ----
def _codes_in_engine() -> set[str]:
    """The problem codes the engine passes: the first string after (obj, key, where) of sink.add,
    after (d, key) of Engine.error, of BoardError after its key, and code=… of Problem."""
    codes = set()
    for path in ENGINE.rglob("*.py"):
        for node in ast.walk(sourcetree.parse(path)):
            if not isinstance(node, ast.Call):
                continue
            fn = node.func
            name = fn.attr if isinstance(fn, ast.Attribute) else fn.id if isinstance(fn, ast.Name) else None
            pos = {"add": 3, "error": 2, "BoardError": 1}.get(name)
            args = list(node.args)
            if pos is not None and len(args) > pos and isinstance(args[pos], ast.Constant) \
                    and isinstance(args[pos].value, str):
                codes.add(args[pos].value)
            for kw in node.keywords:
                if kw.arg == "code" and isinstance(kw.value, ast.Constant) and isinstance(kw.value.value, str):
                    codes.add(kw.value.value)
            if name == "add" and len(args) > 3 and isinstance(args[3], ast.IfExp):
                for branch in (args[3].body, args[3].orelse):
                    if isinstance(branch, ast.Constant):
                        codes.add(branch.value)
    return codes


def test_every_engine_code_has_words():
    from flamer_ref.render import environment

    module = environment().get_template("problems/scenario.txt.j2").module
    codes = _codes_in_engine()
    assert len(codes) > 150, sorted(codes)  # the scan finds the codes (a broken scan finds none)
    bad = [c for c in codes if not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", c)]
    assert not bad, f"codes must be kebab-case: {bad}"
    missing = [c for c in sorted(codes) if getattr(module, c.replace("-", "_"), None) is None]
    assert not missing, f"codes without a macro in {CATALOGUE.name}: {missing}"


def test_every_catalogue_entry_is_used():
    """No stale words: each message macro names a code some engine module still passes."""
    text = CATALOGUE.read_text(encoding="utf-8")
    helpers = {"q", "names", "qj", "kinds", "need_why", "kn", "knj", "kv"}
    macros = set(re.findall(r"macro (\w+)\(", text)) - helpers
    messages = {m for m in macros if not m.endswith("__fix")}
    assert {m[:-len("__fix")] for m in macros if m.endswith("__fix")} <= messages
    strings = {n.value for p in ENGINE.rglob("*.py") for n in ast.walk(sourcetree.parse(p))
               if isinstance(n, ast.Constant) and isinstance(n.value, str)}
    unused = sorted(m for m in messages if m.replace("_", "-") not in strings)
    assert not unused, f"catalogue entries no engine module uses: {unused}"


def test_a_coded_problem_words_itself_through_the_catalogue():
    p = Problem("s.yaml", 4, "cells.9,9", code="cell-off-board", params={"cell": "9,9", "sea": True})
    assert p.code == "cell-off-board" and p.params == {"cell": "9,9", "sea": True}
    assert p.message == "셀 9,9: 바다라 기물을 둘 수 없습니다 (조항 4.9)."
    assert p.fix == "셀 좌표를 고치거나 board를 알맞게 적으세요"
    assert p.render() == ("s.yaml 4행 [cells.9,9]: 셀 9,9: 바다라 기물을 둘 수 없습니다 (조항 4.9)."
                          " → 고치는 법: 셀 좌표를 고치거나 board를 알맞게 적으세요")
    # particles follow the word (josa), never '이(가)'
    a = Problem("s.yaml", None, None, code="unknown-card", params={"name": "수문장", "near": [], "pieces_only": False})
    b = Problem("s.yaml", None, None, code="unknown-card", params={"name": "별마대", "near": [], "pieces_only": False})
    assert a.message == "카드 데이터베이스에 '수문장'이 없습니다."
    assert b.message == "카드 데이터베이스에 '별마대'가 없습니다."
    assert b.fix == "카드 이름을 확인하세요. flamer cards로 카드 목록을 볼 수 있습니다"
    # a code without a fix macro has no fix; one whose fix is empty has none either
    assert Problem("f", None, None, code="flip-piece").fix is None
    assert Problem("f", None, None, code="board-mapping", params={"key": "values"}).fix is None
    # a problem worded at once (outside the engine) is unchanged
    w = Problem("f", 2, "k", "문장.", "고치기")
    assert (w.message, w.fix, w.code, w.render()) == ("문장.", "고치기", None, "f 2행 [k]: 문장. → 고치는 법: 고치기")


def test_no_template_text_says_i_ga():
    text = CATALOGUE.read_text(encoding="utf-8")
    for pair in ("이(가)", "을(를)", "은(는)", "와(과)", "과(와)", "(으)로"):
        assert pair not in text


def test_an_unknown_code_fails_loudly():
    p = Problem("f", None, None, code="no-such-problem-code")
    with pytest.raises(KeyError, match="no-such-problem-code"):
        p.message
    # a known code missing one of its params fails too (StrictUndefined), never a blank in the text
    q = Problem("f", None, None, code="cell-twice", params={})
    with pytest.raises(Exception, match="cell"):
        q.message


def test_problem_is_immutable_and_needs_words_or_a_code():
    p = Problem("f", 1, "k", code="flip-piece")
    with pytest.raises(AttributeError):
        p.line = 2  # type: ignore[misc]
    with pytest.raises(TypeError):
        Problem("f", 1, "k")
    moved = p.at(file="g", key="j")
    assert (moved.file, moved.line, moved.key, moved.code) == ("g", 1, "j", "flip-piece")
    assert moved.message == p.message


def test_the_engine_reports_codes_and_data(corpus):
    """A parse error from the engine carries its code and data; the words match the catalogue's."""
    from flamer_ref.engine import api

    doc = {"kind": "combat", "attacker": "DGM",
           "cells": {"2,4": {"DGM": [{"id": "a", "card": "수문장"}], "BGM": [{"id": "a", "card": "수문장"}]}}}
    with pytest.raises(DataError) as info:
        api.parse(doc, "x.yaml", corpus)
    [p] = info.value.problems
    assert p.code == "duplicate-id" and p.params["id"] == "a"
    assert p.message == "기물 id 'a'가 두 번 나옵니다."  # no '(먼저 나온 줄: None)' when the line is not known
    assert "x.yaml" in str(info.value) and "기물 id 'a'가 두 번 나옵니다" in info.value.message


def test_the_engine_raises_without_importing_render():
    """Parsing an invalid scenario raises DataError with nothing worded: the presentation layer is
    not imported by the engine nor by errors; the edge imports it and the problems are worded then."""
    code = """
import sys
from flamer_ref.corpus import load
from flamer_ref.engine import api
from flamer_ref.errors import DataError
corpus = load()
assert "flamer_ref.render" not in sys.modules
docs = [
    {"kind": "combat", "attacker": "DGM", "cells": {"2,4": {"DGM": [{"id": "a", "card": "수문장", "state": "x"}]}}},
    {"kind": "move", "attacker": "DGM", "board": {"width": 3, "height": 3, "sea": ["1,1"]},
     "cells": {"1,1": {"DGM": [{"id": "a", "card": "수문장"}]}, "0,0": {"BGM": [{"id": "b", "card": "수문장"}]}}},
    {"kind": "nope"},
    {"kind": "round", "player": "DGM", "produce": 3, "cells": {"0,0": {"DGM": [{"id": "a", "card": "수문장"}]}}},
]
caught = []
for doc in docs:
    try:
        api.parse(doc, "bad.yaml", corpus)
    except DataError as exc:
        assert exc.problems and all(p.code for p in exc.problems), exc.problems
        caught.append(exc)
    else:
        raise SystemExit("no DataError for " + repr(doc))
assert "flamer_ref.render" not in sys.modules, "render imported while raising"
try:  # errors imports no renderer (issue 19): words exist once the presentation layer is there
    caught[-1].message
    raise SystemExit("worded without the presentation layer")
except LookupError:
    pass
import flamer_ref.render  # the edge (the CLI, the site) imports it
print(caught[-1].message.splitlines()[0])
print("ok")
"""
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip().endswith("ok")
