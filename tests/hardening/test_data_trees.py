"""Issue 20, the second hostile pass: faults 5, 11, 12, 13, 16, 17 and 18, each with its reproducer.

5   a data tree with many broken references: linear work, and a bounded problem list for people
    (a typo in a widely cited id is said once, with a count); `validate --json` lists every problem
11  a scalar where a data file's top-level list (or mapping) belongs: one Korean problem, file and key
12  an unreadable rules/, cards/, rules/clauses/, rules/examples/ or rules/boards/: one Korean error
    naming the folder. CI runs as root, where chmod 000 does not stop reading: the folder is made
    unreadable in-process (os.stat / os.listdir / os.scandir / os.open raise PermissionError inside
    it, as the kernel does), and a real chmod test runs where it can (not as root)
13  an unreadable cards/effects.yaml in book, faq pages and site: the error fight gives
16  bidi controls (U+061C too) shown as code points in the terminal, \\u-escaped in --json
17  site pages and search-index.js cleaned like `book -o` (no raw ESC, C1, RLO from the data)
18  operating-system reasons in Korean (errors.os_reason), never the C library's English

Temp data trees only (the `tree` fixture of conftest.py), FLAMER_DATA and FLAMER_CACHE_DIR into
tmp_path; in-process (Typer's CliRunner) unless the test is about the real process."""

from __future__ import annotations

import builtins
import errno
import functools
import io
import json
import os
import re
import shutil
import sys
from pathlib import Path

import pytest

import inprocess
import sourcetree

from flamer_ref import cachefile
from flamer_ref import corpus as corpus_mod
from flamer_ref.errors import DataError, Problem, os_reason
from flamer_ref.paths import data_root

HANGUL = re.compile("[가-힣]")
#: every raw character a terminal or a page must not get from data: C0 but \t \n, DEL, C1, bidi controls
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
BIDI = ["\u061c", "\u200e", "\u200f", *map(chr, range(0x202A, 0x202F)), *map(chr, range(0x2066, 0x206A))]


# in-process on a data tree of the test's: no cache folder unless given, a fresh corpus memo, no debug output
in_tree = functools.partial(inprocess.invoke, cache="", fresh=True, env={"FLAMER_DEBUG": ""})


def korean_error(r, *needles) -> str:
    """Exit 1, one Korean message on stderr, never an internal error or a traceback."""
    assert r.exit_code == 1, (r.exit_code, r.stdout[-800:], r.stderr[-2000:])
    err = r.stderr
    assert "내부 오류" not in err and "Traceback" not in err, err
    assert HANGUL.search(err), err
    for n in needles:
        assert n in err, (n, err)
    return err


def bundled_copy(dest: Path) -> Path:
    for sub in ("rules", "cards"):
        shutil.copytree(data_root() / sub, dest / sub)
    return dest


# ===================================================================== fault 5 ====
def _many_broken_see_also(tree, n: int) -> None:
    """n more clauses, each citing a clause that does not exist (the reproducer: 400 → 40 s)."""
    tree.append("rules/clauses/a.yaml", "".join(
        f"- id: a.extra{i}\n  title: 덧붙인 조항 {i}\n  source: page.combat\n  text: 본문.\n  see_also: [a.gone{i}]\n"
        for i in range(n)))


class _Counted:
    """Counts Problem comparisons and the ids the 'did you mean' search compares a word with;
    past `limit` comparisons it stops the load (the old cubic check would run for minutes)."""

    def __init__(self, monkeypatch, limit: int):
        self.eq = 0
        self.compared = 0
        real_eq, real_nearest = Problem.__eq__, corpus_mod._nearest

        def eq(a, b):
            self.eq += 1
            if self.eq > limit:
                raise AssertionError(f"more than {limit} Problem comparisons")
            return real_eq(a, b)

        def nearest(word, options):
            self.compared += len(options)
            return real_nearest(word, options)

        monkeypatch.setattr(Problem, "__eq__", eq)
        monkeypatch.setattr(corpus_mod, "_nearest", nearest)


def test_400_broken_see_also_is_linear_work_and_a_bounded_list(tree, monkeypatch):
    _many_broken_see_also(tree, 400)
    counted = _Counted(monkeypatch, limit=4_000)
    with pytest.raises(DataError) as info:
        corpus_mod.parse(tree.root)
    problems = info.value.problems
    assert len(problems) == 400  # every broken reference, once
    assert {p.key for p in problems} == {"see_also"} and all("찾을 수 없습니다" in p.message for p in problems)
    assert counted.eq <= 4_000  # was ~10^7 comparisons (cubic)
    assert counted.compared <= 50_000  # the "did you mean" work is bounded too (was 400 × every id)
    lines = info.value.message.splitlines()
    assert len(lines) <= 1 + 40 + 12, len(lines)  # a person sees the first ten, and how many more
    assert lines[0] == "데이터 오류 400건:"
    assert "  rules/clauses/a.yaml: … 외 390건" in lines
    assert "flamer validate --json" in lines[-1]


def test_400_broken_ids_on_one_line(tree, monkeypatch):
    """All on one line: the same file, line and key (one hash for Problem): still no pairwise compare."""
    tree.replace("rules/clauses/a.yaml", "see_also: [a.second]",
                 "see_also: [" + ", ".join(f"a.gone{i}" for i in range(400)) + "]")
    counted = _Counted(monkeypatch, limit=4_000)
    with pytest.raises(DataError) as info:
        corpus_mod.parse(tree.root)
    assert len(info.value.problems) == 400 and counted.eq <= 4_000
    assert len(info.value.message.splitlines()) <= 53


@pytest.fixture(scope="module")
def misspelt_sources(tmp_path_factory) -> Path:
    """The bundled data with one typo: `soruces:` for `sources:` (every page reference breaks)."""
    root = bundled_copy(tmp_path_factory.mktemp("typo") / "data")
    path = root / "rules" / "sources.yaml"
    text = path.read_text(encoding="utf-8")
    assert text.count("\nsources:") == 1
    path.write_text(text.replace("\nsources:", "\nsoruces:"), encoding="utf-8")
    return root


def test_one_sources_typo_is_said_once_per_page(misspelt_sources):
    """Was 7–11 s and ~380 lines: now each missing page once, with how many places cite it."""
    r = in_tree("rule", "combat.step7.sweep", data=misspelt_sources)
    err = korean_error(r, "'soruces'", "'sources'의 오타라면")
    lines = err.strip().splitlines()
    assert len(lines) <= 15, err
    for page in ("page.combat", "page.response", "page.victory", "page.field", "page.move"):
        said = [ln for ln in lines if f"출처 페이지 '{page}'를 찾을 수 없습니다" in ln]
        assert len(said) == 1, (page, err)
    more = [int(m) for m in re.findall(r"같은 문제 (\d+)건 더", err)]
    assert len(more) == 5 and sum(more) + 5 + 1 == int(re.search(r"데이터 오류 (\d+)건", err).group(1))


def test_validate_json_lists_every_problem_once(misspelt_sources):
    r = in_tree("validate", "--data", misspelt_sources, "--json", data=misspelt_sources)
    assert r.exit_code == 1
    problems = json.loads(r.stdout)["problems"]
    keys = [(p["file"], p["line"], p["key"], p["message"]) for p in problems]
    assert len(keys) == len(set(keys)) > 300  # all of them, no repeats (for bots)
    assert len(r.stderr.splitlines()) <= 15  # the person's list is bounded


def test_a_short_list_is_unchanged():
    """Under the caps nothing is folded but repeats of the very same words."""
    ps = [Problem("a.yaml", i, "k", f"문제 {i}.", None) for i in range(1, 4)]
    assert DataError(ps).message == "데이터 오류 3건:\n" + "\n".join(f"  a.yaml {i}행 [k]: 문제 {i}." for i in range(1, 4))


# ==================================================================== fault 11 ====
SCALARS = ["7", "1.5", "true", "-3", "abc", "'2026-09-24'"]
#: every data file kind: (file, its top-level key, a valid rest of the file)
TOP_KEYS = [
    ("rules/clauses/b.yaml", "clauses", "section: {id: b, title: 나 섹션, order: 20}\n"),
    ("rules/clauses/b.yaml", "section", "clauses: []\n"),
    ("rules/sources.yaml", "sources", None),
    ("rules/rulings.yaml", "rulings", None),
    ("rules/faq.yaml", "faq", None),
    ("rules/glossary.yaml", "terms", None),
    ("rules/examples/b.yaml", "examples", ""),
    ("rules/timing.yaml", "timings", ""),
    ("rules/synonyms.yaml", "synonyms", ""),
    ("rules/phrasings.yaml", "phrasings", ""),
    ("cards/cards.yaml", "cards", None),
    ("cards/effects.yaml", "effects", ""),
]


@pytest.mark.parametrize("value", SCALARS + ["{a: 1}"])
def test_clauses_scalar_is_one_problem(tree, value):
    """The reproducer: `clauses: 7` (1.5, true …) in a clause file was 내부 오류 (TypeError)."""
    tree.write("rules/clauses/b.yaml", f"section: {{id: b, title: 나 섹션, order: 20}}\nclauses: {value}\n")
    r = in_tree("validate", "--data", tree.root, "--json", data=tree.root)
    korean_error(r, "rules/clauses/b.yaml", "'clauses'의 값은 목록이어야 합니다")
    problems = json.loads(r.stdout)["problems"]
    assert len(problems) == 1 and problems[0]["file"] == "rules/clauses/b.yaml" and problems[0]["key"] == "clauses"
    assert problems[0]["line"] == 2
    korean_error(in_tree("rule", "a.first", data=tree.root), "rules/clauses/b.yaml", "clauses")


@pytest.mark.parametrize("rel,key,rest", TOP_KEYS, ids=[f"{f}:{k}" for f, k, _ in TOP_KEYS])
@pytest.mark.parametrize("value", SCALARS)
def test_a_scalar_top_level_value_names_file_and_key(tree, rel, key, rest, value):
    if rest is None:  # a file of the minimal tree: keep what else it has, change the one key
        text = tree.read(rel)
        text = re.sub(rf"(?ms)^{key}:.*?(?=^[a-z_]+:|\Z)", f"{key}: {value}\n", text)
    else:
        text = rest + f"{key}: {value}\n"
    tree.write(rel, text)
    args = ["fight", "수문장 vs 적(lv1 hp1 atk1)"] if rel == "cards/effects.yaml" else ["validate", "--data", tree.root]
    r = in_tree(*args, data=tree.root)
    err = korean_error(r, rel if rel != "cards/effects.yaml" else "effects")
    assert key in err, err


# ==================================================================== fault 12 ====
def make_unreadable(monkeypatch, folder: Path | None = None, files=()) -> None:
    """What chmod 000 on `folder` (and on each of `files`) does for a user other than root, in this
    process: listing the folder, and stat or open of anything inside it, fail with EACCES; a file of
    `files` can still be stat'ed, but not opened."""
    folder = os.path.abspath(folder) if folder is not None else None
    files = {os.path.abspath(f) for f in files}

    def where(path) -> str | None:
        return None if isinstance(path, int) else os.path.abspath(os.fsdecode(os.fspath(path)))

    def under(p) -> bool:
        return p is not None and folder is not None and p.startswith(folder + os.sep)

    def denied(path):
        return PermissionError(errno.EACCES, os.strerror(errno.EACCES), os.fspath(path))

    def guard(real, refuses):
        def call(path, *a, **k):
            if refuses(where(path)):
                raise denied(path)
            return real(path, *a, **k)
        return call

    lists = lambda p: under(p) or (p is not None and p == folder)  # noqa: E731
    opens = lambda p: under(p) or p in files  # noqa: E731
    monkeypatch.setattr(os, "stat", guard(os.stat, under))
    monkeypatch.setattr(os, "lstat", guard(os.lstat, under))
    monkeypatch.setattr(os, "listdir", guard(os.listdir, lists))
    monkeypatch.setattr(os, "scandir", guard(os.scandir, lists))
    for module, name in ((os, "open"), (builtins, "open"), (io, "open")):
        monkeypatch.setattr(module, name, guard(getattr(module, name), opens))


FOLDERS = ["rules", "cards", "rules/clauses", "rules/examples", "rules/boards"]
BOARD = """\
label: 예시 보드
width: 3
height: 3
adjacency: square8
sea: []
homes: {}
values: {}
"""


@pytest.mark.parametrize("folder", FOLDERS)
def test_an_unreadable_folder_is_one_error_naming_it(tree, monkeypatch, folder):
    tree.write("rules/boards/example.yaml", BOARD)
    r = in_tree("validate", "--data", tree.root, data=tree.root)
    assert r.exit_code == 0, r.stderr  # the tree itself is sound
    make_unreadable(monkeypatch, tree.root / folder)
    r = in_tree("validate", "--data", tree.root, data=tree.root)
    korean_error(r, f"{folder}/: 폴더를 읽을 수 없습니다 (권한이 없습니다)")
    assert len(r.stderr.strip().splitlines()) == 2, r.stderr  # 데이터 오류: + the one problem
    r = in_tree("rule", "a.first", data=tree.root)
    if folder == "rules/boards":
        assert r.exit_code == 0  # a lookup does not read the board
    else:
        korean_error(r, f"{folder}/", "권한이 없습니다")
    r = in_tree("search", "첫", "--json", data=tree.root)
    if folder != "rules/boards":
        korean_error(r, f"{folder}/")
        assert json.loads(r.stdout)["error"]["code"] == "data-error"


def test_an_unreadable_data_folder_itself(tmp_path, monkeypatch):
    make_unreadable(monkeypatch, tmp_path)
    korean_error(in_tree("rule", "a.first", data=tmp_path / "data"), "폴더를 읽을 수 없습니다")


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0,
                    reason="as root chmod 000 does not stop reading (the in-process tests above cover it)")
@pytest.mark.parametrize("folder", ["rules/clauses", "cards"])
def test_a_real_chmod_000_folder(tree, folder):
    target = tree.root / folder
    target.chmod(0)
    try:
        korean_error(in_tree("validate", "--data", tree.root, data=tree.root), f"{folder}/", "권한이 없습니다")
    finally:
        target.chmod(0o755)


# ==================================================================== fault 13 ====
EFFECTS = "effects: []\n"


@pytest.mark.parametrize("args", [["book", "-o", "{tmp}/b.html"], ["faq", "--format", "html"],
                                  ["faq", "--format", "md"], ["faq", "--format", "pdf", "-o", "{tmp}/f.pdf"],
                                  ["site", "{tmp}/site"], ["fight", "수문장 vs 적(lv1 hp1 atk1)"]],
                         ids=["book", "faq-html", "faq-md", "faq-pdf", "site", "fight"])
def test_an_unreadable_effects_file_is_the_error_fight_gives(tree, tmp_path, monkeypatch, args):
    tree.write("cards/effects.yaml", EFFECTS)
    make_unreadable(monkeypatch, files=[tree.root / "cards" / "effects.yaml"])
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    r = in_tree(*args, data=tree.root)
    err = korean_error(r, "파일을 읽을 수 없습니다 (권한이 없습니다)")
    if args[0] != "fight":  # (fight words a data problem as its own line: "전투: …")
        assert "cards/effects.yaml" in err, err
    assert not (tmp_path / "site").exists() and not (tmp_path / "b.html").exists()


# ==================================================================== fault 16 ====
def test_bidi_controls_are_code_points_in_the_terminal():
    from flamer_ref.cleantext import clean

    for ch in BIDI:
        assert clean(f"a{ch}b") == f"a<U+{ord(ch):04X}>b"
    assert clean("a\u061cb", html=True) == "a&lt;U+061C&gt;b"


def test_bidi_controls_are_escaped_in_json():
    from flamer_ref.cleantext import json_clean, json_text

    value = {"t": "거신" + "".join(BIDI) + "\x9b끝", "k": "é ü 한글 😀"}
    text = json_text(value)
    assert not RAW.search(text)
    assert json.loads(text) == value  # the same JSON value
    for ch in BIDI:
        assert f"\\u{ord(ch):04x}" in text
    assert "é ü 한글 😀" in text  # ensure_ascii stays off for everything else
    assert json_clean(text) == text


def test_search_json_and_text_with_an_arabic_letter_mark(tree, tmp_path):
    """The reproducer: U+061C in a query came back raw, in text and in --json."""
    query = "첫\u061c\u202e"
    r = in_tree("search", query, "--json", data=tree.root, cache=tmp_path / "cache")
    assert r.exit_code == 0, r.stderr
    assert not RAW.search(r.stdout) and "\\u061c" in r.stdout and "\\u202e" in r.stdout
    assert json.loads(r.stdout)["query"] == query
    r = in_tree("search", query, data=tree.root, cache=tmp_path / "cache")
    assert r.exit_code == 0 and not RAW.search(r.stdout) and "<U+061C>" in r.stdout


def test_json_errors_escape_them_too(tree):
    r = in_tree("rule", "없는\u202e조항", "--json", data=tree.root)
    assert r.exit_code == 1 and not RAW.search(r.stdout) and not RAW.search(r.stderr)
    assert "\u202e" in json.loads(r.stdout)["error"]["message"]


# ==================================================================== fault 17 ====
HOSTILE_TITLE = '"첫 \\e[31m조항\\x9b\\u202e\\u061c끝"'


@pytest.fixture
def hostile_tree(tree):
    tree.replace("rules/clauses/a.yaml", "title: 첫 조항", f"title: {HOSTILE_TITLE}")
    tree.replace("rules/glossary.yaml", "definition: 맨 앞의 것.", 'definition: "맨 \\e]0;x\\a앞의 \\u2066것."')
    return tree


def test_site_pages_and_index_carry_no_raw_control(hostile_tree, tmp_path):
    from flamer_ref import site

    files = site.build_site(corpus_mod.load(hostile_tree.root, use_cache=False))
    raw = {rel: RAW.findall(text) for rel, text in files.items() if RAW.search(text)}
    assert raw == {}  # was 30 raw controls in 5 files (rules/a.html, search-index.js …)
    page = files["rules/a.html"]
    assert "\u241b[31m조항\\x9b&lt;U+202E&gt;&lt;U+061C&gt;끝" in page  # shown, as book -o shows them
    index = json.loads(files["search-index.js"].split("=", 1)[1].rstrip().rstrip(";"))
    titles = [d[2] for d in index["docs"]]
    assert "첫 \u241b[31m조항\\x9b<U+202E><U+061C>끝" in titles  # shown as text (textContent)


def test_book_and_site_clean_alike(hostile_tree, tmp_path):
    r = in_tree("book", "-o", tmp_path / "book.html", data=hostile_tree.root)
    assert r.exit_code == 0, r.stderr
    book = (tmp_path / "book.html").read_text(encoding="utf-8")
    assert not RAW.search(book)
    assert "\u241b[31m조항\\x9b&lt;U+202E&gt;&lt;U+061C&gt;끝" in book


# ==================================================================== fault 18 ====
def test_an_unreadable_scenario_file_says_why_in_korean(tmp_path, monkeypatch):
    scn = tmp_path / "s.yaml"
    scn.write_text("kind: combat\n", encoding="utf-8")
    make_unreadable(monkeypatch, files=[scn])
    r = inprocess.invoke("simulate", str(scn))
    korean_error(r, "s.yaml", "파일을 읽을 수 없습니다 (권한이 없습니다)")
    assert "Permission denied" not in r.stderr


def test_an_unreadable_standard_input_says_why_in_korean(monkeypatch):
    from flamer_ref.yamlio import read_stdin

    class Broken(io.RawIOBase):
        def readable(self):
            return True

        def readinto(self, b):
            raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BufferedReader(Broken())))
    with pytest.raises(DataError) as info:
        read_stdin()
    assert "표준 입력을 읽을 수 없습니다 (입출력 오류입니다" in info.value.message
    assert "Input/output" not in info.value.message


def test_internal_and_output_errors_say_os_reasons_in_korean():
    from flamer_ref.errors import internal_message
    from flamer_ref.terminal import _message

    exc = PermissionError(errno.EACCES, "Permission denied", "/x/y")
    assert "권한이 없습니다: /x/y" in internal_message(exc) and "Permission denied" not in internal_message(exc)
    assert _message(OSError(errno.EROFS, "Read-only file system")) == \
        "표준 출력에 결과를 쓰지 못했습니다 (읽기 전용 파일 시스템입니다)."
    assert os_reason(exc) == "권한이 없습니다"


def test_a_missing_pango_library_is_said_in_korean():
    from flamer_ref.pdf import _library_reason

    exc = OSError("cannot load library 'libgobject-2.0-0': libgobject-2.0-0: cannot open shared object "
                  "file: No such file or directory.  Additionally, ctypes.util.find_library() did not "
                  "manage to locate a library called 'libgobject-2.0-0'")
    assert _library_reason(exc) == "라이브러리를 찾을 수 없습니다: libgobject-2.0-0"


def test_no_english_os_reason_reaches_a_person():
    """Every OSError a person is told about goes through errors.os_reason: in the package, no handler
    of an OSError puts the exception itself (str, an f-string field) or its strerror into a text."""
    import ast

    os_errors = {"OSError", "IOError", "PermissionError", "FileNotFoundError", "IsADirectoryError",
                 "NotADirectoryError", "FileExistsError", "BrokenPipeError", "ConnectionError"}
    pkg = Path(__file__).resolve().parent.parent.parent / "flamer_ref"
    found = []
    for path in sorted(pkg.rglob("*.py")):
        tree = sourcetree.parse(path)
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr == "strerror":
                found.append(f"{path.name}:{node.lineno}: .strerror")
            if not (isinstance(node, ast.ExceptHandler) and node.name):
                continue
            types = node.type.elts if isinstance(node.type, ast.Tuple) else [node.type]
            if not any(isinstance(t, ast.Name) and t.id in os_errors for t in types):
                continue
            for inner in (n for stmt in node.body for n in ast.walk(stmt)):
                bare = (isinstance(inner, ast.FormattedValue) and isinstance(inner.value, ast.Name)
                        and inner.value.id == node.name)
                as_str = (isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name) and inner.func.id == "str"
                          and any(isinstance(a, ast.Name) and a.id == node.name for a in inner.args))
                if bare or as_str:
                    found.append(f"{path.name}:{inner.lineno}: {node.name} in a text")
    assert found == [], found


@pytest.mark.parametrize("stat,value", [("hp", 0), ("hp", -7), ("lv", -5), ("atk", -3)])
def test_card_data_takes_only_stats_a_piece_can_have(tree, stat, value):
    """One stat rule everywhere (issue 20 #21): the card data too, not only scenarios and the one-line fight."""
    from flamer_ref.corpus import parse
    from flamer_ref.errors import DataError

    tree.replace("cards/cards.yaml", f"  {stat}: {dict(lv=3, hp=3, atk=1)[stat]}\n", f"  {stat}: {value}\n")
    with pytest.raises(DataError) as err:
        parse(tree.root)
    assert any(p.key == stat and "가질 수 없는 값" in p.message for p in err.value.problems)
