"""Issue 7: explanations a judge can read aloud — forbidden plays answered as rulings ("불가 — …" with the clause),
why each target was chosen, the clause that actually decides, the wrong sentences fixed, --compare in Korean,
and particles chosen by 받침."""

from __future__ import annotations

import re
from pathlib import Path

import flamer_fork
import pytest

from flamer_ref import runner
from flamer_ref.errors import DataError, FlamerError, Forbidden
from flamer_ref.render import render

from .conftest import C, P, events, scenario

ROOT = Path(__file__).resolve().parents[2]
HEDGED = re.compile(r"이\(가\)|가\(이\)|을\(를\)|를\(을\)|은\(는\)|는\(은\)|와\(과\)|과\(와\)|\(으\)로")


def text(run, corpus, obj, as_of=None, fmt="txt", flat=False):
    data = run(obj, as_of=as_of)
    out = render(f"simulate/combat.{fmt}.j2", data=data, refs=runner.refs(corpus, data))
    return data, (" ".join(out.split()) if flat else out)


def forbidden(run, obj, as_of=None) -> Forbidden:
    with pytest.raises(Forbidden) as info:
        run.result(obj, as_of=as_of)
    err = info.value
    assert isinstance(err, FlamerError) and err.code == "forbidden"
    assert err.message.startswith("불가 — ") and err.why in err.message
    assert "데이터 오류" not in err.message and "고치는 법" not in err.message
    assert f"조항 {err.rule}" in err.message  # the engine's own words; the CLI cites numbers (test_player_words)
    assert not HEDGED.search(err.message)
    return err


# ------------------------------------------------------------ forbidden plays ----
TWO = {"1,1": {"A": [P("a")], "B": [P("b")]}, "2,2": {"A": [P("a2")], "B": [P("b2")]}}


def test_counter_on_a_cell_that_is_no_response_cell(run, corpus):
    err = forbidden(run, scenario(TWO, response=[{"side": "B", "effect": {"attack": 1, "cell": "1,1"}},
                                                 {"side": "A", "effect": {"attack": 1, "cell": "2,2"}}]))
    assert err.rule == "response.counter" and err.rule in corpus.clauses
    assert err.where["key"] == "response[1].side" and "대응 셀은 1,1" in err.message


def test_attacker_opening_the_response_turn(run, corpus):
    err = forbidden(run, """\
        kind: combat
        attacker: A
        cells:
          "1,1":
            A: [{id: a, name: 가, lv: 1, hp: 1, atk: 1}]
            B: [{id: b, name: 나, lv: 1, hp: 1, atk: 1}]
        response:
        - side: A
          effect: {attack: 1, cell: "1,1"}
        """)
    assert err.rule == "response.opener" and err.where == {"file": "test.yaml", "line": 8, "key": "response[0].side"}
    assert "수비자 B가 엽니다" in err.message and "턴 플레이어 A는" in err.message


def test_unset_response_card_when_field_is_given(run):
    obj = scenario({"2,4": {"DGM": [C("art", "장인")], "BGM": [C("giant", "거신"), C("drill", "행성굴착기", state="settled")]}},
                   attacker="DGM", response=[{"side": "BGM", "card": "재부팅", "target": "drill"}],
                   field={"DGM": ["수문장", "장인", None, None, None], "BGM": ["개미", "증폭기", "행성굴착기", "거신", None]})
    err = forbidden(run, obj)
    assert err.rule == "field.special.response-set" and "재부팅이 BGM의 필드에 세트되어 있지 않습니다" in err.message


def test_defender_battle_card_before_the_attackers(run):
    cells = {"1,1": {"A": [P("a", hp=9)], "B": [P("b", hp=9)]}}
    err = forbidden(run, scenario(cells, battle_cards=[{"side": "B", "cell": "1,1", "effect": {"attack": 1}},
                                                       {"side": "A", "cell": "1,1", "effect": {"attack": 1}}]))
    assert err.rule == "combat.step1.battle-cards" and err.where["key"] == "battle_cards[0].side"
    assert "공격자가 먼저 선언" in err.message
    # attacker first, then the defender (and a defender alone) are plays in turn
    ok = run(scenario(cells, battle_cards=[{"side": "A", "cell": "1,1", "effect": {"attack": 1}},
                                           {"side": "B", "cell": "1,1", "effect": {"attack": 1}}]))
    assert [e["side"] for e in events(ok, "declare")] == ["A", "B"]
    assert run(scenario(cells, battle_cards=[{"side": "B", "cell": "1,1", "effect": {"attack": 1}}]))["cells"]


def test_response_sp_from_a_piece_that_is_not_settled(run):
    obj = scenario({"1,1": {"A": [P("a")], "B": [P("b"), C("bomb", "폭약", lv=1, hp=1)]}},
                   response=[{"side": "B", "card": "폭약", "cell": "1,1"}])
    err = forbidden(run, obj)
    assert err.rule == "response.declare.what" and err.rule != "response.counter.requirements"
    obj["response"][0]["piece"] = "bomb"
    err = forbidden(run, obj)
    assert err.reason == "sp-piece-mobile" and "기동(앞면) 상태라" in err.message


def test_counter_before_it_was_introduced_names_the_ruling(run):
    obj = scenario({"1,1": {"A": [P("a")], "B": [P("b"), P("x", state="settled")]}},
                   response=[{"side": "B", "effect": {"flip": "x", "to": "mobile"}},
                             {"side": "A", "effect": {"attack": 1, "cell": "1,1"}}])
    err = forbidden(run, obj, as_of="2026-09-18")
    assert err.rule == "response.opener" and err.ruling == "ruling.2026-09-19.counter"
    assert "판정 ruling.2026-09-19.counter" in err.message


def test_more_forbidden_plays(run):
    err = forbidden(run, scenario({"1,1": {"A": [P("a")]}, "2,2": {"B": [P("b")]}},
                                  response=[{"side": "B", "effect": {"attack": 1, "cell": "2,2"}}]))
    assert err.rule == "response.when"
    err = forbidden(run, scenario({"1,1": {"A": [P("a")], "B": [P("b")]}, "3,3": {"A": [P("c")]}},
                                  response=[{"side": "B", "effect": {"attack": 1, "cell": "3,3"}}]))
    assert err.rule == "response.attack-cells" and "3,3은 조우 셀이 아닙니다" in err.message
    err = forbidden(run, scenario({"1,1": {"A": [P("a")], "B": [P("b")]}},
                                  battle_cards=[{"side": "A", "cell": "9,9", "effect": {"attack": 1}}]))
    assert err.rule == "combat.step1.battle-cards" and err.problems[0].key == "battle_cards[0].cell"
    err = forbidden(run, scenario({"1,1": {"A": [P("a")], "B": [P("b")]}},
                                  response=[{"side": "B", "card": "진내폭격", "cell": "1,1", "cost": {"destroy": "a"}}]))
    assert err.rule == "response.declare.timing" and err.reason == "cost-mismatch"
    assert "자기 기물 헌납" in err.message  # 진내폭격's cost in the page's word (its 헌납)
    err = forbidden(run, scenario({"1,1": {"A": [P("a")], "B": [P("b")]}},
                                  response=[{"side": "B", "effect": {"attack": 1, "cell": "1,1"}, "cost": {"destroy": "a"}}]))
    assert err.reason == "cost-not-own" and "a는 A의 기물입니다" in err.message


def test_malformed_input_stays_a_data_error(run):
    for obj in (scenario({"1,1": {"A": [P("a")], "B": [P("b"), P("c")]}},
                         response=[{"side": "B", "effect": {"attack": 1, "cell": "1,1"},
                                    "cost": [{"destroy": "c"}, {"destroy": "c"}]}]),
                scenario({"1,1": {"A": [P("a")], "B": [P("b")]}},
                         response=[{"side": "B", "effect": {"buff": "target", "atk": 1}}])):
        with pytest.raises(DataError) as info:
            run.result(obj)
        assert not isinstance(info.value, Forbidden)


def test_cli_answers_a_forbidden_play_as_a_ruling(tmp_path):
    f = tmp_path / "counter.yaml"
    f.write_text('kind: combat\nattacker: A\ncells:\n  "1,1":\n    A: [{id: a, name: 가, lv: 1, hp: 1, atk: 1}]\n'
                 '    B: [{id: b, name: 나, lv: 1, hp: 1, atk: 1}]\n  "2,2":\n'
                 '    A: [{id: a2, name: 가, lv: 1, hp: 1, atk: 1}]\n    B: [{id: b2, name: 나, lv: 1, hp: 1, atk: 1}]\n'
                 'response:\n- {side: B, effect: {attack: 1, cell: "1,1"}}\n- {side: A, effect: {attack: 1, cell: "2,2"}}\n',
                 encoding="utf-8")
    out = flamer_fork.run("simulate", str(f), timeout=120)
    assert out.returncode == 1 and out.stdout == ""
    assert out.stderr.startswith("불가 — 맞대응은") and "근거: 조항 5.4 맞대응" in out.stderr
    assert "12행" in out.stderr and "Traceback" not in out.stderr


# ------------------------------------------------------- targets and clauses ----
def test_why_each_target_was_chosen(run, corpus):
    data, out = text(run, corpus, scenario({"1,1": {"A": [P("a", lv=3, hp=9, atk=1)],
                                                     "B": [P("lo", lv=2, hp=9, atk=1), P("hi", lv=6, hp=1, atk=1)]}}))
    hit = events(data, "attack", actor="a")[0]
    assert hit["target"] == "hi" and hit["target_by"] == "lv" and hit["target_value"] == 6
    assert hit["target_rule"] == "combat.targeting" and "상대 기동 기물 중 Lv이 가장 높음(6)" in out
    # a tie on Lv decided by the current HP cites combat.tiebreak
    data, out = text(run, corpus, scenario({"1,1": {"A": [P("a", lv=3, hp=9, atk=1)],
                                                     "B": [P("x", lv=4, hp=2, atk=1), P("y", lv=4, hp=5, atk=1)]}}),
                     flat=True)
    hit = events(data, "attack", actor="a")[0]
    assert hit["target"] == "y" and hit["target_by"] == "hp" and hit["target_rule"] == "combat.tiebreak"
    assert "Lv 4 동률 → 현재 HP가 가장 높음(5)" in out and "대상 6.14 Lv 동률 판정" in out and "combat.tiebreak" not in out
    # then ATK, then cost, then (no rule) the listing order
    data = run(scenario({"1,1": {"A": [P("a", lv=3, hp=9, atk=1)],
                                 "B": [P("x", lv=4, hp=5, atk=1), P("y", lv=4, hp=5, atk=2)]}}))
    assert events(data, "attack", actor="a")[0]["target_by"] == "atk"
    data = run(scenario({"1,1": {"A": [P("a", lv=3, hp=9, atk=1)],
                                 "B": [P("x", lv=4, hp=5, atk=1, cost=2), P("y", lv=4, hp=5, atk=1, cost=3)]}}))
    assert events(data, "attack", actor="a")[0]["target_by"] == "cost"
    data = run(scenario({"1,1": {"A": [P("a", lv=3, hp=9, atk=1)],
                                 "B": [P("x", lv=4, hp=5, atk=1, cost=2), P("y", lv=4, hp=5, atk=1, cost=2)]}}))
    hit = events(data, "attack", actor="a")[0]
    assert hit["target_by"] == "listing" and hit["target_rule"] == "interp.tiebreak.listing-order"


def test_a_hit_on_a_settled_piece_shows_no_hp_change(run, corpus):
    data, out = text(run, corpus, scenario({"3,3": {"A": [P("gk")],
                                                     "B": [P("s1", state="settled"), P("s2", state="settled")]}}),
                     flat=True)
    hit = events(data, "attack")[0]
    assert hit["target_state"] == "settled" and hit["target_pool"] == "settled"
    line = out[out.index("gk → s1"):][:120]
    assert "HP 3 → 2" not in line and "→ 2" not in line
    assert "HP와 무관하게 포획" in line and "상대 기동 기물이 없어 정착 기물을 겨냥" in line


def test_occupation_cites_the_step7_clause_not_no_retreat(run, corpus):
    data, out = text(run, corpus, scenario({"1,1": {"A": [P("a", hp=9, atk=3)], "B": [P("b")]}}))
    end = events(data, "end")[0]
    assert end["occupant"] == "A" and end["rule"] == "combat.step7.sweep"
    assert end["survivors"] == {"A": ["a"], "B": []}
    assert "combat.no-retreat" not in out


def test_atk_zero_only_cell_cites_the_step7_sentence(run, corpus):
    data = run(scenario({"1,1": {"A": [P("z", lv=5, atk=0)], "B": [P("s", atk=0, state="settled")]}}))
    sw = events(data, "sweep", side="A")[0]
    assert sw["rule"] == "combat.step7.sweep" and "interpretation" not in sw
    assert events(data, "no-attack", actor="z")[0]["rule"] == "combat.step7.sweep"
    # a negative ATK (an effect lowered it: a stated ATK is at least 0) is the same only by interpretation, and says so
    data = run(scenario({"1,1": {"A": [P("z", lv=5, atk=1)], "B": [P("s", atk=0, state="settled")]}},
                        response=[{"side": "B", "effect": {"buff": "z", "atk": -2}}]))
    sw = events(data, "sweep", side="A")[0]
    assert sw["rule"] == "combat.step7.sweep" and sw["interpretation"] == "interp.sweep.attack-executed"


# ------------------------------------------------------- wrong sentences fixed ----
def test_both_sides_remaining_is_not_reported_as_nobody_left(run, corpus):
    data, out = text(run, corpus, scenario({"1,1": {"A": [P("z", lv=5, atk=0)],
                                                     "B": [P("s1", atk=0, state="settled")]}}))
    assert data["cells"]["1,1"]["occupant"] is None
    assert "양측 모두 남지 않음" not in out and "양측 기물이 함께 남음" in out


def test_departure_from_a_cell_without_combat(run, corpus):
    data, out = text(run, corpus, scenario({"1,1": {"A": [P("a")], "B": [P("b")]}, "5,5": {"B": [P("far")]}},
                                           response=[{"side": "B", "effect": {"move": "far", "to": "6,6"}}]))
    dep = events(data, "depart", piece="far")[0]
    assert dep["from_combat"] is False and dep["rule"] != "response.resolve.depart"
    assert events(data, "arrive", piece="far")[0]["joins"] is None
    assert "(5,5)의 전투에서 제외" not in out and "(5,5)에는 전투가 없음" in out
    assert "그 셀의 전투에는 3단계부터" not in out
    # a departure from the combat cell still says it leaves that combat
    data, out = text(run, corpus, scenario({"1,1": {"A": [P("a")], "B": [P("b"), P("x")]}},
                                           response=[{"side": "B", "effect": {"move": "x", "to": "0,0"}}]))
    assert events(data, "depart", piece="x")[0]["from_combat"] is True and "(1,1)의 전투에서 제외(이탈)" in out


def test_a_step1_capture_is_no_departure(run, corpus):
    data, out = text(run, corpus, scenario({"1,1": {"A": [P("a")], "B": [P("b", hp=2)]}},
                                           battle_cards=[{"side": "A", "cell": "1,1", "effect": {"attack": 5}}]))
    assert data["prisoners"]["A"] == ["b"] and not events(data, "vacated")
    assert "모두 사라짐" not in out and "response.resolve.depart" not in out
    assert events(data, "no-attack", actor="a")[0]["rule"] == "combat.targeting"


def test_an_explosive_hit_is_the_effect_not_the_fragment(run, corpus):
    obj = scenario({"1,1": {"A": [P("a", lv=3, hp=9, atk=1)],
                            "B": [P("b", atk=0), C("bomb", "폭약", lv=1, hp=1, state="settled")]}},
                   response=[{"side": "B", "card": "폭약", "cell": "1,1"}])
    data, out = text(run, corpus, obj)
    hit = [e for e in events(data, "attack") if e["step"] == 2][0]
    assert hit["actor_where"] == "fragment" and hit["index"] == 0 and hit["ability"] == "폭발"
    # the piece is named by its card, never its id (issue 17)
    assert "폭약 → a" not in out and "폭약 폭발(효과 — 폭약은 이미 구조물 조각" in out and "bomb" not in out


# ---------------------------------------------------------------- --compare ----
def test_compare_speaks_korean_and_lists_event_level_differences(corpus, run):
    scn = run.parse(scenario({"1,1": {"A": [P("a", hp=9, atk=2)], "B": [P("b", atk=2)]}},
                             response=[{"side": "B", "effect": {"attack": 3, "cell": "1,1"}},
                                       {"side": "B", "effect": {"move": "b", "to": "2,2"}}]))
    out = runner.compare(scn, corpus, "2026-09-25", "2026-09-23")
    decl = [c for c in out["changes"] if c["what"] == "declaration"]
    assert decl and decl[0]["index"] == 0
    assert decl[0]["2026-09-25"]["hits"] and not decl[0]["2026-09-23"]["hits"]
    assert decl[0]["2026-09-23"]["fizzles"][0]["reason"] == "combat-ended"
    txt = render("simulate/compare.txt.j2", data=out, refs=runner.refs(corpus, out))
    # the conclusion names every outcome that changed, with its value at each date (issue 17)
    lines = txt.splitlines()
    assert lines[0] == "결론: 2026-09-24 판정으로 (1,1) 전투 결과·대응 선언 #1의 효과가 달라짐"
    assert lines[1].startswith("2026-09-23: (1,1)에서 전투 없이 끝남 — A만 남음 · 대응 선언 #1은 불발")
    assert lines[2].startswith("2026-09-25: A가 ") and "대응 선언 #1의 3 ATK가 a에게 적중" in lines[2]
    assert "차이를 만든 판정: 2026-09-24 확정 「이탈·비용으로" in txt and "ruling.2026" not in txt  # by date, no id
    assert "a(a)" not in txt and "a에게 3 ATK 적중" in txt and "불발(그 셀의 전투가 이미 끝남" in txt
    assert "cells." not in txt and "unresolved: [" not in txt and '"' not in txt
    assert not HEDGED.search(txt)


def test_compare_of_the_shipped_vacated_scenario():
    out = flamer_fork.run("simulate", "scenarios/vacated-by-cost.yaml", "--compare", "2026-09-23", cwd=ROOT,
                          timeout=120)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "결론: 2026-09-24 판정으로 (2,4) 전투 결과·진내폭격의 효과가 달라짐"
    assert lines[1] == "2026-09-23: (2,4)에서 전투 없이 끝남 — DGM만 남음 · 진내폭격은 해결되지 않음"
    assert lines[2] == "2026-09-25: DGM이 1회차에 (2,4)를 점령 · 진내폭격 10 ATK가 거신에게 적중"
    assert "거신에게 10 ATK 적중" in out.stdout and "giant" not in out.stdout
    assert "cells.2,4" not in out.stdout and "no-resolution-point@" not in out.stdout


def test_compare_keeps_its_json_keys(corpus, run):
    scn = run.parse(scenario({"3,3": {"A": [P("gk", atk=1)], "B": [P("s1", state="settled"), P("s2", state="settled")]}}))
    out = runner.compare(scn, corpus, "2026-09-24", "2026-09-25")
    assert {"kind", "file", "dates", "results", "errors", "differences", "rulings_between", "by_ruling",
            "changes"} <= set(out)
    assert all({"path"} <= set(d) for d in out["differences"])
    assert [c["what"] for c in out["changes"]].count("piece") == 1  # s2 is swept on the 25th only
    first = render("simulate/compare.txt.j2", data=out, refs=runner.refs(corpus, out)).splitlines()[0]
    # every outcome that changed: the cell, A's captures (s2 swept), what B had left in the cell
    assert first == "결론: 2026-09-25 판정으로 (3,3) 전투 결과·A의 포획·(3,3)의 B 생존 기물이 달라짐"


def test_compare_conclusion_when_the_summaries_agree(corpus, tmp_path):
    from flamer_ref.scenario_files import load_any

    f = tmp_path / "field.yaml"
    f.write_text("kind: field\nside: B\nas_of: 2026-09-03\nfield: [개미, 증폭기, null, null, null]\nactions:\n"
                 "- {place: 재부팅, slot: 2, face: down}\n", encoding="utf-8")
    scn = load_any(str(f), corpus, display="field.yaml")
    out = runner.compare_turn(scn, corpus, "2026-09-03", "2026-09-25")
    assert out["changes"] and out["changes"][0]["what"] == "value"
    txt = render("simulate/compare.txt.j2", data=out, refs=runner.refs(corpus, out))
    assert txt.splitlines()[0] == "결론: 2026-09-04 판정으로 증폭기의 결속이 달라짐"
    assert txt.splitlines()[1] == "2026-09-03: 증폭기의 결속은 개미"
    assert "증폭기의 결속: 2026-09-03에는 개미 · 2026-09-25에는 없음" in txt


def test_compare_when_one_date_forbids_the_play(corpus, run):
    scn = run.parse(scenario({"1,1": {"A": [P("a")], "B": [P("b"), P("x", state="settled")]}},
                             response=[{"side": "B", "effect": {"flip": "x", "to": "mobile"}},
                                       {"side": "A", "effect": {"attack": 1, "cell": "1,1"}}]))
    out = runner.compare(scn, corpus, "2026-09-25", "2026-09-18")
    txt = render("simulate/compare.txt.j2", data=out, refs=runner.refs(corpus, out))
    lines = txt.splitlines()
    assert lines[0] == "결론: 2026-09-19 이후에는 허용, 이전에는 불가"
    assert lines[1].startswith("2026-09-18: 불가 — ") and lines[2].startswith("2026-09-25: B가 2회차에 (1,1)을 점령")


# ---------------------------------------------------------------- particles ----
def test_messages_choose_particles_by_final_consonant(run, corpus):
    err = forbidden(run, scenario({"1,1": {"A": [P("a")], "B": [P("b")]}},
                                  response=[{"side": "B", "card": "진내폭격", "cell": "1,1", "cost": {"destroy": "a"}}]))
    assert "a(a)" not in err.message
    with pytest.raises(DataError) as info:
        run.result(scenario({"1,1": {"A": [P("a")], "B": [P("b")]}},
                            response=[{"side": "B", "card": "재부팅", "ability": "증폭", "target": "b"}]))
    assert "능력 '증폭'이 없습니다" in info.value.message
    err = forbidden(run, scenario({"1,1": {"A": [P("a")], "B": [P("b")]}},
                                  battle_cards=[{"side": "A", "cell": "1,1", "card": "진내폭격"}]))
    assert "진내폭격은 (대응) 특수카드라 (전투) 선언에 쓸 수 없습니다" in err.message


def test_no_hedged_particles_in_templates_or_outputs(run, corpus):
    templates = sorted((ROOT / "templates" / "simulate").glob("*.j2"))
    sources = sorted((ROOT / "flamer_ref").rglob("*.py"))
    assert len(templates) >= 5 and len(sources) >= 30  # the scans read the tree
    for f in templates:
        assert not HEDGED.search(f.read_text(encoding="utf-8")), f.name
    for f in sources:
        if f.name != "korean.py":
            assert not HEDGED.search(f.read_text(encoding="utf-8")), f
    # engine messages that reach people: gaps, the account, the verdict
    objs = [scenario({"1,1": {"A": [P("a", lv=3, hp=9, atk=1), C("ant", "개미", lv=1, hp=1, atk=1)],
                              "B": [P("b", atk=3), C("bomb", "폭약", lv=1, hp=1, state="settled"), P("z", atk=0)]}},
                     response=[{"side": "B", "card": "폭약", "cell": "1,1"}]),
            scenario({"3,3": {"A": [P("gk", atk=1)], "B": [P("s1", state="settled"), P("s2", state="settled")]}}),
            scenario({"1,1": {"A": [P("a", atk=0)], "B": [P("b", atk=0)]}}),
            scenario({"1,1": {"A": [P("a", hp=9, atk=2)], "B": [P("b", atk=2)]}},
                     response=[{"side": "B", "effect": {"attack": 3, "cell": "1,1"}},
                               {"side": "B", "effect": {"move": "b", "to": "2,2"}}])]
    for obj in objs:
        for date in (None, "2026-09-23"):
            for fmt in ("txt", "md"):
                data, out = text(run, corpus, obj, as_of=date, fmt=fmt)
                assert not HEDGED.search(out), out
                for bad in ("'폭약'는", "'정착'가", "'상급'를"):
                    assert bad not in out
