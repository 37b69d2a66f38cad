"""Korean-aware search over clauses, rulings, FAQ items, examples, terms and cards.

How it matches (measured choices, see README):
- every entry is cut into words; each word (and each pair of adjacent words,
  for queries typed without spaces) is stored decomposed into jamo, with a
  posting list of the entries and fields it occurs in; numbers lose leading
  zeros (09-24 and 9월 24일 meet);
- a query word is compared with the vocabulary, not with whole texts, so the
  cost grows with the vocabulary and not with the number of entries: exact and
  prefix look-ups (on syllable boundaries) when the word is in the corpus, else
  rapidfuzz: partial_ratio for longer words (the word inside a compound), ratio
  for words about as long or a jamo or two longer (a jamo missing);
- endings come off a query word one after another, on jamo, when what remains
  is a word of the corpus and the particle fits its last sound (맞대응이란 →
  맞대응, 장면이 → 장면 not 장, wjdckrdms → 정착); the head the keywords use wins;
  a verb stem is looked up as a prefix (뒤집으면 → 뒤집기);
- question words (어떻게, 되나요, 있나요, 수 …) count for nothing unless the query
  has nothing else; 예시/판정/용어/뜻 match every entry of their kind;
- 초성-only words are matched against a 초성 projection of the vocabulary (words
  and pairs of words); ASCII words that are not in the vocabulary are read as
  Korean typed on a QWERTY keyboard in English mode;
- words typed apart that are one word of the corpus (잠입 건설, 대응 턴) are
  joined.
The entry's score is the length-weighted mean over query words of the best
match in its title (weight 1.0), keywords (0.95) or body (0.85), plus a little
for title/keyword matches and +5 when the words stand side by side there (a
particle between them allowed). Scores are capped at 100 and ties go by kind
(clause, faq, term, card, ruling, example); among the entries within 5 points
of the best, one whose title, title head or other name is the query comes first.
"""

from __future__ import annotations

import re
from bisect import bisect_left

from .korean import (ENDINGS, STOPWORDS, VOWELS, choseong, ending_heads, ending_length, is_choseong_query,
                     is_qwerty_candidate, jamo, may_carry_ending, qwerty_to_jamo, strip_ending, strip_particle,
                     syllable_count, words)

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


def entries_of(corpus) -> list[tuple]:
    """(id, kind, title, text, keys, body[, names]) for every searchable entry;
    `keys` holds keywords, aliases and the id's words (the title is indexed
    apart); `names`, for terms and cards, the other names the entry goes by."""
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
        out.append((t["id"], "term", t["term"], t["definition"], " ".join(t["aliases"]), t["definition"],
                    list(t["aliases"])))
    for card in corpus.cards.values():
        names = " ".join([*card["aliases"], *(a["name"] for a in card["abilities"])])
        out.append((card["name"], "card", card["name"], card_text(card), names, card_text(card),
                    list(card["aliases"])))
    return out


def _norm(w: str) -> str:
    """A word as indexed and looked up: numbers lose leading zeros (09 → 9)."""
    return (w.lstrip("0") or "0") if w.isdigit() else w


def _words(text: str) -> list[str]:
    return [_norm(w) for w in words(text)]


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

    lemmas: set[str] = set()
    names = []
    for idx, (_id, _kind, title, _text, head, body, *other) in enumerate(entries):
        for fld, text in ((TITLE, title), (KEYS, head), (BODY, body)):
            ws = _words(text)
            raw_words.update(ws)
            if (fld == KEYS and _kind != "example") or (fld == TITLE and _kind in ("term", "card")):
                lemmas.update(ws)  # keywords and names: words as a player says them, without particles
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
        flat_heads.append(jamo("".join(_words(title + " " + head))))
        names.append("\x1f".join(sorted(_name_forms(title, *(other[0] if other else ())))))
    return {
        "entries": [list(e[:4]) for e in entries],  # packed into ids/kinds/titles/texts
        "jamo": _table(singles),
        "jamo_pairs": _table(pairs),
        "cho": _table(cho_singles),
        "cho_pairs": _table(cho_pairs),
        "raw_words": sorted(jamo(w) for w in raw_words),
        "lemmas": sorted(jamo(w) for w in lemmas),
        "heads": flat_heads,
        "names": names,
        "ruling_dates": {r["id"]: r["date"] for r in corpus.rulings.values()},
    }


def _name_forms(title: str, *aliases: str) -> set[str]:
    """The entry's title, the title's head before ' — ' and its other names, as
    jamo without spaces and as 초성: a query equal to one of them names the entry."""
    names = [title, *aliases] + ([title.split(" — ")[0]] if " — " in title else [])
    flat = ["".join(_words(t)) for t in names]
    return {f for f in (*(jamo(x) for x in flat), *(choseong(x) for x in flat)) if f}


_TABLES = ("jamo", "jamo_pairs", "cho", "cho_pairs")
_COLUMNS = ("raw_words", "lemmas", "entries", "heads", "names")


def pack_index(index: dict) -> dict:
    """A marshal-friendly form: few large objects (joined strings, packed
    integer arrays) load several times faster than many small lists."""
    from array import array

    out = {k: v for k, v in index.items() if k not in _TABLES and k not in _COLUMNS}
    out["raw_words"] = "\x00".join(index["raw_words"])
    out["lemmas"] = "\x00".join(index["lemmas"])
    # ids and kinds as joined text; titles, texts and heads as UTF-8 bytes with
    # offsets, decoded only for the entries a query needs
    out["ids"] = "\x00".join(e[0] for e in index["entries"])
    out["kinds"] = "\x00".join(e[1] for e in index["entries"])
    for name, column in (("titles", [e[2] for e in index["entries"]]), ("texts", [e[3] for e in index["entries"]]),
                         ("heads", index["heads"]), ("names", index["names"])):
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


class _Table(dict):
    """One vocabulary table, unpacked field by field on first use: a query
    typically needs the exact/prefix view of one or two tables only."""

    def __init__(self, packed: dict):
        super().__init__()
        self._packed = packed

    def __missing__(self, key):
        from array import array

        t = self._packed
        if key == "keys":
            value = t["keys"].split("\x00") if t["keys"] else []
        elif key == "lex_keys":
            value = t["lex_keys"].split("\x00") if t["lex_keys"] else []
        elif key == "post":
            flat, offs = array("I"), array("I")
            flat.frombytes(t["post"])
            offs.frombytes(t["offs"])
            value = _Postings(flat, offs)
        elif key in ("lens", "lex_idx"):
            value = array("H" if key == "lens" else "I")
            value.frombytes(t[key])
        else:
            raise KeyError(key)
        self[key] = value
        return value


class _Index(dict):
    """The unpacked index; the word set and the tables are built on first use."""

    def __missing__(self, key):
        packed = self["_packed"]
        if key == "_raw_set":
            value = set(packed["raw_words"].split("\x00")) if packed["raw_words"] else set()
        elif key in _TABLES:
            value = _Table(packed[key])
        else:
            raise KeyError(key)
        self[key] = value
        return value


def unpack_index(packed: dict) -> dict:
    from array import array

    index = _Index({k: v for k, v in packed.items() if k not in _TABLES and k not in _COLUMNS})
    index["_packed"] = packed
    index["ids"] = packed["ids"].split("\x00")
    index["kinds"] = packed["kinds"].split("\x00")
    for name in ("titles", "texts", "heads", "names"):
        blob, raw_offs = packed[name]
        offs = array("I")
        offs.frombytes(raw_offs)
        index[name] = _Column(blob, offs)
    index["_lemmas"] = packed["lemmas"]  # made a set on first use (_lemma_set)
    return index


# ------------------------------------------------------------- querying ----
def _fuzzy(token: str, table: dict, cutoff: float) -> list[tuple[int, float]]:
    """(vocabulary index, score) for vocabulary words close to the token."""
    from rapidfuzz import fuzz, process

    keys, lens = table["keys"], table["lens"]
    n = len(token)
    split = bisect_left(lens, n + 1)
    hits: list[tuple[int, float]] = []
    # longer words: is the token inside the word (a compound, a word with a
    # particle)? Found whole it is a little weaker than the word itself; found
    # with a jamo off (써야 in 있어야) it is weaker still
    for _, score, i in process.extract(token, keys[split:], scorer=fuzz.partial_ratio,
                                       score_cutoff=cutoff, limit=None):
        share = n / lens[split + i]
        if score >= 100.0 and _ends_syllable(keys[split + i], keys[split + i].find(token) + n):
            hits.append((split + i, score * (0.9 + 0.1 * share)))
        else:
            hits.append((split + i, score * (0.75 + 0.15 * share)))
    # words about as long, or a jamo or two longer (아면 → 앞면): edit distance
    lo, hi = bisect_left(lens, max(1, int(n * 0.6))), bisect_left(lens, n + 3)
    if lo < hi:
        for _, score, i in process.extract(token, keys[lo:hi], scorer=fuzz.ratio,
                                           score_cutoff=cutoff, limit=None):
            # a longer word (라운드에 for 라운등) a little weaker than as long a one (라운드)
            hits.append((lo + i, score * (0.9 + 0.1 * n / lens[lo + i]) if lens[lo + i] > n else score))
    return hits


def _prefixed(token: str, table: dict) -> list[tuple[int, float]]:
    """Words that are the token or start with it (the token plus a particle or
    a compound's tail); empty when no word starts with the token."""
    lex_keys, lex_idx, lens = table["lex_keys"], table["lex_idx"], table["lens"]
    n = len(token)
    i = bisect_left(lex_keys, token)
    hits = []
    while i < len(lex_keys) and lex_keys[i].startswith(token):
        if _ends_syllable(lex_keys[i], n):
            vi = lex_idx[i]
            hits.append((vi, 100.0 * (0.9 + 0.1 * n / lens[vi])))
        i += 1
    return hits


def _ends_syllable(word: str, at: int) -> bool:
    """Does a match that ends at `at` in the jamo word end on a syllable
    boundary? 라운등 does not start 라운드에: its ㅇ is there the start of 에;
    기 does not start 김."""
    if at >= len(word):
        return True
    ch = word[at]
    if ch in VOWELS:
        return False
    if "\u3131" <= ch <= "\u314e":  # a consonant: an initial only if a vowel follows
        return at + 1 < len(word) and word[at + 1] in VOWELS
    return True


def _lookup(token: str, single: dict, pair: dict, cutoff: float,
            table_is_cho: bool = False) -> list[tuple[dict, int, float]]:
    """Matches of one query form: exact/prefix hits when the form is a word of
    the corpus, else a fuzzy scan; pairs of words catch missing spaces."""
    hits = [(single, vi, sc) for vi, sc in _prefixed(token, single)]
    exact = any(sc >= 100.0 for _, _, sc in hits)
    if not exact:
        hits += [(single, vi, sc) for vi, sc in _fuzzy(token, single, cutoff)]
    best = max((sc for _, _, sc in hits), default=0.0)
    if best < 90.0 or table_is_cho:  # 초성 are short: ㅈㅇㅅ is 지원사격 and 조우 셀 alike
        pair_hits = _prefixed(token, pair)
        if not pair_hits:
            pair_hits = _fuzzy(token, pair, cutoff)
        hits += [(pair, vi, sc) for vi, sc in pair_hits]
    return hits


_DATE_RE = r"(\d{1,2})\s*월\s*(\d{1,2})\s*일?"  # patterns compiled on first use (re caches them)
_SCRIPT_RE = r"[0-9]+|[A-Za-z]+|[^0-9A-Za-z]+"
_STOP_WEIGHT = 0.0  # a question word (어떻게, 있나요) counts for nothing unless the query has nothing else
_MAX_JOIN = 5  # words typed apart that may be one word of the corpus (승 리 확 인 턴)


def _query_words(q: str, raw: set) -> list[str]:
    """The query's words: dates as 9-24, numbers without leading zeros, and a
    word mixing scripts that the corpus does not know cut where the script
    changes (장면1 → 장면 1, VP가 → VP)."""
    if "월" in q:
        q = re.sub(_DATE_RE, r"\1-\2", q)
    out = []
    for w in words(q):
        if w.isdigit() or (w.isalpha() and (w.isascii() or not any(ch.isascii() for ch in w))):
            out.append(_norm(w))  # one script
            continue
        j = jamo(w)
        if j in raw or strip_ending(j, raw):
            out.append(w)
            continue
        pieces = re.findall(_SCRIPT_RE, w)
        for i, piece in enumerate(pieces):
            if i and not piece.isascii() and piece in ENDINGS:
                continue  # VP가 → VP
            out.append(_norm(piece))
    return out


def _head_of(j: str, index: dict) -> tuple[str, list[str]]:
    """The word meant by a jamo form that may carry endings, and the forms to
    look it up by. Endings come off one after another (맞대응이란 → 맞대응이 →
    맞대응); of the heads, the one the rules' keywords use wins, a word of two
    syllables or more before one of one (장면이 → 장면 not 장, 턴이에요 → 턴,
    점령지하면 → 점령지 not 점령)."""
    raw = index["_raw_set"]
    known = j in raw
    heads, frontier = [], [j]
    while frontier:
        nxt = []
        for f in frontier:
            for h in ending_heads(f, raw):
                if h not in heads:
                    heads.append(h)
                    nxt.append(h)
        frontier = nxt
    if not heads:
        return j, [j]
    lemmas = _lemma_set(index)
    if known and j in lemmas:
        main = j
    else:
        named = [h for h in heads if h in lemmas]
        longer = [h for h in named if syllable_count(h) >= 2]
        plain = [h for h in heads if syllable_count(h) >= 2]
        if longer:
            main = max(longer, key=len)
        elif named:
            main = min(named, key=len)
        elif plain and not known:
            main = max(plain, key=len)
        else:
            return j, [j]  # only a one-syllable head nobody names (이도 → 이): keep the word
    return main, [main] + ([j] if known and j != main else [])


def _variants(token: str, index: dict) -> tuple[list[tuple[str, str]], float]:
    """The forms of one query word to look up, (mode, string) with the main one
    first, and the word's weight (the length of what it means, endings off).
    A word with endings (기물이, 공격받으면, wjdckrdms) is looked up by its head
    when the head is a word of the corpus."""
    if is_choseong_query(token):
        return [("cho", token)], float(len(token))
    raw = index["_raw_set"]
    j = jamo(token)
    if is_qwerty_candidate(token) and j not in raw:
        # typed in English mode: the Korean it stands for comes first, the
        # letters as typed last (a misspelt English word of the corpus)
        qj = qwerty_to_jamo(token)
        main, forms = _head_of(qj, index)
        out = [("jamo", f) for f in forms] + ([("jamo", qj)] if main != qj else []) + [("jamo", j)]
        cut = ending_length(qj) if main == qj and qj not in _lemma_set(index) else 0
        return out, float(max(len(main) - cut, 2))
    if not may_carry_ending(token):
        return [("jamo", j)], float(max(len(j), 2))  # 정착, 기물: no ending to look for
    main, forms = _head_of(j, index)
    weight = len(main)
    if main == j and j not in _lemma_set(index):
        cut = ending_length(j)
        weight -= cut  # 정하나요, 없으면: the ending says little
        if cut and j not in raw and syllable_count(j[:-cut]) >= 2 and _prefixed(j[:-cut], index["jamo"]):
            # a verb stem the corpus has in another form (뒤집으면 → 뒤집기, 들어가면 →
            # 들어가): looked up as a prefix, and weighing half, as the nouns say more
            return [("jamo", j[:-cut]), ("jamo", j)], max(weight * 0.5, 2.0)
    return [("jamo", f) for f in forms], float(max(weight, 2))


def _surface(token: str, variants) -> str:
    """The word as typed, in the form it is looked up in (jamo, 초성, or the
    jamo of what was typed in English mode)."""
    if variants[0][0] == "cho":
        return token
    if is_qwerty_candidate(token) and variants[-1][1] == token.lower() and len(variants) > 1:
        return qwerty_to_jamo(token)
    return jamo(token)


def _lemma_set(index: dict) -> set:
    """Words of keywords, aliases and term/card names (no particles on them)."""
    if "_lemma_set" not in index:
        index["_lemma_set"] = set(index["_lemmas"].split("\x00")) if index["_lemmas"] else set()
    return index["_lemma_set"]


# words that name a kind of entry: in a query they match every entry of that kind
_KIND_WORDS = {"예시": "example", "예": "example", "예제": "example", "사례": "example", "판정": "ruling",
               "룰링": "ruling", "판례": "ruling", "용어": "term", "뜻": "term", "정의": "term", "faq": "faq",
               "조항": "clause"}
_GAP = 4  # jamo two query words may stand apart in a title: a particle (구조물은 이동)


_GAPS: set[str] = set()


def _particle_gaps() -> set[str]:
    """What may stand between two words of a title: a particle (as jamo)."""
    if not _GAPS:
        _GAPS.update(jamo(p) for p in ("은", "는", "이", "가", "을", "를", "의", "에", "에서", "에는", "으로", "로", "과",
                                       "와", "도", "만", "이나", "에도"))
    return _GAPS


def _in_order(forms: list[str], flat: str, head: str) -> bool:
    """Do the words occur in this order in `head`, each right after the last
    or past a particle (은퇴 해제, 구조물은 이동; not 은퇴 제거 해제)? `flat` is
    the words joined."""
    if flat in head:
        return True
    for f in forms:
        if f not in head:
            return False
    pos = head.find(forms[0])
    while pos >= 0:
        end, ok = pos + len(forms[0]), True
        for f in forms[1:]:
            i = head.find(f, end, end + _GAP + len(f))
            while i >= 0 and i > end and head[end:i] not in _particle_gaps():
                i = head.find(f, i + 1, end + _GAP + len(f))
            if i < 0:
                ok = False
                break
            end = i + len(f)
        if ok:
            return True
        pos = head.find(forms[0], pos + 1)
    return False


def _credit(hits, best: dict, best_title: dict) -> None:
    for table, vi, score in hits:
        for p in table["post"][vi]:
            fld = p & 3
            s = score * _FIELD_WEIGHT[fld]
            e = p >> 2
            if s > best.get(e, 0.0):
                best[e] = s
            if fld != BODY and s > best_title.get(e, 0.0):
                best_title[e] = s


def search(index: dict, query: str, *, kind: str | None = None, limit: int = 10,
           as_of: str | None = None) -> list[dict]:
    """Rank every entry for the query; `index` comes from corpus.load_index()."""
    ids, kinds = index["ids"], index["kinds"]
    q = query.strip()
    exact = {eid: i for i, eid in enumerate(ids)}
    tokens = _query_words(q, index["_raw_set"])
    if not tokens and q not in exact:
        return []
    excluded = set()
    if as_of:
        excluded = {rid for rid, date in index["ruling_dates"].items() if date > as_of}

    raw = index["_raw_set"]
    looked = [_variants(tok, index) for tok in tokens]
    all_variants = [v for v, _ in looked]
    stops = [tok in STOPWORDS for tok in tokens]
    if all(stops):
        stops = [False] * len(tokens)
    weights = []
    corrected: list[str] = []
    per_token: list[tuple[dict, dict]] = []
    for tok, (variants, tok_weight), stop in zip(tokens, looked, stops):
        best: dict[int, float] = {}
        best_title: dict[int, float] = {}
        weights.append(tok_weight * (_STOP_WEIGHT if stop else 1.0))
        kind_of = _KIND_WORDS.get(tok.lower()) or _KIND_WORDS.get(strip_particle(tok) or "")
        if kind_of and not stop:
            # 예시, 판정, 용어 …: the word names a kind of entry, which it then matches
            for e, k in enumerate(kinds):
                if k == kind_of:
                    best[e] = best_title[e] = 100.0
        fixed = (0.0, variants[0][1])  # the word of the corpus a misspelt word stands for
        for nth, (mode, form) in enumerate(variants if weights[-1] else ()):
            if nth and fixed[0] >= 90.0 and form not in raw:
                continue  # no typo hunt for a further form (the letters of wjdckr) once one matched well
            if mode == "cho":
                hits = _lookup(form, index["cho"], index["cho_pairs"], _CHO_CUTOFF, True)
            else:
                # one jamo wrong in a one-syllable word (텬 → 턴) scores 66.7
                hits = _lookup(form, index["jamo"], index["jamo_pairs"], 66.0 if len(form) == 3 else _JAMO_CUTOFF)
                for table, vi, sc in hits:
                    if sc > fixed[0] and table is index["jamo"]:
                        fixed = (sc, table["keys"][vi])
            _credit(hits, best, best_title)
        per_token.append((best, best_title))
        corrected.append(fixed[1])

    # words typed apart that are one word of the corpus (잠입 건설, 피의 장막,
    # 대응 턴): the joined form's exact or prefix matches count for each of them
    n = len(tokens)
    modes = [v[0][0] for v in all_variants]
    surface = [_surface(t, v) for t, v in zip(tokens, all_variants)]
    for i in range(n - 1):
        for k in range(i + 2, min(n, i + _MAX_JOIN) + 1):
            if modes[k - 1] != modes[i]:
                break
            head = "".join(surface[i:k - 1])
            if modes[i] == "cho":
                forms, table = {head + surface[k - 1]}, index["cho"]
            else:
                forms, table = {head + surface[k - 1]} | {head + f for _, f in all_variants[k - 1]}, index["jamo"]
            jbest: dict[int, float] = {}
            jtitle: dict[int, float] = {}
            for form in forms:
                _credit([(table, vi, sc) for vi, sc in _prefixed(form, table)], jbest, jtitle)
            for best, best_title in per_token[i:k]:
                for e, sc in jbest.items():
                    if sc > best.get(e, 0.0):
                        best[e] = sc
                for e, sc in jtitle.items():
                    if sc > best_title.get(e, 0.0):
                        best_title[e] = sc

    total_w = sum(weights)
    scores: dict[int, float] = {}
    title_scores: dict[int, float] = {}
    for weight, (best, best_title) in zip(weights, per_token):
        for e, s in best.items():
            scores[e] = scores.get(e, 0.0) + weight * s
        for e, s in best_title.items():
            title_scores[e] = title_scores.get(e, 0.0) + weight * s
    results = []
    for e, s in scores.items():
        score = (0.85 * s + 0.15 * title_scores.get(e, 0.0)) / total_w if total_w else 0.0
        results.append((e, score))
    content = [v[0][1] for v, stop in zip(all_variants, stops) if not stop]
    if len(content) > 1:
        # the query's words side by side in the title or keywords: a small bonus,
        # checked for the leading candidates only (it cannot lift others past them)
        heads, flat = index["heads"], "".join(content)
        results.sort(key=lambda es: -es[1])
        results = [(e, sc + 5.0) if _in_order(content, flat, heads[e]) else (e, sc) for e, sc in results[:200]] \
            + results[200:]
    named = exact.get(q, -1)
    if named >= 0:
        results = [(i, sc) for i, sc in results if i != named] + [(named, 101.0)]
    ranked = []
    for e, score in results:
        eid, ekind = ids[e], kinds[e]
        if (kind and ekind != kind) or eid in excluded:
            continue
        # scores past 100 (a phrase bonus) only order entries of one kind; an id
        # typed in full comes first
        cap = 101.0 if e == named else 100.0
        ranked.append((-(score if score < cap else cap), _KIND_RANK[ekind], -score, eid, e))
    ranked.sort()
    titles, texts = index["titles"], index["texts"]
    if ranked and n:
        # an entry whose title is the query itself (대응 턴 → 대응턴, ㅈㄴㅍㄱ →
        # 진내폭격) comes first among those scored within 5 points of the best
        keep = [i for i in range(n) if not stops[i]]
        wanted = {"".join(surface[i] for i in keep), "".join(all_variants[i][0][1] for i in keep),
                  "".join(corrected[i] for i in keep)}
        if any(modes[i] == "cho" for i in keep):  # ㅈㅊ 기물: compare 초성 with 초성
            wanted.add("".join(tokens[i] if modes[i] == "cho" else choseong(tokens[i]) for i in keep))
        top, cut = -ranked[0][0], 0
        while cut < min(len(ranked), 30) and -ranked[cut][0] >= top - 5.0:
            cut += 1
        names = index["names"]
        hits = {r[4] for r in ranked[:cut] if wanted.intersection(names[r[4]].split("\x1f"))}
        if hits:
            lead = sorted((-min(100.0, -neg + 5.0) if e in hits else neg, e not in hits, kr, raw_neg, eid, e)
                          for neg, kr, raw_neg, eid, e in ranked[:cut])
            ranked = [(neg, kr, raw_neg, eid, e) for neg, _, kr, raw_neg, eid, e in lead] + ranked[cut:]
    return [{"id": eid, "kind": kinds[e], "title": titles[e], "text": texts[e], "score": round(min(-neg, 100.0), 1)}
            for neg, _, _, eid, e in ranked[:limit]]


def matched_words(query: str, text: str) -> list[str]:
    """Words of `text` that a query word matched (for showing why a result came up)."""
    from rapidfuzz import fuzz

    found = []
    tws = words(text)
    qws = words(query)
    content = [t for t in qws if t not in STOPWORDS] or qws  # not 수, 있나요
    for tok in content:
        if is_choseong_query(tok):
            cands = [w for w in tws if tok in choseong(w)]
        else:
            forms = [jamo(tok)]
            stem = strip_particle(tok)
            if stem:
                forms.append(jamo(stem))
            cut = ending_length(forms[0])
            if cut and syllable_count(forms[0][:-cut]) >= 2:
                forms.append(forms[0][:-cut])  # 공격받으면 → 공격
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
