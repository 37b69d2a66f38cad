"""Kind game: several rounds in a row on one board, the players alternating — a game record
that the engine replays (round.turns: "라운드가 끝나면 상대의 라운드가 됩니다").

`parse_game(doc, file, corpus)` checks the file: the starting state is read as kind round reads
it (`round.parse_round`, with `first_player` as its player), each entry of `rounds` as kind round's
per-round keys on that state (the ids of pieces produced in earlier rounds may be named). A
malformed file is a DataError (exit 1); an entry whose `player` is not the one whose turn it is,
too.

`run_game(scn, corpus, as_of)` plays the rounds on one `round.RoundPlay`: round 1 on the starting
state, every later round on the state the previous one left (`RoundPlay.begin`) — positions, 기동 /
정착, prisoners, fragments, fields, VP and 도르. Nothing else is carried: damage ends with its
combat ('전투 중 감소한 HP는 전투 종료로 원복된다'). A play the rules refuse is reported in its
turn's `errors`, skipped, and the replay goes on; the first of them is `first_illegal`. When a
승리확인턴 ends the game, no later round runs (`ended`).

Plays the round engine cannot take because their piece is no longer on the board (captured, made
a fragment, removed, or never produced) are refused here, before the round runs, with the clause
of the turn (`errors` of the round entry, reason `not-on-board`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, ClassVar, Mapping

from ..errors import DataError, Problem
from .budget import GameBudget
from .model import RoundScenario, frozen_map
from .result import GameResult
from .round import TURNS, RoundPlay, parse_round, play_turns, round_json
from .scenario import ScenarioBase, ScenarioSink, unknown_keys

GAME_KEYS = ("kind", "title", "as_of", "first_player", "first_round", "board", "homes", "vp", "dor", "cells",
             "field", "prisoners", "rounds")
#: the keys of one entry of `rounds` (kind round's per-round keys, and `player` as a check)
ENTRY_KEYS = ("player", "field_actions", "move", "response", "battle_cards", "combat_order", "produce", "blackout")
#: the starting state, read as kind round reads it
STATE_KEYS = ("title", "as_of", "board", "homes", "vp", "dor", "cells", "field")
#: at most this many rounds in one record (a bound, like the other kinds' limits)
MAX_ROUNDS = 500

#: a refused play → the clause it breaks, per turn (a piece no longer on the board)
GONE_RULE = {"move": "move.mov", "response": "response.declare.what", "combat": "combat.step1.battle-cards"}


@dataclass(frozen=True)
class GameScenario(ScenarioBase):
    kind: ClassVar[str] = "game"
    file: str
    title: str | None
    as_of: str | None
    sides: tuple[str, str]  # (first player, second player)
    first_round: bool
    prisoners: Mapping[str, tuple[str, ...]]
    rounds: tuple[RoundScenario, ...]  # round 1 carries the starting state; later ones only their keys
    notices: tuple[dict, ...] = ()


# ------------------------------------------------------------------ parse ----
def _sub(doc, keys, extra: dict, lines: dict | None = None):
    """A new mapping of `doc`'s `keys` (values, lines and spellings kept) plus `extra`."""
    from ..yamlio import LineDict

    out = LineDict()
    out.line = getattr(doc, "line", None)
    out.key_lines, out.written = {}, {}
    out.alias_ctx, out.normalized = "top", True
    src_lines = getattr(doc, "key_lines", {}) or {}
    written = getattr(doc, "written", {}) or {}
    for k, v in extra.items():
        out[k] = v
        out.key_lines[k] = (lines or {}).get(k, out.line)
    for k in keys:
        if k in doc:
            out[k] = doc[k]
            out.key_lines[k] = src_lines.get(k, out.line)
            out.written[k] = written.get(k, k)
    return out


def _prefixed(exc: DataError, prefix: str, rename: dict | None = None) -> list[Problem]:
    out = []
    for p in exc.problems:
        key = p.key
        if rename and key in rename:
            key = rename[key]
        elif prefix:
            key = f"{prefix}.{key}" if key else prefix
        out.append(p.at(key=key) if key != p.key else p)
    return out


def _predicted_ids(rscn: RoundScenario, known: set[str]) -> list[str]:
    """The ids the round's productions give their pieces when all of them are placed (an explicit
    `id`, else round.py's SIDE-CARD-n): what later rounds may name."""
    out, counters = [], {}
    player = rscn.sides[0]
    for it in rscn.produce:
        pid = it.id
        if pid is None:
            base = f"{player}-{it.card}"
            while True:
                counters[base] = counters.get(base, 0) + 1
                pid = f"{base}-{counters[base]}"
                if pid not in known:
                    break
        known.add(pid)
        out.append(pid)
    return out


def parse_game(doc: dict, file: str, corpus) -> GameScenario:
    sink = ScenarioSink(file)
    unknown_keys(sink, doc, GAME_KEYS, "")
    first = doc.get("first_player")
    if not isinstance(first, str) or not first:
        sink.add(doc, "first_player" if "first_player" in doc else None, "first_player", "side-missing",
                 key="first_player")
    first_round = doc.get("first_round", False)
    if not isinstance(first_round, bool):
        sink.add(doc, "first_round", "first_round", "first-round-bool")
        first_round = False
    raw = doc.get("rounds")
    if not isinstance(raw, list) or not raw:
        sink.add(doc, "rounds" if "rounds" in doc else None, "rounds", "game-rounds")
        raw = []
    elif len(raw) > MAX_ROUNDS:
        sink.add(doc, "rounds", "rounds", "game-rounds-limit", count=len(raw), limit=MAX_ROUNDS)
        raw = []
    prisoners: dict[str, list[str]] = {}
    pobj = doc.get("prisoners")
    if pobj is not None:
        if not isinstance(pobj, dict) or any(
                not isinstance(v, list) or any(isinstance(x, (dict, list, bool)) or x is None for x in v)
                for v in pobj.values()):
            sink.add(doc, "prisoners", "prisoners", "game-prisoners")
        else:
            prisoners = {str(s): [str(x) for x in v] for s, v in pobj.items()}
    if sink.problems:
        raise DataError(sink.problems)

    # the starting state, as kind round reads it (first_player is its player)
    start_doc = _sub(doc, STATE_KEYS, {"kind": "round", "player": first, "first_round": first_round},
                     {"player": getattr(doc, "key_lines", {}).get("first_player")})
    start = parse_round(start_doc, file, corpus)  # a DataError here names the top-level keys
    sides = start.sides
    if sides[1] == "?":  # the second side is named nowhere in the state: the first entry of its turn may name it
        named = next((e.get("player") for e in raw[1::2] if isinstance(e, dict)
                      and isinstance(e.get("player"), str) and e.get("player") not in ("", sides[0])), None)
        if named is not None:
            sides = (sides[0], named)
    for s in prisoners:
        if s not in sides:
            sink.add(pobj, s, f"prisoners.{s}", "game-prisoners-side", side=s, sides=list(sides))
    on_board = {p.id for p in start.pieces}
    for s, ids in prisoners.items():
        for pid in ids:
            if pid in on_board:
                sink.add(pobj, s, f"prisoners.{s}", "game-prisoner-on-board", id=pid)
    if sink.problems:
        raise DataError(sink.problems)

    rounds = _read_rounds(doc, file, corpus, raw, start, sides, set(on_board))
    notices = tuple(start.notices) + tuple(n for r in rounds[1:] for n in r.notices)
    return GameScenario(file=file, title=start.title, as_of=start.as_of, sides=sides, first_round=first_round,
                        prisoners=frozen_map(prisoners), rounds=tuple(rounds), notices=notices)

def _read_rounds(doc: dict, file: str, corpus, raw: list, start: RoundScenario, sides: tuple,
                 known: set[str]) -> list[RoundScenario]:
    """The round entries, each read as kind round against the starting state (`known`: the ids of the
    pieces so far, the start's and those each entry's productions will place); every problem of every
    entry is raised at once."""
    # a round entry is read against the starting state; its pieces are known by id (`known`), so one
    # valid cell of the start stands in for the whole `cells` (read once, above)
    first_piece = start.pieces[0]
    one_cell = {first_piece.cell: {first_piece.side: [{"id": first_piece.id, "name": "_", "lv": 0, "hp": 1,
                                                        "atk": 0}]}}
    rounds: list[RoundScenario] = []
    problems: list[Problem] = []
    two = {s: 0 for s in sides}
    for k, entry in enumerate(raw):
        where = f"rounds[{k}]"
        if not isinstance(entry, dict):
            problems.append(Problem(file, getattr(doc, "key_lines", {}).get("rounds"), where,
                                    code="game-round-not-mapping"))
            continue
        esink = ScenarioSink(file)
        if not unknown_keys(esink, entry, ENTRY_KEYS, where):
            problems += esink.problems
            continue
        player = sides[k % 2]
        said = entry.get("player")
        if said is not None and said != player:
            problems.append(Problem(file, getattr(entry, "key_lines", {}).get("player", getattr(entry, "line", None)),
                                    f"{where}.player", code="game-player-order",
                                    params={"round": k + 1, "said": str(said), "player": player,
                                            "first": sides[0]}))
            continue
        keys = [x for x in ENTRY_KEYS if x != "player"]
        rdoc = _sub(entry, keys, {"kind": "round", "player": player, "vp": two, "cells": one_cell})
        for key in ("board", "field", "homes"):
            if key in doc:
                rdoc[key] = doc[key]
                rdoc.key_lines[key] = getattr(doc, "key_lines", {}).get(key)
        try:
            rscn = parse_round(rdoc, file, corpus, known_ids=known, board=start.board)
        except DataError as exc:
            problems += _prefixed(exc, where)
            continue
        _predicted_ids(rscn, known)
        if k == 0:
            rscn = replace(start, sides=rscn.sides, field_actions=rscn.field_actions, activate=rscn.activate,
                           moves=rscn.moves, response=rscn.response, battle_cards=rscn.battle_cards,
                           combat_order=rscn.combat_order, produce=rscn.produce, blackout=rscn.blackout)
        else:
            rscn = replace(start, sides=rscn.sides, first_round=False, pieces=(), field_actions=rscn.field_actions,
                           activate=rscn.activate, moves=rscn.moves, response=rscn.response,
                           battle_cards=rscn.battle_cards, combat_order=rscn.combat_order, produce=rscn.produce,
                           blackout=rscn.blackout, notices=rscn.notices)
        rounds.append(rscn)
    if problems:
        raise DataError(problems)
    return rounds



# -------------------------------------------------------------------- run ----
def _refs(d) -> list[str]:
    """The piece ids a declaration names (its declaring piece, target, costs, effect pieces)."""
    refs = [d.target, d.piece] + [c.piece for c in d.cost if c.piece not in (None, "self")]
    for prim in d.effect or ():
        ref = getattr(prim, "piece", None)
        if ref not in (None, "target", "self", "bonded"):
            refs.append(ref)
    return [x for x in refs if x is not None]


def _where_gone(r: RoundPlay, pid: str) -> str:
    if pid not in r.pieces:
        return "never"
    if any(pid in v for v in r.prisoners.values()):
        return "prisoner"
    if pid in r.fragments:
        return "fragment"
    return "removed"


def _drop_gone(r: RoundPlay, scn: RoundScenario) -> tuple[RoundScenario, list[dict]]:
    """The round's moves and declarations that name a piece no longer on the board: refused
    before the round runs (the turn's clause), the rest of the round as written."""
    errors: list[dict] = []
    keep_moves = []
    for m in scn.moves:
        if m.piece in r.on_board:
            keep_moves.append(m)
        else:
            errors.append({"turn": "move", "index": m.index, "piece": m.piece, "reason": "not-on-board",
                           "where": _where_gone(r, m.piece), "rule": GONE_RULE["move"]})
    decls = {}
    for key, turn in (("response", "response"), ("battle_cards", "combat")):
        keep = []
        for d in getattr(scn, key):
            gone = [x for x in _refs(d) if x not in r.on_board]
            if gone:
                errors.append({"turn": turn, "index": _index(d.where), "piece": gone[0], "card": d.card,
                               "side": d.side, "reason": "not-on-board", "where": _where_gone(r, gone[0]),
                               "rule": GONE_RULE[turn]})
            else:
                keep.append(d)
        decls[key] = tuple(keep)
    if not errors:
        return scn, []
    return replace(scn, moves=tuple(keep_moves), **decls), errors


def _index(where: str | None) -> int | None:
    if where and where.endswith("]") and "[" in where:
        try:
            return int(where.rsplit("[", 1)[1][:-1])
        except ValueError:
            return None
    return None


#: which key of a turn's error holds the index of the refused item in its list
_INDEX_KEY = {"move": "move", "production": "produce", "blackout": "blackout"}


def _refusals(entry: dict) -> list[dict]:
    """Every play of one round the rules refused: {turn, index, clause, reason, source}, in the order
    of the turns and, within a turn, of the file's list (a choice with no item of its own — the
    activation cells — before the items); `source` points at the error, whose message is its own."""
    out = []
    seen = {t["turn"] for t in entry["turns"]} | {e["turn"] for e in entry["errors"]}
    order = [t for t in TURNS if t in seen]  # the seven turns in order (a turn that did not run may
    # still have refused a play before the round ran)
    for turn in order:
        found = []
        for j, e in enumerate(entry["errors"]):
            if e["turn"] == turn:
                found.append({"turn": turn, "index": e["index"], "clause": e["rule"], "reason": e["reason"],
                              "source": ["errors", j]})
        t = next((t for t in entry["turns"] if t["turn"] == turn), None)
        for j, e in enumerate((t["result"].get("errors") or ()) if t is not None else ()):
            if "action" in e:
                idx = e.get("action")
            elif turn in ("response", "combat"):
                idx = _index(e.get("item"))
            else:
                idx = e.get(_INDEX_KEY.get(turn, "index"))
            found.append({"turn": turn, "index": idx, "clause": e.get("rule"), "reason": e.get("reason"),
                          "source": ["turns", turn, j]})
        found.sort(key=lambda f: (f["index"] is not None, f["index"] or 0))
        out += found
    return out


def run_game(scn: GameScenario, corpus, as_of: str | None = None) -> GameResult:
    """Replay the record. One GameBudget (engine/budget.py) covers the whole record: the combat rounds of
    every round's combat and the size of every round entry kept; past either, a WorkLimit stops it."""
    as_of = as_of or scn.as_of or corpus.latest_date()
    first = scn.rounds[0]
    r = RoundPlay(first, corpus, as_of)
    r.budget = budget = GameBudget(scn.file)
    board_cells = len(first.board.cells)
    for s, ids in scn.prisoners.items():
        r.prisoners.setdefault(s, []).extend(ids)
    start_vp = {s: first.vp.get(s, 0) for s in r.sides}
    start_dor = {s: first.dor.get(s, 0) for s in r.sides}
    rounds: list[dict] = []
    events: list[dict] = []
    unresolved: list[dict] = []
    ended = None
    first_illegal = None
    pieces: dict[str, Any] = {}
    for k, rscn in enumerate(scn.rounds, 1):
        budget.round = k
        if k > 1:
            r.begin(rscn)
        vp_before, dor_before = dict(r.vp), dict(r.dor)
        pris_before = {s: len(v) for s, v in r.prisoners.items()}
        rscn, gone = _drop_gone(r, rscn)
        r.scn = rscn
        play_turns(r)
        out = round_json(r, rscn if k == 1 else replace(rscn, outside=()), as_of, vp_before, dor_before)
        _contested_home(out)
        pieces.update(out["pieces"])
        entry = {"round": k, "player": out["player"], "opponent": out["opponent"], "turns": out["turns"],
                 "ended": out["ended"], "errors": gone, "vp_before": out["vp_before"],
                 "dor_before": out["dor_before"], "final": out["final"], "events": out["events"],
                 "unresolved": out["unresolved"], "assumed": out["assumed"], "summary": _summary(out, pris_before)}
        rounds.append(entry)
        events.append({"type": "round", "round": k, "player": out["player"], "rule": "round.turns"})
        more_events = [{**ev, "round": k} for ev in out["events"]]
        more_gaps = [{**u, "round": k} for u in out["unresolved"]]
        # what this round adds to the result (its entry, the game's lists' copies of its events and gaps,
        # the final state the game repeats): past the record's size budget the replay stops here
        budget.keep(entry, more_events, more_gaps, board_cells=board_cells, pieces=len(r.on_board))
        events += more_events
        unresolved += more_gaps
        if first_illegal is None:
            ref = next(iter(_refusals(entry)), None)
            if ref is not None:
                first_illegal = {"round": k, **ref}
        if out["ended"] is not None:
            ended = {"round": k, **out["ended"]}
            if k < len(scn.rounds):
                events.append({"type": "game-over", "round": k, "skipped_rounds": len(scn.rounds) - k,
                               "rule": "victory.conditions"})
            break
    final = rounds[-1]["final"]
    data = {"kind": "game", "title": scn.title, "as_of": as_of, "first_player": scn.sides[0],
            "second_player": scn.sides[1], "first_round": scn.first_round, "rounds": rounds, "ended": ended,
            "first_illegal": first_illegal, "final": final, "events": events, "unresolved": unresolved,
            "assumed": rounds[0]["assumed"], "pieces": pieces, "board": {
                "label": first.board.label, "values": dict(first.board.values),
                "homes": {s: list(c) for s, c in r.homes.items()}},
            "vp_before": start_vp, "dor_before": start_dor,
            "prisoners_before": {s: list(scn.prisoners.get(s, ())) for s in scn.sides},
            "rounds_written": len(scn.rounds)}
    return GameResult.from_json(data)


def _contested_home(out: dict) -> None:
    """A home win decided in a home cell that also holds the opponent's pieces (a piece that entered
    in an earlier round and was neither captured nor driven out, the cell now shared): the pages
    disagree — 승리확인턴: '상대 본진 2셀 중 하나에 자기 기물이 위치해 있으면(기동·정착 무관)'; 전투턴: '대립
    셀은 어느 쪽도 점령·확보하지 못한다', and the win needs '점령'. The victory check applies the project's
    reading (interp.home.any-presence); the round's gaps say so, once (among the round's own gaps, `turn`
    null, so that every format lists it)."""
    vic = next((t["result"] for t in out["turns"] if t["turn"] == "victory"), None)
    if vic is None or "home" not in (vic.get("reasons") or ()):
        return
    ev = next((e for e in vic.get("events") or () if e.get("condition") == "home"), None)
    if ev is None or ev.get("interpretation") != "interp.home.any-presence":
        return
    if any(u.get("interpretation") == "interp.home.any-presence" for u in out["unresolved"]):
        return  # the round already reports it
    cells = [c for c in ev.get("cells") or () if (vic.get("cells") or {}).get(c, {}).get("status") == "contested"]
    out["unresolved"].append({"reason": "home-win-contested", "turn": None, "cells": cells,
                              "player": out["player"], "rule": "victory.conditions",
                              "interpretation": "interp.home.any-presence"})


def _summary(out: dict, prisoners_before: dict) -> dict:
    """One line of the game's summary: who moved, the encounters and the cells fought, the
    captures (each side's new prisoners), VP and 도르 after."""
    turns = {t["turn"]: t["result"] for t in out["turns"]}
    move = turns.get("move") or {}
    start = move.get("pieces") or {}
    moved = [pid for pid, cell in (move.get("positions") or {}).items()
             if pid in start and start[pid].get("from") != cell]
    combat = turns.get("combat") or {}
    prisoners = out["final"]["prisoners"]
    captured = {s: list(prisoners.get(s, ()))[prisoners_before.get(s, 0):] for s in out["vp_before"]}
    fragments = [ev["piece"] for ev in combat.get("events") or () if ev.get("type") == "fragment"]
    return {"moved": moved, "encounters": list(move.get("encounters") or ()),
            "fought": list((combat.get("cells") or {}).keys()), "captured": captured, "fragments": fragments,
            "produced": [p["piece"] for p in (turns.get("production") or {}).get("placed") or ()],
            "vp": dict(out["final"]["vp"]), "dor": dict(out["final"]["dor"])}
