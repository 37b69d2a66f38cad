"""A round of steps 4–5 that changes nothing stops: unresolved 'stalemate' (interp.stalemate)."""

from .conftest import P, events, scenario


def test_both_atk_zero_stalemate(run):
    res = run(scenario({"1,1": {"A": [P("a", atk=0)], "B": [P("b", atk=0)]}}))
    c = res["cells"]["1,1"]
    assert c["rounds"] == 1 and c["occupant"] is None and c["standoff"] is False
    (u,) = res["unresolved"]
    assert u["reason"] == "stalemate" and u["rule"] == "interp.stalemate" and u["message"]
    assert events(res, "stalemate")[0]["rule"] == "interp.stalemate"


def test_stalemate_after_some_rounds(run):
    # a kills b's only attacker, then the remaining ATK 0 pieces face each other
    res = run(scenario({"1,1": {"A": [P("a", lv=5, hp=9, atk=0), P("k", lv=1, hp=9, atk=2)],
                                 "B": [P("b", lv=5, hp=9, atk=0), P("v", lv=1, hp=2, atk=0, state="settled")]}}))
    # k's hits land on b (mobile) until it is captured; then v is hit and captured
    assert res["prisoners"]["A"] == ["b", "v"]
    res = run(scenario({"1,1": {"A": [P("a", lv=5, hp=9, atk=0)], "B": [P("b", lv=5, hp=9, atk=0), P("c", lv=1, hp=1, atk=0)]}}))
    assert res["unresolved"][0]["reason"] == "stalemate"


def test_round_limit_is_not_called_nothing_changed(run, monkeypatch):
    # HP far beyond the computing limit: every round changes something, so it is no stalemate;
    # computing stops at the limit and says so (round-limit), and it terminates
    from flamer_ref.engine.combat_turn import steps  # the rounds of steps 4–6 (engine/combat_turn/steps.py)

    monkeypatch.setattr(steps, "MAX_ROUNDS", 50)
    res = run(scenario({"1,1": {"A": [P("a", hp=10_000, atk=1)], "B": [P("b", hp=10_000, atk=1)]}}))
    c = res["cells"]["1,1"]
    # (the rounds repeat with only HP changing, so it stops as soon as the limit is certain to be passed)
    assert c["rounds"] <= 50 and c["occupant"] is None and c["end"] == "stalemate"
    (u,) = res["unresolved"]
    assert u["reason"] == "round-limit" and u["limit"] == 50 and "50" in u["message"]
    assert "아무것도 바뀌지 않" not in u["message"]
    assert events(res, "stalemate")[0]["why"] == "round-limit"
    assert events(res, "step", step=6)[-1]["next"] == "round-limit"
