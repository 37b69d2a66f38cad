"""The response stack (대응턴): who may declare, what is fixed when, LIFO resolution in step 2."""

from .conftest import P, events, scenario


def two_cells(**extra):
    return scenario({"1,1": {"A": [P("a", lv=3, hp=9, atk=1)], "B": [P("b", lv=3, hp=9, atk=1), P("x", lv=1, hp=9, atk=1, state="settled")]},
                     "5,5": {"A": [P("a5", lv=3, hp=9, atk=1)], "B": [P("b5", lv=3, hp=9, atk=1)]},
                     "0,0": {"A": [P("big", lv=9, hp=9, atk=1)]}}, **extra)


def test_defender_opens(run):
    err = run.invalid(two_cells(response=[{"side": "A", "effect": {"attack": 1, "cell": "1,1"}}]))
    assert "response.opener" in err.message and err.problems[0].key == "response[0].side"


def test_defender_opens_line_number(run):
    err = run.invalid("""\
        kind: combat
        attacker: A
        cells:
          "1,1":
            A: [{id: a, name: 가, lv: 3, hp: 3, atk: 1}]
            B: [{id: b, name: 나, lv: 3, hp: 3, atk: 1}]
        response:
        - {side: A, effect: {attack: 1, cell: "1,1"}}
        """)
    assert err.problems[0].line == 8 and err.problems[0].file == "test.yaml"


def test_counter_on_response_cell(run):
    res = run(two_cells(response=[{"side": "B", "effect": {"flip": "x", "to": "mobile"}},
                                  {"side": "A", "effect": {"attack": 2, "cell": "1,1"}}]))
    d = events(res, "declare")
    assert [e["counter"] for e in d] == [False, True]
    assert d[1]["rule"] == "response.counter" and d[1]["ruling"] == "ruling.2026-09-19.counter"


def test_counter_on_other_cell_is_invalid(run):
    err = run.invalid(two_cells(response=[{"side": "B", "effect": {"flip": "x", "to": "mobile"}},
                                          {"side": "A", "effect": {"attack": 2, "cell": "5,5"}}]))
    assert "response.counter" in err.message and "1,1" in err.message and err.problems[0].key == "response[1].side"


def test_counter_move_applies_to_both_cells(run):
    # moving a piece into the response cell is a counter there (its arrival cell)
    res = run(two_cells(response=[{"side": "B", "effect": {"flip": "x", "to": "mobile"}},
                                  {"side": "A", "effect": {"move": "big", "to": "1,1"}}]))
    assert events(res, "declare")[1]["applies"] == ["0,0", "1,1"]


def test_lifo(run):
    res = run(two_cells(response=[{"side": "B", "effect": {"flip": "x", "to": "mobile"}},
                                  {"side": "A", "effect": {"attack": 2, "cell": "1,1"}},
                                  {"side": "B", "effect": {"attack": 1, "cell": "5,5"}}]))
    assert [e["index"] for e in events(res, "resolve")] == [2, 1, 0]
    assert all(e["step"] == 2 and e["cell"] == "1,1" for e in events(res, "resolve"))


def test_player_target_fixed_at_declaration_fizzles_when_gone(run):
    res = run(two_cells(response=[{"side": "B", "effect": {"flip": "x", "to": "mobile"}},
                                  {"side": "A", "effect": {"move": "x", "to": "0,0"}}]))
    fz = events(res, "fizzle", index=0)
    assert fz and fz[0]["reason"] == "target-gone" and fz[0]["rule"] == "response.fizzle"


def test_already_in_state_fizzles(run):
    res = run(two_cells(response=[{"side": "B", "effect": {"flip": "b", "to": "mobile"}}]))
    assert events(res, "fizzle")[0]["reason"] == "already-in-state"


def test_rule_target_chosen_at_resolution(run):
    # B's attack on 1,1 was declared first; A's counter moves 'big' (Lv 9) in and resolves first,
    # so the attack hits the newcomer (response.rule-targets)
    res = run(two_cells(response=[{"side": "B", "effect": {"attack": 4, "cell": "1,1"}},
                                  {"side": "A", "effect": {"move": "big", "to": "1,1"}}]))
    hit = events(res, "attack", step=2)[0]
    assert hit["target"] == "big" and hit["rule"] == "response.rule-targets"
    assert events(res, "arrive", piece="big")[0]["rule"] == "response.resolve.arrive"


def test_arrival_fights_from_step3_and_depart_is_excluded(run):
    res = run(two_cells(response=[{"side": "B", "effect": {"move": "b", "to": "2,2"}},
                                  {"side": "A", "effect": {"move": "big", "to": "1,1"}}]))
    assert any(e["actor"] == "big" for e in events(res, "attack", step=4, cell="1,1"))
    assert "b" not in res["cells"]["1,1"]["survivors"]["B"]
    assert events(res, "depart", piece="b")[0]["rule"] == "response.resolve.depart"
    assert res["positions"]["b"] == "2,2"


def test_cost_paid_at_declaration_not_refunded(run):
    res = run(two_cells(response=[{"side": "B", "effect": {"flip": "b", "to": "mobile"}, "cost": {"destroy": "x"}}]))
    cost = events(res, "cost")[0]
    assert cost["phase"] == "response" and cost["piece"] == "x"
    assert events(res, "fizzle")[0]["reason"] == "already-in-state"
    assert res["removed"] == ["x"] and "x" not in res["positions"]
    # the cost comes before anything resolves
    ev = [e["type"] for e in res["events"]]
    assert ev.index("cost") < ev.index("resolve")


def test_cost_structure_becomes_fragment(run):
    res = run(scenario({"1,1": {"A": [P("a")], "B": [P("b"), P("t", structure=True, state="settled")]}},
                       response=[{"side": "B", "effect": {"attack": 1, "cell": "1,1"}, "cost": {"destroy": "t"}}]))
    assert res["fragments"] == ["t"] and events(res, "fragment", piece="t")[0]["reason"] == "cost"


def test_move_impossible_is_invalid(run):
    obj = scenario({"1,1": {"A": [P("a")], "B": [P("b")]},
                    "2,2": {"B": [P("f1"), P("f2"), P("f3")]}},
                   response=[{"side": "B", "effect": {"move": "b", "to": "2,2"}}])
    err = run.invalid(obj)
    assert "response.move-impossible" in err.message


def test_attack_cell_must_be_encounter(run):
    err = run.invalid(two_cells(response=[{"side": "B", "effect": {"attack": 3, "cell": "0,0"}}]))
    assert "response.attack-cells" in err.message and err.problems[0].key == "response[0].effect"
    err = run.invalid(two_cells(response=[{"side": "B", "card": "진내폭격", "cell": "0,0", "cost": {"destroy": "x"}}]))
    assert err.problems[0].key == "response[0].cell"


def test_no_encounter_no_response_turn(run):
    err = run.invalid(scenario({"1,1": {"A": [P("a")]}, "2,2": {"B": [P("b")]}},
                               response=[{"side": "B", "effect": {"flip": "b", "to": "settled"}}]))
    assert "response.when" in err.message


def test_stack_resolves_only_in_first_combat(run):
    res = run(two_cells(combat_order=["5,5", "1,1"],
                        response=[{"side": "B", "effect": {"attack": 1, "cell": "1,1"}}]))
    assert res["order"] == ["5,5", "1,1"]
    assert events(res, "resolve")[0]["cell"] == "5,5"
    later = events(res, "step", cell="1,1", step=2)[0]
    assert later["empty"] is True and later["rule"] == "response.resolve.once"
    assert res["cells"]["5,5"]["resolved_stack"] is True


def test_default_order_is_sorted_and_said(run):
    res = run(two_cells())
    assert res["order"] == ["1,1", "5,5"]
    (a,) = [a for a in res["assumed"] if a["choice"] == "combat-order"]
    assert a["order"] == ["1,1", "5,5"] and a["rule"] == "combat.order"


def test_new_encounter_fights_with_empty_step2(run):
    res = run(two_cells(response=[{"side": "B", "effect": {"move": "b", "to": "0,0"}}]))
    assert "0,0" in res["cells"] and res["order"][-1] == "0,0"
    st = events(res, "step", cell="0,0", step=2)[0]
    assert st["empty"] is True
    assert res["cells"]["0,0"]["occupant"] == "A"


def test_first_combat_vacated_by_stack_runs_on(run):
    res = run(scenario({"1,1": {"A": [P("a")], "B": [P("b")]}},
                       response=[{"side": "B", "effect": {"move": "b", "to": "2,2"}}]))
    assert res["cells"]["1,1"]["occupant"] == "A" and res["cells"]["1,1"]["end"] == "decided"
    v = events(res, "vacated")[0]
    assert v["continues"] is True and v["ruling"] == "ruling.2026-09-24.vacated-combat"
    assert any(e["step"] == 7 for e in events(res, "step", cell="1,1"))


def test_inline_attack_without_cell_uses_item_cell(run):
    # the item's `cell` is where an inline attack without its own cell applies
    res = run(two_cells(response=[{"side": "B", "effect": {"attack": 2}, "cell": "5,5"}]))
    (a,) = [e for e in events(res, "attack") if e["step"] == 2]
    assert (a["cell"], a["target"], a["amount"]) == ("5,5", "a5", 2)
    assert events(res, "declare")[0]["applies"] == ["5,5"]
    err = run.invalid(two_cells(response=[{"side": "B", "effect": {"attack": 2}, "cell": "0,0"}]))
    assert "response.attack-cells" in err.message and err.problems[0].key == "response[0].cell"


def test_combat_order_places_a_new_encounter(run):
    # 0,0 becomes an encounter only when the stack resolves; the attacker's order puts it second
    res = run(two_cells(combat_order=["1,1", "0,0", "5,5"],
                        response=[{"side": "B", "effect": {"move": "b", "to": "0,0"}}]))
    assert res["order"] == ["1,1", "0,0", "5,5"]
    assert not [a for a in res["assumed"] if a["choice"] == "combat-order-cell-not-encounter"]
    res = run(two_cells(combat_order=["9,9", "5,5"]))
    assert res["order"] == ["5,5", "1,1"]
    (a,) = [a for a in res["assumed"] if a["choice"] == "combat-order-cell-not-encounter"]
    assert a["cell"] == "9,9"


def test_lowered_hp_to_zero_captures_at_once(run):
    # combat.attack: a piece at HP 0 or less is captured at once — also by a lowered HP
    res = run(scenario({"1,1": {"A": [P("a", lv=3, hp=3, atk=5)], "B": [P("b", lv=3, hp=9, atk=1)]}},
                       response=[{"side": "B", "effect": {"buff": "a", "hp": -3}}]))
    cap = events(res, "capture", piece="a")[0]
    assert (cap["step"], cap["reason"], cap["side"], cap["by"]) == (2, "hp", "B", None)
    assert res["prisoners"]["B"] == ["a"] and all(e["actor"] != "a" for e in events(res, "attack"))
    res = run(scenario({"1,1": {"A": [P("a", lv=3, hp=3, atk=5)], "B": [P("b", lv=3, hp=9, atk=1)]}},
                       response=[{"side": "B", "effect": {"buff": "a", "hp": -2}}]))
    assert events(res, "attack", actor="a")[0]["amount"] == 5


def test_branches_do_not_split_on_capture_order(run, corpus, monkeypatch):
    # two independent combats: the order changes only the order of the prisoner lists
    from flamer_ref import runner

    scn = run.parse(scenario({"1,1": {"A": [P("a", atk=3)], "B": [P("b")]},
                              "2,2": {"A": [P("c", atk=3)], "B": [P("d")]}}))
    out = runner.branches(scn, corpus, None)
    # independent cells: one order is run (issue 11), noted as such
    assert out["orders_tried"] == 1 and out["distinct"] == 1 and out["note"] == "independent"
    monkeypatch.setattr(runner, "_cells_independent", lambda scn: False)  # both orders, same outcome
    out = runner.branches(scn, corpus, None)
    assert out["orders_tried"] == 2 and out["distinct"] == 1


def test_attack_cell_emptied_by_an_earlier_cost_is_still_an_encounter_cell(run):
    """interp.encounter.at-opening: the first declaration's cost empties 1,1 of the defender; the second
    still names 1,1 (an encounter cell when the response turn opened), and the result says so."""
    data = run({
        "kind": "combat", "attacker": "A", "as_of": "2026-09-25",
        "cells": {"1,1": {"A": [{"id": "g", "name": "거인", "lv": 5, "hp": 30, "atk": 1}],
                          "B": [{"id": "x", "name": "병사", "lv": 1, "hp": 1, "atk": 1, "state": "settled"}]},
                  "5,5": {"B": [{"id": "far", "name": "후방", "lv": 1, "hp": 1, "atk": 1, "state": "settled"}]}},
        "response": [{"side": "B", "card": "진내폭격", "cell": "1,1", "cost": {"destroy": "x"}},
                     {"side": "B", "card": "진내폭격", "cell": "1,1", "cost": {"destroy": "far"}}]})
    assert any(a.get("interpretation") == "interp.encounter.at-opening" for a in data["assumed"])
    hits = [e for e in data["events"] if e["type"] == "attack" and e["target"] == "g"]
    assert [e["amount"] for e in hits] == [10, 10]
