"""The handbook behind `flamer book` (and the FAQ pages of `flamer faq --format
html|md|pdf`, and the static site): the whole reference as plain, JSON-ready
data — no sentences. templates/book/ words it.

`build_book(corpus, as_of)` returns, in the order of the book:

- ``cover``: the as-of date, the data version (latest ruling date, a short hash of
  the data files, the package version) and counts;
- ``toc``: the parts and their sections, each with its anchor;
- ``sections``: the rules page by page (the clause sections of rules/clauses/ in
  their order), every clause with its text as in force on ``as_of`` (see
  lookup.rule), source pages, see-also links, the rulings in force that touched
  it (with the superseded wording and the clause's earlier text), the project's
  interpretations, and the FAQ entries and examples that cite it;
- ``rulings``: the dated rulings up to ``as_of``, oldest first, each with the
  example and FAQ scenarios whose result it changes — computed by resolving every
  scenario the day before and the day of the ruling (runner.compare /
  compare_turn), attributed to the single ruling where the engine can tell;
- ``faq``: every FAQ entry and the reasoned cases (examples of type ``reasoned``),
  grouped by source page, each with the engine's result where it has a scenario;
- ``examples``: the other examples grouped by page, each scenario resolved at
  ``as_of`` (the scenario's own date without it, as `flamer examples` does) and
  checked against the page's result (runner.check_case, the same check);
- ``cards`` (grouped by faction) with the rulings and FAQ entries that concern
  them (lookup.card_mentions, rulings up to ``as_of``), and ``glossary`` (in 가나다 order,
  korean.collation_key; ``glossary_groups`` the same under their index letters);
- ``index`` (찾아보기): every glossary term and alias, every card and every clause keyword in
  가나다 order under its index letter, each with the places of the book it is found at (anchors:
  the term's definition and the card's entry are its ``main`` places) — see index_groups().

Every item carries ``anchor``: the stable id of its place in the HTML (the data
id itself for clauses, interpretations, rulings, FAQ entries, examples and terms;
``card.NAME`` with spaces as hyphens for cards; ``sec.ID`` and ``part.NAME`` for
the headings). ``anchors`` maps every anchor of the book to its kind, so that a
template links only to what is there.

Nothing is cached on disk: the book is computed from the corpus each time.
"""

from __future__ import annotations

import datetime as _dt
from typing import Any

from .corpus import FACTIONS, RULING_STATUS, Corpus

#: the parts of the book, in order (templates word them)
PARTS = ("cover", "toc", "rules", "rulings", "faq", "examples", "cards", "glossary", "index")


# ------------------------------------------------------------------ anchors ----
def card_anchor(name: str) -> str:
    """The anchor of a card: card.NAME, whitespace as hyphens (an HTML id has no spaces)."""
    return "card." + "-".join(str(name).split())


def section_anchor(section_id: str) -> str:
    return f"sec.{section_id}"


def part_anchor(part: str) -> str:
    return f"part.{part}"


def group_anchor(part: str, key: str | None) -> str:
    return f"{part}.{key or 'none'}"


def _prev_day(date: str) -> str:
    return (_dt.date.fromisoformat(date) - _dt.timedelta(days=1)).isoformat()


# -------------------------------------------------------------- data version ----
def data_version(corpus: Corpus) -> dict:
    """What data the book was made from: the latest ruling date, a short content hash of
    the data files (or of the loaded corpus where the files are not at hand) and the
    package version."""
    import hashlib
    from pathlib import Path

    from . import __version__

    h = hashlib.sha256()
    root = Path(corpus.root) if corpus.root else None
    files: list = []
    if root is not None and (root / "rules").is_dir():
        from .corpus import data_files, present

        files = list(data_files(root))
        if present(root, "cards/effects.yaml"):
            files.append(root / "cards" / "effects.yaml")
    if files:
        from .yamlio import read_bytes

        for p in sorted(files):
            rel = p.relative_to(root)
            # through the input gate, as the loader and `flamer fight` read them: a file that cannot be
            # read is the same DataError naming it (never an OSError)
            h.update(str(rel).encode() + b"\0" + read_bytes(p, rel.as_posix()) + b"\0")
    else:
        import json

        plain = {k: v for k, v in corpus.to_plain().items() if k != "root"}
        h.update(json.dumps(plain, ensure_ascii=False, sort_keys=True).encode())
    return {"latest_ruling": corpus.latest_date(), "hash": h.hexdigest()[:10], "package": __version__}


# ------------------------------------------------------------------ scenarios ----
def _cases(item_id: str, item: dict) -> list[tuple[str, int, Any, Any]]:
    """(case id, 1-based index, scenario object, expected) of an example or FAQ entry —
    named as runner.check_examples names them (ID, or ID#n for a list)."""
    scn_obj = item.get("scenario")
    if not scn_obj:
        return []
    exp_obj = item.get("expected")
    if isinstance(scn_obj, list):
        exps = exp_obj if isinstance(exp_obj, list) else [None] * len(scn_obj)
        return [(f"{item_id}#{i + 1}", i + 1, s, exps[i] if i < len(exps) else None) for i, s in enumerate(scn_obj)]
    return [(item_id, 1, scn_obj, exp_obj)]


def _all_cases(corpus: Corpus) -> list[dict]:
    """Every scenario of the examples and FAQ, in the order of `flamer examples`."""
    out = []
    items = [("example", eid, e, e["title"]) for eid, e in corpus.examples.items()]
    items += [("faq", fid, f, f["question"]) for fid, f in corpus.faq.items()]
    for owner_kind, oid, item, title in items:
        cases = _cases(oid, item)
        for cid, index, scn_obj, exp in cases:
            out.append({"case": cid, "index": index, "count": len(cases), "owner": oid, "owner_kind": owner_kind,
                        "title": title, "scenario": scn_obj, "expected": exp})
    return out


def _run(corpus: Corpus, case: dict, as_of: str | None) -> dict:
    """Resolve one case at as_of and check it against the page, exactly as `flamer examples` does
    (runner.check_case). Returns the check, and the result JSON for the pictures."""
    from . import runner
    from .errors import FlamerError

    row = runner.check_case(corpus, case["case"], case["title"], case["scenario"], case["expected"], as_of)
    result, error = None, row.get("error")
    kind = row["kind"]
    if kind in runner.RUNNERS and row["status"] != "error":
        try:
            result = runner.RUNNERS[kind](case["scenario"], case["case"], corpus, as_of)
        except FlamerError as exc:  # pragma: no cover - check_case ran the same without error
            error = exc.message
    import json

    diffs = [{**d, "expected_json": json.dumps(d["expected"], ensure_ascii=False),
              "actual_json": json.dumps(d["actual"], ensure_ascii=False)} for d in row["differences"]]
    return {"case": case["case"], "index": case["index"], "count": case["count"], "kind": kind,
            "status": row["status"], "differences": diffs, "error": error,
            "as_of": result["as_of"] if result else as_of, "result": result,
            "key": _victory_key(corpus, case, result) if kind == "victory" and result else None}


def _victory_key(corpus: Corpus, case: dict, result: dict) -> list[dict] | None:
    """The key of a victory-check picture: the board shows who holds each cell, not the pieces, so the key
    beside it names them — [{cell, side, status, pieces: [{name, state}]}] per side of each cell, in the
    order of the picture's cells. The pieces are the scenario's (the result does not carry them)."""
    from .people import piece_names

    scn = _parsed(corpus, case)
    if scn is None or not getattr(scn, "pieces", None):
        return None
    pieces = {p.id: {"label": p.name or p.card, "side": p.side, "cell": p.cell,
                     "state": getattr(p.state, "value", p.state)} for p in scn.pieces}
    names = piece_names({"pieces": pieces})
    cells = result.get("cells") or {}
    order = {c: n for n, c in enumerate(cells)}
    out: dict[tuple, dict] = {}
    for pid, p in sorted(pieces.items(), key=lambda kv: (order.get(kv[1]["cell"], len(order)), kv[1]["cell"])):
        row = out.setdefault((p["cell"], p["side"]), {"cell": p["cell"], "side": p["side"],
                                                      "status": (cells.get(p["cell"]) or {}).get("status"),
                                                      "by": (cells.get(p["cell"]) or {}).get("by"), "pieces": []})
        row["pieces"].append({"name": names.get(pid, pid), "state": p["state"]})
    return list(out.values())


# ------------------------------------------------------------------- timeline ----
def _parsed(corpus: Corpus, case: dict):
    from .engine.api import parse
    from .errors import FlamerError

    try:
        return parse(case["scenario"], case["case"], corpus)
    except FlamerError:
        return None


def _verdict_of(result: dict | None) -> dict | None:
    if result is None:
        return None
    from .verdict import build

    return build(result)


def _changed_by_date(corpus: Corpus, cases: list[dict], parsed: dict, date: str) -> list[dict]:
    """The cases whose result differs between the day before `date` and `date`, with the rulings
    of that date that make the difference (runner.compare's by_ruling: that ruling alone, forced
    on the day before, changes the result; for move / victory / field, the rulings the engine
    cited). `joint` when no single ruling of the date explains it."""
    from . import runner
    from .diff import Side, verdict_changes

    before = _prev_day(date)
    of_date = [r["id"] for r in corpus.rulings.values() if r["date"] == date]
    # which cases change: the verdicts `flamer diff <the day before> <date>` lists (flamer_ref/diff.py)
    changed = {v["id"] for v in verdict_changes(Side(before, corpus, before, "date"), Side(date, corpus, date, "date"))}
    out = []
    for case in cases:
        scn = parsed.get(case["case"]) if case["case"] in changed else None
        if scn is None:
            continue
        cmp = runner.compare(scn, corpus, before, date)  # any kind
        valid = {d: cmp["results"][d] is not None for d in (before, date)}
        if not cmp["differences"] and valid[before] == valid[date]:
            continue
        rulings = [b["ruling"] for b in cmp["by_ruling"] if b["ruling"] in of_date]
        joint = not rulings
        if joint:
            rulings = list(of_date)
        what = sorted({d["path"].split(".")[0] for d in cmp["differences"]})
        if valid[before] != valid[date]:
            what.append("validity")
        details = _details(cmp, before, date, scn.kind != "combat")
        sides = {}
        for key, d in (("before", before), ("after", date)):
            check = _run(corpus, case, d)
            sides[key] = {"date": d, "verdict": _verdict_of(cmp["results"][d]), "error": cmp["errors"][d],
                          "status": check["status"],
                          "unresolved": len((cmp["results"][d] or {}).get("unresolved") or [])}
        out.append({"case": case["case"], "owner": case["owner"], "owner_kind": case["owner_kind"],
                    "index": case["index"], "count": case["count"], "title": case["title"],
                    "kind": (case["scenario"] or {}).get("kind"), "rulings": rulings, "joint": joint,
                    "what": what, "details": details, **sides})
    return out


def _details(cmp: dict, before: str, date: str, turn: bool) -> list[dict]:
    """The concrete differences behind a change, date-neutral (before / after): for move, victory
    and field the values that differ ({what: value, key, before, after}); for a combat where each
    piece ended ({what: piece, piece, label, before, after}) and what became of each declaration
    ({what: declaration, card, ability, side, before, after}) — runner.changes."""
    from .people import piece_names

    out: list[dict] = []
    # what a player reads for a piece: its card's name (수문장 1, 수문장 2), never its id
    names = piece_names({"results": {d: cmp.get("results", {}).get(d) for d in (before, date)}})
    if turn:
        for d in cmp["differences"]:
            if d["path"].split(".")[0] != "unresolved":
                out.append({"what": "value", "key": d["path"], "before": d[before], "after": d[date],
                            "names": names})
        return out
    for c in cmp["changes"]:
        if c["what"] == "piece":
            out.append({"what": "piece", "piece": c["piece"], "label": names.get(c["piece"]) or c["piece"],
                        "before": c[before], "after": c[date]})
        elif c["what"] == "declaration":
            def view(d):
                if d is None:
                    return None
                return {"resolved": d["resolved"], "fizzles": [f["reason"] for f in d["fizzles"]],
                        "hits": [{"target": h["target"], "label": names.get(h["target"]) or h["target"],
                                  "amount": h["amount"]} for h in d["hits"]]}

            out.append({"what": "declaration", "phase": c["phase"], "index": c["index"], "side": c["side"],
                        "card": c["card"], "ability": c["ability"], "before": view(c[before]),
                        "after": view(c[date])})
    return out


def timeline(corpus: Corpus, as_of: str) -> list[dict]:
    """The rulings up to as_of, oldest first, each with `changed`: the cases its date changes."""
    cases = _all_cases(corpus)
    parsed = {c["case"]: _parsed(corpus, c) for c in cases}
    by_date: dict[str, list[dict]] = {}
    out = []
    for r in corpus.rulings.values():
        if r["date"] > as_of:
            continue
        if r["date"] not in by_date:
            by_date[r["date"]] = _changed_by_date(corpus, cases, parsed, r["date"])
        changed = [c for c in by_date[r["date"]] if r["id"] in c["rulings"]]
        out.append({**_ruling_view(corpus, r, as_of), "changed": changed,
                    "cited_by": [{"id": e["id"], "kind": "example", "title": e["title"]}
                                 for e in corpus.examples.values() if r["id"] in e["rulings"]]})
    return out


# ---------------------------------------------------------------------- views ----
def _ruling_view(corpus: Corpus, r: dict, as_of: str | None = None) -> dict:
    from .inforce import withdrawal

    gone = withdrawal(corpus.rulings, r["id"], as_of) if as_of else None
    return {"id": r["id"], "anchor": r["id"], "date": r["date"], "status": r["status"],
            # a withdrawn ruling stays in the timeline, with the ruling that withdrew it (by as_of)
            "withdrawn_by": {**gone, "title": corpus.rulings[gone["id"]]["title"]} if gone else None,
            "withdraws": [{"id": w, "date": corpus.rulings[w]["date"], "title": corpus.rulings[w]["title"]}
                          for w in r.get("withdraws") or () if w in corpus.rulings],
            "status_ko": RULING_STATUS[r["status"]], "label": r["label"], "title": r["title"],
            "summary": r["summary"], "supersedes": r.get("supersedes"), "earlier_rule": r.get("earlier_rule"),
            "clauses": _refs(corpus, r["clauses"]),
            "sources": [{"id": s, "title": corpus.sources[s]["title"]} for s in r["source"] if s in corpus.sources]}


def _refs(corpus: Corpus, ids) -> list[dict]:
    """Cited clauses: id, title and rule number (the templates cite them through clause_label)."""
    return [{"id": c, "title": corpus.clauses[c]["title"], "number": corpus.clauses[c].get("number")}
            for c in ids if c in corpus.clauses]


def _ruling_refs(corpus: Corpus, ids, as_of: str) -> list[dict]:
    out = []
    for rid in ids:
        r = corpus.rulings.get(rid)
        if r is not None:
            out.append({"id": rid, "date": r["date"], "label": r["label"], "title": r["title"],
                        "in_book": r["date"] <= as_of})
    return out


def _clause_view(corpus: Corpus, cid: str, as_of: str) -> dict:
    from .lookup import rule

    v = rule(corpus, cid, as_of)
    c = corpus.clauses[cid]
    earlier = {e["ruling"]: e["text"] for e in c["earlier"]}
    later = v["later_rulings"]
    return {
        "id": cid, "anchor": cid, "number": c.get("number"), "title": c["title"], "text": v["text"],
        "text_status": v["text_status"],
        # the text shown is a later one only where the page gives no earlier wording (text_status earlier-unknown)
        "text_from": ({"date": later[0]["date"], "label": later[0]["label"], "title": later[0]["title"]}
                      if v["text_status"] == "earlier-unknown" and later else None),
        "sources": [{"id": s, "title": corpus.sources[s]["title"]} for s in c["source"] if s in corpus.sources],
        "see_also": _refs(corpus, c["see_also"]),
        "rulings": [{"id": r["id"], "date": r["date"], "status": r["status"], "status_ko": r["status_ko"],
                     "label": r["label"], "title": r["title"], "supersedes": r["supersedes"],
                     "earlier_text": earlier.get(r["id"])} for r in v["rulings"]],
        "interpretations": [{**i, "anchor": i["id"]} for i in v["interpretations"]],
        "faq": [{"id": f, "title": corpus.faq[f]["question"]} for f in v["faq"]],
        "examples": [{"id": e, "title": corpus.examples[e]["title"], "type": corpus.examples[e]["type"]}
                     for e in v["examples"]],
    }


def rules_sections(corpus: Corpus, as_of: str) -> list[dict]:
    out = []
    for sid, sec in corpus.sections.items():
        clauses = [_clause_view(corpus, cid, as_of) for cid, c in corpus.clauses.items() if c["section"] == sid]
        pages: list[str] = []
        for c in clauses:
            for s in c["sources"]:
                if s["id"] not in pages:
                    pages.append(s["id"])
        out.append({"id": sid, "anchor": section_anchor(sid), "title": sec["title"], "order": sec["order"],
                    "number": len(out) + 1,  # the chapter of its clauses' numbers (numbering.py)
                    "sources": [_source_view(corpus, s) for s in pages], "clauses": clauses})
    return out


def _source_view(corpus: Corpus, sid: str) -> dict:
    s = corpus.sources[sid]
    return {"id": sid, "title": s["title"], "header": s.get("header"), "version": s.get("version")}


def _case_views(corpus: Corpus, item_id: str, item: dict, title: str, owner_kind: str, as_of: str | None) -> list[dict]:
    cases = _cases(item_id, item)
    return [_run(corpus, {"case": cid, "index": i, "count": len(cases), "owner": item_id, "owner_kind": owner_kind,
                          "title": title, "scenario": s, "expected": exp}, as_of)
            for cid, i, s, exp in cases]


def _example_view(corpus: Corpus, e: dict, as_of: str, run_as_of: str | None) -> dict:
    return {"id": e["id"], "anchor": e["id"], "kind": "reasoned" if e["type"] == "reasoned" else "example",
            "title": e["title"], "type": e["type"], "source": e["source"], "situation": e["situation"],
            "steps": list(e["steps"]), "result": e["result"], "point": e.get("point"), "reason": e.get("reason"),
            "clauses": _refs(corpus, e["clauses"]), "rulings": _ruling_refs(corpus, e["rulings"], as_of),
            "cases": _case_views(corpus, e["id"], e, e["title"], "example", run_as_of)}


def _faq_view(corpus: Corpus, f: dict, run_as_of: str | None) -> dict:
    return {"id": f["id"], "anchor": f["id"], "kind": "faq", "question": f["question"], "answer": f["answer"],
            "source": f["source"], "clauses": _refs(corpus, f["clauses"]),
            "cases": _case_views(corpus, f["id"], f, f["question"], "faq", run_as_of)}


def _by_source(corpus: Corpus, part: str, items: list[dict]) -> list[dict]:
    groups = []
    for sid in corpus.sources:
        mine = [i for i in items if i["source"] == sid]
        if mine:
            groups.append({"source": _source_view(corpus, sid), "anchor": group_anchor(part, sid.split(".", 1)[-1]),
                           "items": mine})
    return groups


def faq_groups(corpus: Corpus, as_of: str, run_as_of: str | None, only: str | None = None) -> list[dict]:
    """The FAQ part: every FAQ entry and every reasoned case, by source page (FAQ entries first)."""
    items = [_faq_view(corpus, f, run_as_of) for f in corpus.faq.values() if only in (None, f["id"])]
    items += [_example_view(corpus, e, as_of, run_as_of) for e in corpus.examples.values()
              if e["type"] == "reasoned" and only in (None, e["id"])]
    return _by_source(corpus, "faq", items)


def example_groups(corpus: Corpus, as_of: str, run_as_of: str | None) -> list[dict]:
    items = [_example_view(corpus, e, as_of, run_as_of) for e in corpus.examples.values() if e["type"] != "reasoned"]
    return _by_source(corpus, "examples", items)


def card_groups(corpus: Corpus, as_of: str) -> list[dict]:
    from .lookup import card_mentions, card_view

    groups: dict[Any, list] = {k: [] for k in (*FACTIONS, None)}
    for c in corpus.cards.values():
        v = card_view(corpus, c)
        m = card_mentions(corpus, c)
        v["anchor"] = card_anchor(c["name"])
        v["rulings"] = [r for r in m["rulings"] if r["date"] <= as_of]
        v["faq"] = m["faq"]
        groups.setdefault(c["faction"], []).append(v)
    return [{"faction": k, "faction_name": FACTIONS.get(k) if k else None, "anchor": group_anchor("cards", k),
             "cards": v} for k, v in groups.items() if v]


def glossary(corpus: Corpus) -> list[dict]:
    """The terms in 가나다 order (korean.collation_key: the order of `flamer term`, the site and the book)."""
    from .korean import collation_key

    terms = sorted(corpus.terms.values(), key=lambda t: collation_key(t["term"]))
    return [{"id": t["id"], "anchor": t["id"], "term": t["term"], "aliases": list(t["aliases"]),
             "definition": t["definition"], "clauses": _refs(corpus, t["clauses"]),
             "sources": [{"id": s, "title": corpus.sources[s]["title"]} for s in t["source"] if s in corpus.sources]}
            for t in terms]


def by_head(items: list, word) -> list[dict]:
    """Items (already in 가나다 order) under their index letters: [{head, items}] — ㄱ … ㅎ (ㄲ under ㄱ),
    A–Z, 0–9 (korean.collation_head of word(item))."""
    from .korean import collation_head

    out: list[dict] = []
    for item in items:
        head = collation_head(word(item))
        if not out or out[-1]["head"] != head:
            out.append({"head": head, "items": []})
        out[-1]["items"].append(item)
    return out


def glossary_groups(terms: list[dict]) -> list[dict]:
    """The glossary (glossary()) under its index letters: [{head, anchor, terms}]."""
    return [{"head": g["head"], "anchor": f"glossary.{g['head']}", "terms": g["items"]}
            for g in by_head(terms, lambda t: t["term"])]


# ---------------------------------------------------------------------- index ----
#: keywords of the clauses that are no headword of a printed index: the data's keywords are search words
#: (what a player types), and these are generic words of the language, counts and numbers, dates and pieces
#: of sentences — a judge never looks them up, and they crowd the words that matter (issue 28)
NOT_HEADWORDS = frozenset((
    "상대", "대상", "계산", "확인", "반복", "루프", "차례", "방향", "거리", "전략", "요건", "대가", "참가", "지정",
    "확정", "개정", "정정", "명문화", "묶음", "쌓기", "제외",
    "할 수 있다", "이동 후", "전투 직전", "해결 후", "마지막 선언부터", "3단계부터", "4단계로", "미리 설계",
    "다시 대응", "수비자 전용", "정상 진행", "효과 없음", "감소 없음", "기동 없음", "정착만", "남은 정착", "바뀐 Lv",
    "그 전투 한정", "활성 동안", "시작 단계", "바로 왼쪽", "가장 왼쪽", "빠른 기물", "고르지 않은 셀", "셀 단위",
    "다른 셀", "같은 셀", "여러 셀", "양 진영", "같은 전투턴", "첫 전투", "조우 셀 밖", "존재하지 않는 셀",
    "다음 승리확인턴", "정착 기물 1기",
    "두 곳", "한 번", "한 줄", "1회씩", "1회전", "1자리", "5자리", "다섯 자리", "5장", "0기", "6기", "2셀", "2셀 이내",
    "아군 3기", "합산 6기", "0도르", "ATK 2", "ATK 5", "5 ATK", "10 ATK", "후속3", "2026-09-19",
))


def _flat(text) -> str:
    """Text without its spaces: a word is found in it however a line or a page spaces it."""
    return "".join(str(text or "").split())


def _index_places(book: dict) -> tuple[dict, list]:
    """What each place of the book prints, for the index to look its words up in: {anchor: (kind, title)}
    and [(anchor, parent anchor, text)] in the order of the book. A clause's interpretations, and an example
    or a worked case, which is long and may run over a page, are places of their own: each interpretation
    box (its anchor), and each of an example's parts (its situation, each step, its result …) is a place of its own
    (anchor ``ID.situation``, ``ID.step2`` …: the template gives the parts these ids), and a word is
    found on the page of the part that prints it."""
    titles: dict[str, tuple[str, str]] = {}
    texts: list[tuple[str, str, str]] = []
    for s in book["sections"]:
        for c in s["clauses"]:
            titles[c["anchor"]] = ("clause", c["title"])
            texts.append((c["anchor"], c["anchor"], f"{c['title']} {c['text']}"))
            # an interpretation box may go on to the next page: a place of its own
            texts += [(i["anchor"], c["anchor"], f"{i['title']} {i['text']}") for i in c["interpretations"]]
    for r in book["rulings"]:
        titles[r["anchor"]] = ("ruling", r["title"])
        texts.append((r["anchor"], r["anchor"], " ".join(x for x in (r["title"], r["summary"], r.get("supersedes"),
                                                                      r.get("earlier_rule")) if x)))
    for part in ("faq", "examples"):
        for g in book[part]:
            for i in g["items"]:
                titles[i["anchor"]] = (i["kind"], i.get("question") or i.get("title"))
                if i["kind"] == "faq":
                    texts.append((i["anchor"], i["anchor"], f"{i['question']} {i['answer']}"))
                    continue
                for key, text in example_parts(i):
                    texts.append((i["anchor"] if key is None else f"{i['anchor']}.{key}", i["anchor"], text))
    for g in book["cards"]:
        for c in g["cards"]:
            titles[c["anchor"]] = ("card", c["name"])
            texts.append((c["anchor"], c["anchor"], " ".join([c["name"], *c.get("aliases", []),
                                                              *(f"{a['name']} {a['text']}" for a in c["abilities"])])))
    for t in book["glossary"]:
        titles[t["anchor"]] = ("term", t["term"])
        texts.append((t["anchor"], t["anchor"], " ".join([t["term"], *t["aliases"], t["definition"]])))
    return titles, texts


def example_parts(item: dict) -> list[tuple[str | None, str]]:
    """The parts of an example or a worked case that the index finds words in, each with the key of its
    anchor (ID.key; None: the title, at the item's own anchor). The template gives the parts these ids."""
    out: list[tuple[str | None, str]] = [(None, item["title"]), ("situation", item["situation"])]
    if item["kind"] == "reasoned":
        out.append(("result", item["result"]))
    out += [(f"step{n}", s) for n, s in enumerate(item["steps"], 1)]
    if item["kind"] != "reasoned":  # an example prints its result, point and reason after the steps
        out.append(("result", item["result"]))
        out += [(k, item[k]) for k in ("point", "reason") if item.get(k)]
    return out


def index_groups(corpus: Corpus, book: dict) -> list[dict]:
    """찾아보기: the glossary's terms, the cards and the clauses' keywords that are rule words, in 가나다
    order under their index letters: [{head, anchor, entries: [{word, anchor|None, locs, see}]}].

    An entry's places (``locs``: [{anchor, kind, title, main}], in the order of the book, each once) are
    only places that print the word itself — so every page the PDF index gives shows the word:
    - a term: its definition in the glossary (main), and the clauses the glossary gives for it or that
      have it as a keyword, where their text says the term;
    - a card: its row in the cards part (main), and the clauses, examples, rulings and FAQ entries whose
      text names it (a card in an example: the part of the example that names it);
    - a keyword of a clause: that clause, where its text says the keyword. A keyword its clause does not
      say (a search word: 데미지, 사로잡기 …) and the generic words of NOT_HEADWORDS are no headwords.
    Another name of a term (the glossary's aliases: 앞면 = 기동) is ``see`` the term (→ 기동), without
    pages of its own. A word that is several of these (구조물: a term and a keyword) is one entry.
    Only places that are in this book (its ``anchors``) are listed: a book --as-of a day has no later
    rulings. The template words the entries; the PDF prints the pages of the places (pdf.py)."""
    from .korean import collation_key

    ix = _IndexEntries(book)
    other_names = {" ".join(a.split()): t for t in book["glossary"] for a in t["aliases"]
                   if " ".join(a.split()) != t["term"]}
    terms = {t["term"]: t for t in book["glossary"]}
    cards = {c["name"] for g in book["cards"] for c in g["cards"]}
    keyword_clauses: dict[str, list[str]] = {}
    for cid, c in corpus.clauses.items():
        for k in c.get("keywords") or []:
            keyword_clauses.setdefault(" ".join(str(k).split()), []).append(cid)
    for word, cids in keyword_clauses.items():
        if word in NOT_HEADWORDS or word in other_names or word in terms or word in cards:
            continue  # a term's and a card's places are found below; another name is a see-reference
        for cid in cids:
            ix.add(word, cid, _says(word))
    for t in book["glossary"]:
        ix.add(t["term"], t["anchor"], _says(t["term"]), main=True)
        ix.entry(t["term"])["anchor"] = "ix." + t["anchor"]
        for cid in [c["id"] for c in t["clauses"]] + keyword_clauses.get(t["term"], []):
            ix.add(t["term"], cid, _says(t["term"]))
    for alias, t in other_names.items():
        if alias in terms:
            continue  # a term of its own
        a = ix.entry(alias)
        if t["term"] not in [s["word"] for s in a["see"]]:
            a["see"].append({"word": t["term"], "anchor": "ix." + t["anchor"]})
    _index_cards(corpus, book, ix)

    out = []
    for e in sorted(ix.entries.values(), key=lambda e: collation_key(e["word"])):
        locs = sorted(e["locs"].values(), key=lambda loc: ix.order[loc["anchor"]])
        if locs or e["see"]:
            out.append({**e, "locs": locs})
    return [{"head": g["head"], "anchor": f"index.{g['head']}", "entries": g["items"]}
            for g in by_head(out, lambda e: e["word"])]


class _IndexEntries:
    """The entries of the book's 찾아보기 being gathered (index_groups): word → {word, anchor, locs, see}."""

    def __init__(self, book: dict):
        self.present = book["anchors"]
        self.titles, texts = _index_places(book)
        self.order = {a: n for n, (a, _, _) in enumerate(texts)}
        self.parts: dict[str, list[tuple[str, str]]] = {}
        for anchor, parent, text in texts:
            self.parts.setdefault(parent, []).append((anchor, text))
        self.entries: dict[str, dict] = {}

    def entry(self, word: str) -> dict:
        word = " ".join(str(word).split())
        if word not in self.entries:
            self.entries[word] = {"word": word, "anchor": None, "locs": {}, "see": []}
        return self.entries[word]

    def add(self, word: str, parent: str, found, main: bool = False) -> None:
        """The first part of the place `parent` whose text `found` the word, as a place of the word."""
        if parent not in self.present or parent not in self.titles:
            return
        anchor = next((a for a, text in self.parts.get(parent, ()) if found(text)), None)
        if anchor is None:
            return
        e = self.entry(word)
        if anchor in e["locs"]:
            e["locs"][anchor]["main"] = e["locs"][anchor]["main"] or main
        else:
            kind, title = self.titles[parent]
            e["locs"][anchor] = {"anchor": anchor, "kind": kind, "title": title, "main": main}


def _says(word: str):
    """Does a text say the word (spaces aside)?"""
    flat = _flat(word)
    return lambda text: flat in _flat(text)


def _index_cards(corpus: Corpus, book: dict, ix: _IndexEntries) -> None:
    """A card's places in the 찾아보기: its row in the cards part (main), and the clauses, examples, FAQ
    entries and rulings whose text names it as a name of its own (lookup.mentions: not inside a longer name)."""
    from .lookup import mentions

    examples = [i["anchor"] for g in book["examples"] for i in g["items"]] + \
               [i["anchor"] for g in book["faq"] for i in g["items"]]
    clause_ids = [c["anchor"] for s in book["sections"] for c in s["clauses"]]
    for g in book["cards"]:
        for card in g["cards"]:
            name = card["name"]
            raw = corpus.cards.get(name) or {}
            words = [name, *(raw.get("aliases") or [])]
            longer = [n for c in corpus.cards.values() for n in (c["name"], *c["aliases"])
                      if n not in words and any(w in n for w in words)]

            def names(text, words=words, longer=longer):
                return mentions(text, words, longer) is not None

            ix.add(name, card["anchor"], names, main=True)
            for anchor in clause_ids + examples + [r["id"] for r in card["rulings"]] + [f["id"] for f in card["faq"]]:
                ix.add(name, anchor, names)


# ----------------------------------------------------------------------- book ----
def _checks(groups_lists: list[list[dict]]) -> dict:
    counts = {"pass": 0, "fail": 0, "error": 0, "skipped": 0}
    for groups in groups_lists:
        for g in groups:
            for item in g["items"]:
                for c in item.get("cases", []):
                    counts[c["status"]] += 1
    return counts


def build_book(corpus: Corpus, as_of: str | None = None) -> dict:
    """The whole book as data (see the module docstring). as_of: YYYY-MM-DD or None (latest)."""
    date = as_of or corpus.latest_date()
    sections = rules_sections(corpus, date)
    rulings = timeline(corpus, date)
    faq = faq_groups(corpus, date, as_of)
    examples = example_groups(corpus, date, as_of)
    cards = card_groups(corpus, date)
    terms = glossary(corpus)
    later = [r for r in corpus.rulings.values() if r["date"] > date]
    counts = {"clauses": len(corpus.clauses), "interpretations": len(corpus.interpretations),
              "rulings": len(rulings), "rulings_later": len(later), "faq": len(corpus.faq),
              "reasoned": sum(1 for e in corpus.examples.values() if e["type"] == "reasoned"),
              "examples": sum(1 for e in corpus.examples.values() if e["type"] != "reasoned"),
              "cards": len(corpus.cards), "terms": len(corpus.terms), "sources": len(corpus.sources)}
    book = {
        "kind": "book", "as_of": date, "as_of_given": as_of is not None, "past": date < corpus.latest_date(),
        "cover": {"version": data_version(corpus), "counts": counts, "checks": _checks([faq, examples]),
                  "sources": [_source_view(corpus, s) for s in corpus.sources]},
        "sections": sections, "rulings": rulings, "faq": faq, "examples": examples, "cards": cards,
        "glossary": terms, "glossary_groups": glossary_groups(terms), "rules_version": corpus.rules_version,
    }
    book["toc"] = toc(book)
    book["anchors"] = anchors(book)
    book["index"] = index_groups(corpus, book)
    _index_anchors(book)
    _finish(corpus, book, [faq, examples], rulings)
    return book


def _finish(corpus: Corpus, page: dict, groups_lists: list[list[dict]], rulings: list[dict]) -> None:
    """Number the cases (`dom`: a prefix that keeps the SVG ids of each picture apart on one page)
    and collect `refs`: every clause, interpretation and ruling a computed result cites → its title."""
    from . import runner

    results: list = []
    n = 0
    for groups in groups_lists:
        for g in groups:
            for item in g["items"]:
                for c in item.get("cases", []):
                    n += 1
                    c["dom"] = f"k{n}-"
                    if c["result"] is not None:
                        results.append(c["result"])
    for r in rulings:
        for ch in r["changed"]:
            results += [ch["before"]["verdict"], ch["after"]["verdict"]]
    page["refs"] = runner.refs(corpus, *results)


def toc(book: dict) -> list[dict]:
    """Parts and their sections: [{part, anchor, entries: [{anchor, title|date…}]}]. Data titles only:
    the template words the parts."""
    out = [{"part": "rules", "anchor": part_anchor("rules"),
            "entries": [{"anchor": s["anchor"], "title": s["title"], "number": s["number"]} for s in book["sections"]]},
           {"part": "rulings", "anchor": part_anchor("rulings"),
            "entries": [{"anchor": r["anchor"], "title": r["title"], "date": r["date"], "label": r["label"]}
                        for r in book["rulings"]]}]
    for part in ("faq", "examples"):
        out.append({"part": part, "anchor": part_anchor(part),
                    "entries": [{"anchor": g["anchor"], "title": g["source"]["title"]} for g in book[part]]})
    out.append({"part": "cards", "anchor": part_anchor("cards"),
                "entries": [{"anchor": g["anchor"], "faction": g["faction"], "title": g["faction_name"]}
                            for g in book["cards"]]})
    out.append({"part": "glossary", "anchor": part_anchor("glossary"), "entries": []})
    out.append({"part": "index", "anchor": part_anchor("index"), "entries": []})
    return out


def anchors(book: dict) -> dict[str, str]:
    """Every anchor of the book → its kind."""
    out: dict[str, str] = {"cover": "part", part_anchor("toc"): "part"}
    for t in book.get("toc", []):
        out[t["anchor"]] = "part"
    for s in book.get("sections", []):
        out[s["anchor"]] = "section"
        for c in s["clauses"]:
            out[c["anchor"]] = "clause"
            for i in c["interpretations"]:
                out[i["anchor"]] = "interpretation"
    for r in book.get("rulings", []):
        out[r["anchor"]] = "ruling"
    for part, kind in (("faq", None), ("examples", None)):
        for g in book.get(part, []):
            out[g["anchor"]] = "group"
            for i in g["items"]:
                out[i["anchor"]] = kind or i["kind"]
                if i["kind"] != "faq":  # its parts, where the index finds a word (example_parts)
                    for key, _ in example_parts(i):
                        if key is not None:
                            out[f"{i['anchor']}.{key}"] = "item-part"
    for g in book.get("cards", []):
        out[g["anchor"]] = "group"
        for c in g["cards"]:
            out[c["anchor"]] = "card"
    for g in book.get("glossary_groups", []):
        out[g["anchor"]] = "group"
    for t in book.get("glossary", []):
        out[t["anchor"]] = "term"
    return out


def _index_anchors(book: dict) -> None:
    """The index's own anchors (its letters, and the entries a "see" points at) into book["anchors"]."""
    for g in book["index"]:
        book["anchors"][g["anchor"]] = "group"
        for e in g["entries"]:
            if e["anchor"]:
                book["anchors"][e["anchor"]] = "index"


def build_faq(corpus: Corpus, as_of: str | None = None, only: str | None = None) -> dict:
    """The FAQ part alone, as a page of its own (`flamer faq --format html|md|pdf`): the FAQ groups,
    and the clauses they cite (as in force on as_of) so that every citation resolves on the page."""
    date = as_of or corpus.latest_date()
    groups = faq_groups(corpus, date, as_of, only)
    cited: list[str] = []
    for g in groups:
        for item in g["items"]:
            for c in item["clauses"]:
                if c["id"] not in cited:
                    cited.append(c["id"])
    order = {cid: n for n, cid in enumerate(corpus.clauses)}
    clauses = [_clause_view(corpus, cid, date) for cid in sorted(cited, key=order.__getitem__)]
    page = {"kind": "faq", "as_of": date, "as_of_given": as_of is not None, "past": date < corpus.latest_date(),
            "cover": {"version": data_version(corpus), "checks": _checks([groups])},
            "faq": groups, "clauses": clauses}
    a: dict[str, str] = {part_anchor("faq"): "part", part_anchor("clauses"): "part"}
    for g in groups:
        a[g["anchor"]] = "group"
        for i in g["items"]:
            a[i["anchor"]] = i["kind"]
    for c in clauses:
        a[c["anchor"]] = "clause"
    page["anchors"] = a
    _finish(corpus, page, [groups], [])
    return page


def render_html(page: dict) -> str:
    """The book (build_book) or the FAQ page (build_faq) as one self-contained HTML document."""
    from .render import render

    name = "book/book.html.j2" if page["kind"] == "book" else "book/faq.html.j2"
    return render(name, book=page, refs=page["refs"], A=page["anchors"], as_of=page["as_of"])


def render_md(page: dict) -> str:
    """The FAQ page (build_faq) in Markdown."""
    from .render import render

    return render("book/faq.md.j2", book=page, refs=page["refs"], A=page["anchors"], as_of=page["as_of"])


def summary(book: dict) -> dict:
    """What `flamer book --json` prints: the as-of date, the version, the counts, the checks of the
    examples, the rulings with the cases each changes, and the anchors — not the pictures' data."""
    cases = []
    for part in ("faq", "examples"):
        for g in book[part]:
            for item in g["items"]:
                for c in item["cases"]:
                    cases.append({"id": c["case"], "in": item["anchor"], "kind": c["kind"], "status": c["status"],
                                  "as_of": c["as_of"]})
    return {"kind": "book", "as_of": book["as_of"], "version": book["cover"]["version"],
            "counts": book["cover"]["counts"], "checks": book["cover"]["checks"],
            "rulings": [{"id": r["id"], "date": r["date"], "changed": [c["case"] for c in r["changed"]]}
                        for r in book["rulings"]],
            "cases": cases, "anchors": len(book["anchors"])}
