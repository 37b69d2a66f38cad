"""Step 7 (combat.step7.sweep, ruling.2026-09-25.settled-sweep)."""

from .conftest import P, events, scenario

UNGUARDED = scenario({"3,3": {"A": [P("gk", lv=3, hp=3, atk=1)],
                               "B": [P("s1", lv=2, hp=5, atk=2, state="settled"),
                                     P("s2", lv=2, hp=5, atk=2, state="settled")]}})


def test_sweep_captures_remaining_settled(run):
    res = run(UNGUARDED)
    assert res["prisoners"]["A"] == ["s1", "s2"]
    sw = events(res, "sweep", applies=True)[0]
    assert sw["rule"] == "combat.step7.sweep" and sw["ruling"] == "ruling.2026-09-25.settled-sweep"
    assert res["cells"]["3,3"]["rounds"] == 1 and res["cells"]["3,3"]["occupant"] == "A"


def test_sweep_after_losing_mobiles_midway(run):
    res = run(scenario({"1,1": {"A": [P("a", lv=5, hp=9, atk=9)],
                                 "B": [P("m", lv=3, hp=2, atk=1), P("s", lv=9, hp=9, atk=1, state="settled")]}}))
    assert res["prisoners"]["A"] == ["m", "s"]
    assert events(res, "capture", piece="s")[0]["reason"] == "sweep"


def test_no_sweep_when_attacker_is_gone(run):
    # the attacking piece is captured; the settled pieces of the defender stay
    res = run(scenario({"1,1": {"A": [P("a", lv=1, hp=1, atk=1)],
                                 "B": [P("m", lv=3, hp=5, atk=5), P("s", lv=1, hp=1, atk=0, state="settled")]}}))
    assert res["prisoners"]["B"] == ["a"]
    assert "s" in res["cells"]["1,1"]["survivors"]["B"]


def test_before_ruling_no_sweep_and_unresolved(run):
    res = run(UNGUARDED, as_of="2026-09-24")
    assert res["prisoners"]["A"] == ["s1"]
    u = [u for u in res["unresolved"] if u["reason"] == "ruling-not-in-force"]
    assert u and u[0]["ruling"] == "ruling.2026-09-25.settled-sweep" and u[0]["pieces"] == ["s2"]
    assert "2026-09-25" in u[0]["message"]
    assert events(res, "sweep")[0]["applies"] is False


def test_before_ruling_nothing_to_sweep_no_gap(run):
    res = run(scenario({"1,1": {"A": [P("a", lv=5, hp=9, atk=9)], "B": [P("m", lv=3, hp=2, atk=1)]}}),
              as_of="2026-09-01")
    assert res["unresolved"] == []
