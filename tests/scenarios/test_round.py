"""kind round: one player's whole round, seven turns on one state (shared/spec/scenarios.md,
kind: round). Each test names the page sentence or spec line it rests on."""

from __future__ import annotations

import functools
import json
import textwrap
from functools import lru_cache

import pytest
import flamer_fork  # noqa: E402 (tests/flamer_fork.py)

from flamer_ref.engine.turns import parse_any, run_any
from flamer_ref.errors import DataError
from flamer_ref.render import word_result
from flamer_ref.yamlio import parse_text

BOARD = """\
board:
  width: 7
  height: 6
  adjacency: square8
  homes: {BGM: ["5,5", "6,4"]}
  values: {"0,2": 1, "2,2": 0, "3,0": 2, "5,0": 1, "2,4": 3, "4,4": 2, "1,5": 2}
"""

# 장면 1 → 장면 3 → 장면 5 of the pages as one round of DGM (the cells of 장면 1, the moves of 장면 3,
# the combat of 장면 5 with 재부팅), then production and blackout.
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
move:
  activate: ["1,2"]
  moves:
  - {piece: gk, path: ["2,3", "2,4"]}
  - {piece: art, path: ["2,3", "2,4"]}
  - {piece: star, path: ["2,3", "2,4"]}
response:
- {side: BGM, card: 재부팅, target: drill}
"""


@lru_cache(maxsize=1)
def _corpus():
    from flamer_ref.corpus import load

    return load()


def sim(text: str, as_of=None) -> dict:
    corpus = _corpus()
    # the engine emits no sentences; the presentation layer words errors and gaps
    return word_result(run_any(parse_any(parse_text(textwrap.dedent(text), "r.yaml"), "r.yaml", corpus), corpus, as_of))


cli = functools.partial(flamer_fork.run, timeout=60)  # a real process, forked warm


def turn(res: dict, name: str) -> dict:
    hits = [t["result"] for t in res["turns"] if t["turn"] == name]
    assert hits, (name, [t["turn"] for t in res["turns"]])
    return hits[0]


def names(res: dict) -> list[str]:
    return [t["turn"] for t in res["turns"]]


def piece(res: dict, pid: str) -> dict | None:
    for by_side in res["final"]["cells"].values():
        for ps in by_side.values():
            for p in ps:
                if p["id"] == pid:
                    return p
    return None


def cell_of(res: dict, pid: str) -> str | None:
    for cell, by_side in res["final"]["cells"].items():
        for ps in by_side.values():
            if any(p["id"] == pid for p in ps):
                return cell
    return None


# ---------------------------------------------------------------- shape ----
def test_json_shape_is_the_spec_s_and_turns_run_in_order():
    out = cli("simulate", "-", "--json", input=SCENE + "produce:\n- {card: 별마대, cell: \"0,2\"}\n")
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    for key in ("kind", "player", "as_of", "turns", "ended", "final", "events", "unresolved"):
        assert key in d
    assert d["kind"] == "round" and d["player"] == "DGM" and d["ended"] is None
    # 승리확인 → 보급 → 이동 → 대응 → 전투 → 생산 → 암막 (승리확인턴 page: '7개 턴으로 진행')
    assert names(d) == ["victory", "supply", "move", "response", "combat", "production", "blackout"]
    assert all(set(t) == {"turn", "result"} for t in d["turns"])
    assert {"income", "dor"} <= set(turn(d, "supply"))
    assert {"placed", "errors"} <= set(turn(d, "production"))
    assert {"flipped", "errors"} <= set(turn(d, "blackout"))
    # the victory / move / combat turns use their kinds' shapes
    assert {"secured", "vp_gain", "vp", "winner", "reasons"} <= set(turn(d, "victory"))
    assert {"valid", "errors", "positions", "encounters"} <= set(turn(d, "move"))
    assert {"cells", "prisoners", "fragments", "events", "unresolved"} <= set(turn(d, "combat"))
    final = d["final"]
    for key in ("cells", "vp", "dor", "prisoners", "fragments", "field"):
        assert key in final
    # final cells in the input's form: cell → side → pieces with id, card, state and current stats
    star = piece(d, "star")
    assert star["card"] == "별마대" and star["state"] in ("mobile", "settled") and star["lv"] == 5
    # the end state follows from the turns: 장면 5's combat, then the 별마대 produced for 12 도르
    assert sorted(final["prisoners"]["DGM"]) == ["amp", "drill", "giant"] and final["prisoners"]["BGM"] == ["gk"]
    assert cell_of(d, "star") == "2,4" and cell_of(d, "gk") is None
    assert final["vp"] == {"DGM": 5, "BGM": 1}
    assert final["dor"]["DGM"] == 20 + (1 + 0 + 2 + 1) - 12
    for u in d["unresolved"]:
        assert u["message"] and "turn" in u
    for t in d["turns"]:
        for e in t["result"].get("errors", []):
            assert e["rule"] and e["message"]


# ---------------------------------------------------------------- supply ----
def test_income_comes_from_secured_cells_only():
    # VP와 수익은 정착 기물이 1기 이상 있는 확보 점령지만 셉니다; 대립 셀은 수익·VP 카운트에서 빠진다
    res = sim("""\
        kind: round
        player: DGM
        dor: {DGM: 5}
        board: {width: 7, height: 6, values: {"0,2": 1, "3,0": 2, "2,4": 3, "1,5": 2}}
        cells:
          "0,2": {DGM: [{id: a, card: 수문장, state: settled}]}
          "3,0": {DGM: [{id: b, card: 수문장}]}
          "2,4": {DGM: [{id: c, card: 장인, state: settled}], BGM: [{id: x, card: 개미, state: settled}]}
          "1,5": {BGM: [{id: y, card: 개미, state: settled}]}
        """)
    s = turn(res, "supply")
    assert s["cells"] == [{"cell": "0,2", "value": 1}]
    assert s["income"] == 1 and s["dor"]["DGM"] == 6 and res["final"]["dor"]["DGM"] == 6
    assert {c["cell"]: c["why"] for c in s["not_counted"]} == {"3,0": "occupied", "2,4": "contested"}
    # only the turn player earns in its 보급턴
    assert s["dor"]["BGM"] == 0
    assert not [u for u in res["unresolved"] if u["reason"] == "cell-value-unknown"]


def test_an_unknown_value_leaves_income_and_dor_unknown_never_guessed():
    res = sim("""\
        kind: round
        player: DGM
        dor: {DGM: 5}
        cells:
          "0,2": {DGM: [{id: a, card: 수문장, state: settled}]}
          "2,2": {DGM: [{id: b, card: 수문장, state: settled}]}
          "6,5": {BGM: [{id: x, card: 개미, state: settled}]}
        produce:
        - {card: 별마대, cell: "2,2"}
        """)
    # no board: the example board, which knows (2,2) = 0 from 장면 1 but not (0,2)
    assert any(a["choice"] == "board" for a in res["assumed"])
    s = turn(res, "supply")
    assert s["income"] is None and s["dor"]["DGM"] is None
    assert s["cells"] == [{"cell": "2,2", "value": 0}] and s["unknown_values"] == ["0,2"]
    gap = next(u for u in res["unresolved"] if u["reason"] == "cell-value-unknown")
    assert gap["cells"] == ["0,2"] and gap["rule"] == "supply.income" and "0,2" in gap["message"]
    # a known cost cannot be checked against an unknown 도르: placed, reported, 도르 stays unknown
    p = turn(res, "production")
    assert [x["card"] for x in p["placed"]] == ["별마대"]
    assert any(u["reason"] == "dor-unknown" for u in res["unresolved"])
    assert res["final"]["dor"]["DGM"] is None


def test_scene1_value_zero_cell_counts_one_for_vp_and_zero_dor():
    # 승리확인턴 page, 장면 1: '같은 (2,2)가 이 턴에는 1을 만들고 다음 보급턴에는 0도르를 만듭니다'
    res = sim("""\
        kind: round
        player: DGM
        vp: {DGM: 3, BGM: 1}
        cells:
          "0,2": {DGM: [{id: d1, card: 수문장, state: settled}]}
          "2,2": {DGM: [{id: d2, card: 수문장, state: settled}]}
          "3,0": {DGM: [{id: d3, card: 장인, state: settled}]}
          "5,0": {DGM: [{id: d4, card: 갑사, state: settled}]}
          "2,4": {BGM: [{id: b1, card: 행성굴착기, state: settled}]}
          "4,4": {BGM: [{id: b2, card: 개미, state: settled}]}
        """)
    v = turn(res, "victory")
    assert v["secured"] == {"DGM": 4, "BGM": 2} and v["vp"]["DGM"] == 5
    assert {"cell": "2,2", "value": 0} in turn(res, "supply")["cells"]


# ---------------------------------------------------------------- victory ----
def test_a_home_win_stops_the_round():
    # 하나라도 만족하면 그 자리에서 게임이 끝납니다 — no later turn runs
    res = sim("""\
        kind: round
        player: ME
        homes: {OP: ["5,5", "6,4"]}
        board: {width: 7, height: 6}
        cells:
          "5,5": {ME: [{id: amb, card: 잠복군}]}
          "0,0": {OP: [{id: o, card: 개미, state: settled}]}
        move:
          activate: ["5,5"]
          moves: [{piece: amb, path: ["4,5"]}]
        blackout: [{piece: amb, to: settled}]
        """)
    assert res["ended"] == {"winner": "ME", "reasons": ["home"]}
    assert names(res) == ["victory"]
    assert cell_of(res, "amb") == "5,5" and piece(res, "amb")["state"] == "mobile"  # nothing after ran
    assert any(e["type"] == "game-end" for e in res["events"])


def test_entering_the_home_in_the_move_turn_is_not_a_win_this_round():
    # 본진 점령 승리도 이 턴에서만 판정합니다 — the check came first in the round
    res = sim("""\
        kind: round
        player: ME
        board: {width: 7, height: 6, homes: {OP: ["5,5", "6,4"]}}
        cells:
          "3,5": {ME: [{id: amb, card: 잠복군}]}
          "0,0": {OP: [{id: o, card: 개미, state: settled}]}
        move:
          moves: [{piece: amb, path: ["4,5", "5,5"], sp: 비행}]
        """)
    assert res["ended"] is None and cell_of(res, "amb") == "5,5"
    assert names(res) == ["victory", "supply", "move", "production", "blackout"]


# ------------------------------------------------------------ field link ----
def test_a_retire_settles_the_cards_pieces_mid_round():
    # 은퇴되는 순간 그 카드의 기물 코인 전부를 즉시 정착으로 돌리고 (필드와 카드 page)
    res = sim("""\
        kind: round
        player: DGM
        board: {width: 7, height: 6}
        field:
          DGM: [수문장, 장인, null, null, null]
        field_actions:
          DGM: [{place: 진내폭격, slot: 2, face: down}]
        cells:
          "1,2": {DGM: [{id: art, card: 장인}, {id: gk, card: 수문장}]}
          "4,1": {DGM: [{id: art2, card: 장인}]}
          "6,5": {BGM: [{id: x, card: 개미, state: settled}]}
        move:
          activate: ["1,2"]
          moves:
          - {piece: art, path: ["2,2"]}
          - {piece: gk, path: ["2,2"]}
        produce:
        - {card: 장인, cell: "1,2"}
        """)
    links = turn(res, "supply")["links"]
    assert links[0]["cause"] == "retire" and sorted(links[0]["pieces"]) == ["art", "art2"]
    assert links[0]["rule"] == "field.retire"
    assert piece(res, "art2")["state"] == "settled"
    # the settled 장인 can no longer move in the 이동턴; the 수문장 can
    m = turn(res, "move")
    assert [(e["piece"], e["reason"]) for e in m["errors"]] == [("art", "settled")]
    assert m["positions"]["gk"] == "2,2" and m["positions"]["art"] == "1,2"
    # and the retired kind cannot be produced (production.requires-active)
    p = turn(res, "production")
    assert [(e["reason"], e["rule"]) for e in p["errors"]] == [("card-retired", "production.requires-active")]
    assert res["final"]["field"]["DGM"]["retired"] == ["장인"]


def test_uncovered_in_the_same_round_the_pieces_stay_settled():
    # 같은 라운드에 은퇴·해제된 경우만 예외로 코인을 정착 그대로 둡니다 (2026-09-19 후속3)
    res = sim("""\
        kind: round
        player: DGM
        board: {width: 7, height: 6}
        field:
          DGM: [수문장, 장인, null, null, null]
        field_actions:
          DGM: [{place: 진내폭격, slot: 2, face: down}, {trash: 2}]
        cells:
          "1,2": {DGM: [{id: art, card: 장인}]}
          "6,5": {BGM: [{id: x, card: 개미, state: settled}]}
        blackout: [{piece: art, to: mobile}]
        """)
    links = turn(res, "supply")["links"]
    assert [(l["cause"], l["to"]) for l in links] == [("retire", "settled"), ("uncover", "settled")]
    assert links[1]["same_round"] is True and links[1]["ruling"] == "ruling.2026-09-19.followup3"
    # ... and the same round's 암막턴 may turn them mobile as usual
    assert turn(res, "blackout")["flipped"] == [{"piece": "art", "from": "settled", "to": "mobile", "cell": "1,2"}]
    assert piece(res, "art")["state"] == "mobile"


def test_the_opponent_cannot_set_a_card_in_my_round():
    # 위 카드가 폐기되면 아래 기물 카드는 복귀 … 해제 즉시 그 카드의 기물 코인 전부를 기동으로
    # The opponent covered 행성굴착기 with 재부팅 in an earlier round (not this one): the field of this
    # file gives only the top card, so the cover is played here — by the opponent in my round, which the
    # rules forbid for a set (상대 라운드 중에는 세트 불가): the place is refused, nothing is retired.
    res = sim(SCENE.replace("  BGM: [개미, 증폭기, 행성굴착기, 거신, {set: 재부팅}]",
                            "  BGM: [개미, 증폭기, 행성굴착기, 거신, null]")
              + "field_actions:\n  BGM: [{place: 재부팅, slot: 5, face: down}]\n")
    s = turn(res, "supply")
    assert [(e["reason"], e["rule"]) for e in s["errors"]] == [("not-own-round", "field.set")]
    assert "세트" in s["errors"][0]["message"]


# ---------------------------------------------------------- production ----
def test_production_places_mobile_pays_known_costs_and_reports_unknown_ones():
    res = sim("""\
        kind: round
        player: DGM
        dor: {DGM: 13}
        board: {width: 7, height: 6}
        field:
          DGM: [수문장, 장인, {set: 별마대}, null, null]
        cells:
          "0,0": {DGM: [{id: gk, card: 수문장}]}
          "6,5": {BGM: [{id: x, card: 개미, state: settled}]}
        produce:
        - {card: 별마대, cell: "0,0", id: star2}
        - {card: 수문장, cell: "0,0"}
        - {card: 별마대, cell: "0,1"}
        - {card: 갑사, cell: "0,1"}
        """)
    p = turn(res, "production")
    placed = {x["piece"]: x for x in p["placed"]}
    assert set(placed) == {"star2", "DGM-수문장-1"}
    # 생산·건설 기물은 항상 기동으로 놓이므로
    assert all(x["state"] == "mobile" for x in p["placed"]) and piece(res, "star2")["state"] == "mobile"
    # the set 별마대 activated at its first production; its entry effect (병풍) makes 수문장 Lv 6
    assert placed["star2"]["activated"] is True
    assert res["final"]["field"]["DGM"]["active"] == ["수문장", "장인", "별마대"]
    assert piece(res, "gk")["lv"] == 6
    # 별마대 costs 12 (페이지: '별마대(12도르)'): 13 → 1; the second 별마대 cannot be paid
    assert res["final"]["dor"]["DGM"] == 1
    errs = {e["produce"]: e for e in p["errors"]}
    assert errs[2]["reason"] == "not-enough-dor" and errs[2]["interpretation"] == "interp.production.cost-from-dor"
    # 갑사 is not on the field
    assert errs[3]["reason"] == "card-not-on-field" and errs[3]["rule"] == "production.requires-active"
    # 수문장's cost is not on the pages: placed, reported, not guessed
    gap = next(u for u in res["unresolved"] if u["reason"] == "production-cost-unknown")
    assert gap["card"] == "수문장"
    # where a produced piece may go is not on the pages: the scenario's cell, reported once
    assert [u["reason"] for u in res["unresolved"]].count("production-cell-unknown") == 1


def test_production_keeps_the_cell_limits():
    # 셀당 한도는 아군 3기·양 진영 합산 6기이며, 이동·생산으로 한도를 넘길 수 없습니다
    res = sim("""\
        kind: round
        player: DGM
        board: {width: 7, height: 6}
        field:
          DGM: [수문장, 장인, null, null, null]
        cells:
          "0,0": {DGM: [{id: a, card: 수문장}, {id: b, card: 수문장}, {id: c, card: 장인}]}
          "3,3": {DGM: [{id: d, card: 수문장, state: settled}, {id: e, card: 장인, state: settled}, {id: f, card: 장인, state: settled}],
                  BGM: [{id: x, card: 개미, state: settled}, {id: y, card: 개미, state: settled}, {id: z, card: 개미, state: settled}]}
        produce:
        - {card: 수문장, cell: "0,0"}
        - {card: 장인, cell: "3,3"}
        - {card: 장인, cell: "9,9"}
        - {card: 장인, cell: "0,1"}
        """)
    p = turn(res, "production")
    assert [(e["produce"], e["reason"], e["rule"]) for e in p["errors"]] == [
        (0, "destination-full", "production.placement"), (1, "cell-full", "production.placement"),
        (2, "off-board", "move.off-board")]
    assert [x["cell"] for x in p["placed"]] == ["0,1"]


# ------------------------------------------------------------- blackout ----
def test_blackout_flips_make_a_cell_secured_for_the_next_check():
    # 기동 기물만 있는 점령지를 확보로 만들려면 자기 암막턴에 그 기물을 정착으로 뒤집어야 합니다
    first = sim("""\
        kind: round
        player: DGM
        board: {width: 7, height: 6, values: {"1,5": 2}}
        cells:
          "1,5": {DGM: [{id: gk, card: 수문장}]}
          "6,0": {BGM: [{id: x, card: 개미, state: settled}]}
        blackout:
        - {piece: gk, to: settled}
        - {piece: x, to: mobile}
        """)
    assert turn(first, "victory")["secured"] == {"DGM": 0, "BGM": 1}
    assert turn(first, "supply")["income"] == 0
    b = turn(first, "blackout")
    assert b["flipped"] == [{"piece": "gk", "from": "mobile", "to": "settled", "cell": "1,5"}]
    # flipping the opponent's piece is an error of that turn, and the round goes on
    assert [(e["piece"], e["reason"], e["rule"]) for e in b["errors"]] == [("x", "not-own-piece", "blackout.flip")]
    assert piece(first, "x")["state"] == "settled"
    # the next round of DGM starts from the end state, written back in the input form
    nxt = {"kind": "round", "player": "DGM", "board": {"width": 7, "height": 6, "values": {"1,5": 2}},
           "vp": first["final"]["vp"], "dor": first["final"]["dor"], "cells": first["final"]["cells"]}
    second = sim(json.dumps(nxt, ensure_ascii=False))
    assert turn(second, "victory")["secured"] == {"DGM": 1, "BGM": 1}
    assert turn(second, "supply")["income"] == 2 and second["final"]["dor"]["DGM"] == 2


# ----------------------------------------------------- response / combat ----
def test_no_encounter_no_response_or_combat_turn():
    res = sim("""\
        kind: round
        player: DGM
        board: {width: 7, height: 6}
        cells:
          "0,0": {DGM: [{id: gk, card: 수문장}]}
          "6,5": {BGM: [{id: x, card: 개미, state: settled}]}
        move: {activate: ["0,0"], moves: [{piece: gk, path: ["1,1"]}]}
        response: [{side: BGM, card: 재부팅, target: x}]
        """)
    assert "response" not in names(res) and "combat" not in names(res)
    skipped = [e for e in res["events"] if e["type"] == "skipped"]
    assert skipped == [{"type": "skipped", "turn": "response", "why": "no-encounter", "ignored": 1,
                        "rule": "response.needs-encounter"}]


def test_a_forbidden_declaration_is_a_turn_error_and_the_combat_still_runs():
    # 대응턴을 '여는' 쪽은 언제나 수비자입니다
    res = sim(SCENE.replace("- {side: BGM, card: 재부팅, target: drill}",
                            "- {side: DGM, effect: {attack: 1, cell: \"2,4\"}}"))
    r = turn(res, "response")
    assert [(e["reason"], e["rule"]) for e in r["errors"]] == [("opener-attacker", "response.opener")]
    assert r["errors"][0]["message"]
    c = turn(res, "combat")
    assert c["cells"]["2,4"]["occupant"] == "DGM"
    # without 재부팅 the 행성굴착기 stays settled and is captured by the first hit
    assert "drill" in c["prisoners"]["DGM"]


def test_combat_runs_on_the_positions_after_the_move():
    res = sim(SCENE)
    c = turn(res, "combat")
    # 장면 5: four rounds, 거신·행성굴착기·증폭기 captured, 수문장 lost
    assert c["cells"]["2,4"]["rounds"] == 4
    assert sorted(c["prisoners"]["DGM"]) == ["amp", "drill", "giant"] and c["prisoners"]["BGM"] == ["gk"]
    # the 재부팅 card was trashed in step 2: slot 5 is free on the field afterwards
    assert res["final"]["field"]["BGM"]["slots"][4]["top"] is None


# ---------------------------------------------------------- input forms ----
def test_korean_keys_give_the_same_round():
    ko = sim("""\
        종류: 라운드
        플레이어: DGM
        도르: {DGM: 0}
        보드: {너비: 7, 높이: 6, 값: {"1,5": 2}}
        필드:
          DGM: [수문장, 장인, null, null, null]
        셀:
          "1,5": {DGM: [{아이디: gk, 카드: 수문장, 상태: 정착}]}
          "0,0": {DGM: [{아이디: art, 카드: 장인}]}
          "6,0": {BGM: [{아이디: x, 카드: 개미, 상태: 정착}]}
        이동턴: {활성화: ["0,0"], 이동: [{기물: art, 경로: ["1,1"]}]}
        생산턴: [{카드: 장인, 셀: "0,0", 아이디: art2}]
        암막턴: [{기물: art, 상태: 정착}]
        """)
    en = sim("""\
        kind: round
        player: DGM
        dor: {DGM: 0}
        board: {width: 7, height: 6, values: {"1,5": 2}}
        field:
          DGM: [수문장, 장인, null, null, null]
        cells:
          "1,5": {DGM: [{id: gk, card: 수문장, state: settled}]}
          "0,0": {DGM: [{id: art, card: 장인}]}
          "6,0": {BGM: [{id: x, card: 개미, state: settled}]}
        move: {activate: ["0,0"], moves: [{piece: art, path: ["1,1"]}]}
        produce: [{card: 장인, cell: "0,0", id: art2}]
        blackout: [{piece: art, to: settled}]
        """)
    assert ko["final"] == en["final"] and names(ko) == names(en)
    assert turn(ko, "supply")["income"] == 2
    assert piece(ko, "art")["state"] == "settled" and cell_of(ko, "art") == "1,1" and cell_of(ko, "art2") == "0,0"


def test_a_malformed_round_is_invalid():
    for text, key in (("kind: round\nplayer: A\ncells: {\"0,0\": {A: [{id: a, card: 수문장}]}}\nproduce: [{card: 없는카드, cell: \"0,0\"}]\n", "produce"),
                      ("kind: round\nplayer: A\ncells: {\"0,0\": {A: [{id: a, card: 수문장}]}}\nblackout: [{piece: a, to: 옆면}]\n", "blackout"),
                      ("kind: round\nplayer: A\ncells: {\"0,0\": {A: [{id: a, card: 수문장}]}}\nfield_actions: {A: [{trash: 1}]}\n", "field_actions")):
        with pytest.raises(DataError) as info:
            sim(text)
        assert key in info.value.problems[0].key
    out = cli("simulate", "-", input="kind: round\nplayer: A\ncells: {\"0,0\": {A: [{id: a, card: 수문장}]}}\nmove: 3\n")
    assert out.returncode == 1 and "Traceback" not in out.stderr and "move" in out.stderr


# ----------------------------------------------------------- human output ----
def test_text_md_html_lead_with_the_verdict_and_show_each_turn():
    text = cli("simulate", "-", input=SCENE).stdout
    lines = text.splitlines()
    assert lines[0].startswith("판정: 승리 아님") and "VP: DGM 3 → 5" in lines[1]
    assert "공격자(DGM)가 4회차에 (2,4)를 점령" in lines[2]  # as a person says it (issue 17)
    for head in ("1. 승리확인턴", "2. 보급턴", "3. 이동턴", "4. 대응턴", "5. 전투턴", "6. 생산턴", "7. 암막턴", "라운드 끝"):
        assert head in text
    assert "이(가)" not in text and "을(를)" not in text and "은(는)" not in text
    brief = cli("simulate", "-", "--brief", input=SCENE).stdout.strip().splitlines()
    assert 1 <= len(brief) <= 4
    md = cli("simulate", "-", "--format", "md", input=SCENE).stdout
    assert md.startswith("> 판정:") and "## 5. 전투턴" in md
    html = cli("simulate", "-", "--format", "html", input=SCENE.replace("kind: round", "kind: round\ntitle: <b>x</b>")).stdout
    assert html.startswith("<!DOCTYPE html>") and 'class="verdict"' in html and "전투턴" in html
    assert "<b>x</b>" not in html and "&lt;b&gt;x&lt;/b&gt;" in html
    assert html.index('class="verdict"') < html.index("1. 승리확인턴")


def test_scenario_new_round_resolves_as_printed():
    tpl = cli("scenario", "new", "라운드")
    assert tpl.returncode == 0 and "종류: 라운드" in tpl.stdout
    out = cli("simulate", "-", "--json", input=tpl.stdout)
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    assert d["kind"] == "round" and names(d)[:3] == ["victory", "supply", "move"]
    # the set 별마대 of the template activates at its first production
    assert turn(d, "production")["placed"][0]["activated"] is True


def test_the_rulebook_round_examples_pass():
    out = cli("examples", "--json")
    rows = {r["id"]: r for r in json.loads(out.stdout)["examples"]}
    for eid in ("ex.victory.scene1#2", "ex.victory.home-timeline#3", "ex.victory.home-timeline#4"):
        assert rows[eid]["kind"] == "round" and rows[eid]["status"] == "pass", rows[eid]
