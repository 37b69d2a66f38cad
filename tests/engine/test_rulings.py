"""Each dated ruling the engine consults, on both sides of its date."""

from flamer_ref import runner

from .conftest import P, events, scenario

COUNTER = scenario({"1,1": {"A": [P("a")], "B": [P("b"), P("x", state="settled")]}},
                   response=[{"side": "B", "effect": {"flip": "x", "to": "mobile"}},
                             {"side": "A", "effect": {"attack": 1, "cell": "1,1"}}])


def test_counter_introduced_2026_09_19(run):
    err = run.invalid(COUNTER, as_of="2026-09-18")
    assert "ruling.2026-09-19.counter" in err.message and err.problems[0].key == "response[1].side"
    assert run(COUNTER, as_of="2026-09-19")["events"]


# ----- 2026-09-24 vacated combat
def vacate_by_stack():
    return scenario({"1,1": {"A": [P("a", hp=9, atk=2)], "B": [P("b", atk=2)]}},
                    response=[{"side": "B", "effect": {"attack": 3, "cell": "1,1"}},
                              {"side": "B", "effect": {"move": "b", "to": "2,2"}}])


def test_vacated_by_stack_after_ruling_runs_steps_3_to_7(run):
    res = run(vacate_by_stack(), as_of="2026-09-24")
    assert res["cells"]["1,1"]["end"] == "decided"
    assert [e["step"] for e in events(res, "step", cell="1,1")][-1] == 7
    # the attack (declared first, resolved last) still finds A's piece and hits it
    assert events(res, "attack", step=2)[0]["target"] == "a"
    assert res["prisoners"] == {"A": [], "B": []}


def test_vacated_by_stack_before_ruling_ends_on_the_spot(run):
    res = run(vacate_by_stack(), as_of="2026-09-23")
    c = res["cells"]["1,1"]
    assert c["end"] == "vacated" and c["rounds"] == 0
    v = events(res, "vacated")[0]
    assert v["continues"] is False and v["rule"] == "response.resolve.depart"
    assert events(res, "fizzle")[0]["reason"] == "combat-ended"
    assert not any(e["step"] == 3 for e in events(res, "step", cell="1,1"))


def bombard(cells=None):
    cells = cells or {"1,1": {"A": [P("a", lv=3, hp=12, atk=1)], "B": [P("b", lv=2, hp=2, atk=1)]}}
    return scenario(cells, response=[{"side": "B", "card": "진내폭격", "cell": "1,1", "cost": {"destroy": "b"}}])


def test_cost_emptied_cell_still_fights_and_bombard_hits(run):
    res = run(bombard(), as_of="2026-09-25")
    hit = events(res, "attack", step=2)[0]
    assert hit["amount"] == 10 and hit["target"] == "a" and hit["hp_after"] == 2
    v = events(res, "vacated")[0]
    assert v["cause"] == "cost" and v["continues"] is True and v["rule"] == "response.cost.emptied-cell"
    assert res["removed"] == ["b"] and res["cells"]["1,1"]["occupant"] == "A"


def test_cost_emptied_only_cell_before_ruling_has_no_resolution_point(run):
    res = run(bombard(), as_of="2026-09-23")
    assert events(res, "attack") == []
    u = [u for u in res["unresolved"] if u["reason"] == "no-resolution-point"]
    assert u and u[0]["ruling"] == "ruling.2026-09-24.vacated-combat" and u[0]["message"]


def test_cost_emptied_cell_before_ruling_other_cell_resolves(run):
    cells = {"1,1": {"A": [P("a", lv=3, hp=12, atk=1)], "B": [P("b", lv=2, hp=2, atk=1)]},
             "2,2": {"A": [P("a2")], "B": [P("b2")]}}
    res = run(bombard(cells), as_of="2026-09-23")
    assert res["cells"]["1,1"]["end"] == "vacated"
    assert events(res, "resolve")[0]["cell"] == "2,2"
    assert events(res, "fizzle")[0]["reason"] == "combat-ended"


# ----- 2026-09-25 explosive cost
def explode():
    return scenario({"1,1": {"A": [P("a", lv=3, hp=9, atk=1)],
                             "B": [P("b"), {"id": "bomb", "card": "폭약", "lv": 1, "hp": 1, "state": "settled"}]}},
                    response=[{"side": "B", "card": "폭약", "cell": "1,1"}])


def test_explosive_cost_in_force(run):
    res = run(explode())
    cost = events(res, "cost", piece="bomb")[0]
    assert cost["rule"] == "response.cost.explosive" and cost["ruling"] == "ruling.2026-09-25.explosive-cost"
    assert res["fragments"] == ["bomb"] and res["unresolved"] == []


def test_explosive_cost_before_ruling_is_reported(run):
    res = run(explode(), as_of="2026-09-24")
    assert res["fragments"] == ["bomb"]
    assert any(u["ruling"] == "ruling.2026-09-25.explosive-cost" for u in res["unresolved"])


# ----- 2026-09-24 structures do not move by effects
def test_structure_move_effect(run):
    obj = scenario({"1,1": {"A": [P("a")], "B": [P("b"), P("t", structure=True)]}},
                   response=[{"side": "B", "effect": {"move": "t", "to": "2,2"}}])
    err = run.invalid(obj, as_of="2026-09-24")
    assert "move.structures" in err.message
    res = run(obj, as_of="2026-09-23")
    assert res["positions"]["t"] == "2,2"
    assert any(u["ruling"] == "ruling.2026-09-24.structures-immovable" for u in res["unresolved"])


# ----- --compare: which ruling made the difference
def test_compare_names_the_ruling(run, corpus):
    scn = run.parse(scenario({"3,3": {"A": [P("gk", atk=1)],
                                       "B": [P("s1", state="settled"), P("s2", state="settled")]}}))
    out = runner.compare(scn, corpus, "2026-09-24", "2026-09-25")
    assert out["differences"]
    assert [r["ruling"] for r in out["by_ruling"]] == ["ruling.2026-09-25.settled-sweep"]


def test_compare_invalid_at_one_date(run, corpus):
    scn = run.parse(COUNTER)
    out = runner.compare(scn, corpus, "2026-09-25", "2026-09-18")
    assert out["errors"]["2026-09-18"] and out["results"]["2026-09-25"]
    assert any(r["ruling"] == "ruling.2026-09-19.counter" for r in out["by_ruling"])
