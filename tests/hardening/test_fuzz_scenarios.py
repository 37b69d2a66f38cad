"""Issue 11: property and fuzz tests over random but plausible scenario documents of every kind
(combat, move, victory, field, round), run through the same path as `flamer simulate - --json`
(the Typer app in-process: load_any → present_scenario → the one JSON object on stdout).

For every generated document:
  (a) it never crashes: exit 0 with a result, or exit 1 with a FlamerError — one Korean message,
      never "내부 오류" (the CLI's catch-all for anything else) and never a traceback;
  (b) it ends: a SIGALRM guard (HANG_GUARD s) turns a hang into a failure — no test asserts wall-clock
      speed; times are measured in benchmarks/big_scenario.py;
  (c) it is deterministic: the same document twice gives byte-identical output;
  (d) pieces are conserved: every piece of the input ends in exactly one place — on the board, in a
      prisoner area, as a fragment or removed by a cost (combat, round); in exactly one cell (move);
      every occupied cell is judged (victory); the field keeps its five slots (field).

Documents are YAML text written with English or Korean keys at random (the alias tables of
flamer_ref/engine/aliases.py), real card names from cards/cards.yaml and ad-hoc pieces with stats.
Hypothesis runs derandomized so CI sees the same cases every time."""

from __future__ import annotations

import json
import os
import re
import signal
import time
from contextlib import contextmanager

import pytest
import yaml
from hypothesis import HealthCheck, given, settings, strategies as st

from inprocess import invoke

from flamer_ref.engine.aliases import KEYS

HANG_GUARD = 30  # SIGALRM: a case that has not ended by then fails instead of stalling the suite

#: a longer local soak: FLAMER_FUZZ_SCALE=20 (examples ×20), FLAMER_FUZZ_RANDOM=1 (new cases each run)
SCALE = float(os.environ.get("FLAMER_FUZZ_SCALE", "1"))
FUZZ = settings(max_examples=max(1, int(80 * SCALE)), deadline=None,
                derandomize=not os.environ.get("FLAMER_FUZZ_RANDOM"), database=None, print_blob=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.filter_too_much])


def fuzz(n: int) -> settings:
    return settings(FUZZ, max_examples=max(1, int(n * SCALE)))


_SAMPLED: dict[tuple, st.SearchStrategy] = {}


def sampled(seq) -> st.SearchStrategy:
    """st.sampled_from(seq), made once per distinct list of plain values: the strategies below ask for the
    same choices thousands of times, and Hypothesis validates each new strategy object on its first draw
    (a third of the time spent making documents). The same strategy draws the same values: the documents
    generated are exactly those of a new st.sampled_from each time (checked when this was written)."""
    try:
        key = tuple((type(x), x) for x in seq)  # typed: (1, 0) and (True, False) are different lists
        hash(key)
    except TypeError:  # lists or mappings among the values: not cached
        return st.sampled_from(seq)
    got = _SAMPLED.get(key)
    if got is None:
        got = _SAMPLED[key] = st.sampled_from(seq)
    return got

# ------------------------------------------------------------------ vocabulary ----
#: piece cards whose lv, hp and atk the data states (증폭기 lacks atk: then the file must give it)
KNOWN_PIECES = ["수문장", "장인", "별마대", "행성굴착기", "거신"]
#: piece cards with stats the pages do not state: the scenario gives them (or the engine says which is missing)
UNKNOWN_PIECES = ["증폭기", "개미", "갑사", "봉수장", "잠복군", "폭약", "망루", "교란기", "조커", "잠식된 석산"]
RESPONSE_CARDS = ["재부팅", "진내폭격", "피 땀 눈물", "EMP", "긴급 후퇴", "기폭", "염동력"]
ALL_CARDS = KNOWN_PIECES + UNKNOWN_PIECES + RESPONSE_CARDS + ["피의장막", "양각"]
SIDE_PAIRS = [("DGM", "BGM"), ("A", "B"), ("나", "상대"), ("red", "blue"), ("*_[x]#", "<b>|`y`"),
              ("P1", "P2")]
TITLES = [None, "전투 하나", "수문장 <script>alert(1)</script>", "*굵게* _기울임_ [링크](x) # 제목 | 표 `코드`",
          "\x1b]0;pwned\x07제목\x1b[2J", "공백  두 칸", "'따옴표' \"큰따옴표\""]
DATES = [None, "2026-09-19", "2026-09-23", "2026-09-24", "2026-09-25"]
STATES = {"mobile": ["mobile", "기동", "앞면"], "settled": ["settled", "정착", "뒷면"]}
W, H = 7, 6  # the example board (rules/boards/example.yaml): cells used when a scenario gives no board


def _aliases(ctx: str, key: str) -> list[str]:
    return [key] + [a for a, canon in KEYS.get(ctx, {}).items() if canon == key]


def keyed(draw, ctx: str, pairs: dict) -> dict:
    """A mapping whose keys are written in English or in one of their Korean aliases, at random (drawn
    with the caller's `draw`: a composite strategy made for each of some 13,000 mappings cost more than
    the drawing)."""
    out = {}
    for key, value in pairs.items():
        if value is None:
            continue
        out[draw(sampled(_aliases(ctx, key)))] = value
    return out


def cell_text(draw, x: int, y: int):
    return draw(sampled([f"{x},{y}", f"{x}, {y}", f"{x},{y}"]))


def cells_on(draw, w=W, h=H, n_min=1, n_max=4) -> list[tuple[int, int]]:
    return draw(st.lists(st.tuples(st.integers(0, w - 1), st.integers(0, h - 1)), min_size=n_min, max_size=n_max,
                         unique=True))


class Ids:
    def __init__(self):
        self.n = 0

    def next(self, side_idx: int) -> str:
        self.n += 1
        return f"{'ab'[side_idx]}{self.n}"


def piece(draw, pid: str | None, state: str | None = None) -> dict:
    """One piece: a database card (its stats, perhaps changed) or an ad-hoc piece with stats."""
    kind = draw(sampled(["known", "known", "unknown", "adhoc", "adhoc"]))
    fields: dict = {"id": pid}
    if kind == "known":
        fields["card"] = draw(sampled(KNOWN_PIECES))
        if draw(st.integers(0, 3)) == 0:
            fields["hp"] = draw(st.integers(1, 12))
    elif kind == "unknown":
        fields["card"] = draw(sampled(UNKNOWN_PIECES))
        if draw(st.integers(0, 5)):  # mostly the stats are given; now and then the engine must say which is missing
            fields.update(lv=draw(st.integers(1, 9)), hp=draw(st.integers(1, 12)), atk=draw(st.integers(0, 4)))
    else:
        fields["name"] = draw(sampled(["병사", "x", "<i>임시</i>", "*별*_", "기물 `a`", "탱크"]))
        # now and then a long combat: hundreds of rounds, or HP past every limit (a round-limit gap)
        hp = draw(st.one_of(st.integers(1, 12), sampled([300, 1_000_000_000]))) \
            if draw(st.integers(0, 9)) == 0 else draw(st.integers(1, 12))
        fields.update(lv=draw(st.integers(1, 9)), hp=hp, atk=draw(st.integers(0, 4)))
        if draw(st.booleans()):
            fields["cost"] = draw(st.integers(0, 12))
        if draw(st.integers(0, 5)) == 0:
            fields["structure"] = draw(sampled([True, False, "예", "아니오"]))
    st_ = state or draw(sampled([None, "mobile", "mobile", "settled"]))
    if st_:
        fields["state"] = draw(sampled(STATES[st_]))
    return keyed(draw, "piece", fields)


def side_pieces(draw, ids: Ids, side_idx: int, n_min=1, n_max=3, state=None) -> list[dict]:
    n = draw(st.integers(n_min, n_max))
    return [piece(draw, ids.next(side_idx) if draw(st.integers(0, 9)) else None, state) for _ in range(n)]


def piece_ids(cells: dict, side: str | None = None) -> list[str]:
    out = []
    for by_side in cells.values():
        for s, lst in by_side.items():
            if side is None or s == side:
                for p in lst:
                    pid = next((v for k, v in p.items() if k in ("id", "아이디")), None)
                    if pid:
                        out.append(pid)
    return out


def n_pieces(cells: dict) -> int:
    return sum(len(lst) for by_side in cells.values() for lst in by_side.values())


def slots(draw) -> list:
    out = []
    for _ in range(5):
        what = draw(st.integers(0, 3))
        if what == 0:
            out.append(None)
        elif what == 1:
            out.append({draw(sampled(_aliases("slot", "set"))): draw(sampled(ALL_CARDS))})
        else:
            out.append(draw(sampled(KNOWN_PIECES + UNKNOWN_PIECES[:4])))
    return out


def common_top(draw, kind: str) -> dict:
    ko = {"combat": "전투", "move": "이동", "victory": "승리확인", "field": "필드", "round": "라운드", "game": "게임"}[kind]
    return {"kind": draw(sampled([kind, ko, ko + "턴" if kind not in ("round", "game") else ko])),
            "title": draw(sampled(TITLES)), "as_of": draw(sampled(DATES))}


# ------------------------------------------------------------------------ combat ----
def effect(draw, own: list[str], enemy: list[str], cells: list[str]) -> dict:
    pick = draw(sampled(["attack", "flip", "buff", "move"]))
    if pick == "attack" or not (own or enemy):
        return keyed(draw, "effect", {"attack": draw(st.integers(1, 6)), "cell": draw(sampled(cells))})
    pid = draw(sampled(own + enemy))
    if pick == "flip":
        return keyed(draw, "effect", {"flip": pid, "to": draw(sampled(STATES["mobile"] + STATES["settled"]))})
    if pick == "buff":
        return keyed(draw, "effect", {"buff": pid, "atk": draw(st.integers(0, 3)), "hp": draw(st.integers(0, 3))})
    return keyed(draw, "effect", {"move": pid, "to": draw(sampled(cells))})


def declarations(draw, attacker, defender, cells: dict, max_n=3) -> list[dict]:
    enc = [c for c, v in cells.items() if len(v) == 2] or list(cells)
    out = []
    for i in range(draw(st.integers(0, max_n))):
        side = defender if i == 0 or draw(st.booleans()) else attacker
        own, enemy = piece_ids(cells, side), piece_ids(cells, attacker if side == defender else defender)
        how = draw(sampled(["effect", "effect", "reboot", "bombard", "card"]))
        if how == "reboot" and own:
            item = {"side": side, "card": "재부팅", "target": draw(sampled(own))}
        elif how == "bombard" and own:
            item = {"side": side, "card": "진내폭격", "cell": draw(sampled(enc)),
                    "cost": keyed(draw, "cost", {"destroy": draw(sampled(own))})}
        elif how == "card":
            item = {"side": side, "card": draw(sampled(RESPONSE_CARDS)),
                    "effect": effect(draw, own, enemy, enc)}
        else:
            item = {"side": side, "effect": effect(draw, own, enemy, enc)}
        out.append(keyed(draw, "decl", item))
    return out


@st.composite
def combat_doc(draw, n_cells=(1, 4)) -> dict:
    attacker, defender = draw(sampled(SIDE_PAIRS))
    ids = Ids()
    cells: dict = {}
    coords = cells_on(draw, n_min=n_cells[0], n_max=n_cells[1])
    for i, (x, y) in enumerate(coords):
        shape = draw(sampled(["both", "both", "both", "att", "def"])) if i else "both"
        by_side = {}
        if shape in ("both", "att"):
            by_side[attacker] = side_pieces(draw, ids, 0)
        if shape in ("both", "def"):
            by_side[defender] = side_pieces(draw, ids, 1)
        cells[cell_text(draw, x, y)] = by_side
    doc = common_top(draw, "combat")
    doc.update(attacker=attacker, cells=cells)
    if draw(st.booleans()):
        doc["response"] = declarations(draw, attacker, defender, cells)
    if draw(st.integers(0, 3)) == 0:
        enc = [c for c, v in cells.items() if len(v) == 2]
        own = piece_ids(cells, attacker)
        if enc and own:
            doc["battle_cards"] = [keyed(draw, "decl", {
                "side": attacker, "cell": draw(sampled(enc)), "card": "피의장막",
                "effect": keyed(draw, "effect", {"buff": draw(sampled(own)), "hp": 1})})]
    enc = [c for c, v in cells.items() if len(v) == 2]
    if len(enc) > 1 and draw(st.integers(0, 2)) == 0:
        doc["combat_order"] = draw(st.permutations(enc))
    if draw(st.integers(0, 3)) == 0:
        doc["field"] = {attacker: slots(draw), defender: slots(draw)}
    return keyed(draw, "top", doc)


# -------------------------------------------------------------------------- move ----
def board_spec(draw, values=False, homes_for=()) -> tuple[dict | None, int, int]:
    if draw(st.integers(0, 2)) == 0:
        return None, W, H
    w, h = draw(st.integers(2, 8)), draw(st.integers(2, 8))
    spec = {"width": w, "height": h,
            "adjacency": draw(sampled(["square8", "square4", "hex", "팔방", "사방", "육각"]))}
    if draw(st.integers(0, 2)) == 0:
        spec["sea"] = [f"{x},{y}" for x, y in cells_on(draw, w, h, 0, 2)]
    if values:
        spec["values"] = {f"{x},{y}": draw(st.integers(0, 3)) for x, y in cells_on(draw, w, h, 0, 6)}
    if homes_for and draw(st.booleans()):
        spec["homes"] = {s: [f"{x},{y}" for x, y in cells_on(draw, w, h, 2, 2)] for s in homes_for}
    return keyed(draw, "board", spec), w, h


def path_from(draw, x, y, w, h) -> list[str]:
    out = []
    for _ in range(draw(st.integers(1, 3))):
        dx, dy = draw(sampled([(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (2, 0)]))
        x, y = x + dx, y + dy  # may leave the board: an `off-board` error, not a crash
        out.append(f"{x},{y}")
    return out


def _xy(cell: str) -> tuple[int, int]:
    a, b = cell.replace(" ", "").split(",")
    return int(a), int(b)


def move_block(draw, attacker, cells: dict, w, h) -> tuple[list, list]:
    own_cells = [c for c, v in cells.items() if attacker in v]
    activate = draw(st.lists(sampled(own_cells), min_size=0, max_size=2, unique=True)) if own_cells else []
    moves = []
    where = {pid: c for c, v in cells.items() for s, lst in v.items() for pid in piece_ids({c: {s: lst}})}
    movers = sorted(where)
    for _ in range(draw(st.integers(0, 4)) if movers else 0):
        pid = draw(sampled(movers))
        m = {"piece": pid, "path": path_from(draw, *_xy(where[pid]), w, h)}
        if draw(st.integers(0, 6)) == 0:
            m["sp"] = draw(sampled(["비행", "질주", "음속돌파"]))
        moves.append(keyed(draw, "move", m))
    return activate, moves


def placed_cells(draw, attacker, defender, ids, w, h, state=None, n_max=4) -> dict:
    cells: dict = {}
    for x, y in cells_on(draw, w, h, 1, n_max):
        shape = draw(sampled(["att", "att", "def", "both"]))
        by_side = {}
        if shape in ("att", "both"):
            by_side[attacker] = side_pieces(draw, ids, 0, state=state)
        if shape in ("def", "both"):
            by_side[defender] = side_pieces(draw, ids, 1, state=state)
        cells[f"{x},{y}"] = by_side
    return cells


@st.composite
def move_doc(draw) -> dict:
    attacker, defender = draw(sampled(SIDE_PAIRS))
    board, w, h = board_spec(draw)
    cells = placed_cells(draw, attacker, defender, Ids(), w, h)
    activate, moves = move_block(draw, attacker, cells, w, h)
    doc = common_top(draw, "move")
    doc.update(attacker=attacker, board=board, cells=cells, activate=activate, moves=moves)
    if draw(st.integers(0, 3)) == 0:
        doc["first_round"] = draw(sampled([True, False, "예", "아니오"]))
    return keyed(draw, "top", doc)


# ----------------------------------------------------------------------- victory ----
@st.composite
def victory_doc(draw) -> dict:
    player, other = draw(sampled(SIDE_PAIRS))
    cells = placed_cells(draw, player, other, Ids(), W, H, n_max=6)
    doc = common_top(draw, "victory")
    doc.update(player=player, cells=cells)
    if draw(st.booleans()):
        doc["vp"] = {player: draw(st.integers(0, 8)), other: draw(st.integers(0, 8))}
    if draw(st.booleans()):
        doc["homes"] = {s: [f"{x},{y}" for x, y in cells_on(draw, W, H, 2, 2)]
                        for s in draw(sampled([[other], [player, other]]))}
    return keyed(draw, "top", doc)


# ------------------------------------------------------------------------- field ----
@st.composite
def field_action(draw) -> dict:
    slot = draw(st.integers(0, 6))
    pick = draw(sampled(["place", "place", "activate", "trash", "round", "exhausted"]))
    if pick == "place":
        a = {"place": draw(sampled(ALL_CARDS)), "slot": slot,
             "face": draw(sampled(["up", "down", "앞면", "뒷면"]))}
    elif pick == "round":
        a = {"round": draw(sampled(["next", "다음"]))}
    else:
        a = {pick: slot}
    return keyed(draw, "action", a)


@st.composite
def field_doc(draw) -> dict:
    side, _ = draw(sampled(SIDE_PAIRS))
    doc = common_top(draw, "field")
    doc.update(side=side, field=slots(draw), actions=draw(st.lists(field_action(), max_size=5)))
    return keyed(draw, "top", doc)


# ------------------------------------------------------------------------- round ----
@st.composite
def round_doc(draw) -> dict:
    player, other = draw(sampled(SIDE_PAIRS))
    board, w, h = board_spec(draw, values=True, homes_for=(other,))
    ids = Ids()
    cells = placed_cells(draw, player, other, ids, w, h, n_max=4)
    doc = common_top(draw, "round")
    doc.update(player=player, board=board, cells=cells)
    if draw(st.booleans()):
        doc["vp"] = {player: draw(st.integers(0, 6)), other: draw(st.integers(0, 6))}
    if draw(st.booleans()):
        doc["dor"] = {player: draw(st.integers(0, 30)), other: draw(st.integers(0, 30))}
    if draw(st.booleans()):
        doc["field"] = {player: slots(draw), other: slots(draw)}
    activate, moves = move_block(draw, player, cells, w, h)
    if activate or moves:
        doc["move"] = keyed(draw, "turn_move", {"activate": activate, "moves": moves})
    if draw(st.integers(0, 2)) == 0:
        doc["response"] = declarations(draw, player, other, cells, max_n=2)
    if draw(st.booleans()):
        doc["produce"] = [keyed(draw, "produce", {"card": draw(sampled(KNOWN_PIECES)),
                                                 "cell": draw(sampled(list(cells)))})
                          for _ in range(draw(st.integers(1, 2)))]
    mine = piece_ids(cells)
    if mine and draw(st.booleans()):
        doc["blackout"] = [keyed(draw, "blackout", {"piece": draw(sampled(mine)),
                                                   "to": draw(sampled(["mobile", "settled", "정착"]))})]
    if doc.get("field") and draw(st.integers(0, 2)) == 0:
        doc["field_actions"] = {player: draw(st.lists(field_action(), max_size=3))}
    return keyed(draw, "top", doc)


# -------------------------------------------------------------------------- game ----
@st.composite
def game_doc(draw) -> dict:
    """A record of 1–4 rounds on one board, the players alternating; each entry's plays are drawn
    against the starting cells (later rounds may name pieces that moved, were captured or never came)."""
    player, other = draw(sampled(SIDE_PAIRS))
    board, w, h = board_spec(draw, values=True, homes_for=(other, player))
    ids = Ids()
    cells = placed_cells(draw, player, other, ids, w, h, n_max=4)
    doc = common_top(draw, "game")
    doc.update(first_player=player, board=board, cells=cells)
    if draw(st.booleans()):
        doc["first_round"] = True
    if draw(st.booleans()):
        doc["vp"] = {player: draw(st.integers(0, 6)), other: draw(st.integers(0, 6))}
    if draw(st.booleans()):
        doc["dor"] = {player: draw(st.integers(0, 30)), other: draw(st.integers(0, 30))}
    if draw(st.booleans()):
        doc["field"] = {player: slots(draw), other: slots(draw)}
    rounds = []
    for k in range(draw(st.integers(1, 4))):
        side, opp = (player, other) if k % 2 == 0 else (other, player)
        entry: dict = {"player": side} if draw(st.booleans()) else {}
        activate, moves = move_block(draw, side, cells, w, h)
        if activate or moves:
            entry["move"] = keyed(draw, "turn_move", {"activate": activate, "moves": moves})
        if draw(st.integers(0, 3)) == 0:
            entry["response"] = declarations(draw, side, opp, cells, max_n=2)
        if draw(st.integers(0, 2)) == 0:
            entry["produce"] = [keyed(draw, "produce", {"card": draw(sampled(KNOWN_PIECES)),
                                                       "cell": draw(sampled(list(cells)))})]
        mine = piece_ids(cells, side)
        if mine and draw(st.booleans()):
            entry["blackout"] = [keyed(draw, "blackout", {"piece": draw(sampled(mine)),
                                                         "to": draw(sampled(["mobile", "settled"]))})]
        if doc.get("field") and draw(st.integers(0, 3)) == 0:
            entry["field_actions"] = {side: draw(st.lists(field_action(), max_size=2))}
        rounds.append(keyed(draw, "round_entry", entry))
    doc["rounds"] = rounds
    return keyed(draw, "top", doc)


# ------------------------------------------------------------------------ running ----
class Hang(BaseException):
    """Not an Exception: the CLI's catch-all must not swallow it."""


@contextmanager
def hang_guard(seconds: int = HANG_GUARD):
    def on_alarm(signum, frame):
        raise Hang(f"no answer after {seconds} s")

    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


HANGUL = re.compile("[가-힣]")


def to_yaml(doc: dict) -> str:
    # libyaml's emitter when PyYAML has it: the same text as yaml.safe_dump (checked on 300 generated
    # documents), three times faster
    return yaml.dump(doc, Dumper=getattr(yaml, "CSafeDumper", yaml.SafeDumper), allow_unicode=True,
                     sort_keys=False, default_flow_style=None)


def simulate(text: str, *extra: str):
    """`flamer simulate - --json` in-process: (exit code, stdout, stderr, seconds)."""
    t = time.monotonic()
    with hang_guard():
        r = invoke("simulate", "-", "--json", *extra, input=text)
    took = time.monotonic() - t
    if isinstance(r.exception, Hang):
        raise r.exception
    return r.exit_code, r.stdout, r.stderr, took


def checked(doc: dict, *extra: str) -> dict | None:
    """Properties (a)–(c); the result JSON, or None when the scenario was (cleanly) refused."""
    text = to_yaml(doc)
    code, out, err, took = simulate(text, *extra)
    assert "Traceback" not in err and "Traceback" not in out, err
    assert code in (0, 1), (code, out, err, text)
    if code == 1:
        obj = json.loads(out)
        assert set(obj) >= {"error"}, obj
        assert obj["error"]["code"] != "internal", (obj, text)
        msg = obj["error"]["message"]
        assert msg.strip() and HANGUL.search(msg), (msg, text)
        assert "내부 오류" not in msg and "내부 오류" not in err, (msg, text)
        assert err.strip() and HANGUL.search(err), err
        result = None
    else:
        result = json.loads(out)
        assert isinstance(result, dict) and "error" not in result, out
    again = simulate(text, *extra)
    assert again[:3] == (code, out, err), ("not deterministic", text)
    return result


def per_range(out: dict | None) -> list[dict]:
    """The results of an answer: itself, or — when one unknown stat decides it (kind by-value, issue 18
    item 4) — the result of each range of that stat's values, the ranges checked to cover every value."""
    if out is None:
        return []
    if out["kind"] != "by-value":
        return [out]
    rs = out["ranges"]
    assert rs and rs[0]["from"] == out["depends_on"]["least"] and rs[-1]["to"] is None
    assert all(a["to"] + 1 == b["from"] for a, b in zip(rs, rs[1:]))
    return [r["result"] for r in rs]


def _once(ids: list[str]) -> None:
    dup = sorted({i for i in ids if ids.count(i) > 1})
    assert not dup, f"pieces in more than one place: {dup}"


def _ended_places(res: dict, on_board: list[str]) -> list[str]:
    return (on_board + [p for v in res["prisoners"].values() for p in v] + list(res["fragments"])
            + list(res["removed"]))


def _each_piece_once_at_the_end(res: dict) -> None:
    """A round's or game's final state holds every piece of the result exactly once: on the board, a
    prisoner, a fragment or removed."""
    fin = res["final"]
    on_board = [p["id"] for by_side in fin["cells"].values() for lst in by_side.values() for p in lst]
    ended = _ended_places(fin, on_board)
    _once(ended)
    assert sorted(ended) == sorted(res["pieces"])


# ------------------------------------------------------------------------- tests ----
@fuzz(300)
@given(doc=combat_doc())
def test_combat_scenarios(doc):
    for res in per_range(checked(doc)):
        assert res["kind"] == "combat"
        ended = _ended_places(res, list(res["positions"]))
        _once(ended)
        assert sorted(ended) == sorted(res["pieces"])
        cells = doc.get("cells", doc.get("셀"))
        assert len(res["pieces"]) == n_pieces(cells)
        assert set(piece_ids(cells)) <= set(res["pieces"])
        for c in res["cells"].values():
            if c["occupant"] is not None:
                assert all(not ids for s, ids in c["survivors"].items() if s != c["occupant"]), c


@fuzz(200)
@given(doc=move_doc())
def test_move_scenarios(doc):
    res = checked(doc)
    if res is None:
        return
    assert res["kind"] == "move"
    cells = doc.get("cells", doc.get("셀"))
    # every piece ends in exactly one cell (a dict: one cell per piece), and no piece is lost or made up
    assert len(res["positions"]) == n_pieces(cells)
    assert set(res["positions"]) == set(res["pieces"])
    assert set(piece_ids(cells)) <= set(res["positions"])
    assert all(isinstance(c, str) and c for c in res["positions"].values())
    if res["valid"]:
        assert not res["errors"]


@FUZZ
@given(doc=victory_doc())
def test_victory_scenarios(doc):
    res = checked(doc)
    if res is None:
        return
    assert res["kind"] == "victory"
    cells = doc.get("cells", doc.get("셀"))
    occupied = {c.replace(" ", "") for c, v in cells.items() if any(v.values())}
    assert set(res["cells"]) == occupied
    player = next(v for k, v in doc.items() if k in ("player", "플레이어", "턴플레이어"))
    assert res["winner"] in (None, player)  # only the turn player can win in its victory check


@FUZZ
@given(doc=field_doc())
def test_field_scenarios(doc):
    res = checked(doc)
    if res is None:
        return
    assert res["kind"] == "field"
    assert [s["slot"] for s in res["slots"]] == [1, 2, 3, 4, 5]


@fuzz(150)
@given(doc=round_doc())
def test_round_scenarios(doc):
    for res in per_range(checked(doc)):
        assert res["kind"] == "round"
        _each_piece_once_at_the_end(res)
        cells = doc.get("cells", doc.get("셀"))
        assert set(piece_ids(cells)) <= set(res["pieces"])
        assert len(res["pieces"]) >= n_pieces(cells)  # production only adds


@fuzz(100)
@given(doc=game_doc())
def test_game_scenarios(doc):
    for res in per_range(checked(doc)):
        assert res["kind"] == "game"
        _each_piece_once_at_the_end(res)  # no piece lost or made up across the rounds
        played = len(res["rounds"])
        assert 1 <= played <= res["rounds_written"]
        assert [r["round"] for r in res["rounds"]] == list(range(1, played + 1))
        assert [r["player"] for r in res["rounds"]] == [(res["first_player"], res["second_player"])[k % 2]
                                                        for k in range(played)]
        if res["ended"] is not None:
            assert res["ended"]["round"] == played and res["ended"]["winner"] == res["rounds"][-1]["player"]
        else:
            assert played == res["rounds_written"]
        fi = res["first_illegal"]
        if fi is not None:
            assert 1 <= fi["round"] <= played and fi["message"] and fi["clause"]
        assert all(u.get("message") for u in res["unresolved"])
        for r in res["rounds"]:  # VP never falls
            assert all(r["final"]["vp"][s] >= r["vp_before"].get(s, 0) for s in r["final"]["vp"])


@fuzz(40)
@given(doc=combat_doc(n_cells=(2, 4)))
def test_combat_all_branches(doc):
    res = checked(doc, "--all-branches")
    if res is None:
        return
    assert res["kind"] == "branches" and res["distinct"] >= 1 and len(res["branches"]) == res["distinct"]


ANY_KIND = st.one_of(combat_doc(), move_doc(), victory_doc(), field_doc(), round_doc())


@fuzz(80)
@given(doc=ANY_KIND, fmt=sampled(["text", "md", "html"]))
def test_people_formats_never_crash(doc, fmt):
    """The same documents printed for people: the answer (or the refusal) of --json, no internal error,
    no raw control character from the input on the terminal."""
    text = to_yaml(doc)
    code_json = simulate(text)[0]
    with hang_guard():
        r = invoke("simulate", "-", "--format", fmt, input=text)
    assert r.exit_code == code_json, (r.exit_code, r.stdout, r.stderr, text)
    assert "내부 오류" not in r.stderr and "Traceback" not in r.stderr, r.stderr
    for raw in ("\x1b", "\x07"):
        assert raw not in r.stdout and raw not in r.stderr
    if code_json == 0:
        assert r.stdout.strip()
        if fmt == "html":
            assert "<script>alert(1)" not in r.stdout


# ------------------------------------------------------ mutated (malformed) documents ----
HOSTILE_VALUES = [None, 0, -1, 1_000_000_000, 1.5, True, False, "", "x", "9,9", "-1,-1", "전투", "<script>",
                  [], {}, [1, 2], ["1,1"], {"a": 1}, {"DGM": []}, [[1]], [None], {"1,1": None}]


def _paths(obj, prefix=()):
    yield prefix
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _paths(v, prefix + (i,))


def _replace(obj, path, value):
    if not path:
        return value
    head, rest = path[0], path[1:]
    if isinstance(obj, dict):
        return {k: (_replace(v, rest, value) if k == head else v) for k, v in obj.items()}
    return [(_replace(v, rest, value) if i == head else v) for i, v in enumerate(obj)]


@st.composite
def mutated(draw):
    """A plausible document with one to three nodes replaced by a value of the wrong type or range,
    or a key dropped: the parser must say what is wrong (file, line, key), never crash."""
    doc = draw(ANY_KIND)
    for _ in range(draw(st.integers(1, 3))):
        paths = [p for p in _paths(doc) if p]
        if not paths:
            break
        path = draw(sampled(paths))
        if draw(st.integers(0, 4)) == 0 and isinstance(path[-1], str):  # drop a key
            parent = doc
            for k in path[:-1]:
                parent = parent[k]
            doc = _replace(doc, path[:-1], {k: v for k, v in parent.items() if k != path[-1]})
        else:
            doc = _replace(doc, path, draw(sampled(HOSTILE_VALUES)))
    return doc


@fuzz(250)
@given(doc=mutated())
def test_mutated_scenarios_never_crash(doc):
    """(a)–(c) on malformed documents: a clean Korean error (or an answer), in time, the same twice."""
    checked(doc)
