"""What a person reads around an answer, as data: the names of pieces, cells in the form a player
writes them, the few reasons that decided a combat, and what changed between two dates.

Presentation layer, like verdict.py: pure functions of a result JSON (the engine's events and
outcome), no sentences — templates/simulate/_people.j2 and _reasons.j2 word them. Nothing here
changes a result: the JSON a bot reads is the engine's, ids and all; people read card names.
"""

from __future__ import annotations

import re
from collections import Counter

_XY = re.compile(r"^\s*-?\d+\s*,\s*-?\d+\s*$")

#: the most reasons the short answer gives for one answer (the rest are in the full story)
MAX_REASONS = 6


# ------------------------------------------------------------------ names ----
def _label(p: dict | None) -> str | None:
    if not isinstance(p, dict):
        return None
    return p.get("label") or p.get("card") or p.get("name")


def _collect(data, labels: dict) -> None:
    """piece id → label from every place a result (or an answer holding results) keeps pieces."""
    if not isinstance(data, dict):
        return
    for pid, p in (data.get("pieces") or {}).items():
        lab = _label(p)
        if lab and pid not in labels:
            labels[pid] = lab
    final = data.get("final")
    if isinstance(final, dict):  # a round: pieces produced during it are only on its final board
        for by_side in (final.get("cells") or {}).values():
            for plist in by_side.values():
                for q in plist:
                    lab = _label(q)
                    if lab and q.get("id") not in labels:
                        labels[q["id"]] = lab
    for res in (data.get("results") or {}).values():  # --compare: the result at each date
        _collect(res, labels)
    for br in data.get("branches") or ():  # --all-branches: each distinct outcome
        if isinstance(br, dict):
            _collect(br.get("outcome"), labels)


def piece_names(data: dict | None, extra: dict | None = None) -> dict[str, str]:
    """piece id → the name a player reads: its card's name (or the name the scenario gave an ad-hoc
    piece). Pieces that share a name are numbered in the order the result lists them — 수문장 1,
    수문장 2 — never shown by their ids. `extra`: {id: {label|card|name}} for answers that do not
    carry their pieces (the outcomes of --all-branches)."""
    labels: dict[str, str] = {}
    _collect(data, labels)
    for pid, p in (extra or {}).items():
        lab = _label(p)
        if lab and pid not in labels:
            labels[pid] = lab
    count = Counter(labels.values())
    seen: Counter = Counter()
    out = {}
    for pid, lab in labels.items():
        if count[lab] > 1:
            seen[lab] += 1
            out[pid] = f"{lab} {seen[lab]}"
        else:
            out[pid] = lab
    return out


def cell_text(cell) -> str:
    """A cell as a player writes it in Korean text: coordinates in parentheses — (2,4) — and any
    other cell name (an explicit board's X, Y) as it is."""
    if cell is None:
        return ""
    s = str(cell)
    if _XY.match(s):
        x, y = s.replace(" ", "").split(",")
        return f"({x},{y})"
    return s


# ---------------------------------------------------------------- reasons ----
def _cell_order(data: dict) -> list[str]:
    order = list(data.get("order") or [])
    return order + [c for c in (data.get("cells") or {}) if c not in order]


def _side_of(data: dict, pid) -> str | None:
    return ((data.get("pieces") or {}).get(pid) or {}).get("side")


_EFFECT_EVENTS = frozenset({"flip", "attack", "capture", "fragment", "depart", "arrive", "buff", "fizzle"})


def _outcome(e: dict) -> dict:
    t = e["type"]
    if t == "attack":
        return {"kind": "hit", "target": e.get("target"), "amount": e.get("amount"), "hp_before": e.get("hp_before"),
                "hp_after": e.get("hp_after"), "settled": e.get("target_state") == "settled"}
    if t in ("capture", "fragment"):
        return {"kind": t, "piece": e.get("piece"), "side": e.get("side")}
    if t == "flip":
        return {"kind": "flip", "piece": e.get("piece"), "to": e.get("to")}
    if t == "depart":
        return {"kind": "depart", "piece": e.get("piece"), "to": e.get("to"), "cell": e.get("cell")}
    if t == "arrive":
        return {"kind": "arrive", "piece": e.get("piece"), "joins": e.get("joins"), "cell": e.get("cell")}
    if t == "buff":
        return {"kind": "buff", "piece": e.get("piece"), "atk": e.get("atk"), "hp": e.get("hp"), "lv": e.get("lv")}
    return {"kind": "fizzle", "reason": e.get("reason"), "piece": e.get("piece"), "where": e.get("where")}


def _effect_reasons(data: dict) -> dict[str, list[dict]]:
    """What each resolved declaration did (steps 1–2), by the cell whose combat resolved it: one
    reason per declaration — {code: effect, phase, index, side, card, ability, outcomes: [flip | hit |
    capture | fragment | depart | arrive | buff | fizzle …]}. Flips, moves, buffs and captures carry
    no index: they belong to the resolution before them."""
    decls = {}
    for e in data.get("events") or ():
        if e.get("type") == "declare":
            decls[("response" if e.get("phase") == "response" else "battle", e.get("index"))] = e
    reasons: dict = {}
    out: dict[str, list[dict]] = {}
    current = None
    for e in data.get("events") or ():
        if e.get("phase") is not None:
            continue
        t, step = e.get("type"), e.get("step")
        if t == "resolve":
            current = ("response" if step == 2 else "battle", e.get("index"))
            if current not in reasons:
                d = decls.get(current) or {}
                r = {"code": "effect", "cell": e.get("at") or e.get("cell"), "phase": current[0],
                     "index": current[1], "side": d.get("side", e.get("side")), "card": d.get("card", e.get("card")),
                     "ability": d.get("ability", e.get("ability")), "step": step, "outcomes": [],
                     "rule": "combat.step2.response" if step == 2 else "combat.step1.battle-cards"}
                reasons[current] = r
                out.setdefault(r["cell"], []).append(r)
            continue
        if step not in (1, 2):
            if t == "step":
                current = None
            continue
        if t not in _EFFECT_EVENTS or (t in ("capture", "fragment") and e.get("reason") == "cost"):
            continue
        key = ("response" if step == 2 else "battle", e["index"]) if e.get("index") is not None else current
        if key in reasons:
            reasons[key]["outcomes"].append(_outcome(e))
    for lst in out.values():
        lst[:] = [r for r in lst if r["outcomes"]]
    return out


def _cell_reasons(data: dict, cell: str, c: dict, evs: list[dict], effects: list[dict]) -> list[dict]:
    out: list[dict] = []
    attacker, defender = data.get("attacker"), data.get("defender")
    occupant = c.get("occupant")
    for e in evs:
        if e["type"] == "vacated":
            costs = [x.get("piece") for x in data.get("events") or ()
                     if x.get("type") == "cost" and x.get("cell") == cell and _side_of(data, x.get("piece")) == e.get("side")]
            out.append({"code": "vacated", "cell": cell, "side": e.get("side"), "cause": e.get("cause"),
                        "continues": bool(e.get("continues")), "pieces": costs, "rule": e.get("rule"),
                        "ruling": e.get("ruling"), "interpretation": e.get("interpretation")})
    out += effects
    standoff = next((e for e in evs if e["type"] == "standoff"), None)
    if standoff is not None:
        out.append({"code": "standoff", "cell": cell, "rule": standoff.get("rule")})
    stalemate = next((e for e in evs if e["type"] == "stalemate"), None)
    if stalemate is not None:
        out.append({"code": "stalemate", "cell": cell, "round": stalemate.get("round"), "why": stalemate.get("why"),
                    "limit": stalemate.get("limit"), "projected": stalemate.get("projected"),
                    "total": stalemate.get("total"), "rule": stalemate.get("rule"),
                    "interpretation": stalemate.get("interpretation")})
    hits = [e for e in evs if e["type"] in ("capture", "fragment") and e.get("reason") in ("hp", "settled-hit")
            and e.get("step") in (2, 4, 5)]
    losers = ([s for s in (attacker, defender) if s != occupant] if occupant
              else ([attacker, defender] if c.get("end") == "decided" and not any((c.get("survivors") or {}).values())
                    else []))
    for loser in losers:
        theirs = [e for e in hits if _side_of(data, e.get("piece")) == loser]
        pick = next((e for e in reversed(theirs) if e.get("reason") == "hp"), None)
        if pick is None:
            pick = next((e for e in theirs if e.get("reason") == "settled-hit"), None)
        if pick is None:
            continue
        attack = next((a for a in evs if a["type"] == "attack" and a.get("target") == pick.get("piece")
                       and a.get("round") == pick.get("round") and a.get("step") == pick.get("step")), {})
        out.append({"code": "decisive", "cell": cell, "piece": pick.get("piece"), "by": pick.get("by"),
                    "source": attack.get("source"), "amount": attack.get("amount"), "side": pick.get("side"),
                    "loser": loser, "round": pick.get("round"), "step": pick.get("step"), "reason": pick.get("reason"),
                    "kind": pick["type"], "last": pick.get("reason") == "hp",
                    "rule": pick.get("because") or pick.get("rule"), "ruling": pick.get("ruling")})
    for e in evs:
        if e["type"] != "sweep":
            continue
        if e.get("applies") and e.get("pieces"):
            structures = [p for p in e["pieces"] if ((data.get("pieces") or {}).get(p) or {}).get("structure")]
            out.append({"code": "sweep", "cell": cell, "side": e.get("side"), "pieces": list(e["pieces"]),
                        "structures": structures,
                        "loser": next((s for s in (attacker, defender) if s != e.get("side")), None),
                        "rule": e.get("rule"), "ruling": e.get("ruling"), "interpretation": e.get("interpretation")})
        elif e.get("why") not in (None, "nothing-to-sweep", "no-piece-left", "opponent-mobile"):
            out.append({"code": "no-sweep", "cell": cell, "side": e.get("side"), "why": e.get("why"),
                        "pieces": list(e.get("pieces") or []), "rule": e.get("rule"), "ruling": e.get("ruling")})
    return out


def combat_reasons(data: dict, limit: int = MAX_REASONS) -> dict:
    """The reasons that decided a combat result, chosen from its events, in the order they happened
    within each cell: a side emptied by a response cost (and whether the combat went on), what each
    resolved declaration did, a standoff or a stalemate, the capture of the losing side's last mobile
    piece (or the hit that captured a settled piece, when it had none), the step-7 sweep (or why it
    did not happen). Each: {code, cell, …ids…, rule, ruling?}. Returns {reasons, more} — at most
    `limit`, `more` counting the rest."""
    if data.get("kind", "combat") != "combat":
        return {"reasons": [], "more": 0}
    by_cell: dict = {}
    for e in data.get("events") or ():
        cell = e.get("cell")
        if cell is not None and e.get("phase") is None:
            by_cell.setdefault(cell, []).append(e)
    effects = _effect_reasons(data)
    cells = data.get("cells") or {}
    out: list[dict] = []
    total = 0
    for cell in _cell_order(data):
        mine = _cell_reasons(data, cell, cells.get(cell) or {}, by_cell.get(cell, []), effects.get(cell, []))
        total += len(mine)
        if len(out) < limit:
            out += mine[: limit - len(out)]
    return {"reasons": out, "more": total - len(out)}


# ---------------------------------------------------------------- compare ----
def _combat_view(res: dict, names: dict) -> dict:
    """What a person compares between two combat results: each cell's outcome, who captured what,
    what was left standing in each cell, structure fragments and pieces a cost removed."""
    from .verdict import cell_status

    cells = {}
    survivors = {}
    for cell, c in (res.get("cells") or {}).items():
        cells[cell] = {"status": cell_status(c), "side": c.get("occupant"), "rounds": c.get("rounds", 0)}
        survivors[cell] = {s: sorted(names.get(p, p) for p in ids) for s, ids in (c.get("survivors") or {}).items()}
    captures = {s: sorted(names.get(p, p) for p in ids) for s, ids in (res.get("prisoners") or {}).items()}
    return {"cells": cells, "captures": captures, "survivors": survivors,
            "fragments": sorted(names.get(p, p) for p in res.get("fragments") or ()),
            "removed": sorted(names.get(p, p) for p in res.get("removed") or ())}


def compare_outcomes(data: dict, names: dict | None = None) -> list[dict]:
    """Every outcome that differs between the two dates of a --compare answer, as items a template
    words: {what, [cell | side | key | declaration], early, late} where early / late are the values
    at each date (None: nothing there). Combat: `cell` (its outcome), `captures` (per side),
    `survivors` (per cell), `fragments`, `removed`, `declaration` (what its effect did); other kinds:
    `value` (a field of the turn's result). A date whose scenario does not resolve is left to the
    verdict's error line."""
    a, b = sorted(data.get("dates") or ())
    ra, rb = (data.get("results") or {}).get(a), (data.get("results") or {}).get(b)
    if not ra or not rb:
        return []
    names = names if names is not None else piece_names(data)
    out: list[dict] = []
    if ra.get("kind", "combat") != "combat":
        for ch in data.get("changes") or ():
            if ch.get("what") == "value":
                out.append({"what": "value", "key": ch["key"], "early": ch.get(a), "late": ch.get(b)})
        return out
    va, vb = _combat_view(ra, names), _combat_view(rb, names)
    for cell in list(va["cells"]) + [c for c in vb["cells"] if c not in va["cells"]]:
        x, y = va["cells"].get(cell), vb["cells"].get(cell)
        if x != y:
            out.append({"what": "cell", "cell": cell, "early": x, "late": y})
    for side in list(va["captures"]) + [s for s in vb["captures"] if s not in va["captures"]]:
        x, y = va["captures"].get(side) or [], vb["captures"].get(side) or []
        if x != y:
            out.append({"what": "captures", "side": side, "early": x, "late": y})
    for cell in list(va["survivors"]) + [c for c in vb["survivors"] if c not in va["survivors"]]:
        sa, sb = va["survivors"].get(cell) or {}, vb["survivors"].get(cell) or {}
        for side in list(sa) + [s for s in sb if s not in sa]:
            x, y = sa.get(side) or [], sb.get(side) or []
            if x != y:
                out.append({"what": "survivors", "cell": cell, "side": side, "early": x, "late": y})
    for key in ("fragments", "removed"):
        if va[key] != vb[key]:
            out.append({"what": key, "early": va[key], "late": vb[key]})
    for ch in data.get("changes") or ():
        if ch.get("what") == "declaration":
            out.append({"what": "declaration", "phase": ch.get("phase"), "index": ch.get("index"),
                        "side": ch.get("side"), "card": ch.get("card"), "ability": ch.get("ability"),
                        "early": ch.get(a), "late": ch.get(b)})
    return out


__all__ = ["piece_names", "cell_text", "combat_reasons", "compare_outcomes", "MAX_REASONS"]
