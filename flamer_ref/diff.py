"""`flamer diff A B`: what changed between two states of the rules — the update bulletin.

A and B are each a date (the data as of that day: the clause texts in force, the rulings published and
withdrawn by then) or a data folder (its rules/ and cards/, as of its own latest ruling). Clauses are
matched by id, so a clause that only moved is `renumbered`, never added and removed; rulings by id; cards by
name. `verdicts` are the example and FAQ scenarios (matched by their ids) whose verdict differs — the same
comparison `flamer impact` makes (flamer_ref/verdicts.py). `--format md|html` words it as a bulletin
(templates/diff/); the handbook's rulings timeline and the site's 판정 page reuse `verdict_changes` for the
day before each ruling's date and that date.
"""

from __future__ import annotations

import difflib
import os
import re
from dataclasses import dataclass
from pathlib import Path

from .errors import BadInput


@dataclass
class Side:
    label: str  # as typed: a date or a folder
    corpus: object
    as_of: str
    kind: str  # "date" | "folder"


def side(spec: str, root=None) -> Side:
    """A date (the data of `root`, the default data when None, as of that day) or a data folder."""
    from .corpus import load
    from .dates import parse_date

    text = spec.strip()
    if not text:
        raise BadInput("비교할 날짜나 데이터 폴더가 비어 있습니다.")
    if not os.path.isdir(text):
        date = parse_date(text, lambda: int(load(root).latest_date()[:4]))
        if date is not None:
            return Side(text, load(root), date, "date")
        raise BadInput(f"날짜(2026-09-24, 9/24)도 데이터 폴더도 아닙니다: {text} — 날짜나 rules/와 cards/가 있는 "
                       "폴더를 적으세요.")
    if not (Path(text) / "rules").is_dir():
        raise BadInput(f"데이터 폴더가 아닙니다: {text} — rules/와 cards/가 있는 폴더를 적으세요.")
    corpus = load(text)
    return Side(text, corpus, corpus.latest_date(), "folder")


# ----------------------------------------------------------------------------- the parts ----
def _clauses(a: Side, b: Side) -> dict:
    from .lookup import rule

    ids_a, ids_b = list(a.corpus.clauses), list(b.corpus.clauses)
    in_a, in_b = set(ids_a), set(ids_b)
    changed, renumbered = [], []
    for cid in ids_b:
        if cid not in in_a:
            continue
        ca, cb = a.corpus.clauses[cid], b.corpus.clauses[cid]
        ta, tb = rule(a.corpus, cid, a.as_of)["text"], rule(b.corpus, cid, b.as_of)["text"]
        if ta != tb or ca["title"] != cb["title"]:
            changed.append({"id": cid, "number": cb.get("number"), "title": cb["title"], "before": ta, "after": tb,
                            **({"title_before": ca["title"]} if ca["title"] != cb["title"] else {})})
        if ca.get("number") != cb.get("number"):
            renumbered.append({"id": cid, "before": ca.get("number"), "after": cb.get("number")})
    return {"added": [c for c in ids_b if c not in in_a], "removed": [c for c in ids_a if c not in in_b],
            "changed": changed, "renumbered": renumbered}


def _published(s: Side) -> list[str]:
    return [rid for rid, r in s.corpus.rulings.items() if r["date"] <= s.as_of]


def _withdrawn(s: Side) -> set[str]:
    from .inforce import InForce

    on = InForce(s.corpus.rulings, s.as_of)
    return {rid for rid in _published(s) if on.withdrawn_by(rid) is not None}


_RULING_FIELDS = ("date", "status", "label", "title", "summary", "clauses", "supersedes", "earlier_rule", "source",
                  "sets", "withdraws")


def _rulings(a: Side, b: Side) -> dict:
    pa, pb = _published(a), _published(b)
    seen = set(pa)
    wa, wb = _withdrawn(a), _withdrawn(b)
    corrected = [rid for rid in pb if rid in seen and any(
        a.corpus.rulings[rid].get(k) != b.corpus.rulings[rid].get(k) for k in _RULING_FIELDS)]
    return {"added": [rid for rid in pb if rid not in seen],
            "withdrawn": [rid for rid in pb if rid in wb and rid not in wa],
            "corrected": corrected}


_CARD_SKIP = frozenset({"file", "line", "editor_note"})


def _cards(a: Side, b: Side) -> dict:
    ca, cb = a.corpus.cards, b.corpus.cards

    def same(x, y):
        return {k: v for k, v in x.items() if k not in _CARD_SKIP} == {k: v for k, v in y.items() if k not in _CARD_SKIP}

    return {"added": [n for n in cb if n not in ca], "removed": [n for n in ca if n not in cb],
            "changed": [n for n in cb if n in ca and not same(ca[n], cb[n])]}


def verdict_changes(a: Side, b: Side) -> list[dict]:
    """The example and FAQ scenarios in both states whose verdict differs: {source, id, title, before, after}
    (`before`/`after` as `flamer simulate --brief` prints them), in the order `flamer examples` runs them."""
    from .runner import gc_paused
    from .verdicts import cases, parse_case, resolve

    out = []
    theirs = {c.id: c for c in cases(b.corpus)}
    with gc_paused():
        for case in cases(a.corpus):
            other = theirs.get(case.id)
            if other is None:
                continue
            sa, sb = _parsed(a.corpus, case, parse_case), _parsed(b.corpus, other, parse_case)
            if sa is None or sb is None:
                continue
            ka, ha = _verdict_of(a.corpus, case.id, sa, a.as_of, resolve)
            kb, hb = _verdict_of(b.corpus, case.id, sb, b.as_of, resolve)
            if ka != kb:
                out.append({"source": case.source, "id": case.id, "title": other.title,
                            "before": ha(), "after": hb()})
    return out


def _parsed(corpus, case, parse_case):
    """The case's scenario parsed against this corpus (None when it does not parse there), kept with the
    corpus object as its verdicts are (_verdict_of): the timeline compares every case on seven days."""
    memo = corpus.__dict__.setdefault("_parsed_cases", {})
    if case.id not in memo:
        memo[case.id] = parse_case(corpus, case)
    return memo[case.id]


def _verdict_of(corpus, case_id: str, scn, as_of: str | None, resolve) -> tuple[str, object]:
    """A case's verdict key on a day and a function giving its headline, kept with the corpus object (as
    the search index is: a loaded corpus does not change, and its scenarios answer the same on the same
    day). The handbook's timeline asks for every case on the day before and on the day of each ruling,
    and a process that builds the book, the site or the timeline again (a long-lived one; each test of
    the suite) asked the engine all of it again. The headline is kept once made; the answer itself is
    not kept (a headline asked for later resolves the case again)."""
    memo = corpus.__dict__.setdefault("_verdicts", {})
    hit = memo.get((case_id, as_of))
    fresh = None
    if hit is None:
        fresh = resolve(corpus, scn, as_of, case_id)
        hit = memo[(case_id, as_of)] = [fresh.key, None]

    def headline() -> str:
        if hit[1] is None:
            hit[1] = (fresh or resolve(corpus, scn, as_of, case_id)).headline()
        return hit[1]

    return hit[0], headline


def diff(spec_a: str, spec_b: str, root=None) -> dict:
    """The answer of `flamer diff A B` (the JSON of /shared/spec/rulings.md, with `dates`: the day each side
    is read at, and rulings `corrected`: published in both, changed in the data)."""
    a, b = side(spec_a, root), side(spec_b, root)
    return {"from": a.label, "to": b.label, "dates": {"from": a.as_of, "to": b.as_of},
            "clauses": _clauses(a, b), "rulings": _rulings(a, b), "cards": _cards(a, b),
            "verdicts": verdict_changes(a, b), "_sides": (a, b)}


# ------------------------------------------------------------------------------- wording ----
_TOKEN = re.compile(r"\S+")


def marked(before: str, after: str) -> list[dict]:
    """Old and new text as segments, word by word: {op: same | del | ins, text}. The words of a segment
    are joined by single spaces; segments are separated by a space when shown."""
    wa, wb = _TOKEN.findall(before or ""), _TOKEN.findall(after or "")
    out: list[dict] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=wa, b=wb, autojunk=False).get_opcodes():
        if op == "equal":
            out.append({"op": "same", "text": " ".join(wa[i1:i2])})
            continue
        if i2 > i1:
            out.append({"op": "del", "text": " ".join(wa[i1:i2])})
        if j2 > j1:
            out.append({"op": "ins", "text": " ".join(wb[j1:j2])})
    return out


def bulletin_view(out: dict) -> dict:
    """What the bulletin templates show beyond the JSON: each ruling's record, each changed clause's marked
    words, each verdict's lines, the clause and card records."""
    a, b = out["_sides"]
    rb, ra = b.corpus.rulings, a.corpus.rulings
    from .inforce import InForce

    on = InForce(rb, b.as_of)

    def ruling(rid, table):
        r = table[rid]
        return {"id": rid, "date": r["date"], "label": r["label"], "title": r["title"], "summary": r["summary"],
                "clauses": [{"id": c, "number": b.corpus.clauses[c].get("number"), "title": b.corpus.clauses[c]["title"]}
                            for c in r["clauses"] if c in b.corpus.clauses],
                "withdraws": list(r.get("withdraws") or ()), "sets": dict(r.get("sets") or {})}

    withdrawn = []
    for rid in out["rulings"]["withdrawn"]:
        w = on.withdrawn_by(rid)
        withdrawn.append({**ruling(rid, rb), "by": ruling(w, rb) if w else None})
    return {
        "added": [ruling(rid, rb) for rid in out["rulings"]["added"]],
        "withdrawn": withdrawn,
        "corrected": [{"before": ruling(rid, ra), "after": ruling(rid, rb)} for rid in out["rulings"]["corrected"]],
        "clauses_changed": [{**c, "marked": marked(c["before"], c["after"])} for c in out["clauses"]["changed"]],
        "clauses_added": [{"id": c, "number": b.corpus.clauses[c].get("number"), "title": b.corpus.clauses[c]["title"],
                           "text": b.corpus.clauses[c]["text"]} for c in out["clauses"]["added"]],
        "clauses_removed": [{"id": c, "number": a.corpus.clauses[c].get("number"), "title": a.corpus.clauses[c]["title"]}
                            for c in out["clauses"]["removed"]],
        # (a bulletin shows the verdict and its reasons; the brief's pointer to the full answer is left out)
        "verdicts": [{**v, "before_lines": _bulletin_lines(v["before"]), "after_lines": _bulletin_lines(v["after"])}
                     for v in out["verdicts"]],
    }


def _bulletin_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if not line.startswith("주의:")]


def public(out: dict) -> dict:
    """The JSON answer (without the sides the wording reads)."""
    return {k: v for k, v in out.items() if not k.startswith("_")}
