"""What the `flamer simulate` / `flamer examples` commands do, as plain
functions returning JSON-ready dicts: compare two dates, enumerate combat
orders, check the corpus examples, and collect the clause titles a template
needs to cite decisions. It sits above the engine (flamer_ref/engine/, pure: no files, no
sentences): every result it returns has the Korean `message` of its errors and gaps filled by the
templates (render.word_result), as the JSON contract wants."""

from __future__ import annotations

import json
from typing import Any

from .engine import SUPPORTED_KINDS
from .engine.api import parse, run
from .engine.combat import combat_orders, simulate
from .engine.scenario import Scenario
from .errors import DataError, FlamerError, Forbidden
from .render import word_result



def result_json(scn, corpus, as_of: str | None = None) -> dict:
    """A parsed scenario of any kind → its result JSON with the Korean messages (what --json prints)."""
    return word_result(run(scn, corpus, as_of).to_json())


def _json(scn_obj, file: str, corpus, as_of: str | None) -> dict:
    return result_json(parse(scn_obj, file, corpus), corpus, as_of)


#: kind → fn(scenario object, file label, corpus, as_of) → result JSON: every kind the engine
#: resolves (`flamer examples` skips an example of any other kind).
RUNNERS = {kind: _json for kind in SUPPORTED_KINDS}
SUPPORTED = tuple(RUNNERS)


# -------------------------------------------------------------- citations ----
def _ids_in(obj, out: set) -> None:
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k in ("rule", "ruling", "because", "interpretation", "target_rule") and isinstance(v, str):
                out.add(v)
            elif k in ("order_ties", "target_ties") and isinstance(v, list):
                out.update(x for x in v if isinstance(x, str))
            else:
                _ids_in(v, out)
    elif isinstance(obj, list):
        for v in obj:
            _ids_in(v, out)


def refs(corpus, *objs) -> dict[str, dict]:
    """Every clause / interpretation / ruling id cited in objs → what a template shows."""
    ids: set[str] = set()
    for o in objs:
        _ids_in(o, ids)
    out = {}
    for i in sorted(ids):
        if i in corpus.clauses:
            out[i] = {"kind": "clause", "title": corpus.clauses[i]["title"]}
        elif i in corpus.interpretations:
            out[i] = {"kind": "interpretation", "title": corpus.interpretations[i]["title"]}
        elif i in corpus.rulings:
            r = corpus.rulings[i]
            out[i] = {"kind": "ruling", "title": r["title"], "date": r["date"], "label": r["label"]}
        else:
            out[i] = {"kind": "unknown", "title": i}
    return out


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
    piece ended), ``unresolved`` (gaps reported at one date only)."""
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
        out.append({"what": "unresolved", da: [{"reason": u["reason"], "cell": u.get("cell"), "message": u["message"]}
                                               for u in only_a],
                    db: [{"reason": u["reason"], "cell": u.get("cell"), "message": u["message"]} for u in only_b]})
    return out


def _try(scn: Scenario, corpus, **kw) -> tuple[dict | None, str | None]:
    try:
        return word_result(simulate(scn, corpus, **kw).to_json()), None
    except (DataError, Forbidden) as exc:
        return None, exc.message


_TURN_OUTCOME = {"move": ("valid", "positions", "encounters", "errors"),
                 "victory": ("secured", "vp_gain", "vp", "winner", "reasons"),
                 "field": ("slots", "active", "retired", "levels", "bonds", "errors"),
                 "round": ("ended", "final")}


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


def compare(scn, corpus, base: str, other: str) -> dict:
    """Resolve at two dates; list the differences and the rulings that make them (any kind:
    a combat by its outcome and each ruling forced alone, the other kinds by compare_turn)."""
    if scn.kind != "combat":
        return compare_turn(scn, corpus, base, other)
    a, ea = _try(scn, corpus, as_of=base)
    b, eb = _try(scn, corpus, as_of=other)
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
            forced, err = _try(scn, corpus, as_of=early_date, overrides={r["id"]: True})
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


#: Most combat orders --all-branches runs (each one resolves the whole scenario).
MAX_BRANCH_ORDERS = 120


def _cells_independent(scn: Scenario) -> bool:
    """True when the combat order cannot change the outcome: no response stack (the only thing the
    first combat hosts for all cells, response.resolve.once), no (전투) card declared, and no piece
    whose (전투) SP reaches into another cell's combat (combat.remote). Then the cells are fought
    independently and every order gives the same result."""
    from .engine.types import REMOTE_SP

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


def branches(scn: Scenario, corpus, as_of: str | None) -> dict:
    """Each combat order the attacker could choose → the distinct outcomes.

    Only orders that can differ are run: independent cells give one branch (note ``independent``);
    past MAX_BRANCH_ORDERS orders the rest are not run (note ``capped``, with ``orders_total``)."""
    fixed = scn.combat_order is not None
    if fixed:
        orders, note, total = [scn.combat_order], None, None
    else:
        orders, note, total = _branch_orders(scn, corpus)
    groups: list[dict] = []
    for order in orders:
        res, err = _try(scn, corpus, as_of=as_of, combat_order=order or None)
        key = json.dumps(outcome(res), sort_keys=True, ensure_ascii=False) if res else f"error:{err}"
        for g in groups:
            if g["_key"] == key:
                g["orders"].append(list(order))
                break
        else:
            groups.append({"_key": key, "orders": [list(order)], "outcome": outcome(res) if res else None,
                           "error": err, "as_of": res["as_of"] if res else as_of})
    for g in groups:
        g.pop("_key")
    out = {"kind": "branches", "file": scn.file, "fixed_by_file": fixed, "orders_tried": len(orders),
           "distinct": len(groups), "branches": groups}
    if note:
        out["note"] = note
    if total is not None:
        out["orders_total"] = total
    return out


def _round_outcome(res: dict) -> dict:
    """What counts as the outcome of a whole round (the grouping key of round_branches): the end
    state and the gaps; prisoners, fragments and removed pieces are sets (their order is the
    combat order's alone)."""
    final = dict(res["final"])
    final["prisoners"] = {s: sorted(v) for s, v in final["prisoners"].items()}
    for k in ("fragments", "removed"):
        final[k] = sorted(final.get(k) or [])
    return {"ended": res["ended"], "final": final,
            "unresolved": sorted({f"{u['reason']}@{u.get('turn') or '-'}@{u.get('cell') or '-'}"
                                  for u in res["unresolved"]})}


def round_branches(scn, corpus, as_of: str | None) -> dict:
    """--all-branches for kind round: the orders of the round's 전투턴 (the board after its
    이동턴) → the distinct outcomes of the whole round. As in branches(): an order fixed by the
    file gives one branch, independent cells one branch (note ``independent``), past
    MAX_BRANCH_ORDERS the rest are not run (``capped``). A 전투턴 with fewer than two combat cells
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
    for order in orders:
        try:
            one = scn if fixed or not order else replace(scn, combat_order=tuple(order))
            res, err = result_json(one, corpus, as_of), None
        except (DataError, Forbidden) as exc:
            res, err = None, exc.message
        key = json.dumps(_round_outcome(res), sort_keys=True, ensure_ascii=False) if res else f"error:{err}"
        for g in groups:
            if g["_key"] == key:
                g["orders"].append(list(order))
                break
        else:
            groups.append({"_key": key, "orders": [list(order)], "outcome": res, "error": err,
                           "as_of": res["as_of"] if res else as_of})
    for g in groups:
        g.pop("_key")
        if note in ("round-no-combat", "round-one-cell"):
            g["orders"] = []  # no order was chosen
    out = {"kind": "branches", "file": scn.file, "fixed_by_file": fixed, "orders_tried": len(orders),
           "distinct": len(groups), "branches": groups, "combat_cells": enc}
    if note:
        out["note"] = note
    if total is not None:
        out["orders_total"] = total
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
        for cid, s, exp in cases:
            rows.append(_check_case(corpus, cid, ex["title"], s, exp, as_of))
    counts = {s: sum(1 for r in rows if r["status"] == s) for s in ("pass", "fail", "error", "skipped")}
    return {"kind": "examples", "ok": counts["fail"] == 0 and counts["error"] == 0, "counts": counts,
            "examples": rows}


def _check_case(corpus, cid: str, title: str, scn_obj, exp, as_of) -> dict:
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
