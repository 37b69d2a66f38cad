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
    """A board description that cannot be used; `key` names the field."""

    def __init__(self, key: str, message: str, fix: str | None = None):
        super().__init__(message)
        self.key, self.message, self.fix = key, message, fix


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
        raise BoardError("board", "board는 매핑이어야 합니다.", "{width: 7, height: 6, adjacency: square8} 형식으로 적으세요")
    for k in spec:
        if k not in BOARD_KEYS:
            raise BoardError(f"board.{k}", f"board에 알 수 없는 키 '{k}'.", f"지우세요 (허용: {', '.join(BOARD_KEYS)})")
    for k in ("sea", "cells"):
        if k in spec and not isinstance(spec[k], list):
            raise BoardError(f"board.{k}", f"board.{k}는 셀 목록이어야 합니다.", f'{k}: ["1,1", "2,1"]')
    for k in ("neighbors", "values", "homes"):
        if spec.get(k) is not None and not isinstance(spec[k], dict):
            raise BoardError(f"board.{k}", f"board.{k}는 매핑이어야 합니다.",
                             'neighbors: {"a": ["b", "c"]}' if k == "neighbors" else None)
    for side in spec.get("homes") or {}:
        if not isinstance(side, str) or not side.strip():
            from ..korean import josa

            raise BoardError(f"board.homes.{side}", f"board.homes의 진영 코드 {josa(repr(side), '은/는')} 문자열이어야 합니다.",
                             'homes: {BGM: ["5,5", "6,4"]} 처럼 진영 코드를 적으세요')
    adj = spec.get("adjacency", "square8")
    if not isinstance(adj, str):
        raise BoardError("board.adjacency", "board.adjacency는 이름 하나여야 합니다 (목록·매핑 불가).",
                         f"adjacency: square8 처럼 다음 중 하나를 적으세요: {', '.join(_STEPS)}")
    label = spec.get("label")
    values = {cell_key(k): v for k, v in (spec.get("values") or {}).items()}
    homes = {side: [cell_key(c) for c in cells] for side, cells in (spec.get("homes") or {}).items()}
    if "cells" in spec:
        raw = spec["cells"]
        if not isinstance(raw, list) or not raw:
            raise BoardError("board.cells", "board.cells는 셀 목록이어야 합니다.")
        if len(raw) > MAX_BOARD_CELLS:
            raise BoardError("board.cells", f"board.cells에 셀이 {len(raw):,}개 있습니다. 보드는 {MAX_BOARD_CELLS:,}칸까지만 받습니다.",
                             f"셀을 {MAX_BOARD_CELLS:,}개 이하로 줄이세요")
        cells = set()
        for c in raw:
            k = cell_key(c)
            if k is None:
                raise BoardError("board.cells", f"셀 {c!r}를 읽을 수 없습니다.", '"x,y" 형식으로 적으세요')
            cells.add(k)
        nmap: dict[str, set[str]] = {c: set() for c in cells}
        for a, lst in (spec.get("neighbors") or {}).items():
            ka = cell_key(a)
            if ka not in cells:
                raise BoardError("board.neighbors", f"neighbors의 셀 {a!r}가 board.cells에 없습니다.")
            if lst is not None and not isinstance(lst, list):
                raise BoardError("board.neighbors", f"neighbors의 {a!r} 값은 셀 목록이어야 합니다.", f'{a}: ["b", "c"]')
            for b in lst or []:
                kb = cell_key(b)
                if kb not in cells:
                    raise BoardError("board.neighbors", f"neighbors의 셀 {b!r}가 board.cells에 없습니다.")
                nmap[ka].add(kb)
                nmap[kb].add(ka)
        sea = {cell_key(c) for c in spec.get("sea") or []}
        return Board(frozenset(cells), frozenset(sea), "explicit", {k: frozenset(v) for k, v in nmap.items()},
                     label, values, homes)
    w, h = spec.get("width"), spec.get("height")
    if not (isinstance(w, int) and isinstance(h, int) and not isinstance(w, bool) and not isinstance(h, bool)
            and w > 0 and h > 0):
        raise BoardError("board.width", "board에는 양의 정수 width와 height (또는 cells와 neighbors)가 필요합니다.",
                         "{width: 7, height: 6, adjacency: square8} 처럼 적으세요")
    for key, n in (("width", w), ("height", h)):
        if n > MAX_BOARD_SIDE:
            from ..korean import josa

            raise BoardError(f"board.{key}", f"{josa('board.' + key, '이/가')} {n:,}입니다. 보드의 {key}는 {MAX_BOARD_SIDE}까지만 받습니다.",
                             f"{key}: {MAX_BOARD_SIDE} 이하로 적으세요 (칸은 모두 {MAX_BOARD_CELLS:,}개까지)")
    if w * h > MAX_BOARD_CELLS:
        raise BoardError("board.width", f"보드가 {w * h:,}칸({w} × {h})입니다. 보드는 {MAX_BOARD_CELLS:,}칸까지만 받습니다.",
                         f"width × height를 {MAX_BOARD_CELLS:,} 이하로 줄이세요")
    adj = spec.get("adjacency", "square8")
    if adj not in _STEPS:
        raise BoardError("board.adjacency", f"알 수 없는 adjacency '{adj}'.", f"다음 중 하나: {', '.join(_STEPS)}")
    cells = {f"{x},{y}" for x in range(w) for y in range(h)}
    sea = set()
    for c in spec.get("sea") or []:
        k = cell_key(c)
        if k is None:
            raise BoardError("board.sea", f"바다 셀 {c!r}를 읽을 수 없습니다.", '"x,y" 형식으로 적으세요')
        sea.add(k)
    return Board(frozenset(cells), frozenset(sea), adj, {}, label, values, homes)
