"""Structures: fragments instead of prisoners; mobile structures attack (2026-09-17)."""

from .conftest import P, events, scenario


def test_captured_structure_becomes_fragment(run):
    res = run(scenario({"1,1": {"A": [P("a", lv=3, hp=3, atk=5)], "B": [P("tower", lv=2, hp=2, atk=0, structure=True)]}}))
    assert res["fragments"] == ["tower"]
    assert res["prisoners"]["A"] == []
    fr = events(res, "fragment", piece="tower")[0]
    assert fr["rule"] == "combat.capture" and fr["reason"] == "hp"


def test_settled_structure_hit_is_fragment(run):
    res = run(scenario({"1,1": {"A": [P("a", lv=3, hp=3, atk=1)],
                                 "B": [P("t", lv=2, hp=9, atk=0, structure=True, state="settled"),
                                       P("s", lv=1, hp=9, atk=0, state="settled")]}}))
    assert res["fragments"] == ["t"]
    assert res["prisoners"]["A"] == ["s"]  # swept in step 7


def test_structure_from_card(run):
    res = run(scenario({"1,1": {"A": [P("a", lv=3, hp=3, atk=1)],
                                 "B": [{"id": "bomb", "card": "폭약", "lv": 1, "hp": 1, "state": "settled"}]}}))
    assert res["fragments"] == ["bomb"]


def test_mobile_structure_attacks_with_its_atk(run):
    res = run(scenario({"1,1": {"A": [{"id": "bomb", "card": "폭약", "lv": 1, "hp": 1}], "B": [P("b", lv=1, hp=9, atk=0)]}}))
    e = events(res, "attack", actor="bomb")[0]
    assert e["amount"] == 5 and e["ruling"] == "ruling.2026-09-17.mobile-structures"


def test_before_mobile_structures_ruling(run):
    res = run(scenario({"1,1": {"A": [{"id": "bomb", "card": "폭약", "lv": 1, "hp": 1}], "B": [P("b", lv=1, hp=9, atk=0)]}}),
              as_of="2026-09-16")
    assert events(res, "attack", actor="bomb") == []
    assert any(u["reason"] == "ruling-not-in-force" and u["ruling"] == "ruling.2026-09-17.mobile-structures"
               for u in res["unresolved"])
