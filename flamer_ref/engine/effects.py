"""Card effects as data: `EffectDef` (one card's effect: timing, choices, condition, costs and its
primitives), the validation of cards/effects.yaml (read by the data layer, `corpus.effects_document`;
effects_of) and `find`. The primitives themselves — one module each, with their parsing, application and
description — are engine/primitives/ (re-exported here: `Flip`, `Move`, `Attack`, `Buff`, `Build`,
`Destroy`, `parse_effect_list`, `parse_destroy`, the placeholders).

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
from typing import Mapping

from ..errors import DataError, Problem
from ..errors import line_of as _line
from .primitives import (BONDED, CHOSEN, PLACEHOLDERS, SELF, TARGET, Destroy, Primitive,  # noqa: F401 - re-exported
                         parse_destroy, parse_effect_list, parse_primitive)
from .primitives.attack import Attack  # noqa: F401 - re-exported
from .primitives.buff import Buff  # noqa: F401
from .primitives.build import Build  # noqa: F401
from .primitives.flip import Flip  # noqa: F401
from .primitives.move import Move  # noqa: F401

TIMINGS = ("대응", "전투", "이동", "등장")
CHOOSE_TARGET = ("own-settled-piece", "own-piece", "piece")
CHOOSE_CELL = ("encounter-cell", "cell")


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
class ProblemSink:
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
    sink = ProblemSink(display)
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
        edef = _effect_item(it, where, corpus, sink)
        if edef is None:
            continue
        if (edef.card, edef.ability) in out:
            sink.add(it, "card", where, "effects-duplicate", card=edef.card, ability=edef.ability)
            continue
        out[(edef.card, edef.ability)] = edef
    if sink.problems:
        raise DataError(sink.problems)
    return out


def _effect_item(it, where: str, corpus, sink) -> EffectDef | None:
    """One item of cards/effects.yaml, or None after its problem."""
    if not _item_shape_ok(it, where, sink) or not _item_card_ok(it, where, corpus, sink):
        return None
    if it["timing"] not in TIMINGS:
        sink.add(it, "timing", f"{where}.timing", "effects-unknown-timing", timing=it["timing"], timings=list(TIMINGS))
        return None
    chosen = _item_choices(it, where, sink)
    if chosen is None:
        return None
    choose, cond = chosen
    costs = []
    for j, co in enumerate(it.get("cost") or []):
        d = parse_destroy(co, f"{where}.cost[{j}]", sink)
        if d is not None:
            costs.append(d)
    effect = None
    if it["effect"] is not None:
        effect = parse_effect_list(it["effect"], f"{where}.effect", sink)
        if effect is None:
            return None
    src = it["source"] if isinstance(it["source"], list) else [it["source"]]
    for s in src:
        if s not in corpus.sources:
            sink.add(it, "source", f"{where}.source", "effects-source", source=s)
    quote = it["quote"] if isinstance(it["quote"], list) else [it["quote"]]
    if not all(isinstance(q, str) and q for q in quote):
        sink.add(it, "quote", f"{where}.quote", "effects-quote")
        return None
    return EffectDef(card=it["card"], ability=it["ability"], timing=it["timing"], choose=dict(choose),
                     condition=dict(cond), cost=tuple(costs), effect=effect, source=tuple(src),
                     quote=tuple(quote), line=_line(it))


def _item_shape_ok(it, where: str, sink) -> bool:
    """A mapping with the known keys, the required ones, each of its form."""
    if not isinstance(it, dict):
        sink.add(None, None, where, "effects-item-not-mapping")
        return False
    bad = set(it) - _ITEM_KEYS
    if bad:
        sink.add(it, sorted(bad)[0], where, "effects-unknown-key", extra=sorted(bad),
                 allowed=sorted(_ITEM_KEYS))
        return False
    for req in ("card", "ability", "timing", "effect", "source", "quote"):
        if req not in it:
            sink.add(it, None, where, "required-key", key=req)
    if sink.problems and sink.problems[-1].key == where and sink.problems[-1].code == "required-key":
        return False
    bad_type = _item_type_problem(it)
    if bad_type is not None:
        sink.add(it, bad_type, f"{where}.{bad_type}", "effects-value-form", key=bad_type)
        return False
    return True


def _item_card_ok(it, where: str, corpus, sink) -> bool:
    """The card is in the card data, and the ability one of its own (none: a special card's own effect)."""
    card = it["card"]
    ability = it["ability"]
    c = corpus.cards.get(card)
    if c is None:
        from difflib import get_close_matches

        near = get_close_matches(str(card), list(corpus.cards), n=3, cutoff=0.4)
        sink.add(it, "card", f"{where}.card", "effects-unknown-card", card=str(card), near=near)
        return False
    names = [a["name"] for a in c["abilities"]]
    if ability is None:
        if c["type"] != "special":
            sink.add(it, "ability", f"{where}.ability", "effects-ability-required", card=str(card), abilities=names)
            return False
    elif ability not in names:
        sink.add(it, "ability", f"{where}.ability", "effects-unknown-ability", card=card, ability=str(ability),
                 abilities=names)
        return False
    return True


def _item_choices(it, where: str, sink) -> tuple[dict, dict] | None:
    """(choose, condition): what the player chooses when declaring, and when it fires."""
    choose = it.get("choose", "none")
    if choose in (None, "none"):
        choose = {}
    if not isinstance(choose, dict) or set(choose) - {"target", "cell", "cost"}:
        sink.add(it, "choose", f"{where}.choose", "effects-choose")
        return None
    if "target" in choose and choose["target"] not in CHOOSE_TARGET:
        sink.add(it, "choose", f"{where}.choose.target", "effects-choose-target", options=list(CHOOSE_TARGET))
        return None
    if "cell" in choose and choose["cell"] not in CHOOSE_CELL:
        sink.add(it, "choose", f"{where}.choose.cell", "effects-choose-cell", options=list(CHOOSE_CELL))
        return None
    cond = it.get("condition") or {}
    if not isinstance(cond, dict) or set(cond) - {"role"} or cond.get("role", "attacker") not in ("attacker", "defender"):
        sink.add(it, "condition", f"{where}.condition", "effects-condition")
        return None
    return choose, cond


def find(effects: Mapping, card: str, ability: str | None) -> EffectDef | None:
    hit = effects.get((card, ability))
    if hit is None and ability is not None and ability == card:
        hit = effects.get((card, None))
    return hit
