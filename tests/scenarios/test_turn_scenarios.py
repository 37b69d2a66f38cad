"""Scenario kinds move, victory and field through `flamer simulate` (the spec's
result keys, Korean messages, invalid input, --compare) and the rulebook's
examples through `flamer examples`."""

from __future__ import annotations

import functools
import json
from pathlib import Path

import pytest
import flamer_fork  # noqa: E402 (tests/flamer_fork.py)

from flamer_ref.corpus import load
from flamer_ref.engine.turns import parse_any, run_any
from flamer_ref.render import word_result
from flamer_ref.yamlio import parse_text

SPEC = Path(__file__).resolve().parent.parent.parent.parent / "shared" / "spec" / "examples"


run = functools.partial(flamer_fork.run, timeout=60)  # a real process, forked from a warm interpreter


def sim(text: str, as_of=None):
    corpus = load()
    # the engine emits no sentences; the presentation layer words errors and gaps
    return word_result(run_any(parse_any(parse_text(text, "t.yaml"), "t.yaml", corpus), corpus, as_of))


def write(tmp_path, text):
    p = tmp_path / "s.yaml"
    p.write_text(text, encoding="utf-8")
    return str(p)


@pytest.mark.skipif(not SPEC.is_dir(), reason="shared/spec not beside the checkout")
def test_spec_samples_give_the_stated_results():
    d = json.loads(run("simulate", str(SPEC / "move-scene3.yaml"), "--json").stdout)
    assert d["valid"] is True and d["errors"] == [] and d["encounters"] == ["2,4"] and d["positions"]["gk2"] == "1,5"
    d = json.loads(run("simulate", str(SPEC / "victory-scene1.yaml"), "--json").stdout)
    assert d["secured"] == {"DGM": 4, "BGM": 2} and d["vp_gain"] == 2 and d["vp"]["DGM"] == 5
    assert d["winner"] is None and d["reasons"] == []
    d = json.loads(run("simulate", str(SPEC / "field-byeolmadae.yaml"), "--json").stdout)
    assert d["levels"]["수문장"] == 6 and set(d["active"]) == {"수문장", "장인", "별마대", "봉수장"}
    assert d["errors"] == [] and d["retired"] == []
    assert sum(1 for s in d["slots"] if s["top"] is None) == 1


def test_move_errors_carry_reason_rule_and_korean_message():
    d = sim("""
kind: move
attacker: A
board: {width: 5, height: 5}
cells:
  "1,1": {A: [{id: gk, card: 수문장}]}
  "2,1": {B: [{id: x, name: 적, lv: 1, hp: 1, atk: 1, state: settled}]}
activate: ["1,1"]
moves:
- {piece: gk, path: ["2,1", "3,1"]}
""")
    assert d["valid"] is False
    e = d["errors"][0]
    assert (e["move"], e["piece"], e["reason"], e["rule"]) == (0, "gk", "blocked-by-enemy", "move.path.enemy-stop")
    assert "2,1" in e["message"] and "이동" in e["message"]
    # 이동턴 page, 경로 중간의 상대 셀: "수문장이 B셀에 들어가는 순간 이동이 끝난다 … B셀은 조우 셀이 된다"
    assert e["detail"]["ended"] == "2,1" and "조우 셀" in e["message"]
    assert d["positions"]["gk"] == "2,1" and d["encounters"] == ["2,1"]


def test_move_without_board_uses_the_labelled_example_board():
    d = sim("""
kind: move
attacker: A
cells:
  "1,2": {A: [{id: gk, card: 수문장}]}
  "6,5": {B: [{id: x, card: 거신}]}
activate: ["1,2"]
moves:
- {piece: gk, path: ["2,3", "2,4"]}
""")
    assert d["valid"] and d["assumed"] and "예시" in d["assumed"][0]["value"]


def test_sp_move_from_card_data():
    d = sim("""
kind: move
attacker: A
board: {width: 7, height: 6}
cells:
  "3,5": {A: [{id: amb, card: 잠복군}]}
  "0,0": {B: [{id: x, card: 거신}]}
moves:
- {piece: amb, path: ["4,5", "5,5"], sp: 비행}
""")
    assert d["valid"] and d["positions"]["amb"] == "5,5"


def test_victory_home_win():
    d = sim("""
kind: victory
player: A
vp: {A: 0, B: 0}
homes: {B: ["5,5", "6,4"]}
cells:
  "5,5": {A: [{id: a, card: 잠복군}]}
""")
    assert d["winner"] == "A" and d["reasons"] == ["home"]


def test_field_compare_across_the_entry_effect_revision(tmp_path):
    path = write(tmp_path, """
kind: field
side: DGM
field: [수문장, 장인, 별마대, null, null]
actions:
- {place: 진내폭격, slot: 3, face: down}
""")
    p = run("simulate", path, "--as-of", "2026-09-25", "--compare", "2026-09-01", "--json")
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout)
    assert any(x["path"] == "levels.수문장" for x in d["differences"])
    assert any(r["ruling"] == "ruling.2026-09-04.entry-effect-duration" for r in d["by_ruling"])


@pytest.mark.parametrize("text,needle", [
    ("kind: move\nattacker: A\ncells:\n  \"1,1\": {A: [{id: a, card: 수문장}]}\nmoves:\n- {piece: zz, path: [\"1,2\"]}\n",
     "zz"),
    ("kind: victory\nplayer: A\nvp: {A: x}\ncells: {}\n", "vp"),
    ("kind: field\nside: A\nfield: [수문장]\n", "field"),
    ("kind: field\nside: A\nfield: [수문장, null, null, null, null]\nactions:\n- {place: 별마대대장군, slot: 2}\n", "별마대"),
    ("kind: move\nattacker: A\nbogus: 1\ncells:\n  \"1,1\": {A: [{id: a, card: 수문장}]}\n", "bogus"),
    ("kind: victory\nplayer: !!python/object:os.system A\n", "태그"),
    ("kind: move\nactivate: [\"1,1\"\nmoves: []\n", "닫히지"),
    ("kind: move\n\tattacker: A\n", "탭"),
])
def test_invalid_scenarios_are_one_korean_message_exit_1(tmp_path, text, needle):
    p = run("simulate", write(tmp_path, text))
    assert p.returncode == 1
    assert needle in p.stderr and "s.yaml" in p.stderr
    assert "Traceback" not in p.stderr and p.stdout == ""


def test_people_output_for_each_kind(tmp_path):
    for text, must in (("kind: victory\nplayer: A\nvp: {A: 6, B: 0}\ncells:\n  \"1,1\": {A: [{id: a, card: 수문장, state: settled}]}\n",
                        "A 승리"),
                       ("kind: field\nside: A\nfield: [수문장, null, null, null, null]\nactions:\n- {place: 봉수장, slot: 2}\n",
                        "고급")):
        p = run("simulate", write(tmp_path, text))
        assert p.returncode == 0 and must in p.stdout


def test_examples_command_runs_every_kind():
    p = run("examples", "--json")
    assert p.returncode == 0, p.stdout[-2000:]
    d = json.loads(p.stdout)
    kinds = {r["kind"] for r in d["examples"]}
    assert kinds >= {"combat", "move", "victory", "field"}
    assert d["counts"]["fail"] == 0 and d["counts"]["skipped"] == 0 and d["counts"]["pass"] >= 20


def test_every_cited_rule_resolves():
    corpus = load()
    known = set(corpus.clauses) | set(corpus.interpretations) | set(corpus.rulings)
    from flamer_ref.runner import _ids_in

    checked = 0
    for ex in corpus.examples.values():
        scns = ex.get("scenario")
        if not scns:
            continue
        for s in scns if isinstance(scns, list) else [scns]:
            if s["kind"] == "combat":
                continue
            d = run_any(parse_any(s, ex["id"], corpus), corpus)
            ids: set = set()
            _ids_in(d, ids)
            assert ids <= known, ids - known
            checked += 1
    assert checked >= 5  # the examples' move/victory/field/round/game scenarios were run


def test_cell_full_is_reachable_and_messages_read_well():
    d = sim("""
kind: move
attacker: A
board: {width: 7, height: 6}
cells:
  "0,0": {A: [{id: a1, card: 수문장}, {id: a2, card: 장인}]}
  "2,2": {A: [{id: g1, card: 장인}, {id: g2, card: 장인}], B: [{id: b1, card: 거신}, {id: b2, card: 거신}, {id: b3, card: 거신}]}
activate: ["0,0"]
moves:
- {piece: a1, path: ["1,1", "2,2"]}
- {piece: a2, path: ["1,1", "2,2"]}
- {piece: a2, path: ["1,0"], sp: 비행}
""")
    assert [(e["move"], e["reason"]) for e in d["errors"]] == [(1, "cell-full"), (2, "no-such-sp")]
    assert "6기" in d["errors"][0]["message"]
    # the piece's card is named once, and particles after a cell number are chosen, not '은(는)'
    assert "a2(장인)에는" in d["errors"][1]["message"] and "(장인)(장인)" not in d["errors"][1]["message"]
    assert d["positions"]["a1"] == "2,2" and d["encounters"] == ["2,2"]


def test_move_errors_for_excess_activation_cells_have_an_index():
    d = sim("""
kind: move
attacker: A
first_round: true
board: {width: 7, height: 6}
cells:
  "0,0": {A: [{id: a1, card: 수문장}]}
  "3,3": {A: [{id: a2, card: 장인}]}
  "6,5": {B: [{id: b1, card: 거신}]}
activate: ["0,0", "3,3"]
moves:
- {piece: a1, path: ["1,1"]}
- {piece: a2, path: ["3,4"]}
""")
    assert [(e["move"], e["piece"], e["reason"]) for e in d["errors"]] == [(1, "a2", "too-many-cells")]
    assert "1곳" in d["errors"][0]["message"] and "3,3은" in d["errors"][0]["message"]
    assert d["positions"] == {"a1": "1,1", "a2": "3,3", "b1": "6,5"}


def test_pieces_must_stand_on_the_board(tmp_path):
    p = run("simulate", write(tmp_path, """kind: move
attacker: A
board: {width: 3, height: 3, sea: ["1,1"]}
cells:
  "1,1": {A: [{id: a1, card: 수문장}]}
  "9,9": {B: [{id: b1, card: 거신}]}
"""))
    assert p.returncode == 1 and "Traceback" not in p.stderr
    assert "s.yaml 5행 [cells.1,1]" in p.stderr and "바다" in p.stderr
    assert "s.yaml 6행 [cells.9,9]" in p.stderr
    # without board: the example board is only assumed, so a piece off it is a reported gap
    d = sim('kind: move\nattacker: A\ncells:\n  "9,9": {A: [{id: a1, card: 수문장}]}\n  "1,1": {B: [{id: b, card: 거신}]}\n')
    assert d["unresolved"][0]["reason"] == "outside-example-board" and "9,9" in d["unresolved"][0]["message"]


def test_field_and_move_list_items_name_their_line(tmp_path):
    p = run("simulate", write(tmp_path, "kind: field\nside: A\nfield: [수문장대장군, {up: 장인}, null, null, null]\n"
                                        "actions:\n- trash 3\n"))
    assert p.returncode == 1
    assert "s.yaml 3행 [field[0]]" in p.stderr and "수문장" in p.stderr
    assert "s.yaml 3행 [field[1]]" in p.stderr and "s.yaml 4행 [actions[0]]" in p.stderr


def test_compare_and_all_branches_print_for_people_for_every_turn_kind(tmp_path):
    # regression: the text templates of --compare / --all-branches assumed a combat result
    texts = {
        "move": "kind: move\nattacker: A\nboard: {width: 5, height: 5}\ncells:\n  \"1,1\": {A: [{id: a, card: 수문장}]}\n"
                "  \"3,3\": {B: [{id: b, card: 거신}]}\nactivate: [\"1,1\"]\nmoves:\n- {piece: a, path: [\"2,2\", \"3,3\"]}\n",
        "victory": "kind: victory\nplayer: A\nvp: {A: 6, B: 0}\ncells:\n  \"1,1\": {A: [{id: a, card: 수문장, state: settled}]}\n",
        "field": "kind: field\nside: A\nfield: [수문장, 장인, 별마대, null, null]\nactions:\n- {place: 진내폭격, slot: 3, face: down}\n",
    }
    musts = {"move": "조우 셀: (3,3)", "victory": "승자: A", "field": "은퇴: 별마대"}
    for kind, text in texts.items():
        path = write(tmp_path, text)
        p = run("simulate", path, "--compare", "2026-09-01")
        assert p.returncode == 0, p.stderr
        assert musts[kind] in p.stdout and "내부 오류" not in p.stderr
        p = run("simulate", path, "--all-branches")
        assert p.returncode == 0, p.stderr
        assert musts[kind] in p.stdout
    p = run("simulate", write(tmp_path, texts["field"]), "--compare", "2026-09-01")
    assert "수문장 6" in p.stdout and "수문장 3" in p.stdout  # 병풍 kept before the 09-04 revision


def test_sp_named_with_its_timing_tag():
    d = sim('kind: move\nattacker: A\nboard: {width: 7, height: 6}\ncells:\n  "3,3": {A: [{id: amb, card: 잠복군}]}\n'
            '  "0,0": {B: [{id: x, card: 거신}]}\nmoves:\n- {piece: amb, path: ["4,4", "5,5"], sp: "(이동) 비행"}\n')
    assert d["valid"] and d["positions"]["amb"] == "5,5"


@pytest.mark.parametrize("text,must", [
    # regression: the 결속 line of the text account raised an internal error
    ("kind: field\nside: B\nfield: [개미, 증폭기, null, null, null]\n", "결속: 증폭기 ↔ 개미"),
    ("kind: field\nside: B\nas_of: 2026-09-03\nfield: [개미, 증폭기, null, null, null]\nactions:\n"
     "- {place: 재부팅, slot: 2, face: down}\n", "영구 적용"),
    ("kind: field\nside: A\nfield: [수문장, {set: 별마대}, null, null, null]\nactions:\n"
     "- {place: 진내폭격, slot: 2, face: down}\n- {trash: 2}\n", "뒷면 그대로"),
    ("kind: move\nattacker: A\nboard: {width: 7, height: 6}\ncells:\n  \"0,0\": {A: [{id: amb, card: 잠복군}]}\n"
     "  \"1,1\": {B: [{id: x, card: 거신}]}\nactivate: [\"0,0\"]\nmoves:\n- {piece: amb, path: [\"1,1\"]}\n"
     "- {piece: amb, path: [\"2,2\"], sp: 비행}\n", "이동이 이미 끝났습니다"),
])
def test_people_output_of_more_situations(tmp_path, text, must):
    p = run("simulate", write(tmp_path, text))
    assert p.returncode == 0, p.stderr
    assert must in " ".join(p.stdout.split())  # the account is wrapped at 78 columns


def test_a_second_normal_move_is_reported_not_an_internal_error():
    # regression: the message template read a detail key the error does not carry
    d = sim('kind: move\nattacker: A\nboard: {width: 5, height: 5}\ncells:\n  "0,0": {A: [{id: a, card: 수문장}]}\n'
            '  "4,4": {B: [{id: b, card: 거신}]}\nactivate: ["0,0"]\nmoves:\n- {piece: a, path: ["0,1"]}\n'
            '- {piece: a, path: ["0,2"]}\n')
    assert [(e["move"], e["reason"]) for e in d["errors"]] == [(1, "already-moved")]
    assert "이미" in d["errors"][0]["message"] and d["positions"]["a"] == "0,1"


def test_shipped_sample_scenarios_resolve():
    root = Path(__file__).resolve().parent.parent.parent / "scenarios"
    files = sorted(root.glob("*.yaml"))
    assert len(files) >= 6
    for f in files:
        p = run("simulate", str(f), "--json")
        assert p.returncode == 0, (f, p.stderr)
        assert json.loads(p.stdout)["kind"] in ("combat", "move", "victory", "field", "round", "game")
