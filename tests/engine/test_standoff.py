"""대립: neither side has a mobile piece at the first step 4 (combat.standoff)."""

from .conftest import P, events, scenario


def test_standoff(run):
    res = run(scenario({"3,3": {"A": [P("m", state="settled")], "B": [P("o", state="settled", structure=True)]}}))
    c = res["cells"]["3,3"]
    assert c["standoff"] is True and c["occupant"] is None and c["rounds"] == 0
    assert c["survivors"] == {"A": ["m"], "B": ["o"]}
    assert events(res, "standoff")[0]["rule"] == "combat.standoff"
    assert events(res, "attack") == [] and res["prisoners"] == {"A": [], "B": []}


def test_no_standoff_when_one_side_mobile(run):
    res = run(scenario({"3,3": {"A": [P("m", atk=1)], "B": [P("o", state="settled")]}}))
    assert res["cells"]["3,3"]["standoff"] is False
    assert res["cells"]["3,3"]["occupant"] == "A"
