"""Round engine fidelity (issue 18, items 2 and 3): the faults r29 and r30 of the round audit, the
path that stops in the enemy cell, stacked field slots at the start. Each test quotes the rulebook
sentence it rests on (필드와 카드, 전투턴, 이동턴 pages)."""

from __future__ import annotations

import textwrap
from functools import lru_cache

from flamer_ref.engine.turns import parse_any, run_any
from flamer_ref.render import word_result
from flamer_ref.yamlio import parse_text


@lru_cache(maxsize=1)
def _corpus():
    from flamer_ref.corpus import load

    return load()


def sim(text: str) -> dict:
    corpus = _corpus()
    doc = parse_text(textwrap.dedent(text), "r.yaml")
    return word_result(run_any(parse_any(doc, "r.yaml", corpus), corpus, None))


def turn(res: dict, name: str) -> dict:
    return next(t["result"] for t in res["turns"] if t["turn"] == name)


def combat_events(res: dict, *types: str) -> list[dict]:
    return [e for e in turn(res, "combat")["events"] if e["type"] in types]


def attacks(res: dict) -> list[tuple]:
    return [(e["round"], e["actor"], e["target"]) for e in combat_events(res, "attack")]


# ------------------------------------------------------------------ the path ----
PATH = """\
kind: {kind}
{who}: A
board: {{width: 5, height: 5}}
cells:
  "1,1": {{A: [{{id: gk, card: 수문장}}]}}
  "2,1": {{B: [{{id: foe, name: 상대 정착 기물, lv: 2, hp: 5, atk: 2, state: settled}}]}}
{move}
"""


def test_a_path_past_an_enemy_cell_ends_in_it_and_that_cell_is_the_encounter():
    """이동턴, 경로 중간의 상대 셀: "수문장이 B셀에 들어가는 순간 이동이 끝난다. MOV 1이 남아 있어도 C셀로 갈 수
    없다. B셀은 조우 셀이 된다 → 대응턴 → 전투턴." — 결과: B셀에서 전투. The engine used to refuse the whole
    move and leave the piece in A (no encounter)."""
    res = sim(PATH.format(kind="move", who="attacker", move='activate: ["1,1"]\nmoves:\n- {piece: gk, path: ["2,1", "3,1"]}'))
    assert res["positions"]["gk"] == "2,1" and res["encounters"] == ["2,1"]
    (err,) = res["errors"]
    assert (err["reason"], err["rule"], err["detail"]["ended"], err["detail"]["next"]) == (
        "blocked-by-enemy", "move.path.enemy-stop", "2,1", "3,1")
    move = next(e for e in res["events"] if e["type"] == "move")
    assert move["to"] == "2,1" and move["path"] == ["2,1"] and move["cut"] == ["3,1"]


def test_in_a_round_the_stopped_path_leads_to_the_combat_in_that_cell():
    """Same example, whole round: "상대 기동 기물이 없으면 수문장은 정착 기물을 겨냥해 1회 피격만으로 포획한다"."""
    res = sim(PATH.format(kind="round", who="player", move='move:\n  activate: ["1,1"]\n  moves:\n  - {piece: gk, path: ["2,1", "3,1"]}'))
    assert turn(res, "move")["encounters"] == ["2,1"]
    assert turn(res, "combat")["prisoners"]["A"] == ["foe"]
    assert res["final"]["cells"]["2,1"]["A"][0]["id"] == "gk"


# ------------------------------------------------------------ r29: 종류 한도 ----
R29 = """\
kind: round
player: DGM
board: {width: 5, height: 5}
field:
  DGM: [수문장, 장인, 갑사, 별마대, null]
  BGM: [개미, 증폭기, 행성굴착기, 거신, null]
field_actions:
  DGM:
  - {exhausted: 4}
cells:
  "2,1":
    DGM:
    - {id: gk, card: 수문장}
    - {id: star, card: 별마대, lv: 7, hp: 1}
    - {id: ga, card: 갑사, lv: 4, hp: 5, atk: 1}
    BGM:
    - {id: giant, card: 거신}
    - {id: drill, card: 행성굴착기}
"""


def test_r29_an_exhausted_kind_keeps_its_card_while_a_piece_is_on_the_board():
    """필드와 카드: "종류 한도가 모두 소진된 상태에서 보드 위 그 종류 기물이 0기가 되면 그 기물 카드는 필드에서
    제거되어 자리가 해제됩니다." — with 별마대 still on the board the card stays, and so does 병풍 (수문장 Lv 6
    leads the attack order). The engine used to remove the card at once."""
    res = sim(R29)
    kev = next(x for x in turn(res, "supply")["links"] if x["type"] == "kind-exhausted")
    assert (kev["card"], kev["on_board"], kev["leaves"], kev["rule"]) == ("별마대", ["star"], False,
                                                                          "field.kind-exhausted")
    order = next(e for e in combat_events(res, "step") if e["step"] == 4)["order"]
    assert order == ["star", "gk", "ga"]  # gk at Lv 6 (병풍) before ga at Lv 4


def test_r29_the_card_leaves_when_its_last_piece_leaves_and_its_entry_effect_ends_at_once():
    """"… 0기가 되면 그 기물 카드는 필드에서 제거" and "등장효과의 지속 효과(별마대 병풍의 Lv 6 …)는 그 기물
    카드가 필드에서 활성 상태인 동안만 적용됩니다. 은퇴하거나 제거되는 순간 해제됩니다." — the last 별마대 is
    captured in step 5 of round 1: from that moment 수문장 is Lv 3 again, so the next attack of the same
    volley takes 갑사 (Lv 4), not 수문장."""
    res = sim(R29)
    ev = combat_events(res, "field", "capture")
    i = next(k for k, e in enumerate(ev) if e["type"] == "capture" and e["piece"] == "star")
    removed, screen = ev[i + 1], ev[i + 2]
    assert (removed["effect"], removed["card"], removed["last"], removed["rule"]) == (
        "removed", "별마대", "star", "field.kind-exhausted")
    assert (screen["effect"], screen["card"], screen["pieces"]) == ("병풍", None, ["gk"])
    assert attacks(res)[3:5] == [(1, "giant", "star"), (1, "drill", "ga")]
    dgm = res["final"]["field"]["DGM"]
    assert dgm["slots"][3]["top"] is None and dgm["levels"]["수문장"] == 3
    assert any(x["type"] == "kind-exhausted" and x["leaves"] for x in turn(res, "combat")["links"])


def test_r29_no_piece_on_the_board_the_card_leaves_at_once():
    res = sim(R29.replace('    - {id: star, card: 별마대, lv: 7, hp: 1}\n', ''))
    kev = next(x for x in turn(res, "supply")["links"] if x["type"] == "kind-exhausted")
    assert kev["leaves"] is True and kev["on_board"] == []
    assert res["final"]["field"]["DGM"]["slots"][3]["top"] is None


# ---------------------------------------------------- r30: uncover in step 2 ----
R30 = """\
kind: round
player: DGM
board: {width: 5, height: 5}
field:
  DGM: [수문장, 장인, 갑사, 별마대, null]
  BGM: [개미, 증폭기, 행성굴착기, 거신, {set: 재부팅}]
field_actions:
  DGM:
  - {place: 재부팅, slot: 4, face: down}
cells:
  "2,1":
    DGM:
    - {id: gk, card: 수문장}
    - {id: ga, card: 갑사, lv: 4, hp: 5, atk: 1}
    - {id: art, card: 장인, state: settled}
    BGM:
    - {id: giant, card: 거신}
    - {id: ant, card: 개미, lv: 1, hp: 1, atk: 1, state: settled}
response:
- {side: BGM, card: 재부팅, target: ant}
- {side: DGM, card: 재부팅, target: art}
"""


def test_r30_a_counter_card_trashed_in_step_2_uncovers_before_steps_4_and_5():
    """필드와 카드: "위 카드가 폐기되면 아래 기물 카드는 복귀합니다. 다시 공개되는 것이므로 등장효과가
    재발동합니다(별마대라면 병풍이 다시 적용됩니다)." and "세트한 그 라운드에도 맞대응이 가능하며, 기물 카드 위에
    엎어 세트했다면 같은 라운드 은퇴·해제 예외(코인 기동 전환 불가)가 그대로 적용됩니다." — 병풍 is back in step
    2, so 거신's volley takes 수문장 (Lv 6), not 갑사 (Lv 4). The engine used to uncover after the combat."""
    res = sim(R30)
    ev = combat_events(res, "field")
    trash = next(e for e in ev if e["effect"] == "trash" and e["side"] == "DGM")
    uncover = next(e for e in ev if e["effect"] == "uncover")
    screen = next(e for e in ev if e["effect"] == "병풍" and e.get("why") == "uncover")
    assert trash["under"] == "별마대" and trash["step"] == 2
    assert (uncover["card"], uncover["step"], uncover["same_round"], uncover["pieces"]) == ("별마대", 2, True, [])
    assert (screen["card"], screen["lv"], screen["pieces"], screen["step"]) == ("수문장", 6, ["gk"], 2)
    assert (1, "giant", "gk") in attacks(res) and (1, "giant", "ga") not in attacks(res)
    link = turn(res, "combat")["links"][0]
    assert (link["cause"], link["same_round"], link["at_once"], link["step"]) == ("uncover", True, True, 2)


def test_r30_with_a_stack_from_an_earlier_round_the_pieces_turn_mobile_at_once():
    """"해제 즉시 그 카드의 기물 코인 전부를 기동으로 돌려야 하며(의무)" — the 재부팅 was set over 별마대 before
    this round (a stacked slot, top first): when it is trashed in step 2 the settled 별마대 turns mobile at
    once and attacks in step 4; 수문장 is Lv 6 again."""
    text = R30.replace("field_actions:\n  DGM:\n  - {place: 재부팅, slot: 4, face: down}\n", "")
    text = text.replace("DGM: [수문장, 장인, 갑사, 별마대, null]", "DGM: [수문장, 장인, 갑사, [{set: 재부팅}, 별마대], null]")
    text = text.replace("    - {id: ga, card: 갑사, lv: 4, hp: 5, atk: 1}\n", "    - {id: star, card: 별마대, state: settled}\n")
    res = sim(text)
    flips = [e for e in combat_events(res, "flip") if e["rule"] == "field.uncover"]
    assert [(e["piece"], e["to"], e["step"]) for e in flips] == [("star", "mobile", 2)]
    order = next(e for e in combat_events(res, "step") if e["step"] == 4)["order"]
    assert order == ["gk", "star", "art"]
    assert res["final"]["field"]["DGM"]["slots"][3]["top"] == "별마대"


# ----------------------------------------------------------- stacked slots ----
def test_a_stacked_slot_at_the_start_is_a_retired_card_under_a_set_card():
    """"이미 필드에 놓인 카드 위에 엎어서 세트할 수 있습니다(… 묶음은 1자리로 카운트). 아래에 깔린 카드는 사용
    불가 상태입니다. 아래 카드가 기물 카드였다면 '은퇴' 상태가 되어 비활성입니다." — and trashing the top card
    later brings it back with its pieces mobile (not the same round)."""
    res = sim("""\
        kind: field
        side: DGM
        field: [수문장, 장인, [{set: 재부팅}, 별마대], null, null]
        actions:
        - {trash: 3}
        """)
    ups = [e for e in res["events"] if e["type"] == "uncover"]
    assert [(e["card"], e["pieces"], e["same_round"]) for e in ups] == [("별마대", "mobile", False)]
    assert res["levels"]["수문장"] == 6


def test_the_retire_event_says_the_card_is_covered():
    """Issue 18: the retire event said "face": "up" for a card now covered; it says covered, and what it
    was (was_face)."""
    res = sim("""\
        kind: field
        side: DGM
        field: [수문장, 장인, 별마대, null, null]
        actions:
        - {place: 재부팅, slot: 3, face: down}
        """)
    ret = next(e for e in res["events"] if e["type"] == "retire")
    assert (ret["face"], ret["was_face"]) == ("covered", "up")


# ------------------------------------------------- field actions at their turn ----
AT = """\
kind: round
player: DGM
dor: {DGM: 20}
board: {width: 5, height: 5}
field:
  DGM: [수문장, 장인, 갑사, null, null]
  BGM: [개미, 증폭기, 행성굴착기, 거신, null]
field_actions:
  DGM:
  - {place: 별마대, slot: 4, face: up, at: production}
  - {place: 재부팅, slot: 3, face: down, at: 암막턴}
  BGM:
  - {place: 재부팅, slot: 5, face: down, at: move}
cells:
  "0,0": {DGM: [{id: gk, card: 수문장}, {id: ga, card: 갑사, lv: 4, hp: 5, atk: 1}]}
  "4,4": {BGM: [{id: giant, card: 거신}]}
produce:
- {card: 별마대, cell: "0,0"}
"""


def test_field_actions_happen_at_the_turn_they_name():
    """필드와 카드: "세트는 자기 라운드 중 언제든지, 원하는 매수만큼 가능합니다(보급턴 한정 아님)" and the page's
    example "별마대를 3번 자리에 앞면으로 내린다 → … 이번 생산턴부터 별마대(12도르) 생산 가능" — placed in the
    생산턴, before its production; a (대응) card set over 갑사 in the 암막턴 retires it then ("은퇴되는 순간 그
    카드의 기물 코인 전부를 즉시 정착으로")."""
    res = sim(AT)
    prod = turn(res, "production")
    assert [e["type"] for e in prod["field_actions"]["DGM"]["events"]][:2] == ["place", "entry"]
    assert prod["placed"][0]["card"] == "별마대" and res["final"]["dor"]["DGM"] == 8
    assert "field_actions" not in turn(res, "supply")
    black = turn(res, "blackout")
    link = next(x for x in black["links"] if x["type"] == "link")
    assert (link["cause"], link["pieces"], link["turn"]) == ("retire", ["ga"], "blackout")
    ga = next(p for p in res["final"]["cells"]["0,0"]["DGM"] if p["id"] == "ga")
    assert ga["state"] == "settled"


def test_the_opponent_cannot_set_in_my_round_at_any_turn():
    """"(대응) 특수카드만은 … 자기 라운드에 미리 세트해 두고 상대 라운드의 대응턴에 발동합니다(상대 라운드 중에는
    세트 불가)." — refused in the 이동턴 with its clause and reason, the round goes on."""
    res = sim(AT)
    (err,) = turn(res, "move")["field_errors"]
    assert (err["side"], err["reason"], err["rule"]) == ("BGM", "not-own-round", "field.set")
    assert err["message"] and turn(res, "move")["valid"] is True


def test_a_card_set_after_the_move_may_be_declared_as_a_counter():
    """"세트한 그 라운드에도 맞대응이 가능하며" — set at the 대응턴 (before its declarations)."""
    text = R30.replace("- {place: 재부팅, slot: 4, face: down}", "- {place: 재부팅, slot: 4, face: down, at: 대응턴}")
    res = sim(text)
    assert not turn(res, "response")["errors"]
    assert turn(res, "move")["field_actions"]["DGM"]["events"][0]["type"] == "place"
    assert (1, "giant", "gk") in attacks(res)


def test_an_unknown_at_is_an_invalid_file():
    import pytest

    from flamer_ref.errors import DataError

    with pytest.raises(DataError) as exc:
        sim(AT.replace("at: production", "at: 점심"))
    assert exc.value.problems[0].code == "action-at" and "점심" in exc.value.problems[0].message


# ------------------------------------------------------ (이동) special cards ----
def test_move_special_cards_are_used_and_their_missing_text_is_reported():
    """이동턴: "(이동) 특수카드(양각·멀티테스킹 등)는 세트하거나 손패에서 바로 씁니다." — nothing more: the engine
    does not guess their effect (unresolved move-card-effect-unknown); a set one is trashed, and the card it
    covered comes back ("위 카드가 폐기되면 아래 기물 카드는 복귀합니다")."""
    res = sim("""\
        kind: round
        player: DGM
        board: {width: 5, height: 5}
        field:
          DGM: [수문장, 장인, 갑사, [{set: 양각}, 별마대], null]
        cells:
          "0,0": {DGM: [{id: gk, card: 수문장}, {id: star, card: 별마대, state: settled}]}
          "4,4": {BGM: [{id: giant, card: 거신}]}
        move:
          특수카드: [양각, 멀티테스킹]
        """)
    gaps = [u for u in res["unresolved"] if u["reason"] == "move-card-effect-unknown"]
    assert [(u["card"], u["rule"]) for u in gaps] == [("양각", "move.special-cards"), ("멀티테스킹", "move.special-cards")]
    assert all("룰북에 없습니다" in u["message"] for u in gaps)
    used = turn(res, "move")["move_cards"]
    assert [(m["card"], m["from"]) for m in used] == [("양각", "field"), ("멀티테스킹", "hand")]
    assert res["final"]["field"]["DGM"]["slots"][3]["top"] == "별마대"
    star = next(p for p in res["final"]["cells"]["0,0"]["DGM"] if p["id"] == "star")
    assert star["state"] == "mobile"


def test_a_card_that_is_not_a_move_special_card_is_refused_in_the_move_block():
    import pytest

    from flamer_ref.errors import DataError

    with pytest.raises(DataError) as exc:
        sim("""\
            kind: round
            player: DGM
            board: {width: 5, height: 5}
            cells:
              "0,0": {DGM: [{id: gk, card: 수문장}]}
              "4,4": {BGM: [{id: giant, card: 거신}]}
            move:
              cards: [재부팅]
            """)
    assert exc.value.problems[0].code == "move-card-not-move"


# ------------------------------------------------------------- round output ----
def _text(text: str, tmp_path) -> str:
    from inprocess import invoke

    path = tmp_path / "r.yaml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    out = invoke("simulate", str(path))
    assert out.exit_code == 0, out.output
    return out.output


PROD = """\
kind: round
player: DGM
dor: {DGM: 20}
board: {width: 5, height: 5, values: {"0,0": 2}}
field:
  DGM: [수문장, 장인, 갑사, {set: 별마대}, null]
cells:
  "0,0": {DGM: [{id: gk, card: 수문장, state: settled}, {id: art, card: 장인, state: settled}]}
  "2,2": {DGM: [{id: ga, card: 갑사, lv: 4, hp: 5, atk: 1, state: settled}], BGM: [{id: ant, card: 개미, lv: 1, hp: 1, atk: 1, state: settled}]}
  "3,3": {DGM: [{id: g2, card: 수문장}], BGM: [{id: giant, card: 거신}]}
produce:
- {card: 별마대, cell: "0,0"}
"""


def test_round_words_say_what_happened_where_it_happened(tmp_path):
    """Issue 18's wrong or missing words: the 도르 line with the 12 paid in production, "등장효과 발동" saying
    what changed (병풍: "가장 왼쪽 카드인 수문장은 전부 Lv 6"), the skipped 대응턴 in its place (before the
    전투턴), and the final board marking the 대립 cell ("대립 셀은 어느 쪽도 점령·확보하지 못합니다")."""
    out = _text(PROD, tmp_path)
    assert "도르 20 → 10 (보급 +2 · 생산 −12)" in out
    assert "등장효과 발동: 수문장의 기물 수문장 1 Lv 3 → 6" in out   # pieces by their cards
    assert out.index("4. 대응턴 없음") < out.index("══ 5. 전투턴")
    assert "↳ 대립 셀" in out.split("══ 라운드 끝 ══")[1]
    res = sim(PROD)
    assert res["final"]["contested"] == [{"cell": "2,2", "standoff": True, "rule": "combat.standoff"}]
    act = next(e for e in turn(res, "production")["events"] if e["type"] == "activate")
    assert act["changed"] == [{"card": "수문장", "lv_before": 3, "lv_after": 6, "pieces": ["gk"]}]


def test_an_old_standoff_cell_left_out_of_the_encounters_is_said_to_be_a_reading():
    """전투턴: "이후 어느 쪽이든 그 셀에 기동 기물이 생기면 … 그다음 전투턴에 다시 조우 셀로 취급" — that a 대립 cell
    with no mobile piece is no encounter is a reading of that sentence: listed in unresolved."""
    res = sim(PROD)
    (gap,) = [u for u in res["unresolved"] if u["reason"] == "standoff-no-encounter"]
    assert gap["cells"] == ["2,2"] and gap["rule"] == "combat.standoff" and "해석" in gap["message"]


def test_a_home_win_in_a_shared_home_cell_is_listed_as_a_reading():
    """승리확인턴: "상대 본진 2셀 중 하나에 자기 기물이 위치해 있으면(기동·정착 무관) VP와 관계없이 승리" against
    전투턴: "대립 셀은 어느 쪽도 점령·확보하지 못합니다" — the pages disagree for a shared home cell."""
    res = sim("""\
        kind: victory
        player: DGM
        homes: {BGM: ["4,4", "4,3"]}
        cells:
          "4,4": {DGM: [{id: gk, card: 수문장, state: settled}], BGM: [{id: ant, card: 개미, lv: 1, hp: 1, atk: 1, state: settled}]}
        """)
    assert res["winner"] == "DGM"
    (gap,) = res["unresolved"]
    assert (gap["reason"], gap["interpretation"], gap["cells"]) == ("home-contested", "interp.home.any-presence", ["4,4"])
    assert "서로 맞지 않습니다" in gap["message"]


def test_a_piece_settled_by_its_retired_card_gets_no_blackout_advice():
    """필드와 카드: "은퇴되는 순간 그 카드의 기물 코인 전부를 즉시 정착으로 돌리고" — such a piece cannot move, and
    the advice is its card's return ("위 카드가 폐기되면 아래 기물 카드는 복귀"), not "자기 암막턴에 앞면으로"."""
    res = sim("""\
        kind: round
        player: DGM
        board: {width: 5, height: 5}
        field:
          DGM: [수문장, 장인, 갑사, [{set: 재부팅}, 별마대], null]
        cells:
          "0,0": {DGM: [{id: star, card: 별마대, state: settled}]}
          "4,4": {BGM: [{id: giant, card: 거신}]}
        move:
          activate: ["0,0"]
          moves:
          - {piece: star, path: ["1,1"]}
        """)
    (err,) = turn(res, "move")["errors"]
    assert err["reason"] == "settled" and err["detail"]["retired_card"] == "별마대"
    assert "복귀하면 기동" in err["message"] and "암막턴" not in err["message"]


def test_the_uncover_at_step_2_is_told_at_step_2_not_after_the_final_state(tmp_path):
    """Issue 18: the uncover note was printed after the combat's final state; it is told in step 2, and the
    trash line no longer says the slot becomes empty when a card lies underneath."""
    out = _text(R30, tmp_path)
    combat = out.split("══ 5. 전투턴 ══")[1].split("══ 6.")[0]
    assert "4번 자리의 아래 카드 별마대가" in combat and "4번 자리가 빈자리가 됨" not in combat
    assert combat.index("별마대 복귀") < combat.index("4단계")
    assert "→ DGM의 별마대 기물" not in combat


def test_a_defenders_counter_card_over_its_piece_card_uncovers_its_pieces_in_my_round():
    """필드와 카드, 은퇴의 대가: "상대 라운드 대응턴에 진내폭격을 발동·폐기하면 그 자리가 해제되어 아래 기물
    카드가 복귀한다" and "해제 즉시 그 카드의 기물 코인 전부를 기동으로 돌려야 하며(의무)" — the defender set
    재부팅 over 거신 in its own round (a stacked slot); used in my round, 거신 comes back in step 2 and its
    settled piece fights mobile in steps 4–5."""
    res = sim("""\
        kind: round
        player: DGM
        board: {width: 5, height: 5}
        field:
          DGM: [수문장, 장인, 갑사, 별마대, null]
          BGM: [개미, 증폭기, 행성굴착기, [{set: 재부팅}, 거신], null]
        cells:
          "1,1": {DGM: [{id: gk, card: 수문장}, {id: art, card: 장인}]}
          "2,1": {BGM: [{id: giant, card: 거신, state: settled}, {id: drill, card: 행성굴착기, state: settled}]}
        move:
          activate: ["1,1"]
          moves:
          - {piece: gk, path: ["2,1"]}
          - {piece: art, path: ["2,1"]}
        response:
        - {side: BGM, card: 재부팅, target: drill}
        """)
    uncover = next(e for e in combat_events(res, "field") if e["effect"] == "uncover")
    assert (uncover["side"], uncover["card"], uncover["pieces"], uncover["same_round"]) == ("BGM", "거신", ["giant"], False)
    order5 = next(e for e in combat_events(res, "step") if e["step"] == 5)["order"]
    assert order5 == ["giant", "drill"]
    assert res["final"]["field"]["BGM"]["slots"][3]["top"] == "거신"


# ------------------------------------------------------------- build effects ----
BUILD = """\
kind: round
player: DGM
board: {width: 5, height: 5}
field:
  DGM: [수문장, 장인, 갑사, 별마대, {set: 잠입건설}]
  BGM: [개미, 증폭기, 행성굴착기, 거신, {set: 재부팅}]
cells:
  "2,1":
    DGM:
    - {id: gk, card: 수문장}
    BGM:
    - {id: giant, card: 거신}
    - {id: ant, card: 개미, lv: 1, hp: 1, atk: 1, state: settled}
response:
- {side: BGM, card: 재부팅, target: ant}
- {side: DGM, card: 잠입건설, cell: "2,1", effect: [{build: 폭약, id: bomb, lv: 1, hp: 1}, {build: 폭약, cell: "0,0", lv: 1, hp: 1}]}
"""


def test_a_build_effect_places_a_mobile_piece_that_fights_and_a_counter_builds_only_in_the_response_cell():
    """대응턴: "여러 셀에 미치는 카드(잠입건설·버스터콜·땅굴 건설 등)는 대응 셀에 해당하는 부분만 적용됩니다 —
    잠입건설은 대응 셀에만 생산"; 전투턴: "잠입건설로 세운 폭약은 ATK 5로 1회 공격" (built pieces are mobile,
    "생산·건설 기물은 항상 기동"). 잠입건설's own text is not on the pages: the build is written inline."""
    res = sim(BUILD)
    built = combat_events(res, "build")
    assert [(e["piece"], e["cell"], e["joins"], e["rule"]) for e in built] == [("bomb", "2,1", "combat",
                                                                                  "production.placement")]
    fz = [e for e in combat_events(res, "fizzle") if e["reason"] == "build-blocked"]
    assert [(e["where"], e["rule"]) for e in fz] == [("0,0", "response.counter.multi-cell")]
    assert any(a[1] == "bomb" and a[2] == "giant" for a in attacks(res))
    hit = next(e for e in combat_events(res, "attack") if e["actor"] == "bomb")
    assert hit["amount"] == 5


def test_declaring_a_build_card_without_its_text_is_a_gap_not_a_guess():
    """The pages never give 잠입건설's text (what, where, how many): declared without an effect, the round
    reports it in unresolved (effect-unknown) and builds nothing."""
    res = sim(BUILD.replace(', effect: [{build: 폭약, id: bomb, lv: 1, hp: 1}, {build: 폭약, cell: "0,0", lv: 1, hp: 1}]', ''))
    assert any(u["reason"] == "effect-unknown" and u.get("card") == "잠입건설" for u in res["unresolved"])
    assert not combat_events(res, "build")
