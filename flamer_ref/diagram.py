"""Geometry of the pictures in `flamer simulate --format html`: combat cells,
move boards, victory boards and fields, as plain data.

Every function here returns *scenes*: ``{"w", "h", "id", "items"}`` where each
item is one SVG primitive (``rect``, ``circle``, ``line``, ``polyline``,
``polygon``, ``text``) with coordinates, colours and, for ``text``, either the
raw data to show (``text``: an id, a card name, a cell, a number) or a word
code (``word`` + ``args``) that templates/simulate/_parts.html.j2 turns into
Korean. No sentence is built here, and nothing is escaped here: the (autoescaped)
template writes every attribute and every text.

Colours: the rulebook draws DGM blue and BGM green; any other side code gets
the colour left over, the first side (attacker / turn player) blue first. Blue and
green look alike in grey print, so each side has a shape as well (its palette's
``shape`` and ``mark``): blue pieces are discs (●), green ones diamonds (◆), a third
side's squares (■) — the tokens on a board, the mark on a combat card, the legend.
"""

from __future__ import annotations

import math
from typing import Any, Iterable

from .korean import clip, display_width
from .people import piece_names

# ------------------------------------------------------------------ colours ----
BLUE = {"name": "blue", "stroke": "#1d4f9c", "fill": "#dde8fa", "solid": "#2d6cc8", "ink": "#0f2f63",
        "shape": "circle", "mark": "●"}
GREEN = {"name": "green", "stroke": "#1c7a43", "fill": "#daf1e3", "solid": "#2b9457", "ink": "#0d4425",
         "shape": "diamond", "mark": "◆"}
GREY = {"name": "grey", "stroke": "#666666", "fill": "#eeeeee", "solid": "#888888", "ink": "#333333",
        "shape": "square", "mark": "■"}
KNOWN = {"DGM": BLUE, "BGM": GREEN}
RED = "#c0262d"
INK = "#222222"
MUTED = "#666666"
PAPER = "#ffffff"
LAND = "#f7f5ef"
SEA = "#d3e4ef"
GRID = "#b9b3a5"


def side_colours(order: Iterable[str]) -> dict[str, dict]:
    """Side code → palette entry (DGM blue, BGM green, others by order)."""
    order = [s for s in dict.fromkeys(order) if s is not None]
    out: dict[str, dict] = {}
    for s in order:
        if s in KNOWN:
            out[s] = KNOWN[s]
    used = {c["name"] for c in out.values()}
    for s in order:
        if s in out:
            continue
        free = [c for c in (BLUE, GREEN) if c["name"] not in used]
        out[s] = free[0] if free else GREY
        used.add(out[s]["name"])
    return out


def legend(colours: dict[str, dict]) -> list[dict]:
    return [{"side": s, **c} for s, c in colours.items()]


# ------------------------------------------------------------------ helpers ----
def _r(v: float) -> float:
    v = round(float(v), 1)
    return int(v) if v == int(v) else v



def rect(x, y, w, h, fill=PAPER, stroke=None, sw=1, rx=0, dash=None, opacity=None, tip=None) -> dict:
    return {"el": "rect", "x": _r(x), "y": _r(y), "w": _r(w), "h": _r(h), "fill": fill, "stroke": stroke,
            "sw": sw, "rx": rx, "dash": dash, "opacity": opacity, "tip": tip}


def circle(cx, cy, r, fill=PAPER, stroke=None, sw=1, dash=None, opacity=None, tip=None) -> dict:
    return {"el": "circle", "cx": _r(cx), "cy": _r(cy), "r": _r(r), "fill": fill, "stroke": stroke, "sw": sw,
            "dash": dash, "opacity": opacity, "tip": tip}


def line(x1, y1, x2, y2, stroke=INK, sw=1, dash=None, opacity=None) -> dict:
    return {"el": "line", "x1": _r(x1), "y1": _r(y1), "x2": _r(x2), "y2": _r(y2), "stroke": stroke, "sw": sw,
            "dash": dash, "opacity": opacity}


def polyline(points, stroke=INK, sw=2, dash=None, marker=None, opacity=None, tip=None) -> dict:
    return {"el": "polyline", "points": [(_r(x), _r(y)) for x, y in points], "stroke": stroke, "sw": sw,
            "dash": dash, "marker": marker, "opacity": opacity, "tip": tip}


def polygon(points, fill=PAPER, stroke=None, sw=1, dash=None, opacity=None, tip=None) -> dict:
    return {"el": "polygon", "points": [(_r(x), _r(y)) for x, y in points], "fill": fill, "stroke": stroke,
            "sw": sw, "dash": dash, "opacity": opacity, "tip": tip}


def text(x, y, value=None, *, word=None, args=None, size=12, anchor="start", weight="normal", fill=INK,
         cls=None) -> dict:
    """`value`: data shown as it is (escaped by the template); `word`: a code the template words."""
    return {"el": "text", "x": _r(x), "y": _r(y), "text": None if value is None else str(value), "word": word,
            "args": args or {}, "size": size, "anchor": anchor, "weight": weight, "fill": fill, "cls": cls}


def _defs(prefix: str, colours: dict[str, dict]) -> list[dict]:
    """Hatch patterns (a face-down card or piece) per side, and arrowheads per colour."""
    out = []
    for i, (side, c) in enumerate(colours.items()):
        out.append({"el": "hatch", "id": f"{prefix}-hatch-{i}", "colour": c["stroke"], "bg": PAPER})
        out.append({"el": "marker", "id": f"{prefix}-arrow-{i}", "colour": c["stroke"]})
    out.append({"el": "marker", "id": f"{prefix}-arrow-x", "colour": RED})
    out.append({"el": "hatch", "id": f"{prefix}-hatch-grey", "colour": "#9a9a9a", "bg": PAPER})
    return out


def _hatch(prefix, colours, side) -> str:
    keys = list(colours)
    return f"url(#{prefix}-hatch-{keys.index(side)})" if side in colours else f"url(#{prefix}-hatch-grey)"


def _arrow(prefix, colours, side) -> str:
    keys = list(colours)
    return f"{prefix}-arrow-{keys.index(side)}" if side in colours else f"{prefix}-arrow-x"


def parse_xy(cell: Any) -> tuple[int, int] | None:
    if not isinstance(cell, str) or cell.count(",") != 1:
        return None
    a, b = cell.replace(" ", "").split(",")
    try:
        return int(a), int(b)
    except ValueError:
        return None


def _cell_order(cell: str):
    xy = parse_xy(cell)
    return (0, xy[1], xy[0], cell) if xy else (1, 0, 0, cell)


# ------------------------------------------------------------------- combat ----
CARD_W, CARD_H, CARD_GAP = 186, 80, 10
PANEL_PAD, PANEL_HEAD = 14, 66


def _fates(data: dict) -> dict:
    """piece → where it ended: (cell-independent) capture / fragment / removed."""
    fate: dict[str, dict] = {}
    for e in data.get("events", []):
        t = e.get("type")
        if t == "capture":
            fate[e["piece"]] = {"code": "captured", "side": e.get("side"), "round": e.get("round"),
                                "step": e.get("step"), "reason": e.get("reason")}
        elif t == "fragment":
            fate[e["piece"]] = {"code": "fragment", "round": e.get("round"), "step": e.get("step"),
                                "reason": e.get("reason")}
        elif t == "cost" and e.get("piece"):
            if e.get("result") == "fragment":
                fate.setdefault(e["piece"], {"code": "fragment", "reason": "cost"})
            else:
                fate[e["piece"]] = {"code": "removed"}
    for pid in data.get("removed", []):
        fate.setdefault(pid, {"code": "removed"})
    for pid in data.get("fragments", []):
        fate.setdefault(pid, {"code": "fragment"})
    for side, ids in (data.get("prisoners") or {}).items():
        for pid in ids:
            fate.setdefault(pid, {"code": "captured", "side": side})
    return fate


def combat_cells(data: dict, ids: str = "") -> list[dict]:
    """One scene per cell of a combat result: both sides' pieces as cards,
    face up (filled) or face down (hatched, dashed), and how each ended.
    `ids` prefixes the SVG ids (patterns, markers): pictures of two results on one page differ."""
    attacker, defender = data.get("attacker"), data.get("defender")
    colours = side_colours([attacker, defender] + [p.get("side") for p in data.get("pieces", {}).values()])
    pieces = data.get("pieces", {})
    events = data.get("events", [])
    fate = _fates(data)
    names = piece_names(data)  # what a player reads: card names (수문장 1, 수문장 2), never ids
    lv: dict[str, Any] = {}
    flips: dict[str, dict] = {}
    departed: dict[tuple[str, str], str] = {}
    arrived: dict[str, list[tuple[str, str]]] = {}
    for e in events:
        t = e.get("type")
        if t == "field" and e.get("effect") == "병풍" and e.get("lv") is not None:
            for pid in e.get("pieces") or []:
                lv[pid] = e["lv"]
        elif t == "flip":
            flips[e["piece"]] = {"to": e.get("to"), "step": e.get("step")}
        elif t == "depart" and e.get("cell") is not None:
            departed[(e["piece"], e["cell"])] = e.get("to")
        elif t == "arrive" and e.get("cell") is not None:
            arrived.setdefault(e["cell"], []).append((e["piece"], e.get("from")))
    cells_res = data.get("cells") or {}
    order = list(data.get("order") or [])
    cells = order + [c for c in cells_res if c not in order]
    starts = {}
    for pid, p in pieces.items():
        starts.setdefault(p.get("cell"), []).append(pid)
    cells += sorted((c for c in starts if c is not None and c not in cells), key=_cell_order)
    positions = data.get("positions") or {}
    # flamer fight: stats the player gave for values the card data leaves unknown, marked on the card
    mine: dict[str, list] = {}
    for r in data.get("player_stats") or ():
        for pid in r["pieces"]:
            mine.setdefault(pid, []).append(r["stat"])
    scenes = []
    for n, cell in enumerate(cells):
        prefix = f"{ids}cb{n}"
        members = [(pid, None) for pid in starts.get(cell, [])] + arrived.get(cell, [])
        cols = {attacker: [], defender: []}
        for pid, came_from in members:
            cols.setdefault(pieces.get(pid, {}).get("side"), []).append((pid, came_from))
        sides = [s for s in cols if cols[s] or s in (attacker, defender)]
        ncols = max(2, len(sides))
        rows = max([len(v) for v in cols.values()] + [1])
        w = PANEL_PAD * 2 + ncols * CARD_W + (ncols - 1) * 20
        h = PANEL_HEAD + rows * (CARD_H + CARD_GAP) + PANEL_PAD - CARD_GAP + 4
        items: list[dict] = [rect(0.5, 0.5, w - 1, h - 1, fill="#fbfbf8", stroke="#cfcabb", rx=8)]
        c = cells_res.get(cell)
        if c is None:
            outcome = {"word": "no-combat", "args": {}}
        elif c.get("standoff"):
            outcome = {"word": "standoff", "args": {}}
        elif c.get("end") == "stalemate":
            outcome = {"word": "stalemate", "args": {"rounds": c.get("rounds")}}
        elif c.get("end") == "vacated":
            outcome = {"word": "vacated", "args": {"side": c.get("occupant")}}
        elif c.get("occupant"):
            outcome = {"word": "won", "args": {"side": c.get("occupant"), "rounds": c.get("rounds")}}
        else:
            outcome = {"word": "nobody", "args": {"rounds": c.get("rounds")}}
        items.append(text(PANEL_PAD, 26, word="cell", args={"cell": cell}, size=17, weight="bold"))
        occ = c.get("occupant") if c else None
        items.append(text(w - PANEL_PAD, 26, word=outcome["word"], args=outcome.get("args"), size=14, anchor="end",
                          weight="bold", fill=colours[occ]["ink"] if occ in colours else INK))
        for i, side in enumerate(sides):
            x = PANEL_PAD + i * (CARD_W + 20)
            col = colours.get(side, GREY)
            items.append(rect(x, 38, CARD_W, 20, fill=col["solid"], rx=4))
            items.append(text(x + CARD_W / 2, 52, word="side-role", size=12, anchor="middle", weight="bold",
                              fill="#ffffff",
                              args={"side": side, "role": "attacker" if side == attacker else (
                                  "defender" if side == defender else None)}))
            for j, (pid, came_from) in enumerate(cols.get(side, [])):
                y = PANEL_HEAD + j * (CARD_H + CARD_GAP)
                items += _card(prefix, colours, names.get(pid, pid), pieces.get(pid, {}), x, y, lv.get(pid),
                               flips.get(pid), came_from, departed.get((pid, cell)), fate.get(pid),
                               survived=positions.get(pid) == cell, mine=mine.get(pid))
        scenes.append({"id": prefix, "w": w, "h": h, "cell": cell, "items": items, "defs": _defs(prefix, colours),
                       "outcome": outcome})
    return scenes


def _card(prefix, colours, label, p, x, y, lv_field, flip, came_from, departed_to, fate, survived,
          mine=None) -> list[dict]:
    """One piece as a card; `label`: the name a player reads (piece_names)."""
    side = p.get("side")
    col = colours.get(side, GREY)
    settled = p.get("state") == "settled"
    items = []
    if settled:
        items.append(rect(x, y, CARD_W, CARD_H, fill=_hatch(prefix, colours, side), stroke=col["stroke"], sw=2,
                          rx=6, dash="6 4", tip=label))
        items.append(rect(x + 6, y + 5, CARD_W - 12, 38, fill=PAPER, opacity=0.88, rx=3))
        items.append(rect(x + 6, y + 47, CARD_W - 12, 28, fill=PAPER, opacity=0.88, rx=3))
    else:
        items.append(rect(x, y, CARD_W, CARD_H, fill=col["fill"], stroke=col["stroke"], sw=2, rx=6, tip=label))
    items.append(shape(col["shape"], x + CARD_W - 14, y + 15, 6, fill=col["solid"], stroke=col["stroke"]))
    items.append(text(x + 10, y + 20, clip(label, 20), size=14, weight="bold", fill=col["ink"]))
    items.append(text(x + 10, y + 38, word="stats", size=12,
                      args={"lv": p.get("lv"), "lv_field": lv_field, "hp": p.get("hp"), "atk": p.get("atk"),
                            "structure": p.get("structure"), **({"mine": mine} if mine else {})}))
    items.append(text(x + 10, y + 57, word="face", size=11, fill=col["ink"], weight="bold",
                      args={"state": p.get("state"), "flip_to": flip["to"] if flip else None,
                            "flip_step": flip["step"] if flip else None, "came_from": came_from}))
    if departed_to is not None:
        code, args = "departed", {"to": departed_to}
    elif fate is not None:
        code, args = fate["code"], fate
    elif survived:
        code, args = "survived", {}
    else:
        code, args = "elsewhere", {}
    gone = code in ("captured", "fragment", "removed")
    if gone:
        items.append(rect(x, y, CARD_W, CARD_H, fill="#ffffff", opacity=0.55, rx=6))
        items.append(line(x + 4, y + CARD_H - 4, x + CARD_W - 4, y + 4, stroke="#8a8a8a", sw=1.5, opacity=0.8))
    items.append(text(x + 10, y + 73, word="fate-" + code, args=args, size=12, weight="bold",
                      fill=RED if gone else (col["ink"] if code == "survived" else MUTED)))
    return items


def combat_rounds(data: dict, max_rounds: int = 24, head: int = 10, tail: int = 5) -> dict[str, list[dict]]:
    """The calculation table (계산표) of each combat cell: groups of rows, one group
    per round of steps 4–5 (and one for attacks before step 4), each row one attack
    or a piece that did not attack, with the capture it caused. Long combats keep
    the first `head` and last `tail` rounds (an ``elided`` group in between)."""
    out: dict[str, list[dict]] = {}
    current: dict[str, dict] = {}
    for e in data.get("events", []):
        cell = e.get("cell")
        if cell is None or e.get("phase") is not None:
            continue
        t = e.get("type")
        groups = out.setdefault(cell, [])
        if t == "step" and e.get("step") in (4, 5):
            rnd = e.get("round")
            if not groups or groups[-1].get("round") != rnd:
                groups.append({"round": rnd, "rows": [], "order": {}})
            groups[-1]["order"][e["step"]] = list(e.get("order") or [])
            current[cell] = groups[-1]
            continue
        if t == "step" and e.get("step") == 6 and groups:
            groups[-1]["check"] = {"mobile": e.get("mobile") or {}, "next": e.get("next")}
            continue
        if t == "step" and e.get("step") == 7:
            groups.append({"round": None, "sweep": True, "rows": []})
            current[cell] = groups[-1]
            continue
        if t not in ("attack", "no-attack", "capture", "fragment", "sweep"):
            continue
        if cell not in current or (t == "attack" and e.get("step") in (1, 2, 3) and current[cell].get("round")):
            groups.append({"round": None, "early": True, "rows": []})
            current[cell] = groups[-1]
        g = current[cell]
        if t == "attack":
            settled = e.get("target_state") == "settled"
            g["rows"].append({"kind": "attack", "step": e.get("step"), "actor": e.get("actor"),
                              "side": e.get("side"), "source": e.get("source"), "target": e.get("target"),
                              "settled": settled, "amount": e.get("amount"), "hp_before": e.get("hp_before"),
                              "hp_after": e.get("hp_after"), "results": []})
        elif t == "no-attack":
            g["rows"].append({"kind": "no-attack", "step": e.get("step"), "actor": e.get("actor"),
                              "source": e.get("source"), "atk": e.get("atk"), "why": e.get("why"), "results": []})
        elif t in ("capture", "fragment"):
            last = g["rows"][-1] if g["rows"] else None
            res = {"what": t, "piece": e.get("piece"), "side": e.get("side"), "reason": e.get("reason")}
            if last is not None and last["kind"] == "attack" and last["target"] == e.get("piece") \
                    and e.get("reason") != "sweep":
                last["results"].append(res)
            elif last is not None and last["kind"] == "sweep" and e.get("reason") == "sweep":
                last["results"].append(res)
            else:
                g["rows"].append({"kind": "result", "step": e.get("step"), **res, "results": []})
        elif t == "sweep" and e.get("applies"):
            g["rows"].append({"kind": "sweep", "step": 7, "side": e.get("side"), "pieces": list(e.get("pieces") or []),
                              "results": []})
    for cell, groups in out.items():
        groups[:] = [g for g in groups if g["rows"] or g.get("round") is not None]
        rounds = [g for g in groups if g.get("round") is not None]
        if len(rounds) > max_rounds:
            keep = {id(g) for g in rounds[:head] + rounds[-tail:]}
            first_cut = rounds[head]
            new: list[dict] = []
            for g in groups:
                if g.get("round") is None or id(g) in keep:
                    new.append(g)
                elif g is first_cut:
                    new.append({"round": None, "elided": len(rounds) - head - tail,
                                "from": rounds[head]["round"], "to": rounds[-tail - 1]["round"], "rows": []})
            groups[:] = new
    return {c: g for c, g in out.items() if g}


# -------------------------------------------------------------------- board ----
SQ = 74  # square cell side
HEX_R = 44  # hexagon circumradius
MARGIN = 24


class _Layout:
    """Where each cell of a board is drawn: centre, outline, and the box pieces fit in."""

    def __init__(self, cells: list[str], adjacency: str | None, extra: Iterable[str] = ()):
        self.hex = adjacency == "hex"
        named = [c for c in dict.fromkeys(list(cells) + list(extra)) if c is not None]
        xy = {c: parse_xy(c) for c in named}
        loose = [c for c in named if xy[c] is None]
        if loose:  # an explicit board with named cells: a plain grid in list order
            ncol = max(1, math.ceil(math.sqrt(len(named))))
            coords = {c: (i % ncol, i // ncol) for i, c in enumerate(sorted(named, key=_cell_order))}
        else:
            coords = {c: xy[c] for c in named}
        self.coords = coords
        self.centres: dict[str, tuple[float, float]] = {}
        if not coords:
            coords = {"0,0": (0, 0)}
        raw = {c: self._raw_centre(*xy_) for c, xy_ in coords.items()}
        xs = [p[0] for p in raw.values()]
        ys = [p[1] for p in raw.values()]
        half_w = (math.sqrt(3) * HEX_R / 2) if self.hex else SQ / 2
        half_h = HEX_R if self.hex else SQ / 2
        self.dx = MARGIN + half_w - min(xs)
        self.dy = MARGIN + 14 + half_h - min(ys)
        self.w = max(xs) - min(xs) + 2 * half_w + 2 * MARGIN
        self.h = max(ys) - min(ys) + 2 * half_h + 2 * MARGIN + 14
        for c, (x, y) in raw.items():
            self.centres[c] = (x + self.dx, y + self.dy)

    def _raw_centre(self, x, y):
        if self.hex:  # axial coordinates, pointy-top hexagons
            return (math.sqrt(3) * HEX_R * (x + y / 2), 1.5 * HEX_R * y)
        return (x * SQ, y * SQ)

    def centre(self, cell):
        return self.centres.get(cell)

    def outline(self, cell, **kw) -> dict:
        cx, cy = self.centres[cell]
        if self.hex:
            pts = [(cx + HEX_R * math.cos(math.radians(60 * i - 30)), cy + HEX_R * math.sin(math.radians(60 * i - 30)))
                   for i in range(6)]
            return polygon(pts, **kw)
        return rect(cx - SQ / 2, cy - SQ / 2, SQ, SQ, **kw)

    def label_at(self, cell):
        cx, cy = self.centres[cell]
        if self.hex:
            return cx, cy - HEX_R * 0.55
        return cx - SQ / 2 + 4, cy - SQ / 2 + 12

    def badge_at(self, cell):
        """Where a cell's badge (활성, 조우) goes: top right of a square, top of a hexagon."""
        cx, cy = self.centres[cell]
        if self.hex:
            return cx, cy - HEX_R * 0.25 - 12
        return cx + SQ / 2 - 20, cy - SQ / 2 + 10

    def slots(self, cell, n):
        """Token centres for n pieces in a cell (3 a row) and the token radius."""
        cx, cy = self.centres[cell]
        per = 3
        rows = max(1, math.ceil(n / per))
        r = 10 if rows <= 2 else max(5, 20 / rows)
        step_x = 23 if not self.hex else 21
        step_y = 2 * r + 3
        top = cy + (6 if not self.hex else 4) - (rows - 1) * step_y / 2
        out = []
        for i in range(n):
            row, colm = divmod(i, per)
            in_row = min(per, n - row * per)
            x = cx + (colm - (in_row - 1) / 2) * step_x
            out.append((x, top + row * step_y))
        return out, r


def shape(kind: str, x, y, r, **kw) -> dict:
    """A side's shape (its palette's ``shape``) centred on x, y: a disc of radius r, a diamond or a square
    of about the same area."""
    if kind == "diamond":
        d = r * 1.25
        return polygon([(x, y - d), (x + d, y), (x, y + d), (x - d, y)], **kw)
    if kind == "square":
        d = r * 0.9
        return rect(x - d, y - d, 2 * d, 2 * d, rx=1.5, **kw)
    return circle(x, y, r, **kw)


def _token(prefix, colours, num, label, side, state, x, y, r) -> list[dict]:
    """A piece on a board: a numbered token in its side's shape (its number in the key beside the picture),
    filled (face up, mobile) or hatched and dashed (face down, settled); `label`, the name a player reads,
    its tooltip (the key prints it)."""
    col = colours.get(side, GREY)
    kind = col["shape"]
    if state == "settled":
        return [shape(kind, x, y, r, fill=_hatch(prefix, colours, side), stroke=col["stroke"], sw=2, dash="3 2",
                      tip=label),
                shape(kind, x, y, r * 0.62, fill=PAPER),
                text(x, y + r * 0.42, num, size=max(7, round(r * 1.05)), anchor="middle", weight="bold",
                     fill=col["ink"])]
    return [shape(kind, x, y, r, fill=col["solid"], stroke=col["stroke"], sw=1.5, tip=label),
            text(x, y + r * 0.42, num, size=max(7, round(r * 1.1)), anchor="middle", weight="bold", fill="#ffffff")]


def _board_cells(layout, board_cells, sea, homes, colours, highlight=None, dotted=()) -> list[dict]:
    items = []
    home_of = {c: s for s, cs in (homes or {}).items() for c in cs}
    for cell in layout.centres:
        if cell in dotted or (board_cells and cell not in board_cells):
            items.append(layout.outline(cell, fill=PAPER, stroke="#bbbbbb", dash="3 3"))
            lx, ly = layout.label_at(cell)
            items.append(text(lx, ly, cell, size=9, fill="#999999", anchor="middle" if layout.hex else "start"))
            items.append(text(*layout.centres[cell], word="off-board", size=9, fill="#999999", anchor="middle"))
            continue
        fill = SEA if cell in sea else LAND
        if highlight and cell in highlight:
            fill = highlight[cell]
        items.append(layout.outline(cell, fill=fill, stroke=GRID))
        if cell in home_of:
            col = colours.get(home_of[cell], GREY)
            items.append(layout.outline(cell, fill="none", stroke=col["stroke"], sw=3))
        lx, ly = layout.label_at(cell)
        items.append(text(lx, ly, cell, size=9, fill=MUTED, anchor="middle" if layout.hex else "start"))
        if cell in sea:
            cx, cy = layout.centres[cell]
            items.append(text(cx, cy + 4, word="sea", size=10, fill="#55788f", anchor="middle"))
        if cell in home_of:
            cx, cy = layout.centres[cell]
            items.append(text(cx, cy + (SQ / 2 - 6 if not layout.hex else HEX_R * 0.72), word="home",
                              args={"side": home_of[cell]}, size=9, anchor="middle", weight="bold",
                              fill=colours.get(home_of[cell], GREY)["ink"]))
    return items


def _badge(x, y, word, fill, args=None) -> list[dict]:
    return [rect(x - 17, y - 9, 34, 16, fill=fill, rx=8),
            text(x, y + 3.5, word=word, args=args, size=10, anchor="middle", weight="bold", fill="#ffffff")]


def move_boards(data: dict, ids: str = "") -> dict:
    """The board before and after a move turn: tokens numbered (see `tokens`),
    face-up pieces filled, face-down ones hatched; applied paths as arrows in the
    side's colour, refused ones dashed red with ✕; encounter cells badged."""
    pieces = data.get("pieces") or {}
    board = data.get("board") or {}
    attacker = data.get("attacker")
    colours = side_colours([attacker] + [p.get("side") for p in pieces.values()])
    positions = data.get("positions") or {}
    moves = data.get("moves")
    applied = [e for e in data.get("events", []) if e.get("type") == "move"]
    if moves is None:  # a result without the declared moves: the applied ones are all we know
        moves = [{"move": e.get("move"), "piece": e["piece"], "path": list(e.get("path") or []), "sp": e.get("sp")}
                 for e in applied]
    errors = data.get("errors") or []
    refused = {e.get("move"): e for e in errors if e.get("move") is not None}
    board_cells, layout, dotted = _move_layout(data, board, pieces, positions, moves, errors)
    sea = set(board.get("sea") or [])
    homes = board.get("homes") or {}
    tokens = _Tokens(layout, pieces, colours, piece_names(data))
    activated = []
    for e in data.get("events", []):
        if e.get("type") == "activate":
            activated = list(e.get("cells") or [])

    # ----- before: start positions, activated cells, every declared path
    pre = f"{ids}mvb"
    highlight = {c: "#fff3c4" for c in activated}
    items = [rect(0, 0, layout.w, layout.h, fill=PAPER)]
    items += _board_cells(layout, set(board_cells), sea, homes, colours, highlight, dotted)
    for c in activated:
        if layout.centre(c) is not None:
            items += _badge(*layout.badge_at(c), "activated", "#b98900")
    start = {pid: p.get("from") for pid, p in pieces.items()}
    token_xy: dict[str, tuple[float, float]] = {}
    token_items = tokens.at(start, pre, spots_out=token_xy)
    paths, groups = _move_paths(moves, pieces, start, {e.get("move") for e in applied},
                                {e.get("move"): e.get("cut") for e in applied if e.get("cut")})
    arrows, marks = _path_marks(paths, groups, layout, start, token_xy, pieces, colours, pre, refused)
    items += arrows + token_items + marks
    before = {"id": pre, "w": _r(layout.w), "h": _r(layout.h), "items": items, "defs": _defs(pre, colours)}

    # ----- after: final positions, encounter cells
    pre = f"{ids}mva"
    enc = list(data.get("encounters") or [])
    items = [rect(0, 0, layout.w, layout.h, fill=PAPER)]
    items += _board_cells(layout, set(board_cells), sea, homes, colours, {c: "#fde2d8" for c in enc}, dotted)
    items += tokens.at(positions, pre)
    for c in enc:
        if layout.centre(c) is not None:
            items += _badge(*layout.badge_at(c), "encounter", RED)
    after = {"id": pre, "w": _r(layout.w), "h": _r(layout.h), "items": items, "defs": _defs(pre, colours)}
    listed = [{"no": tokens.numbers[pid], "id": pid, **p, "name": tokens.names.get(pid, pid), "to": positions.get(pid),
               "colour": colours.get(p.get("side"), GREY)} for pid, p in pieces.items()]
    return {"before": before, "after": after, "tokens": listed, "legend": legend(colours)}


def _move_layout(data: dict, board: dict, pieces: dict, positions: dict, moves: list, errors: list):
    """The cells a move turn's boards draw — the board's, and any other cell the turn names (dotted on a
    given board; without one, a grid from 0,0 to the furthest cell named) — and their layout:
    (board cells, layout, dotted cells)."""
    board_cells = list(board.get("cells") or [])
    mentioned = [p.get("from") for p in pieces.values()] + list(positions.values())
    for m in moves:
        mentioned += list(m.get("path") or [])
    for e in errors:
        d = e.get("detail") or {}
        mentioned += [d.get(k) for k in ("cell", "to", "next") if isinstance(d.get(k), str)]
    for e in data.get("events", []):
        if e.get("type") == "activate":
            mentioned += list(e.get("cells") or [])
    extra = [c for c in mentioned if c is not None and c not in board_cells]
    if not board_cells:
        xs = [parse_xy(c) for c in extra if parse_xy(c)]
        if xs and len(xs) == len(extra):  # a grid from 0,0 to the furthest cell named
            mx, my = max(max(x for x, _ in xs), 0), max(max(y for _, y in xs), 0)
            board_cells = [f"{x},{y}" for y in range(my + 1) for x in range(mx + 1)]
            extra = [c for c in extra if c not in board_cells]
    layout = _Layout(board_cells, board.get("adjacency"), extra)
    return board_cells, layout, set(extra) if board.get("cells") else set()


class _Tokens:
    """The numbered tokens of a move turn's pieces, placed in their cells (sides in colour order)."""

    def __init__(self, layout, pieces: dict, colours: dict, names: dict):
        self.layout, self.pieces, self.colours, self.names = layout, pieces, colours, names
        self.numbers = {pid: i + 1 for i, pid in enumerate(pieces)}

    def at(self, where: dict[str, str], prefix, spots_out=None) -> list:
        """The tokens of the pieces at `where` (piece → cell); spots_out gets each one's centre."""
        items = []
        by_cell: dict[str, list[str]] = {}
        for pid in self.pieces:
            c = where.get(pid)
            if c is not None and self.layout.centre(c) is not None:
                by_cell.setdefault(c, []).append(pid)
        side_rank = {s: i for i, s in enumerate(self.colours)}
        for c, ids in by_cell.items():
            ids.sort(key=lambda p: side_rank.get(self.pieces[p].get("side"), 9))
            spots, r = self.layout.slots(c, len(ids))
            for pid, (x, y) in zip(ids, spots):
                if spots_out is not None:
                    spots_out[pid] = (x, y)
                items += _token(prefix, self.colours, self.numbers[pid], self.names.get(pid, pid),
                                self.pieces[pid].get("side"), self.pieces[pid].get("state"), x, y, r)
        return items


def _move_paths(moves: list, pieces: dict, start: dict, applied_idx: set, cut_of: dict) -> tuple[list, dict]:
    """Each declared path as drawn, from where its piece stood then: (move, cells, went), and the moves that
    share a drawn path ((cells, went) → move numbers). A move stopped on entering an enemy cell is two
    paths: the part it went, and the rest, refused."""
    pos = dict(start)
    groups: dict[tuple, list[int]] = {}
    paths = []
    for m in moves:
        pid = m.get("piece")
        if pid not in pieces:
            continue
        cells = [pos.get(pid)] + list(m.get("path") or [])
        ok = m.get("move") in applied_idx
        cut = cut_of.get(m.get("move")) or []
        if ok and cut and len(cells) > len(cut) + 1:
            # stopped on entering an enemy cell: the part it went in its side's colour, the rest refused
            done, rest = cells[:len(cells) - len(cut)], cells[len(cells) - len(cut) - 1:]
            for part, went in ((done, True), (rest, False)):
                paths.append((m, part, went))
                groups.setdefault((tuple(part), went), []).append(m.get("move"))
            pos[pid] = done[-1]
            continue
        paths.append((m, cells, ok))
        groups.setdefault((tuple(cells), ok), []).append(m.get("move"))
        if ok:
            pos[pid] = cells[-1]
    return paths, groups


def _path_marks(paths: list, groups: dict, layout, start: dict, token_xy: dict, pieces: dict, colours: dict,
                pre: str, refused: dict) -> tuple[list, list]:
    """The arrows of the paths (side's colour; refused: dashed red), identical paths side by side, and one
    label per group of them (refused: a red ✕ where the move was stopped): (arrows, marks)."""
    seen: dict[tuple, int] = {}
    arrows, marks = [], []
    for m, cells, ok in paths:
        pts = [layout.centre(c) for c in cells]
        if any(p is None for p in pts) or len(pts) < 2:
            continue
        key = (tuple(cells), ok)
        k = seen.get(key, 0)
        seen[key] = k + 1
        n = len(groups[key])
        off = (k - (n - 1) / 2) * 4
        pts = [(x + off, y + off) for x, y in pts]
        if cells[0] == start.get(m["piece"]) and m["piece"] in token_xy:
            pts[0] = token_xy[m["piece"]]  # from the piece itself, not the cell's centre
        (x1, y1), (x2, y2) = pts[-2], pts[-1]
        d = math.hypot(x2 - x1, y2 - y1) or 1
        end = (x2 - (x2 - x1) / d * 20, y2 - (y2 - y1) / d * 20)
        pts = pts[:-1] + [end]
        side = pieces[m["piece"]].get("side")
        if ok:
            arrows.append(polyline(pts, stroke=colours.get(side, GREY)["stroke"], sw=2.5,
                                   marker=_arrow(pre, colours, side), opacity=0.9))
        else:
            arrows.append(polyline(pts, stroke=RED, sw=2.5, dash="6 4", marker=f"{pre}-arrow-x", opacity=0.9))
        if k == n - 1:  # one label per group of identical paths
            nums = "·".join(str(i + 1) for i in groups[key])
            lx, ly = end
            if not ok:
                err = refused.get(m.get("move")) or {}
                dd = err.get("detail") or {}
                at = next((dd.get(k2) for k2 in ("next", "to", "cell") if isinstance(dd.get(k2), str)
                           and layout.centre(dd.get(k2)) is not None), None)
                if at is not None:
                    lx, ly = layout.centres[at]
                marks += [line(lx - 7, ly - 7, lx + 7, ly + 7, stroke=RED, sw=3),
                          line(lx - 7, ly + 7, lx + 7, ly - 7, stroke=RED, sw=3)]
            marks.append(text(lx + 9, ly - 9, word="move-no", args={"nums": nums, "refused": not ok}, size=10,
                              weight="bold", fill=RED if not ok else INK, cls="halo"))
    return arrows, marks


def victory_board(data: dict, ids: str = "") -> dict:
    """Cells coloured by who secures / occupies them, contested cells striped, homes outlined."""
    cells = data.get("cells") or {}
    homes = data.get("homes") or {}
    player = data.get("player")
    order = [player] + list((data.get("vp") or {}).keys()) + list(homes.keys())
    for c in cells.values():
        order += list(c.get("sides") or [])
    colours = side_colours(order)
    named = list(cells) + [c for cs in homes.values() for c in cs]
    xy = [parse_xy(c) for c in named]
    if named and all(xy):
        mx = max(max(p[0] for p in xy), 2)
        my = max(max(p[1] for p in xy), 2)
        grid = [f"{x},{y}" for y in range(my + 1) for x in range(mx + 1)]
        extra = []
    else:
        grid, extra = [], named
    layout = _Layout(grid, "square8", extra)
    pre = f"{ids}vb"
    fill = {}
    for cell, c in cells.items():
        st, by = c.get("status"), c.get("by")
        if st == "secured" and by in colours:
            fill[cell] = colours[by]["fill"]
        elif st == "occupied" and by in colours:
            fill[cell] = PAPER
    items = [rect(0, 0, layout.w, layout.h, fill=PAPER)]
    items += _board_cells(layout, set(layout.centres), set(), homes, colours, fill)
    for cell, c in cells.items():
        if layout.centre(cell) is None:
            continue
        cx, cy = layout.centres[cell]
        st, by = c.get("status"), c.get("by")
        if st == "contested":
            sides = list(c.get("sides") or [])
            for i, s in enumerate(sides[:2]):
                col = colours.get(s, GREY)
                x0 = cx - SQ / 2 + i * SQ / 2
                items.append(rect(x0 + 3, cy - SQ / 2 + 16, SQ / 2 - 6, SQ - 32, fill=col["fill"], stroke=col["stroke"],
                                  dash="3 2"))
            items.append(text(cx, cy + 4, word="contested", size=11, anchor="middle", weight="bold"))
        elif st == "secured":
            col = colours.get(by, GREY)
            items.append(layout.outline(cell, fill="none", stroke=col["stroke"], sw=2))
            items.append(rect(cx - 22, cy - 13, 44, 30, fill=col["solid"], rx=5))
            items.append(text(cx, cy, word="side", args={"side": by}, size=11, anchor="middle", weight="bold",
                              fill="#ffffff"))
            items.append(text(cx, cy + 13, word="secured", size=10, anchor="middle", fill="#ffffff"))
        elif st == "occupied":
            col = colours.get(by, GREY)
            items.append(rect(cx - 22, cy - 13, 44, 30, fill=PAPER, stroke=col["stroke"], sw=2, dash="4 3", rx=5))
            items.append(text(cx, cy, word="side", args={"side": by}, size=11, anchor="middle", weight="bold",
                              fill=col["ink"]))
            items.append(text(cx, cy + 13, word="occupied", size=10, anchor="middle", fill=col["ink"]))
    scene = {"id": pre, "w": _r(layout.w), "h": _r(layout.h), "items": items, "defs": _defs(pre, colours)}
    return {"board": scene, "legend": legend(colours)}


# -------------------------------------------------------------------- field ----
SLOT_W, SLOT_H, SLOT_GAP, FIELD_PAD = 104, 140, 10, 12


def field_slots(data: dict, ids: str = "") -> dict:
    """The five slots left to right: the top card face up (filled) or face down
    (hatched), the cards under it peeking out, retired cards marked, levels."""
    side = data.get("side")
    colours = side_colours([side])
    col = colours.get(side, GREY)
    pre = f"{ids}fd"
    slots = list(data.get("slots") or [])
    retired = set(data.get("retired") or [])
    levels = data.get("levels") or {}
    active = set(data.get("active") or [])
    max_under = max([len(s.get("under") or []) for s in slots] + [0])
    top_pad = 12 + min(max_under, 4) * 8
    n = max(5, len(slots))
    w = FIELD_PAD * 2 + n * SLOT_W + (n - 1) * SLOT_GAP
    h = top_pad + SLOT_H + 30 + max_under * 15 + 6
    items = [rect(0, 0, w, h, fill=PAPER)]
    xs = {}
    for i, s in enumerate(slots):
        x = FIELD_PAD + i * (SLOT_W + SLOT_GAP)
        cx = x + SLOT_W / 2
        y = top_pad
        xs[s.get("top")] = x
        under = list(s.get("under") or [])
        for k, name in enumerate(reversed(under[-4:])):  # deepest card furthest up
            off = (len(under[-4:]) - k) * 8
            items.append(rect(x + 4, y - off, SLOT_W - 8, SLOT_H, fill="#efefef", stroke="#9a9a9a", rx=6, tip=name))
        top = s.get("top")
        if top is None:
            items.append(rect(x, y, SLOT_W, SLOT_H, fill="none", stroke="#aaaaaa", sw=1.5, rx=6, dash="5 4"))
            items.append(text(cx, y + SLOT_H / 2 + 5, word="empty-slot", size=14, anchor="middle", fill="#999999"))
        else:
            special = s.get("type") == "special"
            if s.get("face") == "down":
                items.append(rect(x, y, SLOT_W, SLOT_H, fill=_hatch(pre, colours, side), stroke=col["stroke"], sw=2,
                                  rx=6, dash="6 4", tip=top))
                items.append(rect(x + 5, y + 7, SLOT_W - 10, 50, fill=PAPER, opacity=0.9, rx=3))
                items.append(rect(x + 5, y + 98, SLOT_W - 10, 24, fill=PAPER, opacity=0.9, rx=3))
            else:
                items.append(rect(x, y, SLOT_W, SLOT_H, fill="#f1f1f1" if special else col["fill"],
                                  stroke=col["stroke"], sw=2, rx=6, tip=top))
            items.append(text(cx, y + 28, clip(top, 10), size=16, anchor="middle", weight="bold", fill=col["ink"]))
            items.append(text(cx, y + 48, word="face-card", args={"face": s.get("face")},
                              size=12, anchor="middle", fill=col["ink"]))
            if top in levels:
                items.append(text(cx, y + 88, word="level", args={"lv": levels.get(top)}, size=19, anchor="middle",
                                  weight="bold"))
            if special:
                items.append(text(cx, y + 114, word="special", size=13, anchor="middle", fill=col["ink"]))
            elif top in active:
                items.append(text(cx, y + 114, word="active", size=13, anchor="middle", fill=col["ink"]))
            if top in retired:
                items.append(text(cx, y + 114, word="retired", size=13, anchor="middle", fill=RED, weight="bold"))
        items.append(text(cx, y + SLOT_H + 19, word="slot", args={"n": s.get("slot", i + 1)}, size=13,
                          anchor="middle", weight="bold", fill=MUTED))
        for k, name in enumerate(under):
            items.append(text(cx, y + SLOT_H + 36 + k * 15, word="under",
                              args={"name": clip(name, 8), "retired": name in retired}, size=11, anchor="middle",
                              fill=RED if name in retired else MUTED))
    for a, b in (data.get("bonds") or {}).items():
        if a in xs and b in xs:
            xa, xb = sorted((xs[a], xs[b]))
            ya = top_pad + SLOT_H - 26
            items.append(line(xa + SLOT_W - 10, ya, xb + 10, ya, stroke=col["stroke"], sw=3))
            items.append(text((xa + SLOT_W + xb) / 2, ya - 6, word="bond", size=10, anchor="middle",
                              fill=col["ink"], weight="bold", cls="halo"))
    return {"field": {"id": pre, "w": _r(w), "h": _r(h), "items": items, "defs": _defs(pre, colours)},
            "legend": legend(colours)}
