"""Fidelity of the field's position-reference entry effects to the 필드와 카드 page (issue 10):
결속 and 병풍 are made when the card enters, not recomputed from the current slots."""

from __future__ import annotations

import json


from inprocess import invoke

from test_fieldplay import db, play  # noqa: F401  (db is a fixture: the field tests' card table and driver)


def test_a_partner_placed_after_the_amplifier_makes_no_bond(db):
    """필드와 카드 page, 등장효과: "그 기물 카드가 필드에서 처음 앞면(공개)이 되는 순간 — 활성화되는 순간 —
    1회 발동" — 결속 is 증폭기's entry effect: the slot on its left was empty when it entered."""
    r = play(db, [None, "증폭기", None, None, None], [{"place": "개미", "slot": 1}])
    assert not r.errors and set(r.active) == {"개미", "증폭기"}
    assert r.bonds == {}


def test_a_released_bond_does_not_come_back_when_the_partner_is_uncovered(db):
    """필드와 카드 page: "결속은 두 카드 중 하나가 필드에서 제거되거나 은퇴하면 해제된다" and the entry
    effect fires "처음 앞면이 되는 순간 … 1회": uncovering 개미 is 개미's own 등장, not 증폭기's, so the
    released bond stays released — until 증폭기 itself enters again."""
    cover_ant = [{"place": "진내폭격", "slot": 1, "face": "down"}, {"round": "next"}, {"trash": 1}]
    r = play(db, ["개미", "증폭기", None, None, None], cover_ant)
    assert r.retired == () and "개미" in r.active
    assert r.bonds == {}
    released = [e for e in r.events if e["type"] == "bond-released"]
    assert released and released[0]["by"] == "개미" and released[0]["how"] == "retired"
    # 증폭기 re-enters (covered, then uncovered): the bond is made again with 개미 on its left
    r = play(db, ["개미", "증폭기", None, None, None],
             cover_ant + [{"place": "재부팅", "slot": 2, "face": "down"}, {"round": "next"}, {"trash": 2}])
    assert r.bonds == {"증폭기": "개미"}


def test_the_screen_keeps_the_card_it_chose_at_entry(db):
    """필드와 카드 page, 룰북 예: "별마대를 3번 자리에 앞면으로 내린다 → 활성화 → 등장효과 병풍 즉시 발동:
    가장 왼쪽 카드 수문장의 코인 전부 Lv 3 → 6" — 병풍 picks its card when 별마대 enters
    (interp.screen.leftmost); a card placed later in an emptier slot further left does not take it."""
    r = play(db, [None, "수문장", "별마대", None, None], [{"place": "장인", "slot": 1}])
    assert r.levels["수문장"] == 6 and r.levels["장인"] == db["장인"]["lv"]
    screen = [e for e in r.events if e["type"] == "field-effect" and e["effect"] == "병풍"]
    assert screen[-1]["card"] == "수문장" and screen[-1]["interpretation"] == "interp.screen.leftmost"


COMBAT = """\
kind: combat
attacker: BGM
field:
  DGM: [{set: 재부팅}, 수문장, 별마대, null, null]
cells:
  "1,1":
    DGM: [{id: gk, card: 수문장, state: settled}]
    BGM: [{id: b, name: 적, lv: 5, hp: 9, atk: 0}]
response:
- {side: DGM, card: 재부팅, target: gk}
"""


def test_combat_reads_the_screen_once_not_after_step2(tmp_path):
    """필드와 카드 page: 등장효과 "처음 앞면이 되는 순간 … 1회" — the combat engine shares the field's
    reading: trashing the leftmost set (대응) card in step 2 does not hand 병풍 to 수문장."""
    f = tmp_path / "c.yaml"
    f.write_text(COMBAT, encoding="utf-8")
    r = invoke("simulate", str(f), "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert not [e for e in d["events"] if e["type"] == "field" and e.get("effect") == "병풍"]
    assert any(e["type"] == "field" and e.get("effect") == "trash" and e["step"] == 2 for e in d["events"])


def test_combat_bond_is_read_once_at_the_start(tmp_path):
    """필드와 카드 page: "결속은 두 카드 중 하나가 필드에서 제거되거나 은퇴하면 해제" — nothing in a combat
    makes a new bond: with a set card left of 증폭기 there is none, even after that card is trashed."""
    text = """\
kind: combat
attacker: DGM
field:
  BGM: [개미, {set: 재부팅}, 증폭기, null, null]
cells:
  "1,1":
    DGM: [{id: a, name: 가, lv: 9, hp: 20, atk: 1}]
    BGM: [{id: ant, card: 개미, lv: 2, hp: 1, atk: 1}, {id: amp, card: 증폭기, atk: 1},
          {id: s, name: 잠든, lv: 1, hp: 1, atk: 1, state: settled}]
response:
- {side: BGM, card: 재부팅, target: s}
"""
    f = tmp_path / "b.yaml"
    f.write_text(text, encoding="utf-8")
    r = invoke("simulate", str(f), "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert not [e for e in d["events"] if e["type"] == "buff" and e.get("piece") == "ant"]
