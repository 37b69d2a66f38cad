"""Boards as data: which cells exist, which are sea, which touch.

The rulebook pages do not give the official map, so a board always comes from
the scenario (`board:`) or from the shipped example board
(rules/boards/example.yaml, labelled as an example). Two forms:

- grid: ``{width: W, height: H, adjacency: square8 | square4 | hex, sea: [cells]}``;
  cells are "x,y" with 0 <= x < W, 0 <= y < H. ``hex`` uses axial
  coordinates: (x±1, y), (x, y±1), (x+1, y-1), (x-1, y+1).
- explicit: ``{cells: [...], neighbors: {cell: [cells]}}`` (made symmetric).
"""

from __future__ import annotations

from dataclasses import dataclass, field

_STEPS = {
    "square8": ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)),
    "square4": ((1, 0), (-1, 0), (0, 1), (0, -1)),
    "hex": ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)),
}
ADJACENCIES = tuple(_STEPS)
BOARD_KEYS = ("width", "height", "adjacency", "sea", "cells", "neighbors", "label", "values", "homes")


#: Bounds on a board (a real map has a few dozen cells): each side of a grid, and cells in all.
MAX_BOARD_SIDE = 100
MAX_BOARD_CELLS = 10_000


class BoardError(ValueError):
    """A board description that cannot be used; `key` names the field, `code` and `params` the
    problem (worded, on first read of `message` / `fix`, by templates/problems/scenario.txt.j2)."""

    def __init__(self, key: str, code: str, /, **params):
        super().__init__(code)
        self.key, self.code, self.params = key, code, params

    def problem(self, file: str, line: int | None):
        """The errors.Problem of this board error in `file` at `line` (still unworded)."""
        from ..errors import Problem

        return Problem(file, line, self.key, code=self.code, params=self.params)

    @property
    def message(self) -> str:
        return self.problem("", None).message

    @property
    def fix(self) -> str | None:
        return self.problem("", None).fix

    def __str__(self) -> str:
        return self.message


def parse_cell(text) -> tuple[int, int] | None:
    if isinstance(text, (list, tuple)) and len(text) == 2:
        a, b = text
    elif isinstance(text, str) and text.count(",") == 1:
        a, b = text.replace(" ", "").split(",")
    else:
        return None
    try:
        return int(a), int(b)
    except (TypeError, ValueError):
        return None


def cell_key(text) -> str | None:
    xy = parse_cell(text)
    return f"{xy[0]},{xy[1]}" if xy else (text.replace(" ", "") if isinstance(text, str) and text.strip() else None)


@dataclass(frozen=True)
class Board:
    cells: frozenset[str]
    sea: frozenset[str]
    adjacency: str  # square8 | square4 | hex | explicit
    neighbors_map: dict = field(default_factory=dict, compare=False)
    label: str | None = None
    values: dict = field(default_factory=dict, compare=False)
    homes: dict = field(default_factory=dict, compare=False)

    def on_board(self, cell: str) -> bool:
        return cell in self.cells and cell not in self.sea

    def adjacent(self, a: str, b: str) -> bool:
        if self.adjacency == "explicit":
            return b in self.neighbors_map.get(a, ())
        pa, pb = parse_cell(a), parse_cell(b)
        if pa is None or pb is None:
            return False
        return (pb[0] - pa[0], pb[1] - pa[1]) in _STEPS[self.adjacency]

    def neighbors(self, cell: str) -> list[str]:
        if self.adjacency == "explicit":
            return sorted(self.neighbors_map.get(cell, ()))
        p = parse_cell(cell)
        if p is None:
            return []
        out = [f"{p[0] + dx},{p[1] + dy}" for dx, dy in _STEPS[self.adjacency]]
        return [c for c in out if c in self.cells]


def board_from_spec(spec: dict) -> Board:
    """Build a Board from a scenario's or a data file's mapping; BoardError names the bad key."""
    if not isinstance(spec, dict):
        raise BoardError("board", "board-not-mapping")
    for k in spec:
        if k not in BOARD_KEYS:
            raise BoardError(f"board.{k}", "board-unknown-key", key=k, allowed=list(BOARD_KEYS))
    for k in ("sea", "cells"):
        if k in spec and not isinstance(spec[k], list):
            raise BoardError(f"board.{k}", "board-cell-list", key=k)
    for k in ("neighbors", "values", "homes"):
        if spec.get(k) is not None and not isinstance(spec[k], dict):
            raise BoardError(f"board.{k}", "board-mapping", key=k)
    for side in spec.get("homes") or {}:
        if not isinstance(side, str) or not side.strip():
            raise BoardError(f"board.homes.{side}", "board-home-side", side=side)
        if not isinstance(spec["homes"][side], list):  # e.g. a lost `values:` line: cells under homes
            raise BoardError(f"board.homes.{side}", "board-home-cells", side=side)
    for cell, value in (spec.get("values") or {}).items():
        if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
            raise BoardError(f"board.values.{cell}", "board-value", cell=cell, value=value)
        if value is not None and value < 0:  # a cell's value is income in 도르 (supply.income): never below 0
            raise BoardError(f"board.values.{cell}", "board-value-negative", cell=cell, value=value)
    adj = spec.get("adjacency", "square8")
    if not isinstance(adj, str):
        raise BoardError("board.adjacency", "board-adjacency-not-name", options=list(_STEPS))
    label = spec.get("label")
    values = {cell_key(k): v for k, v in (spec.get("values") or {}).items()}
    homes = {side: [cell_key(c) for c in cells] for side, cells in (spec.get("homes") or {}).items()}
    if "cells" in spec:
        raw = spec["cells"]
        if not isinstance(raw, list) or not raw:
            raise BoardError("board.cells", "board-cells-empty")
        if len(raw) > MAX_BOARD_CELLS:
            raise BoardError("board.cells", "board-cells-too-many", count=len(raw), limit=MAX_BOARD_CELLS)
        cells = set()
        for c in raw:
            k = cell_key(c)
            if k is None:
                raise BoardError("board.cells", "board-cell-bad", cell=c)
            cells.add(k)
        nmap: dict[str, set[str]] = {c: set() for c in cells}
        for a, lst in (spec.get("neighbors") or {}).items():
            ka = cell_key(a)
            if ka not in cells:
                raise BoardError("board.neighbors", "board-neighbor-unknown", cell=a)
            if lst is not None and not isinstance(lst, list):
                raise BoardError("board.neighbors", "board-neighbors-not-list", cell=a)
            for b in lst or []:
                kb = cell_key(b)
                if kb not in cells:
                    raise BoardError("board.neighbors", "board-neighbor-unknown", cell=b)
                nmap[ka].add(kb)
                nmap[kb].add(ka)
        sea = {cell_key(c) for c in spec.get("sea") or []}
        return Board(frozenset(cells), frozenset(sea), "explicit", {k: frozenset(v) for k, v in nmap.items()},
                     label, values, homes)
    w, h = spec.get("width"), spec.get("height")
    if not (isinstance(w, int) and isinstance(h, int) and not isinstance(w, bool) and not isinstance(h, bool)
            and w > 0 and h > 0):
        raise BoardError("board.width", "board-size")
    for key, n in (("width", w), ("height", h)):
        if n > MAX_BOARD_SIDE:
            raise BoardError(f"board.{key}", "board-side-too-big", key=key, value=n, limit=MAX_BOARD_SIDE,
                             cells_limit=MAX_BOARD_CELLS)
    if w * h > MAX_BOARD_CELLS:
        raise BoardError("board.width", "board-too-big", width=w, height=h, limit=MAX_BOARD_CELLS)
    adj = spec.get("adjacency", "square8")
    if adj not in _STEPS:
        raise BoardError("board.adjacency", "board-adjacency-unknown", adjacency=adj, options=list(_STEPS))
    cells = {f"{x},{y}" for x in range(w) for y in range(h)}
    sea = set()
    for c in spec.get("sea") or []:
        k = cell_key(c)
        if k is None:
            raise BoardError("board.sea", "board-sea-bad", cell=c)
        sea.add(k)
    return Board(frozenset(cells), frozenset(sea), adj, {}, label, values, homes)


def example_board_of(corpus) -> dict | None:
    """The corpus's example board (rules/boards/example.yaml, read by the data layer:
    `corpus.example_board_document`) as plain data, checked once per corpus; None without a corpus
    that has one (a bare parse)."""
    memo = getattr(corpus, "__dict__", None)
    read = getattr(corpus, "example_board_document", None)
    if memo is None or read is None:
        return None
    got = memo.get("_example_board")
    if got is None:
        got = memo["_example_board"] = check_example_board(*read())
    return got


def check_example_board(doc, spec, file: str) -> dict:
    """The example board `spec` (read from `doc`, the file `file`) checked as the engine will use it: a
    broken board is a DataError naming the file, line and key (never an internal error in a later move
    simulation). Returns spec."""
    from ..errors import DataError, Problem

    if not isinstance(spec, dict):
        raise DataError([Problem(file, getattr(doc, "line", None) or 1, None, code="example-board-not-mapping")])
    try:
        board_from_spec(spec)
    except BoardError as exc:
        top = exc.key.split(".")[1] if exc.key.count(".") else None
        line = doc.line_of(top) if top is not None and hasattr(doc, "line_of") else getattr(doc, "line", None)
        raise DataError([exc.problem(file, line)]) from None
    return spec
