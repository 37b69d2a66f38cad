"""Regression tests for faults an adversarial review found in kind round (shared/spec/scenarios.md,
kind: round; the round-structure page seeds/002). Each test names the page sentence or spec line it
rests on."""

from __future__ import annotations

import functools
import json
import textwrap

import pytest
import flamer_fork  # noqa: E402 (tests/flamer_fork.py)

from flamer_ref.engine.turns import parse_any
from flamer_ref.errors import DataError
from flamer_ref.yamlio import parse_text
from test_round import BOARD, _corpus, sim, turn  # the same board, corpus and helpers as the round tests

# 장면 1 → 장면 3 → 장면 5 of the pages as one round of DGM, without any response declaration
SCENE = """\
kind: round
player: DGM
vp: {DGM: 3, BGM: 1}
dor: {DGM: 20, BGM: 0}
""" + BOARD + """\
field:
  DGM: [수문장, 장인, 갑사, 별마대, null]
  BGM: [개미, 증폭기, 행성굴착기, 거신, {set: 재부팅}]
cells:
  "0,2": {DGM: [{id: d1, card: 수문장, state: settled}]}
  "2,2": {DGM: [{id: d2, card: 수문장, state: settled}]}
  "3,0": {DGM: [{id: d3, card: 장인, state: settled}]}
  "5,0": {DGM: [{id: d4, card: 갑사, state: settled}]}
  "1,2": {DGM: [{id: gk, card: 수문장}, {id: art, card: 장인}, {id: star, card: 별마대}]}
  "2,4": {BGM: [{id: drill, card: 행성굴착기, state: settled}, {id: amp, card: 증폭기, state: settled}, {id: giant, card: 거신}]}
  "4,4": {BGM: [{id: b2, card: 개미, state: settled}]}
  "3,3": {DGM: [{id: g2, card: 수문장}]}
move:
  activate: ["1,2", "3,3"]
  moves:
  - {piece: gk, path: ["2,3", "2,4"]}
  - {piece: art, path: ["2,3", "2,4"]}
  - {piece: star, path: ["2,3", "2,4"]}
  - {piece: g2, path: ["4,4"]}
"""
RESPONSE = """\
response:
- {side: BGM, card: 재부팅, target: drill}
"""


def problems(text: str) -> list:
    corpus = _corpus()
    with pytest.raises(DataError) as exc:
        parse_any(parse_text(textwrap.dedent(text), "r.yaml"), "r.yaml", corpus)
    return exc.value.problems


cli = functools.partial(flamer_fork.run, timeout=120)  # a real process, forked warm


# ------------------------------------------------ 1. placement gap only for placed pieces ----
def test_refused_production_reports_no_placement_cell_gap():
    """Spec: unresolved is 'every gap any turn met, e.g. a production cost or placement cell the pages
    do not state' — a refused production (cell off the board) placed nothing, so there is no
    placement cell to be unsure of; it is an error of the 생산턴, not a gap."""
    res = sim("""\
        kind: round
        player: DGM
        field:
          DGM: [수문장, 장인, 갑사, 별마대, null]
        dor: {DGM: 20}
        cells:
          "0,0": {DGM: [{id: a, card: 수문장, state: settled}]}
          "6,5": {BGM: [{id: x, card: 개미, state: settled}]}
        produce: [{card: 별마대, cell: "9,9"}]
        """)
    p = turn(res, "production")
    assert p["placed"] == [] and [e["reason"] for e in p["errors"]] == ["off-board"]
    assert not any(u["reason"] == "production-cell-unknown" for u in res["unresolved"])
    assert not any("9,9" in (u.get("message") or "") for u in res["unresolved"])


def test_placement_gap_names_only_the_cells_of_placed_pieces():
    """Spec (produce): one new piece each 'its cost is paid from dor' — a production that cannot be
    paid or whose card is not on the field is refused; the gap lists only where pieces went."""
    res = sim("""\
        kind: round
        player: DGM
        board: {width: 7, height: 6}
        field:
          DGM: [수문장, 장인, 갑사, 별마대, null]
        dor: {DGM: 13}
        cells:
          "0,0": {DGM: [{id: a, card: 수문장}]}
          "6,5": {BGM: [{id: x, card: 개미, state: settled}]}
        produce:
        - {card: 별마대, cell: "0,1"}
        - {card: 별마대, cell: "1,1"}
        - {card: 잠복군, cell: "2,2"}
        """)
    p = turn(res, "production")
    assert [x["cell"] for x in p["placed"]] == ["0,1"]
    assert {e["reason"] for e in p["errors"]} == {"not-enough-dor", "card-not-on-field"}
    gaps = [u for u in res["unresolved"] if u["reason"] == "production-cell-unknown"]
    assert len(gaps) == 1 and gaps[0]["cells"] == ["0,1"]
    assert gaps[0] in p["unresolved"]


# ------------------------------------------------------------ 2. negative cell values ----
NEG_BOARD = '{width: 7, height: 6, values: {"0,2": -4}}'


@pytest.mark.parametrize("kind_text", [
    # round
    """\
    kind: round
    player: DGM
    board: BOARD
    cells:
      "0,2": {DGM: [{id: a, card: 수문장, state: settled}]}
      "6,5": {BGM: [{id: x, card: 개미, state: settled}]}
    """,
    # move
    """\
    kind: move
    attacker: DGM
    board: BOARD
    cells:
      "0,2": {DGM: [{id: a, card: 수문장}]}
    activate: ["0,2"]
    moves: [{piece: a, path: ["0,3"]}]
    """,
    # combat
    """\
    kind: combat
    attacker: DGM
    board: BOARD
    cells:
      "0,2": {DGM: [{id: a, card: 수문장}], BGM: [{id: x, card: 개미, state: settled}]}
    """,
], ids=["round", "move", "combat"])  # kind victory takes no board (victory-board)
def test_negative_cell_value_is_an_invalid_scenario(kind_text):
    """Page (보급턴 장면 1): '셀에 적힌 가치 숫자는 보급턴의 수익에서만 씁니다' — a value is income in
    도르, never below 0 (a value of −4 gave '+-4도르'). Spec: 'A malformed file is invalid (exit 1)',
    with file, line and key; in every kind that reads a board."""
    probs = problems(kind_text.replace("BOARD", NEG_BOARD))
    assert len(probs) == 1
    pr = probs[0]
    assert pr.code == "board-value-negative" and pr.file == "r.yaml" and pr.line is not None
    assert pr.key == "board.values.0,2"
    assert "-4" in pr.message and "음수" in pr.message and pr.fix


def test_negative_cell_value_names_its_own_line_and_exits_1(tmp_path):
    """Spec: a malformed file is invalid (exit 1) — one Korean message naming the file, the line of the
    offending value and the key."""
    text = SCENE.replace('"0,2": 1,', '"0,2": -4,')
    f = tmp_path / "neg.yaml"
    f.write_text(text, encoding="utf-8")
    r = cli("simulate", str(f))
    assert r.returncode == 1 and "Traceback" not in r.stderr
    line = next(i for i, ln in enumerate(text.splitlines(), 1) if ln.strip().startswith("values:"))
    assert f"{line}행" in r.stderr and "board.values.0,2" in r.stderr and "음수" in r.stderr
    # zero is a value (장면 1: '가치 0인 (2,2)'), still accepted
    ok = sim(SCENE)
    assert {"cell": "2,2", "value": 0} in turn(ok, "supply")["cells"]


# ------------------------------------------------------ 3. --all-branches of a round ----
def test_all_branches_of_a_round_enumerates_its_combat_orders():
    """Spec (kind round): 'response, battle_cards, combat_order: as in kind combat' — the round's 전투턴
    fought two cells with a response stack, so the attacker's order is a real choice: each order is
    run as a whole round, never 'not a combat scenario'."""
    r = cli("simulate", "-", "--all-branches", "--json", input=SCENE + RESPONSE)
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["kind"] == "branches" and d.get("note") != "no-choices"
    assert d["combat_cells"] == ["2,4", "4,4"]
    orders = [o for b in d["branches"] for o in b["orders"]]
    assert sorted(map(tuple, orders)) == [("2,4", "4,4"), ("4,4", "2,4")]
    assert d["orders_tried"] == 2 and d["distinct"] == len(d["branches"])
    for b in d["branches"]:
        assert b["outcome"]["kind"] == "round" and b["error"] is None
        # each branch ran the order it names: the combat turn fought in that order first
        fought = turn(b["outcome"], "combat")
        assert set(fought["cells"]) == {"2,4", "4,4"}
    text = cli("simulate", "-", "--all-branches", input=SCENE + RESPONSE).stdout
    assert "전투 시나리오가 아니라" not in text
    assert "(2,4) → (4,4)" in text and "(4,4) → (2,4)" in text and "라운드:" in text  # cells as (x,y)


def test_all_branches_of_a_round_with_independent_cells_says_the_order_cannot_matter():
    """runner.branches' rule: no response stack, no (전투) card, no remote SP — the cells are fought
    independently and every order gives the same result; said truthfully, one branch."""
    r = cli("simulate", "-", "--all-branches", "--json", input=SCENE)
    d = json.loads(r.stdout)
    assert d["note"] == "independent" and d["orders_tried"] == 1 and d["combat_cells"] == ["2,4", "4,4"]
    text = cli("simulate", "-", "--all-branches", input=SCENE).stdout
    assert "전투 시나리오가 아니라" not in text
    assert "이 라운드의 전투턴이 벌어진 셀 (2,4)·(4,4)에는" in text and "전투 순서가 결과를 바꾸지 않으므로" in text


#: a round whose move ends in no encounter: the 대응턴 and 전투턴 do not open
NO_ENCOUNTER = textwrap.dedent("""\
        kind: round
        player: DGM
        board: {width: 7, height: 6}
        cells:
          "0,0": {DGM: [{id: a, card: 수문장}]}
          "6,5": {BGM: [{id: x, card: 개미, state: settled}]}
        move: {activate: ["0,0"], moves: [{piece: a, path: ["1,1"]}]}
        """)


def test_all_branches_of_a_round_with_one_or_no_combat_cell_says_so():
    """Page: '대응(조우 시, 상대 행동) → 전투(조우 시)' — with one encounter cell there is no order to
    choose; with none the 전투턴 did not open. Either is said as such, not 'not a combat'."""
    one = SCENE.replace('  - {piece: g2, path: ["4,4"]}\n', "").replace('activate: ["1,2", "3,3"]', 'activate: ["1,2"]')
    d = json.loads(cli("simulate", "-", "--all-branches", "--json", input=one).stdout)
    assert d["note"] == "round-one-cell" and d["combat_cells"] == ["2,4"] and d["branches"][0]["orders"] == []
    text = cli("simulate", "-", "--all-branches", input=one).stdout
    assert "한 셀 (2,4)에서만 싸웠습니다" in text and "전투 시나리오가 아니라" not in text
    none = NO_ENCOUNTER
    d = json.loads(cli("simulate", "-", "--all-branches", "--json", input=none).stdout)
    assert d["note"] == "round-no-combat" and d["combat_cells"] == []
    text = cli("simulate", "-", "--all-branches", input=none).stdout
    assert "전투턴이 열리지 않았습니다" in text and "전투 시나리오가 아니라" not in text


# ------------------------- 4. with no declaration the 대응턴 is skipped, and the numbering stays ----
def test_response_turn_is_skipped_when_nobody_declares():
    """대응턴 page: '조우가 없거나 상대가 발동을 원치 않으면 이 턴은 건너뜁니다(턴 플레이어 단독 발동 불가)'.
    A skipped turn did not run, so `turns` has no entry for it (spec: 'one entry per turn that ran');
    the skip is an event citing response.opener."""
    res = sim(SCENE)
    assert [t["turn"] for t in res["turns"]] == ["victory", "supply", "move", "combat", "production", "blackout"]
    skipped = [e for e in res["events"] if e["type"] == "skipped" and e["turn"] == "response"]
    assert skipped and skipped[0]["rule"] == "response.opener"
    assert turn(sim(SCENE + RESPONSE), "response")["declarations"]  # with a declaration it runs


def test_human_output_keeps_the_pages_turn_numbers():
    """Page: the seven turns in order — 대응 is turn 4 and 전투 turn 5 even when the 대응턴 was skipped;
    a round without an encounter keeps 생산 as turn 6 and 암막 as turn 7."""
    text = cli("simulate", "-", input=SCENE).stdout
    for head in ("1. 승리확인턴", "2. 보급턴", "3. 이동턴", "5. 전투턴", "6. 생산턴", "7. 암막턴"):
        assert f"══ {head} ══" in text
    assert "4. 전투턴" not in text
    md = cli("simulate", "-", "--format", "md", input=SCENE).stdout
    assert "## 5. 전투턴" in md and "## 4. 전투턴" not in md
    html = cli("simulate", "-", "--format", "html", input=SCENE).stdout
    assert "<h2>5. 전투턴</h2>" in html
    quiet = NO_ENCOUNTER
    text = cli("simulate", "-", input=quiet).stdout
    assert "══ 6. 생산턴 ══" in text and "══ 7. 암막턴 ══" in text and "4. 생산턴" not in text
    assert "대응턴 ══" not in text
