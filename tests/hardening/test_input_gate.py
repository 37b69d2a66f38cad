"""Issue 11: the input gate for every YAML the tool reads (yamlio), type errors in scenarios that
used to end in "내부 오류", and the search query cap. Hostile cases run in a subprocess with a
timeout, so that a hang fails the test instead of stalling the suite."""

from __future__ import annotations

import functools
import os
import time

import flamer_fork
import pytest

from flamer_ref import yamlio
from flamer_ref.errors import DataError

TIMEOUT = 30  # generous: the point is that a hang (minutes) fails, not to measure speed


# a real process, forked from a warm interpreter (tests/flamer_fork.py): no completion request, no debug
# traceback, UTF-8 streams unless this shell says otherwise
run = functools.partial(flamer_fork.run, timeout=TIMEOUT, env={
    "_FLAMER_COMPLETE": None, "FLAMER_DEBUG": None, "PYTHONIOENCODING": os.environ.get("PYTHONIOENCODING", "utf-8")})


def refused(p, *needles):
    """Exit 1 with one clear Korean message naming what was given; never a traceback or 내부 오류."""
    assert p.returncode == 1, (p.returncode, p.stdout, p.stderr)
    assert "Traceback" not in p.stderr and "내부 오류" not in p.stderr, p.stderr
    assert "고치는 법" in p.stderr, p.stderr
    for n in needles:
        assert n in p.stderr, (n, p.stderr)
    return p.stderr


VICTORY = """\
kind: victory
player: DGM
vp: {DGM: 3, BGM: 1}
homes: {BGM: ["5,5", "6,4"]}
cells:
  "0,2": {DGM: [{id: d1, card: 수문장, state: settled}]}
  "2,4": {BGM: [{id: b1, card: 행성굴착기, state: settled}]}
"""

MOVE = """\
kind: move
attacker: DGM
board: {width: 7, height: 6, adjacency: square8}
cells:
  "1,2": {DGM: [{id: gk1, card: 수문장}]}
  "2,4": {BGM: [{id: giant, card: 거신}]}
activate: ["1,2"]
moves:
- {piece: gk1, path: ["2,3"]}
"""

COMBAT = """\
kind: combat
attacker: DGM
cells:
  "1,1":
    DGM: [{id: a, card: 수문장}]
    BGM: [{id: b, card: 개미, lv: 1, hp: 2, atk: 1}]
"""


def write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


# ------------------------------------------------------------ the valid forms still work ----
def test_valid_forms_still_resolve(tmp_path):
    for name, text in (("v.yaml", VICTORY), ("m.yaml", MOVE), ("c.yaml", COMBAT)):
        p = run("simulate", str(write(tmp_path, name, text)), "--json")
        assert p.returncode == 0, (name, p.stderr)


# ------------------------------------------------------------------ not a regular file ----
def test_dev_zero_is_refused_at_once():
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero")
    refused(run("simulate", "/dev/zero"), "/dev/zero", "장치 파일")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_fifo_without_writer_is_refused_at_once(tmp_path):
    fifo = tmp_path / "scene.yaml"
    os.mkfifo(fifo)
    refused(run("simulate", str(fifo)), "scene.yaml", "FIFO")
    # the library path too (data files, boards, effects go through the same read_yaml)
    with pytest.raises(DataError, match="FIFO"):
        yamlio.read_yaml(fifo, "rules/x.yaml")


def test_directory_is_refused(tmp_path):
    d = tmp_path / "adir"
    d.mkdir()
    refused(run("simulate", str(d)), "adir", "파일이 아니라 폴더입니다")


def test_missing_file_still_says_missing(tmp_path):
    p = run("simulate", str(tmp_path / "nope.yaml"))
    assert p.returncode == 1 and "Traceback" not in p.stderr
    assert p.stderr == f"파일을 찾을 수 없습니다: {tmp_path / 'nope.yaml'}\n"  # issue 17: what, then the file


# ----------------------------------------------------------------------------- size ----
def test_oversized_scenario_file_is_refused(tmp_path):
    p = tmp_path / "huge.yaml"
    p.write_bytes(b"kind: combat\n" + b"# " + b"x" * (yamlio.SCENARIO_MAX_BYTES + 10) + b"\n")
    refused(run("simulate", str(p)), "huge.yaml", "너무 큽니다", "2.0 MB")


def test_oversized_stdin_is_refused():
    text = "kind: combat\n# " + "x" * (yamlio.SCENARIO_MAX_BYTES + 10) + "\n"
    refused(run("simulate", "-", input=text), "표준 입력", "너무 큽니다")


def test_stdin_from_dev_zero_is_capped():
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero")
    p = flamer_fork.run("simulate", "-", stdin="/dev/zero", text=False, timeout=TIMEOUT)
    assert p.returncode == 1
    err = p.stderr.decode("utf-8")
    assert "Traceback" not in err and "내부 오류" not in err and "표준 입력" in err


def test_data_files_have_their_own_limit(tmp_path):
    p = tmp_path / "big.yaml"
    p.write_bytes(b"a: 1\n# " + b"x" * (yamlio.DATA_MAX_BYTES - 100) + b"\n")
    assert yamlio.read_yaml(p, "rules/big.yaml") == {"a": 1}  # a data file up to its limit (1.5 MB since issue 20)
    p.write_bytes(b"a: 1\n# " + b"x" * (max(yamlio.DATA_MAX_BYTES, yamlio.SCENARIO_MAX_BYTES) + 10) + b"\n")
    with pytest.raises(DataError, match="rules/big.yaml.*너무 큽니다"):
        yamlio.read_yaml(p, "rules/big.yaml")
    with pytest.raises(DataError, match="너무 큽니다"):
        yamlio.read_scenario(p, "scene.yaml")
    p.write_bytes(b"a: 1\n# " + b"x" * 2000 + b"\n")
    with pytest.raises(DataError, match="rules/big.yaml.*너무 큽니다"):
        yamlio.read_yaml(p, "rules/big.yaml", max_bytes=1000)


# ------------------------------------------------------------------------ alias bomb ----
def _alias_bomb() -> str:
    lines = ["kind: combat", 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    prev = "a"
    for name in "bcdefghi":  # 9 levels of 9 aliases: 9**9 strings if expanded
        lines.append(f"{name}: &{name} [" + ",".join([f"*{prev}"] * 9) + "]")
        prev = name
    return "\n".join(lines) + "\n"


def test_alias_bomb_is_refused_quickly(tmp_path):
    err = refused(run("simulate", str(write(tmp_path, "bomb.yaml", _alias_bomb()))), "bomb.yaml", "별칭")
    assert "행" in err  # the line of the alias that went over the limit


def test_alias_bomb_in_library_parse_is_refused():
    with pytest.raises(DataError, match="별칭"):
        yamlio.parse_text(_alias_bomb(), "rules/x.yaml")


def test_a_few_aliases_and_merges_still_work():
    doc = yamlio.parse_text("base: &b {x: 1, y: 2}\nother:\n  <<: *b\n  y: 3\nlist: [*b, *b]\n", "t.yaml")
    assert doc["other"] == {"x": 1, "y": 3} and doc["list"] == [{"x": 1, "y": 2}] * 2


# ----------------------------------------------------------------------------- depth ----
def test_990_deep_nesting_is_a_korean_error(tmp_path):
    text = "kind: combat\nx: " + "[" * 990 + "]" * 990 + "\n"
    err = refused(run("simulate", str(write(tmp_path, "deep.yaml", text))), "deep.yaml", "중첩", "2행")
    assert "RecursionError" not in err


def test_deep_block_mappings_are_refused_in_library():
    text = "".join("  " * i + f"k{i}:\n" for i in range(200)) + "  " * 200 + "v: 1\n"
    with pytest.raises(DataError, match="중첩"):
        yamlio.parse_text(text, "t.yaml")


def test_nesting_at_the_limit_is_fine():
    depth = yamlio.MAX_DEPTH
    assert yamlio.parse_text("[" * depth + "]" * depth, "t.yaml") is not None


# ---------------------------------------------------------------------------- numbers ----
def test_5000_digit_number_names_file_line_and_key(tmp_path):
    text = "kind: combat\nattacker: DGM\ncells:\n  \"1,1\":\n    DGM: [{id: a, card: 수문장, hp: " + "9" * 5000 + "}]\n"
    err = refused(run("simulate", str(write(tmp_path, "num.yaml", text))), "num.yaml", "5행", "[hp]", "너무 큽니다")
    assert "Exceeds the limit" not in err and "ValueError" not in err


def test_integer_bound():
    assert yamlio.parse_text(f"hp: {yamlio.MAX_INT}", "t.yaml") == {"hp": yamlio.MAX_INT}
    assert yamlio.parse_text(f"hp: -{yamlio.MAX_INT}", "t.yaml") == {"hp": -yamlio.MAX_INT}
    for bad in (f"hp: {yamlio.MAX_INT + 1}", "hp: 1000000000000", "hp: 0x" + "f" * 5000, "hp: [1, 2, 1_000_000_000_000]"):
        with pytest.raises(DataError) as exc:
            yamlio.parse_text(bad, "t.yaml")
        assert exc.value.problems[0].key == "hp" and exc.value.problems[0].line == 1, bad
    assert yamlio.parse_text('id: "' + "9" * 5000 + '"', "t.yaml")["id"] == "9" * 5000  # quoted = text


# -------------------------------------------------------------------- collection size ----
def test_collection_size_limit(tmp_path):
    text = "kind: combat\nx: [" + ",".join(["1"] * (yamlio.MAX_ITEMS + 1)) + "]\n"
    refused(run("simulate", str(write(tmp_path, "big.yaml", text))), "big.yaml", "10,000개", "[x]")
    with pytest.raises(DataError, match="10,000"):
        yamlio.parse_text("{" + ",".join(f"k{i}: 1" for i in range(yamlio.MAX_ITEMS + 1)) + "}", "t.yaml")
    assert len(yamlio.parse_text("[" + ",".join(["1"] * yamlio.MAX_ITEMS) + "]", "t.yaml")) == yamlio.MAX_ITEMS


def test_bundled_data_passes_the_gate():
    p = run("validate")
    assert p.returncode == 0, p.stderr


# ------------------------------------------------------------------ schema type errors ----
@pytest.mark.parametrize("kind", ["[combat]", "{a: 1}", "[전투, 이동]"])
def test_kind_not_a_name(tmp_path, kind):
    text = COMBAT.replace("kind: combat", f"kind: {kind}")
    refused(run("simulate", str(write(tmp_path, "k.yaml", text))), "k.yaml", "1행", "[kind]", "이름 하나")


def test_kind_korean_key_shown_as_written(tmp_path):
    text = COMBAT.replace("kind: combat", "종류: [전투]")
    refused(run("simulate", str(write(tmp_path, "k.yaml", text))), "[종류]", "목록")


def test_homes_as_integer(tmp_path):
    text = VICTORY.replace('homes: {BGM: ["5,5", "6,4"]}', "homes: 5")
    refused(run("simulate", str(write(tmp_path, "h.yaml", text)), "--json"), "h.yaml", "4행", "homes")


def test_homes_with_integer_side_code(tmp_path):
    text = VICTORY.replace('homes: {BGM: ["5,5", "6,4"]}', 'homes: {5: ["5,5", "6,4"]}')
    refused(run("simulate", str(write(tmp_path, "h.yaml", text))), "h.yaml", "4행", "[homes.5]", "진영 코드")


def test_vp_with_integer_side_code(tmp_path):
    text = VICTORY.replace("vp: {DGM: 3, BGM: 1}", "vp: {1: 3, BGM: 1}")
    refused(run("simulate", str(write(tmp_path, "v.yaml", text))), "v.yaml", "3행", "[vp.1]", "진영 코드")


def test_field_with_integer_side_code(tmp_path):
    text = COMBAT + "field:\n  7: [수문장, null, null, null, null]\n"
    refused(run("simulate", str(write(tmp_path, "f.yaml", text))), "f.yaml", "8행", "[field.7]", "진영 코드")


@pytest.mark.parametrize("adj", ["[square8]", "{a: 1}", "[팔방, 사방]"])
def test_adjacency_not_a_name(tmp_path, adj):
    text = MOVE.replace("adjacency: square8", f"adjacency: {adj}")
    refused(run("simulate", str(write(tmp_path, "a.yaml", text))), "a.yaml", "3행", "board.adjacency", "square8")


def test_board_homes_with_integer_side_code(tmp_path):
    text = MOVE.replace("adjacency: square8}", 'adjacency: square8, homes: {3: ["1,1", "2,2"]}}')
    refused(run("simulate", str(write(tmp_path, "b.yaml", text))), "b.yaml", "3행", "진영 코드")


# --------------------------------------------------------------------------- search ----
def test_long_query_is_refused_fast():
    from flamer_ref.cli import SEARCH_MAX_CHARS

    p = run("search", "dhkd " * 20_000)  # 100 KB of query took minutes before the cap
    refused_query(p)
    assert str(SEARCH_MAX_CHARS) in p.stderr


def test_many_words_are_refused():
    from flamer_ref.cli import SEARCH_MAX_WORDS

    refused_query(run("search", *(["대응"] * (SEARCH_MAX_WORDS + 1))))
    p = run("search", *(["대응"] * (SEARCH_MAX_WORDS + 1)), "--json")
    assert p.returncode == 1 and '"bad-input"' in p.stdout


def test_query_at_the_limit_still_searches():
    p = run("search", "대응 스택 언제 쓰나요", "-n", "1", "--json")
    assert p.returncode == 0, p.stderr


def refused_query(p):
    assert p.returncode == 1, (p.returncode, p.stderr)
    assert "Traceback" not in p.stderr and "내부 오류" not in p.stderr
    assert "검색어가 너무 깁니다" in p.stderr and "고치는 법" in p.stderr
