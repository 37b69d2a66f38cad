"""Lv ties: current HP → ATK → cost → listing order (combat.tiebreak, interp.tiebreak.*)."""

from .conftest import P, events, scenario


def _target(res):
    return events(res, "attack")[0]


def test_hp_breaks_level_tie_and_cites_current_hp(run):
    res = run(scenario({"1,1": {"A": [P("a", lv=5, hp=9, atk=1)],
                                 "B": [P("b1", lv=3, hp=2, atk=0), P("b2", lv=3, hp=4, atk=0)]}}))
    e = _target(res)
    assert e["target"] == "b2"
    assert e["target_ties"] == ["combat.tiebreak", "interp.tiebreak.current-hp"]


def test_current_hp_not_printed_hp(run):
    # both Lv 3 with printed HP 5; b1 is hit first (listing), so then b2 has the higher current HP
    res = run(scenario({"1,1": {"A": [P("a1", lv=9, hp=9, atk=1), P("a2", lv=8, hp=9, atk=1)],
                                 "B": [P("b1", lv=3, hp=5, atk=0, cost=1), P("b2", lv=3, hp=5, atk=0, cost=1)]}}))
    first, second = events(res, "attack")[:2]
    assert first["target"] == "b1" and "interp.tiebreak.listing-order" in first["target_ties"]
    assert second["target"] == "b2" and "interp.tiebreak.listing-order" not in second["target_ties"]


def test_atk_then_cost(run):
    res = run(scenario({"1,1": {"A": [P("a", lv=5, hp=9, atk=1)],
                                 "B": [P("b1", lv=3, hp=4, atk=1, cost=9), P("b2", lv=3, hp=4, atk=2, cost=1)]}}))
    assert _target(res)["target"] == "b2"
    res = run(scenario({"1,1": {"A": [P("a", lv=5, hp=9, atk=1)],
                                 "B": [P("b1", lv=3, hp=4, atk=0, cost=1), P("b2", lv=3, hp=4, atk=0, cost=9)]}}))
    assert _target(res)["target"] == "b2"


def test_listing_order_is_flagged(run):
    res = run(scenario({"1,1": {"A": [P("a", lv=5, hp=9, atk=1)],
                                 "B": [P("b1", lv=3, hp=4, atk=0, cost=2), P("b2", lv=3, hp=4, atk=0, cost=2)]}}))
    assert _target(res)["target"] == "b1"
    assert "interp.tiebreak.listing-order" in _target(res)["target_ties"]
    assert any(a["choice"] == "tiebreak-listing-order" and a["rule"] == "interp.tiebreak.listing-order"
               for a in res["assumed"])


def test_order_ties_on_attack_order(run):
    res = run(scenario({"1,1": {"A": [P("a1", lv=3, hp=2, atk=1), P("a2", lv=3, hp=5, atk=1)],
                                 "B": [P("b", lv=1, hp=50, atk=0)]}}))
    e1, e2 = events(res, "attack")[:2]
    assert (e1["actor"], e2["actor"]) == ("a2", "a1")
    assert e1["order_ties"] == ["combat.tiebreak", "interp.tiebreak.current-hp"]


def test_unknown_cost_needed_is_an_error_naming_piece_and_stat(run):
    # different cards tie on Lv, HP and ATK; the database has no cost for either
    err = run.invalid(scenario({"1,1": {"A": [P("a", lv=9, hp=9, atk=1)],
                                         "B": [{"id": "x", "card": "수문장", "lv": 2, "hp": 2},
                                               {"id": "y", "card": "장인"}]}}))
    msg = err.message
    assert "cost" in msg and ("'x'" in msg or "'y'" in msg)
    assert err.problems[0].line is None or err.problems[0].key.endswith(".cost")


def test_unknown_cost_not_needed_without_tie(run):
    res = run(scenario({"1,1": {"A": [P("a", lv=9, hp=9, atk=1)],
                                 "B": [{"id": "x", "card": "수문장"}, {"id": "y", "card": "장인"}]}}))
    assert res["cells"]["1,1"]["occupant"] == "A"


def test_interchangeable_pieces_do_not_need_cost(run):
    res = run(scenario({"1,1": {"A": [P("a", lv=9, hp=9, atk=1)],
                                 "B": [{"id": "x", "card": "장인"}, {"id": "y", "card": "장인"}]}}))
    assert _target(res)["target"] == "x"
    assert any(a["choice"] == "tiebreak-interchangeable" for a in res["assumed"])


def test_unknown_stat_line_in_yaml(run):
    err = run.invalid("""\
        kind: combat
        attacker: A
        cells:
          "1,1":
            A:
            - {id: a, name: 가, lv: 9, hp: 9, atk: 1}
            B:
            - {id: x, card: 수문장, lv: 2, hp: 2}
            - {id: y, card: 장인}
        """)
    assert err.problems[0].line in (8, 9)
    assert err.problems[0].file == "test.yaml"
