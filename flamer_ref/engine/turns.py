"""Scenario kinds move, victory and field: strict parsing (Korean errors with
file, line and field, as for combat) and resolution into the result JSON of
docs/SCENARIOS.md. The rules themselves live in movement.py, victory.py and
fieldplay.py; messages are added by the presentation layer (render.word_result).

Reading a file is the data layer's job (scenario_files.load_any); `parse_any` translates
Korean keys and values (aliases.normalize) and dispatches on the kind. Each parser returns a
frozen scenario object (model.MoveScenario, VictoryScenario, FieldScenario; combat's
scenario.Scenario; notices: card names read as another name) and each run a frozen result
(result.MoveTurnResult …, with `to_json()`); `run` dispatches any parsed scenario on its
`kind` (engine/api.py is the public entry)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ..errors import DataError
from .board import Board, BoardError, board_from_spec, cell_key, example_board_of
from .decisions import rules_at
from .model import FieldAction, FieldScenario, MoveScenario, VictoryScenario, frozen_map
from .movement import MoveOrder, SpMove, resolve_moves
from .result import FieldTurnResult, MoveTurnResult, VictoryTurnResult, freeze
from . import aliases
from .scenario import (ScenarioSink as _ScenarioSink, unknown_keys, cell_sort_key, parse_as_of, parse_cells,
                       resolve_card, side_code_ok)

MOVE_KEYS = ("kind", "title", "as_of", "attacker", "first_round", "board", "cells", "activate", "moves")
MOVE_ITEM_KEYS = ("piece", "path", "sp")
VICTORY_KEYS = ("kind", "title", "as_of", "player", "vp", "homes", "cells", "board")
FIELD_KEYS = ("kind", "title", "as_of", "side", "field", "actions")
ACTION_KEYS = {"place": ("place", "slot", "face"), "activate": ("activate",), "trash": ("trash",),
               "round": ("round",), "exhausted": ("exhausted",)}


def read_board(doc, sink, corpus) -> tuple[Board | None, list[dict]]:
    assumed = []
    spec = doc.get("board")
    if spec is None:
        spec = example_board_of(corpus)  # read by the data layer (corpus.read_example_board)
        if spec is None:  # no corpus given (a bare parse): no board to check against
            return None, assumed
        assumed.append({"choice": "board", "value": spec.get("label"), "rule": "move.off-board"})
    try:
        return board_from_spec(spec), assumed
    except BoardError as exc:
        sub = exc.key.split(".", 1)[1] if "." in exc.key else None
        inner = doc.get("board")
        values = inner.get("values") if isinstance(inner, dict) else None
        if exc.code.startswith("board-value") and isinstance(values, dict) and exc.params.get("cell") in values:
            sink.add(values, exc.params["cell"], exc.key, exc.code, **exc.params)  # the line of that cell's value
        elif sub and isinstance(inner, dict) and sub in inner:
            sink.add(inner, sub, exc.key, exc.code, **exc.params)  # the line of the offending board key
        else:
            sink.add(doc, "board", exc.key, exc.code, **exc.params)
        return None, assumed


def cells_on_board(doc, sink, board: Board) -> list[str]:
    """A piece can only stand on a land cell of the board (move.off-board). With a `board:`
    given, a piece elsewhere is an invalid scenario; on the assumed example board the
    cells are returned (reported as a gap: the file never chose that board)."""
    from .scenario import normalize_cell

    cells_obj = doc.get("cells")
    outside: list[str] = []
    if not isinstance(cells_obj, dict):
        return outside
    for raw in cells_obj:
        cell = normalize_cell(raw)
        if cell is None or board.on_board(cell):
            continue
        if doc.get("board") is None:
            outside.append(cell)
            continue
        sink.add(cells_obj, raw, f"cells.{raw}", "cell-off-board", cell=cell, sea=cell in board.sea)
    return outside


def read_sides(doc, sink, side_order, key: str) -> tuple[str, str] | None:
    who = doc.get(key)
    if not isinstance(who, str) or not who:
        sink.add(doc, key if key in doc else None, key, "side-missing", key=key)
        return None
    order = list(side_order)
    if who not in order:
        order.insert(0, who)
    if len(order) > 2:
        sink.add(doc, "cells", "cells", "sides-not-two", sides=list(order))
        return None
    if len(order) < 2:
        order.append("?")
    return (who, order[1] if order[0] == who else order[0])


# ------------------------------------------------------------------- move ----
def parse_move(doc: dict, file: str, corpus) -> MoveScenario:
    sink = _ScenarioSink(file)
    unknown_keys(sink, doc, MOVE_KEYS, "")
    as_of = parse_as_of(doc, sink)
    cells, pieces, side_order = parse_cells(doc, sink, corpus)
    sides = read_sides(doc, sink, side_order, "attacker")
    board, assumed = read_board(doc, sink, corpus)
    outside = cells_on_board(doc, sink, board) if board is not None else []
    first_round = doc.get("first_round", False)
    if not isinstance(first_round, bool):
        sink.add(doc, "first_round", "first_round", "first-round-bool")
    activate, moves = parse_move_block(doc, sink, {p.id: p for p in pieces})
    if sink.problems:
        raise DataError(sink.problems)
    return MoveScenario(file=file, title=doc.get("title"), as_of=as_of, sides=sides, pieces=tuple(pieces),
                        board=board, assumed=tuple(assumed), outside=tuple(outside), first_round=first_round,
                        activate=tuple(activate), moves=tuple(moves), notices=tuple(sink.notices))


def parse_move_block(doc: dict, sink, ids: dict, prefix: str = "") -> tuple[list[str], list[MoveOrder]]:
    """`activate` and `moves` of a move turn (kind move, or kind round's `move` block with
    prefix "move.") → (activation cells, MoveOrders); problems go to `sink`."""
    activate = []
    raw_act = doc.get("activate") or []
    if not isinstance(raw_act, list):
        sink.add(doc, "activate", f"{prefix}activate", "activate-not-list")
        raw_act = []
    for c in raw_act:
        k = cell_key(c)
        if k is None:
            sink.add(doc, "activate", f"{prefix}activate", "activate-cell", cell=c)
        else:
            activate.append(k)
    moves: list[MoveOrder] = []
    for i, where, m in sink.mappings(doc, "moves", f"{prefix}moves", "moves-not-list", "move-not-mapping"):
        if not unknown_keys(sink, m, MOVE_ITEM_KEYS, where):
            continue
        pid = m.get("piece")
        if pid is None or str(pid) not in ids:
            near = [k for k in ids if str(pid) and (str(pid) in k or k in str(pid))][:3]
            sink.add(m, "piece", f"{where}.piece", "move-unknown-piece", piece=pid, ids=near or list(ids)[:5])
            continue
        path = m.get("path")
        if not isinstance(path, list) or not path:
            sink.add(m, "path", f"{where}.path", "move-path")
            continue
        keys = [cell_key(c) for c in path]
        if any(k is None for k in keys):
            sink.add(m, "path", f"{where}.path", "move-path-cell", path=path)
            continue
        sp = m.get("sp")
        if sp is not None and not isinstance(sp, str):
            sink.add(m, "sp", f"{where}.sp", "move-sp-name")
            continue
        if sp is not None:  # '(이동) 비행' and ' 비행 ' name the same SP as '비행'
            sp = sp.strip()
            sp = sp[len("(이동)"):].strip() if sp.startswith("(이동)") else sp
        moves.append(MoveOrder(i, str(pid), tuple(keys), sp))
    return activate, moves


def sp_moves(corpus) -> dict[tuple[str, str], SpMove]:
    """(card, SP name) → what the (이동) SP allows, from the card data."""
    out = {}
    for c in corpus.cards.values():
        for a in c["abilities"]:
            eff = a.get("effect") or {}
            if a["timing"] == "이동" and "sp_move" in eff:
                m = eff["sp_move"]
                out[(c["name"], a["name"])] = SpMove(a["name"], m.get("distance"), bool(m.get("pass_enemies")),
                                                     bool(m.get("structure")))
    return out


@lru_cache(maxsize=8)
def _sorted_cells(board: Board) -> tuple[str, ...]:
    """The board's cells in order (x then y as numbers), sorted once per board: a game's move turn lists
    them every round (10,000 cells × 500 rounds)."""
    return tuple(sorted(board.cells, key=cell_sort_key))


def run_move(scn: MoveScenario, corpus, as_of: str | None = None) -> MoveTurnResult:
    as_of = as_of or scn.as_of or corpus.latest_date()
    attacker = scn.sides[0]
    res = resolve_moves(scn.pieces, scn.board, attacker, list(scn.activate), list(scn.moves), sp_moves(corpus),
                        scn.first_round, enemy_stop=rules_at(corpus, as_of).ask("enemy-cell-stops-move").cite)
    pieces = {p.id: {"label": p.card or p.name or p.id, "side": p.side, "from": p.cell,
                     "state": getattr(p.state, "value", p.state)} for p in scn.pieces}
    unresolved = list(res.unresolved)
    if scn.outside:
        unresolved.insert(0, {"reason": "outside-example-board", "cells": list(scn.outside),
                              "rule": "move.off-board"})
    board = scn.board
    return MoveTurnResult(
        title=scn.title, as_of=as_of, attacker=attacker, valid=res.valid,
        errors=tuple(freeze(e.to_json()) for e in res.errors), positions=freeze(dict(res.positions)),
        encounters=tuple(res.encounters), events=freeze(list(res.events)), unresolved=freeze(unresolved),
        assumed=freeze(list(scn.assumed)), pieces=freeze(pieces),
        # what a drawing of the board needs (the --format html page)
        board=freeze({"label": board.label, "adjacency": board.adjacency,
                       "cells": _sorted_cells(board), "sea": sorted(board.sea, key=cell_sort_key),
                       "homes": {s: list(c) for s, c in board.homes.items()}}),
        moves=freeze([{"move": m.index, "piece": m.piece, "path": list(m.path), "sp": m.sp} for m in scn.moves]))


# ---------------------------------------------------------------- victory ----
def parse_homes(doc: dict, sink) -> dict[str, list[str]] | None:
    """`homes`: {side: [cells]} (None when absent); problems go to sink."""
    raw = doc.get("homes")
    if raw is None:
        return None
    if not isinstance(raw, dict):
        sink.add(doc, "homes", "homes", "homes-not-mapping")
        return None
    out = {}
    for side, lst in raw.items():
        if not side_code_ok(sink, raw, side, f"homes.{side}"):
            continue
        keys = [cell_key(c) for c in lst] if isinstance(lst, list) and lst else [None]
        if any(k is None for k in keys):
            sink.add(raw, side, f"homes.{side}", "home-cells")
            continue
        out[side] = keys
    return out


def parse_victory(doc: dict, file: str, corpus) -> VictoryScenario:
    sink = _ScenarioSink(file)
    unknown_keys(sink, doc, VICTORY_KEYS, "")
    if doc.get("board") is not None:  # never silently ignored (issue 11): the check reads no board
        sink.add(doc, "board", "board", "victory-board")
    as_of = parse_as_of(doc, sink)
    cells, pieces, side_order = parse_cells(doc, sink, corpus)
    # a side known only from vp or homes still counts as one of the two sides (the opponent
    # with no piece on the board can still be won against by home occupation)
    for key in ("vp", "homes"):
        obj = doc.get(key)
        for side in (obj if isinstance(obj, dict) else {}):
            if isinstance(side, str) and side not in side_order:
                side_order.append(side)
    sides = read_sides(doc, sink, side_order, "player")
    vp = doc.get("vp") or {}
    if isinstance(vp, dict) and not all(side_code_ok(sink, vp, side, f"vp.{side}") for side in list(vp)):
        vp = {}
    elif not isinstance(vp, dict) or any(not isinstance(v, int) or isinstance(v, bool) or v < 0 for v in vp.values()):
        sink.add(doc, "vp", "vp", "vp-not-mapping")
        vp = {}
    homes = parse_homes(doc, sink) or {}
    if sink.problems:
        raise DataError(sink.problems)
    vp = {s: vp.get(s, 0) for s in sides} if sides else vp
    return VictoryScenario(file=file, title=doc.get("title"), as_of=as_of, sides=sides, pieces=tuple(pieces),
                           vp=frozen_map(vp), homes=frozen_map(homes), notices=tuple(sink.notices))


def run_victory(scn: VictoryScenario, corpus, as_of: str | None = None) -> VictoryTurnResult:
    from .victory import check_victory

    as_of = as_of or scn.as_of or corpus.latest_date()
    player = scn.sides[0]
    r = check_victory(scn.pieces, player, scn.sides, dict(scn.vp), dict(scn.homes))
    return VictoryTurnResult(
        title=scn.title, as_of=as_of, player=player, secured=freeze(dict(r.secured)), vp_gain=r.vp_gain,
        vp=freeze(dict(r.vp)), winner=r.winner, reasons=tuple(r.reasons), cells=freeze(dict(r.cells)),
        events=freeze(list(r.events)), unresolved=freeze(list(r.unresolved)), homes=freeze(dict(scn.homes)))


# ------------------------------------------------------------------ field ----
def parse_field(doc: dict, file: str, corpus) -> FieldScenario:
    sink = _ScenarioSink(file)
    unknown_keys(sink, doc, FIELD_KEYS, "")
    as_of = parse_as_of(doc, sink)
    side = doc.get("side")
    if not isinstance(side, str) or not side:
        sink.add(doc, "side" if "side" in doc else None, "side", "field-side-missing")
    raw = doc.get("field")
    initial: list[Any] = [None] * 5
    if not isinstance(raw, list) or len(raw) != 5:
        sink.add(doc, "field" if "field" in doc else None, "field", "field-slots")
        raw = []
    initial = parse_slots(raw, doc, "field", sink, corpus, "field", aliases.shown_key(doc, 'field'))
    actions = parse_actions(doc, "actions", sink, corpus)
    if sink.problems:
        raise DataError(sink.problems)
    return FieldScenario(file=file, title=doc.get("title"), as_of=as_of, side=side, initial=tuple(initial),
                         actions=tuple(actions), notices=tuple(sink.notices))


def parse_slots(raw: list, owner, key, sink, corpus, where_key: str, label_prefix: str) -> list[Any]:
    """Five field slots as written (a card name, {set: NAME} or null; owner[key] is the list)
    → per slot None or (card, face_up), for FieldPlay; problems go to `sink`."""
    initial: list[Any] = [None] * 5

    def one(slot, holder, hkey, where, i):
        face_up = True
        name = slot
        if isinstance(slot, dict):
            if set(slot) != {"set"}:
                sink.add(slot, None, where, "slot-entry")
                return None
            name, face_up = slot["set"], False
            card = resolve_card(corpus, name, sink, slot, "set", where, label=label_prefix, slot=i + 1)
        elif isinstance(slot, list):
            sink.add(holder, hkey, where, "slot-entry")
            return None
        else:
            card = resolve_card(corpus, name, sink, holder, hkey, where, label=label_prefix, slot=i + 1)
        return None if card is None else (card, face_up)

    for i, slot in enumerate(raw):
        where = f"{where_key}[{i}]"
        if slot is None:
            continue
        if isinstance(slot, list):
            # a stack (엎어 세트, field.stack): top first, as the slot is seen; the cards under the top one
            # were covered before this file's state (not in this round: their pieces stay as written)
            if not slot:
                sink.add(owner, key, where, "slot-entry")
                continue
            stack = [one(c, owner, key, f"{where}[{j}]", i) for j, c in enumerate(slot)]
            if all(c is not None for c in stack):
                initial[i] = stack[::-1] if len(stack) > 1 else stack[0]
            continue
        entry = one(slot, owner, key, where, i)
        if entry is not None:
            initial[i] = entry
    return initial


#: `at:` of a round's field action — the turns of a round (round.turns)
AT_TURNS = ("victory", "supply", "move", "response", "combat", "production", "blackout")


def parse_actions(doc, key, sink, corpus, where_key: str | None = None, allow_at: bool = False) -> list[FieldAction]:
    """The field actions listed at doc[key] (kind field's `actions`, kind round's
    `field_actions.SIDE`) → FieldActions for apply_action; problems go to `sink`."""
    where_key = where_key or str(key)
    actions = []
    for i, where, a in sink.mappings(doc, key, where_key, "actions-not-list", "action-not-mapping", key=where_key):
        verb = next((k for k in ACTION_KEYS if k in a), None)
        if verb is None:
            sink.add(a, None, where, "action-unknown")
            continue
        if not unknown_keys(sink, a, ACTION_KEYS[verb] + (("at",) if allow_at else ()), where):
            continue
        at = a.get("at")
        if at is not None and at not in AT_TURNS:
            sink.add(a, "at", f"{where}.at", "action-at", at=at, turns=list(AT_TURNS))
            continue
        n0 = len(actions)
        if verb == "place":
            card = resolve_card(corpus, a["place"], sink, a, "place", f"{where}.place")
            face = a.get("face", "up")
            if face not in ("up", "down"):
                sink.add(a, "face", f"{where}.face", "action-face", face=face)
                continue
            slot = a.get("slot")
            special_up = card is not None and corpus.cards[card]["type"] == "special" and face == "up"
            if not special_up and (not isinstance(slot, int) or isinstance(slot, bool)):
                sink.add(a, "slot" if "slot" in a else None, f"{where}.slot", "action-slot")
                continue
            if card is not None:
                actions.append(FieldAction("place", i, card, slot or 0, face == "up"))
        elif verb == "round":
            if a["round"] != "next":
                sink.add(a, "round", f"{where}.round", "action-round")
                continue
            actions.append(FieldAction("round", i))
        else:
            n = a[verb]
            if not isinstance(n, int) or isinstance(n, bool):
                sink.add(a, verb, f"{where}.{verb}", "action-slot-number", verb=verb)
                continue
            actions.append(FieldAction(verb, i, slot=n))
        if at is not None and len(actions) > n0:
            actions[-1] = actions[-1]._replace(at=at)
    return actions


def run_field(scn: FieldScenario, corpus, as_of: str | None = None) -> FieldTurnResult:
    from .fieldplay import FieldPlay

    as_of = as_of or scn.as_of or corpus.latest_date()
    f = FieldPlay(corpus.cards, list(scn.initial), rules_at(corpus, as_of))
    for act in scn.actions:
        apply_action(f, act)
    r = f.result()
    return FieldTurnResult(
        title=scn.title, as_of=as_of, side=scn.side, slots=freeze(list(r.slots)), active=tuple(r.active),
        retired=tuple(r.retired), levels=freeze(dict(r.levels)), bonds=freeze(dict(r.bonds)), round=r.round,
        errors=freeze(list(r.errors)), events=freeze(list(r.events)), unresolved=freeze(list(r.unresolved)))


def apply_action(f, act: FieldAction) -> None:
    """One parsed field action (parse_actions) played on a FieldPlay."""
    if act.verb == "place":
        f.place(act.index, act.card, act.slot, act.face_up)
    elif act.verb == "activate":
        f.activate(act.index, act.slot)
    elif act.verb == "trash":
        f.trash(act.index, act.slot)
    elif act.verb == "exhausted":
        f.exhausted(act.index, act.slot)
    else:
        f.next_round(act.index)


# ------------------------------------------------------------------ glue ----
# Korean messages for errors and gaps are made by the presentation layer (render.word_result).


#: kind → parser / run. `round` (engine/round.py, which builds on this module) is added by the
#: package (engine/__init__.py), so that this module need not import it (no import cycles).
PARSERS = {"move": parse_move, "victory": parse_victory, "field": parse_field}
RUNS = {"move": run_move, "victory": run_victory, "field": run_field}


def parse_any(doc, file: str, corpus):
    """A scenario object of any kind (Korean or English keys) → the parsed scenario."""
    from .scenario import check_kind, parse

    doc = aliases.normalize(doc, file)
    kind = check_kind(doc, file)
    if kind in PARSERS:
        try:
            return PARSERS[kind](doc, file, corpus)
        except DataError as exc:
            raise aliases.rewrite_problems(exc, doc) from None
    return parse(doc, file, corpus)


def run(scn, corpus, as_of: str | None = None):
    """Any parsed scenario → its frozen result (CombatResult, MoveTurnResult, …), by `scn.kind`."""
    if scn.kind == "combat":
        from .combat import simulate

        return simulate(scn, corpus, as_of=as_of)
    return RUNS[scn.kind](scn, corpus, as_of)


def run_any(scn, corpus, as_of: str | None = None) -> dict:
    """run(), as the result JSON (unworded: render.word_result adds the Korean messages)."""
    return run(scn, corpus, as_of).to_json()
