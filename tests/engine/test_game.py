"""kind game: a record of rounds replayed on one state, the players alternating. Every case is
written by hand from the rulebook pages; each test quotes the sentence it rests on."""

from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path

import pytest

from flamer_ref.engine.turns import parse_any, run_any
from flamer_ref.errors import DataError
from flamer_ref.render import render_result, word_result
from flamer_ref.yamlio import parse_text

ROOT = Path(__file__).resolve().parents[2]

BOARD = """\
board:
  width: 7
  height: 6
  adjacency: square8
  homes: {DGM: ["0,0", "1,0"], BGM: ["5,5", "6,4"]}
  values: {"0,2": 1, "2,2": 0, "3,0": 2, "2,4": 3, "4,4": 2, "1,5": 2, "3,3": 2}
"""


def game(text: str, corpus) -> dict:
    doc = parse_text(textwrap.dedent(text), "game.yaml")
    return word_result(run_any(parse_any(doc, "game.yaml", corpus), corpus))


def turn(entry: dict, name: str) -> dict | None:
    return next((t["result"] for t in entry["turns"] if t["turn"] == name), None)


# ------------------------------------------------------------- home timing ----
HOME = """\
kind: game
first_player: DGM
""" + BOARD + """\
cells:
  "4,4": {DGM: [{id: gk, card: 수문장}]}
  "0,5": {BGM: [{id: ant, name: 개미병, lv: 1, hp: 2, atk: 1}]}
  "6,5": {BGM: [{id: giant, card: 거신}]}
rounds:
- player: DGM
  move: {activate: ["4,4"], moves: [{piece: gk, path: ["5,5"]}]}
- player: BGM
  move: {activate: ["0,5"], moves: [{piece: ant, path: ["0,4"]}]}
- player: DGM
- player: BGM
  move: {activate: ["0,4"], moves: [{piece: ant, path: ["0,3"]}]}
"""


def test_home_entered_wins_at_the_owners_next_victory_turn_and_stops_the_record(corpus):
    # 승리확인턴 page: "본진 점령 승리도 이 턴에서만 판정합니다. 상대 본진에 들어간 순간 이기는 것이 아니라,
    # 상대가 자기 라운드에 탈환하지 못한 채 내 다음 승리확인턴이 오면 승리합니다."
    res = game(HOME, corpus)
    r1, r2, r3 = res["rounds"]
    assert r1["ended"] is None and r2["ended"] is None  # entering (round 1) is not winning; BGM's check is BGM's
    assert turn(r2, "victory")["winner"] is None
    assert res["ended"] == {"round": 3, "winner": "DGM", "reasons": ["home"]}
    assert [t["turn"] for t in r3["turns"]] == ["victory"]  # "하나라도 만족하면 그 자리에서 게임이 끝납니다"
    # ended: no later round runs (the fourth entry is not played)
    assert len(res["rounds"]) == 3 and res["rounds_written"] == 4
    assert any(e["type"] == "game-over" and e["skipped_rounds"] == 1 for e in res["events"])
    assert res["final"]["cells"]["0,4"]["BGM"][0]["id"] == "ant"  # round 4's move never happened


def test_home_retaken_in_the_opponents_round_does_not_win(corpus):
    # 승리확인턴 page: "상대 라운드 — 상대는 자기 이동턴·전투턴으로 그 셀을 탈환할 수 있다. 잠복군을 포획하거나
    # 셀에서 몰아내면 위기는 해소된다."
    text = HOME.replace('  move: {activate: ["0,5"], moves: [{piece: ant, path: ["0,4"]}]}',
                        '  move: {activate: ["6,5"], moves: [{piece: giant, path: ["5,5"]}]}')
    res = game(text, corpus)
    r2 = res["rounds"][1]
    combat = turn(r2, "combat")
    assert combat["attacker"] == "BGM" and combat["cells"]["5,5"]["occupant"] == "BGM"
    assert r2["summary"]["captured"] == {"DGM": [], "BGM": ["gk"]}
    assert res["ended"] is None and len(res["rounds"]) == 4
    assert turn(res["rounds"][2], "victory")["winner"] is None


# -------------------------------------------------------- 대립 woken at night ----
STANDOFF = """\
kind: game
first_player: DGM
""" + BOARD + """\
cells:
  "3,3": {DGM: [{id: gk, card: 수문장, state: settled}], BGM: [{id: ant, name: 개미병, lv: 1, hp: 2, atk: 1, state: settled}]}
  "0,1": {DGM: [{id: art, card: 장인}]}
rounds:
- player: DGM
  blackout: [{piece: gk, to: mobile}]
- player: BGM
"""


def test_standoff_woken_in_the_blackout_is_fought_in_the_next_round_by_its_turn_player(corpus):
    # 전투턴 page, 대립 상태: "이후 어느 쪽이든 그 셀에 기동 기물이 생기면(암막턴 재기동·이동 진입 등) 그다음
    # 전투턴에 다시 조우 셀로 취급되어 전투가 성립한다. 공격자 = 그 라운드의 턴 플레이어."
    res = game(STANDOFF, corpus)
    r1, r2 = res["rounds"]
    assert turn(r1, "combat") is None  # both settled in DGM's round: no encounter
    assert turn(r1, "move")["encounters"] == []
    combat = turn(r2, "combat")
    assert turn(r2, "move")["encounters"] == ["3,3"]
    assert (combat["attacker"], combat["defender"]) == ("BGM", "DGM")
    # the woken gk answers in step 5 and takes the settled piece ("뒷면 상태로 ... 1회라도 받으면 ... 즉시 포획")
    assert res["final"]["prisoners"] == {"DGM": ["ant"], "BGM": []}
    assert r2["summary"]["captured"]["DGM"] == ["ant"]


# -------------------------------------------------------------- first_illegal ----
ILLEGAL = """\
kind: game
first_player: DGM
""" + BOARD + """\
cells:
  "0,2": {DGM: [{id: d1, card: 수문장, state: settled}]}
  "1,2": {DGM: [{id: gk, card: 수문장}]}
  "2,4": {BGM: [{id: giant, card: 거신}]}
  "4,4": {BGM: [{id: ant, name: 개미병, lv: 1, hp: 2, atk: 1}]}
rounds:
- player: DGM
  move: {activate: ["1,2"], moves: [{piece: gk, path: ["2,3"]}]}
- player: BGM
  move: {activate: ["2,4", "4,4"], moves: [{piece: giant, path: ["2,3"]}, {piece: ant, path: ["3,4", "2,5", "1,5"]}]}
- player: DGM
  move: {activate: ["0,2"], moves: [{piece: d1, path: ["1,2"]}, {piece: gk, path: ["2,2"]}]}
"""


def test_first_illegal_play_is_named_skipped_and_the_replay_goes_on(corpus):
    # 이동턴 page: "고른 각 셀의 앞면(기동) 비구조물 기물은 각자 방향·거리를 따로 정해 이동합니다(기본 2셀 이동 = MOV 2)."
    # — 개미병's three-cell path (round 2) is the record's first refused play; the round and the game go on.
    res = game(ILLEGAL, corpus)
    fi = res["first_illegal"]
    assert {k: fi[k] for k in ("round", "turn", "index", "clause")} == {"round": 2, "turn": "move", "index": 1,
                                                                        "clause": "move.mov"}
    assert fi["reason"] == "too-far" and "2셀" in fi["message"]
    r2 = res["rounds"][1]
    assert turn(r2, "move")["positions"]["ant"] == "4,4"  # skipped: the piece stays
    # the other play of the same round stood: the 거신 entered 2,3 and captured gk there
    assert res["rounds"][1]["summary"]["captured"]["BGM"] == ["gk"]
    # round 3 still ran: d1 is settled ("정착 상태의 ... 먼저 자기 암막턴에서 앞면으로") and gk is a prisoner —
    # both refused, neither is the first
    r3 = res["rounds"][2]
    assert [e["reason"] for e in turn(r3, "move")["errors"]] == ["settled"]
    assert [(e["turn"], e["index"], e["reason"], e["where"]) for e in r3["errors"]] == [
        ("move", 1, "not-on-board", "prisoner")]
    assert "포로 영역" in r3["errors"][0]["message"]
    assert len(res["rounds"]) == 3 and res["ended"] is None


def test_a_record_with_no_refused_play_has_no_first_illegal(corpus):
    assert game(STANDOFF, corpus)["first_illegal"] is None


# ------------------------------------------------------------- VP and 도르 ----
def test_vp_and_dor_are_carried_from_round_to_round(corpus):
    # 승리확인턴 page: "A > B이면 (A − B)만큼 VP가 증가합니다. 누적이며, 감소하지 않습니다." and "상대 라운드의
    # 승리확인턴은 상대가 자기 VP를 계산합니다."; 보급턴: the secured cells' values are the income.
    text = """\
kind: game
first_player: DGM
vp: {DGM: 3, BGM: 1}
dor: {DGM: 5, BGM: 2}
""" + BOARD + """\
cells:
  "0,2": {DGM: [{id: d1, card: 수문장, state: settled}]}
  "2,4": {DGM: [{id: d2, card: 수문장, state: settled}]}
  "4,4": {BGM: [{id: b1, name: 개미병, lv: 1, hp: 2, atk: 1, state: settled}]}
rounds:
- player: DGM
- player: BGM
- player: DGM
"""
    res = game(text, corpus)
    s = [r["summary"] for r in res["rounds"]]
    # round 1 (DGM): secured 2 vs 1 → +1; income 1 + 3
    assert (s[0]["vp"], s[0]["dor"]) == ({"DGM": 4, "BGM": 1}, {"DGM": 9, "BGM": 2})
    # round 2 (BGM): 1 ≤ 2 → no gain, nothing lost; BGM earns 4,4's 2
    assert (s[1]["vp"], s[1]["dor"]) == ({"DGM": 4, "BGM": 1}, {"DGM": 9, "BGM": 4})
    # round 3 (DGM): from where round 1 left it
    assert (s[2]["vp"], s[2]["dor"]) == ({"DGM": 5, "BGM": 1}, {"DGM": 13, "BGM": 4})
    assert res["rounds"][2]["vp_before"] == {"DGM": 4, "BGM": 1}
    assert res["final"]["vp"] == {"DGM": 5, "BGM": 1}


def test_starting_prisoners_and_a_piece_produced_in_an_earlier_round(corpus):
    # 포로 영역 carries (a captured piece stays captured); a piece produced in round 1 moves in round 3 by
    # its id ("생산·건설 기물은 항상 기동으로 놓이므로")
    text = """\
kind: game
first_player: DGM
dor: {DGM: 20}
prisoners: {BGM: [old-gk]}
""" + BOARD + """\
field:
  DGM: [수문장, 장인, 별마대, null, null]
cells:
  "0,2": {DGM: [{id: d1, card: 수문장, state: settled}]}
  "4,4": {BGM: [{id: b1, name: 개미병, lv: 1, hp: 2, atk: 1, state: settled}]}
rounds:
- player: DGM
  produce: [{card: 별마대, cell: "0,2"}]
- player: BGM
- player: DGM
  move: {activate: ["0,2"], moves: [{piece: DGM-별마대-1, path: ["1,3", "2,4"]}]}
"""
    res = game(text, corpus)
    assert res["rounds"][0]["summary"]["produced"] == ["DGM-별마대-1"]
    assert res["rounds"][0]["summary"]["dor"]["DGM"] == 20 + 1 - 12
    assert res["final"]["cells"]["2,4"]["DGM"][0]["id"] == "DGM-별마대-1"
    assert res["final"]["prisoners"]["BGM"] == ["old-gk"]
    assert res["first_illegal"] is None


# ------------------------------------------------------------ field across rounds ----
def test_a_card_retired_in_my_round_and_uncovered_in_the_opponents_turns_its_pieces_mobile(corpus):
    # 필드와 카드 page: "해제 즉시 그 카드의 기물 코인 전부를 기동으로 돌려야 하며(의무), 같은 라운드에 은퇴·해제된
    # 경우만 예외로 코인을 정착 그대로 둡니다" — retired in DGM's round, uncovered in BGM's: not the same round.
    text = """\
kind: game
first_player: DGM
""" + BOARD + """\
field:
  DGM: [수문장, 장인, null, null, null]
  BGM: [거신, null, null, null, null]
cells:
  "3,3": {DGM: [{id: art, card: 장인}]}
  "0,5": {DGM: [{id: art2, card: 장인}]}
  "5,3": {BGM: [{id: giant, card: 거신}]}
rounds:
- player: DGM
  field_actions: {DGM: [{place: 재부팅, slot: 2, face: down}]}
- player: BGM
  move: {activate: ["5,3"], moves: [{piece: giant, path: ["4,3", "3,3"]}]}
  response:
  - {side: DGM, card: 재부팅, target: art}
"""
    res = game(text, corpus)
    r1, r2 = res["rounds"]
    assert r1["final"]["cells"]["0,5"]["DGM"][0]["state"] == "settled"  # retired: settled at once
    link = next(e for e in r2["events"] if e["type"] == "link" and e["cause"] == "uncover")
    assert link["same_round"] is False and link["to"] == "mobile"
    assert res["final"]["cells"]["0,5"]["DGM"][0]["state"] == "mobile"


# -------------------------------------------------------------------- input ----
def test_players_must_alternate_and_entries_take_the_round_keys_only(corpus):
    bad = STANDOFF.replace("- player: BGM", "- player: DGM")
    with pytest.raises(DataError) as exc:
        game(bad.replace("kind: game", "종류: 게임"), corpus)
    msg = exc.value.message
    assert "rounds[1].player" in msg and "2라운드는 BGM의 라운드" in msg
    bad = STANDOFF.replace("- player: BGM", "- player: BGM\n  cells: {}")
    with pytest.raises(DataError) as exc:
        game(bad, corpus)
    assert "rounds[1].cells" in exc.value.message
    with pytest.raises(DataError) as exc:
        game(STANDOFF.replace("first_player: DGM\n", ""), corpus)
    assert "first_player" in exc.value.message and "선공" in exc.value.message


def test_korean_keys_read_as_english(corpus):
    ko = """\
종류: 게임
선공: DGM
보드: {너비: 7, 높이: 6, 인접: 팔방, 본진: {DGM: ["0,0", "1,0"], BGM: ["5,5", "6,4"]}}
셀:
  "3,3": {DGM: [{아이디: gk, 카드: 수문장, 상태: 정착}], BGM: [{아이디: ant, 이름: 개미병, 레벨: 1, 체력: 2, 공격력: 1, 상태: 정착}]}
포로: {DGM: [x1]}
라운드:
- 플레이어: DGM
  암막: [{기물: gk, 상태: 기동}]
- 플레이어: BGM
"""
    res = game(ko, corpus)
    assert res["final"]["prisoners"] == {"DGM": ["x1", "ant"], "BGM": []}


# ----------------------------------------------------------- the bundled record ----
def test_bundled_game_record_as_computed_by_hand(corpus):
    # scenarios/game-four-rounds.yaml, computed by hand from the pages: round 1 is 장면 5 ("내 포로 영역 =
    # 거신·행성굴착기·증폭기 3개, 상대 포로 영역 = 수문장 1개"); round 2 the 거신 (ATK 3, HP 12) against
    # 별마대 (ATK 3, HP 8): 8→5→2→−1 in three rounds, then step 7 takes the settled 장인; round 3 d1 is
    # settled (refused), 별마대 costs 12 of 12 도르; round 4 one hit captures the settled gk2.
    doc = parse_text((ROOT / "scenarios" / "game-four-rounds.yaml").read_text(encoding="utf-8"), "g.yaml")
    res = word_result(run_any(parse_any(doc, "g.yaml", corpus), corpus))
    assert res["final"]["prisoners"] == {"DGM": ["giant", "drill", "amp"], "BGM": ["gk", "star", "art", "gk2"]}
    assert [r["summary"]["dor"] for r in res["rounds"]] == [
        {"DGM": 11, "BGM": 4}, {"DGM": 11, "BGM": 6}, {"DGM": 0, "BGM": 6}, {"DGM": 0, "BGM": 8}]
    assert res["final"]["vp"] == {"DGM": 3, "BGM": 1}
    assert turn(res["rounds"][1], "combat")["cells"]["2,4"]["rounds"] == 3
    fi = res["first_illegal"]
    assert (fi["round"], fi["turn"], fi["index"], fi["reason"]) == (3, "move", 1, "settled")
    assert res["ended"] is None
    assert sorted(res["final"]["cells"]) == ["0,2", "1,5", "4,4"]
    # the text answer leads with one line per round, then the rounds
    from flamer_ref.runner import refs

    text = render_result(json.loads(json.dumps(res)), "text", refs=refs(corpus, res))
    head = text.split("━━")[0]
    rows = [ln for ln in head.splitlines() if re.match(r"\d+라운드 · ", ln)]
    assert [ln.split(":")[0] for ln in rows] == ["1라운드 · DGM", "2라운드 · BGM", "3라운드 · DGM", "4라운드 · BGM"]
    # in a player's words (issue 17): card names numbered when shared, cells in parentheses, who took what
    assert rows[0] == ("1라운드 · DGM: 이동 수문장 2, 별마대 1, 장인 · 조우 (2,4) · "
                       "DGM이 거신 1·행성굴착기·증폭기를, BGM이 수문장 2를 포획")
    assert rows[2] == "3라운드 · DGM: 이동 수문장 3 · 생산 별마대 2 · 불가 1건"
    # the first refused play worded from round 3's own move error, cited by number and title
    first = head[head.rindex("\n첫 불가 플레이: "):].split("\n\n")[0]
    assert "3라운드 이동턴 #2 — 수문장 1은 정착(뒷면) 상태라 이동할 수" in " ".join(first.split())
    assert "↳ 근거: 4.2 각 기물이 각자 방향·거리로 (MOV 2)" in first and "move.mov" not in first
    assert "d1" not in head and "giant" not in head
    assert [f"{k}라운드 — {p}의 라운드" in text for k, p in ((1, "DGM"), (2, "BGM"), (3, "DGM"), (4, "BGM"))] == [True] * 4


def test_scenario_new_game_runs_as_printed():
    # `flamer scenario new 게임` prints a template that `flamer simulate -` resolves as written
    from inprocess import invoke

    tpl = invoke("scenario", "new", "게임")
    assert tpl.exit_code == 0 and "종류: 게임" in tpl.stdout
    res = invoke("simulate", "-", "--json", input=tpl.stdout)
    assert res.exit_code == 0, res.stdout
    data = json.loads(res.stdout)
    assert data["kind"] == "game" and data["ended"] == {"round": 3, "winner": "DGM", "reasons": ["home"]}
    # the 대립 cell woken in round 1's 암막턴 is fought in round 2 (BGM attacks)
    assert turn(data["rounds"][1], "combat")["attacker"] == "BGM"
    assert all(u.get("message") for u in data["unresolved"])


def test_a_home_win_in_a_shared_home_cell_is_reported_as_the_projects_reading(corpus):
    # 승리확인턴 page: "상대 본진 2셀 중 하나에 자기 기물이 위치해 있으면(기동·정착 무관) VP와 관계없이 승리합니다";
    # 전투턴 page: "대립 셀은 어느 쪽도 점령·확보하지 못합니다" — the piece that entered in round 1 shares the home
    # cell with a settled defender it could not hit (ATK 0: "공격을 실행하지 않은 경우 ... 실제 적중한 기물만 포획").
    text = """\
kind: game
first_player: DGM
board: {width: 7, height: 6, adjacency: square8, homes: {DGM: ["0,0", "1,0"], BGM: ["5,5", "6,4"]}, values: {"5,5": 0}}
cells:
  "4,4": {DGM: [{id: gk, name: 맨손병, lv: 1, hp: 2, atk: 0}]}
  "5,5": {BGM: [{id: wall, name: 벽, lv: 1, hp: 5, atk: 0, state: settled}]}
  "0,5": {BGM: [{id: ant, name: 개미병, lv: 1, hp: 2, atk: 1}]}
rounds:
- player: DGM
  move: {activate: ["4,4"], moves: [{piece: gk, path: ["5,5"]}]}
- player: BGM
- player: DGM
"""
    res = game(text, corpus)
    assert res["ended"] == {"round": 3, "winner": "DGM", "reasons": ["home"]}
    # once (the victory turn may report it itself: then the game adds nothing)
    gaps = [u for u in res["unresolved"] if u.get("interpretation") == "interp.home.any-presence"]
    assert len(gaps) == 1 and gaps[0]["round"] == 3 and gaps[0]["cells"] == ["5,5"] and gaps[0]["message"]
    # without the defender in the cell there is nothing to report
    plain = game(text.replace('  "5,5": {BGM: [{id: wall, name: 벽, lv: 1, hp: 5, atk: 0, state: settled}]}\n', ""),
                 corpus)
    assert plain["ended"]["round"] == 3
    assert not [u for u in plain["unresolved"] if u.get("interpretation") == "interp.home.any-presence"]


def test_all_branches_replays_the_record_for_each_order_of_the_first_open_combat_turn(corpus):
    # 전투턴 page: "여러 셀에서 전투가 발생하면 해소 순서는 공격자가 고릅니다." — round 1 fights two cells and the
    # record does not say in which order: each order replays the whole record (the 봉수장 captured first in
    # 2,2 cannot take part in 2,3 from its own cell: "원격 참여 SP ... 자기 셀에 머문 채 3단계에 효과만 발동").
    from flamer_ref.runner import game_branches

    text = """\
kind: game
first_player: DGM
board: {width: 7, height: 6, adjacency: square8}
cells:
  "1,1": {DGM: [{id: g1, card: 수문장}]}
  "1,4": {DGM: [{id: g2, card: 수문장}]}
  "2,2": {BGM: [{id: bs, card: 봉수장, lv: 2, hp: 1, atk: 1, cost: 1}]}
  "2,3": {BGM: [{id: d2, name: 드론, lv: 1, hp: 5, atk: 1}]}
rounds:
- player: DGM
  move: {activate: ["1,1", "1,4"], moves: [{piece: g1, path: ["2,2"]}, {piece: g2, path: ["2,3"]}]}
- player: BGM
"""
    scn = parse_any(parse_text(text, "b.yaml"), "b.yaml", corpus)
    out = game_branches(scn, corpus, None)
    assert (out["round"], out["combat_cells"], out["orders_tried"]) == (1, ["2,2", "2,3"], 2)
    assert out["distinct"] == 2 and sorted(o for b in out["branches"] for o in b["orders"]) == [
        ["2,2", "2,3"], ["2,3", "2,2"]]
    assert all(b["outcome"]["kind"] == "game" for b in out["branches"])
    # the order written in the record leaves nothing to choose
    fixed = text.replace("  move: {activate", '  combat_order: ["2,3", "2,2"]\n  move: {activate')
    out = game_branches(parse_any(parse_text(fixed, "b.yaml"), "b.yaml", corpus), corpus, None)
    assert out["note"] == "game-no-choice" and out["distinct"] == 1


def test_a_games_own_messages_in_a_players_words(corpus):
    # game_message.txt.j2 words the JSON's message with ids (unchanged); a people's answer (say()) names the
    # piece by its card, the cell in parentheses and the interpretation by its number, never by id
    from flamer_ref.render import render
    from flamer_ref.runner import refs

    gone = {"reason": "not-on-board", "turn": "move", "index": 0, "piece": "gk", "where": "prisoner"}
    home = {"reason": "home-win-contested", "player": "DGM", "cells": ["5,5"], "interpretation": "interp.home.any-presence"}
    data = {"pieces": {"gk": {"label": "수문장"}}}
    assert render("simulate/game_message.txt.j2", item=gone, data=data).startswith("이동 #1: gk(수문장)는 포로 영역에")
    assert "(프로젝트 해석 interp.home.any-presence, 공식 판정 아님)" in render("simulate/game_message.txt.j2",
                                                                            item=home, data=data)
    words = {"people": {}, "refs": refs(corpus, home), "names": {"gk": "수문장"}}
    said = render("simulate/game_message.txt.j2", item=gone, data=data, **words)
    assert said.startswith("이동 #1: 수문장은 포로 영역에 있어 움직일 수 없습니다") and "gk" not in said
    said = render("simulate/game_message.txt.j2", item=home, data=data, **words)
    assert "상대 본진 (5,5)에" in said and "(프로젝트 해석 3.4-1, 공식 판정 아님)" in said and "interp." not in said
