"""The move turn (이동턴) as rules: activation cells, each piece's own path,
(이동) SP moves, enemy cells that stop a move, the per-cell limits.

Pure: takes parsed pieces, a Board and the declared moves; returns a frozen
MoveResult whose events and errors cite clause ids. No text is built here: the
`message` of an error is chosen by templates (templates/simulate/move.*).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Literal

from .board import Board
from .scenario import cell_sort_key

MOV = 2  # 기본 2셀 이동 (move.mov)
SIDE_LIMIT = 3  # 셀당 아군 3기 (move.limit)
CELL_LIMIT = 6  # 양 진영 합산 6기

#: reasons whose clause is move.sp when the move is an (이동) SP's (its own state and distance rule)
SP_RULE_REASONS = ("settled", "too-far", "already-moved")

Reason = Literal["not-activated", "too-many-cells", "not-own-cell", "not-turn-player", "settled", "structure",
                 "too-far", "not-adjacent", "off-board", "blocked-by-enemy", "destination-full", "cell-full",
                 "already-moved", "no-such-sp"]

#: reason code -> (clause id, ruling id or None); blocked-by-enemy cites the ruling the decision
#: enemy-cell-stops-move names on the day (resolve_moves' `enemy_stop`)
REASON_RULE: dict[str, tuple[str, str | None]] = {
    "not-activated": ("move.activation", None),
    "too-many-cells": ("move.activation", None),
    "not-own-cell": ("move.activation", None),
    "not-turn-player": ("round.turn-player", None),
    "settled": ("move.mov", None),
    "structure": ("move.structures", None),
    "too-far": ("move.mov", None),
    "not-adjacent": ("move.mov", None),
    "off-board": ("move.off-board", None),
    "blocked-by-enemy": ("move.path.enemy-stop", None),
    "destination-full": ("move.limit", None),
    "cell-full": ("move.limit", None),
    "already-moved": ("move.mov", None),
    "no-such-sp": ("move.sp", None),
}


@dataclass(frozen=True)
class MoveOrder:
    """One entry of `moves`: a piece, the cells it enters in order, optional (이동) SP."""

    index: int
    piece: str
    path: tuple[str, ...]
    sp: str | None = None


@dataclass(frozen=True)
class SpMove:
    """What a (이동) SP lets a piece do (from the card data): distance in
    cells (None = the pages do not say) and whether it may pass enemy cells."""

    name: str
    distance: int | None
    pass_enemies: bool = False
    structure_ok: bool = False


@dataclass(frozen=True)
class MoveError:
    move: int | None
    piece: str | None
    reason: str
    rule: str
    ruling: str | None
    detail: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        return {"move": self.move, "piece": self.piece, "reason": self.reason, "rule": self.rule,
                "ruling": self.ruling, **({"detail": self.detail} if self.detail else {})}


@dataclass(frozen=True)
class MoveResult:
    valid: bool
    errors: tuple[MoveError, ...]
    positions: dict
    encounters: tuple[str, ...]
    events: tuple[dict, ...]
    unresolved: tuple[dict, ...]


def _enemy_in(positions: dict, sides: dict, cell: str, side: str) -> bool:
    return any(c == cell and sides[pid] != side for pid, c in positions.items())


def resolve_moves(pieces: Iterable, board: Board, attacker: str, activate: list[str], moves: list[MoveOrder],
                  sp_moves: dict[tuple[str, str], SpMove], first_round: bool = False,
                  enemy_stop: str | None = None) -> MoveResult:
    """The move turn, simultaneous (move.mov '동시에 이동'; interp.move.limit-order): each path is
    checked against the positions at the start of the turn (an enemy cell entered ends the move),
    the cell limits against the positions after all moves; where a limit is still exceeded, the
    moves into that cell that come later in `moves` are refused, one at a time, until none is.
    `pieces` have id, side, cell, state ('mobile'/'settled' or enum), structure, card. `sp_moves`
    maps (card, SP name) to what the SP allows. `enemy_stop`: the ruling an enemy cell's stop cites (the one
    behind the decision enemy-cell-stops-move on the day, engine/decisions.py), or None."""
    pieces = list(pieces)
    sides = {p.id: p.side for p in pieces}
    refused: dict[int, tuple[str, dict]] = {}  # move index -> (limit reason, detail)
    while True:
        run = _paths(pieces, board, attacker, activate, moves, sp_moves, first_round, refused, enemy_stop)
        over = _over_limit(run, sides)
        if over is None:
            break
        index, reason, cell = over
        refused[index] = (reason, {"cell": cell, "interpretation": "interp.move.limit-order"})
    errors, events, unresolved, positions = run["errors"], run["events"], run["unresolved"], run["positions"]
    errors.sort(key=lambda e: (e.move is not None, e.move if e.move is not None else -1))
    occupied: dict[str, set[str]] = {}
    mobile_in: set[str] = set()
    states = {p.id: getattr(p.state, "value", p.state) for p in pieces}
    for pid, cell in positions.items():
        occupied.setdefault(cell, set()).add(sides[pid])
        if states[pid] == "mobile":
            mobile_in.add(cell)
    # an encounter needs both sides and a mobile piece: a 대립 cell (settled pieces only on both
    # sides) is a combat cell again only once a mobile piece is in it (combat.standoff)
    both = [c for c, s in occupied.items() if len(s) > 1]
    encounters = tuple(sorted((c for c in both if c in mobile_in), key=cell_sort_key))
    for c in encounters:
        events.append({"type": "encounter", "cell": c, "rule": "move.encounter"})
    quiet = sorted((c for c in both if c not in mobile_in), key=cell_sort_key)
    for c in quiet:
        events.append({"type": "standoff-cell", "cell": c, "rule": "combat.standoff"})
    if quiet:
        # the page says a 대립 cell is fought again once a mobile piece is in it ('기동 기물이 생기면 그다음
        # 전투턴에 다시 조우 셀로 취급'); that one with none stays no encounter is the reading of that sentence
        unresolved.append({"reason": "standoff-no-encounter", "cells": quiet, "rule": "combat.standoff"})
    return MoveResult(valid=not errors, errors=tuple(errors), positions=positions, encounters=encounters,
                      events=tuple(events), unresolved=tuple(unresolved))


def _over_limit(run: dict, sides: dict) -> tuple[int, str, str] | None:
    """The first cell (by the latest move into it) whose limits the positions after all moves
    exceed: (index of the latest applied move that ends a piece there, reason, cell)."""
    positions, last = run["positions"], run["last_move"]
    worst = None
    cells: dict[str, list[str]] = {}
    for pid, cell in positions.items():
        cells.setdefault(cell, []).append(pid)
    for cell, pids in cells.items():
        per_side: dict[str, int] = {}
        for pid in pids:
            per_side[sides[pid]] = per_side.get(sides[pid], 0) + 1
        total_over = len(pids) > CELL_LIMIT
        side_over = {s for s, n in per_side.items() if n > SIDE_LIMIT}
        if not total_over and not side_over:
            continue
        # the moves into this cell (pieces that end there by a move), latest in the list first
        incoming = [last[pid] for pid in pids if pid in last and (total_over or sides[pid] in side_over)]
        if not incoming:
            continue
        index = max(incoming)
        if worst is None or index > worst[0]:
            worst = (index, "cell-full" if total_over else "destination-full", cell)
    return worst


def _paths(pieces: list, board: Board, attacker: str, activate: list[str], moves: list[MoveOrder],
           sp_moves: dict[tuple[str, str], SpMove], first_round: bool, refused: dict[int, tuple[str, dict]],
           enemy_stop: str | None = None) -> dict:
    """Every move checked on its own against the start of the turn (the limits aside: the
    moves in `refused` are refused for a limit). Returns errors, events, unresolved, the
    positions after the applied moves and, per moved piece, the index of its last applied move."""
    walk = _PathWalk(pieces, board, attacker, sp_moves, first_round, refused, enemy_stop)
    walk.activation(activate)
    for order in moves:
        walk.move(order)
    walk.excess_choice()
    return {"errors": walk.errors, "events": walk.events, "unresolved": walk.unresolved,
            "positions": walk.positions, "last_move": walk.last_move}


class _PathWalk:
    """The moves of one turn, walked in order against the start of the turn (`_paths`)."""

    def __init__(self, pieces: list, board: Board, attacker: str, sp_moves: dict[tuple[str, str], SpMove],
                 first_round: bool, refused: dict[int, tuple[str, dict]], enemy_stop: str | None):
        self.pieces, self.board, self.attacker, self.sp_moves = pieces, board, attacker, sp_moves
        self.first_round, self.refused, self.enemy_stop = first_round, refused, enemy_stop
        self.by_id = {p.id: p for p in pieces}
        self.sides = {p.id: p.side for p in pieces}
        self.start = {p.id: p.cell for p in pieces}
        self.positions = dict(self.start)
        self.last_move: dict[str, int] = {}
        self.errors: list[MoveError] = []
        self.events: list[dict] = []
        self.unresolved: list[dict] = []
        self.moved_normal: set[str] = set()
        self.moved_sp: set[str] = set()
        self.stopped_at: dict[str, str] = {}  # piece -> enemy cell where its movement ended this turn
        self.passing: set[str] = set()  # pieces that used a passing SP (음속돌파): they may pass enemies after it
        self.passing_sp: dict[str, str] = {}

    def err(self, move, piece, reason, **detail):
        rule, ruling = REASON_RULE[reason]
        if reason == "blocked-by-enemy":
            ruling = self.enemy_stop
        if detail.get("sp") and reason in SP_RULE_REASONS:
            rule = "move.sp"  # the SP's own distance / state rule, not the normal MOV 2
        self.errors.append(MoveError(move, piece, reason, rule, ruling, detail))

    def enemy_at_start(self, cell: str, side: str) -> bool:
        return _enemy_in(self.start, self.sides, cell, side)

    def activation(self, activate: list[str]) -> None:
        """The activation cells (move.activation)."""
        limit = self.limit = 1 if self.first_round else 2
        active: list[str] = []
        for cell in activate:
            if cell in active:
                continue
            if not any(p.side == self.attacker and self.start[p.id] == cell for p in self.pieces):
                self.err(None, None, "not-own-cell", cell=cell)
                continue
            active.append(cell)
        # cells chosen beyond the limit: the first `limit` in list order count; a normal move
        # from one of the others is refused as too-many-cells (with its index), and when no
        # move comes from them the choice itself is reported (move: null)
        self.excess = active[limit:]
        self.chosen = list(active)
        self.active = active[:limit]
        self.activation_errors = len(self.errors)
        self.events.append({"type": "activate", "cells": list(self.active), "limit": limit,
                            "first_round": self.first_round, "rule": "move.activation"})

    def excess_choice(self) -> None:
        """Cells chosen beyond the limit from which no move came: the choice itself is refused."""
        if self.excess and not any(e.reason == "too-many-cells" for e in self.errors):
            rule, ruling = REASON_RULE["too-many-cells"]
            self.errors.insert(self.activation_errors, MoveError(
                None, None, "too-many-cells", rule, ruling,
                {"cells": self.chosen, "limit": self.limit, "first_round": self.first_round}))

    def move(self, order: MoveOrder) -> None:
        """One move: may this piece make it (`_allowed`), along this path (`_walk`); applied when it may."""
        allowed = self._allowed(order)
        if allowed is None:
            return
        p, sp, reach = allowed
        both = (sp is None and p.id in self.moved_sp) or (sp is not None and p.id in self.moved_normal)
        if len(order.path) > reach:
            self.err(order.index, p.id, "too-far", length=len(order.path), limit=reach, sp=order.sp)
            return
        bad, cut, passed = self._walk(order, p, sp)
        if bad is not None:
            self.err(order.index, p.id, bad[0], **bad[1])
            return
        if order.index in self.refused:  # the limits, checked after all moves (interp.move.limit-order)
            reason, detail = self.refused[order.index]
            self.err(order.index, p.id, reason, **detail)
            return
        if both:  # reported only for a move that is applied
            self.unresolved.append({"reason": "normal-and-sp-move", "move": order.index, "piece": p.id,
                                    "rule": "move.sp"})
        for cell in passed:
            self.unresolved.append({"reason": "pass-enemies", "move": order.index, "piece": p.id, "cell": cell,
                                    "sp": sp.name if sp is not None and sp.pass_enemies else self.passing_sp.get(p.id),
                                    "rule": "move.path.enemy-stop", "interpretation": "interp.move.sonic-pass"})
        if cut is not None:  # the part of the path beyond the enemy cell: refused, reported
            self.err(order.index, p.id, cut[0], **cut[1])
        self._apply(order, p, sp, cut)

    def _allowed(self, order: MoveOrder):
        """(piece, its SP or None, the cells it may go) — or None after the refusal."""
        p = self.by_id[order.piece]
        state = getattr(p.state, "value", p.state)
        if p.side != self.attacker:
            self.err(order.index, p.id, "not-turn-player")
            return None
        sp = None
        if order.sp is not None:
            sp = self.sp_moves.get((p.card, order.sp)) if p.card else None
            if sp is None:
                self.err(order.index, p.id, "no-such-sp", sp=order.sp, card=p.card)
                return None
        if state != "mobile":
            self.err(order.index, p.id, "settled", sp=order.sp)
            return None
        if p.structure and not (sp is not None and sp.structure_ok):
            self.err(order.index, p.id, "structure", sp=order.sp)
            return None
        if sp is None:
            if p.id in self.moved_normal:
                self.err(order.index, p.id, "already-moved")
                return None
            if self.start[p.id] not in self.active:
                if self.start[p.id] in self.excess:
                    self.err(order.index, p.id, "too-many-cells", cell=self.start[p.id], cells=self.chosen,
                             limit=self.limit, first_round=self.first_round)
                else:
                    self.err(order.index, p.id, "not-activated", cell=self.start[p.id])
                return None
            return p, None, MOV
        if p.id in self.moved_sp:
            self.err(order.index, p.id, "already-moved", sp=order.sp)
            return None
        if sp.distance is None:
            self.unresolved.append({"reason": "sp-distance-unknown", "move": order.index, "piece": p.id,
                                    "sp": sp.name, "rule": "move.sp"})
            return None
        return p, sp, sp.distance

    def _walk(self, order: MoveOrder, p, sp):
        """The path cell by cell: (refusal or None, the cut at an enemy cell or None, enemy cells passed)."""
        here = self.positions[p.id]
        # 음속돌파 ('1셀 이동하고 이후 상대 기물을 통과'): the SP itself and the piece's later moves
        # this turn may pass enemy cells (a reading: reported as pass-enemies)
        can_pass = (sp is not None and sp.pass_enemies) or p.id in self.passing
        passed: list[str] = []
        for i, cell in enumerate(order.path):
            # a step after entering an enemy cell: in this path, or earlier this turn (the
            # piece's movement ended there, move.path.enemy-stop) — checked first: the piece
            # has stopped whatever the next cell is
            entered_enemy = (self.enemy_at_start(here, p.side) if i > 0
                             else self.stopped_at.get(p.id) == here and self.enemy_at_start(here, p.side))
            if entered_enemy:
                if can_pass:
                    passed.append(here)
                elif i > 0:
                    # the page's worked example (경로 중간의 상대 셀): the piece entered the enemy cell
                    # and its move ends there — 결과: B셀에서 전투. The rest of the path is refused
                    # (blocked-by-enemy, with `ended`), the move up to the enemy cell stands.
                    return None, ("blocked-by-enemy", {"cell": here, "next": cell, "earlier": False,
                                                       "ended": here}, i), passed
                else:
                    return ("blocked-by-enemy", {"cell": here, "next": cell, "earlier": True}), None, passed
            if not self.board.on_board(cell):
                return ("off-board", {"cell": cell, "sea": cell in self.board.sea}), None, passed
            if not self.board.adjacent(here, cell):
                return ("not-adjacent", {"from": here, "to": cell}), None, passed
            here = cell
        return None, None, passed

    def _apply(self, order: MoveOrder, p, sp, cut) -> None:
        """The move applied: the piece's new cell, a stop in an enemy cell, the events."""
        dest = cut[1]["ended"] if cut is not None else order.path[-1]
        src = self.positions[p.id]
        self.positions[p.id] = dest
        (self.moved_sp if sp is not None else self.moved_normal).add(p.id)
        if sp is not None and sp.pass_enemies:
            self.passing.add(p.id)
            self.passing_sp[p.id] = sp.name
        self.last_move[p.id] = order.index
        stopped = self.enemy_at_start(dest, p.side)
        if stopped:
            self.stopped_at[p.id] = dest
        else:
            self.stopped_at.pop(p.id, None)
        self.events.append({"type": "move", "move": order.index, "piece": p.id, "from": src, "to": dest,
                            "path": list(order.path[:cut[2]]) if cut is not None else list(order.path),
                            **({"cut": list(order.path[cut[2]:])} if cut is not None else {}),
                            "sp": order.sp,
                            "rule": "move.sp" if sp is not None else "move.mov"})
        if stopped:
            self.events.append({"type": "stop", "move": order.index, "piece": p.id, "cell": dest,
                                "rule": "move.path.enemy-stop", "ruling": self.enemy_stop})
