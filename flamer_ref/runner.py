"""What the `flamer simulate` / `flamer examples` commands do, as plain
functions returning JSON-ready dicts: compare two dates, enumerate combat
orders, check the corpus examples, and collect the clause titles a template
needs to cite decisions. It sits above the engine (flamer_ref/engine/, pure: no files, no
sentences). The answers come twice: `answer_data`, `compare_data`, `result_data` as the engine gives
them, whose words the edge makes once (flamer_ref/answer.py, render.word_result), and `answer`, `compare`,
`result_json` with the Korean `message` of their errors and gaps already filled by the templates, as the
JSON contract wants."""

from __future__ import annotations

import gc
import json
from contextlib import contextmanager
from typing import Any

from .engine import SUPPORTED_KINDS
from .engine.api import parse, run
from .engine.combat import combat_orders, simulate
from .engine.scenario import Scenario
from .errors import DataError, FlamerError, Forbidden
from .render import word_result



@contextmanager
def gc_paused():
    """The cyclic garbage collector off meanwhile (restored after). Reading, resolving and writing a
    large scenario makes millions of small acyclic objects; the collector would rescan the growing
    heap again and again (measured: a 1,000-cell result's to_json 0.5 s without it, 1.7 s with it)."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


def result_data(scn, corpus, as_of: str | None = None) -> dict:
    """A parsed scenario of any kind → its result JSON as the engine gives it: no words yet (the edge words
    it once, render.word_result)."""
    return run(scn, corpus, as_of).to_json()


def result_json(scn, corpus, as_of: str | None = None) -> dict:
    """A parsed scenario of any kind → its result JSON with the Korean messages (what --json prints)."""
    return word_result(result_data(scn, corpus, as_of))


def _json(scn_obj, file: str, corpus, as_of: str | None) -> dict:
    return result_json(parse(scn_obj, file, corpus), corpus, as_of)


#: kind → fn(scenario object, file label, corpus, as_of) → result JSON: every kind the engine
#: resolves (`flamer examples` skips an example of any other kind).
RUNNERS = {kind: _json for kind in SUPPORTED_KINDS}
SUPPORTED = tuple(RUNNERS)


# -------------------------------------------------------------- citations ----
_ID_KEYS = frozenset({"rule", "ruling", "because", "interpretation", "target_rule"})
_ID_LISTS = frozenset({"order_ties", "target_ties"})
_LEAVES = frozenset({str, int, float, bool, type(None)})


def _ids_in(obj, out: set) -> None:
    """Every cited id in a result: the str value of an id key, the str items of a tie list; dicts and
    lists are walked (with a stack: a 1,000-cell result holds half a million values)."""
    stack = [obj]
    pop, push = stack.pop, stack.append
    while stack:
        obj = pop()
        if isinstance(obj, dict):
            for k, v in obj.items():
                t = type(v)
                if k in _ID_KEYS and isinstance(v, str):
                    out.add(v)
                elif k in _ID_LISTS and isinstance(v, list):
                    out.update(x for x in v if isinstance(x, str))
                elif t not in _LEAVES:
                    push(v)
        elif isinstance(obj, list):
            for v in obj:
                if type(v) not in _LEAVES:
                    push(v)


def refs(corpus, *objs) -> dict[str, dict]:
    """Every clause / interpretation / ruling id cited in objs → what a template shows (the templates
    cite through the `clause_label` filter: number and title, a ruling by its date)."""
    ids: set[str] = set()
    for o in objs:
        _ids_in(o, ids)
    from .lookup import cite_ref

    got = {i: cite_ref(corpus, i) for i in ids}
    return dict(sorted(got.items(), key=lambda kv: _cite_order(kv[0], kv[1])))


def _cite_order(cid: str, ref: dict) -> tuple:
    """Clauses and interpretations by number (1.5, 5.2, 5.10, 6.14, 해석 6.14-1, 6.26), then rulings by date,
    then anything else by id: the order a judge scans a list of citations in."""
    number = ref.get("number")
    if ref.get("kind") in ("clause", "interpretation") and number:
        head, _, sub = str(number).removeprefix("해석").strip().partition("-")
        try:
            return (0, tuple(int(x) for x in head.split(".")), int(sub) if sub.isdigit() else 0, cid)
        except ValueError:
            pass
    if ref.get("kind") == "ruling":
        return (1, (), 0, f"{ref.get('date') or ''} {cid}")
    return (2, (), 0, cid)


# ------------------------------------------------------------ comparisons ----
def _diff(a, b, path="") -> list[dict]:
    if isinstance(a, dict) and isinstance(b, dict):
        out = []
        for k in list(a) + [k for k in b if k not in a]:
            out += _diff(a.get(k), b.get(k), f"{path}.{k}" if path else str(k))
        return out
    return [] if a == b else [{"path": path, "a": a, "b": b}]


def outcome(result_json: dict) -> dict:
    keep = {}
    for c, v in result_json["cells"].items():
        keep[c] = {k: v[k] for k in ("occupant", "standoff", "rounds", "survivors", "end")}
    # prisoners, fragments and removed pieces are sets: the order they were taken in depends on
    # the combat order alone and is no difference in outcome
    return {"cells": keep, "prisoners": {s: sorted(v) for s, v in result_json["prisoners"].items()},
            "fragments": sorted(result_json["fragments"]),
            "removed": sorted(result_json["removed"]), "positions": result_json["positions"],
            "unresolved": sorted({f"{u['reason']}@{u.get('cell') or '-'}" for u in result_json["unresolved"]})}


# ---- structured differences for --compare (event level; compare.txt.j2 words them) ----
def _place(res: dict, pid: str) -> dict:
    """Where a piece ended: {"at": "cell", "cell": …} | {"at": "prisoner", "side": …} | fragment | removed."""
    if pid in res["positions"]:
        return {"at": "cell", "cell": res["positions"][pid]}
    for side, ids in res["prisoners"].items():
        if pid in ids:
            return {"at": "prisoner", "side": side}
    if pid in res["fragments"]:
        return {"at": "fragment"}
    return {"at": "removed"}


def _declarations(res: dict) -> dict:
    """(phase, index) → what became of a declaration: declared?, resolved?, the hits and fizzles of its effect."""
    out: dict = {}
    for e in res["events"]:
        if e["type"] == "declare":
            key = ("response" if e.get("phase") == "response" else "battle", e["index"])
            out[key] = {"phase": key[0], "index": e["index"], "side": e.get("side"), "card": e.get("card"),
                        "ability": e.get("ability"), "counter": e.get("counter", False), "resolved": False,
                        "hits": [], "fizzles": []}
    for e in res["events"]:
        idx = e.get("index")
        if idx is None or e["type"] not in ("resolve", "attack", "fizzle"):
            continue
        key = ("response" if e.get("step") == 2 else "battle", idx)
        d = out.get(key)
        if d is None:
            continue
        if e["type"] == "resolve":
            d["resolved"] = True
        elif e["type"] == "attack":
            d["hits"].append({"target": e["target"], "amount": e["amount"], "cell": e.get("cell")})
        else:
            d["fizzles"].append({"reason": e["reason"], "where": e.get("where"), "piece": e.get("piece")})
    return out


def _decl_view(d: dict | None) -> dict | None:
    if d is None:
        return None
    return {"resolved": d["resolved"], "hits": d["hits"], "fizzles": [{"reason": f["reason"], "where": f["where"]}
                                                                       for f in d["fizzles"]]}


def changes(a: dict | None, b: dict | None, da: str, db: str) -> list[dict]:
    """What differs between two combat results, as structured items (dates da, db) — not JSON paths:
    ``validity`` (resolves at one date only), ``cell`` (outcome of a combat cell), ``declaration`` (a
    declaration's effect lands at one date and fizzles or is never resolved at the other), ``piece`` (where a
    piece ended), ``unresolved`` (gaps reported at one date only: their words are the results' own, which
    render.word_result copies in)."""
    from .verdict import cell_status

    out: list[dict] = []
    if a is None or b is None:
        if (a is None) != (b is None):
            out.append({"what": "validity", da: a is not None, db: b is not None})
        return out
    for cell in list(a["cells"]) + [c for c in b["cells"] if c not in a["cells"]]:
        views = {}
        for d, r in ((da, a), (db, b)):
            c = r["cells"].get(cell)
            views[d] = None if c is None else {"status": cell_status(c), "side": c["occupant"], "rounds": c["rounds"]}
        if views[da] != views[db]:
            out.append({"what": "cell", "cell": cell, **views})
    decl_a, decl_b = _declarations(a), _declarations(b)
    for key in list(decl_a) + [k for k in decl_b if k not in decl_a]:
        va, vb = _decl_view(decl_a.get(key)), _decl_view(decl_b.get(key))
        if va != vb:
            d = decl_a.get(key) or decl_b[key]
            out.append({"what": "declaration", "phase": d["phase"], "index": d["index"], "side": d["side"],
                        "card": d["card"], "ability": d["ability"], da: decl_a.get(key), db: decl_b.get(key)})
    for pid in a["pieces"]:
        pa, pb = _place(a, pid), _place(b, pid)
        if pa != pb:
            out.append({"what": "piece", "piece": pid, da: pa, db: pb})
    ua = {(u["reason"], u.get("cell")): u for u in a["unresolved"]}
    ub = {(u["reason"], u.get("cell")): u for u in b["unresolved"]}
    only_a = [ua[k] for k in ua if k not in ub]
    only_b = [ub[k] for k in ub if k not in ua]
    if only_a or only_b:
        out.append({"what": "unresolved", da: [{"reason": u["reason"], "cell": u.get("cell")} for u in only_a],
                    db: [{"reason": u["reason"], "cell": u.get("cell")} for u in only_b]})
    return out


_TURN_OUTCOME = {"move": ("valid", "positions", "encounters", "errors"),
                 "victory": ("secured", "vp_gain", "vp", "winner", "reasons"),
                 "field": ("slots", "active", "retired", "levels", "bonds", "errors"),
                 "round": ("ended", "final"), "game": ("ended", "first_illegal", "final")}


def compare_turn(scn, corpus, base: str, other: str) -> dict:
    """compare() for move / victory / field / round scenarios: resolve at both dates and
    list what differs, with the rulings dated in between."""
    keys = _TURN_OUTCOME[scn.kind]
    a, b = result_json(scn, corpus, base), result_json(scn, corpus, other)

    def view(r):
        out = {k: r[k] for k in keys}
        if "errors" in out:
            out["errors"] = [e["reason"] for e in out["errors"]]
        out["unresolved"] = sorted(u["reason"] for u in r["unresolved"])
        return out

    diffs = _diff(view(a), view(b))
    turn_changes = [{"what": "value", "key": d["path"], base: d["a"], other: d["b"]} for d in diffs]
    lo, hi = sorted((base, other))
    between = [r for r in corpus.rulings.values() if lo < r["date"] <= hi]
    cited: set = set()
    _ids_in([a["events"], b["events"], a["unresolved"], b["unresolved"]], cited)
    return {"kind": "compare", "file": scn.file, "dates": [base, other], "results": {base: a, other: b},
            "errors": {base: None, other: None},
            "differences": [{"path": d["path"], base: d["a"], other: d["b"]} for d in diffs],
            "changes": turn_changes,
            "rulings_between": [{"id": r["id"], "date": r["date"], "label": r["label"], "title": r["title"],
                                 "consulted": r["id"] in cited} for r in between],
            "by_ruling": [{"ruling": r["id"], "date": r["date"], "title": r["title"], "label": r["label"],
                           "differences": [d["path"] for d in diffs]} for r in between if r["id"] in cited and diffs]}


class _Resolutions:
    """The resolutions of one combat scenario under different rulings in force (dates, forced
    rulings), the engine run once for each different course. The engine depends on the date only
    through the decisions it asks (engine/decisions.py, the one service for every room), and records
    each: a resolution whose consulted decisions all answer the same under other dates and overrides
    is, step by step, the resolution there too (only `as_of` differs). So --compare resolves a scenario once when no
    ruling it consults changes between the dates, and forcing the one ruling that does is the later
    date's resolution again."""

    def __init__(self, scn: Scenario, corpus, needs: bool = False):
        self.scn, self.corpus, self.needs = scn, corpus, needs
        self.done: list[tuple[str, dict | None, Any]] = []
        #: date → the error that refused the scenario there (raised again when no date resolves)
        self.refused: dict[str, FlamerError] = {}

    def _failed(self, exc) -> str:
        """The message of a run the rules or the file refuse; with `needs`, a stat the run needs but
        nobody gave (stat-unknown) is raised instead (flamer fight asks for it and runs again)."""
        if self.needs and is_need(exc):
            raise exc
        return exc.message

    def result(self, as_of: str, overrides: dict | None = None):
        """The CombatResult at `as_of` with `overrides`; raises DataError / Forbidden as simulate does."""
        from dataclasses import replace

        from .engine.decisions import rules_at

        now = rules_at(self.corpus, as_of, overrides)
        for was, forced, res in self.done:
            then = rules_at(self.corpus, was, forced)
            if all(now.peek(d).same(then.peek(d)) for d in res.decisions_consulted):
                return res if res.as_of == as_of else replace(res, as_of=as_of)
        res = simulate(self.scn, self.corpus, as_of=as_of, overrides=overrides)
        self.done.append((as_of, overrides, res))
        return res

    def data(self, as_of: str) -> tuple[dict | None, str | None]:
        """The result JSON at `as_of` (no words yet), or the message of the error that refused it (kept in
        `refused`)."""
        try:
            return self.result(as_of).to_json(), None
        except (DataError, Forbidden) as exc:
            message = self._failed(exc)
            self.refused.setdefault(as_of, exc)
            return None, message

    def outcome(self, as_of: str, overrides: dict) -> tuple[dict | None, str | None]:
        """As _outcome_run: the parts outcome() reads, or the error's message."""
        try:
            return _light(self.result(as_of, overrides)), None
        except (DataError, Forbidden) as exc:
            return None, self._failed(exc)


def is_need(exc) -> bool:
    """Is this error a stat the card data leaves unknown (미상) and the scenario does not give, needed
    to decide (the engine's stat-unknown problems), and nothing else?"""
    problems = getattr(exc, "problems", None)
    return isinstance(exc, DataError) and bool(problems) and all(p.code == "stat-unknown" for p in problems)


def compare(scn, corpus, base: str, other: str, needs: bool = False) -> dict:
    """Resolve at two dates; list the differences and the rulings that make them (any kind:
    a combat by its outcome and each ruling forced alone, the other kinds by compare_turn), worded.

    needs: raise the DataError of a stat needed but unknown (is_need) from any of the runs instead of
    reporting it as that date's error (flamer fight asks for such values)."""
    return word_result(compare_data(scn, corpus, base, other, _Resolutions(scn, corpus, needs)))


def compare_data(scn, corpus, base: str, other: str, runs: "_Resolutions") -> dict:
    """compare() before its words: a combat's results as the engine gives them (`runs` resolves them, each
    course of the rules once, and keeps what refused a date); the other kinds as compare_turn words them."""
    if scn.kind != "combat":
        return compare_turn(scn, corpus, base, other)
    a, ea = runs.data(base)
    b, eb = runs.data(other)
    lo, hi = sorted((base, other))
    between = [r for r in corpus.rulings.values() if lo < r["date"] <= hi]
    consulted = set((a or {}).get("rulings_consulted", [])) | set((b or {}).get("rulings_consulted", []))
    diffs = _diff(outcome(a), outcome(b)) if a and b else []
    by_ruling = []
    if a and b and diffs:
        early, early_date = (a, base) if base <= other else (b, other)
        for r in between:
            if r["id"] not in consulted:
                continue
            # only its outcome is compared: resolved without the events' JSON and words
            forced, err = runs.outcome(early_date, {r["id"]: True})
            if forced is None:
                by_ruling.append({"ruling": r["id"], "date": r["date"], "title": r["title"], "label": r["label"],
                                  "makes_invalid_or_valid": True, "differences": [], "error": err})
                continue
            d = _diff(outcome(early), outcome(forced))
            if d:
                by_ruling.append({"ruling": r["id"], "date": r["date"], "title": r["title"], "label": r["label"],
                                  "differences": [x["path"] for x in d]})
    elif (ea is None) != (eb is None):  # valid at one date only
        for r in between:
            if r["id"] in consulted:
                by_ruling.append({"ruling": r["id"], "date": r["date"], "title": r["title"], "label": r["label"],
                                  "makes_invalid_or_valid": True, "differences": []})
    return {"kind": "compare", "file": scn.file, "dates": [base, other],
            "results": {base: a, other: b}, "errors": {base: ea, other: eb},
            "differences": [{"path": d["path"], base: d["a"], other: d["b"]} for d in diffs],
            "changes": changes(a, b, base, other),
            "rulings_between": [{"id": r["id"], "date": r["date"], "label": r["label"], "title": r["title"],
                                 "consulted": r["id"] in consulted} for r in between],
            "by_ruling": by_ruling}


#: Most combat orders --all-branches lists (past it: note ``capped``, with how many there were).
MAX_BRANCH_ORDERS = 120
#: Most events --all-branches resolves in all (its measure of work): an order that cannot share
#: the resolution of an order it equals resolves the whole scenario again, and past this budget the
#: remaining orders are not run (note ``capped``). A 1,000-cell scenario records ~30,000 events.
MAX_BRANCH_EVENTS = 60_000


def _cells_independent(scn: Scenario) -> bool:
    """True when the combat order cannot change the outcome: no response stack (the only thing the
    first combat hosts for all cells, response.resolve.once), no (전투) card declared, and no piece
    whose (전투) SP reaches into another cell's combat (combat.remote). Then the cells are fought
    independently and every order gives the same result."""
    from .engine.cards import REMOTE_SP

    remote = {c for c, _ in REMOTE_SP}
    return not scn.response and not scn.battle_cards and not any(p.card in remote for p in scn.pieces)


def _branch_orders(scn: Scenario, corpus) -> tuple[list, str | None, int | None]:
    """The combat orders worth running, with the note that says why there are not more: one order
    when the cells are independent (``independent``), the first MAX_BRANCH_ORDERS past that many
    (``capped``, with how many there were)."""
    orders = combat_orders(scn, corpus) or [()]
    if len(orders) > 1 and _cells_independent(scn):
        return orders[:1], "independent", None
    if len(orders) > MAX_BRANCH_ORDERS:
        return orders[:MAX_BRANCH_ORDERS], "capped", len(orders)
    return orders, None, None


def order_classes(scn: Scenario, corpus, as_of: str | None, orders: list) -> list | None:
    """For each order, the class of orders it provably shares its outcome with, or None when that
    cannot be said. The orders are each encounter cell first, then the rest sorted (combat_orders).
    Only the first combat matters: it hosts the whole stack (response.resolve.once); with no (전투)
    card and no (전투) SP reaching another cell, the other combats are fought independently. A
    first cell the stack does not touch (engine.combat.stack_cells) hosts it to the same board as
    any other such cell: all those orders are one class (``""``); a touched first cell is its own."""
    from .engine.combat import stack_cells
    from .engine.scenario import cell_sort_key
    from .engine.cards import REMOTE_SP

    if len(orders) < 2 or scn.battle_cards:
        return None
    remote = {c for c, _ in REMOTE_SP}
    if any(p.card in remote for p in scn.pieces):
        return None
    if any(list(o[1:]) != sorted(o[1:], key=cell_sort_key) for o in orders):
        return None  # not the shape combat_orders gives
    touched = stack_cells(scn, corpus, as_of)
    if touched is None:
        return None
    return [o[0] if o[0] in touched else "" for o in orders]


def _budget_cut(res: dict | None) -> bool:
    """Did the scenario's round budget (MAX_TOTAL_ROUNDS) stop a combat? Which cells it stops
    depends on the order the cells are fought in, so such an outcome is not shared."""
    return res is not None and any(u.get("reason") == "round-limit" and "total" in u for u in res["unresolved"])


def _outcome_run(scn: Scenario, corpus, as_of: str | None, order=None, work: list | None = None,
                 overrides: dict | None = None) -> tuple[dict | None, str | None]:
    """One resolution: the parts outcome() reads (and as_of), not the events nor their words."""
    try:
        r = simulate(scn, corpus, as_of=as_of, combat_order=order or None, work=work, overrides=overrides)
    except (DataError, Forbidden) as exc:
        return None, exc.message
    return _light(r), None


def _light(r) -> dict:
    """The parts of a CombatResult's JSON that outcome() reads (and as_of): no events, no words."""
    from .engine.result import thaw

    return {"as_of": r.as_of, "cells": {c.cell: c.to_json() for c in r.cells},
            "prisoners": {s: list(v) for s, v in r.prisoners.items()}, "fragments": list(r.fragments),
            "removed": list(r.removed), "positions": dict(r.positions),
            "unresolved": [thaw(u) for u in r.unresolved]}


def _resolved(orders: list, classes: list | None, run):
    """Each order with its resolution, in order: (order, res, err). run(order, work) resolves one order and
    appends the events it recorded to `work`. Orders of one class (order_classes) share one resolution
    (not one the scenario's round budget cut: _budget_cut); no resolution starts that would pass
    MAX_BRANCH_EVENTS — the orders stop there (the caller counts how many it got)."""
    shared: dict = {}
    work: list[int] = []
    for i, order in enumerate(orders):
        cls = classes[i] if classes is not None else None
        if cls is not None and cls in shared:
            res, err = shared[cls]
        else:
            if work and sum(work) + work[-1] > MAX_BRANCH_EVENTS:
                return  # the next resolution would pass the budget
            res, err = run(order, work)
            if cls is not None and res is not None and not _budget_cut(res):
                shared[cls] = (res, err)
        yield order, res, err


def branches(scn: Scenario, corpus, as_of: str | None) -> dict:
    """Each combat order the attacker could choose → the distinct outcomes.

    Only orders that can differ are run: independent cells give one branch (note ``independent``);
    orders of one class (order_classes) share one resolution; past MAX_BRANCH_ORDERS orders, or
    once the orders run have recorded MAX_BRANCH_EVENTS events, the rest are not run (note
    ``capped``, with ``orders_total``)."""
    fixed = scn.combat_order is not None
    if fixed:
        orders, note, total = [scn.combat_order], None, None
    else:
        orders, note, total = _branch_orders(scn, corpus)
    with gc_paused():
        classes = order_classes(scn, corpus, as_of, orders) if not fixed else None
        groups: list[dict] = []
        tried = 0
        for order, res, err in _resolved(orders, classes,
                                         lambda order, work: _outcome_run(scn, corpus, as_of, order, work)):
            tried += 1
            key = json.dumps(outcome(res), sort_keys=True, ensure_ascii=False) if res else f"error:{err}"
            _add_branch(groups, key, order, outcome(res) if res else None, err, res["as_of"] if res else as_of)
    if tried < len(orders):
        note, total = "capped", total or len(orders)
    for g in groups:
        g.pop("_key")
    out = {"kind": "branches", "file": scn.file, "fixed_by_file": fixed, "orders_tried": tried,
           "distinct": len(groups), "branches": groups}
    if note:
        out["note"] = note
    if total is not None:
        out["orders_total"] = total
    return out


def _end_state(res: dict) -> dict:
    """A round's or game's end state with its prisoners, fragments and removed pieces as sets (sorted):
    their order is the combat order's alone, and branches group by outcome."""
    final = dict(res["final"])
    final["prisoners"] = {s: sorted(v) for s, v in final["prisoners"].items()}
    for k in ("fragments", "removed"):
        final[k] = sorted(final.get(k) or [])
    return final


def _add_branch(groups: list[dict], key: str, order, shown: dict | None, err: str | None, as_of: str | None) -> None:
    """One resolved order into the branches: with the group of the same outcome (`key`), or a new one
    showing `shown` (its outcome) as of the date it was resolved at."""
    for g in groups:
        if g["_key"] == key:
            g["orders"].append(list(order))
            return
    groups.append({"_key": key, "orders": [list(order)], "outcome": shown, "error": err, "as_of": as_of})


def _round_outcome(res: dict) -> dict:
    """What counts as the outcome of a whole round (the grouping key of round_branches): the end
    state and the gaps; prisoners, fragments and removed pieces are sets (their order is the
    combat order's alone)."""
    return {"ended": res["ended"], "final": _end_state(res),
            "unresolved": sorted({f"{u['reason']}@{u.get('turn') or '-'}@{u.get('cell') or '-'}"
                                  for u in res["unresolved"]})}


def _round_events(res: dict) -> int:
    """The events a round result records: its own and each turn's (the 전투턴's are most)."""
    return len(res.get("events") or ()) + sum(len(t["result"].get("events") or ()) for t in res.get("turns") or ())


def round_branches(scn, corpus, as_of: str | None) -> dict:
    """--all-branches for kind round: the orders of the round's 전투턴 (the board after its
    이동턴) → the distinct outcomes of the whole round. As in branches(): an order fixed by the
    file gives one branch, independent cells one branch (note ``independent``), orders of one class
    share one resolution, past MAX_BRANCH_ORDERS orders or MAX_BRANCH_EVENTS events the rest are not
    run (``capped``). A 전투턴 with fewer than two combat cells
    has no order to choose (note ``round-no-combat`` or ``round-one-cell``)."""
    from dataclasses import replace

    from .engine.round import round_combat

    cscn = round_combat(scn, corpus, as_of)
    enc: list[str] = []
    if cscn is not None:
        sides_at: dict[str, set] = {}
        for p in cscn.pieces:
            sides_at.setdefault(p.cell, set()).add(p.side)
        enc = [c for c in cscn.cells if len(sides_at.get(c, ())) == 2]
    note, total, fixed = None, None, False
    if scn.combat_order is not None and len(enc) > 1:
        orders, fixed = [tuple(scn.combat_order)], True
    elif len(enc) < 2:
        orders, note = [()], "round-no-combat" if not enc else "round-one-cell"
    else:
        orders, note, total = _branch_orders(cscn, corpus)
    groups: list[dict] = []
    with gc_paused():
        # the round after its 전투턴 is played from the board the combat left: orders that share a
        # combat outcome (order_classes) share the whole round's
        classes = (order_classes(cscn, corpus, as_of, orders)
                   if note not in ("round-no-combat", "round-one-cell") and not fixed else None)

        def run(order, work):
            try:
                one = scn if fixed or not order else replace(scn, combat_order=tuple(order))
                res = result_json(one, corpus, as_of)
            except (DataError, Forbidden) as exc:
                # a refused round records no result to count: as much as the largest run so far
                work.append(max(work, default=MAX_BRANCH_EVENTS // 10))
                return None, exc.message
            work.append(_round_events(res))
            return res, None

        tried = 0
        for order, res, err in _resolved(orders, classes, run):
            tried += 1
            key = json.dumps(_round_outcome(res), sort_keys=True, ensure_ascii=False) if res else f"error:{err}"
            _add_branch(groups, key, order, res, err, res["as_of"] if res else as_of)
    if tried < len(orders):
        note, total = "capped", total or len(orders)
    for g in groups:
        g.pop("_key")
        if note in ("round-no-combat", "round-one-cell"):
            g["orders"] = []  # no order was chosen
    out = {"kind": "branches", "file": scn.file, "fixed_by_file": fixed, "orders_tried": tried,
           "distinct": len(groups), "branches": groups, "combat_cells": enc}
    if note:
        out["note"] = note
    if total is not None:
        out["orders_total"] = total
    return out


#: the most orders --all-branches replays a whole game for (each replay is the whole record)
MAX_GAME_ORDERS = 24
#: the result JSON (compact, UTF-8) the replays of a game's --all-branches may make together, the file's own run
#: included: one record may make up to engine/budget.MAX_GAME_RESULT_BYTES, so a record near that size is replayed
#: once or twice, not 24 times (the rest of the orders are not run: note ``capped``)
MAX_GAME_BRANCH_BYTES = 16_000_000

_COMPACT = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), check_circular=False)


def _json_size(res: dict) -> int:
    return len(_COMPACT.encode(res).encode("utf-8"))


def _game_outcome(res: dict) -> dict:
    """What counts as the outcome of a game record (the grouping key of game_branches): how it ended,
    the end state (prisoners, fragments, removed as sets), the first refused play and the gaps."""
    fi = res.get("first_illegal")
    return {"ended": res["ended"], "final": _end_state(res),
            "first_illegal": fi and {k: fi.get(k) for k in ("round", "turn", "index", "reason")},
            "unresolved": sorted({f"{u['reason']}@{u.get('round')}@{u.get('cell') or '-'}" for u in res["unresolved"]})}


def game_branches(scn, corpus, as_of: str | None) -> dict:
    """--all-branches for kind game: the first round whose 전투턴 fought two or more cells in an order
    the file left open (no `combat_order` in that round); each order of those cells replays the whole
    record (the other rounds as written) → the distinct outcomes of the game. At most
    MAX_GAME_ORDERS orders are replayed, and no replay starts that would take the results made (the
    file's own run included) past MAX_GAME_BRANCH_BYTES (note ``capped``); a record with no such round
    has one result (note ``game-no-choice``)."""
    from dataclasses import replace
    from itertools import islice, permutations
    from math import factorial

    base = result_json(scn, corpus, as_of)
    choice = None
    for entry, rscn in zip(base["rounds"], scn.rounds):
        fought = next((t["result"] for t in entry["turns"] if t["turn"] == "combat"), None)
        cells = list((fought or {}).get("cells") or {})
        if len(cells) > 1 and rscn.combat_order is None:
            choice = (entry["round"], cells)
            break
    if choice is None:
        return {"kind": "branches", "file": scn.file, "fixed_by_file": False, "orders_tried": 1, "distinct": 1,
                "branches": [{"orders": [], "outcome": base, "error": None, "as_of": base["as_of"]}],
                "note": "game-no-choice"}
    k, cells = choice
    total = factorial(len(cells))
    orders = list(islice(permutations(cells), MAX_GAME_ORDERS))
    groups: list[dict] = []
    made = last = _json_size(base)  # what each replay makes, as far as the runs so far tell
    del base
    tried = 0
    with gc_paused():
        for order in orders:
            if tried and made + last > MAX_GAME_BRANCH_BYTES:
                break  # the next replay would pass the budget: the rest are not run
            rounds = tuple(replace(r, combat_order=tuple(order)) if i == k - 1 else r for i, r in enumerate(scn.rounds))
            try:
                res, err = result_json(replace(scn, rounds=rounds), corpus, as_of), None
                last = _json_size(res)
            except (DataError, Forbidden) as exc:
                res, err = None, exc.message
            made += last
            tried += 1
            key = json.dumps(_game_outcome(res), sort_keys=True, ensure_ascii=False) if res else f"error:{err}"
            _add_branch(groups, key, order, res, err, res["as_of"] if res else as_of)
    for g in groups:
        g.pop("_key")
    out = {"kind": "branches", "file": scn.file, "fixed_by_file": False, "orders_tried": tried,
           "distinct": len(groups), "branches": groups, "combat_cells": cells, "round": k}
    if tried < total:
        out["note"], out["orders_total"] = "capped", total
    return out


# ------------------------------------------------------ an unknown's ranges ----
#: at most this many resolutions follow one unknown stat, and at most this many different verdicts are
#: shown; past either, the range that matters is not small and the stat is named as before
BY_VALUE_RUNS = 8
BY_VALUE_RANGES = 3


def _plain(obj):
    """A result JSON with every probed value (engine/probe.py Lin) as the plain int it stood for."""
    if isinstance(obj, dict):
        return {k: _plain(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_plain(v) for v in obj]
    if isinstance(obj, int) and type(obj) not in (int, bool):
        return int.__int__(obj)
    return obj


def _verdict_key(res: dict) -> str:
    """What must be equal for two values of an unknown to give the same verdict: who holds each cell,
    who survived and was taken, how the round or game ended (not how many rounds a combat ran, nor the
    numbers derived from the value itself)."""
    kind = res.get("kind", "combat")
    if kind == "combat":
        o = outcome(res)
        o["cells"] = {c: {k: v[k] for k in ("occupant", "standoff", "survivors")} for c, v in o["cells"].items()}
    elif kind == "round":
        o = _round_outcome(res)
    elif kind == "game":
        o = _game_outcome(res)
    else:
        o = res
    return json.dumps(o, sort_keys=True, ensure_ascii=False)


def _verdict_view(res) -> dict:
    """What _verdict_key reads of a result (its outcome and its gaps), made without the events — most of a
    big result's JSON and of the time to_json takes."""
    from .engine.result import thaw

    if res.kind == "combat":
        return {"kind": "combat", "cells": {c.cell: c.to_json() for c in res.cells},
                "prisoners": {s: list(v) for s, v in res.prisoners.items()}, "fragments": list(res.fragments),
                "removed": list(res.removed), "positions": dict(res.positions),
                "unresolved": [thaw(u) for u in res.unresolved]}
    if res.kind in ("round", "game"):
        keys = ("ended", "final", "unresolved") + (("first_illegal",) if res.kind == "game" else ())
        return {"kind": res.kind, **{k: thaw(getattr(res, k)) for k in keys}}
    return res.to_json()


def by_value(scn, corpus, file: str, as_of: str | None, exc: DataError) -> dict | None:
    """A verdict that stopped on one unknown stat (`exc`: its stat-unknown problems), answered per range
    of that stat's values: the scenario resolved again with the stat standing for its least value, then
    for the next value past the range every decision of that run holds for (engine/probe.py), until a
    range is unbounded. Neighbouring ranges with the same verdict are one. None when this cannot be said:
    more than one unknown is needed, the run does what a probe cannot follow, another error stops a
    range, or it takes more than BY_VALUE_RUNS resolutions or gives more than BY_VALUE_RANGES verdicts.

    No run is wasted (issue 25): the verdicts only grow, so the run that gives one more than
    BY_VALUE_RANGES ends it at once (a 1,000-cell scenario whose every value is another verdict was
    resolved eight times before its stat was named, now four); and a run is worded (render.word_result)
    only when its range is shown and the answer is given — a verdict reads no message."""
    from .engine.combat import STAT_KO
    from .engine.probe import PROBE, Probe, Untracked, unknown_key
    from .engine.types import STAT_MIN

    needs = {(unknown_key(p.params.get("card"), p.params["piece"]), p.params["stat"]) for p in exc.problems}
    if len(needs) != 1:
        return None
    (key, stat), = needs
    first = exc.problems[0].params
    ranges: list[dict] = []
    x = STAT_MIN[stat]
    for _ in range(BY_VALUE_RUNS):
        probe = Probe(key, stat, x, lo=x)
        token = PROBE.set(probe)
        try:
            res = run(scn, corpus, as_of)
        except (Untracked, FlamerError):
            return None
        finally:
            PROBE.reset(token)
        lo, hi = x, probe.hi
        k = _verdict_key(_plain(_verdict_view(res)))  # the outcome, gaps by reason: no events, no words
        if ranges and ranges[-1]["_key"] == k:
            ranges[-1]["to"] = hi
        else:
            ranges.append({"_key": k, "from": lo, "to": hi, "value": x, "result": res})
            if len(ranges) > BY_VALUE_RANGES:
                return None  # more verdicts than a reader takes: later runs can only add to them
        del res
        if hi is None:
            break
        x = hi + 1
    else:
        return None
    for r in ranges:  # the results shown: their JSON and words, once the answer is sure
        r["result"] = word_result(_plain(r["result"].to_json()))
    return {"kind": "by-value", "file": file, "as_of": ranges[0]["result"].get("as_of"),
            "depends_on": {"piece": first["piece"], "card": first.get("card"), "label": first["label"], "stat": stat,
                           "stat_name": STAT_KO[stat], "least": STAT_MIN[stat], "why": first.get("why")},
            "ranges": [{k: v for k, v in r.items() if k != "_key"} for r in ranges]}


def answer(scn, corpus, *, file: str, as_of: str | None = None, compare_with: str | None = None,
           all_branches: bool = False) -> dict:
    """The answer object of `flamer simulate` / `flamer fight` for a parsed scenario, worded: answer_data
    with its Korean messages."""
    return word_result(answer_data(scn, corpus, file=file, as_of=as_of, compare_with=compare_with,
                                   all_branches=all_branches))


def answer_data(scn, corpus, *, file: str, as_of: str | None = None, compare_with: str | None = None,
                all_branches: bool = False, needs: bool = False) -> dict:
    """The answer of a parsed scenario, its words not yet made (the edge words it once: render.word_result):
    with `compare_with`, the same scenario at two dates; with `all_branches`, every order of play the file
    leaves open (a round's or a game's first open 전투턴; a kind without choices is one branch); else the
    engine's result. Raises the scenario's own error (a Forbidden keeps its clause) when no date or no
    order resolves.

    needs (flamer fight): a stat the card data leaves unknown that the verdict reads is raised (is_need),
    from whichever run meets it, instead of answered per range of its values: the fight asks for it."""
    from .errors import FlamerError

    combat = scn.kind == "combat"  # only a combat has orders to choose and can be refused at one date
    if compare_with:
        runs = _Resolutions(scn, corpus, needs)
        out = compare_data(scn, corpus, as_of or scn.as_of or corpus.latest_date(), compare_with, runs)
        if all(v is None for v in out["results"].values()):
            if combat:  # the error that refused the first date, as raised
                raise runs.refused[out["dates"][0]]
            raise FlamerError(next(iter(out["errors"].values())))
        return out
    if not all_branches:
        try:
            return result_data(scn, corpus, as_of)  # the engine's result
        except DataError as exc:  # a verdict that reads an unknown stat: per range of its values, if few
            out = by_value(scn, corpus, file, as_of, exc) if is_need(exc) and not needs else None
            if out is None:
                raise
            return out
    if scn.kind in ("round", "game"):  # the orders of the round's 전투턴 (a game: its first open one)
        out = (round_branches if scn.kind == "round" else game_branches)(scn, corpus, as_of)
        if out["branches"] and all(b["error"] for b in out["branches"]):
            raise FlamerError(out["branches"][0]["error"])
        return out
    if not combat:
        res = result_json(scn, corpus, as_of)
        return {"kind": "branches", "file": file, "fixed_by_file": True, "orders_tried": 1, "distinct": 1,
                "branches": [{"orders": [], "outcome": res, "error": None, "as_of": res["as_of"]}],
                "note": "no-choices"}
    out = branches(scn, corpus, as_of)
    if out["branches"] and all(b["error"] for b in out["branches"]):
        orders = out["branches"][0]["orders"]
        simulate(scn, corpus, as_of=as_of, combat_order=(orders[0] or None) if orders else None)
        raise FlamerError(out["branches"][0]["error"])
    return out


# --------------------------------------------------------------- examples ----

def _expect(exp, act, path: str, out: list) -> None:
    """Only the keys given in exp are compared; lists of names compare as sets of names."""
    if isinstance(exp, dict):
        if not isinstance(act, dict):
            out.append({"path": path, "expected": exp, "actual": act})
            return
        for k, v in exp.items():
            if k == "events_include" and not path:
                # events the page states (e.g. a hit and its amount), each given by some of its
                # fields: every one must match an event of the result
                for i, w in enumerate(v or []):
                    if not any(isinstance(e, dict) and all(e.get(f) == x for f, x in w.items())
                               for e in act.get("events", [])):
                        out.append({"path": f"events_include[{i}]", "expected": w, "actual": "(없음)"})
                continue
            if k not in act:
                out.append({"path": f"{path}.{k}" if path else k, "expected": v, "actual": "(없음)"})
            else:
                _expect(v, act[k], f"{path}.{k}" if path else k, out)
        return
    if isinstance(exp, list) and isinstance(act, list) and all(not isinstance(x, (dict, list)) for x in exp + act):
        if sorted(map(str, exp)) != sorted(map(str, act)):
            out.append({"path": path, "expected": exp, "actual": act})
        return
    if isinstance(exp, list) and isinstance(act, list):
        if len(exp) != len(act):
            out.append({"path": path, "expected": exp, "actual": act})
            return
        for i, (e, a) in enumerate(zip(exp, act)):
            _expect(e, a, f"{path}[{i}]", out)
        return
    if exp != act:
        out.append({"path": path, "expected": exp, "actual": act})


def check_examples(corpus, as_of: str | None = None) -> dict:
    """Run every example's scenario of a supported kind and compare it with `expected`.

    An example may carry a list of scenarios (with a list of expected results):
    each is checked as its own row, named ID#n (1-based)."""
    from .handles import example_number, faq_number

    rows = []
    items = list(corpus.examples.items()) + [(fid, {**f, "title": f["question"]}) for fid, f in corpus.faq.items()]
    for eid, ex in items:
        scn_obj = ex.get("scenario")
        if not scn_obj:
            continue
        exp_obj = ex.get("expected")
        if isinstance(scn_obj, list):
            exps = exp_obj if isinstance(exp_obj, list) else [None] * len(scn_obj)
            cases = [(f"{eid}#{i + 1}", s, exps[i] if i < len(exps) else None) for i, s in enumerate(scn_obj)]
        else:
            cases = [(eid, scn_obj, exp_obj)]
        # what a person reads and types instead of the id: the example's (or FAQ item's) number, and which
        # of its scenarios this is
        faq = eid in corpus.faq
        where = {"source": "faq" if faq else "example",
                 "number": faq_number(corpus, eid) if faq else example_number(corpus, eid), "parts": len(cases)}
        for part, (cid, s, exp) in enumerate(cases, 1):
            rows.append({**check_case(corpus, cid, ex["title"], s, exp, as_of), **where, "part": part})
    counts = {s: sum(1 for r in rows if r["status"] == s) for s in ("pass", "fail", "error", "skipped")}
    return {"kind": "examples", "ok": counts["fail"] == 0 and counts["error"] == 0, "counts": counts,
            "examples": rows}


def check_case(corpus, cid: str, title: str, scn_obj, exp, as_of) -> dict:
    kind = scn_obj.get("kind") if isinstance(scn_obj, dict) else None
    row: dict[str, Any] = {"id": cid, "title": title, "kind": kind, "status": None, "differences": [],
                           "error": None}
    if kind not in RUNNERS:
        row["status"] = "skipped"
        return row
    try:
        res = RUNNERS[kind](scn_obj, cid, corpus, as_of)
    except FlamerError as exc:
        row["status"] = "error"
        row["error"] = exc.message
        return row
    diffs: list = []
    _expect(exp or {}, res, "", diffs)
    row["status"] = "fail" if diffs else "pass"
    row["differences"] = diffs
    row["unresolved"] = res.get("unresolved", [])
    return row
