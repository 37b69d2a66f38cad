"""ATK 0 (or less) executes no attack (combat.structures, interp.sweep.attack-executed)."""

from .conftest import P, events, scenario


def test_atk_zero_no_damage_no_capture(run):
    res = run(scenario({"1,1": {"A": [P("z", lv=5, hp=3, atk=0), P("a", lv=1, hp=3, atk=1)],
                                 "B": [P("b", lv=1, hp=9, atk=0)]}}))
    no = events(res, "no-attack", actor="z")
    assert no and no[0]["why"] == "atk-zero"
    assert all(e["actor"] != "z" for e in events(res, "attack"))


def test_negative_atk_same_as_zero(run):
    # a stated ATK is at least 0 (types.STAT_MIN); a negative one comes from an effect that lowers it
    res = run(scenario({"1,1": {"A": [P("z", lv=5, hp=3, atk=1)], "B": [P("s", lv=1, hp=9, atk=0, state="settled")]}},
                       response=[{"side": "B", "effect": {"buff": "z", "atk": -3}}]))
    assert events(res, "no-attack", actor="z")[0]["atk"] == -2
    assert res["prisoners"]["A"] == []


def test_atk_zero_alone_does_not_sweep(run):
    res = run(scenario({"1,1": {"A": [P("z", lv=5, hp=3, atk=0)],
                                 "B": [P("s1", lv=1, hp=9, atk=0, state="settled"),
                                       P("s2", lv=1, hp=9, atk=0, state="settled")]}}))
    sw = events(res, "sweep", side="A")[0]
    assert sw["applies"] is False and sw["why"] == "no-attack-executed"
    assert sw["rule"] == "combat.step7.sweep"  # the step-7 sentence names ATK 0 itself (issue 7)
    assert res["prisoners"]["A"] == []
    assert res["cells"]["1,1"]["occupant"] is None


def test_attack_effect_of_zero_or_less_executes_no_attack(run):
    # an N ATK attack effect with N <= 0 is no attack: no damage, no settled-hit capture, no healing
    for n in (0, -2):
        res = run(scenario({"1,1": {"A": [P("a", lv=3, hp=3, atk=0)], "B": [P("s", lv=1, hp=3, atk=1, state="settled"),
                                                                            P("b", lv=1, hp=3, atk=0)]}},
                           response=[{"side": "B", "effect": {"attack": n, "cell": "1,1"}}]))
        assert not [e for e in events(res, "attack") if e["step"] == 2]
        no = [e for e in events(res, "no-attack") if e["step"] == 2][0]
        assert no["atk"] == n and no["why"] == "atk-zero"
        assert res["prisoners"]["B"] == []
