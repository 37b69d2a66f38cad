"""Parse and validate a scenario file (the format: docs/SCENARIOS.md).

`parse_text(text, file, corpus)` / `parse(obj, file, corpus)` (files: scenario_files.load_scenario)
return a frozen `Scenario`. Everything that can be checked from the file alone is
checked here; what depends on the date in force or on the board at each
declaration (맞대응 cells, costs, the 3/6 limit for move effects …) is checked by
the engine while it replays the declarations, and reported the same way: a
`DataError` whose Korean message names the file, the YAML line and the field.

Korean keys and values are translated first by `aliases.normalize` (one layer
for every kind); card names are corrected as `flamer card` corrects them, and
each correction becomes a notice (`Scenario.notices`, `notice_lines`), never a
silent change.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from types import MappingProxyType
from difflib import get_close_matches
from typing import Any, ClassVar, Mapping

from ..errors import Ambiguous, BadInput, DataError, NotFound, Problem
from ..errors import line_of as _line
from . import aliases
from .effects import Destroy, ProblemSink, parse_destroy, parse_effect_list
from .pieces import Declaration, PieceSpec, Slot, cell_sort_key  # noqa: F401 - re-exported
from .types import (CELL_LIMIT, MAX_DECLARATIONS, MAX_EFFECT_ITEMS, MAX_SCENARIO_CELLS, SIDE_LIMIT, STAT_MIN, Kind,
                    PieceState, stat_in_range)

KINDS = tuple(k.value for k in Kind)
#: kinds of the scenario contract that this version cannot resolve yet (a clear error, not 'unknown kind')
PLANNED_KINDS: tuple[str, ...] = ()
PIECE_KEYS = ("id", "card", "name", "lv", "hp", "atk", "cost", "state", "structure")
RESPONSE_KEYS = ("side", "card", "ability", "piece", "effect", "target", "cell", "cost")
BATTLE_KEYS = ("side", "cell", "card", "effect", "target")
COMBAT_KEYS = ("kind", "title", "as_of", "attacker", "board", "field", "cells", "response", "combat_order",
               "battle_cards")


# ------------------------------------------------------------------ model ----
class ScenarioBase:
    """What every parsed scenario of every kind has (this module's `Scenario` for combat;
    `model.MoveScenario`, `VictoryScenario`, `FieldScenario`, `RoundScenario`): `kind`, `title`,
    `as_of`, `file` and `notices`. Callers dispatch on `kind`. `scn["key"]` reads the attribute
    (read-only, for callers written when the other kinds were dicts)."""

    kind: ClassVar[str]
    title: str | None
    as_of: str | None
    file: str
    notices: tuple[dict, ...]

    def __getitem__(self, key: str):
        try:
            return getattr(self, key)
        except AttributeError:
            raise KeyError(key) from None

    def get(self, key: str, default=None):
        return getattr(self, key, default)


@dataclass(frozen=True)
class Scenario(ScenarioBase):
    kind: str
    title: str | None
    as_of: str | None
    attacker: str
    defender: str
    field: Mapping[str, tuple[Slot | None, ...]] | None
    cells: tuple[str, ...]
    pieces: tuple[PieceSpec, ...]
    response: tuple[Declaration, ...]
    battle_cards: tuple[Declaration, ...]
    combat_order: tuple[str, ...] | None
    file: str
    lines: Mapping[str, int | None] = field(default_factory=dict)
    #: card names read as another name (see `notice_lines`): {file, line, key, written, card}
    notices: tuple[dict, ...] = ()
    #: the board, for the reach of a remote (전투) SP (봉수장 지원사격 '2셀 이내'): the file's `board`,
    #: else the example board when a remote SP piece stands outside the encounter cells (board_assumed)
    board: Any = None
    board_assumed: bool = False
    #: {side: card names} whose kind limit is used up (field.kind-exhausted): the card leaves the field
    #: when its last piece leaves the board — a round passes it; a combat file has none
    exhausted: Mapping[str, tuple[str, ...]] | None = None

    @property
    def sides(self) -> tuple[str, str]:
        return (self.attacker, self.defender)

    def piece(self, pid: str) -> PieceSpec | None:
        for p in self.pieces:
            if p.id == pid:
                return p
        return None

    def error(self, key: str | None, code: str, /, line: int | None = None, **params) -> DataError:
        """An invalid scenario at `key`: a problem code and its data (worded later, by templates)."""
        return DataError([Problem(self.file, line if line is not None else self.lines.get(key or ""), key,
                                  code=code, params=params)])


# ---------------------------------------------------------------- helpers ----
def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def normalize_cell(v) -> str | None:
    if isinstance(v, str) and v.strip():
        return v.replace(" ", "")
    if isinstance(v, (list, tuple)) and len(v) == 2 and all(_is_int(x) for x in v):
        return f"{v[0]},{v[1]}"
    return None


def card_names(corpus) -> dict[str, str]:
    """name or alias → card name."""
    out = {}
    for name, c in corpus.cards.items():
        out[name] = name
        for a in c.get("aliases") or []:
            out.setdefault(a, name)
    return out


def suggest_cards(corpus, word: str, n: int = 3) -> list[str]:
    names = card_names(corpus)
    key = str(word).replace(" ", "")
    squashed = {k.replace(" ", ""): v for k, v in names.items()}
    hits = get_close_matches(key, list(squashed), n=n * 2, cutoff=0.34)
    out = []
    for h in hits:
        if squashed[h] not in out:
            out.append(squashed[h])
    if not out:  # a shared syllable is better than nothing
        out = [v for k, v in squashed.items() if set(k) & set(key)][:n]
    return out[:n]


class ScenarioSink(ProblemSink):
    """A problem sink that also collects the card-name corrections to tell the user about."""

    def __init__(self, file: str):
        super().__init__(file)
        self.notices: list[dict] = []


def resolve_card(corpus, name, sink: ProblemSink, obj, key: str, where: str, pieces_only: bool = False,
                 label: str | None = None, slot: int | None = None) -> str | None:
    """A card name as written → the card's name, corrected as `flamer card` corrects it.

    An exact name or alias is taken as it is; any other reading is recorded as a notice on the
    sink (never silent). An unknown name or one that fits several cards is a problem on the sink
    (the candidates in the fix). `pieces_only`: where only a piece card can stand, only piece
    cards are candidates for a correction (an exact special card's name is still reported by
    the caller). `label` (the key as shown) and `slot` (a field slot, 1–5) place the notice."""
    if not isinstance(name, str) or not name.strip():
        sink.add(obj, key, where, "card-name-not-text")
        return None
    names = getattr(sink, "card_names", None)  # built once per parse (a file may name 16,000 cards)
    if names is None:
        names = card_names(corpus)
        try:
            sink.card_names = names
        except AttributeError:  # pragma: no cover - a sink with __slots__
            pass
    if name in names:
        return names[name]
    from ..names import resolve_name

    pool = {k: v for k, v in names.items() if not pieces_only or corpus.cards[v]["type"] == "piece"}
    shown = label or aliases.shown_key(obj, key)
    try:
        card, _corrected = resolve_name(name, pool, "카드")
    except Ambiguous as exc:
        cands = [c for c, _ in exc.candidates]
        sink.add(obj, key, where, "card-ambiguous", name=name, candidates=cands)
        return None
    except (NotFound, BadInput):
        sink.add(obj, key, where, "unknown-card", name=name, near=list(suggest_cards(corpus, name)),
                 pieces_only=pieces_only)
        return None
    notices = getattr(sink, "notices", None)
    if notices is not None:
        notices.append({"file": sink.file, "line": _line(obj, key), "key": shown, "slot": slot, "written": name,
                        "card": card})
    return card


def _near_key(written: str, spellings: list[str]) -> list[str]:
    """The closest allowed spelling of a key, compared letter by letter (Korean by jamo: 제묵 ~ 제목)."""
    from ..korean import jamo

    by_jamo = {jamo(k): k for k in spellings}
    near = get_close_matches(jamo(written), list(by_jamo), n=1, cutoff=0.6)
    return [by_jamo[near[0]]] if near else []


def unknown_keys(sink: ProblemSink, obj: dict, allowed, where: str) -> bool:
    """Report every key of obj that is not allowed, as written, with Korean aliases in the fix."""
    ok = True
    ctx = getattr(obj, "alias_ctx", None)
    if all(k in allowed for k in obj):  # the common case: nothing to report, no suggestions to build
        return ok
    spellings = aliases.alias_candidates(ctx, allowed)
    listing = aliases.allowed_text(ctx, allowed)
    for k in obj:
        if k not in allowed:
            shown = aliases.shown_key(obj, k)
            near = _near_key(str(shown), list(spellings))
            guess = near[0] if near else None  # the nearest allowed spelling (and its canonical key)
            canonical = spellings[guess] if guess is not None and guess != spellings[guess] else None
            code = ("key-not-here" if k != shown or k in (aliases.CANONICAL.get(ctx or "", ()))
                    else "unknown-key")
            sink.add(obj, k, f"{where}.{k}" if where else str(k), code, key=k, shown=shown, renamed=k != shown,
                     guess=guess, guess_canonical=canonical, listing=listing)
            ok = False
    return ok


# ----------------------------------------------------------------- entry ----
def parse_text(text: str, file: str, corpus) -> Scenario:
    from ..yamlio import parse_text as yparse

    return parse(yparse(text, file), file, corpus)


def check_kind(doc: Any, file: str) -> str:
    """The scenario's kind (canonical), or a DataError naming the file and line; a kind of the
    contract that this version cannot resolve yet (round) is a FlamerError saying so."""
    if not isinstance(doc, dict):
        raise DataError([Problem(file, _line(doc), None, code="scenario-not-mapping")])
    kinds = {"kinds": list(KINDS), "kinds_ko": {k: aliases.KIND_KO[k] for k in KINDS}}
    kind = doc.get("kind")
    if kind is None:
        raise DataError([Problem(file, _line(doc), "kind", code="kind-missing", params=kinds)])
    if not isinstance(kind, str):
        form = "list" if isinstance(kind, list) else "mapping" if isinstance(kind, dict) else None
        raise DataError([Problem(file, _line(doc, "kind"), aliases.shown_key(doc, "kind"), code="kind-not-name",
                                 params={**kinds, "form": form, "kind": kind})])
    if kind in PLANNED_KINDS:
        raise DataError([Problem(file, _line(doc, "kind"), "kind", code="kind-planned",
                                 params={**kinds, "kind": kind, "kind_ko": aliases.KIND_KO.get(kind, kind)})])
    if kind not in KINDS:
        written = aliases.shown_key(doc, "kind")
        raise DataError([Problem(file, _line(doc, "kind"), written, code="kind-unknown", params={**kinds, "kind": kind})])
    return kind


def parse(doc: Any, file: str, corpus) -> Scenario:
    """Validate a scenario object (from YAML or a corpus example) of kind combat.
    Korean keys and values are accepted (aliases.normalize); problems name keys as written."""
    doc = aliases.normalize(doc, file)
    try:
        return _parse(doc, file, corpus)
    except DataError as exc:
        raise aliases.rewrite_problems(exc, doc) from None


def _parse(doc: Any, file: str, corpus) -> Scenario:
    sink = ScenarioSink(file)
    kind = check_kind(doc, file)
    if kind != "combat":
        raise DataError([Problem(file, _line(doc, "kind"), "kind", code="kind-not-combat", params={"kind": kind})])
    unknown_keys(sink, doc, COMBAT_KEYS, "")
    lines: dict[str, int | None] = {k: _line(doc, k) for k in doc}

    title = doc.get("title")
    if title is not None and not isinstance(title, str):
        sink.add(doc, "title", "title", "title-not-text")
    as_of = parse_as_of(doc, sink)

    # ----- cells and pieces
    cells, pieces, side_order = parse_cells(doc, sink, corpus)
    if doc.get("board") is None:
        _coordinate_cells(doc, sink)

    # ----- sides
    field_obj = doc.get("field")
    if isinstance(field_obj, dict):
        for side in field_obj:
            if isinstance(side, str) and side not in side_order:
                side_order.append(side)
    attacker, defender = _combat_sides(doc, sink, side_order)

    # ----- field
    fld = _combat_field(doc, sink, corpus, field_obj)

    # ----- response and battle cards
    response = battle = ()
    if declarations_bounded(sink, doc):
        response = tuple(parse_declarations(corpus, sink, doc, "response", RESPONSE_KEYS, side_order))
        battle = tuple(parse_declarations(corpus, sink, doc, "battle_cards", BATTLE_KEYS, side_order))

    # ----- combat order
    order = parse_combat_order(doc, sink)
    if sink.problems:
        raise DataError(sink.problems)

    # piece references in declarations
    problems = declaration_ref_problems(file, response + battle, {p.id for p in pieces})
    if problems:
        raise DataError(problems)
    check_response_order(response, attacker, defender, file, corpus)
    board, board_assumed = _combat_board(doc, file, pieces, corpus)
    return Scenario(kind=kind, title=title, as_of=as_of, attacker=attacker, defender=defender,
                    field=None if fld is None else MappingProxyType(dict(fld)),
                    cells=tuple(cells), pieces=tuple(pieces), response=response, battle_cards=battle,
                    combat_order=order, file=file, lines=MappingProxyType(dict(lines)), notices=tuple(sink.notices),
                    board=board,
                    board_assumed=board_assumed)

def _combat_sides(doc: dict, sink, side_order: list) -> tuple[str, str]:
    """(attacker, defender): the attacker named, the defender the other side of the file ("" when wrong)."""
    attacker = doc.get("attacker")
    defender = ""
    if attacker is None:
        sink.add(doc, None, "attacker", "attacker-missing")
        attacker = ""
    elif not isinstance(attacker, str) or (side_order and attacker not in side_order):
        sink.add(doc, "attacker", "attacker", "attacker-not-side", attacker=attacker, sides=list(side_order))
        attacker = ""
    if len(side_order) > 2:
        sink.add(doc, "cells", "cells", "too-many-sides", sides=list(side_order))
    elif attacker:
        others = [s for s in side_order if s != attacker]
        if not others:
            sink.add(doc, "cells", "cells", "one-side", attacker=attacker)
        else:
            defender = others[0]
    return attacker, defender


def _combat_field(doc: dict, sink, corpus, field_obj) -> dict[str, tuple[Slot | None, ...]] | None:
    """A combat's `field`: per side five slots, a card face up, set face down ({set: card}) or a stack."""
    fld: dict[str, tuple[Slot | None, ...]] | None = None
    if field_obj is not None:
        if not isinstance(field_obj, dict):
            sink.add(doc, "field", "field", "field-not-mapping")
        else:
            fld = {}
            for side, slots in field_obj.items():
                fwhere = f"field.{side}"
                if not side_code_ok(sink, field_obj, side, fwhere):
                    continue
                if not isinstance(slots, list) or len(slots) != 5:
                    sink.add(field_obj, side, fwhere, "field-not-five")
                    continue
                fld[side] = _field_row(doc, sink, corpus, field_obj, side, slots, fwhere)
    return fld


def _field_row(doc: dict, sink, corpus, field_obj: dict, side: str, slots: list, fwhere: str) -> tuple:
    """One side's five slots, each None, a Slot, or the top Slot of a stack (its `under` the covered cards)."""
    row: list[Slot | None] = []

    def one(s, holder, hkey, swhere, j, under):
        face_up = True
        name = s
        if isinstance(s, dict):
            if set(s) != {"set"}:
                sink.add(s, None, swhere, "slot-value")
                return None
            face_up, name = False, s["set"]
        elif isinstance(s, list):
            sink.add(holder, hkey, swhere, "slot-value")
            return None
        card = resolve_card(corpus, name, sink, holder if not isinstance(s, dict) else s,
                            hkey if not isinstance(s, dict) else "set", swhere,
                            label=f"{aliases.shown_key(doc, 'field')} {side}", slot=j + 1)
        return Slot(card, face_up, corpus.cards[card]["type"], under=under) if card else None

    for j, s in enumerate(slots):
        swhere = f"{fwhere}[{j}]"
        if s is None:
            row.append(None)
            continue
        if isinstance(s, list):  # a stack, top first (엎어 세트): the covered cards come back in turn
            slot = None
            for k in range(len(s) - 1, -1, -1):
                slot = one(s[k], field_obj, side, f"{swhere}[{k}]", j, slot)
            if not s:
                sink.add(slots, j, swhere, "slot-value")
            row.append(slot)
            continue
        row.append(one(s, field_obj, side, swhere, j, None))
    return tuple(row)


def _coordinate_cells(doc: dict, sink: ProblemSink) -> None:
    """Without a `board` a combat's cells are the coordinates of the default board ("2,4"): a key
    that names no coordinates ("2,x") is refused (cell-not-coordinates), not taken as a cell of its
    own. A scenario with a `board` names its cells as that board does (X, Y …)."""
    from .board import parse_cell

    cells_obj = doc.get("cells")
    if not isinstance(cells_obj, dict) or len(cells_obj) > MAX_SCENARIO_CELLS:
        return  # parse_cells has reported it
    for raw in cells_obj:
        if normalize_cell(raw) is not None and parse_cell(raw) is None:
            sink.add(cells_obj, raw, f"cells.{raw}", "cell-not-coordinates", cell=raw)


def _combat_board(doc: dict, file: str, pieces, corpus):
    """A combat needs a board only for the reach of a remote (전투) SP (combat.remote): the file's
    `board`, else — when a piece with such an SP stands in a cell that is no encounter — the example
    board (rules/boards/example.yaml, not the official map; the result says so in `assumed`)."""
    from .board import BoardError, board_from_spec, example_board_of
    from .cards import REMOTE_SP

    spec = doc.get("board")
    assumed = False
    if spec is None:
        remote_cards = {c for c, _ in REMOTE_SP}
        sides_at: dict[str, set] = {}
        for p in pieces:
            sides_at.setdefault(p.cell, set()).add(p.side)
        if not any(p.card in remote_cards and len(sides_at[p.cell]) < 2 for p in pieces):
            return None, False
        spec, assumed = example_board_of(corpus), True  # read by the data layer (corpus.read_example_board)
    try:
        return board_from_spec(spec), assumed
    except BoardError as exc:
        raise DataError([exc.problem(file, _line(doc, "board"))]) from None


def check_response_order(response, attacker: str, defender: str, file: str, corpus) -> None:
    """The response turn's order of declarations (response.opener, response.declare.order):
    a play the rules forbid raises errors.Forbidden."""
    if response and attacker and response[0].side == attacker:  # a play the rules forbid, not bad input
        from ..errors import Forbidden

        raise Forbidden("opener-attacker", "response.opener", file=file, line=response[0].line_of("side"),
                        key="response[0].side", detail={"side": attacker, "defender": defender},
                        refs={"response.opener": corpus.clauses["response.opener"]["title"]}
                        if "response.opener" in corpus.clauses else None)
    for prev, item in zip(response, response[1:]):
        # consecutive items of one side mean the other side passed in between; the turn player may only
        # answer a defender's declaration (response.declare.order), so two of its items in a row are refused
        if attacker and prev.side == attacker and item.side == attacker:
            from ..errors import Forbidden

            raise Forbidden("counter-after-pass", "response.declare.order", file=file, line=item.line_of("side"),
                            key=f"{item.where}.side", detail={"side": attacker, "defender": defender,
                                                              "index": item.index},
                            refs={"response.declare.order": corpus.clauses["response.declare.order"]["title"]}
                            if "response.declare.order" in corpus.clauses else None)


def side_code_ok(sink: ProblemSink, obj: dict, side, where: str) -> bool:
    """A side code used as a key (field, homes, vp) must be text, like the codes in cells."""
    if isinstance(side, str) and side.strip():
        return True
    sink.add(obj, side, where, "side-code-not-text", side=side)
    return False


def parse_combat_order(doc: dict, sink) -> tuple[str, ...] | None:
    """`combat_order`: the attacker's order of the combat cells, each once (problems go to sink)."""
    co = doc.get("combat_order")
    if co is None:
        return None
    if not isinstance(co, list) or not co:
        sink.add(doc, "combat_order", "combat_order", "combat-order-not-list")
        return None
    order: list[str] = []
    for i, c in enumerate(co):
        cc = normalize_cell(c)
        if cc is None:
            sink.add(doc, "combat_order", f"combat_order[{i}]", "combat-order-cell", cell=c)
        elif cc in order:
            sink.add(doc, "combat_order", f"combat_order[{i}]", "combat-order-twice", cell=cc)
        else:
            order.append(cc)
    return tuple(order)


def declaration_ref_problems(file: str, declarations, ids: set[str]) -> list[Problem]:
    """Every piece id a declaration names (target, declaring piece, costs, effect pieces) that is not
    among `ids`, with the nearest ids as the fix."""
    problems = []
    for d in declarations:
        refs = [("target", d.target), ("piece", d.piece)]
        refs += [(f"cost[{j}]", c.piece) for j, c in enumerate(d.cost) if c.piece not in (None, "self")]
        for prim in d.effect or ():
            ref = getattr(prim, "piece", None)
            if ref is not None and ref not in ("target", "self", "bonded"):
                refs.append(("effect", ref))
        for key, ref in refs:
            if ref is not None and ref not in ids:
                near = get_close_matches(ref, list(ids), n=3, cutoff=0.4)
                problems.append(Problem(file, d.line_of(key.split("[")[0]), f"{d.where}.{key}",
                                        code="unknown-piece-id", params={"id": ref, "near": near}))
    return problems


def parse_as_of(doc: dict, sink: ProblemSink) -> str | None:
    """The scenario's `as_of` (YYYY-MM-DD), or None; a bad date goes to `sink`."""
    as_of = doc.get("as_of")
    if as_of is None:
        return None
    from ..dates import is_date
    from ..digits import fold

    as_of = fold(str(as_of))  # ２０２６-０９-２３ as a Korean IME types it is that date, as on the command line
    if not is_date(as_of):
        sink.add(doc, "as_of", "as_of", "as-of-bad", as_of=as_of)
        return None
    return as_of


def parse_cells(doc: dict, sink: ProblemSink, corpus) -> tuple[list[str], list[PieceSpec], list[str]]:
    """The `cells` map of any scenario kind → (cells, pieces, sides in order of appearance).
    Problems go to `sink`: per-side (3) and per-cell (6) limits, piece keys, unknown cards."""
    cells_obj = doc.get("cells")
    cells: list[str] = []
    cell_set: set[str] = set()
    pieces: list[PieceSpec] = []
    side_order: list[str] = []
    if not isinstance(cells_obj, dict) or not cells_obj:
        sink.add(doc, "cells" if "cells" in doc else None, "cells", "cells-missing" if not cells_obj else "cells-not-mapping")
    elif len(cells_obj) > MAX_SCENARIO_CELLS:
        sink.add(doc, "cells", "cells", "cells-too-many", count=len(cells_obj), limit=MAX_SCENARIO_CELLS)
        for by_side in cells_obj.values():  # the sides still, so no second, cascading error follows
            for side in by_side if isinstance(by_side, dict) else ():
                if isinstance(side, str) and side not in side_order:
                    side_order.append(side)
    else:
        seen_ids: dict[str, int | None] = {}
        auto: list[tuple[int, str, str]] = []  # (index in pieces, side, base label) for pieces without id
        for raw_cell, by_side in cells_obj.items():
            cell = normalize_cell(raw_cell)
            cwhere = f"cells.{raw_cell}"
            if cell is None:
                sink.add(cells_obj, raw_cell, cwhere, "cell-key-bad", cell=raw_cell)
                continue
            if cell in cell_set:
                sink.add(cells_obj, raw_cell, cwhere, "cell-twice", cell=cell)
                continue
            cells.append(cell)
            cell_set.add(cell)
            if not isinstance(by_side, dict):
                sink.add(cells_obj, raw_cell, cwhere, "cell-value")
                continue
            total = 0
            for side, plist in by_side.items():
                swhere = f"{cwhere}.{side}"
                if not isinstance(side, str) or not side.strip():
                    sink.add(by_side, side, swhere, "cell-side-not-text", side=side)
                    continue
                if side not in side_order:
                    side_order.append(side)
                if plist is None:
                    plist = []
                if not isinstance(plist, list):
                    sink.add(by_side, side, swhere, "piece-list")
                    continue
                if len(plist) > SIDE_LIMIT:
                    sink.add(by_side, side, swhere, "side-limit", cell=cell, side=side, count=len(plist), limit=SIDE_LIMIT)
                total += len(plist)
                for i, p in enumerate(plist):
                    spec = _piece(corpus, sink, p, f"{swhere}[{i}]", side, cell, len(pieces))
                    if spec is None:
                        continue
                    if spec.id in seen_ids:
                        sink.add(p, "id", f"{swhere}[{i}].id", "duplicate-id", id=spec.id, first_line=seen_ids[spec.id])
                        continue
                    if spec.id:
                        seen_ids[spec.id] = spec.line
                    else:
                        auto.append((len(pieces), side, spec.label))
                    pieces.append(spec)
            if total > CELL_LIMIT:
                sink.add(cells_obj, raw_cell, cwhere, "cell-limit", cell=cell, count=total, limit=CELL_LIMIT)
        # stable ids for pieces without one: SIDE-LABEL-n in file order
        counters: dict[str, int] = {}
        for idx, side, label in auto:
            base = f"{side}-{label}"
            while True:
                counters[base] = counters.get(base, 0) + 1
                cand = f"{base}-{counters[base]}"
                if cand not in seen_ids:
                    break
            seen_ids[cand] = pieces[idx].line
            p = pieces[idx]
            pieces[idx] = replace(p, id=cand)

    return cells, pieces, side_order


def _piece(corpus, sink: ProblemSink, p, where: str, side: str, cell: str, order: int) -> PieceSpec | None:
    if not isinstance(p, dict):
        sink.add(None, None, where, "piece-not-mapping")
        return None
    if not unknown_keys(sink, p, PIECE_KEYS, where):
        return None
    pid = p.get("id")
    if pid is not None and (not isinstance(pid, (str, int)) or isinstance(pid, bool) or str(pid) == ""):
        sink.add(p, "id", f"{where}.id", "piece-id-not-text")
        return None
    pid = str(pid) if pid is not None else ""
    if ("card" in p) == ("name" in p):
        sink.add(p, None, where, "piece-card-or-name")
        return None
    stats: dict[str, int | None] = {}
    for s in ("lv", "hp", "atk", "cost"):
        v = p.get(s)
        if v is not None and not _is_int(v):
            sink.add(p, s, f"{where}.{s}", "piece-stat-int", shown=aliases.shown_key(p, s), value=v)
            return None
        if v is not None and not stat_in_range(s, v):  # one rule for every kind, the fight line and its prompt
            sink.add(p, s, f"{where}.{s}", "piece-stat-range", shown=aliases.shown_key(p, s), stat=s, value=v,
                     least=STAT_MIN[s])
            return None
        stats[s] = v
    state = p.get("state", "mobile")
    if state not in ("mobile", "settled"):
        sink.add(p, "state", f"{where}.state", "piece-state", state=state)
        return None
    structure = p.get("structure")
    if structure is not None and not isinstance(structure, bool):
        sink.add(p, "structure", f"{where}.structure", "piece-structure")
        return None
    card = name = None
    if "card" in p:
        card = resolve_card(corpus, p["card"], sink, p, "card", f"{where}.card", pieces_only=True)
        if card is None:
            return None
        c = corpus.cards[card]
        if c["type"] != "piece":
            sink.add(p, "card", f"{where}.card", "piece-special-card", card=card)
            return None
        for s in stats:
            if stats[s] is None:
                stats[s] = c.get(s)
        if structure is None:
            structure = bool(c.get("structure"))
    else:
        name = p["name"]
        if not isinstance(name, str) or not name:
            sink.add(p, "name", f"{where}.name", "piece-name-not-text")
            return None
        missing = [s for s in ("lv", "hp", "atk") if stats[s] is None]
        if missing:
            sink.add(p, "name", where, "adhoc-stats-missing", name=name, missing=missing)
            return None
    given = frozenset(s for s in ("lv", "hp", "atk", "cost") if p.get(s) is not None)
    return PieceSpec(id=pid, side=side, cell=cell, card=card, name=name, lv=stats["lv"], hp=stats["hp"],
                     atk=stats["atk"], cost=stats["cost"], state=PieceState(state), structure=bool(structure),
                     order=order, line=_line(p), given=given)


def declarations_bounded(sink: ProblemSink, doc) -> bool:
    """Are the declarations within MAX_DECLARATIONS (response and battle_cards together) and their
    inline effects within MAX_EFFECT_ITEMS items? If not, one problem each, and the caller reads
    none of them (each is checked and resolved one by one: bounded work)."""
    count = effects = 0
    for key in ("response", "battle_cards"):
        items = doc.get(key)
        if not isinstance(items, list):
            continue
        count += len(items)
        for it in items:
            if isinstance(it, dict) and "effect" in it:
                eff = it["effect"]
                effects += len(eff) if isinstance(eff, list) else 1
    ok = True
    if count > MAX_DECLARATIONS:
        key = "response" if "response" in doc else "battle_cards"
        sink.add(doc, key, key, "declarations-too-many", count=count, limit=MAX_DECLARATIONS)
        ok = False
    if effects > MAX_EFFECT_ITEMS:
        key = "response" if "response" in doc else "battle_cards"
        sink.add(doc, key, key, "effect-items-too-many", count=effects, limit=MAX_EFFECT_ITEMS)
        ok = False
    return ok


def parse_declarations(corpus, sink: ProblemSink, doc, key: str, allowed, sides) -> list[Declaration]:
    items = doc.get(key)
    if items is None:
        return []
    if not isinstance(items, list):
        sink.add(doc, key, key, "declarations-not-list", key=key)
        return []
    out = []
    for i, it in enumerate(items):
        where = f"{key}[{i}]"
        if not isinstance(it, dict):
            sink.add(None, None, where, "declaration-not-mapping")
            continue
        if not unknown_keys(sink, it, allowed, where):
            continue
        side = it.get("side")
        if side is None:
            sink.add(it, None, where, "declaration-no-side")
            continue
        if side not in sides:
            sink.add(it, "side", f"{where}.side", "declaration-side", side=side, sides=list(sides))
            continue
        card = None
        if "card" in it:
            card = resolve_card(corpus, it["card"], sink, it, "card", f"{where}.card")
            if card is None:
                continue
        ability = it.get("ability")
        if ability is not None and not isinstance(ability, str):
            sink.add(it, "ability", f"{where}.ability", "declaration-ability")
            continue
        effect = None
        if "effect" in it:
            effect = parse_effect_list(it["effect"], f"{where}.effect", sink)
            if effect is None:
                continue
        if card is None and effect is None:
            sink.add(it, None, where, "declaration-empty")
            continue
        costs: list[Destroy] = []
        raw = it.get("cost")
        if raw is not None:
            for j, co in enumerate(raw if isinstance(raw, list) else [raw]):
                d = parse_destroy(co, f"{where}.cost", sink)
                if d is not None:
                    if d.piece is None:
                        sink.add(it, "cost", f"{where}.cost", "declaration-cost")
                        continue
                    costs.append(d)
        cell = None
        if "cell" in it:
            cell = normalize_cell(it["cell"])
            if cell is None:
                sink.add(it, "cell", f"{where}.cell", "declaration-cell", cell=it["cell"])
                continue
        elif key == "battle_cards":
            sink.add(it, None, where, "battle-card-cell")
            continue
        for ref in ("target", "piece"):
            v = it.get(ref)
            if v is not None and not isinstance(v, (str, int)):
                sink.add(it, ref, f"{where}.{ref}", "declaration-ref", ref=ref)
        out.append(Declaration(index=i, side=side, card=card, ability=ability,
                               piece=str(it["piece"]) if it.get("piece") is not None else None,
                               target=str(it["target"]) if it.get("target") is not None else None,
                               cell=cell, cost=tuple(costs), effect=effect, line=_line(it), where=where,
                               lines={k: _line(it, k) for k in it}))
    return out
