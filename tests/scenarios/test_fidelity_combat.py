"""Fidelity of the combat and response engine to the 전투턴 and 대응턴 pages (issue 10): the order of
(전투) cards, remote (전투) SP, and dated rulings whose earlier handling the pages do not give."""

from __future__ import annotations

import json


from inprocess import invoke



def simulate(tmp_path, text, *args):
    f = tmp_path / "s.yaml"
    f.write_text(text, encoding="utf-8")
    return invoke("simulate", str(f), *args)


def test_defender_battle_card_before_the_attackers_is_refused(tmp_path):
    """전투턴 page, step 1: "(전투) 특수카드 발동 — 공격자가 먼저 선언, 이어서 수비자." — a file that lists
    the defender's (전투) card before the attacker's in the same cell is a play the rules forbid (exit 1,
    '불가', the clause), not silently reordered."""
    text = """\
kind: combat
attacker: A
cells:
  "1,1":
    A: [{id: a, name: 가, lv: 3, hp: 5, atk: 1}]
    B: [{id: b, name: 나, lv: 2, hp: 5, atk: 1}]
battle_cards:
- {side: B, cell: "1,1", effect: {buff: b, atk: 1}}
- {side: A, cell: "1,1", effect: {buff: a, atk: 1}}
"""
    r = simulate(tmp_path, text, "--json")
    assert r.exit_code == 1
    d = json.loads(r.stdout)
    assert "combat.step1.battle-cards" in json.dumps(d, ensure_ascii=False)
    r = simulate(tmp_path, text)
    assert r.exit_code == 1 and "불가" in r.stderr
    # the attacker first, then the defender: allowed, applied in reverse
    ok = simulate(tmp_path, text.replace("- {side: B, cell: \"1,1\", effect: {buff: b, atk: 1}}\n", "")
                  + "- {side: B, cell: \"1,1\", effect: {buff: b, atk: 1}}\n", "--json")
    assert ok.exit_code == 0, ok.output


REMOTE = """\
kind: combat
attacker: DGM
board: {width: 7, height: 6, adjacency: square8}
cells:
  "2,4":
    DGM: [{id: gk, card: 수문장}]
    BGM: [{id: drill, card: 행성굴착기, state: settled}]
  "4,4":
    DGM: [{id: near, card: 봉수장, lv: 5, hp: 5, atk: 2}]
  "5,1":
    DGM: [{id: far, card: 봉수장, lv: 5, hp: 5, atk: 2}]
  "0,0":
    DGM: [{id: asleep, card: 봉수장, lv: 5, hp: 5, atk: 2, state: settled}]
"""


def test_a_mobile_bongsujang_within_two_cells_fires_and_is_reported(tmp_path):
    """전투턴 page: "봉수장 지원사격은 … 자기 셀에 그대로 머물면서 2셀 이내 전투의 SP 발동턴(3단계)에 효과만
    발동합니다" — its effect is not on the pages: reported in `unresolved`, never ignored. One 3 cells away
    and a settled one ("정착(뒷면) 기물: … SP 발동 불가") do not fire."""
    r = simulate(tmp_path, REMOTE, "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    gaps = [u for u in d["unresolved"] if u.get("piece") in ("near", "far", "asleep")]
    assert [(u["reason"], u["piece"], u["distance"], u["rule"]) for u in gaps] == \
        [("effect-unknown", "near", 2, "combat.remote")]
    sp = [e for e in d["events"] if e["type"] == "sp" and e.get("remote")]
    assert [(e["piece"], e["step"], e["home"], e["fired"]) for e in sp] == [("near", 3, "4,4", "unknown")]
    # it stays in its own cell and takes no part in the volleys
    assert d["positions"]["near"] == "4,4"
    assert not [e for e in d["events"] if e["type"] == "attack" and e.get("actor") == "near"]
    assert "지원사격" in gaps[0]["message"] and "4,4" in gaps[0]["message"]


def test_without_a_board_the_example_board_gives_the_distance(tmp_path):
    """전투턴 page: "2셀 이내 전투의 SP 발동턴(3단계)" — a distance needs a board: without `board:` the
    example board is used and said in `assumed`; a cell it lacks leaves the reach unknown (a gap)."""
    text = REMOTE.replace("board: {width: 7, height: 6, adjacency: square8}\n", "").replace('"5,1"', '"9,9"')
    d = json.loads(simulate(tmp_path, text, "--json").stdout)
    assert any(a["choice"] == "board" and a["rule"] == "combat.remote" for a in d["assumed"])
    reasons = sorted((u["reason"], u["piece"]) for u in d["unresolved"] if u.get("piece") in ("near", "far"))
    assert reasons == [("effect-unknown", "near"), ("remote-range-unknown", "far")]


def test_counter_by_a_settled_sp_before_the_ruling_is_a_gap(tmp_path):
    """필드와 카드 page: "예외 = 맞대응(2026-09-19): … 그 셀에 적용되는 세트된 (대응) 카드를 턴 플레이어도
    발동할 수 있습니다" — the dated exception and its earlier rule concern set (대응) cards; whether a
    settled piece's (대응) SP could counter before that date the pages do not say: the declaration is
    taken under the current rule and reported in `unresolved`, not refused."""
    text = """\
kind: combat
attacker: DGM
as_of: 2026-09-18
cells:
  "2,4":
    DGM:
    - {id: gk, card: 수문장}
    - {id: gap, card: 갑사, state: settled, lv: 4, hp: 5, atk: 2}
    BGM:
    - {id: drill, card: 행성굴착기, state: settled}
    - {id: giant, card: 거신}
response:
- {side: BGM, card: 재부팅, target: drill}
- {side: DGM, card: 갑사, cell: "2,4"}
"""
    r = simulate(tmp_path, text, "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    gap = [u for u in d["unresolved"] if u["reason"] == "ruling-not-in-force"]
    assert gap and gap[0]["ruling"] == "ruling.2026-09-19.counter" and gap[0]["index"] == 1
    assert "2026-09-19" in gap[0]["message"]
    # a set (대응) card as a counter before the date: the page's earlier rule forbids it
    card_counter = text.replace("- {side: DGM, card: 갑사, cell: \"2,4\"}", "- {side: DGM, card: 재부팅, target: gap}")
    assert simulate(tmp_path, card_counter, "--json").exit_code == 1


def test_cost_emptied_cell_before_the_ruling_is_a_labelled_reading_and_a_gap(tmp_path):
    """대응턴 page: "대응턴의 비용 지불(진내폭격의 자기 기물 헌납 …)로 한쪽 기물이 이미 없어진 조우 셀도 전투턴에
    전투를 열어 1단계부터 7단계까지 순서대로 진행합니다 … (2026-09-24 확정)" — before that date the pages do
    not give the handling: an `interp.*` reading on the event and an `unresolved` note."""
    text = """\
kind: combat
attacker: DGM
as_of: 2026-09-23
cells:
  "2,4":
    DGM: [{id: giant, card: 거신}, {id: art, card: 장인}]
    BGM: [{id: ant, card: 개미, state: settled}]
response:
- {side: BGM, card: 진내폭격, cell: "2,4", cost: {destroy: ant}}
"""
    d = json.loads(simulate(tmp_path, text, "--json").stdout)
    vac = [e for e in d["events"] if e["type"] == "vacated"]
    assert vac and vac[0]["interpretation"] == "interp.vacated.cost-before-ruling"
    gap = [u for u in d["unresolved"] if u["reason"] == "ruling-not-in-force"]
    assert gap and gap[0]["ruling"] == "ruling.2026-09-24.vacated-combat" and gap[0]["cell"] == "2,4"
    assert gap[0]["interpretation"] == "interp.vacated.cost-before-ruling"
    rule = invoke("rule", "interp.vacated.cost-before-ruling")
    assert rule.exit_code == 0 and "해석" in rule.stdout


def test_emptied_by_cost_example_checks_the_hit_itself():
    """대응턴 page: "그래서 스택의 해결 시점은 항상 존재하고, 진내폭격의 10 ATK도 정상 적중합니다." — the
    example checks the hit (step 2, 10 ATK on 거신), and a result without it fails the check."""
    from flamer_ref.corpus import load
    from flamer_ref import runner

    corpus = load()
    ex = corpus.examples["ex.response.emptied-by-cost"]
    row = runner.check_case(corpus, ex["id"], ex["title"], ex["scenario"], ex["expected"], None)
    assert row["status"] == "pass", row
    assert any(w["amount"] == 10 and w["step"] == 2 for w in ex["expected"]["events_include"])
    # before the ruling nothing resolves: the same expectation fails on the missing hit
    row = runner.check_case(corpus, ex["id"], ex["title"], ex["scenario"], ex["expected"], "2026-09-23")
    assert any(d["path"].startswith("events_include") for d in row["differences"])
