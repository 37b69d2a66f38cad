"""Card effects as data: the primitives (flip, move, attack, buff; destroy for
costs), their parser (shared by cards/effects.yaml and a scenario's inline
`effect:`), and the validation of cards/effects.yaml (read by `corpus.load_effects`).

Only what the rulebook pages state precisely is defined in effects.yaml; any
other card's effect is unknown, and a scenario that declares it must give the
effect inline.

Placeholders usable where a piece or cell is expected:

=========  =============================================================
``target``  the piece the player chose at declaration (the item's `target`)
``self``    the piece whose SP is declared (the flipped piece)
``bonded``  the pieces bonded (결속) to the declaring 증폭기 card, chosen by
            the rule at resolution in the effect's cell
``chosen``  (cells) the cell the player chose at declaration (the item's `cell`)
=========  =============================================================
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from ..errors import DataError, Problem
from ..errors import line_of as _line
from ..korean import josa
from .types import PieceState

TARGET, SELF, BONDED, CHOSEN = "target", "self", "bonded", "chosen"
PLACEHOLDERS = (TARGET, SELF, BONDED)
TIMINGS = ("대응", "전투", "이동", "등장")
CHOOSE_TARGET = ("own-settled-piece", "own-piece", "piece")
CHOOSE_CELL = ("encounter-cell", "cell")


# ------------------------------------------------------------- primitives ----
@dataclass(frozen=True)
class Flip:
    piece: str
    to: PieceState

    kind = "flip"

    def describe(self) -> dict:
        return {"flip": self.piece, "to": self.to.value}


@dataclass(frozen=True)
class Move:
    piece: str
    to: str

    kind = "move"

    def describe(self) -> dict:
        return {"move": self.piece, "to": self.to}


@dataclass(frozen=True)
class Attack:
    amount: int
    cell: str | None  # a cell id, CHOSEN, or None (= the combat's own cell, step 1 only)

    kind = "attack"

    def describe(self) -> dict:
        return {"attack": self.amount, "cell": self.cell}


@dataclass(frozen=True)
class Buff:
    piece: str
    atk: int = 0
    hp: int = 0
    lv: int = 0
    cell: str | None = None  # for BONDED: where the bonded pieces are looked for
    duration: str = "combat"

    kind = "buff"

    def describe(self) -> dict:
        out: dict[str, Any] = {"buff": self.piece}
        for k in ("atk", "hp", "lv"):
            if getattr(self, k):
                out[k] = getattr(self, k)
        if self.cell is not None:
            out["cell"] = self.cell
        out["duration"] = self.duration
        return out


@dataclass(frozen=True)
class Destroy:
    """A cost: remove a piece from the board at declaration (a structure becomes a fragment)."""

    piece: str | None = None  # a piece id or SELF; None = chosen by the player among matching pieces
    own: bool = True
    card: str | None = None
    state: PieceState | None = None

    kind = "destroy"

    def describe(self) -> dict:
        if self.piece is not None:
            return {"destroy": self.piece}
        sel: dict[str, Any] = {"own": self.own}
        if self.card:
            sel["card"] = self.card
        if self.state:
            sel["state"] = self.state.value
        return {"destroy": sel}


Primitive = Flip | Move | Attack | Buff


@dataclass(frozen=True)
class EffectDef:
    """One card effect (a special card's own effect when ability is None)."""

    card: str
    ability: str | None
    timing: str
    choose: Mapping[str, str] = field(default_factory=dict)
    condition: Mapping[str, str] = field(default_factory=dict)
    cost: tuple[Destroy, ...] = ()
    effect: tuple[Primitive, ...] | None = None  # None: the pages do not give the effect
    source: tuple[str, ...] = ()
    quote: tuple[str, ...] = ()
    line: int | None = None

    @property
    def known(self) -> bool:
        return self.effect is not None

    @property
    def label(self) -> str:
        return self.card if self.ability in (None, self.card) else f"{self.card} {self.ability}"


# ----------------------------------------------------------------- parsing ----
def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


class _Sink:
    def __init__(self, file: str):
        self.file = file
        self.problems: list[Problem] = []

    def add(self, obj, key, where, message, fix=None):
        self.problems.append(Problem(self.file, _line(obj, key), where, message, fix))


def _cell_text(v) -> str | None:
    if isinstance(v, str) and v.strip():
        return v.replace(" ", "")
    return None


def parse_primitive(obj, where: str, sink: _Sink) -> Primitive | None:
    """One effect primitive from YAML; problems go to sink."""
    if not isinstance(obj, dict):
        sink.add(None, None, where, "효과 항목은 매핑이어야 합니다 (예: {flip: drill, to: mobile}).")
        return None
    heads = [k for k in ("flip", "move", "attack", "buff") if k in obj]
    if len(heads) != 1:
        sink.add(obj, None, where, "효과 항목에는 flip(뒤집기), move(옮기기), attack(공격), buff(강화) 중 정확히 "
                 "하나가 있어야 합니다.",
                 "예: {flip: PIECE, to: mobile} / {move: PIECE, to: CELL} / {attack: N, cell: CELL} / "
                 "{buff: PIECE, atk: 1} — 한국어로는 {뒤집기: 기물, 상태: 기동} / {옮기기: 기물, 도착: 셀} / "
                 "{공격: N, 셀: 셀} / {강화: 기물, 공격력: 1}")
        return None
    head = heads[0]
    allowed = {"flip": {"flip", "to"}, "move": {"move", "to"}, "attack": {"attack", "cell"},
               "buff": {"buff", "atk", "hp", "lv", "cell", "duration"}}[head]
    for k in obj:
        if k not in allowed:
            sink.add(obj, k, f"{where}.{k}", f"'{head}' 효과에 알 수 없는 키 '{k}'.", f"허용: {', '.join(sorted(allowed))}")
            return None
    if head == "flip":
        piece, to = obj.get("flip"), obj.get("to")
        if not isinstance(piece, str):
            sink.add(obj, "flip", f"{where}.flip", "flip에는 기물 id를 적어야 합니다.")
            return None
        if to not in ("mobile", "settled"):
            sink.add(obj, "to" if "to" in obj else None, f"{where}.to", "flip의 to는 mobile 또는 settled여야 합니다.")
            return None
        return Flip(piece, PieceState(to))
    if head == "move":
        piece, to = obj.get("move"), _cell_text(obj.get("to"))
        if not isinstance(piece, str):
            sink.add(obj, "move", f"{where}.move", "move에는 기물 id를 적어야 합니다.")
            return None
        if to is None:
            sink.add(obj, "to" if "to" in obj else None, f"{where}.to", "move에는 도착 셀 to가 있어야 합니다 (예: \"2,5\").")
            return None
        return Move(piece, to)
    if head == "attack":
        n = obj.get("attack")
        if not _is_int(n):
            sink.add(obj, "attack", f"{where}.attack", f"attack의 값은 정수(ATK)여야 합니다 (지금: {n!r}).")
            return None
        cell = obj.get("cell")
        if cell is not None and _cell_text(cell) is None:
            sink.add(obj, "cell", f"{where}.cell", "attack의 cell은 셀 문자열이어야 합니다 (예: \"2,4\").")
            return None
        return Attack(n, _cell_text(cell) if cell is not None else None)
    # buff
    piece = obj.get("buff")
    if not isinstance(piece, str):
        sink.add(obj, "buff", f"{where}.buff", "buff에는 기물 id를 적어야 합니다.")
        return None
    vals = {}
    for k in ("atk", "hp", "lv"):
        v = obj.get(k, 0)
        if not _is_int(v):
            sink.add(obj, k, f"{where}.{k}", f"buff의 {k}는 정수여야 합니다 (지금: {v!r}).")
            return None
        vals[k] = v
    if not any(vals.values()):
        sink.add(obj, None, where, "buff에는 atk, hp, lv 중 하나 이상의 변화가 있어야 합니다.")
        return None
    if obj.get("duration", "combat") != "combat":
        sink.add(obj, "duration", f"{where}.duration", "buff의 duration은 combat(그 전투 한정)만 됩니다.")
        return None
    cell = obj.get("cell")
    return Buff(piece, cell=_cell_text(cell) if cell is not None else None, **vals)


def parse_effect_list(value, where: str, sink: _Sink) -> tuple[Primitive, ...] | None:
    items = value if isinstance(value, list) else [value]
    out = []
    for i, item in enumerate(items):
        p = parse_primitive(item, f"{where}[{i}]" if isinstance(value, list) else where, sink)
        if p is None:
            return None
        out.append(p)
    if not out:
        sink.add(None, None, where, "효과 목록이 비어 있습니다.")
        return None
    return tuple(out)


def parse_destroy(obj, where: str, sink: _Sink) -> Destroy | None:
    if not isinstance(obj, dict) or set(obj) != {"destroy"}:
        sink.add(obj if isinstance(obj, dict) else None, None, where,
                 "비용 항목은 {destroy: PIECE} 형식이어야 합니다.")
        return None
    v = obj["destroy"]
    if isinstance(v, str):
        return Destroy(piece=v)
    if isinstance(v, dict):
        extra = set(v) - {"own", "card", "state"}
        if extra:
            sink.add(v, None, where, f"destroy 선택 조건에 알 수 없는 키 {sorted(extra)}.", "허용: own, card, state")
            return None
        state = v.get("state")
        if state is not None and state not in ("mobile", "settled"):
            sink.add(v, "state", where, "destroy의 state는 mobile 또는 settled여야 합니다.")
            return None
        own = v.get("own", True)
        if not isinstance(own, bool):
            sink.add(v, "own", where, "destroy의 own은 true/false여야 합니다.")
            return None
        return Destroy(piece=None, own=own, card=v.get("card"),
                       state=PieceState(state) if state else None)
    sink.add(obj, "destroy", where, "destroy에는 기물 id 또는 선택 조건 매핑을 적어야 합니다.")
    return None


# ------------------------------------------------------------ effects.yaml ----
_ITEM_KEYS = {"card", "ability", "timing", "choose", "condition", "cost", "effect", "source", "quote", "note"}


def _item_type_problem(it: dict) -> tuple[str, str] | None:
    """(key, expected form) of the first top-level value of an effects item with the wrong type."""
    def strs(v):
        return isinstance(v, str) or (isinstance(v, list) and bool(v) and all(isinstance(x, str) for x in v))

    checks = (("card", lambda v: isinstance(v, str), "카드 이름(문자열)"),
              ("ability", lambda v: v is None or isinstance(v, str), "능력 이름(문자열) 또는 null"),
              ("timing", lambda v: isinstance(v, str), "타이밍(문자열)"),
              ("cost", lambda v: v is None or isinstance(v, list), "목록(- {destroy: …})"),
              ("effect", lambda v: v is None or isinstance(v, list), "목록 또는 null"),
              ("source", strs, "페이지 id(문자열) 또는 문자열 목록"),
              ("quote", strs, "인용구(문자열) 또는 문자열 목록"))
    for key, ok, expected in checks:
        if key in it and not ok(it[key]):
            return key, expected
    return None


def parse_effects(doc, corpus, display: str) -> dict[tuple[str, str | None], EffectDef]:
    """Validate the document of cards/effects.yaml (read by the data layer:
    `corpus.load_effects`, `corpus.effects`) against the card database.

    Returns {(card, ability): EffectDef}; ability is None for a special card's own
    effect. Raises DataError naming `display` (the file) and the line."""
    sink = _Sink(display)
    out: dict[tuple[str, str | None], EffectDef] = {}
    if doc is None:
        doc = {"effects": []}
    if not isinstance(doc, dict) or set(doc) - {"effects"}:
        raise DataError([Problem(display, _line(doc), None, "최상위 키는 'effects' 하나여야 합니다.")])
    items = doc.get("effects") or []
    if not isinstance(items, list):
        raise DataError([Problem(display, _line(doc, "effects"), "effects", "'effects'는 목록이어야 합니다.")])
    for i, it in enumerate(items):
        where = f"effects[{i}]"
        if not isinstance(it, dict):
            sink.add(None, None, where, "항목은 매핑이어야 합니다.")
            continue
        bad = set(it) - _ITEM_KEYS
        if bad:
            sink.add(it, sorted(bad)[0], where, f"알 수 없는 키 {sorted(bad)}.", f"허용: {', '.join(sorted(_ITEM_KEYS))}")
            continue
        for req in ("card", "ability", "timing", "effect", "source", "quote"):
            if req not in it:
                sink.add(it, None, where, f"필수 키 '{req}'가 없습니다.")
        if sink.problems and sink.problems[-1].key == where and "필수 키" in sink.problems[-1].message:
            continue
        bad_type = _item_type_problem(it)
        if bad_type is not None:
            key, expected = bad_type
            sink.add(it, key, f"{where}.{key}", f"'{key}' 값의 형식이 잘못되었습니다: {expected}이어야 합니다.",
                     "cards/effects.yaml 머리 주석의 형식을 보세요")
            continue
        card = it["card"]
        ability = it["ability"]
        c = corpus.cards.get(card)
        if c is None:
            from difflib import get_close_matches

            near = get_close_matches(str(card), list(corpus.cards), n=3, cutoff=0.4)
            sink.add(it, "card", f"{where}.card", f"카드 {josa(repr(str(card)), '이/가')} cards.yaml에 없습니다.",
                     f"비슷한 이름: {', '.join(near)}" if near else None)
            continue
        names = [a["name"] for a in c["abilities"]]
        if ability is None:
            if c["type"] != "special":
                sink.add(it, "ability", f"{where}.ability",
                         f"{josa(repr(str(card)), '은/는')} 기물 카드라 ability를 적어야 합니다 (능력: {', '.join(names) or '없음'}).")
                continue
        elif ability not in names:
            sink.add(it, "ability", f"{where}.ability", f"'{card}'에 능력 {josa(repr(str(ability)), '이/가')} 없습니다.",
                     f"있는 능력: {', '.join(names) or '없음'}")
            continue
        if it["timing"] not in TIMINGS:
            sink.add(it, "timing", f"{where}.timing", f"알 수 없는 타이밍 '{it['timing']}'.", f"{', '.join(TIMINGS)}")
            continue
        choose = it.get("choose", "none")
        if choose in (None, "none"):
            choose = {}
        if not isinstance(choose, dict) or set(choose) - {"target", "cell", "cost"}:
            sink.add(it, "choose", f"{where}.choose", "choose는 none 또는 {target: …, cell: …, cost: …} 매핑이어야 합니다.")
            continue
        if "target" in choose and choose["target"] not in CHOOSE_TARGET:
            sink.add(it, "choose", f"{where}.choose.target", f"choose.target은 {', '.join(CHOOSE_TARGET)} 중 하나.")
            continue
        if "cell" in choose and choose["cell"] not in CHOOSE_CELL:
            sink.add(it, "choose", f"{where}.choose.cell", f"choose.cell은 {', '.join(CHOOSE_CELL)} 중 하나.")
            continue
        cond = it.get("condition") or {}
        if not isinstance(cond, dict) or set(cond) - {"role"} or cond.get("role", "attacker") not in ("attacker", "defender"):
            sink.add(it, "condition", f"{where}.condition", "condition은 {role: attacker|defender}만 됩니다.")
            continue
        costs = []
        for j, co in enumerate(it.get("cost") or []):
            d = parse_destroy(co, f"{where}.cost[{j}]", sink)
            if d is not None:
                costs.append(d)
        effect = None
        if it["effect"] is not None:
            effect = parse_effect_list(it["effect"], f"{where}.effect", sink)
            if effect is None:
                continue
        src = it["source"] if isinstance(it["source"], list) else [it["source"]]
        for s in src:
            if s not in corpus.sources:
                sink.add(it, "source", f"{where}.source", f"출처 페이지 '{s}'를 찾을 수 없습니다.")
        quote = it["quote"] if isinstance(it["quote"], list) else [it["quote"]]
        if not all(isinstance(q, str) and q for q in quote):
            sink.add(it, "quote", f"{where}.quote", "quote는 페이지의 짧은 인용구(문자열)여야 합니다.")
            continue
        k = (card, ability)
        if k in out:
            sink.add(it, "card", where, f"'{card}' {ability or ''}의 효과가 두 번 정의되었습니다.")
            continue
        out[k] = EffectDef(card=card, ability=ability, timing=it["timing"], choose=dict(choose),
                           condition=dict(cond), cost=tuple(costs), effect=effect, source=tuple(src),
                           quote=tuple(quote), line=_line(it))
    if sink.problems:
        raise DataError(sink.problems)
    return out


def find(effects: Mapping, card: str, ability: str | None) -> EffectDef | None:
    hit = effects.get((card, ability))
    if hit is None and ability is not None and ability == card:
        hit = effects.get((card, None))
    return hit
