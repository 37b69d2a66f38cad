"""Movement rules (이동턴): every reason code reachable, the rulebook's paths,
and properties (limits never exceeded, no enemy cell passed)."""

from __future__ import annotations

from collections import namedtuple

import pytest
from hypothesis import given, settings, strategies as st

from flamer_ref.engine.board import board_from_spec
from flamer_ref.engine.movement import REASON_RULE, MoveOrder, SpMove, resolve_moves

P = namedtuple("P", "id side cell state structure card", defaults=("mobile", False, None))
BOARD = board_from_spec({"width": 7, "height": 6, "adjacency": "square8", "sea": ["6,0"]})
SP = {("잠복군", "비행"): SpMove("비행", 2), ("질풍", "질주"): SpMove("질주", 1),
      ("잠식된 석산", "산지직송"): SpMove("산지직송", None, structure_ok=True)}


def run(pieces, activate, moves, first_round=False, board=BOARD):
    from flamer_ref.corpus import load
    from flamer_ref.engine.decisions import rules_at

    corpus = load()  # the ruling an enemy cell's stop cites: the one the data names for enemy-cell-stops-move
    stop = rules_at(corpus, corpus.latest_date()).ask("enemy-cell-stops-move").cite
    orders = [MoveOrder(i, m[0], tuple(m[1]), m[2] if len(m) > 2 else None) for i, m in enumerate(moves)]
    return resolve_moves(pieces, board, "A", activate, orders, SP, first_round, enemy_stop=stop)


def reasons(res):
    return [e.reason for e in res.errors]


def test_scene3_paths_and_encounter():
    pieces = [P("gk1", "A", "1,2"), P("art", "A", "1,2"), P("star", "A", "1,2"), P("gk2", "A", "0,3"),
              P("gap", "A", "5,0"), P("drill", "B", "2,4", "settled"), P("amp", "B", "2,4", "settled"),
              P("giant", "B", "2,4")]
    res = run(pieces, ["1,2", "0,3"], [("gk1", ["2,3", "2,4"]), ("art", ["2,3", "2,4"]), ("star", ["2,3", "2,4"]),
                                       ("gk2", ["1,4", "1,5"])])
    assert res.valid and not res.errors
    assert res.positions["gk2"] == "1,5" and res.positions["gap"] == "5,0"
    assert all(res.positions[p] == "2,4" for p in ("gk1", "art", "star"))
    assert res.encounters == ("2,4",)
    assert any(e["type"] == "stop" and e["cell"] == "2,4" for e in res.events)


def test_enemy_on_path_stops_the_move():
    pieces = [P("gk", "A", "1,1"), P("x", "B", "2,1", "settled")]
    res = run(pieces, ["1,1"], [("gk", ["2,1", "3,1"])])
    assert reasons(res) == ["blocked-by-enemy"]
    assert res.errors[0].rule == "move.path.enemy-stop" and res.errors[0].ruling == "ruling.2026-09-16.path-rule"
    res = run(pieces, ["1,1"], [("gk", ["2,1"])])
    assert res.valid and res.encounters == ("2,1",)


def test_structures_count_as_enemy_cells():
    pieces = [P("gk", "A", "1,1"), P("tower", "B", "2,1", "mobile", True)]
    assert reasons(run(pieces, ["1,1"], [("gk", ["2,1", "3,1"])])) == ["blocked-by-enemy"]


def test_friendly_cells_pass_even_when_full():
    pieces = [P("gk", "A", "1,1")] + [P(f"f{i}", "A", "2,1") for i in range(3)]
    res = run(pieces, ["1,1"], [("gk", ["2,1", "3,1"])])
    assert res.valid and res.positions["gk"] == "3,1"


def test_destination_full_and_cell_full():
    pieces = [P("gk", "A", "1,1")] + [P(f"f{i}", "A", "2,1") for i in range(3)]
    assert reasons(run(pieces, ["1,1"], [("gk", ["2,1"])])) == ["destination-full"]
    pieces = [P("gk", "A", "1,1"), P("a1", "A", "2,1"), P("a2", "A", "2,1")] + \
        [P(f"b{i}", "B", "2,1") for i in range(3)]
    # 2 friendly + 3 enemy + a third friendly would be 6: allowed; make it 6 first
    pieces.append(P("a3", "A", "1,2"))
    res = run(pieces, ["1,1", "1,2"], [("a3", ["2,1"]), ("gk", ["2,1"])])
    assert res.positions["a3"] == "2,1"
    # 3 + 3 = 6 in all: the 6-piece limit is named (with two sides it is the only way
    # cell-full can happen); 3 friendly and fewer enemies stays destination-full
    assert reasons(res) == ["cell-full"] and res.errors[0].move == 1 and res.errors[0].rule == "move.limit"


def test_cell_full_reason():
    pieces = [P("gk", "A", "1,1"), P("a1", "A", "2,1"), P("a2", "A", "2,1")] + \
        [P(f"b{i}", "B", "2,1") for i in range(3)] + [P("c1", "C", "2,1")]
    res = run(pieces, ["1,1"], [("gk", ["2,1"])])
    assert reasons(res) == ["cell-full"] and res.errors[0].rule == "move.limit"


def test_activation_limits():
    pieces = [P("a", "A", "0,0"), P("b", "A", "3,3"), P("c", "A", "5,5")]
    res = run(pieces, ["0,0", "3,3", "5,5"], [])
    assert reasons(res) == ["too-many-cells"]
    res = run(pieces, ["0,0", "3,3"], [("b", ["3,4"])], first_round=True)
    # the move from the cell beyond the limit carries the reason, with its index
    assert reasons(res) == ["too-many-cells"]
    assert (res.errors[0].move, res.errors[0].piece, res.errors[0].rule) == (0, "b", "move.activation")
    assert res.positions["b"] == "3,3"
    res = run(pieces, ["0,0", "3,3"], [("a", ["0,1"])], first_round=True)
    assert reasons(res) == ["too-many-cells"] and res.errors[0].move is None and res.positions["a"] == "0,1"
    res = run(pieces, ["0,0"], [("b", ["3,4"])], first_round=True)
    assert reasons(res) == ["not-activated"]
    res = run(pieces, ["1,1"], [])
    assert reasons(res) == ["not-own-cell"]


def test_piece_states_and_kinds():
    pieces = [P("s", "A", "0,0", "settled"), P("t", "A", "0,0", "mobile", True), P("e", "B", "4,4")]
    assert reasons(run(pieces, ["0,0"], [("s", ["0,1"])])) == ["settled"]
    assert reasons(run(pieces, ["0,0"], [("t", ["0,1"])])) == ["structure"]
    assert reasons(run(pieces, ["0,0"], [("e", ["4,3"])])) == ["not-turn-player"]


def test_distance_adjacency_board_edges():
    pieces = [P("a", "A", "0,0")]
    assert reasons(run(pieces, ["0,0"], [("a", ["0,1", "0,2", "0,3"])])) == ["too-far"]
    assert reasons(run(pieces, ["0,0"], [("a", ["0,2"])])) == ["not-adjacent"]
    assert reasons(run(pieces, ["0,0"], [("a", ["-1,0"])])) == ["off-board"]
    pieces = [P("a", "A", "5,0")]
    assert reasons(run(pieces, ["5,0"], [("a", ["6,0"])])) == ["off-board"]  # sea


def test_square4_and_hex_and_explicit_boards():
    sq4 = board_from_spec({"width": 3, "height": 3, "adjacency": "square4"})
    assert not sq4.adjacent("0,0", "1,1") and sq4.adjacent("0,0", "0,1")
    hx = board_from_spec({"width": 3, "height": 3, "adjacency": "hex"})
    assert hx.adjacent("1,1", "2,0") and not hx.adjacent("1,1", "2,2")
    ex = board_from_spec({"cells": ["a", "b", "c"], "neighbors": {"a": ["b"], "b": ["c"]}})
    assert ex.adjacent("b", "a") and not ex.adjacent("a", "c")


def test_sp_moves_ignore_activation_but_need_mobile_state():
    pieces = [P("amb", "A", "3,3", card="잠복군"), P("amb2", "A", "0,0", "settled", card="잠복군")]
    res = run(pieces, [], [("amb", ["4,4", "5,5"], "비행")])
    assert res.valid and res.positions["amb"] == "5,5"
    assert reasons(run(pieces, [], [("amb", ["4,4", "5,5"], "질주")])) == ["no-such-sp"]
    assert reasons(run(pieces, [], [("amb2", ["1,1"], "비행")])) == ["settled"]
    pieces = [P("wind", "A", "3,3", card="질풍")]
    assert reasons(run(pieces, [], [("wind", ["3,4", "3,5"], "질주")])) == ["too-far"]


def test_unknown_sp_distance_is_unresolved():
    pieces = [P("q", "A", "3,3", "mobile", True, "잠식된 석산")]
    res = run(pieces, [], [("q", ["3,4"], "산지직송")])
    assert res.valid and res.positions["q"] == "3,3"
    assert res.unresolved[0]["reason"] == "sp-distance-unknown"


def test_a_piece_moves_once_normally():
    pieces = [P("a", "A", "0,0")]
    assert reasons(run(pieces, ["0,0"], [("a", ["0,1"]), ("a", ["0,2"])])) == ["already-moved"]


def test_every_reason_has_a_clause():
    from flamer_ref.corpus import load

    corpus = load()
    assert len(REASON_RULE) >= 5
    for rule, ruling in REASON_RULE.values():
        assert rule in corpus.clauses
        assert ruling is None or ruling in corpus.rulings


cells = st.tuples(st.integers(0, 4), st.integers(0, 4)).map(lambda t: f"{t[0]},{t[1]}")


@settings(max_examples=120, deadline=None)
@given(st.lists(st.tuples(st.sampled_from("AB"), cells), min_size=1, max_size=14),
       st.lists(st.tuples(st.integers(0, 13), st.lists(cells, min_size=1, max_size=3)), max_size=10),
       st.lists(cells, max_size=3))
def test_property_limits_and_no_enemy_passed(raw, raw_moves, activate):
    board = board_from_spec({"width": 5, "height": 5, "adjacency": "square8"})
    counts: dict = {}
    pieces = []
    for i, (side, cell) in enumerate(raw):
        key = (cell, side)
        if counts.get(key, 0) >= 3 or sum(v for (c, _), v in counts.items() if c == cell) >= 6:
            continue
        counts[key] = counts.get(key, 0) + 1
        pieces.append(P(f"p{i}", side, cell))
    ids = [p.id for p in pieces]
    moves = [MoveOrder(j, ids[k % len(ids)], tuple(path)) for j, (k, path) in enumerate(raw_moves)]
    res = resolve_moves(pieces, board, "A", activate, moves, {}, False)
    sides = {p.id: p.side for p in pieces}
    for cell in set(res.positions.values()):
        here = [pid for pid, c in res.positions.items() if c == cell]
        assert len(here) <= 6
        for s in "AB":
            assert sum(1 for pid in here if sides[pid] == s) <= 3
    # no valid move passes through a cell holding an enemy at that moment
    positions = {p.id: p.cell for p in pieces}
    for ev in res.events:
        if ev["type"] == "move":
            for cell in ev["path"][:-1]:
                assert not any(c == cell and sides[pid] != sides[ev["piece"]] for pid, c in positions.items())
            positions[ev["piece"]] = ev["to"]
    assert res.valid == (not res.errors)


SP2 = {**SP, ("교란기", "음속돌파"): SpMove("음속돌파", 1, pass_enemies=True)}


def run2(pieces, activate, moves):
    orders = [MoveOrder(i, m[0], tuple(m[1]), m[2] if len(m) > 2 else None) for i, m in enumerate(moves)]
    return resolve_moves(pieces, BOARD, "A", activate, orders, SP2, False)


def test_a_piece_that_entered_an_enemy_cell_moves_no_further_this_turn():
    # move.path.enemy-stop: 'that piece's movement ends there' also holds for its SP move
    pieces = [P("amb", "A", "0,0", card="잠복군"), P("x", "B", "1,1")]
    res = run2(pieces, ["0,0"], [("amb", ["1,1"]), ("amb", ["2,2", "3,3"], "비행")])
    assert reasons(res) == ["blocked-by-enemy"]
    e = res.errors[0]
    assert (e.move, e.piece, e.rule, e.detail["cell"]) == (1, "amb", "move.path.enemy-stop", "1,1")
    assert res.positions["amb"] == "1,1" and res.encounters == ("1,1",)
    # the unresolved normal-and-sp-move gap is only reported for a move that is applied
    assert not [u for u in res.unresolved if u["reason"] == "normal-and-sp-move"]
    # the same the other way round: SP into the enemy cell, then a normal move out
    res = run2(pieces, ["0,0"], [("amb", ["1,1"], "비행"), ("amb", ["2,2"])])
    assert reasons(res) == ["blocked-by-enemy"] and res.positions["amb"] == "1,1"
    # a piece that merely starts the turn in a cell with enemies (대립) may leave it
    pieces = [P("gk", "A", "1,1"), P("x", "B", "1,1", "settled")]
    res = run2(pieces, ["1,1"], [("gk", ["2,2", "3,3"])])
    assert res.valid and res.positions["gk"] == "3,3"


def test_sonic_boom_passes_enemies_after_its_one_cell():
    pieces = [P("jam", "A", "0,0", card="교란기"), P("x", "B", "1,1"), P("y", "B", "3,3")]
    # normal move into an enemy cell, then 음속돌파 on through it: allowed, reported as a reading
    res = run2(pieces, ["0,0"], [("jam", ["1,1"]), ("jam", ["2,2"], "음속돌파")])
    assert res.valid and res.positions["jam"] == "2,2"
    assert [u["reason"] for u in res.unresolved] == ["normal-and-sp-move", "pass-enemies"]
    assert res.unresolved[1]["cell"] == "1,1" and res.unresolved[1]["sp"] == "음속돌파"
    # 음속돌파 first, then the normal move may pass an enemy cell ('이후 상대 기물 통과')
    res = run2(pieces, ["0,0"], [("jam", ["0,1"], "음속돌파"), ("jam", ["1,1", "2,1"])])
    assert res.valid and res.positions["jam"] == "2,1"
    assert any(u["reason"] == "pass-enemies" and u["cell"] == "1,1" for u in res.unresolved)
    # without 음속돌파 the same path stops at the enemy cell
    res = run2(pieces, ["0,0"], [("jam", ["1,1", "2,1"])])
    assert reasons(res) == ["blocked-by-enemy"]


def test_sp_errors_cite_the_sp_clause():
    pieces = [P("wind", "A", "3,3", card="질풍"), P("amb", "A", "0,0", "settled", card="잠복군"),
              P("gk", "A", "5,5")]
    res = run2(pieces, ["5,5"], [("wind", ["3,4", "3,5"], "질주"), ("amb", ["1,1"], "비행"), ("gk", ["5,4", "5,3", "5,2"])])
    assert [(e.reason, e.rule) for e in res.errors] == [("too-far", "move.sp"), ("settled", "move.sp"),
                                                        ("too-far", "move.mov")]


@pytest.mark.parametrize("spec,key", [
    ({"width": 3, "height": 3, "sea": "1,1"}, "board.sea"),  # was read letter by letter
    ({"cells": ["a", "b"], "neighbors": ["a", "b"]}, "board.neighbors"),  # was a crash
    ({"cells": ["a", "b"], "neighbors": {"a": "b"}}, "board.neighbors"),
    ({"width": 3, "height": 3, "bogus": 1}, "board.bogus"),  # unknown keys were ignored
    ({"width": True, "height": 3}, "board.width"),
])
def test_board_specs_are_checked(spec, key):
    from flamer_ref.engine.board import BoardError

    with pytest.raises(BoardError) as exc:
        board_from_spec(spec)
    assert exc.value.key == key and exc.value.message


def test_blocked_by_enemy_is_named_before_what_lies_beyond():
    # the piece stopped in the enemy cell: the next cell (sea, off the board, not adjacent) is moot
    pieces = [P("gk", "A", "4,1"), P("x", "B", "5,0")]
    assert reasons(run(pieces, ["4,1"], [("gk", ["5,0", "6,0"])])) == ["blocked-by-enemy"]  # 6,0 is sea
    assert reasons(run(pieces, ["4,1"], [("gk", ["5,0", "5,-1"])])) == ["blocked-by-enemy"]
    assert reasons(run(pieces, ["4,1"], [("gk", ["5,0", "5,2"])])) == ["blocked-by-enemy"]
