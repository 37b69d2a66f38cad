"""Card effects as data: the primitives (flip, move, attack, buff; destroy for
costs), their parser (shared by cards/effects.yaml and a scenario's inline
`effect:`), and the validation of cards/effects.yaml (read by the data layer, `corpus.read_effects`; effects_of).

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


@dataclass(frozen=True)
class Build:
    """A new piece of `card` placed in `cell` at resolution (생산·건설 기물은 기동으로, 셀 한도 안에서 —
    production.placement); e.g. 잠입건설, whose own text the pages do not give: written inline by the user."""

    card: str
    cell: str | None  # a cell id, CHOSEN, or None (= the item's `cell`)
    id: str | None = None
    #: stats the card data does not give (e.g. 폭약's Lv and HP), as the user knows them
    stats: tuple[tuple[str, int], ...] = ()

    kind = "build"

    def describe(self) -> dict:
        out: dict[str, Any] = {"build": self.card, "cell": self.cell}
        if self.id is not None:
            out["id"] = self.id
        out.update(dict(self.stats))
        return out


Primitive = Flip | Move | Attack | Buff | Build


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

    def add(self, obj, key, where, code, /, **params):
        """A problem at `where` (line of obj's key): a code and its data, worded later by the
        presentation layer (templates/problems/scenario.txt.j2)."""
        self.problems.append(Problem(self.file, _line(obj, key), where, code=code, params=params))

    def mappings(self, doc, key, path: str, list_code: str, item_code: str, /, **params):
        """(index, where, item) for each mapping in the list doc[key] (absent: none); a value that is not
        a list, or an item that is not a mapping, is reported (at doc's `key` line) and skipped."""
        raw = doc.get(key) or []
        if not isinstance(raw, list):
            self.add(doc, key, path, list_code, **params)
            return
        for i, item in enumerate(raw):
            where = f"{path}[{i}]"
            if isinstance(item, dict):
                yield i, where, item
            else:
                self.add(doc, key, where, item_code)


def _cell_text(v) -> str | None:
    if isinstance(v, str) and v.strip():
        return v.replace(" ", "")
    return None


def parse_primitive(obj, where: str, sink: _Sink) -> Primitive | None:
    """One effect primitive from YAML; problems go to sink."""
    if not isinstance(obj, dict):
        sink.add(None, None, where, "effect-not-mapping")
        return None
    heads = [k for k in ("flip", "move", "attack", "buff", "build") if k in obj]
    if len(heads) != 1:
        sink.add(obj, None, where, "effect-head")
        return None
    head = heads[0]
    allowed = {"flip": {"flip", "to"}, "move": {"move", "to"}, "attack": {"attack", "cell"},
               "buff": {"buff", "atk", "hp", "lv", "cell", "duration"}, "build": {"build", "cell", "id", "lv", "hp", "atk"}}[head]
    for k in obj:
        if k not in allowed:
            sink.add(obj, k, f"{where}.{k}", "effect-unknown-key", head=head, key=k, allowed=sorted(allowed))
            return None
    if head == "flip":
        piece, to = obj.get("flip"), obj.get("to")
        if not isinstance(piece, str):
            sink.add(obj, "flip", f"{where}.flip", "flip-piece")
            return None
        if to not in ("mobile", "settled"):
            sink.add(obj, "to" if "to" in obj else None, f"{where}.to", "flip-to")
            return None
        return Flip(piece, PieceState(to))
    if head == "move":
        piece, to = obj.get("move"), _cell_text(obj.get("to"))
        if not isinstance(piece, str):
            sink.add(obj, "move", f"{where}.move", "move-piece")
            return None
        if to is None:
            sink.add(obj, "to" if "to" in obj else None, f"{where}.to", "move-to")
            return None
        return Move(piece, to)
    if head == "build":
        card, cell, bid = obj.get("build"), obj.get("cell"), obj.get("id")
        if not isinstance(card, str) or not card.strip():
            sink.add(obj, "build", f"{where}.build", "build-card")
            return None
        if cell is not None and _cell_text(cell) is None:
            sink.add(obj, "cell", f"{where}.cell", "attack-cell")
            return None
        if bid is not None and (isinstance(bid, (dict, list, bool)) or not str(bid).strip()):
            sink.add(obj, "id", f"{where}.id", "build-id")
            return None
        stats = []
        for k in ("lv", "hp", "atk"):
            if k in obj:
                if not _is_int(obj[k]) or obj[k] < (1 if k == "hp" else 0):
                    sink.add(obj, k, f"{where}.{k}", "build-stat", stat=k, value=obj[k], least=1 if k == "hp" else 0)
                    return None
                stats.append((k, obj[k]))
        return Build(card.strip(), _cell_text(cell) if cell is not None else None,
                     str(bid) if bid is not None else None, tuple(stats))
    if head == "attack":
        n = obj.get("attack")
        if not _is_int(n):
            sink.add(obj, "attack", f"{where}.attack", "attack-value", value=n)
            return None
        cell = obj.get("cell")
        if cell is not None and _cell_text(cell) is None:
            sink.add(obj, "cell", f"{where}.cell", "attack-cell")
            return None
        return Attack(n, _cell_text(cell) if cell is not None else None)
    # buff
    piece = obj.get("buff")
    if not isinstance(piece, str):
        sink.add(obj, "buff", f"{where}.buff", "buff-piece")
        return None
    vals = {}
    for k in ("atk", "hp", "lv"):
        v = obj.get(k, 0)
        if not _is_int(v):
            sink.add(obj, k, f"{where}.{k}", "buff-stat", stat=k, value=v)
            return None
        vals[k] = v
    if not any(vals.values()):
        sink.add(obj, None, where, "buff-empty")
        return None
    if obj.get("duration", "combat") != "combat":
        sink.add(obj, "duration", f"{where}.duration", "buff-duration")
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
        sink.add(None, None, where, "effect-list-empty")
        return None
    return tuple(out)


def parse_destroy(obj, where: str, sink: _Sink) -> Destroy | None:
    if not isinstance(obj, dict) or set(obj) != {"destroy"}:
        sink.add(obj if isinstance(obj, dict) else None, None, where, "cost-form")
        return None
    v = obj["destroy"]
    if isinstance(v, str):
        return Destroy(piece=v)
    if isinstance(v, dict):
        extra = set(v) - {"own", "card", "state"}
        if extra:
            sink.add(v, None, where, "destroy-unknown-key", extra=sorted(extra))
            return None
        state = v.get("state")
        if state is not None and state not in ("mobile", "settled"):
            sink.add(v, "state", where, "destroy-state")
            return None
        own = v.get("own", True)
        if not isinstance(own, bool):
            sink.add(v, "own", where, "destroy-own")
            return None
        return Destroy(piece=None, own=own, card=v.get("card"),
                       state=PieceState(state) if state else None)
    sink.add(obj, "destroy", where, "destroy-value")
    return None


# ------------------------------------------------------------ effects.yaml ----
_ITEM_KEYS = {"card", "ability", "timing", "choose", "condition", "cost", "effect", "source", "quote", "note"}


def _item_type_problem(it: dict) -> str | None:
    """The key of the first top-level value of an effects item with the wrong type."""
    def strs(v):
        return isinstance(v, str) or (isinstance(v, list) and bool(v) and all(isinstance(x, str) for x in v))

    # the expected form of each key is worded by the template (effects-value-form)
    checks = (("card", lambda v: isinstance(v, str)),
              ("ability", lambda v: v is None or isinstance(v, str)),
              ("timing", lambda v: isinstance(v, str)),
              ("cost", lambda v: v is None or isinstance(v, list)),
              ("effect", lambda v: v is None or isinstance(v, list)),
              ("source", strs),
              ("quote", strs))
    for key, ok in checks:
        if key in it and not ok(it[key]):
            return key
    return None


def effects_of(corpus) -> dict:
    """The corpus's card effects (cards/effects.yaml of its data tree, read by the data layer:
    `corpus.effects_document`), validated against its cards once per corpus: {(card, ability): EffectDef}.
    No file means no effect is known."""
    got = corpus.__dict__.get("_effects")
    if got is None:
        doc, display = corpus.effects_document()
        got = corpus.__dict__["_effects"] = {} if doc is None else parse_effects(doc, corpus, display)
    return got


def parse_effects(doc, corpus, display: str) -> dict[tuple[str, str | None], EffectDef]:
    """Validate the document of cards/effects.yaml (read by the data layer:
    `corpus.read_effects`; see effects_of) against the card database.

    Returns {(card, ability): EffectDef}; ability is None for a special card's own
    effect. Raises DataError naming `display` (the file) and the line."""
    sink = _Sink(display)
    out: dict[tuple[str, str | None], EffectDef] = {}
    if doc is None:
        doc = {"effects": []}
    if not isinstance(doc, dict) or set(doc) - {"effects"}:
        raise DataError([Problem(display, _line(doc), None, code="effects-top-key")])
    items = doc.get("effects") or []
    if not isinstance(items, list):
        raise DataError([Problem(display, _line(doc, "effects"), "effects", code="effects-not-list")])
    for i, it in enumerate(items):
        where = f"effects[{i}]"
        if not isinstance(it, dict):
            sink.add(None, None, where, "effects-item-not-mapping")
            continue
        bad = set(it) - _ITEM_KEYS
        if bad:
            sink.add(it, sorted(bad)[0], where, "effects-unknown-key", extra=sorted(bad),
                     allowed=sorted(_ITEM_KEYS))
            continue
        for req in ("card", "ability", "timing", "effect", "source", "quote"):
            if req not in it:
                sink.add(it, None, where, "required-key", key=req)
        if sink.problems and sink.problems[-1].key == where and sink.problems[-1].code == "required-key":
            continue
        bad_type = _item_type_problem(it)
        if bad_type is not None:
            key = bad_type
            sink.add(it, key, f"{where}.{key}", "effects-value-form", key=key)
            continue
        card = it["card"]
        ability = it["ability"]
        c = corpus.cards.get(card)
        if c is None:
            from difflib import get_close_matches

            near = get_close_matches(str(card), list(corpus.cards), n=3, cutoff=0.4)
            sink.add(it, "card", f"{where}.card", "effects-unknown-card", card=str(card), near=near)
            continue
        names = [a["name"] for a in c["abilities"]]
        if ability is None:
            if c["type"] != "special":
                sink.add(it, "ability", f"{where}.ability", "effects-ability-required", card=str(card), abilities=names)
                continue
        elif ability not in names:
            sink.add(it, "ability", f"{where}.ability", "effects-unknown-ability", card=card, ability=str(ability),
                     abilities=names)
            continue
        if it["timing"] not in TIMINGS:
            sink.add(it, "timing", f"{where}.timing", "effects-unknown-timing", timing=it["timing"], timings=list(TIMINGS))
            continue
        choose = it.get("choose", "none")
        if choose in (None, "none"):
            choose = {}
        if not isinstance(choose, dict) or set(choose) - {"target", "cell", "cost"}:
            sink.add(it, "choose", f"{where}.choose", "effects-choose")
            continue
        if "target" in choose and choose["target"] not in CHOOSE_TARGET:
            sink.add(it, "choose", f"{where}.choose.target", "effects-choose-target", options=list(CHOOSE_TARGET))
            continue
        if "cell" in choose and choose["cell"] not in CHOOSE_CELL:
            sink.add(it, "choose", f"{where}.choose.cell", "effects-choose-cell", options=list(CHOOSE_CELL))
            continue
        cond = it.get("condition") or {}
        if not isinstance(cond, dict) or set(cond) - {"role"} or cond.get("role", "attacker") not in ("attacker", "defender"):
            sink.add(it, "condition", f"{where}.condition", "effects-condition")
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
                sink.add(it, "source", f"{where}.source", "effects-source", source=s)
        quote = it["quote"] if isinstance(it["quote"], list) else [it["quote"]]
        if not all(isinstance(q, str) and q for q in quote):
            sink.add(it, "quote", f"{where}.quote", "effects-quote")
            continue
        k = (card, ability)
        if k in out:
            sink.add(it, "card", where, "effects-duplicate", card=card, ability=ability)
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
