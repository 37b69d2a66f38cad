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
from .effects import Destroy, Primitive, _Sink, parse_destroy, parse_effect_list
from .types import CELL_LIMIT, MAX_SCENARIO_CELLS, SIDE_LIMIT, Kind, PieceState

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
class PieceSpec:
    id: str
    side: str
    cell: str
    card: str | None
    name: str | None
    lv: int | None
    hp: int | None
    atk: int | None
    cost: int | None
    state: PieceState
    structure: bool
    order: int  # position in the file (0-based, over the whole file)
    line: int | None
    given: frozenset[str] = frozenset()

    @property
    def label(self) -> str:
        return self.card or self.name or self.id


@dataclass(frozen=True)
class Slot:
    card: str
    face_up: bool
    type: str  # piece | special


@dataclass(frozen=True)
class Declaration:
    """A response-turn item (대응턴) or a step-1 (전투) special card."""

    index: int
    side: str
    card: str | None
    ability: str | None
    piece: str | None  # the declaring piece for a piece's SP
    target: str | None
    cell: str | None
    cost: tuple[Destroy, ...]
    effect: tuple[Primitive, ...] | None  # inline effect
    line: int | None
    where: str
    lines: Mapping[str, int | None] = field(default_factory=dict)

    def line_of(self, key: str) -> int | None:
        return self.lines.get(key) or self.line


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

    @property
    def sides(self) -> tuple[str, str]:
        return (self.attacker, self.defender)

    def piece(self, pid: str) -> PieceSpec | None:
        for p in self.pieces:
            if p.id == pid:
                return p
        return None

    def error(self, key: str | None, message: str, fix: str | None = None, line: int | None = None) -> DataError:
        return DataError([Problem(self.file, line if line is not None else self.lines.get(key or ""), key,
                                  message, fix)])


# ---------------------------------------------------------------- helpers ----
def _q(value, pair: str) -> str:
    """'value' quoted, with the particle of `pair` ('이/가', '을/를' …) chosen by its last syllable."""
    from ..korean import josa

    return josa(f"'{value}'", pair)


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def normalize_cell(v) -> str | None:
    if isinstance(v, str) and v.strip():
        return v.replace(" ", "")
    if isinstance(v, (list, tuple)) and len(v) == 2 and all(_is_int(x) for x in v):
        return f"{v[0]},{v[1]}"
    return None


def cell_sort_key(cell: str):
    parts = cell.split(",")
    try:
        return (0, tuple(int(p) for p in parts), cell)
    except ValueError:
        return (1, (), cell)


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


class ScenarioSink(_Sink):
    """A problem sink that also collects the card-name corrections to tell the user about."""

    def __init__(self, file: str):
        super().__init__(file)
        self.notices: list[dict] = []


def resolve_card(corpus, name, sink: _Sink, obj, key: str, where: str, pieces_only: bool = False,
                 label: str | None = None) -> str | None:
    """A card name as written → the card's name, corrected as `flamer card` corrects it.

    An exact name or alias is taken as it is; any other reading is recorded as a notice on the
    sink (never silent). An unknown name or one that fits several cards is a problem on the sink
    (the candidates in the fix). `pieces_only`: where only a piece card can stand, only piece
    cards are candidates for a correction (an exact special card's name is still reported by
    the caller)."""
    if not isinstance(name, str) or not name.strip():
        sink.add(obj, key, where, "카드 이름은 문자열이어야 합니다.")
        return None
    names = card_names(corpus)
    if name in names:
        return names[name]
    from ..names import resolve_name

    pool = {k: v for k, v in names.items() if not pieces_only or corpus.cards[v]["type"] == "piece"}
    shown = label or aliases.shown_key(obj, key)
    try:
        card, _corrected = resolve_name(name, pool, "카드")
    except Ambiguous as exc:
        cands = [c for c, _ in exc.candidates]
        sink.add(obj, key, where, f"카드 이름 '{name}'에 맞는 카드가 여럿입니다: {', '.join(cands)}.",
                 f"이 중 하나의 이름을 그대로 적으세요: {', '.join(cands)}")
        return None
    except (NotFound, BadInput):
        near = suggest_cards(corpus, name)
        adhoc = ("데이터베이스에 없는 기물이면 card(카드) 대신 name(이름)과 lv, hp, atk를 적으세요" if pieces_only
                 else "flamer cards로 카드 목록을 볼 수 있습니다")
        sink.add(obj, key, where, f"카드 데이터베이스에 {_q(name, '이/가')} 없습니다.",
                 f"비슷한 이름: {', '.join(near)} — 카드 이름을 고치세요. {adhoc}" if near else
                 f"카드 이름을 확인하세요. {adhoc}")
        return None
    notices = getattr(sink, "notices", None)
    if notices is not None:
        notices.append({"file": sink.file, "line": _line(obj, key), "key": shown, "written": name, "card": card})
    return card


def _near_key(written: str, spellings: list[str]) -> list[str]:
    """The closest allowed spelling of a key, compared letter by letter (Korean by jamo: 제묵 ~ 제목)."""
    from ..korean import jamo

    by_jamo = {jamo(k): k for k in spellings}
    near = get_close_matches(jamo(written), list(by_jamo), n=1, cutoff=0.6)
    return [by_jamo[near[0]]] if near else []


def _unknown_keys(sink: _Sink, obj: dict, allowed, where: str) -> bool:
    """Report every key of obj that is not allowed, as written, with Korean aliases in the fix."""
    ok = True
    ctx = getattr(obj, "alias_ctx", None)
    spellings = aliases.alias_candidates(ctx, allowed)
    listing = aliases.allowed_text(ctx, allowed)
    for k in obj:
        if k not in allowed:
            shown = aliases.shown_key(obj, k)
            near = _near_key(str(shown), list(spellings))
            if near and near[0] != spellings[near[0]]:
                guess = f"{near[0]}({spellings[near[0]]})"
            else:
                guess = near[0] if near else None
            if k != shown or k in (aliases.CANONICAL.get(ctx or "", ())):
                from ..korean import josa

                label = f"키 '{shown}'({k})" if k != shown else f"키 '{k}'"
                msg = f"{josa(label, '은/는')} 이 종류의 시나리오나 이 자리에는 쓸 수 없습니다."
            else:
                msg = f"알 수 없는 키 '{shown}'."
            sink.add(obj, k, f"{where}.{k}" if where else str(k), msg,
                     f"'{guess}'의 오타라면 고치고, 아니면 지우세요 (허용: {listing})" if guess
                     else f"지우세요 (허용: {listing})")
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
        raise DataError([Problem(file, _line(doc), None, "시나리오의 최상위는 매핑이어야 합니다.",
                                 "kind: combat (또는 종류: 전투) 같은 '키: 값' 줄로 시작하세요")])
    kinds = ", ".join(f"{k}({aliases.KIND_KO[k]})" for k in KINDS)
    kind = doc.get("kind")
    if kind is None:
        raise DataError([Problem(file, _line(doc), "kind", "필수 키 'kind'(종류)가 없습니다.",
                                 f"kind: combat 또는 종류: 전투 처럼 다음 중 하나를 적으세요: {kinds}")])
    if not isinstance(kind, str):
        shown = "목록" if isinstance(kind, list) else "매핑" if isinstance(kind, dict) else f"'{kind}'"
        raise DataError([Problem(file, _line(doc, "kind"), aliases.shown_key(doc, "kind"),
                                 f"종류(kind)는 이름 하나여야 하는데 {shown}입니다.",
                                 f"괄호 없이 kind: combat 또는 종류: 전투 처럼 다음 중 하나를 적으세요: {kinds}")])
    if kind in PLANNED_KINDS:
        from ..errors import FlamerError

        line = _line(doc, "kind")
        where = f"{file} {line}행" if line else file
        raise FlamerError(f"{where}: kind '{kind}'({aliases.KIND_KO.get(kind, kind)}) 시나리오는 이 버전이 아직 "
                          f"풀지 못합니다. 지금 풀 수 있는 종류: {kinds}.")
    if kind not in KINDS:
        written = aliases.shown_key(doc, "kind")
        raise DataError([Problem(file, _line(doc, "kind"), written, f"알 수 없는 종류 '{kind}'.",
                                 f"다음 중 하나: {kinds}")])
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
        from ..errors import FlamerError

        raise FlamerError(f"{file}: kind '{kind}' 시나리오는 이 함수가 풀지 않습니다 (전투만) — "
                          "flamer_ref.engine.turns.parse_any를 쓰세요.")
    _unknown_keys(sink, doc, COMBAT_KEYS, "")
    lines: dict[str, int | None] = {k: _line(doc, k) for k in doc}

    title = doc.get("title")
    if title is not None and not isinstance(title, str):
        sink.add(doc, "title", "title", "title은 문자열이어야 합니다.")
    as_of = parse_as_of(doc, sink)

    # ----- cells and pieces
    cells, pieces, side_order = parse_cells(doc, sink, corpus)

    # ----- sides
    field_obj = doc.get("field")
    if isinstance(field_obj, dict):
        for side in field_obj:
            if isinstance(side, str) and side not in side_order:
                side_order.append(side)
    attacker = doc.get("attacker")
    defender = ""
    if attacker is None:
        sink.add(doc, None, "attacker", "필수 키 'attacker'(공격자)가 없습니다.",
                 "직전 이동턴을 수행한 턴 플레이어의 진영 코드를 적으세요 (예: attacker: DGM 또는 공격자: DGM)")
        attacker = ""
    elif not isinstance(attacker, str) or (side_order and attacker not in side_order):
        sink.add(doc, "attacker", "attacker", f"attacker(공격자) {_q(attacker, '이/가')} cells에 나오는 진영이 아닙니다.",
                 f"다음 중 하나: {', '.join(side_order)}")
        attacker = ""
    if len(side_order) > 2:
        sink.add(doc, "cells", "cells", f"진영이 {len(side_order)}개({', '.join(side_order)}) 있습니다. 시나리오에는 정확히 두 진영이 있어야 합니다.")
    elif attacker:
        others = [s for s in side_order if s != attacker]
        if not others:
            sink.add(doc, "cells", "cells", f"cells와 field에 {attacker} 말고 다른 진영이 없습니다. 시나리오에는 정확히 두 진영이 있어야 합니다.",
                     "수비자 진영의 기물을 적으세요")
        else:
            defender = others[0]

    # ----- field
    fld: dict[str, tuple[Slot | None, ...]] | None = None
    if field_obj is not None:
        if not isinstance(field_obj, dict):
            sink.add(doc, "field", "field", "field는 진영 코드 → 다섯 자리 목록 매핑이어야 합니다.",
                     "field: {DGM: [수문장, 장인, null, null, null]}")
        else:
            fld = {}
            for side, slots in field_obj.items():
                fwhere = f"field.{side}"
                if not side_code_ok(sink, field_obj, side, fwhere):
                    continue
                if not isinstance(slots, list) or len(slots) != 5:
                    sink.add(field_obj, side, fwhere, "필드는 왼쪽부터 다섯 자리의 목록이어야 합니다 (빈자리는 null).",
                             "[수문장, 장인, null, null, null] 처럼 다섯 개를 적으세요")
                    continue
                row: list[Slot | None] = []
                for j, s in enumerate(slots):
                    swhere = f"{fwhere}[{j}]"
                    if s is None:
                        row.append(None)
                        continue
                    face_up = True
                    name = s
                    if isinstance(s, dict):
                        if set(s) != {"set"}:
                            sink.add(s, None, swhere, "자리 값은 카드 이름, {set: 카드 이름}, null 중 하나여야 합니다.")
                            row.append(None)
                            continue
                        face_up, name = False, s["set"]
                    card = resolve_card(corpus, name, sink, field_obj if not isinstance(s, dict) else s,
                                        side if not isinstance(s, dict) else "set", swhere,
                                        label=f"{aliases.shown_key(doc, 'field')} {side} {j + 1}번 자리")
                    row.append(Slot(card, face_up, corpus.cards[card]["type"]) if card else None)
                fld[side] = tuple(row)

    # ----- response and battle cards
    response = tuple(_declarations(corpus, sink, doc, "response", RESPONSE_KEYS, side_order))
    battle = tuple(_declarations(corpus, sink, doc, "battle_cards", BATTLE_KEYS, side_order))

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


def _combat_board(doc: dict, file: str, pieces, corpus):
    """A combat needs a board only for the reach of a remote (전투) SP (combat.remote): the file's
    `board`, else — when a piece with such an SP stands in a cell that is no encounter — the example
    board (rules/boards/example.yaml, not the official map; the result says so in `assumed`)."""
    from .board import BoardError, board_from_spec
    from .types import REMOTE_SP

    spec = doc.get("board")
    assumed = False
    if spec is None:
        remote_cards = {c for c, _ in REMOTE_SP}
        sides_at: dict[str, set] = {}
        for p in pieces:
            sides_at.setdefault(p.cell, set()).add(p.side)
        if not any(p.card in remote_cards and len(sides_at[p.cell]) < 2 for p in pieces):
            return None, False
        spec, assumed = corpus.example_board, True  # read by the data layer (corpus.load_example_board)
    try:
        return board_from_spec(spec), assumed
    except BoardError as exc:
        raise DataError([Problem(file, _line(doc, "board"), exc.key, exc.message, exc.fix)]) from None


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


def side_code_ok(sink: _Sink, obj: dict, side, where: str) -> bool:
    """A side code used as a key (field, homes, vp) must be text, like the codes in cells."""
    if isinstance(side, str) and side.strip():
        return True
    sink.add(obj, side, where, f"진영 코드 {_q(side, '은/는')} 문자열이어야 합니다.",
             "DGM, BGM 같은 진영 코드를 적으세요 (숫자만 쓰려면 따옴표로 감싸세요)")
    return False


def parse_combat_order(doc: dict, sink) -> tuple[str, ...] | None:
    """`combat_order`: the attacker's order of the combat cells, each once (problems go to sink)."""
    co = doc.get("combat_order")
    if co is None:
        return None
    if not isinstance(co, list) or not co:
        sink.add(doc, "combat_order", "combat_order", "combat_order는 셀 목록이어야 합니다.", '["2,4", "3,3"]')
        return None
    order: list[str] = []
    for i, c in enumerate(co):
        cc = normalize_cell(c)
        if cc is None:
            sink.add(doc, "combat_order", f"combat_order[{i}]", f"셀 {_q(c, '을/를')} 읽을 수 없습니다.", '"x,y" 형식')
        elif cc in order:
            sink.add(doc, "combat_order", f"combat_order[{i}]", f"셀 {_q(cc, '이/가')} 두 번 나옵니다.")
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
                                        f"기물 id {_q(ref, '이/가')} cells에 없습니다.",
                                        f"비슷한 id: {', '.join(near)}" if near else "cells에 적은 기물의 id를 적으세요"))
    return problems


def parse_as_of(doc: dict, sink: _Sink) -> str | None:
    """The scenario's `as_of` (YYYY-MM-DD), or None; a bad date goes to `sink`."""
    as_of = doc.get("as_of")
    if as_of is None:
        return None
    from ..dates import is_date

    as_of = str(as_of)
    if not is_date(as_of):
        sink.add(doc, "as_of", "as_of", f"as_of(기준일) 날짜 {_q(as_of, '을/를')} 읽을 수 없습니다.",
                 "YYYY-MM-DD 형식의 실제 날짜로 적으세요 (예: 2026-09-24)")
        return None
    return as_of


def parse_cells(doc: dict, sink: _Sink, corpus) -> tuple[list[str], list[PieceSpec], list[str]]:
    """The `cells` map of any scenario kind → (cells, pieces, sides in order of appearance).
    Problems go to `sink`: per-side (3) and per-cell (6) limits, piece keys, unknown cards."""
    cells_obj = doc.get("cells")
    cells: list[str] = []
    cell_set: set[str] = set()
    pieces: list[PieceSpec] = []
    side_order: list[str] = []
    if not isinstance(cells_obj, dict) or not cells_obj:
        sink.add(doc, "cells" if "cells" in doc else None, "cells",
                 "필수 키 'cells'(셀)이 없거나 비어 있습니다." if not cells_obj else "cells(셀)은 매핑이어야 합니다.",
                 'cells: {"2,4": {DGM: [...], BGM: [...]}} 형식으로 적으세요 (셀: 로 적어도 됩니다)')
    elif len(cells_obj) > MAX_SCENARIO_CELLS:
        sink.add(doc, "cells", "cells", f"cells에 셀이 {len(cells_obj):,}개 있습니다. 시나리오 하나에는 {MAX_SCENARIO_CELLS:,}칸까지만 받습니다.",
                 f"기물이 있는 셀을 {MAX_SCENARIO_CELLS:,}개 이하로 줄이거나 시나리오를 나누세요")
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
                sink.add(cells_obj, raw_cell, cwhere, f"셀 키 {_q(raw_cell, '을/를')} 읽을 수 없습니다.", '"x,y" 형식으로 적으세요 (예: "2,4")')
                continue
            if cell in cell_set:
                sink.add(cells_obj, raw_cell, cwhere, f"셀 {_q(cell, '이/가')} 두 번 나옵니다.", "하나로 합치세요")
                continue
            cells.append(cell)
            cell_set.add(cell)
            if not isinstance(by_side, dict):
                sink.add(cells_obj, raw_cell, cwhere, "셀의 값은 진영 코드 → 기물 목록 매핑이어야 합니다.",
                         "DGM: [{id: gk, card: 수문장}] 처럼 적으세요")
                continue
            total = 0
            for side, plist in by_side.items():
                swhere = f"{cwhere}.{side}"
                if not isinstance(side, str) or not side.strip():
                    sink.add(by_side, side, swhere, f"진영 코드 {_q(side, '은/는')} 문자열이어야 합니다.")
                    continue
                if side not in side_order:
                    side_order.append(side)
                if plist is None:
                    plist = []
                if not isinstance(plist, list):
                    sink.add(by_side, side, swhere, "기물 목록은 '- '로 시작하는 목록이어야 합니다.")
                    continue
                if len(plist) > SIDE_LIMIT:
                    sink.add(by_side, side, swhere,
                             f"셀 {cell}에 {side} 기물이 {len(plist)}기 있습니다. 한 셀에 한 진영은 {SIDE_LIMIT}기까지입니다 "
                             "(조항 move.limit).", "기물 수를 줄이세요")
                total += len(plist)
                for i, p in enumerate(plist):
                    spec = _piece(corpus, sink, p, f"{swhere}[{i}]", side, cell, len(pieces))
                    if spec is None:
                        continue
                    if spec.id in seen_ids:
                        sink.add(p, "id", f"{swhere}[{i}].id",
                                 f"기물 id {_q(spec.id, '이/가')} 중복됩니다 (먼저 나온 줄: {seen_ids[spec.id]}).",
                                 "id를 다른 이름으로 바꾸세요")
                        continue
                    if spec.id:
                        seen_ids[spec.id] = spec.line
                    else:
                        auto.append((len(pieces), side, spec.label))
                    pieces.append(spec)
            if total > CELL_LIMIT:
                sink.add(cells_obj, raw_cell, cwhere,
                         f"셀 {cell}에 기물이 모두 {total}기 있습니다. 한 셀에는 양 진영 합산 {CELL_LIMIT}기까지입니다 "
                         "(조항 move.limit).", "기물 수를 줄이세요")
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


def _piece(corpus, sink: _Sink, p, where: str, side: str, cell: str, order: int) -> PieceSpec | None:
    if not isinstance(p, dict):
        sink.add(None, None, where, "기물은 매핑이어야 합니다 (예: {id: gk, card: 수문장}).")
        return None
    if not _unknown_keys(sink, p, PIECE_KEYS, where):
        return None
    pid = p.get("id")
    if pid is not None and (not isinstance(pid, (str, int)) or isinstance(pid, bool) or str(pid) == ""):
        sink.add(p, "id", f"{where}.id", "id는 문자열이어야 합니다.")
        return None
    pid = str(pid) if pid is not None else ""
    if ("card" in p) == ("name" in p):
        sink.add(p, None, where, "기물에는 card(카드 이름) 또는 name(임시 기물 이름) 중 정확히 하나가 있어야 합니다.",
                 "데이터베이스의 카드면 card: 수문장, 아니면 name과 lv, hp, atk를 적으세요")
        return None
    stats: dict[str, int | None] = {}
    for s in ("lv", "hp", "atk", "cost"):
        v = p.get(s)
        if v is not None and not _is_int(v):
            sink.add(p, s, f"{where}.{s}", f"{_q(aliases.shown_key(p, s), '은/는')} 정수여야 합니다 (지금: {v!r}).")
            return None
        stats[s] = v
    state = p.get("state", "mobile")
    if state not in ("mobile", "settled"):
        sink.add(p, "state", f"{where}.state", f"상태 {_q(state, '을/를')} 모릅니다.",
                 "기동(mobile, 앞면) 또는 정착(settled, 뒷면) 중 하나를 적으세요")
        return None
    structure = p.get("structure")
    if structure is not None and not isinstance(structure, bool):
        sink.add(p, "structure", f"{where}.structure", "structure는 true 또는 false여야 합니다.")
        return None
    card = name = None
    if "card" in p:
        card = resolve_card(corpus, p["card"], sink, p, "card", f"{where}.card", pieces_only=True)
        if card is None:
            return None
        c = corpus.cards[card]
        if c["type"] != "piece":
            sink.add(p, "card", f"{where}.card", f"{_q(card, '은/는')} 특수카드라 기물이 될 수 없습니다.", "기물 카드 이름을 적으세요")
            return None
        for s in stats:
            if stats[s] is None:
                stats[s] = c.get(s)
        if structure is None:
            structure = bool(c.get("structure"))
    else:
        name = p["name"]
        if not isinstance(name, str) or not name:
            sink.add(p, "name", f"{where}.name", "name은 문자열이어야 합니다.")
            return None
        missing = [s for s in ("lv", "hp", "atk") if stats[s] is None]
        if missing:
            sink.add(p, "name", where, f"임시 기물 '{name}'에 {', '.join(missing)}가 없습니다 — 데이터베이스에 없는 기물은 "
                     "lv, hp, atk(레벨, 체력, 공격력)가 필수입니다.", f"{', '.join(missing)}를 적으세요")
            return None
    given = frozenset(s for s in ("lv", "hp", "atk", "cost") if p.get(s) is not None)
    return PieceSpec(id=pid, side=side, cell=cell, card=card, name=name, lv=stats["lv"], hp=stats["hp"],
                     atk=stats["atk"], cost=stats["cost"], state=PieceState(state), structure=bool(structure),
                     order=order, line=_line(p), given=given)


def _declarations(corpus, sink: _Sink, doc, key: str, allowed, sides) -> list[Declaration]:
    items = doc.get(key)
    if items is None:
        return []
    if not isinstance(items, list):
        sink.add(doc, key, key, f"{key}는 선언 순서대로 적은 목록이어야 합니다.")
        return []
    out = []
    for i, it in enumerate(items):
        where = f"{key}[{i}]"
        if not isinstance(it, dict):
            sink.add(None, None, where, "선언 항목은 매핑이어야 합니다 (예: {side: BGM, card: 재부팅, target: drill}).")
            continue
        if not _unknown_keys(sink, it, allowed, where):
            continue
        side = it.get("side")
        if side is None:
            sink.add(it, None, where, "선언 항목에 side가 없습니다.", "선언한 진영 코드를 적으세요")
            continue
        if side not in sides:
            sink.add(it, "side", f"{where}.side", f"side(진영) {_q(side, '이/가')} 시나리오의 진영이 아닙니다.", f"다음 중 하나: {', '.join(sides)}")
            continue
        card = None
        if "card" in it:
            card = resolve_card(corpus, it["card"], sink, it, "card", f"{where}.card")
            if card is None:
                continue
        ability = it.get("ability")
        if ability is not None and not isinstance(ability, str):
            sink.add(it, "ability", f"{where}.ability", "ability는 능력 이름(문자열)이어야 합니다.")
            continue
        effect = None
        if "effect" in it:
            effect = parse_effect_list(it["effect"], f"{where}.effect", sink)
            if effect is None:
                continue
        if card is None and effect is None:
            sink.add(it, None, where, "선언 항목에는 card 또는 effect가 있어야 합니다.",
                     "세트된 (대응) 카드나 (대응) SP를 가진 카드 이름을 card에, 또는 효과를 effect에 적으세요")
            continue
        costs: list[Destroy] = []
        raw = it.get("cost")
        if raw is not None:
            for j, co in enumerate(raw if isinstance(raw, list) else [raw]):
                d = parse_destroy(co, f"{where}.cost", sink)
                if d is not None:
                    if d.piece is None:
                        sink.add(it, "cost", f"{where}.cost", "시나리오의 비용은 {destroy: 기물 id}로 적어야 합니다.")
                        continue
                    costs.append(d)
        cell = None
        if "cell" in it:
            cell = normalize_cell(it["cell"])
            if cell is None:
                sink.add(it, "cell", f"{where}.cell", f"셀 {_q(it['cell'], '을/를')} 읽을 수 없습니다.", '"x,y" 형식 (예: "2,4")')
                continue
        elif key == "battle_cards":
            sink.add(it, None, where, "(전투) 특수카드 항목에는 전투가 벌어지는 셀 cell이 있어야 합니다.")
            continue
        for ref in ("target", "piece"):
            v = it.get(ref)
            if v is not None and not isinstance(v, (str, int)):
                sink.add(it, ref, f"{where}.{ref}", f"{ref}에는 기물 id를 적어야 합니다.")
        out.append(Declaration(index=i, side=side, card=card, ability=ability,
                               piece=str(it["piece"]) if it.get("piece") is not None else None,
                               target=str(it["target"]) if it.get("target") is not None else None,
                               cell=cell, cost=tuple(costs), effect=effect, line=_line(it), where=where,
                               lines={k: _line(it, k) for k in it}))
    return out
