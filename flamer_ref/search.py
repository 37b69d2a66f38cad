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
The entry's score mixes (45:55) the length- and idf-weighted mean over query
words of the best match in its title (weight 1.0), keywords (0.95) or body
(0.85) with the same mean over title and keyword matches only, +5 when the
words stand side by side there (a particle between them allowed); examples
and rulings count a few points less unless the query asks for that kind, and
question words steer the kind wanted (언제, 왜, 누가, 몇, 어디, a date, 못/안). Scores are capped at 100 and ties go by kind
(clause, faq, term, card, ruling, example); among the entries within 5 points
of the best, one whose title, title head or other name is the query comes first.
"""

from __future__ import annotations

import re
from bisect import bisect_left

# the searchable entries and a card's text are the data's own (flamer_ref/entries.py); re-exported here
from .entries import card_text, entries_of  # noqa: F401
from .korean import (COLLOQUIAL, ENDINGS, STOPWORDS, VOWELS, chat_noise, choseong, ending_heads, ending_length, fix_shift,
                     is_choseong_query, is_ending, is_qwerty_candidate, is_question_word, is_syllable, jamo,
                     may_carry_ending, qwerty_to_jamo, strip_chat, strip_ending, strip_particle, syllable_count,
                     verb_stems, words)

KINDS = ("clause", "ruling", "faq", "example", "card", "term")
KIND_KO = {"clause": "조항", "ruling": "판정", "faq": "FAQ", "example": "예시", "card": "카드", "term": "용어"}
_KIND_RANK = {k: i for i, k in enumerate(("clause", "faq", "term", "card", "ruling", "example"))}
TITLE, KEYS, BODY, ASKED = 0, 1, 2, 3
#: ASKED: the everyday questions a player asks when the entry is the answer (rules/phrasings.yaml); they
#: count like the body, a little above it, and never as the title
_FIELD_WEIGHT = (1.0, 0.95, 0.85, _ASKED_WEIGHT := 0.95)
_JAMO_CUTOFF = 68.0
_CHO_CUTOFF = 85.0


# ------------------------------------------------------------- building ----
def asked_of(corpus) -> dict[str, str]:
    """Entry id → the everyday questions players ask about it (rules/phrasings.yaml), as one text; an
    interpretation's questions go to its clause (interpretations are found through their clause)."""
    return {k: " ".join(v) for k, v in asked_lists(corpus).items()}


def asked_lists(corpus) -> dict[str, list[str]]:
    """Entry id → its players' questions, one by one (see asked_of)."""
    out: dict[str, list[str]] = {}
    phr = getattr(corpus, "phrasings", None) or {}
    for eid, rec in phr.items():
        qs = rec["asked"]
        target = corpus.interpretations[eid]["clause"] if eid in corpus.interpretations else eid
        out.setdefault(target, []).extend(qs)
    return out


def _norm(w: str) -> str:
    """A word as indexed and looked up: numbers lose leading zeros (09 → 9)."""
    return (w.lstrip("0") or "0") if w.isdigit() else w


def _words(text: str) -> list[str]:
    return [_norm(w) for w in words(text)]


def _table(vocab: dict[str, list[int]]) -> dict:
    """A vocabulary as parallel lists: sorted by (length, text) for fuzzy scans,
    plus a lexicographic view for exact and prefix look-ups."""
    lex_keys = sorted(vocab)
    keys = sorted(lex_keys, key=len)  # stable: by (length, text), with no tuple per key
    pos = {k: i for i, k in enumerate(keys)}
    return {"keys": keys, "lens": [len(k) for k in keys], "post": [vocab[k] for k in keys],
            "lex_keys": lex_keys, "lex_idx": [pos[k] for k in lex_keys]}


def build_index(corpus) -> dict:
    """The search index of a corpus (pack_index makes its cached form). The cyclic garbage collector
    is paused meanwhile: the index is millions of small lists, none in a cycle, and the collector
    rescanning them doubled the time on a 6 MB data file."""
    import gc

    was_on = gc.isenabled()
    gc.disable()
    try:
        return _build_index(corpus)
    finally:
        if was_on:
            gc.enable()


def _build_index(corpus) -> dict:
    entries = entries_of(corpus)
    singles: dict[str, list[int]] = {}
    pairs: dict[str, list[int]] = {}
    cho_singles: dict[str, list[int]] = {}
    cho_pairs: dict[str, list[int]] = {}
    raw_words: set[str] = set()
    flat_heads = []

    def add_all(table, keys, posting):
        # postings only grow (entry by entry, field by field): a key already holding this posting got
        # it from this very field, so each distinct key of the field gets it once
        get = table.get
        for key in dict.fromkeys(keys):
            lst = get(key)
            if lst is None:
                table[key] = [posting]
            else:
                lst.append(posting)

    # jamo and 초성 work letter by letter, so a pair's is its two words' joined: each word is
    # decomposed once (a large data file repeats its words a million times)
    jamo_of: dict[str, str] = {}
    cho_of: dict[str, str] = {}

    def jm(w: str) -> str:
        j = jamo_of.get(w)
        if j is None:
            j = jamo_of[w] = jamo(w)
        return j

    def ch(w: str) -> str:
        c = cho_of.get(w)
        if c is None:
            c = cho_of[w] = choseong(w)
        return c

    lemmas: set[str] = set()
    names = []
    asked = asked_of(corpus)
    synonyms = synonym_table(corpus)
    for idx, (_id, _kind, title, _text, head, body, *other) in enumerate(entries):
        for fld, text in ((TITLE, title), (KEYS, head), (BODY, body), (ASKED, asked.get(_id, ""))):
            ws = _words(text)
            if fld != ASKED:  # players' questions (typos and all) do not make a word one of the rules'
                raw_words.update(ws)
            if (fld == KEYS and _kind != "example") or (fld == TITLE and _kind in ("term", "card")):
                lemmas.update(ws)  # keywords and names: words as a player says them, without particles
            posting = idx * 4 + fld
            js = [jamo_of.get(w) or jm(w) for w in ws]
            add_all(singles, js, posting)
            if fld == ASKED:
                continue  # players' questions: words only (no 초성, no pairs — those name the rules' own words)
            cs = [cho_of[w] if w in cho_of else ch(w) for w in ws]
            add_all(cho_singles, [c for c in cs if len(c) >= 2], posting)
            if len(ws) < 2:
                continue
            keys = []
            for i in range(len(ws) - 1):
                keys.append(js[i] + js[i + 1])
                if fld in (TITLE, KEYS):
                    a = ws[i]
                    bare = strip_particle(a)
                    if bare and bare != a and len(bare) >= 2:
                        keys.append(jm(bare) + js[i + 1])  # 구조물은 조각 is also 구조물 조각
            add_all(pairs, keys, posting)
            add_all(cho_pairs, [c for c in (cs[i] + cs[i + 1] for i in range(len(cs) - 1)) if len(c) >= 2], posting)
        flat_heads.append(jamo("".join(_words(title + " " + head))))
        names.append("\x1f".join(sorted(_name_forms(title, *(other[0] if other else ())))))
    return {
        "entries": [list(e[:4]) for e in entries],  # packed into ids/kinds/titles/texts
        "jamo": _table(singles),
        "jamo_pairs": _table(pairs),
        "cho": _table(cho_singles),
        "cho_pairs": _table(cho_pairs),
        "raw_words": sorted(jm(w) for w in raw_words),
        "lemmas": sorted(jm(w) for w in lemmas),
        "heads": flat_heads,
        "names": names,
        "ruling_dates": {r["id"]: r["date"] for r in corpus.rulings.values()},
        # rule numbers → the clause (an interpretation's number → its clause): a number typed is its clause
        "numbers": {**{c["number"]: cid for cid, c in corpus.clauses.items() if c.get("number")},
                    **{it["number"]: it["clause"] for it in corpus.interpretations.values() if it.get("number")}},
        "synonyms": synonyms,
        "everyday": _everyday_table(synonyms),
        # what a person types to open a ruling, an FAQ item or an example (flamer rule 9/24-2, faq 3, example 2)
        "handles": _handles(corpus),
    }


def _handles(corpus) -> dict[str, str]:
    from .handles import example_number, faq_number, ruling_ref

    return {**{rid: ruling_ref(corpus, rid) for rid in corpus.rulings},
            **{fid: str(faq_number(corpus, fid)) for fid in corpus.faq},
            **{eid: str(example_number(corpus, eid)) for eid in corpus.examples}}


def similar_docs(corpus) -> list[tuple[int, str]]:
    """What the likeness model (flamer_ref/similar.py) learns from: per entry (numbered as in the
    index), its title, its keywords and its players' questions."""
    asked_by = asked_lists(corpus)
    docs = []
    for idx, (_id, _kind, title, _text, head, *_rest) in enumerate(entries_of(corpus)):
        for text in (title, head, *asked_by.get(_id, ())):
            if text and text.strip():
                docs.append((idx, text))
    return docs


def synonym_table(corpus) -> dict:
    """The thesaurus keyed by what a query word is reduced to (as jamo, no
    spaces): a noun as written (우리 편 → 우리편), a verb by its stem (때리다 →
    때리); values are [word, terms, weight, pos]."""
    out: dict[str, list] = {}
    for rec in getattr(corpus, "synonyms", {}).values():
        word = rec["word"]
        key = jamo(word[:-1] if rec["pos"] == "verb" else "".join(_words(word)))
        out.setdefault(key, []).append([word, list(rec["terms"]), rec["weight"], rec["pos"]])
    return out


def _name_forms(title: str, *aliases: str) -> set[str]:
    """The entry's title, the title's head before ' — ' and its other names, as
    jamo without spaces and as 초성: a query equal to one of them names the entry."""
    names = [title, *aliases] + ([title.split(" — ")[0]] if " — " in title else [])
    flat = ["".join(_words(t)) for t in names]
    return {f for f in (*(jamo(x) for x in flat), *(choseong(x) for x in flat)) if f}


_TABLES = ("jamo", "jamo_pairs", "cho", "cho_pairs")
#: tables a query seldom needs (초성, and pairs of words for a word typed with no space): the cache keeps
#: them in a file of their own, read only when a query asks for one
LAZY_TABLES = ("jamo_pairs", "cho", "cho_pairs")
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
        # keys as UTF-8 bytes: marshal loads bytes by copying, and a table a query never touches
        # (the pairs, usually) is never decoded
        out[name] = {"keys": "\x00".join(t["keys"]).encode("utf-8"), "lex_idx": array("I", t["lex_idx"]).tobytes(),
                     "lex_keys": "\x00".join(t["lex_keys"]).encode("utf-8"), "lens": array("H", t["lens"]).tobytes(),
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
        if key in ("keys", "lex_keys"):
            value = t[key].decode("utf-8").split("\x00") if t[key] else []
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
            if key not in packed:  # kept apart by the cache (LAZY_TABLES): read it now
                packed.update(self["_more"]())
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
    memo = dict.get(table, "_fuzzy")  # a page asks again for the words typed so far, keystroke by keystroke
    if memo is None:
        memo = table["_fuzzy"] = {}
    got = memo.get((token, cutoff))
    if got is not None:
        return list(got)
    hits = _fuzzy_scan(token, table, cutoff)
    if len(memo) < 4096:
        memo[(token, cutoff)] = tuple(hits)
    return hits


def _fuzzy_scan(token: str, table: dict, cutoff: float) -> list[tuple[int, float]]:
    from rapidfuzz import process

    from .fastfuzz import scorers

    ratio, partial_ratio = scorers()

    keys, lens = table["keys"], table["lens"]
    n = len(token)
    split = bisect_left(lens, n + 1)
    hits: list[tuple[int, float]] = []
    # longer words: is the token inside the word (a compound, a word with a
    # particle)? Found whole it is a little weaker than the word itself; found
    # with a jamo off (써야 in 있어야) it is weaker still
    one_syllable = syllable_count(token) <= 1
    # only a word that holds the token whole (partial_ratio 100), or, for a long token, its first two
    # jamo, can give a hit below: the others are not scored at all (the words kept come in the same
    # order, so extract ranks them as it ranked them among all: the same hits, far fewer pairs scored
    # where rapidfuzz is pure Python)
    if n >= 9:
        head = token[:2]
        near = [k for k in _reachable(token, table, split, len(keys), cutoff) if head in keys[k]]
    else:
        near = [k for k in range(split, len(keys)) if token in keys[k]]
    for _, score, j in process.extract(token, [keys[k] for k in near], scorer=partial_ratio,
                                       score_cutoff=cutoff, limit=None):
        i = near[j] - split
        key = keys[split + i]
        share = n / lens[split + i]
        at = key.find(token)
        if score >= 100.0 and _ends_syllable(key, at + n):
            if one_syllable and at > 0:
                continue  # 물 is not 기물's tail, 적 not 목적's: a one-syllable word starts the word it is in
            hits.append((split + i, score * (0.9 + 0.1 * share)))
        elif n >= 9 and token[:2] in key:
            # a misspelt word keeps its first sound (맞대웅 in 맞대응에): 데서 is not 셀에서, 걸 not 해결
            hits.append((split + i, score * (0.75 + 0.15 * share)))
    # words about as long, or a jamo or two longer (아면 → 앞면): edit distance
    lo, hi = bisect_left(lens, max(1, int(n * 0.6))), bisect_left(lens, n + 3)
    if lo < hi:
        # a typo keeps the first sound (업스면 ~ 없으면; 데로는 is not 확보는): the other words are not
        # scored (as above: the same hits in the same order)
        first = token[:1]
        near = [k for k in _reachable(token, table, lo, hi, cutoff) if keys[k][:1] == first]
        for _, score, j in process.extract(token, [keys[k] for k in near], scorer=ratio,
                                           score_cutoff=cutoff, limit=None):
            i = near[j] - lo
            # a longer word (라운드에 for 라운등) a little weaker than as long a one (라운드)
            hits.append((lo + i, score * (0.9 + 0.1 * n / lens[lo + i]) if lens[lo + i] > n else score))
    return hits


def _reachable(token: str, table: dict, lo: int, hi: int, cutoff: float) -> list[int]:
    """The indices in [lo, hi) of the table's words (sorted by length) that may score `cutoff` or more
    against the token with fuzz.ratio or fuzz.partial_ratio, in order; the others cannot. Both scores are
    200·LCS/(a+b) over the token and the word (or a window of it), which is at most 200·I/(m+I): I counts
    the token's jamo that the word has too (each at most as often as the word has it), an upper bound of
    the LCS, and m is the shorter of the two lengths. process.extract over the words kept gives the very
    list it gives over all of them (ties stay in order), without scoring the rest: in the browser, where
    rapidfuzz runs as pure Python, a query with a misspelt word scored some 100,000 pairs. I is counted
    for all words at once, on bitsets (bit i: word i) added bit-sliced."""
    if lo >= hi:
        return []
    bits = _char_bits(table)
    counts: dict[str, int] = {}
    for ch in token:
        counts[ch] = counts.get(ch, 0) + 1
    planes: list[int] = []  # the counters' bits, lowest first
    for ch, k in counts.items():
        levels = bits.get(ch, ())
        for j in range(min(k, len(levels))):  # words with the jamo at least j+1 times
            carry = levels[j]
            for p in range(len(planes)):
                planes[p], carry = planes[p] ^ carry, planes[p] & carry
                if not carry:
                    break
            if carry:
                planes.append(carry)

    def at_least(want: int) -> int:  # the words whose I is `want` or more
        if want <= 0:
            return -1
        if want >> len(planes):
            return 0
        ge, eq = 0, -1  # counters above `want` so far; equal so far (all bits set)
        for p in range(len(planes) - 1, -1, -1):
            if (want >> p) & 1:
                eq &= planes[p]
            else:
                ge |= eq & planes[p]
                eq &= ~planes[p]
        return ge | eq

    lens, n = table["lens"], len(token)
    found, a = 0, lo
    while a < hi:  # one length at a time: its own m, its own bound
        size = lens[a]
        b = min(bisect_left(lens, size + 1, a, hi), hi)
        want = -int(-(cutoff * min(n, size) / (200.0 - cutoff) - 1e-9) // 1)  # the least whole I that may do
        found |= at_least(want) & (((1 << b) - 1) ^ ((1 << a) - 1))
        a = b
    out = []
    while found:
        low = found & -found
        out.append(low.bit_length() - 1)
        found ^= low
    return out


def _char_bits(table: dict) -> dict[str, list[int]]:
    """jamo → [bitset of the table's words that have it at least once, at least twice, …] (made once)."""
    got = dict.get(table, "_chars")
    if got is None:
        keys = table["keys"]
        size = (len(keys) + 7) // 8
        maps: dict[str, list[bytearray]] = {}
        for i, key in enumerate(keys):
            seen: dict[str, int] = {}
            for ch in key:
                seen[ch] = c = seen.get(ch, 0) + 1
                levels = maps.setdefault(ch, [])
                if len(levels) < c:
                    levels.append(bytearray(size))
                levels[c - 1][i >> 3] |= 1 << (i & 7)
        got = {ch: [int.from_bytes(b, "little") for b in levels] for ch, levels in maps.items()}
        table["_chars"] = got
    return got


def _prefixed(token: str, table: dict) -> list[tuple[int, float]]:
    """Words that are the token or start with it (the token plus a particle or
    a compound's tail); empty when no word starts with the token."""
    lex_keys, lex_idx, lens = table["lex_keys"], table["lex_idx"], table["lens"]
    lemmas = dict.get(table, "_lemmas")  # words of keywords and names: 한도 is a word, not 한 + 도
    n = len(token)
    i = bisect_left(lex_keys, token)
    hits = []
    while i < len(lex_keys) and lex_keys[i].startswith(token):
        if _ends_syllable(lex_keys[i], n):
            vi = lex_idx[i]
            sc = 100.0 * (0.9 + 0.1 * n / lens[vi])
            rest = lex_keys[i][n:]
            if rest and (not is_ending(rest) or (lemmas is not None and lex_keys[i] in lemmas)):
                sc *= _OTHER_WORD  # 한 → 한도, 적 → 적용: another word, not the word with a particle
            hits.append((vi, sc))
        i += 1
    return hits


_OTHER_WORD = 0.9
_STEM_SCALE = 0.95  # a verb met in another form (열려 ~ 열리는)


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
            table_is_cho: bool = False, fuzzy: bool = True) -> list[tuple[dict, int, float, str]]:
    """Matches of one query form, (table, vocabulary index, score, how): exact or
    prefix hits when the form is a word of the corpus, else a fuzzy scan; pairs of
    words catch missing spaces (`pair` may be a function giving the table: it is
    fetched only when needed)."""
    hits = [(single, vi, sc, "exact" if sc >= 100.0 else "prefix") for vi, sc in _prefixed(token, single)]
    exact = any(h[2] >= 100.0 for h in hits)
    if not exact and fuzzy:
        hits += [(single, vi, sc, "fuzzy") for vi, sc in _fuzzy(token, single, cutoff)]
    best = max((h[2] for h in hits), default=0.0)
    if best < 90.0 or table_is_cho:  # 초성 are short: ㅈㅇㅅ is 지원사격 and 조우 셀 alike
        pair = pair() if callable(pair) else pair
        pair_hits = [(vi, sc, "joined") for vi, sc in _prefixed(token, pair)]
        if not pair_hits and fuzzy:
            pair_hits = [(vi, sc, "fuzzy") for vi, sc in _fuzzy(token, pair, cutoff)]
        hits += [(pair, vi, sc, how) for vi, sc, how in pair_hits]
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
        w = fix_shift(strip_chat(w))  # 됨ㅋㅋ → 됨, 떄려 → 때려
        if chat_noise(w):
            continue  # ㅋㅋ, ㅇㅇ: chat, not a 초성 search
        if len(w) > 1 and w[0] == "몇" and jamo(w) not in raw:
            w = w[1:]  # 몇번, 몇칸, 몇마리 → 몇 번, 몇 칸, 몇 마리
            out.append("몇")
        if w in COLLOQUIAL and jamo(w) not in raw:
            out.extend(COLLOQUIAL[w].split())  # 첨 → 처음, 머 → 뭐
            continue
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


_MAX_PIECE = 12  # syllables: longer than any word of the rules or thesaurus with its endings
_MAX_RUN = 40  # syllables: a longer run of Hangul without spaces is not cut into words (work stays bounded)


def _split_run_together(tokens: list[str], index: dict) -> list[str]:
    """Words typed without spaces that the corpus does not know as one or two words
    (돈얼마들어와, 움직여도됨, 갈수있어) cut into the fewest known pieces: words of the
    corpus (with their particles), words of the thesaurus (verbs by their stem) and
    question words."""
    raw = index["_raw_set"]
    syn = index.get("synonyms") or {}

    memo: dict[str, bool] = {}

    def known(p: str) -> bool:
        if p not in memo:
            memo[p] = _known(p)
        return memo[p]

    def _known(p: str) -> bool:
        if len(p) > _MAX_PIECE:
            return False  # no word of the rules or the thesaurus is that long: not worth the stems
        if is_question_word(p) or p in _SPLIT_WORDS:
            return True
        j = jamo(p)
        if j in syn or any(h in syn for h in ending_heads(j, syn)) or any(v in syn for v in verb_stems(j)):
            return True
        if len(p) < 2:
            return False
        head = j if j in raw else strip_ending(j, raw)
        return bool(head) and syllable_count(head) >= 2

    out = []
    for tok in tokens:
        j = jamo(tok)
        if len(tok) < 3 or len(tok) > _MAX_RUN or not all(is_syllable(c) for c in tok) or j in raw or strip_ending(j, raw) \
                or known(tok) or _prefixed(j, index["jamo_pairs"]):
            out.append(tok)
            continue
        best = None
        n = len(tok)
        for a in range(1, n):
            if not known(tok[:a]):
                continue
            if known(tok[a:]):
                cand = [tok[:a], tok[a:]]
            else:
                cand = next(([tok[:a], tok[a:b], tok[b:]] for b in range(n - 1, a, -1)
                             if known(tok[a:b]) and known(tok[b:])), None)
            if cand and (best is None or len(cand) < len(best)):
                best = cand
        if best is None and n >= 4:
            # one piece known and the other two syllables or more (a misspelt word: 건물부셔지면,
            # 스텍칸마다): cut off the longest known piece at either end
            cuts = [(a, [tok[:a], tok[a:]]) for a in range(2, n - 1) if known(tok[:a]) and len(tok) - a >= 2] \
                + [(n - a, [tok[:a], tok[a:]]) for a in range(2, n - 1) if known(tok[a:])]
            if cuts:
                best = max(cuts, key=lambda c: c[0])[1]
        # a piece may itself be words run together (이동턴에카드깔아도됨 → 이동턴에 + 카드깔아도됨 → …)
        out.extend(_split_run_together(best, index) if best else [tok])
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


_NOUN_PARTICLES = frozenset(("은", "는", "이", "가", "을", "를", "의", "에", "에서", "에게", "으로", "로", "와", "과", "도",
                             "이랑", "랑", "한테", "까지", "부터", "만", "이나", "나"))
_SOUND_ALIKE = (("ㅔ", "ㅐ"), ("ㅐ", "ㅔ"), ("ㅇㅠㄹ", "ㄹㅠㄹ"), ("ㄹㅠㄹ", "ㅇㅠㄹ"), ("ㅇㅕㄹ", "ㄹㅕㄹ"),
                ("ㄹㅕㄹ", "ㅇㅕㄹ"))


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
    if j not in raw:
        # sounds typed for each other: ㅔ/ㅐ (스텍 → 스택, 언재 → 언제), 율/률 and 열/렬 (동율 → 동률)
        for alt in (j.replace(a, b) for a, b in _SOUND_ALIKE if a in j):
            if alt != j and (alt in raw or strip_ending(alt, raw)):
                main, forms = _head_of(alt, index)
                return [("jamo", f) for f in forms] + [("jamo", j)], float(max(len(main), 2))
    if not may_carry_ending(token):  # 정착, 기물: no ending to look for (but 열려 may be 열리다's)
        return [("jamo", j)] + _stem_forms(j, index, {j}), float(max(len(j), 2))
    main, forms = _head_of(j, index)
    if main == j and j not in raw:
        # an unknown (misspelt) word with a particle on it (반걱은): the word without it is what to correct
        bare = strip_particle(token)
        if bare and token[len(bare):] in _NOUN_PARTICLES and syllable_count(jamo(bare)) >= 2:
            return [("jamo", jamo(bare)), ("jamo", j)], float(max(len(jamo(bare)), 2))
    weight = len(main)
    if main == j and j not in _lemma_set(index):
        cut = ending_length(j)
        weight -= cut  # 정하나요, 없으면: the ending says little
        if cut and j not in raw and syllable_count(j[:-cut]) >= 2 and _prefixed(j[:-cut], index["jamo"]):
            # a verb stem the corpus has in another form (뒤집으면 → 뒤집기, 들어가면 →
            # 들어가): looked up as a prefix, and weighing half, as the nouns say more
            return [("jamo", j[:-cut]), ("jamo", j)] + _stem_forms(j, index, {j[:-cut], j}), max(weight * 0.5, 2.0)
    out = [("jamo", f) for f in forms]
    if main == j:
        out += _stem_forms(j, index, set(forms))
    return out, float(max(weight, 2))


def _stem_forms(j: str, index: dict, seen: set) -> list[tuple[str, str]]:
    """A conjugated verb's stem when the corpus has the verb in another form
    (열려 → 열리: 열리는; 움직여 → 움직이: 움직이는), looked up as a prefix."""
    out = []
    table = index["jamo"]
    for stem in verb_stems(j):
        if stem in seen or syllable_count(stem) < 2 or len(stem) >= len(j) + 2:
            continue
        lex = table["lex_keys"]
        i = bisect_left(lex, stem)
        while i < len(lex) and lex[i].startswith(stem):
            rest = lex[i][len(stem):]
            if rest and is_ending(rest) or rest in _VERB_TAILS:
                out.append(("stem", stem))
                seen.add(stem)
                break
            i += 1
    return out[:2]


_VERB_TAILS = frozenset(jamo(e) for e in ("는", "ㄴ다", "ㅂ니다", "면", "고", "지", "ㄹ", "ㄴ", "며", "어", "아", "기",
                                          "게", "려면", "었다", "았다", "어야", "아야", "도록", "ㄹ수", "ㄴ다면"))


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
               "조항": "clause", "뭐라": "term", "뭐라고": "term", "명칭": "term",  # 그걸 뭐라 함 → the term
               "장면": "example", "그림보드": "example"}  # 장면 5, 그림보드: the rulebook's worked examples
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


def _credit(hits, best: dict, best_title: dict, src: dict | None = None, tag=None) -> None:
    """Fold hits into the token's best score per entry (any field, and title or
    keywords); `src` keeps, per entry, where the best came from (for --explain)."""
    for hit in hits:
        table, vi, score = hit[0], hit[1], hit[2]
        for p in table["post"][vi]:
            fld = p & 3
            s = score * _FIELD_WEIGHT[fld]
            e = p >> 2
            if s > best.get(e, 0.0):
                best[e] = s
                if src is not None:
                    src[e] = (tag or hit[3], table["keys"][vi], fld)
            if fld < BODY and s > best_title.get(e, 0.0):
                best_title[e] = s


# question words that carry an intent (they count for nothing as words)
_WHEN_MARKS = ("턴", "단계", "시점", "순간", "때", "타이밍", "직전", "직후", "처음", "동안", "다음")
_WHEN_BONUS = 6.0


def _is_when(tok: str) -> bool:
    """언제, 언제부터, 언제함, and 언재 (ㅔ typed as ㅐ): a question about timing."""
    return tok.replace("재", "제").startswith("언제")


_ASK_INTENTS = (
    (("누가", "누구", "누굴", "누군"), ("공격자", "수비자", "턴 플레이어", "순서", "먼저", "선공", "대상", "연다"), 4.0),
    (("몇",), ("한도", "상한", "MOV", "매수", "곳수", "회차", "반복", "거리", "자리", "가치", "일곱", "두 곳", "한 번",
              "1회", "2", "3", "5", "7"), 4.0),
    (("어디",), ("셀", "자리", "트래쉬", "영역", "배치", "위치", "보드"), 4.0),
)
_LIMIT_MARKS = ("불가", "없음", "없다", "않는다", "않", "의무", "필수", "종료", "금지", "한도", "만 ", "뿐", "아님")
_LIMIT_BONUS = 4.0
# one-syllable words a question runs into the next (싸움몇 번, 꼭깔아둬야, 붙으면그 싸움)
_SPLIT_WORDS = frozenset(("몇", "꼭", "그", "저", "한", "두", "세", "각", "총", "새", "딴", "첫", "잘", "다시"))
_TITLE_SHARE = 0.45  # share of the score from title and keyword hits (measured on 500 tune questions: 0.35-0.5 alike, 0.45 best; 0.65 worse)
_WHY = frozenset(("왜", "왜요", "왜죠", "왜지", "왜냐", "왜냐면", "어째서"))
_DATE_ANY = r"(\d{1,2})\s*(?:월\s*|[/.-])(\d{1,2})\s*일?"
_SYN_FUZZY = 80.0  # a misspelt everyday word (드러와 → 들어오다, 부셔지면 → 부서지다)
_SYN_SCALE = 0.97  # a synonym's hit weighs a little less than the word itself
_WHY_BONUS, _DATE_BONUS, _CARD_BONUS = 12.0, 35.0, 6.0
# "what is X" (조우가 뭔 말이야, 확보 뜻, 앞면 상태를 뭐라고 불러, 수비자는 누구 말하는 거야): the glossary
# term that defines the word comes first, then the clause whose title opens with it
_DEF_MARKS = ("뜻", "뭔말", "무슨말", "뭐라고", "뭐라함", "뭐라해", "뭐라불", "누구말", "누굴말", "정의", "개념")
_DEF_TAILS = ("뭐야", "뭐임", "뭐예요", "뭐에요", "뭔데", "뭐지", "뭐냐", "뭔가요", "무엇인가요", "무엇")
_DEF_BONUS = 12.0
_SCENE_BONUS = 20.0
_IDF_FLOOR = 0.2
_LEN_POWER = 0.5  # a word weighs √(its length in jamo) times its idf (measured on 700 tune questions: 0.3–0.6 alike, 1.0 lower)
_EXAMPLE_DAMP, _RULING_DAMP = 8.0, 3.0  # points off an example's and a ruling's score (measured)
#: the weight of how much a query of two words or more reads like the entry's players' questions (similar.py),
#: against the words' score, which weighs 1 (top 3 of 700 tune questions: 0 → 93.7%, 1.0 → 96.9%,
#: 1.2 and 1.5 → 97.4%, 2.0 → 96.7%, 2.5 → 96.9%)
_SIM_SHARE = 1.2
_SIM_MIN_WORDS = 2
_SIM_ONLY = 30  # at most this many entries enter the ranking by likeness alone
WEAK_SCORE = 40.0  # below this the best result is shown as 'the closest', not as the answer (measured on 700 tune questions: 6% of them fall below, and their first result is right half as often as the rest)


def _synonyms_for(tokens: list[str], index: dict) -> list[list[tuple[str, str, float, str]]]:
    """Per query word, the thesaurus entries it stands for: (everyday word, rulebook
    term, weight, how the word was reduced). A noun loses its particles (돈은 → 돈),
    a verb its endings (때려 → 때리다, 부서지면 → 부서지다); two words may make one
    entry (우리 편이, 뒷면 애는); an unknown word may be a misspelt one (드러와)."""
    table = index.get("synonyms") or {}
    out: list[list] = [[] for _ in tokens]
    if not table:
        return out
    keys = index.get("_syn_keys")
    if keys is None:
        keys = index["_syn_keys"] = frozenset(table)
    raw = index["_raw_set"]

    def add(i, key, how):
        for word, terms, weight, _pos in table[key]:
            for term in terms:
                item = (word, term, weight, how)
                if item[:2] not in [x[:2] for x in out[i]]:
                    out[i].append(item)

    forms_of = []
    for i, tok in enumerate(tokens):
        j = jamo(tok)
        if is_question_word(tok) and not any(p == "noun" for *_, p in table.get(j, ())):
            forms_of.append((j, [], []))
            continue  # 내 (my) is not 내다, 하나요 not 하다
        nouns = ([j] if j in keys else []) + [h for h in ending_heads(j, keys) if h != j]
        stems = verb_stems(j) + ([j] if j.endswith("ㄹ") else [])  # 걸 때, 열 때: an ㄹ-stem as it is
        verbs = [s for s in stems if s in keys and any(p == "verb" for *_, p in table[s])]
        for key in nouns:
            if any(p == "noun" for *_, p in table[key]):
                add(i, key, "synonym")
        for key in verbs:
            add(i, key, "synonym")
        forms_of.append((j, nouns, verbs))
    for i in range(len(tokens) - 1):  # 우리 편이, 뒷면 애는, 몇 칸, 막는 쪽은; 땅 먹으면 (땅먹다)
        j = jamo(tokens[i] + tokens[i + 1])
        for key in ([j] if j in keys else []) + ending_heads(j, keys):
            if any(p == "noun" for *_, p in table[key]) and len(key) > len(jamo(tokens[i])):
                add(i, key, "synonym")
                add(i + 1, key, "synonym")
        for key in verb_stems(j):
            if key in keys and len(key) > len(jamo(tokens[i])) and any(p == "verb" for *_, p in table[key]):
                add(i, key, "synonym")
                add(i + 1, key, "synonym")
    for i, tok in enumerate(tokens):
        j, nouns, verbs = forms_of[i]
        if out[i] or is_question_word(tok) or j in raw or strip_ending(j, raw) or syllable_count(j) < 2:
            continue
        from rapidfuzz import process

        from .fastfuzz import scorers

        long_table = dict.get(index, "_syn_long")
        if long_table is None:  # the everyday words of two syllables or more, by length (a set has no order)
            long_keys = sorted((k for k in keys if syllable_count(k) >= 2), key=lambda k: (len(k), k))
            long_table = index["_syn_long"] = {"keys": long_keys, "lens": [len(k) for k in long_keys]}
        long_keys = long_table["keys"]
        bare = strip_particle(tok)
        cands = {j, *([jamo(bare)] if bare else []), *(s for s in verb_stems(j) if syllable_count(s) >= 2)}
        found = {}
        for c in cands:
            near = [long_keys[k] for k in _reachable(c, long_table, 0, len(long_keys), _SYN_FUZZY)]
            for key, sc, _ in process.extract(c, near, scorer=scorers()[0], score_cutoff=_SYN_FUZZY, limit=3):
                if key[0] != c[0] or abs(len(key) - len(c)) > 2:
                    continue  # a typo keeps the first sound and about the length (드러와 ~ 들어오)
                is_verb = any(p == "verb" for *_, p in table[key])
                if (is_verb and c == j and c != key) or (not is_verb and c != j and (not bare or c != jamo(bare))):
                    continue  # a stem is a verb's, the word as typed a noun's
                found[key] = max(found.get(key, 0.0), sc)
        # the best; among equals the first in order (the candidates come from a set: their order would
        # otherwise depend on the process's string hashing, and so would the answer)
        for key in sorted(found, key=lambda k: (-found[k], k))[:1]:
            add(i, key, "synonym+fuzzy")
    return out


def _everyday_table(synonyms: dict) -> dict:
    """The thesaurus read backwards: rulebook term (jamo) → [(everyday key, word, term, weight)] (a verb
    by its stem); built with the index, so a cold query does not pay for it."""
    rev: dict[str, list] = {}
    for key, recs in synonyms.items():
        for word, terms, weight, _pos in recs:
            for term in terms:
                if len(_words(term)) == 1:
                    rev.setdefault(jamo(term), []).append((key, word, term, weight))
    return rev


def _everyday_words(index: dict) -> dict:
    rev = index.get("everyday")
    if rev is None:  # an index built without it (a test's hand-made index)
        rev = index["everyday"] = _everyday_table(index.get("synonyms") or {})
    return rev


def _credit_asked_everyday(variants, index: dict, best: dict, src: dict) -> None:
    """A rulebook word in the query (정착한) also finds the players' questions (질문 예) that say it in
    everyday words (뒷면 애도 움직여?): the thesaurus backwards, in the ASKED field only."""
    rev = _everyday_words(index)
    if not rev:
        return
    table = index["jamo"]
    for mode, form in variants[:1]:
        if mode != "jamo" or form not in rev:
            continue
        for key, word, term, weight in rev[form]:
            scale = _SYN_SCALE * (0.7 + 0.3 * weight) * _FIELD_WEIGHT[ASKED]
            for vi, sc in _prefixed(key, table):
                rest = table["keys"][vi][len(key):]
                if rest and not (is_ending(rest) or rest in _VERB_TAILS):
                    continue
                for p in table["post"][vi]:
                    if p & 3 != ASKED:
                        continue
                    e, s = p >> 2, sc * scale
                    if s > best.get(e, 0.0):
                        best[e] = s
                        # the player typed the term; the everyday word is the hidden question's (never shown as
                        # a synonym the query used: "synonym-asked")
                        src[e] = (("synonym-asked", key, word, term), table["keys"][vi], ASKED)


def _compose(j: str) -> str:
    """Jamo (keystroke form) back to Hangul syllables, for showing a vocabulary word."""
    from .korean import _CHO, _JONG, _JUNG, _KEYSTROKES

    pairs = {v: k for k, v in _KEYSTROKES.items()}
    out, i, n = [], 0, len(j)
    while i < n:
        c = j[i]
        if c in _CHO and i + 1 < n and j[i + 1] in VOWELS:
            v, i = j[i + 1], i + 2
            if i < n and j[i] in VOWELS and pairs.get(v + j[i], "-") in _JUNG:
                v, i = pairs[v + j[i]], i + 1
            f = ""
            if i < n and j[i] in _JONG[1:] and not (i + 1 < n and j[i + 1] in VOWELS):
                f, i = j[i], i + 1
                if i < n and pairs.get(f + j[i], "-") in _JONG and not (i + 1 < n and j[i + 1] in VOWELS):
                    f, i = pairs[f + j[i]], i + 1
            out.append(chr(0xAC00 + (_CHO.index(c) * 21 + _JUNG.index(v)) * 28 + _JONG.index(f)))
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _renewed(index: dict, call):
    """call() over an index read from the cache, whose UTF-8 parts (titles, texts, table keys) are
    decoded when a query first needs them: bytes there that do not decode mean a damaged cache file,
    never a crash. The index is rebuilt in place (searchindex._renew_index, set as "_renew" by
    searchindex.load_index) and the call made again, once."""
    try:
        return call()
    except UnicodeDecodeError:
        renew = dict.get(index, "_renew")
        if renew is None:  # not from a cache, or already rebuilt: a real error
            raise
        renew()
        return call()


def search(index: dict, query: str, *, kind: str | None = None, limit: int = 10,
           as_of: str | None = None, details: bool = False) -> list[dict]:
    """Rank every entry for the query; `index` comes from searchindex.load_index().
    With `details`, each result also says which everyday word matched which
    rulebook term (`matched_via`) and, per query word, how it matched (`explain`)."""
    return _renewed(index, lambda: _search(index, query, kind=kind, limit=limit, as_of=as_of, details=details))


def _search(index: dict, query: str, *, kind: str | None, limit: int, as_of: str | None,
            details: bool) -> list[dict]:
    """The steps of a search, in order: read the query (a rule number names its clause), cut it into
    words and say which are question words; match each word against the vocabulary (and the thesaurus,
    the players' questions); credit words that make one word of the rules together; weigh each word by
    its rarity; score every entry (words and likeness); steer by the kinds and intents the query shows;
    rank (an entry named by the query first); report the leading entries. Full-width forms and other
    scripts' digits are read as ASCII first (digits.fold: ６.２６ and ９월 ２４일 as typed in ASCII)."""
    from .digits import fold

    q, only = _read_number(fold(query), index)
    tokens = _split_run_together(_query_words(q, index["_raw_set"]), index)
    tokens = [t for i, t in enumerate(tokens) if not i or t != tokens[i - 1]]  # 따로따로, 계속 계속: once
    exact = {eid: i for i, eid in enumerate(index["ids"])}
    if not tokens and q not in exact:
        return []
    if dict.get(index["jamo"], "_lemmas") is None:
        index["jamo"]["_lemmas"] = _lemma_set(index)
    m = _Matches(index, q, tokens)
    _match_words(index, m)
    _credit_synonym_compounds(index, m)
    _credit_joined_words(index, m)
    _weigh_by_rarity(index, m)
    results, sim, share = _score_entries(index, q, m)
    results, defq = _steer(index, q, m, results)
    ranked = _rank(index, m, results, exact.get(q, -1), kind, as_of, defq)
    return _report(index, ranked, m, sim, share, only, limit, details)


def _read_number(query: str, index: dict) -> tuple[str, str | None]:
    """The query, and the clause a rule number (6.26, 해석 6.14-1) names alone (else None)."""
    q = query.strip()
    numbers = index.get("numbers") or {}
    typed = "".join(q.split()).removeprefix("해석").rstrip(".")
    if typed in numbers:
        return numbers[typed], numbers[typed]
    return q, None


class _Matches:
    """What each query word matches, filled in by the steps of _search: per word its forms
    (`looked`, `all_variants`), whether it is a question word (`stops`), its thesaurus entries (`syns`),
    its weight, the corpus word a misspelt word stands for (`corrected`), and the best score per entry
    (`per_token`: all fields, title and keywords) with where it came from (`sources`)."""

    def __init__(self, index: dict, q: str, tokens: list[str]):
        self.tokens = tokens
        self.looked = [_variants(tok, index) for tok in tokens]
        self.all_variants = [v for v, _ in self.looked]
        self.stops, self.forced = _question_words(q, tokens)
        self.syns = _synonyms_for(tokens, index)
        self.weights: list[float] = []
        self.corrected: list[str] = []
        self.per_token: list[tuple[dict, dict]] = []
        self.unknown: list[bool] = []  # a word neither the rules nor the thesaurus know (a typo to correct)
        self.sources: list[dict] = []
        self.modes = [v[0][0] for v in self.all_variants]
        self.surface = [_surface(t, v) for t, v in zip(tokens, self.all_variants)]


def _question_words(q: str, tokens: list[str]) -> tuple[list[bool], list[bool]]:
    """Which words only ask (어떻게, 왜, 언제, a date …: they count for nothing unless the query has nothing
    else), and which of them are forced so by their neighbours."""
    dates = _dates_in(q)
    date_words = {str(x) for md in dates for x in md}
    stops = [is_question_word(tok) or tok in _WHY or _is_when(tok) or tok in date_words for tok in tokens]
    # 질 거 같으면, 이길것 같은데: '같다' after 거/것 says 'it seems', not 'equal' (동률)
    forced = [i > 0 and t.startswith("같") and tokens[i - 1].endswith(("거", "것", "걸")) for i, t in enumerate(tokens)]
    if any(m in "".join(q.split()) for m in ("뭔말", "무슨말", "누구말", "누굴말", "어떤말")):
        # 뭔 말이야, 누구 말하는 거야: '말' is the idiom's (what is meant), not a piece (말 = 기물)
        forced = [f or t.startswith("말") for f, t in zip(forced, tokens)]
    stops = [s or f for s, f in zip(stops, forced)]
    if all(stops):
        stops = [False] * len(tokens)
    return stops, forced


def _match_words(index: dict, m: _Matches) -> None:
    """Each word against the vocabulary: its forms (exact, prefix, fuzzy, 초성, a verb's stem), the
    thesaurus's terms for it, and the players' everyday questions."""
    for tok, (variants, tok_weight), stop, syn in zip(m.tokens, m.looked, m.stops, m.syns):
        best: dict[int, float] = {}
        best_title: dict[int, float] = {}
        src: dict = {}
        if stop and syn and not _is_when(tok) and not all(s[3] == "synonym+fuzzy" for s in syn) \
                and not m.forced[len(m.weights)]:
            stop = False  # 어디: a question word the thesaurus gives a meaning to
        m.weights.append(tok_weight ** _LEN_POWER * (_STOP_WEIGHT if stop else 1.0))
        _credit_kind_word(index, tok, stop, best, best_title, src)
        fixed = _match_forms(index, m, tok, variants, syn, best, best_title, src)
        if m.weights[-1]:
            _credit_synonyms(index, syn, best, best_title, src)
        if m.weights[-1] and not stop:
            _credit_asked_everyday(variants, index, best, src)
        m.per_token.append((best, best_title))
        m.sources.append(src)
        m.corrected.append(fixed)


def _credit_kind_word(index: dict, tok: str, stop: bool, best: dict, best_title: dict, src: dict) -> None:
    """예시, 판정, 용어 …: the word names a kind of entry, which it then matches."""
    kind_of = _KIND_WORDS.get(tok.lower()) or _KIND_WORDS.get(strip_particle(tok) or "")
    if kind_of and not stop:
        for e, k in enumerate(index["kinds"]):
            if k == kind_of:
                best[e] = best_title[e] = 100.0
                src[e] = ("kind", jamo(tok), TITLE)


def _match_forms(index: dict, m: _Matches, tok: str, variants, syn, best: dict, best_title: dict, src: dict) -> str:
    """The word's forms against the vocabulary; returns the word of the corpus a misspelt word stands for.
    (Sets the word's `unknown` flag and, for a word only the thesaurus knows, its weight.)"""
    raw = index["_raw_set"]
    # a word the corpus does not know but the thesaurus does (때려, 드러와) is not
    # hunted for typos among the rules' words: the thesaurus says what it means
    known = variants[0][0] == "cho" or any(f in raw for _, f in variants) or bool(strip_ending(jamo(tok), raw))
    fuzzy_ok = known or not syn or all(x[3] == "synonym+fuzzy" for x in syn)
    m.unknown.append(not known and not syn)
    if syn and not known and m.weights[-1]:
        # a word the rules never use weighs what its thesaurus entry says it means (가다 → 이동: 0.3)
        # and as long as the thesaurus word, not the endings typed on it (정해짐 → 정해지)
        base = max(len(jamo(w[:-1] if w.endswith("다") and " " not in w else "".join(w.split())))
                   for w, *_ in syn)
        m.weights[-1] = min(m.weights[-1], float(max(base, 2))) * max(w for _, _, w, _ in syn)
    fixed = (0.0, variants[0][1])  # the word of the corpus a misspelt word stands for
    for nth, (mode, form) in enumerate(variants if m.weights[-1] else ()):
        if nth and fixed[0] >= 90.0 and form not in raw and mode != "stem":
            continue  # no typo hunt for a further form (the letters of wjdckr) once one matched well
        if mode == "cho":
            hits = [(t, vi, sc, "choseong") for t, vi, sc, _ in
                    _lookup(form, index["cho"], index["cho_pairs"], _CHO_CUTOFF, True)]
        elif mode == "stem":
            tbl = index["jamo"]
            hits = [(tbl, vi, sc * _STEM_SCALE, "lemma") for vi, sc in _prefixed(form, tbl)
                    if tbl["keys"][vi][len(form):] in _VERB_TAILS or is_ending(tbl["keys"][vi][len(form):])]
        else:
            # one jamo wrong in a one-syllable word (텬 → 턴) scores 66.7
            hits = _lookup(form, index["jamo"], lambda: index["jamo_pairs"], 66.0 if len(form) == 3 else _JAMO_CUTOFF,
                           fuzzy=fuzzy_ok)
            if form != jamo(tok):
                hits = [(t, vi, sc, "lemma" if how in ("exact", "prefix") else how) for t, vi, sc, how in hits]
            for table, vi, sc, _ in hits:
                # the correction is a word of the rules (a players' question may carry the same typo)
                if sc > fixed[0] and table is index["jamo"] and table["keys"][vi] in raw:
                    fixed = (sc, table["keys"][vi])
        _credit(hits, best, best_title, src)
    return fixed[1]


def _credit_synonyms(index: dict, syn, best: dict, best_title: dict, src: dict) -> None:
    """The rulebook terms the thesaurus gives for the word, and a verb's other forms in the rules."""
    for word, term, weight, how in syn:
        form = jamo("".join(_words(term)))
        table = index["jamo"] if len(_words(term)) == 1 else index["jamo_pairs"]
        scale = _SYN_SCALE * (0.7 + 0.3 * weight)  # a loose synonym (weight 0.6) still counts
        hits = [(table, vi, sc * scale) for vi, sc in _prefixed(form, table)]
        _credit(hits, best, best_title, src, (how, form, word, term))
    for word, term, weight, how in syn:
        if word.endswith("다") and how.startswith("synonym") and " " not in word:
            # the verb itself may be in the rules in another form (들어가먄 → 들어가다: 들어가면)
            for _, stem in _stem_forms(jamo(word[:-1]) + "ㄷㅏ", index, set()):
                _credit([(index["jamo"], vi, sc * _STEM_SCALE, "synonym")
                         for vi, sc in _prefixed(stem, index["jamo"])
                         if is_ending(index["jamo"]["keys"][vi][len(stem):])
                         or index["jamo"]["keys"][vi][len(stem):] in _VERB_TAILS],
                        best, best_title, src, ("synonym", stem, word, word))


def _credit_synonym_compounds(index: dict, m: _Matches) -> None:
    """A synonym's term and the next word may make one word of the rules (뽑는 턴 → 생산턴, 싸움 턴 →
    전투턴): credited to both words."""
    raw = index["_raw_set"]
    tokens, syns, weights, per_token, sources = m.tokens, m.syns, m.weights, m.per_token, m.sources
    for t in range(len(tokens) - 1):
        if not syns[t] or not weights[t]:
            continue
        nxt = jamo(tokens[t + 1])
        tails = {nxt, *ending_heads(nxt, raw)}
        for word, term, weight, how in syns[t]:
            if len(_words(term)) != 1:
                continue
            for tail in tails:
                form = jamo(term) + tail
                hits = [(index["jamo"], vi, sc * _SYN_SCALE) for vi, sc in _prefixed(form, index["jamo"])]
                for u in (t, t + 1):
                    _credit(hits, per_token[u][0], per_token[u][1], sources[u], (how, form, word, _compose(form)))


def _credit_joined_words(index: dict, m: _Matches) -> None:
    """Words typed apart that are one word of the corpus (잠입 건설, 피의 장막, 대응 턴): the joined form's
    exact or prefix matches count for each of them."""
    n, modes, surface, all_variants = len(m.tokens), m.modes, m.surface, m.all_variants
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
            jsrc: dict = {}
            for form in forms:
                _credit([(table, vi, sc, "joined") for vi, sc in _prefixed(form, table)], jbest, jtitle, jsrc)
            for t in range(i, k):
                best, best_title = m.per_token[t]
                for e, sc in jbest.items():
                    if sc > best.get(e, 0.0):
                        best[e] = sc
                        m.sources[t][e] = jsrc[e]
                for e, sc in jtitle.items():
                    if sc > best_title.get(e, 0.0):
                        best_title[e] = sc


def _weigh_by_rarity(index: dict, m: _Matches) -> None:
    """Rare, specific words weigh more than common ones (BM25's idf): a word that matches well in most
    entries (카드, 기물) says less than one that matches few."""
    total = max(len(index["ids"]), 1)
    idf_max = _idf(0, total)
    for t, (best, _) in enumerate(m.per_token):
        if m.weights[t]:
            # a misspelt word corrected (반걱 → 반격: 83) matches as well as it can: 'well' is near its best
            top = max(best.values(), default=0.0) if m.unknown[t] else 100.0
            df = sum(1 for sc in best.values() if sc >= (85.0 if top >= 90.0 or top < 75.0 else top - 5.0))
            # a word that matches no entry well (얼마, a word the rules never use) is noise
            m.weights[t] *= max(_idf(df, total) / idf_max, _IDF_FLOOR) if df else _IDF_FLOOR


def _score_entries(index: dict, q: str, m: _Matches) -> tuple[list, dict, float]:
    """Every entry's score: a weighted mean of the words' scores (title and keywords apart) mixed with how
    much the query reads like the entry's players' questions (similar.py); a lookup of one word is decided
    by that word alone. Returns [(entry, score)], the likeness per entry and its share."""
    total_w = sum(m.weights)
    scores: dict[int, float] = {}
    title_scores: dict[int, float] = {}
    for weight, (best, best_title) in zip(m.weights, m.per_token):
        for e, s in best.items():
            scores[e] = scores.get(e, 0.0) + weight * s
        for e, s in best_title.items():
            title_scores[e] = title_scores.get(e, 0.0) + weight * s
    share = _SIM_SHARE if sum(1 for s in m.stops if not s) >= _SIM_MIN_WORDS else 0.0
    sim = _similarity(index, q) if share else {}
    results = []
    # entries no query word matched come in by likeness alone when they are among the likest
    likest = sorted(sim, key=sim.__getitem__, reverse=True)[:_SIM_ONLY] if sim else ()
    for e in scores.keys() | set(likest):
        s = scores.get(e, 0.0)
        score = ((1 - _TITLE_SHARE) * s + _TITLE_SHARE * title_scores.get(e, 0.0)) / total_w if total_w else 0.0
        results.append((e, (score + share * 100.0 * sim.get(e, 0.0)) / (1.0 + share)))
    return results, sim, share


def _steer(index: dict, q: str, m: _Matches, results: list) -> tuple[list, bool]:
    """The kinds and intents the query shows: examples and rulings a little lower unless asked for, the
    question's intent (when, why, who, a definition …), the query's words side by side in a title.
    Returns the results and whether the query asks what a word means."""
    tokens, stops, all_variants, kinds = m.tokens, m.stops, m.all_variants, index["kinds"]
    # an example retells a clause in many words and matches a question's loose words in its
    # long body: the clause (or FAQ) that states the rule goes first when they score alike
    # (a ruling likewise, unless the question names its date); not when the query asks for that kind
    named_kinds = {_KIND_WORDS.get(t.lower()) or _KIND_WORDS.get(strip_particle(t) or "") for t in tokens}
    damp = {k: v for k, v in (("example", _EXAMPLE_DAMP), ("ruling", _RULING_DAMP)) if k not in named_kinds}
    if damp:
        results = [(e, sc - damp.get(kinds[e], 0.0)) for e, sc in results]
    defq = _asks_definition(q, tokens, stops)  # "what is X": glossary bonus here, glossary first in the ranking
    results = _intents(index, q, tokens, stops, m.per_token, m.weights, results, [v[0][1] for v in all_variants], defq)
    content = [v[0][1] for v, stop in zip(all_variants, stops) if not stop]
    if len(content) > 1:
        # the query's words side by side in the title or keywords: a small bonus,
        # checked for the leading candidates only (it cannot lift others past them)
        heads, flat = index["heads"], "".join(content)
        results.sort(key=lambda es: -es[1])
        results = [(e, sc + 5.0) if _in_order(content, flat, heads[e]) else (e, sc) for e, sc in results[:200]] \
            + results[200:]
    return results, defq


def _rank(index: dict, m: _Matches, results: list, named: int, kind: str | None, as_of: str | None,
          defq: bool) -> list[tuple]:
    """The entries in order: by score (capped at 100, an id typed in full first), then kind; those of
    another kind than asked, or rulings after `as_of`, left out; among the leaders, an entry whose title
    is the query itself first."""
    ids, kinds = index["ids"], index["kinds"]
    excluded = {rid for rid, date in index["ruling_dates"].items() if date > as_of} if as_of else set()
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
        kr = -1 if defq and ekind == "term" else _KIND_RANK[ekind]  # "what is X": the glossary first
        ranked.append((-(score if score < cap else cap), kr, -score, eid, e))
    ranked.sort()
    if ranked and m.tokens:
        ranked = _title_first(index, m, ranked)
    return ranked


def _title_first(index: dict, m: _Matches, ranked: list[tuple]) -> list[tuple]:
    """An entry whose title is the query itself (대응 턴 → 대응턴, ㅈㄴㅍㄱ → 진내폭격) comes first among
    those scored within 5 points of the best."""
    tokens, stops, modes, surface, all_variants = m.tokens, m.stops, m.modes, m.surface, m.all_variants
    keep = [i for i in range(len(tokens)) if not stops[i]]
    wanted = {"".join(surface[i] for i in keep), "".join(all_variants[i][0][1] for i in keep),
              "".join(m.corrected[i] for i in keep)}
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
    return ranked


def _report(index: dict, ranked: list[tuple], m: _Matches, sim: dict, share: float, only: str | None,
            limit: int, details: bool) -> list[dict]:
    """The leading entries as results (a clause with its number; with `details`, how each matched)."""
    ids, kinds, titles, texts = index["ids"], index["kinds"], index["titles"], index["texts"]
    numbers = index.get("numbers") or {}
    numbered = {cid: num for num, cid in numbers.items() if "-" not in num}  # clause id → its number
    handles = index.get("handles") or {}
    if only is not None:
        ranked = [r for r in ranked if r[3] == only]
    total_w = sum(m.weights)
    out = []
    for neg, _, _, eid, e in ranked[:limit]:
        r = {"id": eid, "kind": kinds[e], "title": titles[e], "text": texts[e], "score": round(min(-neg, 100.0), 1)}
        if kinds[e] == "clause" and numbered.get(eid):
            r["number"] = numbered[eid]
        if eid in handles:
            r["ref"] = handles[eid]
        if details:
            r["matched_via"], r["explain"] = _provenance(e, m.tokens, m.stops, m.weights, total_w, m.per_token,
                                                         m.sources)
            r["likeness"] = round(100.0 * sim.get(e, 0.0), 1)
            r["likeness_share"] = round(share / (1.0 + share), 2)
        out.append(r)
    return out


def _similarity(index: dict, q: str) -> dict[int, float]:
    """Entry → how much the query reads like its players' questions (0–1; similar.py). The model is
    loaded from the data tree's cache (or trained) on the first query that needs it."""
    model = dict.get(index, "_similar")
    if model is None:
        loader = dict.get(index, "_similar_loader")  # set by searchindex.load_index
        if loader is None:
            return {}  # an index made by hand (a test's): words only
        model = index["_similar"] = loader()
    return model.similarity(q, len(index["ids"]))


def _asks_definition(q: str, tokens: list[str], stops: list[bool]) -> bool:
    """A question about what a word means: a marker anywhere (뜻, 뭔 말, 뭐라고 불러, 누구 말하는), or a
    short question (one or two content words) that ends in 뭐야/뭐임/뭔데."""
    flat = "".join(q.split())
    if any(m in flat for m in _DEF_MARKS):
        return True
    content = sum(1 for s in stops if not s)
    return 0 < content <= 2 and bool(tokens) and tokens[-1].rstrip("?").startswith(_DEF_TAILS)


def _dates_in(q: str) -> set[tuple[int, int]]:
    """(month, day) of the dates a query names: 9월 24일, 9/24, 09-24."""
    if not any(ch.isdigit() for ch in q):
        return set()
    return {(int(m), int(d)) for m, d in re.findall(_DATE_ANY, q) if 1 <= int(m) <= 12 and 1 <= int(d) <= 31}


def _idf(df: int, total: int) -> float:
    from math import log

    return log(1.0 + (total - df + 0.5) / (df + 0.5))


def _intents(index, q, tokens, stops, per_token, weights, results, forms=None, defq=False):
    """What the question asks for, beyond its words: 왜 → the FAQ entry that
    explains; a date → that date's rulings; a card's name with other words → the
    entries about that card doing something (its ability, the clauses naming it),
    before the bare card."""
    kinds, ids = index["kinds"], index["ids"]
    bonus: dict[int, float] = {}
    if any(_is_when(t) for t in tokens):
        titles = index["titles"]
        for e, _ in results:
            if kinds[e] in ("clause", "faq") and any(m in titles[e] for m in _WHEN_MARKS):
                bonus[e] = bonus.get(e, 0.0) + _WHEN_BONUS
    titles = index["titles"]
    for heads, marks, size in _ASK_INTENTS:
        # 누가 → who does it (roles, order), 몇 → a number (limits, counts), 어디 → a place
        if any(t.startswith(heads) for t in tokens):
            for e, _ in results:
                if kinds[e] in ("clause", "faq") and any(m in titles[e] for m in marks):
                    bonus[e] = bonus.get(e, 0.0) + size
    if any(t in ("안", "못") or t.startswith(("못", "없")) for t in tokens):
        # a question carried by a negation (못 가?, 안 쓰고, 없음?) asks for a limit, a duty or a ban
        for e, _ in results:
            if kinds[e] in ("clause", "faq") and any(m in titles[e] for m in _LIMIT_MARKS):
                bonus[e] = bonus.get(e, 0.0) + _LIMIT_BONUS
    if defq:
        heads = index["heads"]
        content_t = [t for t in range(len(tokens)) if not stops[t]]
        for t in content_t:
            best, best_title = per_token[t]
            for e, sc in best_title.items():
                if sc < 90.0:
                    continue
                if kinds[e] == "term":
                    bonus[e] = bonus.get(e, 0.0) + _DEF_BONUS
                elif kinds[e] == "clause" and forms and heads[e].startswith(forms[t]):
                    bonus[e] = bonus.get(e, 0.0) + _DEF_BONUS / 2
    for num in re.findall(r"장면\s*(\d+)", q):
        # 장면 5: the rulebook's scene of that number, by name
        pat = re.compile(rf"장면\s*{num}(?!\d)")
        for e, _ in results:
            if kinds[e] == "example" and pat.search(titles[e]):
                bonus[e] = bonus.get(e, 0.0) + _SCENE_BONUS
    if any(t in _WHY for t in tokens):
        for e, _ in results:
            if kinds[e] == "faq":
                bonus[e] = bonus.get(e, 0.0) + _WHY_BONUS
    dates = _dates_in(q)
    if dates:
        for rid, date in index["ruling_dates"].items():
            if (int(date[5:7]), int(date[8:10])) in dates:
                e = index.setdefault("_id_pos", {i: n for n, i in enumerate(ids)}).get(rid)
                if e is not None:
                    bonus[e] = bonus.get(e, 0.0) + _DATE_BONUS
                    if all(x != e for x, _ in results):
                        results = results + [(e, 0.0)]
    content = [t for t in range(len(tokens)) if weights[t] and not stops[t]]
    if len(content) > 1:
        for t in content:
            best, best_title = per_token[t]
            cards = [e for e, sc in best_title.items() if kinds[e] == "card" and sc >= 95.0]
            if len(cards) != 1:
                continue
            # the card is named: entries that name it in their title or keywords come forward,
            # and the bare card entry gives way to them when the other words do not match it
            others = [u for u in content if u != t]
            for e, sc in best_title.items():
                if sc >= 95.0 and kinds[e] != "card":
                    bonus[e] = bonus.get(e, 0.0) + _CARD_BONUS
            card = cards[0]
            if all(per_token[u][0].get(card, 0.0) < 80.0 for u in others):
                bonus[card] = bonus.get(card, 0.0) - _CARD_BONUS
    if not bonus:
        return results
    out = [(e, sc + bonus.get(e, 0.0)) for e, sc in results]
    if dates:  # the rulings of the date named come first, in the order of their own scores
        dated = {e for e, b in bonus.items() if b >= _DATE_BONUS}
        top = max((sc for e, sc in out if e not in dated), default=0.0)
        out = [(e, max(sc, top + 1.0 + sc / 100.0)) if e in dated else (e, sc) for e, sc in out]
    return out


def _provenance(e, tokens, stops, weights, total_w, per_token, sources):
    """For one result: the synonyms that matched it, and per query word how it
    matched (lemma, synonym, fuzzy, 초성 …), what, in which field, with what weight."""
    via, rows = [], []
    fields = ("title", "keywords", "body", "asked")
    for t, tok in enumerate(tokens):
        best = per_token[t][0]
        src = sources[t].get(e)
        share = round(weights[t] / total_w, 3) if total_w else 0.0
        row = {"word": tok, "weight": share, "score": round(best.get(e, 0.0), 1), "how": None, "matched": None,
               "field": None}
        if stops[t] and not weights[t]:
            row["how"] = "question"
        elif src is not None:
            how, form = src[0], src[1]
            if isinstance(how, tuple):  # a synonym: (how, term form, everyday word, term)
                how, _, word, term = how
                if how == "synonym-asked":  # the query's rulebook term, met as an everyday word of a hidden question
                    row.update(how=how, matched=term, synonym=None)
                else:
                    row.update(how=how, matched=term, synonym=word)
                    if word != term and {"word": word, "term": term} not in via:
                        via.append({"word": word, "term": term})
            else:
                row.update(how=how, matched=form if how == "choseong" else _compose(form))
            row["field"] = fields[src[2]]
        rows.append(row)
    return via, rows


def shown_matches(index: dict, result: dict) -> dict:
    """Why a result came up, in the words the person typed (for `flamer search` without --explain), from the
    result's `explain`: `words` — each query word that matched, without its particle (대응턴은 → 대응턴), and
    where it matched a different word of the entry's own text, that word (장 → 장(→장인), a typo → the word
    it was read as); a synonym as its thesaurus word (돈); nothing from the hidden players' questions —
    and `initials` — each word typed as 초성 with what it stands for in the entry (ㄷㅇㅅㅌ → 대응 스택)."""
    return _renewed(index, lambda: _shown_matches(index, result))


def _shown_matches(index: dict, result: dict) -> dict:
    words_out: list[str] = []
    initials: list[dict] = []
    for x in result.get("explain") or ():
        how, tok = x.get("how"), x.get("word") or ""
        if how in (None, "question", "kind"):
            continue
        if how == "choseong":
            read = _initials_read(index, result["id"], tok)
            item = {"typed": tok, "read": read}
            if item not in initials:
                initials.append(item)
            continue
        if how in ("synonym", "synonym+fuzzy") and x.get("synonym"):
            shown = x["synonym"]
        else:
            shown = _bare_word(tok, index)
            if x.get("field") != "asked" and x.get("matched") and how not in ("synonym-asked", "joined"):
                m = _bare_word(x["matched"], index)
                if m != shown and not (m.startswith(shown) and is_ending(jamo(m[len(shown):]))):
                    shown = f"{shown}(→{m})"
        if shown and shown not in words_out:
            words_out.append(shown)
    return {"words": words_out, "initials": initials}


def _bare_word(word: str, index: dict) -> str:
    """A word without its particle when what is left is a word the rules' keywords and names use as it is
    (대응턴은 → 대응턴, 필드에 → 필드); otherwise as typed (들어와 stays: 들어 is no such word)."""
    lemmas = _lemma_set(index)
    for head in ending_heads(jamo(word), lemmas):
        return _compose(head)
    return word


def _initials_read(index: dict, eid: str, typed: str) -> str | None:
    """What a word typed as 초성 stands for in the entry: a word or two adjacent words of its title, keywords
    or text whose 초성 are the typed ones (ㄷㅇㅅㅌ → 대응 스택), or None."""
    pos = index.setdefault("_id_pos", {i: n for n, i in enumerate(index["ids"])}).get(eid)
    if pos is None:
        return None
    texts = [index["titles"][pos], index["texts"][pos]]
    for text in texts:
        ws = [w for w in _words(text) if w]
        for i, w in enumerate(ws):
            if choseong(w) == typed:
                return w
            if i + 1 < len(ws) and choseong(w + ws[i + 1]) == typed:
                return f"{w} {ws[i + 1]}"
    run = _compose(index["heads"][pos])  # title and keywords, spaces taken out
    for i in range(len(run)):
        for k in range(i + 1, len(run) + 1):
            part = run[i:k]
            c = choseong(part)
            if c == typed:
                for cut in range(1, len(part)):
                    if jamo(part[:cut]) in index["_raw_set"] and jamo(part[cut:]) in index["_raw_set"]:
                        return f"{part[:cut]} {part[cut:]}"
                return part
            if not typed.startswith(c):
                break
    return None


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


def search_report(index: dict, query: str, *, kind: str | None = None, limit: int = 10, as_of: str | None = None,
                  explain: bool = False) -> dict:
    """What `flamer search` shows: the results (each with `matched_via`, and with
    `explain` when asked), whether the best is weak (then it is only the closest,
    not an answer) and, when weak or empty, searches to try instead."""
    results = search(index, query, kind=kind, limit=limit, as_of=as_of, details=True)
    if not explain:
        for r in results:
            r.pop("explain", None)
            r.pop("likeness", None)
            r.pop("likeness_share", None)
    weak = bool(results) and results[0]["score"] < WEAK_SCORE
    out = {"query": query, "results": results, "weak": weak,
           "suggestions": suggestions(index, query, results) if weak or not results else []}
    return out


def suggestions(index: dict, query: str, results: list[dict], n: int = 5) -> list[str]:
    """Searches to try when nothing matched well: the rulebook terms the query's
    everyday words stand for, the query without its question words, and the
    glossary terms among the closest results."""
    return _renewed(index, lambda: _suggestions(index, query, results, n))


def _suggestions(index: dict, query: str, results: list[dict], n: int) -> list[str]:
    out: list[str] = []

    def add(s: str):
        s = s.strip()
        if s and s != query.strip() and s not in out:
            out.append(s)

    tokens = _split_run_together(_query_words(query.strip(), index["_raw_set"]), index)
    syns = _synonyms_for(tokens, index)
    content = [t for t in tokens if not is_question_word(t) and t not in _WHY and not _is_when(t)]
    if any(syns):
        add(" ".join(dict.fromkeys(s[0][1] if s else t for t, s in zip(tokens, syns)
                                   if s or t in content)))
    if content and len(content) < len(tokens):
        add(" ".join(content))
    for r in results:
        if r["kind"] == "term":
            add(r["title"])
    for r in results[:3]:
        for via in r.get("matched_via", ()):
            add(via["term"])
    return out[:n]
