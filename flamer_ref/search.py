"""Korean-aware search over clauses, rulings, FAQ items, examples, terms and cards.

How it matches (measured choices, see README):
- every entry is cut into words; each word (and each pair of adjacent words,
  for queries typed without spaces) is stored decomposed into jamo, with a
  posting list of the entries and fields it occurs in;
- a query word is compared with the vocabulary, not with whole texts, so the
  cost grows with the vocabulary and not with the number of entries: rapidfuzz
  partial_ratio where the vocabulary word is at least as long as the query word
  (the query word found inside it: particles, compounds), ratio otherwise;
- 초성-only words are matched against a 초성 projection of the vocabulary;
  ASCII words that are not in the vocabulary are also read as Korean typed on
  a QWERTY keyboard in English mode;
- a trailing particle (은/는/이/가/을/를/의/에 …) is dropped when what remains
  is a word of the corpus.
The entry's score is the length-weighted mean over query words of the best
match in its title/keywords (weight 1.0) or body (weight 0.85).
"""

from __future__ import annotations

from bisect import bisect_left

from .korean import (choseong, is_choseong_query, is_qwerty_candidate, jamo, qwerty_to_jamo,
                     strip_particle, words)

KINDS = ("clause", "ruling", "faq", "example", "card", "term")
KIND_KO = {"clause": "조항", "ruling": "판정", "faq": "FAQ", "example": "예시", "card": "카드", "term": "용어"}
_KIND_RANK = {k: i for i, k in enumerate(("clause", "faq", "term", "card", "ruling", "example"))}
TITLE, KEYS, BODY = 0, 1, 2
_FIELD_WEIGHT = (1.0, 0.95, 0.85)
_JAMO_CUTOFF = 68.0
_CHO_CUTOFF = 85.0


# ------------------------------------------------------------- building ----
def card_text(card: dict) -> str:
    """A card as one readable Korean paragraph (the `text` of a card result)."""
    from .corpus import FACTIONS

    def val(v):
        return "미상" if v is None else str(v)

    parts = []
    kind = "특수카드" if card["type"] == "special" else ("구조물 기물 카드" if card["structure"] else "기물 카드")
    faction = FACTIONS.get(card["faction"], "진영 미상") if card["faction"] else "진영 미상"
    head = f"{kind} · {faction} · 등급 {val(card['grade'])}"
    if card["type"] == "piece":
        head += f" · Lv {val(card['lv'])} · HP {val(card['hp'])} · ATK {val(card['atk'])} · cost {val(card['cost'])}"
    elif card.get("timing"):
        head += f" · ({card['timing']})"
    parts.append(head + ".")
    for ab in card["abilities"]:
        tag = f"({ab['timing']}) " if ab["timing"] else ""
        parts.append(f"{tag}{ab['name']}: {ab['text']}")
    if card.get("notes"):
        parts.append(card["notes"])
    return " ".join(parts)


def entries_of(corpus) -> list[tuple[str, str, str, str, str, str]]:
    """(id, kind, title, text, keys, body) for every searchable entry; `keys`
    holds keywords, aliases and the id's words (the title is indexed apart)."""
    out = []
    for c in corpus.clauses.values():
        interp = " ".join(corpus.interpretations[i]["title"] + " " + corpus.interpretations[i]["text"]
                          for i in c["interpretations"])
        head = " ".join([*c["keywords"], c["id"].replace(".", " ").replace("-", " ")])
        out.append((c["id"], "clause", c["title"], c["text"], head, c["text"] + " " + interp))
    for r in corpus.rulings.values():
        title = f"{r['date']} {r['label']} — {r['title']}"
        body = " ".join(x for x in (r["summary"], r.get("supersedes") or "", r.get("earlier_rule") or "") if x)
        out.append((r["id"], "ruling", title, r["summary"], f"판정 {r['label']} {r['status']}", body))
    for f in corpus.faq.values():
        out.append((f["id"], "faq", f["question"], f["answer"], " ".join(f["keywords"]), f["answer"]))
    for e in corpus.examples.values():
        text = " ".join([e["situation"], *e["steps"], e["result"]])
        head = e.get("point") or ""
        out.append((e["id"], "example", e["title"], text, head, text + " " + (e.get("reason") or "")))
    for t in corpus.terms.values():
        out.append((t["id"], "term", t["term"], t["definition"], " ".join(t["aliases"]), t["definition"]))
    for card in corpus.cards.values():
        names = " ".join([*card["aliases"], *(a["name"] for a in card["abilities"])])
        out.append((card["name"], "card", card["name"], card_text(card), names, card_text(card)))
    return out


def _table(vocab: dict[str, list[int]]) -> dict:
    """A vocabulary as parallel lists: sorted by (length, text) for fuzzy scans,
    plus a lexicographic view for exact and prefix look-ups."""
    keys = sorted(vocab, key=lambda k: (len(k), k))
    lex = sorted(range(len(keys)), key=lambda i: keys[i])
    return {"keys": keys, "lens": [len(k) for k in keys], "post": [vocab[k] for k in keys],
            "lex_keys": [keys[i] for i in lex], "lex_idx": lex}


def build_index(corpus) -> dict:
    entries = entries_of(corpus)
    singles: dict[str, list[int]] = {}
    pairs: dict[str, list[int]] = {}
    cho_singles: dict[str, list[int]] = {}
    cho_pairs: dict[str, list[int]] = {}
    raw_words: set[str] = set()
    flat_heads = []

    def add(table, key, posting):
        lst = table.setdefault(key, [])
        if not lst or lst[-1] != posting:
            lst.append(posting)

    for idx, (_id, _kind, title, _text, head, body) in enumerate(entries):
        for fld, text in ((TITLE, title), (KEYS, head), (BODY, body)):
            ws = words(text)
            raw_words.update(ws)
            posting = idx * 4 + fld
            for w in ws:
                add(singles, jamo(w), posting)
                c = choseong(w)
                if len(c) >= 2:
                    add(cho_singles, c, posting)
            for a, b in zip(ws, ws[1:]):
                add(pairs, jamo(a + b), posting)
                c = choseong(a + b)
                if len(c) >= 2:
                    add(cho_pairs, c, posting)
        flat_heads.append(jamo("".join(words(title + " " + head))))
    return {
        "entries": [list(e[:4]) for e in entries],  # packed into ids/kinds/titles/texts
        "jamo": _table(singles),
        "jamo_pairs": _table(pairs),
        "cho": _table(cho_singles),
        "cho_pairs": _table(cho_pairs),
        "raw_words": sorted(jamo(w) for w in raw_words),
        "heads": flat_heads,
        "ruling_dates": {r["id"]: r["date"] for r in corpus.rulings.values()},
    }


_TABLES = ("jamo", "jamo_pairs", "cho", "cho_pairs")


def pack_index(index: dict) -> dict:
    """A marshal-friendly form: few large objects (joined strings, packed
    integer arrays) load several times faster than many small lists."""
    from array import array

    out = {k: v for k, v in index.items() if k not in _TABLES and k not in ("raw_words", "entries", "heads")}
    out["raw_words"] = "\x00".join(index["raw_words"])
    # ids and kinds as joined text; titles, texts and heads as UTF-8 bytes with
    # offsets, decoded only for the entries a query needs
    out["ids"] = "\x00".join(e[0] for e in index["entries"])
    out["kinds"] = "\x00".join(e[1] for e in index["entries"])
    for name, column in (("titles", [e[2] for e in index["entries"]]), ("texts", [e[3] for e in index["entries"]]),
                         ("heads", index["heads"])):
        blob, offs = bytearray(), array("I", [0])
        for text in column:
            blob += text.encode("utf-8")
            offs.append(len(blob))
        out[name] = (bytes(blob), offs.tobytes())
    for name in _TABLES:
        t = index[name]
        offs = array("I", [0])
        flat = array("I")
        for p in t["post"]:
            flat.extend(p)
            offs.append(len(flat))
        out[name] = {"keys": "\x00".join(t["keys"]), "lex_idx": array("I", t["lex_idx"]).tobytes(),
                     "lex_keys": "\x00".join(t["lex_keys"]), "lens": array("H", t["lens"]).tobytes(),
                     "post": flat.tobytes(), "offs": offs.tobytes()}
    return out


class _Column:
    """The i-th text of a column stored as one UTF-8 blob with offsets."""

    __slots__ = ("blob", "offs")

    def __init__(self, blob, offs):
        self.blob, self.offs = blob, offs

    def __getitem__(self, i):
        return self.blob[self.offs[i]:self.offs[i + 1]].decode("utf-8")


class _Postings:
    """Posting lists of a table, sliced on demand from one packed array."""

    __slots__ = ("flat", "offs")

    def __init__(self, flat, offs):
        self.flat, self.offs = flat, offs

    def __getitem__(self, i):
        return self.flat[self.offs[i]:self.offs[i + 1]]


def unpack_index(packed: dict) -> dict:
    from array import array

    index = {k: v for k, v in packed.items() if k not in _TABLES and k not in ("raw_words", "entries", "heads")}
    index["ids"] = packed["ids"].split("\x00")
    index["kinds"] = packed["kinds"].split("\x00")
    for name in ("titles", "texts", "heads"):
        blob, raw_offs = packed[name]
        offs = array("I")
        offs.frombytes(raw_offs)
        index[name] = _Column(blob, offs)
    index["_raw_set"] = set(packed["raw_words"].split("\x00")) if packed["raw_words"] else set()
    for name in _TABLES:
        t = packed[name]
        keys = t["keys"].split("\x00") if t["keys"] else []
        lex_keys = t["lex_keys"].split("\x00") if t["lex_keys"] else []
        lex_idx, lens, flat, offs = array("I"), array("H"), array("I"), array("I")
        lex_idx.frombytes(t["lex_idx"])
        lens.frombytes(t["lens"])
        flat.frombytes(t["post"])
        offs.frombytes(t["offs"])
        index[name] = {"keys": keys, "lens": lens, "post": _Postings(flat, offs),
                       "lex_keys": lex_keys, "lex_idx": lex_idx}
    return index


# ------------------------------------------------------------- querying ----
def _fuzzy(token: str, table: dict, cutoff: float) -> list[tuple[int, float]]:
    """(vocabulary index, score) for vocabulary words close to the token."""
    from rapidfuzz import fuzz, process

    keys, lens = table["keys"], table["lens"]
    n = len(token)
    split = bisect_left(lens, n)
    hits: list[tuple[int, float]] = []
    # words at least as long as the token: is the token inside the word?
    for _, score, i in process.extract(token, keys[split:], scorer=fuzz.partial_ratio,
                                       score_cutoff=cutoff, limit=None):
        # found inside a longer word: a little weaker than the word itself
        hits.append((split + i, score * (0.9 + 0.1 * n / lens[split + i])))
    lo = bisect_left(lens, max(1, int(n * 0.6)))
    if lo < split:
        for _, score, i in process.extract(token, keys[lo:split], scorer=fuzz.ratio,
                                           score_cutoff=cutoff, limit=None):
            hits.append((lo + i, score))
    return hits


def _prefixed(token: str, table: dict) -> list[tuple[int, float]]:
    """Words that are the token or start with it (the token plus a particle or
    a compound's tail); empty when no word starts with the token."""
    lex_keys, lex_idx, lens = table["lex_keys"], table["lex_idx"], table["lens"]
    n = len(token)
    i = bisect_left(lex_keys, token)
    hits = []
    while i < len(lex_keys) and lex_keys[i].startswith(token):
        vi = lex_idx[i]
        hits.append((vi, 100.0 * (0.9 + 0.1 * n / lens[vi])))
        i += 1
    return hits


def _lookup(token: str, single: dict, pair: dict, cutoff: float) -> list[tuple[dict, int, float]]:
    """Matches of one query form: exact/prefix hits when the form is a word of
    the corpus, else a fuzzy scan; pairs of words catch missing spaces."""
    hits = [(single, vi, sc) for vi, sc in _prefixed(token, single)]
    exact = any(sc >= 100.0 for _, _, sc in hits)
    if not exact:
        hits += [(single, vi, sc) for vi, sc in _fuzzy(token, single, cutoff)]
    best = max((sc for _, _, sc in hits), default=0.0)
    if best < 90.0:
        pair_hits = _prefixed(token, pair)
        if not pair_hits:
            pair_hits = _fuzzy(token, pair, cutoff)
        hits += [(pair, vi, sc) for vi, sc in pair_hits]
    return hits


def _variants(token: str, index: dict) -> list[tuple[str, str]]:
    """The forms of one query word to look up: (mode, string). A word with a
    particle is looked up by its stem when the stem is a word of the corpus."""
    if is_choseong_query(token):
        return [("cho", token)]
    raw = index["_raw_set"]
    j = jamo(token)
    out = [("jamo", j)]
    stem = strip_particle(token)
    if stem:
        sj = jamo(stem)
        if sj in raw:
            out = [("jamo", sj)] + ([("jamo", j)] if j in raw else [])
    if is_qwerty_candidate(token) and j not in raw:
        out.append(("jamo", qwerty_to_jamo(token)))
    return out


def search(index: dict, query: str, *, kind: str | None = None, limit: int = 10,
           as_of: str | None = None) -> list[dict]:
    """Rank every entry for the query; `index` comes from corpus.load_index()."""
    ids, kinds = index["ids"], index["kinds"]
    q = query.strip()
    exact = {eid: i for i, eid in enumerate(ids)}
    tokens = words(q)
    if not tokens and q not in exact:
        return []
    excluded = set()
    if as_of:
        excluded = {rid for rid, date in index["ruling_dates"].items() if date > as_of}

    total_w = 0.0
    phrase = []
    scores: dict[int, float] = {}
    title_scores: dict[int, float] = {}
    for tok in tokens:
        best: dict[int, float] = {}
        best_title: dict[int, float] = {}
        variants = _variants(tok, index)
        phrase.append(variants[0][1])
        weight = float(max(len(variants[0][1]), 2))
        total_w += weight
        for mode, form in variants:
            if mode == "cho":
                hits = _lookup(form, index["cho"], index["cho_pairs"], _CHO_CUTOFF)
            else:
                hits = _lookup(form, index["jamo"], index["jamo_pairs"], _JAMO_CUTOFF)
            for table, vi, score in hits:
                for p in table["post"][vi]:
                    fld = p & 3
                    s = score * _FIELD_WEIGHT[fld]
                    e = p >> 2
                    if s > best.get(e, 0.0):
                        best[e] = s
                    if fld != BODY and s > best_title.get(e, 0.0):
                        best_title[e] = s
        for e, s in best.items():
            scores[e] = scores.get(e, 0.0) + weight * s
        for e, s in best_title.items():
            title_scores[e] = title_scores.get(e, 0.0) + weight * s
    results = []
    for e, s in scores.items():
        score = (0.85 * s + 0.15 * title_scores.get(e, 0.0)) / total_w if total_w else 0.0
        results.append((e, score))
    if len(tokens) > 1:
        # the query's words side by side in the title or keywords: a small bonus,
        # checked for the leading candidates only (it cannot lift others past them)
        flat_q = "".join(phrase)
        heads = index["heads"]
        results.sort(key=lambda es: -es[1])
        results = [(e, min(100.0, sc + 5.0) if i < 200 and flat_q in heads[e] else sc)
                   for i, (e, sc) in enumerate(results)]
    if q in exact:
        results = [(i, sc) for i, sc in results if i != exact[q]] + [(exact[q], 101.0)]
    out = []
    ranked = []
    for e, score in results:
        eid, ekind = ids[e], kinds[e]
        if (kind and ekind != kind) or eid in excluded:
            continue
        ranked.append((-score, _KIND_RANK[ekind], eid, e))
    ranked.sort()
    titles, texts = index["titles"], index["texts"]
    return [{"id": eid, "kind": kinds[e], "title": titles[e], "text": texts[e], "score": round(min(-neg, 100.0), 1)}
            for neg, _, eid, e in ranked[:limit]]


def matched_words(query: str, text: str) -> list[str]:
    """Words of `text` that a query word matched (for showing why a result came up)."""
    from rapidfuzz import fuzz

    found = []
    tws = words(text)
    for tok in words(query):
        if is_choseong_query(tok):
            cands = [w for w in tws if tok in choseong(w)]
        else:
            forms = [jamo(tok)]
            stem = strip_particle(tok)
            if stem:
                forms.append(jamo(stem))
            if is_qwerty_candidate(tok):
                forms.append(qwerty_to_jamo(tok))
            cands = []
            for w in tws:
                wj = jamo(w)
                for f in forms:
                    sc = fuzz.partial_ratio(f, wj) if len(wj) >= len(f) else fuzz.ratio(f, wj)
                    if sc >= 80:
                        cands.append(w)
                        break
        for w in cands[:2]:
            if w not in found:
                found.append(w)
    return found
