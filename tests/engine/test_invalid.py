"""Invalid scenarios: a DataError whose Korean message names the file, the YAML line and the field."""

import pytest

from flamer_ref.errors import FlamerError

from .conftest import P, scenario


def _yaml_invalid(run, text):
    err = run.invalid(text)
    p = err.problems[0]
    assert p.file == "test.yaml"
    return err, p


def test_more_than_three_pieces_a_side(run):
    err, p = _yaml_invalid(run, """\
        kind: combat
        attacker: A
        cells:
          "1,1":
            A: [{id: a1, name: 가, lv: 1, hp: 1, atk: 1}, {id: a2, name: 가, lv: 1, hp: 1, atk: 1},
                {id: a3, name: 가, lv: 1, hp: 1, atk: 1}, {id: a4, name: 가, lv: 1, hp: 1, atk: 1}]
            B: [{id: b, name: 나, lv: 1, hp: 1, atk: 1}]
        """)
    assert p.line == 5 and p.key == "cells.1,1.A" and "3기" in p.message


def test_seven_in_a_cell(run, corpus):
    # three sides would be caught first; build 7 with two sides by exceeding one side instead
    err = run.invalid(scenario({"1,1": {"A": [P("a1"), P("a2"), P("a3"), P("a4")], "B": [P("b1"), P("b2"), P("b3")]}}))
    msgs = " ".join(p.message for p in err.problems)
    assert "6기" in msgs and "3기" in msgs


def test_first_response_by_attacker(run):
    err, p = _yaml_invalid(run, """\
        kind: combat
        attacker: A
        cells:
          "1,1":
            A: [{id: a, name: 가, lv: 1, hp: 1, atk: 1}]
            B: [{id: b, name: 나, lv: 1, hp: 1, atk: 1}]
        response:
        - side: A
          effect: {attack: 1, cell: "1,1"}
        """)
    assert p.line == 8 and p.key == "response[0].side" and "수비자" in p.message


def test_counter_on_another_cell(run):
    err, p = _yaml_invalid(run, """\
        kind: combat
        attacker: A
        cells:
          "1,1":
            A: [{id: a, name: 가, lv: 1, hp: 1, atk: 1}]
            B: [{id: b, name: 나, lv: 1, hp: 1, atk: 1}]
          "2,2":
            A: [{id: a2, name: 가, lv: 1, hp: 1, atk: 1}]
            B: [{id: b2, name: 나, lv: 1, hp: 1, atk: 1}]
        response:
        - {side: B, effect: {attack: 1, cell: "1,1"}}
        - {side: A, effect: {attack: 1, cell: "2,2"}}
        """)
    assert p.line == 12 and "맞대응" in p.message


def test_unknown_card_suggests_nearest(run):
    # a typo that `flamer card` corrects (수문쟝) is read with a notice (tests/scenarios/test_scenario_input.py);
    # a name that fits no card is still an error that suggests the nearest names
    err, p = _yaml_invalid(run, """\
        kind: combat
        attacker: DGM
        cells:
          "1,1":
            DGM: [{id: a, card: 수문장대장군}]
            BGM: [{id: b, card: 거신}]
        """)
    assert p.line == 5 and p.key == "cells.1,1.DGM[0].card"
    assert "수문장대장군" in p.message and "수문장" in (p.fix or "")


def test_unknown_response_card(run):
    err = run.invalid(scenario({"1,1": {"A": [P("a")], "B": [P("b")]}},
                               response=[{"side": "B", "card": "재부팅대장군", "target": "b"}]))
    assert "재부팅" in err.message


def test_yaml_tag_is_rejected(run):
    err, p = _yaml_invalid(run, """\
        kind: combat
        attacker: !!python/object:os.system A
        cells: {}
        """)
    assert p.line == 2 and "태그" in p.message


def test_yaml_syntax_error(run):
    err, p = _yaml_invalid(run, """\
        kind: combat
        attacker: A
        cells:
          "1,1": {A: [{id: a, name: x, lv: 1 hp: 1}]
        """)
    assert p.line and "YAML" in p.message


def test_duplicate_key(run):
    err, p = _yaml_invalid(run, """\
        kind: combat
        attacker: A
        attacker: B
        cells: {"1,1": {A: [{id: a, name: x, lv: 1, hp: 1, atk: 1}], B: [{id: b, name: y, lv: 1, hp: 1, atk: 1}]}}
        """)
    assert p.line == 3


def test_unknown_key_and_missing_stats(run):
    err = run.invalid(scenario({"1,1": {"A": [{"id": "a", "name": "x", "lv": 1}], "B": [P("b")]}}, atacker="A"))
    msgs = [p.message for p in err.problems]
    assert any("atacker" in m for m in msgs) and any("hp" in m and "atk" in m for m in msgs)


def test_duplicate_ids_and_bad_state(run):
    err = run.invalid(scenario({"1,1": {"A": [P("a"), P("a")], "B": [P("b", state="flipped")]}}))
    msgs = " ".join(p.message for p in err.problems)
    assert "두 번 나옵니다" in msgs and "flipped" in msgs   # a duplicate id, in the review's words


def test_three_sides(run):
    err = run.invalid(scenario({"1,1": {"A": [P("a")], "B": [P("b")], "C": [P("c")]}}))
    assert "두 진영" in err.message


def test_attacker_not_a_side(run):
    err = run.invalid(scenario({"1,1": {"A": [P("a")], "B": [P("b")]}}, attacker="Z"))
    assert err.problems[0].key == "attacker"


def test_other_kinds_not_supported_yet(run):
    with pytest.raises(FlamerError):
        run({"kind": "move"})


def test_target_not_in_cells(run):
    err = run.invalid(scenario({"1,1": {"A": [P("a")], "B": [P("b")]}},
                               response=[{"side": "B", "card": "재부팅", "target": "nobody"}]))
    assert err.problems[0].key == "response[0].target"


def test_bad_as_of(run):
    err = run.invalid(scenario({"1,1": {"A": [P("a")], "B": [P("b")]}}, as_of="2026-13-01"))
    assert err.problems[0].key == "as_of"


def test_same_piece_destroyed_twice_as_cost(run):
    err = run.invalid(scenario({"1,1": {"A": [P("a")], "B": [P("b"), P("c")]}},
                               response=[{"side": "B", "effect": {"attack": 1, "cell": "1,1"},
                                          "cost": [{"destroy": "c"}, {"destroy": "c"}]}]))
    assert err.problems[0].key == "response[0].cost" and "'c'" in err.message


def test_inline_effect_without_target_names_no_card(run):
    err = run.invalid(scenario({"1,1": {"A": [P("a")], "B": [P("b")]}},
                               response=[{"side": "B", "effect": {"buff": "target", "atk": 1}}]))
    assert "None" not in err.message and "target" in (err.problems[0].fix or "")


def test_battle_card_on_a_cell_without_combat(run):
    err = run.invalid(scenario({"1,1": {"A": [P("a")], "B": [P("b")]}},
                               battle_cards=[{"side": "A", "cell": "9,9", "effect": {"attack": 1}}]))
    assert err.problems[0].key == "battle_cards[0].cell" and "9,9" in err.message
