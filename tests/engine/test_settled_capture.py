"""Settled pieces: no attack, captured by one hit whatever the HP (combat.settled)."""

from .conftest import P, events, scenario


def test_hit_on_settled_captures_at_once(run):
    res = run(scenario({"1,1": {"A": [P("a", lv=3, hp=3, atk=1)], "B": [P("s", lv=9, hp=99, atk=9, state="settled")]}}))
    cap = events(res, "capture", piece="s")[0]
    assert cap["reason"] == "settled-hit" and cap["rule"] == "combat.settled"
    assert res["prisoners"]["A"] == ["s"]


def test_settled_never_attack(run):
    res = run(scenario({"1,1": {"A": [P("a", lv=3, hp=3, atk=1)], "B": [P("s", lv=9, hp=99, atk=9, state="settled")]}}))
    assert all(e["actor"] != "s" for e in events(res, "attack"))


def test_hp_zero_captures(run):
    res = run(scenario({"1,1": {"A": [P("a", lv=3, hp=3, atk=3)], "B": [P("b", lv=1, hp=3, atk=1)]}}))
    cap = events(res, "capture", piece="b")[0]
    assert cap["reason"] == "hp" and cap["rule"] == "combat.attack"
    assert events(res, "attack")[0]["hp_after"] == 0


def test_hp_restored_after_combat(run):
    res = run(scenario({"1,1": {"A": [P("a", lv=3, hp=5, atk=3)], "B": [P("b", lv=1, hp=4, atk=2)]}}))
    rest = events(res, "restore", cell="1,1")
    assert rest and "a" in rest[0]["pieces"] and rest[0]["rule"] == "combat.combat-limited"


def test_ant_undying_is_reported(run):
    res = run(scenario({"1,1": {"A": [P("a", lv=3, hp=5, atk=3)], "B": [{"id": "ant", "card": "개미", "lv": 1, "hp": 1, "atk": 1}]}}))
    assert any(u["reason"] == "effect-unknown" and u["piece"] == "ant" for u in res["unresolved"])
    assert all(u["message"] for u in res["unresolved"])
