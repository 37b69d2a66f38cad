"""Targeting (combat.targeting) and attack order (combat.step4/5)."""

from .conftest import P, attacks, events, scenario


def test_target_is_highest_level_mobile(run):
    res = run(scenario({"1,1": {"A": [P("a", lv=5, hp=9, atk=1)],
                                 "B": [P("low", lv=2, hp=5, atk=0), P("high", lv=4, hp=5, atk=0)]}}))
    assert attacks(res)[0][:2] == ("a", "high")


def test_mobile_before_settled_even_if_settled_is_higher(run):
    res = run(scenario({"1,1": {"A": [P("a", lv=5, hp=9, atk=1)],
                                 "B": [P("boss", lv=9, hp=5, atk=0, state="settled"), P("pawn", lv=1, hp=5, atk=0)]}}))
    assert attacks(res)[0][:2] == ("a", "pawn")


def test_settled_targeted_when_no_mobile(run):
    res = run(scenario({"1,1": {"A": [P("a", lv=5, hp=9, atk=1)],
                                 "B": [P("s1", lv=1, hp=5, atk=3, state="settled"),
                                       P("s2", lv=4, hp=5, atk=3, state="settled")]}}))
    assert attacks(res)[0][:2] == ("a", "s2")


def test_volley_order_is_level_descending(run):
    res = run(scenario({"1,1": {"A": [P("a1", lv=1, hp=9, atk=1), P("a3", lv=3, hp=9, atk=1), P("a2", lv=2, hp=9, atk=1)],
                                 "B": [P("b", lv=1, hp=50, atk=0)]}}))
    step4 = [e["actor"] for e in events(res, "attack", step=4, round=1)]
    assert step4 == ["a3", "a2", "a1"]
    assert events(res, "step", step=4, round=1)[0]["order"] == ["a3", "a2", "a1"]


def test_attacker_volleys_before_defender(run):
    res = run(scenario({"1,1": {"A": [P("a", lv=1, hp=1, atk=1)], "B": [P("b", lv=1, hp=1, atk=5)]}}))
    # the attacker strikes first in step 4; b is captured before it can answer in step 5
    assert res["prisoners"] == {"A": ["b"], "B": []}
    assert events(res, "attack", step=5) == []


def test_target_reselected_after_capture(run):
    res = run(scenario({"1,1": {"A": [P("a1", lv=3, hp=9, atk=5), P("a2", lv=2, hp=9, atk=1)],
                                 "B": [P("big", lv=5, hp=4, atk=0), P("small", lv=1, hp=4, atk=0)]}}))
    assert attacks(res)[:2] == [("a1", "big", 4, -1), ("a2", "small", 4, 3)]


def test_level_change_uses_changed_level(run):
    # a combat-limited Lv buff from a (전투) card in step 1 changes the target (combat.level-change)
    res = run(scenario({"1,1": {"A": [P("a", lv=5, hp=9, atk=1)],
                                 "B": [P("b1", lv=4, hp=5, atk=0), P("b2", lv=2, hp=5, atk=0)]}},
                       battle_cards=[{"side": "B", "cell": "1,1", "effect": {"buff": "b2", "lv": 3}}]))
    assert attacks(res)[0][:2] == ("a", "b2")
