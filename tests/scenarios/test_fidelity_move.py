"""Fidelity of the move turn to the 이동턴 and 전투턴 pages (issue 10): moves are simultaneous,
and a 대립 cell is no encounter until a mobile piece is in it."""

from __future__ import annotations

import json
from collections import namedtuple

from hypothesis import given, settings, strategies as st

from flamer_ref.engine.board import board_from_spec
from flamer_ref.engine.movement import MoveOrder, resolve_moves


P = namedtuple("P", "id side cell state structure card", defaults=("mobile", False, None))
BOARD = board_from_spec({"width": 7, "height": 6, "adjacency": "square8", "sea": []})


def run(pieces, activate, moves):
    orders = [MoveOrder(i, m[0], tuple(m[1]), None) for i, m in enumerate(moves)]
    return resolve_moves(pieces, BOARD, "A", activate, orders, {}, False)


def test_standoff_cell_is_not_an_encounter_until_a_mobile_piece_is_there():
    """전투턴 page, 대립 상태: "이후 어느 쪽이든 그 셀에 기동 기물이 생기면(암막턴 재기동·이동 진입 등)
    그다음 전투턴에 다시 조우 셀로 취급되어 전투가 성립한다." — settled pieces only on both sides is
    no encounter; a mobile piece moving in makes it one again."""
    pieces = [P("a1", "A", "3,3", "settled"), P("b1", "B", "3,3", "settled"), P("gk", "A", "1,3")]
    res = run(pieces, ["1,3"], [("gk", ["2,3"])])
    assert res.valid and res.encounters == ()
    assert any(e["type"] == "standoff-cell" and e["cell"] == "3,3" and e["rule"] == "combat.standoff"
               for e in res.events)
    res = run(pieces, ["1,3"], [("gk", ["2,3", "3,3"])])
    assert res.valid and res.encounters == ("3,3",)


def test_standoff_cell_in_a_move_scenario_json(tmp_path):
    """전투턴 page: "이후 어느 쪽이든 그 셀에 기동 기물이 생기면 … 다시 조우 셀로 취급" — the move
    result's `encounters` (spec: cells with both sides and at least one mobile piece)."""
    from inprocess import invoke

    f = tmp_path / "standoff.yaml"
    f.write_text('kind: move\nattacker: DGM\nboard: {width: 5, height: 5, adjacency: square8}\n'
                 'cells:\n  "2,2": {DGM: [{id: a, name: 가, lv: 1, hp: 1, atk: 1, state: settled}],\n'
                 '          BGM: [{id: b, name: 나, lv: 1, hp: 1, atk: 1, state: settled}]}\n'
                 '  "0,0": {DGM: [{id: c, name: 다, lv: 1, hp: 1, atk: 1}]}\n'
                 'activate: ["0,0"]\nmoves: [{piece: c, path: ["1,1"]}]\n', encoding="utf-8")
    r = invoke("simulate", str(f), "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["encounters"] == [] and d["valid"] is True
    r = invoke("simulate", str(f))
    assert "대립 셀 (2,2)" in r.stdout  # cells in parentheses in Korean text (issue 17)


def test_a_piece_may_enter_a_full_friendly_cell_that_another_leaves():
    """이동턴 page: "각자 방향·거리를 따로 정해 동시에 이동" — the limits are checked against the
    positions after all moves, so entering a full cell that another piece leaves is allowed, in
    either order of the list."""
    pieces = [P("x1", "A", "2,2"), P("x2", "A", "2,2"), P("x3", "A", "2,2"), P("gk", "A", "0,2")]
    for moves in ([("gk", ["1,2", "2,2"]), ("x1", ["3,2"])], [("x1", ["3,2"]), ("gk", ["1,2", "2,2"])]):
        res = run(pieces, ["2,2", "0,2"], moves)
        assert res.valid, res.errors
        assert res.positions["gk"] == "2,2" and res.positions["x1"] == "3,2"


def test_exceeded_limit_refuses_the_later_move_in_the_list():
    """이동턴 page: "셀당 한도는 아군 3기·양 진영 합산 6기이며, 이동·생산으로 한도를 넘길 수 없습니다"
    with "동시에 이동": where the positions after all moves still exceed a limit, the move into that
    cell that comes later in the list is refused (scenarios spec, kind move)."""
    pieces = [P("x1", "A", "2,2"), P("x2", "A", "2,2"), P("m1", "A", "0,2"), P("m2", "A", "0,2")]
    res = run(pieces, ["0,2"], [("m1", ["1,2", "2,2"]), ("m2", ["1,2", "2,2"])])
    assert [(e.move, e.piece, e.reason, e.rule) for e in res.errors] == [(1, "m2", "destination-full", "move.limit")]
    assert res.positions["m1"] == "2,2" and res.positions["m2"] == "0,2"
    res = run(pieces, ["0,2"], [("m2", ["1,2", "2,2"]), ("m1", ["1,2", "2,2"])])
    assert [(e.move, e.piece) for e in res.errors] == [(1, "m1")]


def test_a_refused_leaver_refuses_the_move_into_its_cell():
    """이동턴 page: "도착 셀이 이미 아군 3기로 차 있으면 그 셀로는 이동할 수 없습니다" — checked after all
    moves: when the piece leaving a full cell is itself refused (its own destination is full), the
    cell it stays in is full again and the move into it is refused too."""
    pieces = [P("x1", "A", "2,2"), P("x2", "A", "2,2"), P("x3", "A", "2,2"),
              P("y1", "A", "4,2"), P("y2", "A", "4,2"), P("y3", "A", "4,2"), P("gk", "A", "0,2")]
    # x1 leaves 2,2 for the full 4,2 (refused); gk would enter 2,2
    res = run(pieces, ["2,2", "0,2"], [("gk", ["1,2", "2,2"]), ("x1", ["3,2", "4,2"])])
    assert sorted((e.piece, e.reason) for e in res.errors) == [("gk", "destination-full"), ("x1", "destination-full")]
    assert res.positions["gk"] == "0,2" and res.positions["x1"] == "2,2"


CELLS = [f"{x},{y}" for x in range(4) for y in range(3)]


@st.composite
def turn(draw):
    pieces = []
    for i in range(draw(st.integers(2, 9))):
        side = draw(st.sampled_from("AB"))
        cell = draw(st.sampled_from(CELLS))
        if sum(1 for p in pieces if p.cell == cell and p.side == side) >= 3:
            continue
        pieces.append(P(f"p{i}", side, cell, draw(st.sampled_from(["mobile", "mobile", "settled"]))))
    moves = []
    for p in pieces:
        if p.side == "A" and draw(st.booleans()):
            path = draw(st.lists(st.sampled_from(CELLS), min_size=1, max_size=2))
            moves.append((p.id, path))
    activate = sorted({p.cell for p in pieces if p.side == "A"})[:2]
    return pieces, activate, moves


@settings(max_examples=150, deadline=None)
@given(turn(), st.randoms(use_true_random=False))
def test_two_orderings_agree_where_limits_are_not_exceeded(t, rnd):
    """이동턴 page: "각자 방향·거리를 따로 정해 동시에 이동" — simultaneous moves: any order of the same
    moves gives the same positions and errors when no limit is exceeded."""
    pieces, activate, moves = t
    a = run(pieces, activate, moves)
    shuffled = list(moves)
    rnd.shuffle(shuffled)
    b = run(pieces, activate, shuffled)
    if any(e.reason in ("destination-full", "cell-full") for e in a.errors + b.errors):
        return
    assert a.positions == b.positions
    assert sorted((e.piece, e.reason) for e in a.errors) == sorted((e.piece, e.reason) for e in b.errors)
    assert a.encounters == b.encounters
    # and never beyond the limits
    for res in (a, b):
        for cell in set(res.positions.values()):
            here = [pid for pid, c in res.positions.items() if c == cell]
            assert len(here) <= 6
