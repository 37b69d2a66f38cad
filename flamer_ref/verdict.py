"""The verdict that leads every human `flamer simulate` / `flamer fight` answer.

`build(data)` takes the JSON a simulate run produces (a combat, move, victory or
field result, or the output of --compare / --all-branches) and returns the
verdict as structured data: who holds each combat cell, who captured whom, the
one or two clauses that decided it; for a move which moves were refused and the
encounter cells; for a victory check the VP and the winner; for a field the
active / retired cards and levels. No sentences: templates/simulate/_verdict.*.j2
word it (at most four lines). A pure function of its argument.
"""

from __future__ import annotations

#: how many decisive clauses a verdict names
MAX_CLAUSES = 2


def build(data: dict) -> dict:
    kind = data.get("kind")
    fn = {"combat": combat, "move": move, "victory": victory, "field": field, "round": round_, "game": game,
          "compare": compare, "branches": branches, "by-value": by_value}.get(kind)
    if fn is None:
        return {"kind": kind}
    out = fn(data)
    if data.get("player_stats"):  # flamer fight: values the player gave for stats the cards leave unknown
        out["player_stats"] = [{"label": r["label"], "stat": r["stat"], "value": r["value"]}
                               for r in data["player_stats"]]
    return out


# ---------------------------------------------------------------- combat ----
def _cite(rule: str | None, ruling: str | None = None, interpretation: str | None = None) -> dict:
    return {"rule": rule, "ruling": ruling, "interpretation": interpretation}


def _label(data: dict, pid: str) -> str:
    p = (data.get("pieces") or {}).get(pid) or {}
    return p.get("label") or p.get("card") or p.get("name") or pid


def _pieces(data: dict, ids) -> list[dict]:
    return [{"id": i, "label": _label(data, i)} for i in ids]


def _groups(pieces: list[dict]) -> list[dict]:
    """Pieces by label, in order of first appearance: [{label, count, ids}]."""
    out: dict[str, dict] = {}
    for p in pieces:
        g = out.setdefault(p["label"], {"label": p["label"], "count": 0, "ids": []})
        g["count"] += 1
        g["ids"].append(p["id"])
    return list(out.values())


def cell_status(c: dict, unresolved_here: bool = False) -> str:
    """One word for a combat cell's outcome: held | standoff | unresolved | shared | empty | ended."""
    if c.get("standoff"):
        return "standoff"
    end = c.get("end")
    if end == "stalemate":
        return "unresolved"
    if end == "vacated":
        return "ended"
    if c.get("occupant"):
        return "held"
    left = [s for s, ids in (c.get("survivors") or {}).items() if ids]
    return "shared" if len(left) > 1 else "empty"


def _events_by_cell(data: dict) -> dict:
    """cell → its events, in order: one pass over the events (not one per cell — 1,000 cells)."""
    out: dict = {}
    for e in data.get("events", ()):
        out.setdefault(e.get("cell"), []).append(e)
    return out


def _cell_clauses(data: dict, cell: str, c: dict, by_cell: dict | None = None) -> list[dict]:
    """The clauses that decided one cell, most decisive first."""
    evs = (by_cell if by_cell is not None else _events_by_cell(data)).get(cell, [])
    out: list[dict] = []

    def add(rule, ruling=None, interpretation=None):
        if rule and all(x["rule"] != rule for x in out):
            out.append(_cite(rule, ruling, interpretation))

    end = next((e for e in reversed(evs) if e["type"] == "end"), None)
    status = cell_status(c)
    if status in ("standoff", "unresolved", "ended") and end is not None:
        add(end.get("rule"), end.get("ruling"), end.get("interpretation"))
    for u in data.get("unresolved", ()):
        if u.get("cell") == cell and u.get("ruling"):
            add(u.get("rule"), u.get("ruling"))
    for e in evs:
        if e["type"] == "vacated" and e.get("continues"):
            add(e.get("rule"), e.get("ruling"))
    for e in evs:
        if e["type"] == "sweep" and (e.get("applies") or e.get("why") in ("no-attack-executed", "ruling")):
            add(e.get("rule"), e.get("ruling"), e.get("interpretation"))
    caps = [e for e in evs if e["type"] in ("capture", "fragment") and e.get("reason") in ("hp", "settled-hit")]
    # the capture that took the loser's last piece decides most; then the other kinds of capture
    for e in reversed(caps):
        add(e.get("because") or e.get("rule"))
    if end is not None:
        add(end.get("rule"), end.get("ruling"), end.get("interpretation"))
    return out


def combat(data: dict) -> dict:
    cells = []
    per_cell = []
    open_cells = {u.get("cell") for u in data.get("unresolved", ()) if u.get("cell")}
    by_cell = _events_by_cell(data)
    for cell, c in (data.get("cells") or {}).items():
        status = cell_status(c)
        left = [s for s, ids in (c.get("survivors") or {}).items() if ids]
        occupant = c.get("occupant")
        cells.append({"cell": cell, "status": status, "side": occupant,
                      "role": None if occupant is None else ("attacker" if occupant == data.get("attacker")
                                                             else "defender"),
                      "rounds": c.get("rounds", 0), "left": left, "open": cell in open_cells})
        per_cell.append(_cell_clauses(data, cell, c, by_cell))
    # the decisive clauses: the first of each cell, then the second …, at most MAX_CLAUSES in all
    decisive: list[dict] = []
    depth = max((len(x) for x in per_cell), default=0)
    for i in range(depth):
        for lst in per_cell:
            if i < len(lst) and all(d["rule"] != lst[i]["rule"] for d in decisive):
                decisive.append(lst[i])
    if not cells:
        decisive = []
    for u in data.get("unresolved", ()):  # a gap with no cell (no resolution point for the stack)
        if not u.get("cell") and u.get("rule") and all(d["rule"] != u["rule"] for d in decisive):
            decisive.insert(0, _cite(u["rule"], u.get("ruling")))
    captures = []
    for side in (data.get("attacker"), data.get("defender")):
        ids = (data.get("prisoners") or {}).get(side) or []
        if ids:
            pcs = _pieces(data, ids)
            captures.append({"side": side, "pieces": pcs, "groups": _groups(pcs)})
    order_assumed = any(a.get("choice") == "combat-order" for a in data.get("assumed", ()))
    return {"kind": "combat", "attacker": data.get("attacker"), "defender": data.get("defender"),
            "cells": cells, "captures": captures,
            "fragments": _groups(_pieces(data, data.get("fragments") or [])),
            "removed": _groups(_pieces(data, data.get("removed") or [])), "clauses": decisive[:MAX_CLAUSES],
            "unresolved": len(data.get("unresolved") or ()), "assumed": len(data.get("assumed") or ()),
            # what was assumed, so the 주의 line can say it (templates word each choice)
            "assumptions": [dict(a) for a in data.get("assumed") or ()],
            "order_assumed": order_assumed, "order": list(data.get("order") or [])}


# ------------------------------------------------------------ other kinds ----
def _first_rule(data: dict) -> list[dict]:
    """The clause of the result's last event that cites one (what the account ends on)."""
    for e in reversed(data.get("events") or ()):
        if e.get("rule"):
            return [_cite(e["rule"], e.get("ruling"), e.get("interpretation"))]
    return []


def move(data: dict) -> dict:
    refused = []
    for e in data.get("errors") or ():
        refused.append({"move": e.get("move"), "piece": e.get("piece"),
                        "label": _label(data, e["piece"]) if e.get("piece") else None,
                        "reason": e.get("reason"), "rule": e.get("rule"), "ruling": e.get("ruling")})
    clauses: list[dict] = []
    for r in refused:
        if r["rule"] and all(c["rule"] != r["rule"] for c in clauses):
            clauses.append(_cite(r["rule"], r["ruling"]))
    if not refused:
        stops = [e for e in data.get("events", ()) if e["type"] == "stop"]
        for e in stops[:1]:
            clauses.append(_cite(e.get("rule"), e.get("ruling")))
        enc = [e for e in data.get("events", ()) if e["type"] == "encounter"]
        for e in enc[:1]:
            if all(c["rule"] != e.get("rule") for c in clauses):
                clauses.append(_cite(e.get("rule"), e.get("ruling")))
        if not clauses:
            clauses += _first_rule(data)
    return {"kind": "move", "player": data.get("attacker"), "valid": bool(data.get("valid")),
            "refused": refused, "encounters": list(data.get("encounters") or []),
            "clauses": clauses[:MAX_CLAUSES], "unresolved": len(data.get("unresolved") or ())}


def victory(data: dict) -> dict:
    player = data.get("player")
    vp_ev = next((e for e in data.get("events", ()) if e["type"] == "vp"), {})
    clauses = [_cite("victory.vp")]
    if data.get("winner"):
        clauses.insert(0, _cite("victory.conditions"))
    else:
        clauses.append(_cite("victory.conditions"))
    secured = data.get("secured") or {}
    other = next((s for s in secured if s != player), None)
    return {"kind": "victory", "player": player, "other": other, "secured": dict(secured),
            "vp_before": vp_ev.get("before"), "vp_after": (data.get("vp") or {}).get(player),
            "vp_gain": data.get("vp_gain"), "winner": data.get("winner"), "reasons": list(data.get("reasons") or []),
            "clauses": clauses[:MAX_CLAUSES], "unresolved": len(data.get("unresolved") or ())}


def field(data: dict) -> dict:
    errors = [{"action": e.get("action"), "reason": e.get("reason"), "rule": e.get("rule"), "card": e.get("card")}
              for e in data.get("errors") or ()]
    clauses: list[dict] = []
    for e in errors:
        if e["rule"] and all(c["rule"] != e["rule"] for c in clauses):
            clauses.append(_cite(e["rule"]))
    for e in data.get("events", ()):
        if e["type"] in ("retire", "field-effect", "uncover", "grade-check", "removed") and e.get("rule"):
            if all(c["rule"] != e["rule"] for c in clauses):
                clauses.append(_cite(e["rule"], e.get("ruling"), e.get("interpretation")))
    if not clauses:
        clauses += _first_rule(data)
    levels = {k: v for k, v in (data.get("levels") or {}).items()}
    return {"kind": "field", "side": data.get("side"), "active": list(data.get("active") or []),
            "retired": list(data.get("retired") or []), "levels": levels, "bonds": dict(data.get("bonds") or {}),
            "errors": errors, "clauses": clauses[:MAX_CLAUSES], "unresolved": len(data.get("unresolved") or ())}


# ----------------------------------------------------------------- round ----
def round_(data: dict) -> dict:
    """A whole round: won or not, VP and 도르 before → after, the encounters and what the combat
    decided, how many inputs were refused and gaps met."""
    player = data.get("player")
    final = data.get("final") or {}
    turns = {t["turn"]: t["result"] for t in data.get("turns") or ()}
    ended = data.get("ended")
    clauses: list[dict] = []
    if ended:
        clauses.append(_cite("victory.conditions"))
        clauses.append(_cite("victory.home-timing" if "home" in ended.get("reasons", ()) else "victory.vp"))
    fight = combat(turns["combat"]) if "combat" in turns else None
    if not ended:
        if fight and fight["clauses"]:
            clauses.append(fight["clauses"][0])
        clauses.append(_cite("supply.income"))
    supply = turns.get("supply") or {}
    refused = sum(len(t["result"].get("errors") or ()) for t in data.get("turns") or ())
    move_res = turns.get("move") or {}
    paid = [e["cost"] for e in (turns.get("production") or {}).get("events") or () if e.get("type") == "pay"]
    return {"kind": "round", "paid": sum(paid) if paid else None, "player": player, "opponent": data.get("opponent"), "ended": ended,
            "turns": [t["turn"] for t in data.get("turns") or ()],
            "vp_before": (data.get("vp_before") or {}).get(player), "vp_after": (final.get("vp") or {}).get(player),
            "dor_before": (data.get("dor_before") or {}).get(player), "dor_after": (final.get("dor") or {}).get(player),
            "income": supply.get("income"), "income_ran": "supply" in turns,
            "encounters": list(move_res.get("encounters") or []), "combat": fight, "refused": refused,
            "clauses": clauses[:MAX_CLAUSES], "unresolved": len(data.get("unresolved") or ())}


# ------------------------------------------------------------------ game ----
def game(data: dict) -> dict:
    """A whole game record: how many rounds ran of those written, who won in which round and why,
    the first play the rules refused, VP and 도르 at the end."""
    final = data.get("final") or {}
    ended = data.get("ended")
    clauses: list[dict] = [_cite("round.turns")]
    if ended:
        clauses.insert(0, _cite("victory.home-timing" if "home" in ended.get("reasons", ()) else "victory.vp"))
    fi = data.get("first_illegal")
    if fi and fi.get("clause"):
        clauses.append(_cite(fi["clause"]))
    refused = sum(len(t["result"].get("errors") or ()) for r in data.get("rounds") or () for t in r.get("turns") or ())
    refused += sum(len(r.get("errors") or ()) for r in data.get("rounds") or ())
    return {"kind": "game", "played": len(data.get("rounds") or ()), "written": data.get("rounds_written"),
            "ended": ended, "first_illegal": fi, "vp": dict(final.get("vp") or {}), "dor": dict(final.get("dor") or {}),
            "refused": refused, "clauses": clauses[:MAX_CLAUSES], "unresolved": len(data.get("unresolved") or ())}


# ------------------------------------------------------- compare / branches ----
def compare(data: dict) -> dict:
    """Lead with the conclusion: what each date gives and the ruling that makes the difference."""
    a, b = data["dates"]
    early, late = sorted((a, b))
    res = data.get("results") or {}
    errs = data.get("errors") or {}
    sides = {}
    for d in (early, late):
        r = res.get(d)
        sides[d] = {"date": d, "error": errs.get(d), "verdict": build(r) if r else None}
    makers = [{"ruling": r.get("ruling"), "date": r.get("date"), "label": r.get("label"), "title": r.get("title")}
              for r in data.get("by_ruling") or ()]
    changes = data.get("changes") or []
    same = not data.get("differences") and not changes and bool(errs.get(a)) == bool(errs.get(b))
    pivot = makers[0]["date"] if len(makers) == 1 else None
    # what differs, by kind of difference (a field of a turn result, or cell / declaration / piece …)
    what: list[str] = []
    for c in changes:
        w = c["key"].split(".")[0] if c.get("what") == "value" else c.get("what")
        if w and w not in what:
            what.append(w)
    return {"kind": "compare", "early": sides[early], "late": sides[late], "same": same, "rulings": makers,
            "pivot": pivot, "changes": len(changes) or len(data.get("differences") or []), "what": what}


def branches(data: dict) -> dict:
    outs = []
    for br in data.get("branches") or ():
        o = br.get("outcome") or {}
        if br.get("error"):
            outs.append({"orders": br.get("orders"), "error": br["error"], "cells": []})
            continue
        if o.get("kind", "combat") != "combat":
            # a round's branches differ in its 전투턴: its combat cells are part of the summary
            fought = next((t["result"] for t in o.get("turns") or () if t.get("turn") == "combat"), {})
            cells = [{"cell": cell, "status": cell_status(c), "side": c.get("occupant"), "rounds": c.get("rounds", 0)}
                     for cell, c in (fought.get("cells") or {}).items()]
            outs.append({"orders": br.get("orders"), "error": None, "cells": cells, "turn": build(o)})
            continue
        cells = [{"cell": cell, "status": cell_status(c), "side": c.get("occupant"), "rounds": c.get("rounds", 0)}
                 for cell, c in (o.get("cells") or {}).items()]
        outs.append({"orders": br.get("orders"), "error": None, "cells": cells})
    return {"kind": "branches", "fixed": bool(data.get("fixed_by_file")), "tried": data.get("orders_tried", 1),
            "distinct": data.get("distinct", len(outs)), "outcomes": outs, "no_choices": data.get("note") in ("no-choices", "game-no-choice"),
            "independent": data.get("note") == "independent", "total": data.get("orders_total"),
            "round_note": data.get("note") if data.get("note") in ("round-no-combat", "round-one-cell") else None}


def by_value(data: dict) -> dict:
    """A verdict that depends on one unknown stat (runner.by_value): the verdict of each range of its values."""
    dep = data["depends_on"]
    ranges = []
    for r in data["ranges"]:
        v = build(r["result"])
        if r["from"] != r["to"]:  # how many rounds a combat ran may differ inside the range: not said
            for c in list(v.get("cells") or ()) + list((v.get("combat") or {}).get("cells") or ()):
                c["rounds"] = None
        if v["kind"] in ("round", "game"):  # who took whom by the end (the combats of the whole record)
            before = r["result"].get("prisoners_before") or {}
            v["captures"] = []
            for side, ids in ((r["result"].get("final") or {}).get("prisoners") or {}).items():
                new = [i for i in ids if i not in (before.get(side) or ())]
                if new:
                    pcs = _pieces(r["result"], new)
                    v["captures"].append({"side": side, "pieces": pcs, "groups": _groups(pcs)})
        ranges.append({"from": r["from"], "to": r["to"], "value": r["value"], "verdict": v})
    return {"kind": "by-value", "label": dep["label"], "stat": dep["stat"], "stat_name": dep["stat_name"],
            "least": dep["least"], "ranges": ranges}


__all__ = ["build", "cell_status"]
