"""The library behind the lookup commands: each function returns the JSON-able
answer the CLI prints (and renders for people). No printing here."""

from __future__ import annotations

import re

from .corpus import EXAMPLE_TYPES, FACTIONS, RULING_STATUS, Corpus
from .errors import Ambiguous, BadInput, NotFound
from .handles import by_number as _by_number, day_rulings, example_number, faq_number, ruling_ref
from .korean import josa, quoted
from .names import norm_name, resolve_name


def _quoted(value: str, pair: str) -> str:
    """'value' with the particle its last sound takes ('정착'이, 'combat.x'가); a long value is shown
    as its first korean.ECHO_MAX characters and '…' (an error never repeats a whole long input)."""
    return quoted(value, pair)


def check_date(value: str | None, what: str = "--as-of") -> str | None:
    if value is None:
        return None
    from .dates import is_date

    if not is_date(value):
        raise BadInput(f"{what} 날짜를 읽을 수 없습니다: {value}. 2026-09-24 처럼 연-월-일로 적으세요.")
    return value


# ----------------------------------------------------------------- rulings ----
def ruling_view(r: dict, corpus: Corpus | None = None) -> dict:
    """A ruling as the lookups give it; with the corpus, its withdrawals: `withdraws` (the ids it withdraws)
    and `withdrawn_by` ({id, date} of the ruling that withdraws it, in the data's history, or None), and
    `ref`: what opens it with `flamer rule` (9/24, or 9/24-2 when the day has several rulings;
    handles.ruling_ref)."""
    from .inforce import withdrawal

    out = {
        "id": r["id"], "date": r["date"], "status": r["status"], "status_ko": RULING_STATUS[r["status"]],
        "label": r["label"], "title": r["title"], "summary": r["summary"], "clauses": list(r["clauses"]),
        "supersedes": r.get("supersedes"), "earlier_rule": r.get("earlier_rule"), "source": list(r["source"]),
        "withdraws": list(r.get("withdraws") or ()),
        "withdrawn_by": withdrawal(corpus.rulings, r["id"]) if corpus is not None else None,
    }
    if corpus is not None:
        out["ref"] = ruling_ref(corpus, r["id"])
    return out


def rulings(corpus: Corpus, since: str | None = None, until: str | None = None) -> dict:
    """The rulings dated between since and until, oldest first — withdrawn ones too, each with its
    withdrawal (`withdrawn_by`: the ruling that withdraws it and its date, whenever that is)."""
    since, until = check_date(since, "--since"), check_date(until, "--until")
    out = [ruling_view(r, corpus) for r in corpus.rulings.values()
           if (since is None or r["date"] >= since) and (until is None or r["date"] <= until)]
    return {"since": since, "until": until, "rulings": out}


# ------------------------------------------------------------------ clauses ----
def _id_candidates(corpus: Corpus, query: str, table: dict, title_key: str, n: int = 5) -> list[tuple[str, str]]:
    from rapidfuzz import fuzz, process

    keys = list(table)
    choices = [f"{k} {table[k][title_key]}" for k in keys]
    hits = process.extract(query, choices, scorer=fuzz.WRatio, limit=n)
    return [(keys[i], _numbered(table[keys[i]], title_key)) for _, _, i in hits]


def _titled_candidates(query: str, table: dict, title_key: str, n: int = 5, floor: float = 50.0) -> list[str]:
    """The ids of `table` whose title (`title_key`) reads most like `query`, best first (none below `floor`):
    candidates found by their words, not by their ids."""
    from rapidfuzz import fuzz, process

    keys = list(table)
    hits = process.extract(query, [table[k][title_key] for k in keys], scorer=fuzz.WRatio, limit=n,
                           score_cutoff=floor)
    return [keys[i] for _, _, i in hits]


def _numbered(rec: dict, title_key: str = "title") -> str:
    """A clause's title after its number (6.26 7단계 정리 — …), as a candidate list shows it."""
    return f"{rec['number']} {rec[title_key]}" if rec.get("number") else rec[title_key]


def clause_ref(corpus: Corpus, cid: str) -> dict:
    """A cited clause as the lookups give it: id, its number and title."""
    c = corpus.clauses[cid]
    return {"id": cid, "title": c["title"], "number": c.get("number")}


def cite_ref(corpus: Corpus, i: str) -> dict:
    """What a template cites for a clause, interpretation or ruling id (the `clause_label` filter reads it):
    kind, title, and the number (a clause, an interpretation) or the date and label (a ruling)."""
    if i in corpus.clauses:
        return {"kind": "clause", "title": corpus.clauses[i]["title"], "number": corpus.clauses[i].get("number")}
    if i in corpus.interpretations:
        it = corpus.interpretations[i]
        return {"kind": "interpretation", "title": it["title"], "number": it.get("number")}
    if i in corpus.rulings:
        r = corpus.rulings[i]
        return {"kind": "ruling", "title": r["title"], "date": r["date"], "label": r["label"]}
    return {"kind": "unknown", "title": i}


def cite_refs(corpus: Corpus) -> dict[str, dict]:
    """cite_ref for every clause, interpretation and ruling (the lookup pages may cite any)."""
    return {i: cite_ref(corpus, i) for table in (corpus.clauses, corpus.interpretations, corpus.rulings) for i in table}


def _number_candidates(corpus: Corpus, typed: str, n: int = 5) -> list[tuple[str, str]]:
    """The clauses nearest a rule number that does not exist: those of its chapter, nearest first."""
    t = "".join(typed.split()).removeprefix("해석").rstrip(".").split("-")[0]
    try:
        want = [int(p) for p in t.split(".")]
    except ValueError:
        return []

    def distance(c):
        k = [int(x) for x in c["number"].split(".")]
        return (abs(k[1] - want[1]) if len(want) > 1 else 0, abs(len(k) - len(want)), k)

    same = sorted((c for c in corpus.clauses.values() if c.get("number", "").split(".")[0] == str(want[0])),
                  key=distance)
    return [(c["id"], _numbered(c)) for c in same[:n]]


def _ruling_line(corpus: Corpus, r: dict) -> str:
    """A ruling in a candidate list: what opens it, then its label and title (9/24-2  확정 — …)."""
    return f"{ruling_ref(corpus, r['id'])}  {r['label']} — {r['title']}"


def _day_and_number(corpus: Corpus, q: str) -> tuple[str, int | None] | None:
    """A ruling's day as typed (2026-09-24, 9/24, 9월 24일), with the number of one of that day's rulings
    after a hyphen (9/24-2); None when `q` names no day."""
    from .dates import parse_date

    year = lambda: int(corpus.latest_date()[:4])  # noqa: E731 - called only for a date without its year
    day = parse_date(q, year)
    if day is not None:
        return day, None
    head, dash, tail = q.rpartition("-")
    if dash and tail.strip().isdigit():
        day = parse_date(head.strip(), year)
        if day is not None:
            return day, int(tail)
    return None


def resolve_rule(corpus: Corpus, query: str) -> str:
    """The id `flamer rule` shows for what was typed: an id, a rule number (6.26, 1.10.1, 해석 6.14-1) or
    a ruling's date (2026-09-24, when one ruling has that date). Raises NotFound / Ambiguous. What a Korean
    IME types in full-width mode, and other scripts' digits, read as ASCII (digits.fold: ６.２６ is 6.26)."""
    from .digits import fold
    from .numbering import find_number, looks_like_number

    q = fold(query).strip()
    if q in corpus.clauses or q in corpus.interpretations or q in corpus.rulings:
        return q
    if looks_like_number(q):
        hit = find_number(corpus, q)
        if hit is None:
            what = "해석" if "-" in q or q.lstrip().startswith("해석") else "조항"
            near = _number_candidates(corpus, q)
            raise NotFound(f"{what} 번호 {_quoted(' '.join(q.split()), '이/가')} 없습니다.", near,
                           [title for _, title in near])
        return hit
    got = _day_and_number(corpus, q)  # 2026-09-24, 9/24, 9월 24일; 9/24-2
    if got is not None:
        day, n = got
        on_day = day_rulings(corpus, day)
        every = list(corpus.rulings.values())
        if not on_day:
            raise NotFound(f"{day}의 판정이 없습니다.", [(r["id"], f"{r['date']} {r['label']} — {r['title']}") for r in every],
                           [_ruling_line(corpus, r) for r in every])
        if n is not None:
            if 1 <= n <= len(on_day):
                return on_day[n - 1]["id"]
            raise NotFound(f"{day}의 판정은 {len(on_day)}건이라 {n}번이 없습니다.",
                           [(r["id"], f"{r['label']} — {r['title']}") for r in on_day],
                           [_ruling_line(corpus, r) for r in on_day])
        if len(on_day) == 1:
            return on_day[0]["id"]
        raise Ambiguous(f"{day}의 판정이 {len(on_day)}건입니다. 번호를 붙여 고르세요 "
                        f"(예: flamer rule {ruling_ref(corpus, on_day[-1]['id'])}).",
                        [(r["id"], f"{r['label']} — {r['title']}") for r in on_day],
                        [_ruling_line(corpus, r) for r in on_day])
    near = _id_candidates(corpus, q, corpus.clauses, "title")
    raise NotFound(f"조항 {_quoted(q, '이/가')} 없습니다.", near, [title for _, title in near])


def _not_blank(value, what: str) -> None:
    if isinstance(value, str) and not value.strip():
        raise BadInput(f"{what} id가 비어 있습니다.")


def rule(corpus: Corpus, rule_id: str, as_of: str | None = None) -> dict:
    """A clause, an interpretation (with its clause) or a ruling, by id, rule number or ruling date."""
    _not_blank(rule_id, "조항")
    as_of = check_date(as_of) or corpus.latest_date()
    rule_id = resolve_rule(corpus, rule_id)
    if rule_id in corpus.interpretations:
        it = corpus.interpretations[rule_id]
        parent = rule(corpus, it["clause"], as_of)
        return {**parent, "interpretation": {"id": it["id"], "number": it.get("number"), "title": it["title"],
                                             "text": it["text"], "basis": it["basis"], "label": "해석 (공식 판정 아님)"}}
    from .inforce import InForce

    on = InForce(corpus.rulings, as_of)
    if rule_id in corpus.rulings:
        r = corpus.rulings[rule_id]
        return {**ruling_view(r, corpus), "kind": "ruling", "text": r["summary"], "as_of": as_of,
                "in_force": on(rule_id), "source_titles": corpus.source_title(r["source"]),
                "clause_titles": [clause_ref(corpus, c) for c in r["clauses"]]}
    c = corpus.clauses[rule_id]
    touching = corpus.rulings_for(rule_id)
    in_force = [r for r in touching if on(r["id"])]
    later = [r for r in touching if r["date"] > as_of]
    withdrawn = [r for r in touching if r["date"] <= as_of and not on(r["id"])]
    text, text_status = c["text"], "current"
    earlier_by_ruling = {e["ruling"]: e["text"] for e in c["earlier"]}
    note = None
    # the clause's text as on as_of: before the oldest ruling that is not in force that day (a later one,
    # or one withdrawn by then — the rule is then as it was without it)
    not_now = sorted(later + withdrawn, key=lambda r: (r["date"], r["id"]))
    if not_now:
        first = not_now[0]
        gone = on.withdrawn_by(first["id"]) if first in withdrawn else None
        if gone is not None and first["id"] in earlier_by_ruling:
            w = corpus.rulings[gone]
            text, text_status = earlier_by_ruling[first["id"]], "earlier"
            note = (f"{as_of} 기준 문안입니다. {first['date']} {first['label']} 판정({first['title']})은 "
                    f"{w['date']} {w['label']} 판정({w['title']})으로 철회되었습니다.")
        elif gone is not None:
            w = corpus.rulings[gone]
            text_status = "earlier-unknown"
            note = (f"{first['date']} {first['label']} 판정({first['title']})은 {w['date']}에 철회되었는데, 그 판정 "
                    "이전의 문안은 룰북에 없습니다(미상). 아래는 현재 문안입니다.")
        elif first["id"] in earlier_by_ruling:
            text, text_status = earlier_by_ruling[first["id"]], "earlier"
            note = f"{as_of} 기준 문안입니다. {first['date']} {first['label']} 판정으로 바뀌었습니다({first['title']})."
        else:
            text_status = "earlier-unknown"
            note = (f"{first['date']} {first['label']}({first['title']}) 이전의 문안은 룰북에 없습니다(미상). "
                    "아래는 현재 문안입니다.")
    section = corpus.sections[c["section"]]
    return {
        "kind": "clause", "id": c["id"], "number": c.get("number"), "title": c["title"], "text": text,
        "text_status": text_status, "as_of": as_of,
        "note": note, "section": c["section"], "section_title": section["title"],
        "source": corpus.source_title(c["source"]), "source_ids": list(c["source"]),
        "rulings": [ruling_view(r, corpus) for r in in_force],
        "later_rulings": [ruling_view(r, corpus) for r in later],
        "withdrawn_rulings": [ruling_view(r, corpus) for r in withdrawn],
        "see_also": [clause_ref(corpus, s) for s in c["see_also"]],
        "interpretations": [{"id": i, "number": corpus.interpretations[i].get("number"),
                             "title": corpus.interpretations[i]["title"],
                             "text": corpus.interpretations[i]["text"],
                             "basis": corpus.interpretations[i]["basis"]} for i in c["interpretations"]],
        "faq": [f["id"] for f in corpus.faq.values() if rule_id in f["clauses"]],
        "examples": [e["id"] for e in corpus.examples.values() if rule_id in e["clauses"]],
        "keywords": list(c["keywords"]),
    }


# -------------------------------------------------------------------- cards ----
def card_view(corpus: Corpus, card: dict) -> dict:
    return {
        "name": card["name"], "aliases": list(card["aliases"]), "type": card["type"],
        "faction": card["faction"], "faction_name": FACTIONS.get(card["faction"]) if card["faction"] else None,
        "grade": card["grade"], "lv": card["lv"], "hp": card["hp"], "atk": card["atk"], "cost": card["cost"],
        "structure": card["structure"], "timing": card.get("timing"),
        "abilities": [{"name": a["name"], "timing": a["timing"], "kind": a["kind"], "text": a["text"],
                       "source": a["source"], "effect": a.get("effect")} for a in card["abilities"]],
        "stat_sources": card.get("stat_sources") or {}, "notes": card.get("notes"),
        "sources": [{"id": s, "title": corpus.sources[s]["title"]} for s in card["sources"]],
    }


def card(corpus: Corpus, name: str) -> dict:
    names = {c["name"]: c["name"] for c in corpus.cards.values()}
    for c in corpus.cards.values():
        for a in c["aliases"]:
            names[a] = c["name"]
    try:
        key, corrected = resolve_name(name, names, "카드")
    except NotFound as exc:
        if exc.candidates:
            raise
        raise NotFound(f"{exc.message} 카드 목록: flamer cards") from None
    view = card_view(corpus, corpus.cards[key])
    view["query"] = name
    view["corrected"] = corrected
    view.update(card_mentions(corpus, corpus.cards[key]))
    return view


def _is_word_char(ch: str) -> bool:
    return ch.isalnum() or "\uac00" <= ch <= "\ud7a3" or "\u3131" <= ch <= "\u318e"


def mentions(text: str, words: list[str], longer: list[str]) -> str | None:
    """The first of `words` that `text` mentions as a word of its own: not the end
    of a longer word (개미 in 벌크업개미), nor part of a longer name (`longer`:
    개미 in 벌크업 개미). Particles after it are fine (폭약은, 개미를)."""
    for w in words:
        start = 0
        while True:
            i = text.find(w, start)
            if i < 0:
                break
            start = i + 1
            if i > 0 and _is_word_char(text[i - 1]):
                continue
            if any(_inside(text, n, i) for n in longer if w in n):
                continue
            return w
    return None


def _inside(text: str, name: str, i: int) -> bool:
    """Is position i inside an occurrence of `name` in text?"""
    j = text.find(name, max(0, i - len(name) + 1))
    while 0 <= j <= i:
        if i < j + len(name):
            return True
        j = text.find(name, j + 1)
    return False


def card_mentions(corpus: Corpus, card: dict) -> dict:
    """The rulings and FAQ entries that concern a card (as Scryfall lists rulings):
    those whose own text names the card or one of its abilities, then those that
    touch a clause whose text names it. Computed from the data, each with why."""
    words = [card["name"], *card["aliases"]]
    words += [a["name"] for a in card["abilities"] if a["name"] not in words]
    words.sort(key=len, reverse=True)
    longer: list[str] = []
    for c in corpus.cards.values():
        for n in (c["name"], *c["aliases"], *(a["name"] for a in c["abilities"])):
            if n not in words and any(w in n for w in words) and n not in longer:
                longer.append(n)

    def via_clause(clause_ids):
        for cid in clause_ids:
            cl = corpus.clauses.get(cid)
            if cl is not None:
                w = mentions(cl["text"], words, longer)
                if w:
                    return cid, w
        return None, None

    rulings_out, faq_out = [], []
    for r in corpus.rulings.values():
        w = mentions(f"{r['title']} {r['summary']}", words, longer)
        cid = None
        if w is None:
            cid, w = via_clause(r["clauses"])
        if w is not None:
            rulings_out.append({"id": r["id"], "ref": ruling_ref(corpus, r["id"]), "date": r["date"], "status": r["status"],
                                "status_ko": RULING_STATUS[r["status"]], "label": r["label"], "title": r["title"],
                                "summary": r["summary"], "mentions": w, "via_clause": cid})
    for f in corpus.faq.values():
        # FAQ entries only where they name the card: a clause's worked example names many cards in passing
        w = mentions(" ".join([f["question"], f["answer"], *f.get("keywords", [])]), words, longer)
        cid = None
        if w is not None:
            faq_out.append({"id": f["id"], "number": faq_number(corpus, f["id"]), "question": f["question"],
                            "answer": f["answer"], "mentions": w,
                            "via_clause": cid})
    # the ones that name the card themselves first
    rulings_out.sort(key=lambda r: r["via_clause"] is not None)
    faq_out.sort(key=lambda f: f["via_clause"] is not None)
    return {"rulings": rulings_out, "faq": faq_out}


class BadFilter(BadInput):
    """A filter value `cards` does not know; `option` is the command-line option it came from (the CLI
    makes it a usage error, exit 2)."""

    def __init__(self, message: str, option: str):
        super().__init__(message)
        self.option = option


_UNSET = object()

#: the Korean names of the card types `cards --type` takes (spaces ignored: 기물 카드 = 기물카드)
CARD_TYPE_WORDS = {"기물카드": "piece", "기물": "piece", "특수카드": "special", "특수": "special"}


def card_filters(faction: str | None = None, grade: str | None = None, timing: str | None = None,
                 type_: str | None = None) -> tuple:
    """The `cards` filters checked and normalised: (faction, grade, timing, type); an unset faction is
    `_UNSET`, 미상 is None. Raises BadFilter naming the option of a value it does not know."""
    fac_filter = _UNSET
    if faction is not None:
        if faction in ("미상", "null", "none"):
            fac_filter = None
        else:
            fac_filter = {v: k for k, v in FACTIONS.items()}.get(faction, faction.upper())
            if fac_filter not in FACTIONS:
                raise BadFilter(f"진영 {_quoted(faction, '을/를')} 모릅니다. DGM(대광명연방), BGM(밤결무리) 또는 미상 중에서 고르세요.",
                                "--faction")
    if grade is not None and grade not in ("초급", "중급", "고급", "미상"):
        raise BadFilter(f"등급 {_quoted(grade, '을/를')} 모릅니다. 초급, 중급, 고급, 미상 중에서 고르세요.", "--grade")
    if timing is not None:
        timing = timing.strip("()")
        timing = "등장" if timing == "등장효과" else timing
        if timing not in ("전투", "대응", "이동", "등장"):
            raise BadFilter(f"타이밍 {_quoted(timing, '을/를')} 모릅니다. 전투, 대응, 이동, 등장 중에서 고르세요.", "--timing")
    if type_ is not None:
        given = type_
        type_ = CARD_TYPE_WORDS.get("".join(type_.split()), type_.strip().lower())
        if type_ not in ("piece", "special"):
            raise BadFilter(f"카드 종류 {_quoted(given, '을/를')} 모릅니다. 기물카드(piece) 또는 특수카드(special) 중에서 고르세요.",
                            "--type")
    return fac_filter, grade, timing, type_


def cards(corpus: Corpus, faction: str | None = None, grade: str | None = None, timing: str | None = None,
          structure: bool | None = None, type_: str | None = None) -> dict:
    unset = _UNSET
    fac_filter, grade, timing, type_ = card_filters(faction, grade, timing, type_)
    out = []
    for c in corpus.cards.values():
        if fac_filter is not unset and c["faction"] != fac_filter:
            continue
        if grade is not None and (c["grade"] or "미상") != grade:
            continue
        if timing is not None and c.get("timing") != timing and not any(a["timing"] == timing for a in c["abilities"]):
            continue
        if structure is not None and c["structure"] != structure:
            continue
        if type_ is not None and c["type"] != type_:
            continue
        out.append(card_view(corpus, c))
    return {"filters": {"faction": None if fac_filter is unset else fac_filter, "grade": grade, "timing": timing, "structure": structure,
                        "type": type_}, "cards": out}


# ------------------------------------------------------------ terms / faq ----
def term(corpus: Corpus, word: str) -> dict:
    names = {}
    for t in corpus.terms.values():
        names[t["term"]] = t["id"]
        names[t["id"]] = t["id"]
        for a in t["aliases"]:
            names.setdefault(a, t["id"])
    everyday: dict[str, list[str]] = {}  # term id -> everyday words (rules/synonyms.yaml) that stand for it
    for syn in getattr(corpus, "synonyms", {}).values():
        for target in syn["terms"]:
            if target in names:
                if syn["word"] not in everyday.setdefault(names[target], []):
                    everyday[names[target]].append(syn["word"])
                names.setdefault(syn["word"], names[target])  # flamer term 돈 → 도르
    try:
        key, corrected = resolve_name(word, names, "용어")
    except (NotFound, Ambiguous) as exc:  # candidates as the words people type, not ids
        cands = [(corpus.terms[k]["term"], k) if k in corpus.terms else (k, "") for k, _ in exc.candidates]
        head = str(exc.message).split("\n")[0]
        if not cands:
            head += " 용어 목록: flamer term"
        raise type(exc)(head, cands, [c for c, _ in cands]) from None
    t = corpus.terms[key]
    return {"id": t["id"], "term": t["term"], "aliases": t["aliases"], "definition": t["definition"],
            "clauses": [clause_ref(corpus, c) for c in t["clauses"]],
            "source": corpus.source_title(t["source"]), "query": word, "corrected": corrected,
            "everyday": _everyday_shown(everyday.get(t["id"], []))}


def _everyday_shown(words: list[str]) -> list[str]:
    """The everyday words a player says for a term, as a list to read: not a question (몇 곳 asks, it names
    nothing) and not a verb glued to a word (땅지키다, kept in the thesaurus for '땅 지켜' typed as one
    phrase, is 지키다 again)."""
    asking = ("몇", "뭐", "무엇", "어디", "언제", "누가", "누구", "왜", "어떻게")
    verbs = [w for w in words if w.endswith("다")]
    return [w for w in words if not any(part in asking for part in w.split())
            and not (w.endswith("다") and " " not in w and any(v != w and w.endswith(v) for v in verbs))]


def terms(corpus: Corpus) -> dict:
    return {"terms": [{"id": t["id"], "term": t["term"], "aliases": t["aliases"], "definition": t["definition"]}
                      for t in corpus.terms.values()]}


def faq(corpus: Corpus, faq_id: str | None = None) -> dict:
    """Every FAQ item, or the one a person asks for: by its number (3), a word of its question (주사위) or
    its id. Each item carries its `number` (handles.faq_number); `found_by` says how one was found."""
    def view(f):
        return {"id": f["id"], "number": faq_number(corpus, f["id"]), "question": f["question"], "answer": f["answer"],
                "clauses": [clause_ref(corpus, c) for c in f["clauses"]],
                "source": corpus.source_title(f["source"])}

    if faq_id is None:
        return {"faq": [view(f) for f in corpus.faq.values()]}
    _not_blank(faq_id, "FAQ")
    fid, how = resolve_faq(corpus, faq_id)
    return {"faq": [view(corpus.faq[fid])], "query": faq_id, "found_by": how}


def _numbered_query(q: str) -> int | None:
    """A number as typed for an entry: 3, 3번, #3 (None when it is not one)."""
    t = "".join(q.split()).removeprefix("#").removesuffix("번")
    return int(t) if t.isascii() and t.isdigit() else None


def _norm_words(text: str) -> str:
    return "".join(text.split()).lower()


def _word_in(word: str, hay: str) -> bool:
    """Is the typed word (or the word without its particle: 주사위는 → 주사위) in the squashed text?"""
    from .korean import strip_particle

    w = word.lower()
    bare = strip_particle(w)
    return w in hay or (bare is not None and len(bare) >= 2 and bare in hay)


def _faq_line(corpus: Corpus, fid: str) -> str:
    return f"{faq_number(corpus, fid)}. {corpus.faq[fid]['question']}"


def resolve_faq(corpus: Corpus, query: str) -> tuple[str, str]:
    """(the FAQ item's id, how it was found: number | id | word) for a number (3, 3번), an id, or words that
    its question (or keywords) holds (주사위). Several items with the words, or none, are an error listing
    the nearest by number and question."""
    q = query.strip()
    n = _numbered_query(q)
    count = len(corpus.faq)
    if n is not None:
        fid = _by_number(corpus, "faq", n)
        if fid is None:
            raise NotFound(f"FAQ {n}번이 없습니다. 1번부터 {count}번까지 있습니다 (목록: flamer faq).")
        return fid, "number"
    if q in corpus.faq:
        return q, "id"
    words = q.split()
    hits = [fid for fid, f in corpus.faq.items()
            if all(_word_in(w, _norm_words(f["question"] + " ".join(f.get("keywords") or ()))) for w in words)]
    if len(hits) > 1:  # the ones whose question itself holds the words come first
        asked = [fid for fid in hits if all(_word_in(w, _norm_words(corpus.faq[fid]["question"])) for w in words)]
        hits = asked if len(asked) == 1 else hits
    if len(hits) == 1:
        return hits[0], "word"
    if hits:
        raise Ambiguous(f"{_quoted(q, '이/가')} 들어간 질문이 {len(hits)}개입니다. 번호로 고르세요 "
                        f"(예: flamer faq {faq_number(corpus, hits[0])}).",
                        [(fid, corpus.faq[fid]["question"]) for fid in hits], [_faq_line(corpus, fid) for fid in hits])
    near = _titled_candidates(q, corpus.faq, "question")
    raise NotFound(f"{_quoted(q, '이/가')} 들어간 FAQ 질문이 없습니다." + ("" if near else " 목록: flamer faq"),
                   [(fid, corpus.faq[fid]["question"]) for fid in near], [_faq_line(corpus, fid) for fid in near])


def _example_line(corpus: Corpus, eid: str) -> str:
    return f"{example_number(corpus, eid)}. {corpus.examples[eid]['title']}"


def resolve_example(corpus: Corpus, query: str) -> str:
    """The example's id for its number (3, 3번), its title or the start of it (장면5, 장면 5, 증폭기 결속), or
    its id; an FAQ item (FAQ4, or its id) is given back as its id (its scenario is exported like an example's). Several
    titles that fit, or none, are an error listing the nearest by number and title."""
    q = query.strip()
    if q in corpus.examples or q in corpus.faq:
        return q
    m = re.fullmatch(r"(?i)faq\s*(\d+)", q)  # FAQ4: an FAQ item's scenario, as `flamer examples` lists it
    if m:
        fid = _by_number(corpus, "faq", int(m.group(1)))
        if fid is None:
            raise NotFound(f"FAQ {m.group(1)}번이 없습니다. 1번부터 {len(corpus.faq)}번까지 있습니다 (목록: flamer faq).")
        return fid
    n = _numbered_query(q)
    if n is not None:
        eid = _by_number(corpus, "examples", n)
        if eid is None:
            raise NotFound(f"예시 {n}번이 없습니다. 1번부터 {len(corpus.examples)}번까지 있습니다 (목록: flamer example).")
        return eid
    nq = _norm_words(q)
    heads = [eid for eid, e in corpus.examples.items() if _norm_words(e["title"].split(" — ")[0]) == nq]
    if len(heads) == 1:
        return heads[0]
    hits = heads or [eid for eid, e in corpus.examples.items() if nq and nq in _norm_words(e["title"])]
    if not hits and len(q.split()) > 1:  # every word somewhere in the title
        hits = [eid for eid, e in corpus.examples.items() if all(_word_in(w, _norm_words(e["title"])) for w in q.split())]
    if len(hits) == 1:
        return hits[0]
    if hits:
        raise Ambiguous(f"{_quoted(q, '이/가')} 들어간 예시가 {len(hits)}개입니다. 번호로 고르세요 "
                        f"(예: flamer example {example_number(corpus, hits[0])}).",
                        [(eid, corpus.examples[eid]["title"]) for eid in hits], [_example_line(corpus, e) for e in hits])
    near = _titled_candidates(q, corpus.examples, "title")
    raise NotFound(f"예시 {_quoted(q, '이/가')} 없습니다." + ("" if near else " 목록: flamer example"),
                   [(eid, corpus.examples[eid]["title"]) for eid in near], [_example_line(corpus, e) for e in near])


def example(corpus: Corpus, example_id: str) -> dict:
    _not_blank(example_id, "예시")
    eid = resolve_example(corpus, example_id)
    e = corpus.examples.get(eid)
    if e is None:  # an FAQ item: it is no example
        raise NotFound(f"{_quoted(example_id, '은/는')} 예시가 아니라 FAQ 항목입니다: flamer faq {faq_number(corpus, eid)}")
    return {"id": e["id"], "number": example_number(corpus, e["id"]), "title": e["title"], "type": e["type"],
            "type_ko": EXAMPLE_TYPES[e["type"]],
            "source": corpus.source_title(e["source"]), "situation": e["situation"], "steps": e["steps"],
            "result": e["result"], "point": e.get("point"), "reason": e.get("reason"),
            "clauses": [clause_ref(corpus, c) for c in e["clauses"]],
            "rulings": e["rulings"], "executable": "scenario" in e}


def examples_list(corpus: Corpus) -> dict:
    return {"examples": [{"id": e["id"], "number": example_number(corpus, e["id"]), "title": e["title"], "type": e["type"],
                          "source": corpus.source_title(e["source"]), "executable": "scenario" in e}
                         for e in corpus.examples.values()]}


# ------------------------------------------------------------------ timing ----
_TAGS = {"대응": "대응", "전투": "전투", "이동": "이동", "등장": "등장", "등장효과": "등장", "구조물": "구조물"}


def _profile_view(corpus: Corpus, profile: dict) -> dict:
    from .corpus import TIMING_ROWS

    return {"profile": profile["id"], "title": profile["title"],
            "rows": [{"key": r["key"], "label": TIMING_ROWS[r["key"]], "value": r["value"],
                      "clauses": [clause_ref(corpus, c) for c in r["clauses"]]}
                     for r in profile["rows"]]}


def _profiles(corpus: Corpus, type_: str | None = None, timing: str | None = None, tag: str | None = None):
    out = []
    for p in corpus.timings.values():
        m = p["match"]
        if tag is not None:
            if m.get("tag") == tag:
                out.append(p)
        elif m.get("card") is None and m.get("timing") == timing and (type_ is None or m.get("type") == type_):
            out.append(p)
    return out


def _card_profile(corpus: Corpus, card_name: str | None, ability: str | None):
    """A profile written for one card's ability (match: {card, ability}) where the general profile of
    its timing would say something the page contradicts (폭약 폭발: destroyed as its cost)."""
    for p in corpus.timings.values():
        m = p["match"]
        if card_name is not None and m.get("card") == card_name and m.get("ability") in (None, ability):
            return p
    return None


def _entry(corpus: Corpus, subject: str, card_name: str | None, ability: str | None, type_: str,
           timing: str | None, text: str | None = None) -> dict:
    base = {"subject": subject, "card": card_name, "ability": ability, "timing": timing, "text": text}
    if timing is None:
        return {**base, "unknown": True, "message": "룰북에 이 능력(카드)의 타이밍 태그가 나오지 않습니다(미상).",
                "profile": None, "title": None, "rows": []}
    own = _card_profile(corpus, card_name, ability)
    if own is not None:
        return {**base, "unknown": False, "message": None, **_profile_view(corpus, own)}
    profiles = _profiles(corpus, type_, timing)
    if not profiles:
        return {**base, "unknown": True, "message": f"({timing}) {'특수카드' if type_ == 'special' else '기물 능력'}의 "
                "사용 시점은 룰북에 나오지 않습니다(미상).", "profile": None, "title": None, "rows": []}
    return {**base, "unknown": False, "message": None, **_profile_view(corpus, profiles[0])}


def _card_entries(corpus: Corpus, c: dict, only_ability: str | None = None) -> list[dict]:
    entries = []
    if c["type"] == "special":
        tag = f"({c['timing']}) " if c.get("timing") else ""
        text = " ".join(a["text"] for a in c["abilities"]) or c.get("notes")
        entries.append(_entry(corpus, f"{c['name']} — {tag}특수카드", c["name"], None, "special", c.get("timing"), text))
    for ab in c["abilities"]:
        if only_ability is not None and ab["name"] != only_ability:
            continue
        if c["type"] == "special":
            continue  # a special card's effect is timed by the card itself
        tag = f"({ab['timing']}) " if ab["timing"] else ""
        entries.append(_entry(corpus, f"{c['name']} — {tag}{ab['name']}", c["name"], ab["name"], "piece", ab["timing"],
                              ab["text"]))
    if c["structure"] and only_ability is None:
        for p in _profiles(corpus, tag="구조물"):
            entries.append({"subject": f"{c['name']} — 구조물", "card": c["name"], "ability": None, "timing": None,
                            "text": None, "unknown": False, "message": None, **_profile_view(corpus, p)})
    if not entries:
        entries.append({"subject": c["name"], "card": c["name"], "ability": None, "timing": None, "text": c.get("notes"),
                        "unknown": True,
                        "message": "룰북에 이 카드의 능력이나 타이밍이 나오지 않습니다(미상).", "profile": None,
                        "title": None, "rows": []})
    return entries


def timing(corpus: Corpus, name: str) -> dict:
    """When can NAME be used: a card, an ability of a card, or a timing tag."""
    q = name.strip().strip("()").strip()
    key = _TAGS.get(q.replace(" ", ""))
    if key == "구조물":
        entries = [{"subject": "구조물", "card": None, "ability": None, "timing": None, "text": None, "unknown": False,
                    "message": None, **_profile_view(corpus, p)} for p in _profiles(corpus, tag="구조물")]
        return {"query": name, "matched": {"kind": "tag", "name": "구조물"}, "corrected": False, "entries": entries}
    if key is not None:
        entries = []
        for type_, label in (("special", "특수카드"), ("piece", "기물 능력")):
            for p in _profiles(corpus, type_, key):
                entries.append({"subject": f"({key}) {label}", "card": None, "ability": None, "timing": key,
                                "text": None, "unknown": False, "message": None, **_profile_view(corpus, p)})
        return {"query": name, "matched": {"kind": "tag", "name": key}, "corrected": False, "entries": entries}
    names: dict[str, str] = {}
    for c in corpus.cards.values():
        names[c["name"]] = "card:" + c["name"]
        for a in c["aliases"]:
            names[a] = "card:" + c["name"]
    for c in corpus.cards.values():
        for ab in c["abilities"]:
            # a special card's effect is timed by the card itself: its ability names the card
            key = "card:" + c["name"] if c["type"] == "special" else f"ability:{c['name']}:{ab['name']}"
            names.setdefault(ab["name"], key)
            names.setdefault(f"{c['name']} {ab['name']}", key)
    term_names: dict[str, str] = {}
    for t in corpus.terms.values():
        for n in (t["term"], *t["aliases"]):
            term_names.setdefault(n, t["id"])
    exact_term = next((tid for n, tid in term_names.items() if norm_name(n) == norm_name(q)), None)
    exact_card = any(norm_name(n) == norm_name(q) for n in names)
    if exact_term is not None and not exact_card:
        return _term_timing(corpus, name, exact_term, corrected=False, strict=True)
    try:
        hit, corrected = resolve_name(q, names, "카드나 능력")
    except (Ambiguous, NotFound) as exc:
        # no one card or ability: perhaps a glossary term with a timing (맞대웅 → 맞대응), if exactly one fits
        try:
            tid, t_corrected = resolve_name(q, term_names, "용어")
            found = _term_timing(corpus, name, tid, corrected=t_corrected, strict=False)
        except (Ambiguous, NotFound):
            found = None
        if found is not None:
            return found
        if isinstance(exc, NotFound):  # nothing close: the nearest cards, abilities and terms alike, never a guess
            _refuse_timing(corpus, q, names, term_names)
        return _reraise_shown(exc)
    if hit.startswith("card:"):
        c = corpus.cards[hit[5:]]
        return {"query": name, "matched": {"kind": "card", "name": c["name"]}, "corrected": corrected,
                "entries": _card_entries(corpus, c)}
    _, card_name, ability = hit.split(":", 2)
    c = corpus.cards[card_name]
    return {"query": name, "matched": {"kind": "ability", "name": ability, "card": card_name}, "corrected": corrected,
            "entries": _card_entries(corpus, c, only_ability=ability)}


def term_timing_rows(corpus: Corpus, term: dict) -> list[dict]:
    """The timing profiles (each with only its rows) that cite a clause the
    glossary term cites: what the timing table says about the term."""
    cited = set(term["clauses"])
    out = []
    for p in corpus.timings.values():
        rows = [r for r in p["rows"] if cited & set(r["clauses"])]
        if rows:
            out.append({**p, "rows": rows})
    return out


def _term_timing(corpus: Corpus, query: str, term_id: str, *, corrected: bool, strict: bool) -> dict | None:
    """`flamer timing TERM`: the term, and the rows of the timing table that
    cite its clauses. None (or, when `strict`, an error saying so) if none do."""
    t = corpus.terms[term_id]
    profiles = term_timing_rows(corpus, t)
    if not profiles:
        if not strict:
            return None
        raise NotFound(f"'{t['term']}'{josa(t['term'], '은/는')[len(t['term']):]} 용어입니다. 타이밍 표에는 이 용어의 "
                       f"조항을 다루는 행이 없습니다. 뜻을 보려면: flamer term {t['term']}")
    entries = []
    for p in profiles:
        m = p["match"]
        entries.append({"subject": p["title"], "card": None, "ability": None, "timing": m.get("timing") or m.get("tag"),
                        "text": None, "unknown": False, "message": None, **_profile_view(corpus, p)})
    return {"query": query, "matched": {"kind": "term", "name": t["term"], "id": t["id"]}, "corrected": corrected,
            "term": {"id": t["id"], "term": t["term"], "definition": t["definition"],
                     "clauses": [clause_ref(corpus, c) for c in t["clauses"]]},
            "entries": entries}


def _refuse_timing(corpus: Corpus, q: str, names: dict[str, str], term_names: dict[str, str]):
    """`flamer timing` of a name no card, ability or term is close to: the nearest of all three (exit 1)."""
    from .names import nearest

    ranked = sorted([*nearest(q, names), *((f"term:{k}", sc) for k, sc in nearest(q, term_names))],
                    key=lambda kv: -kv[1])
    shown: list[tuple[str, str]] = []
    for k, _ in ranked:
        kind, _, rest = k.partition(":")
        item = (corpus.terms[rest]["term"], "용어") if kind == "term" else (
            rest.replace(":", " "), "능력" if kind == "ability" else "카드")
        if item not in shown:
            shown.append(item)
    head = f"{quoted(q)}에 맞는 카드·능력·타이밍 태그·용어가 없습니다."
    if not shown:
        raise NotFound(head + " 카드 목록: flamer cards · 용어 목록: flamer term")
    raise NotFound(head, shown[:5], [f"{name} ({what})" for name, what in shown[:5]])


def _reraise_shown(exc):
    """Re-raise a NotFound/Ambiguous from name resolution with candidates as
    people type them, not the internal keys."""
    shown = []
    for k, _ in exc.candidates:
        kind, _, rest = k.partition(":")
        item = (rest.replace(":", " "), "능력" if kind == "ability" else "카드")
        if item not in shown:
            shown.append(item)
    raise type(exc)(exc.message.split("\n")[0], shown, [f"{name} ({what})" for name, what in shown]) from None
