"""Korean keys and values in scenario files: one normalisation layer.

`normalize(doc, file)` takes a scenario as read from YAML (mappings are
`yamlio.LineDict`, which carry the line of themselves and of each key) and
returns the same tree with every known Korean (or differently cased English)
key and value replaced by the canonical English one that the parsers in
scenario.py / turns.py understand. Lines are kept: a translated key keeps the
line it was written on. Each rebuilt mapping also remembers how each key was
written (`written`) and which table it was read with (`alias_ctx`), so that an
error can name the key as the user wrote it (`written_path`) and suggest keys
in both languages (`allowed_text`).

A Korean key means one thing in one place: the tables are per context (the top
level, a piece, a response item, an effect …; an effect's keys come from the primitive registry,
engine/primitives/). `이동` is the list of moves
everywhere it is a key (the effect primitive that moves a piece is `옮기기`,
and kind round's move-turn block is `이동턴`). The tables are documented in
docs/SCENARIOS.md; tests/scenarios/test_scenario_input.py checks that the two agree.

Side codes, cell names, piece ids and card names are never translated: they
are read exactly as written (card names are then corrected, with a notice, by
scenario.resolve_card).
"""

from __future__ import annotations

import re
from typing import Any

from ..errors import DataError, Problem
from .primitives import effect_aliases, effect_canonical

# ------------------------------------------------------------------ keys ----
#: context → {alias → canonical key}. Canonical keys map to themselves implicitly.
KEYS: dict[str, dict[str, str]] = {
    "top": {
        "종류": "kind", "제목": "title", "기준일": "as_of", "기준날짜": "as_of", "날짜": "as_of",
        "공격자": "attacker", "플레이어": "player", "턴플레이어": "player",
        "보드": "board", "필드": "field", "셀": "cells",
        "대응": "response", "대응턴": "response", "전투순서": "combat_order",
        "전투카드": "battle_cards", "전투특수카드": "battle_cards",
        "첫라운드": "first_round", "활성화": "activate", "이동": "moves",
        "승점": "vp", "VP": "vp", "본진": "homes", "진영": "side", "행동": "actions",
        # kind round (flamer_ref/engine/round.py)
        "도르": "dor", "이동턴": "move", "필드행동": "field_actions", "생산": "produce", "생산턴": "produce",
        "암막": "blackout", "암막턴": "blackout",
        # kind game (flamer_ref/engine/game.py)
        "선공": "first_player", "선플레이어": "first_player", "첫플레이어": "first_player",
        "라운드": "rounds", "라운드들": "rounds", "포로": "prisoners", "포로영역": "prisoners",
    },
    "piece": {
        "아이디": "id", "카드": "card", "이름": "name", "레벨": "lv", "Lv": "lv", "LV": "lv", "체력": "hp", "HP": "hp",
        "공격력": "atk", "공격": "atk", "ATK": "atk",
        "비용": "cost", "코스트": "cost", "상태": "state", "구조물": "structure",
    },
    "decl": {
        "진영": "side", "카드": "card", "능력": "ability", "기물": "piece", "효과": "effect", "대상": "target",
        "셀": "cell", "비용": "cost",
    },
    # an effect item: made from the primitive registry (engine/primitives/: each primitive's Korean spellings)
    "effect": effect_aliases(),
    "cost": {"파괴": "destroy", "헌납": "destroy"},
    "selector": {"아군": "own", "카드": "card", "상태": "state"},
    "move": {"기물": "piece", "경로": "path", "능력": "sp", "SP": "sp"},
    "board": {
        "너비": "width", "가로": "width", "높이": "height", "세로": "height", "인접": "adjacency",
        "바다": "sea", "셀": "cells", "이웃": "neighbors", "이름": "label", "값": "values", "본진": "homes",
    },
    "action": {
        "놓기": "place", "내리기": "place", "자리": "slot", "면": "face", "활성화": "activate",
        "버리기": "trash", "트래쉬": "trash", "라운드": "round", "소진": "exhausted", "시점": "at",
    },
    "slot": {"세트": "set"},
    "turn_move": {"활성화": "activate", "이동": "moves", "특수카드": "cards"},
    "produce": {"카드": "card", "셀": "cell", "아이디": "id"},
    "blackout": {"기물": "piece", "상태": "to"},
}
#: one entry of kind game's `rounds`: kind round's per-round keys, spelt as at the top level
GAME_ENTRY_KEYS = ("player", "field_actions", "move", "response", "battle_cards", "combat_order", "produce",
                   "blackout")
KEYS["round_entry"] = {a: c for a, c in KEYS["top"].items() if c in GAME_ENTRY_KEYS}

#: aliases of two words may be written with a space too (the lookup ignores spaces and '_');
#: the spaced forms are listed for the JSON Schema and the documentation
SPACED = {"선플레이어": "선 플레이어", "첫플레이어": "첫 플레이어", "포로영역": "포로 영역", "기준날짜": "기준 날짜", "턴플레이어": "턴 플레이어", "대응턴": "대응 턴", "전투순서": "전투 순서",
          "전투카드": "전투 카드", "전투특수카드": "전투 특수카드", "첫라운드": "첫 라운드", "이동턴": "이동 턴",
          "필드행동": "필드 행동", "생산턴": "생산 턴", "암막턴": "암막 턴", "다음라운드": "다음 라운드"}

#: context → the canonical keys it knows (for case-insensitive English and for suggestions)
CANONICAL: dict[str, tuple[str, ...]] = {
    "top": ("kind", "title", "as_of", "attacker", "player", "board", "field", "cells", "response", "combat_order",
            "battle_cards", "first_round", "activate", "moves", "vp", "homes", "side", "actions", "dor", "move",
            "field_actions", "produce", "blackout", "first_player", "rounds", "prisoners"),
    "round_entry": GAME_ENTRY_KEYS,
    "piece": ("id", "card", "name", "lv", "hp", "atk", "cost", "state", "structure"),
    "decl": ("side", "card", "ability", "piece", "effect", "target", "cell", "cost"),
    "effect": effect_canonical(),
    "cost": ("destroy",),
    "selector": ("own", "card", "state"),
    "move": ("piece", "path", "sp"),
    "board": ("width", "height", "adjacency", "sea", "cells", "neighbors", "label", "values", "homes"),
    "action": ("place", "slot", "face", "activate", "trash", "round", "exhausted", "at"),
    "slot": ("set",),
    "turn_move": ("activate", "moves", "cards"),
    "produce": ("card", "cell", "id"),
    "blackout": ("piece", "to"),
}

# ---------------------------------------------------------------- values ----
KIND_VALUES = {"전투": "combat", "이동": "move", "승리확인": "victory", "필드": "field", "라운드": "round",
               "게임": "game"}
STATE_VALUES = {"기동": "mobile", "앞면": "mobile", "정착": "settled", "뒷면": "settled"}
FACE_VALUES = {"앞면": "up", "뒷면": "down"}
ROUND_VALUES = {"다음": "next", "다음라운드": "next"}
#: `at:` of a round's field action: the turn it happens in (round.turns)
AT_VALUES = {"승리확인턴": "victory", "승리확인": "victory", "보급턴": "supply", "보급": "supply", "이동턴": "move",
             "이동": "move", "대응턴": "response", "대응": "response", "전투턴": "combat", "전투": "combat",
             "생산턴": "production", "생산": "production", "암막턴": "blackout", "암막": "blackout"}
ADJACENCY_VALUES = {"팔방": "square8", "8방향": "square8", "사방": "square4", "4방향": "square4",
                    "육각": "hex", "육각형": "hex"}
BOOL_VALUES = {"예": True, "네": True, "참": True, "아니오": False, "아니요": False, "거짓": False}
#: an empty field slot written in the rulebook's word (as well as null): [수문장, 장인, 빈자리, 빈자리, 빈자리]
EMPTY_SLOT_VALUES = ("빈자리",)
#: kind in Korean, for messages: combat → 전투 …
KIND_KO = {v: k for k, v in KIND_VALUES.items()}


def _squash(text: str) -> str:
    return re.sub(r"[\s_]+", "", text)


def canonical_key(ctx: str, key) -> str | None:
    """The canonical key for `key` written in context `ctx`, or None if it is not one."""
    if not isinstance(key, str):
        return None
    known = CANONICAL[ctx]
    if key in known:
        return key
    if key.isascii():
        low = key.strip().lower().replace("-", "_").replace(" ", "_")
        return low if low in known else None
    return KEYS[ctx].get(_squash(key))


def _value(table: dict, v):
    if isinstance(v, str):
        key = _squash(v)
        if key in table:
            return table[key]
        if v.isascii() and v.strip().lower() in table.values():
            return v.strip().lower()
    return v


def kind_value(v):
    """`kind` as written → canonical (전투 → combat, 전투턴 → combat, Combat → combat)."""
    if isinstance(v, str):
        s = _squash(v)
        if s.endswith("턴") and s[:-1] in KIND_VALUES:
            s = s[:-1]
        return _value(KIND_VALUES, s) if s in KIND_VALUES else _value(KIND_VALUES, v)
    return v


def _bool(v):
    return BOOL_VALUES.get(_squash(v), v) if isinstance(v, str) else v


# ------------------------------------------------------------------ walk ----
def _new(src, ctx: str):
    from ..yamlio import LineDict

    out = LineDict()
    out.line = getattr(src, "line", None)
    out.key_lines = {}
    out.written = {}
    out.alias_ctx = ctx
    out.normalized = True
    return out


class _Walk:
    def __init__(self, file: str):
        self.file = file
        self.problems: list[Problem] = []

    def mapping(self, obj, ctx: str, values=None):
        """Rebuild one mapping with canonical keys; `values(canonical_key, value, new_mapping)` → new value."""
        if not isinstance(obj, dict):
            return obj
        out = _new(obj, ctx)
        src_lines = getattr(obj, "key_lines", {}) or {}
        for k, v in obj.items():
            canon = canonical_key(ctx, k)
            new_key = canon if canon is not None else k
            if new_key in out:
                first = out.written.get(new_key, new_key)
                self.problems.append(Problem(
                    self.file, src_lines.get(k, getattr(obj, "line", None)), str(k), code="duplicate-key-alias",
                    params={"key": str(k), "first": str(first), "canonical": new_key}))
                continue
            out[new_key] = values(new_key, v, out) if values is not None and canon is not None else v
            out.key_lines[new_key] = src_lines.get(k, getattr(obj, "line", None))
            out.written[new_key] = k
        return out

    def items(self, lst, fn):
        if not isinstance(lst, list):
            return lst
        return [fn(x) for x in lst]

    def side_map(self, obj, fn):
        """A map whose keys are side codes (kept as written) and whose values go through fn."""
        if not isinstance(obj, dict):
            return obj
        out = _new(obj, "sides")
        src_lines = getattr(obj, "key_lines", {}) or {}
        for k, v in obj.items():
            out[k] = fn(v)
            out.key_lines[k] = src_lines.get(k, getattr(obj, "line", None))
            out.written[k] = k
        return out

    # ----- contexts
    def top(self, doc):
        return self.mapping(doc, "top", self._top_value)

    def _top_value(self, key, v, out):
        if key == "kind":
            return kind_value(v)
        if key == "cells":
            return self.side_map(v, lambda by_side: self.side_map(by_side, lambda lst: self.items(lst, self.piece)))
        if key == "field":
            if isinstance(v, list):
                return self.slots(v)
            return self.side_map(v, self.slots)
        if key in ("response", "battle_cards"):
            return self.items(v, self.decl)
        if key == "moves":
            return self.items(v, self.move_item)
        if key == "board":
            return self.mapping(v, "board", self._board_value)
        if key == "rounds":  # kind game: each entry with the per-round keys of kind round
            return self.items(v, lambda x: self.mapping(x, "round_entry", self._top_value))
        if key == "actions":
            return self.items(v, self.action)
        if key == "field_actions":
            return self.side_map(v, lambda lst: self.items(lst, self.action))
        if key == "first_round":
            return _bool(v)
        if key == "move":
            return self.mapping(v, "turn_move",
                                lambda k, x, o: self.items(x, self.move_item) if k == "moves" else x)
        if key == "produce":
            return self.items(v, lambda x: self.mapping(x, "produce"))
        if key == "blackout":
            return self.items(v, lambda x: self.mapping(
                x, "blackout", lambda k, y, o: _value(STATE_VALUES, y) if k == "to" else y))
        return v

    def piece(self, p):
        def val(k, v, out):
            if k == "state":
                return _value(STATE_VALUES, v)
            if k == "structure":
                return _bool(v)
            return v

        return self.mapping(p, "piece", val)

    def slots(self, lst):
        def one(s):
            if isinstance(s, list):  # a stack, top first
                return self.items(s, lambda x: self.mapping(x, "slot") if isinstance(x, dict) else x)
            if isinstance(s, str) and _squash(s) in EMPTY_SLOT_VALUES:
                return None  # 빈자리 (빈 자리): the slot is empty
            return self.mapping(s, "slot") if isinstance(s, dict) else s

        return self.items(lst, one)

    def decl(self, it):
        def val(k, v, out):
            if k == "effect":
                return self.effect(v)
            if k == "cost":
                return self.items(v, self.cost) if isinstance(v, list) else self.cost(v)
            return v

        return self.mapping(it, "decl", val)

    def effect(self, v):
        if isinstance(v, list):
            return self.items(v, self.effect)
        out = self.mapping(v, "effect")
        if isinstance(out, dict) and "flip" in out and "to" in out:
            out["to"] = _value(STATE_VALUES, out["to"])
        return out

    def cost(self, c):
        def val(k, v, out):
            if k == "destroy" and isinstance(v, dict):
                return self.mapping(v, "selector",
                                    lambda k2, x, o: _value(STATE_VALUES, x) if k2 == "state" else _bool(x))
            return v

        return self.mapping(c, "cost", val)

    def move_item(self, m):
        return self.mapping(m, "move")

    def _board_value(self, key, v, out):
        if key == "adjacency":
            return _value(ADJACENCY_VALUES, v)
        return v

    def action(self, a):
        def val(k, v, out):
            if k == "face":
                return _value(FACE_VALUES, v)
            if k == "round":
                return _value(ROUND_VALUES, v)
            if k == "at":
                return _value(AT_VALUES, v)
            return v

        return self.mapping(a, "action", val)


def normalize(doc: Any, file: str) -> Any:
    """The scenario with canonical English keys and values (see the module docstring).

    Idempotent: an already normalised tree is returned as it is. Raises DataError when two
    keys of one mapping mean the same thing (e.g. `state` and `상태`)."""
    if not isinstance(doc, dict) or getattr(doc, "normalized", False):
        return doc
    w = _Walk(file)
    out = w.top(doc)
    if w.problems:
        raise DataError(w.problems)
    return out


# -------------------------------------------------------------- messages ----
_SEGMENT = re.compile(r"^(.*?)((?:\[\d+\])*)$")


def written_path(doc, path: str | None) -> str | None:
    """A problem's key path (`cells.2,4.DGM[0].state`) with each key as the user wrote it
    (`셀.2,4.DGM[0].상태`). Best effort: what cannot be followed is left as it is."""
    if not path or not isinstance(doc, dict) or not getattr(doc, "normalized", False):
        return path
    node: Any = doc
    out = []
    parts = path.split(".")
    for i, seg in enumerate(parts):
        m = _SEGMENT.match(seg)
        name, idx = (m.group(1), m.group(2)) if m else (seg, "")
        if not isinstance(node, dict):
            out.extend(parts[i:])
            break
        written = getattr(node, "written", {}) or {}
        shown = written.get(name, name)
        out.append(f"{shown}{idx}")
        node = node.get(name)
        for n in re.findall(r"\[(\d+)\]", idx):
            node = node[int(n)] if isinstance(node, list) and int(n) < len(node) else None
    return ".".join(out)


def rewrite_problems(exc: DataError, doc) -> DataError:
    """The same error with every problem's key path spelled as the user wrote it."""
    if not isinstance(doc, dict) or not getattr(doc, "normalized", False):
        return exc
    problems = []
    changed = False
    for p in exc.problems:
        key = written_path(doc, p.key)
        changed = changed or key != p.key
        problems.append(p.at(key=key))  # its code and data (or words) kept: still unworded
    return DataError(problems) if changed else exc


def shown_key(obj, key) -> str:
    """How `key` of a normalised mapping was written (the key itself when unknown)."""
    return str((getattr(obj, "written", None) or {}).get(key, key))


def allowed_text(ctx: str | None, allowed) -> str:
    """'kind(종류), title(제목), …' — the allowed keys with their Korean aliases."""
    if ctx is None or ctx not in KEYS:
        return ", ".join(allowed)
    ko: dict[str, list[str]] = {}
    for alias, canon in KEYS[ctx].items():
        ko.setdefault(canon, []).append(alias)
    return ", ".join(f"{k}({'/'.join(ko[k])})" if k in ko else k for k in allowed)


def alias_candidates(ctx: str | None, allowed) -> dict[str, str]:
    """Every spelling of the allowed keys of `ctx` → its canonical key (for 'did you mean')."""
    out = {k: k for k in allowed}
    if ctx in KEYS:
        for alias, canon in KEYS[ctx].items():
            if canon in allowed:
                out[alias] = canon
    return out
