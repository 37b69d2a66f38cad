"""Issue 11, regression audit: the cases of the issue that had no test of their own yet, and the
faults the fuzz tests (tests/test_fuzz_*.py) found. The other cases are in tests/test_hardening_*.py."""

from __future__ import annotations

import errno
import json
import re
import shutil
import time
from pathlib import Path

import flamer_fork
import pytest
import yaml
from inprocess import HANGUL, clean_error, isolated as invoke

from flamer_ref import cachefile
from flamer_ref import corpus as corpus_mod
from flamer_ref import searchindex
from flamer_ref.engine.board import example_board_of
from flamer_ref.engine.effects import effects_of
from flamer_ref.paths import data_root

# libyaml's writer for the large scenarios below (PyYAML's own took half a second each); the text is the same YAML
CDumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


@pytest.fixture
def data_copy(tmp_path) -> Path:
    """A copy of the bundled data tree (rules/, cards/) to break one thing in."""
    root = tmp_path / "data"
    for sub in ("rules", "cards"):
        shutil.copytree(data_root() / sub, root / sub)
    return root


# --------------------------------------------- found by tests/hardening/test_fuzz_scenarios.py ----
ROUND_ADHOC = """\
kind: round
player: DGM
cells:
  "0,0": {DGM: [{name: 병사, lv: 1, hp: 1, atk: 0, structure: true}]}
"""


@pytest.mark.parametrize("fmt", ["text", "md", "html"])
def test_round_with_an_ad_hoc_piece_prints_in_every_format(fmt):
    """The end state lists each piece by card or, for an ad-hoc piece, by name: was "내부 오류"
    (UndefinedError: 'dict object' has no attribute 'card') in text, md and html."""
    r = invoke("simulate", "-", "--format", fmt, input=ROUND_ADHOC)
    assert r.exit_code == 0, r.stderr
    assert "병사" in r.stdout and "내부 오류" not in r.stderr


# ---------------------------------------------------- wrong input accepted silently ----
@pytest.mark.parametrize("key", ["board", "보드"])
def test_board_in_a_victory_scenario_is_refused(key):
    text = (f"kind: victory\nplayer: A\n{key}: {{width: 3, height: 3}}\n"
            'cells:\n  "0,0": {A: [{id: a, name: x, lv: 1, hp: 1, atk: 1, state: settled}]}\n')
    r = invoke("simulate", "-", input=text)
    clean_error(r, "3행", f"[{key}]", "승리확인", "고치는 법")
    r = invoke("simulate", "-", "--json", input=text)
    assert json.loads(r.stdout)["problems"][0]["key"] == key  # as written


# --------------------------------------- flamer validate: every scenario of the data ----
def _validate(root, *extra):
    return invoke("validate", "--data", str(root), *extra)


@pytest.mark.parametrize("written,problem", [("없는카드", "'없는카드'"), ("수문쟝", "'수문쟝'은")])
def test_validate_example_scenario_with_an_unknown_card(tree, written, problem):
    """An example scenario naming an unknown card (or one only a correction can read) was passed by
    validate and only `flamer examples` noticed."""
    assert _validate(tree.root).exit_code == 0, _validate(tree.root).stderr
    tree.replace("rules/examples/a.yaml", "{id: a, card: 수문장}", f"{{id: a, card: {written}}}")
    r = _validate(tree.root)
    clean_error(r, "rules/examples/a.yaml", "ex.a.first", problem)
    line = tree.line_of("rules/examples/a.yaml", written)
    assert f"{line}행" in r.stderr
    j = _validate(tree.root, "--json")
    out = json.loads(j.stdout)
    assert j.exit_code == 1 and out["ok"] is False
    assert out["problems"][0]["file"] == "rules/examples/a.yaml" and out["problems"][0]["line"] == line


def test_validate_faq_scenario_is_checked_too(tree):
    tree.replace("rules/faq.yaml", "  keywords: [질문]\n",
                 "  keywords: [질문]\n  scenario: {kind: combat, attacker: DGM, cells: {\"1,1\": {DGM: [{id: x, card: 없는카드}], "
                 "BGM: [{id: y, name: 적, lv: 1, hp: 1, atk: 1}]}}}\n")
    clean_error(_validate(tree.root), "rules/faq.yaml", "faq.a.first", "없는카드")


def test_validate_example_scenario_that_cannot_resolve(tree):
    tree.replace("rules/examples/a.yaml", "{id: a, card: 수문장}", "{id: a, card: 수문장, state: 정차}")
    clean_error(_validate(tree.root), "rules/examples/a.yaml", "정차")


def test_validate_json_shape_for_every_problem(tree):
    """Problems found after loading (the example board, effects) come in the same
    {"ok": false, "problems": […]} object as loading problems, not as {"error": …}."""
    tree.write("rules/boards/example.yaml", "- width: 7\n- height: 6\n")
    r = _validate(tree.root, "--json")
    out = json.loads(r.stdout)
    assert r.exit_code == 1 and out["ok"] is False and "error" not in out
    assert out["problems"][0]["file"] == "rules/boards/example.yaml"
    assert HANGUL.search(r.stderr)  # and the Korean message on stderr, as for every error


def test_validate_huge_number_in_data(tree):
    tree.replace("cards/cards.yaml", "  lv: 3\n", "  lv: " + "9" * 5000 + "\n")
    r = _validate(tree.root)
    clean_error(r, "cards/cards.yaml", "너무 큽니다", "[lv]")
    assert "Exceeds the limit" not in r.stderr


# ---------------------------------------------- the example board of the chosen tree ----
MOVE_NO_BOARD = """\
kind: move
attacker: A
cells:
  "1,1": {A: [{id: a, name: x, lv: 1, hp: 1, atk: 1}]}
activate: ["1,1"]
moves: [{piece: a, path: ["1,2"]}]
"""


@pytest.mark.parametrize("board,needle", [("- width: 7\n- height: 6\n", "'키: 값' 꼴"),
                                          ("width: 7\nheight: 6\nadjacency: [x]\n", "board.adjacency"),
                                          ("width: 7\nheight: [6\n", "YAML")])
def test_broken_example_board_is_a_clean_error(data_copy, board, needle):
    """A move scenario without a board on a data tree whose example board is broken: was "내부 오류"."""
    (data_copy / "rules" / "boards" / "example.yaml").write_text(board, encoding="utf-8")
    env = {"FLAMER_DATA": str(data_copy)}
    r = invoke("simulate", "-", input=MOVE_NO_BOARD, env=env)
    clean_error(r, "rules/boards/example.yaml", needle)
    j = invoke("simulate", "-", "--json", input=MOVE_NO_BOARD, env=env)
    out = json.loads(j.stdout)
    assert out["error"]["code"] == "data-error"
    assert out["problems"][0]["file"] == "rules/boards/example.yaml"
    ex = invoke("examples", "--json", env=env)  # the move examples say so, each, instead of crashing
    assert "내부 오류" not in ex.stdout + ex.stderr
    validate = invoke("validate", "--data", str(data_copy), env=env)
    clean_error(validate, "rules/boards/example.yaml")


def test_example_board_comes_from_the_chosen_data_tree(data_copy):
    (data_copy / "rules" / "boards" / "example.yaml").write_text(
        "label: 작은 예시 보드\nwidth: 3\nheight: 3\nadjacency: square4\n", encoding="utf-8")
    r = invoke("simulate", "-", "--json", input=MOVE_NO_BOARD, env={"FLAMER_DATA": str(data_copy)})
    assert r.exit_code == 0, r.stderr
    res = json.loads(r.stdout)
    assert res["board"]["label"] == "작은 예시 보드" and res["board"]["adjacency"] == "square4"
    # and in the library: a corpus read from a tree uses that tree's board and effects, whatever FLAMER_DATA says
    cachefile.MEMO.clear()
    c = corpus_mod.load(data_copy, use_cache=False)
    assert example_board_of(c)["label"] == "작은 예시 보드"
    assert example_board_of(corpus_mod.load(use_cache=False))["label"] != "작은 예시 보드"


def test_effects_come_from_the_chosen_data_tree(data_copy):
    (data_copy / "cards" / "effects.yaml").write_text("effects: []\n", encoding="utf-8")
    cachefile.MEMO.clear()
    assert effects_of(corpus_mod.load(data_copy, use_cache=False)) == {}
    assert effects_of(corpus_mod.load(use_cache=False))  # the bundled tree still has its effects


# ------------------------------------------------- templates are never data ----
PAYLOAD = "{{ cycler.__init__.__globals__.os.popen('touch %s').read() }}"


def test_data_tree_templates_are_never_rendered(data_copy, tmp_path):
    marker = tmp_path / "pwned"
    for rel in ("cli/rule.txt.j2", "cli/search.txt.j2", "simulate/combat.txt.j2", "simulate/combat.html.j2"):
        path = data_copy / "templates" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(PAYLOAD % marker, encoding="utf-8")
    scene = (data_root() / "scenarios" / "combat-scene5.yaml") if (data_root() / "scenarios").is_dir() else None
    runs = [["rule", "combat.step7.sweep"], ["search", "정착"]]
    if scene is not None:
        runs += [["simulate", str(scene)], ["simulate", str(scene), "--format", "html"]]
    for args in runs:
        p = flamer_fork.run(*args, data=data_copy, cache="", env={"PYTHONIOENCODING": "utf-8", "FLAMER_DEBUG": None},
                            timeout=60)
        assert p.returncode == 0, (args, p.stderr)
        assert p.stdout.strip() and "내부 오류" not in p.stderr
    assert not marker.exists(), "a data tree's template ran a shell command"
    v = invoke("validate", "--data", str(data_copy))
    clean_error(v, "templates/")


# -------------------------------------------------- Markdown and HTML escaping ----
TITLE = "제목 *굵게* _기울_ [링크](http://x) <b>html</b> `코드` | 파이프 ~~취소~~"
SCENES = {
    "combat": {"kind": "combat", "title": TITLE, "attacker": "<S>", "cells": {"1,1": {
        "<S>": [{"id": "p[1]", "name": "<i>이름</i>", "lv": 3, "hp": 3, "atk": 1}, {"id": "r_3_", "card": "수문장"}],
        "*T*": [{"id": "q`2`", "name": "*별*", "lv": 1, "hp": 1, "atk": 1}]}}},
    "move": {"kind": "move", "title": TITLE, "attacker": "<S>",
             "board": {"width": 4, "height": 4, "label": "<u>보드</u> *b*"},
             "cells": {"1,1": {"<S>": [{"id": "p[1]", "name": "<i>이름</i>", "lv": 3, "hp": 3, "atk": 1}]},
                       "2,2": {"*T*": [{"id": "q`2`", "name": "*별*", "lv": 1, "hp": 1, "atk": 1}]}},
             "activate": ["1,1"], "moves": [{"piece": "p[1]", "path": ["2,2"]}]},
    "victory": {"kind": "victory", "title": TITLE, "player": "<S>", "homes": {"*T*": ["2,2", "3,3"]},
                "cells": {"1,1": {"<S>": [{"id": "p[1]", "name": "<i>이름</i>", "lv": 3, "hp": 3, "atk": 1,
                                           "state": "settled"}]},
                          "2,2": {"*T*": [{"id": "q`2`", "name": "*별*", "lv": 1, "hp": 1, "atk": 1}]}}},
    "field": {"kind": "field", "title": TITLE, "side": "<S>", "field": ["수문장", None, None, None, None],
              "actions": [{"place": "장인", "slot": 2, "face": "up"}]},
    "round": {"kind": "round", "title": TITLE, "player": "<S>",
              "board": {"width": 4, "height": 4, "label": "<u>보드</u> *b*", "values": {"1,1": 1}},
              "cells": {"1,1": {"<S>": [{"id": "p[1]", "name": "<i>이름</i>", "lv": 3, "hp": 3, "atk": 1,
                                         "state": "settled"}]},
                        "2,2": {"*T*": [{"id": "q````2````", "name": "*별*", "lv": 1, "hp": 1, "atk": 1}]}},
              "move": {"activate": ["1,1"], "moves": []}},
}
#: what would be read as Markdown (emphasis, link, code, raw HTML, table cell, strike) if written raw
MD_RAW = ["*굵게*", "_기울_", "[링크](", "<b>", "<u>", "`코드`", "<S>", "*T*", "p[1]", "q`2`", "<i>", "*별*", "~~취소~~",
          "| 파이프", "*b*", "r_3_"]


def _outside_code(md: str) -> str:
    """The Markdown that is read as Markdown: fenced code blocks (``` or longer, as CommonMark) removed."""
    out, fence = [], None
    for line in md.splitlines():
        m = re.match(r"^(`{3,})", line)
        if fence is None and m:
            fence = m.group(1)
            continue
        if fence is not None:
            if re.match(rf"^`{{{len(fence)},}}\s*$", line):
                fence = None
            continue
        out.append(line)
    assert fence is None, "a code fence was never closed (input closed it early?)"
    return "\n".join(out)


def _unescaped(text: str, token: str) -> bool:
    return any(i == 0 or text[i - 1] != "\\" for i in (m.start() for m in re.finditer(re.escape(token), text)))


@pytest.mark.parametrize("kind", sorted(SCENES))
def test_markdown_escapes_every_input_text(kind):
    text = yaml.safe_dump(SCENES[kind], allow_unicode=True)
    r = invoke("simulate", "-", "--format", "md", input=text)
    assert r.exit_code == 0, r.stderr
    md = _outside_code(r.stdout)
    for token in MD_RAW:
        assert not _unescaped(md, token), (kind, token, md[:3000])
    assert "<" not in md.replace("<br>", ""), md  # no raw HTML from the input at all


@pytest.mark.parametrize("kind", sorted(SCENES))
def test_html_escapes_every_input_text(kind):
    text = yaml.safe_dump(SCENES[kind], allow_unicode=True)
    r = invoke("simulate", "-", "--format", "html", input=text)
    assert r.exit_code == 0, r.stderr
    for token in ("<S>", "<i>", "<u>", "<b>html"):
        assert token not in r.stdout, (kind, token)
    assert "&lt;S&gt;" in r.stdout


def test_markdown_code_fence_outlasts_backticks_in_input():
    # people read a piece's name, not its id (issue 17): the backticks go in the name the page prints
    text = yaml.safe_dump(SCENES["round"], allow_unicode=True).replace("'*별*'", "'*별````2````*'")
    assert "````2````*" in text
    r = invoke("simulate", "-", "--format", "md", input=text)
    fences = [ln for ln in r.stdout.splitlines() if ln.startswith("```")]
    assert any(f.startswith("`````") for f in fences), fences  # 4 backticks in a name: a fence of 5
    _outside_code(r.stdout)  # every fence closes where it should


def test_faq_markdown_escapes_data_text(data_copy):
    faq = data_copy / "rules" / "faq.yaml"
    text = faq.read_text(encoding="utf-8")
    first_q = re.search(r"^  question: (.+)$", text, re.M)
    text = text[:first_q.start(1)] + '"<b>굵게</b> *별* [링크](x) `코드` | 칸"' + text[first_q.end(1):]
    faq.write_text(text, encoding="utf-8")
    r = invoke("faq", "--format", "md", env={"FLAMER_DATA": str(data_copy)})
    assert r.exit_code == 0, r.stderr
    md = _outside_code(r.stdout)
    assert "굵게" in md
    for token in ("<b>", "*별*", "[링크](", "`코드`", "| 칸"):
        assert not _unescaped(md, token), token


# --------------------------------------------------------------- odd terminals ----
def test_option_with_an_extra_value_is_a_korean_usage_error():
    p = flamer_fork.run("cards", "--structure", "maybe", timeout=60, env={"PYTHONIOENCODING": "utf-8"})
    assert p.returncode == 2
    assert "Got unexpected" not in p.stderr and "사용법 오류" in p.stderr and "maybe" in p.stderr


def test_full_disk_leaves_no_temp_file_and_answers_stay(tmp_path, monkeypatch):
    """A cache write that fails half-way (a full disk) leaves nothing behind and changes no answer;
    the next run writes the cache."""
    from datatree import write_minimal_corpus

    root = write_minimal_corpus(tmp_path / "data").root
    cache = tmp_path / "cache"
    monkeypatch.setenv("FLAMER_CACHE_DIR", str(cache))
    cachefile.MEMO.clear()
    expected = corpus_mod.load(root, use_cache=False).to_plain()

    def full(src, dst):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(cachefile.os, "replace", full)
    cachefile.MEMO.clear()
    assert corpus_mod.load(root).to_plain() == expected
    assert searchindex.load_index(root)
    assert not [p for p in cache.iterdir() if p.suffix == ".tmp" or ".tmp" in p.name] if cache.exists() else True
    monkeypatch.undo()
    monkeypatch.setenv("FLAMER_CACHE_DIR", str(cache))
    cachefile.MEMO.clear()
    assert corpus_mod.load(root).to_plain() == expected
    assert sorted(p.suffix for p in cache.iterdir()) == [".corpus"]  # the index is cached by the search's room
    assert searchindex.load_index(root)
    assert sorted(p.suffix for p in cache.iterdir()) == [".corpus", ".index", ".pairs"]


# ------------------------------------------------------------- unbounded work ----
def test_thousand_cells_of_ten_rounds_in_seconds():
    """1,000 cells × 5 rounds each (the largest legal scenario: MAX_TOTAL_ROUNDS is 5,000 since issue 20):
    was a hang, now a few seconds."""
    from flamer_ref.engine.combat import MAX_TOTAL_ROUNDS

    rounds = MAX_TOTAL_ROUNDS // 1000
    cells = {f"{i % 40},{i // 40}": {"A": [{"id": f"a{i}", "name": "x", "lv": 3, "hp": rounds, "atk": 1}],
                                     "B": [{"id": f"b{i}", "name": "y", "lv": 2, "hp": rounds, "atk": 1}]}
             for i in range(1000)}
    text = yaml.dump({"kind": "combat", "attacker": "A", "cells": cells}, Dumper=CDumper)
    r = invoke("simulate", "-", "--json", input=text)  # its time: benchmarks/big_scenario.py
    assert r.exit_code == 0, r.stderr
    res = json.loads(r.stdout)
    assert len(res["cells"]) == 1000 and res["cells"]["0,0"]["rounds"] == rounds
    assert not res["unresolved"]  # every cell computed in full: the budget is just enough
    assert sorted(res["prisoners"]["A"]) == sorted(f"b{i}" for i in range(1000))


def test_rounds_of_all_cells_together_are_bounded():
    """Every cell under the per-cell limit, but 1,000 of them: the scenario's budget (MAX_TOTAL_ROUNDS)
    stops the combats still going as honest round-limit gaps, instead of minutes and gigabytes."""
    from flamer_ref.engine.combat import MAX_TOTAL_ROUNDS
    from flamer_ref.engine.types import MAX_ROUNDS

    n = 1000
    cells = {f"{i % 40},{i // 40}": {"A": [{"id": f"a{i}", "name": "x", "lv": 3, "hp": 999, "atk": 1}],
                                     "B": [{"id": f"b{i}", "name": "y", "lv": 2, "hp": 998, "atk": 1}]}
             for i in range(n)}
    text = yaml.dump({"kind": "combat", "attacker": "A", "cells": cells}, Dumper=CDumper)
    r = invoke("simulate", "-", "--json", input=text)
    assert r.exit_code == 0, r.stderr
    res = json.loads(r.stdout)
    assert sum(c["rounds"] for c in res["cells"].values()) <= MAX_TOTAL_ROUNDS + n
    decided = [c for c, v in res["cells"].items() if v["end"] == "decided"]
    assert decided and all(res["cells"][c]["rounds"] == 998 for c in decided)  # computed in full while budget lasts
    gaps = [u for u in res["unresolved"] if u["reason"] == "round-limit"]
    assert len(gaps) == n - len(decided)
    assert all(u["total"] == MAX_TOTAL_ROUNDS and u["limit"] < MAX_ROUNDS for u in gaps)
    assert "모든 셀을 합친 계산 한도" in gaps[0]["message"] and f"{MAX_TOTAL_ROUNDS:,}" in gaps[0]["message"]
    for c in res["cells"].values():  # stopped cells: nobody captured, both still there
        if c["end"] == "stalemate":
            assert c["occupant"] is None and all(c["survivors"].values())


def test_a_small_scenario_is_not_touched_by_the_budget():
    text = yaml.safe_dump({"kind": "combat", "attacker": "A", "cells": {
        "1,1": {"A": [{"id": "a", "name": "x", "lv": 3, "hp": 999, "atk": 1}],
                "B": [{"id": "b", "name": "y", "lv": 2, "hp": 998, "atk": 1}]}}})
    res = json.loads(invoke("simulate", "-", "--json", input=text).stdout)
    assert res["cells"]["1,1"]["rounds"] == 998 and not res["unresolved"]


# ------------------------------------------------ found by tests/hardening/test_fuzz_data.py ----
def test_example_board_with_a_lost_values_line_is_a_clean_error(data_copy):
    """A dropped `values:` line puts the cell values under `homes` (homes.BGM: [...], homes."2,2": 0):
    was "내부 오류" (TypeError: 'int' object is not iterable) in validate and every command."""
    path = data_copy / "rules" / "boards" / "example.yaml"
    text = path.read_text(encoding="utf-8")
    assert "\nvalues:\n" in text
    path.write_text(text.replace("\nvalues:\n", "\n"), encoding="utf-8")
    clean_error(invoke("validate", "--data", str(data_copy)), "rules/boards/example.yaml", "board.homes")
    clean_error(invoke("simulate", "-", input=MOVE_NO_BOARD, env={"FLAMER_DATA": str(data_copy)}),
                "본진 셀의 목록")


@pytest.mark.parametrize("board,needle", [('{width: 4, height: 4, values: {"1,1": abc}}', "board.values"),
                                          ("{width: 4, height: 4, homes: {B: 5}}", "board.homes.B")])
def test_board_values_and_homes_of_the_wrong_type(board, needle):
    text = (f"kind: round\nplayer: A\nboard: {board}\n"
            'cells:\n  "1,1": {A: [{id: a, name: x, lv: 1, hp: 1, atk: 1}]}\n')
    clean_error(invoke("simulate", "-", input=text), "3행", needle, "고치는 법")


# ---------------------------------- found by tests/hardening/test_fuzz_scenarios.py (mutations) ----
@pytest.mark.parametrize("kind", ["move", "combat", "victory"])
def test_empty_quoted_value_in_a_message(kind):
    """An empty as_of ('') reached the Korean particle chooser: was "내부 오류" (TypeError in ord())."""
    key = "player" if kind == "victory" else "attacker"
    text = f"kind: {kind}\nas_of: ''\n{key}: DGM\ncells:\n  '0,0': {{DGM: [{{card: 수문장, hp: 1}}]}}\n"
    clean_error(invoke("simulate", "-", input=text), "2행", "[as_of]", "''")
