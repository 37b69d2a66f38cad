"""Korean-aware search over clauses, rulings, FAQ items, examples, terms and cards: the ranking of a query
against the index (built, packed, loaded and cached by flamer_ref/searchindex.py).

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

from .korean import (STOPWORDS, choseong, compose, ending_heads, ending_length, is_choseong_query, is_ending,
                     is_qwerty_candidate, is_question_word, jamo, qwerty_to_jamo, strip_ending, strip_particle,
                     syllable_count, verb_stems, words)
from .searchindex import ASKED, BODY, TITLE, everyday_table, index_words
from .searchwords import (MAX_JOIN, STEM_SCALE, STOP_WEIGHT, VERB_TAILS, lemma_set, lookup, prefixed, query_words,
                          reachable, split_run_together, stem_forms, surface_form, word_variants)

KINDS = ("clause", "ruling", "faq", "example", "card", "term")
KIND_KO = {"clause": "조항", "ruling": "판정", "faq": "FAQ", "example": "예시", "card": "카드", "term": "용어"}
_KIND_RANK = {k: i for i, k in enumerate(("clause", "faq", "term", "card", "ruling", "example"))}
#: how much a match weighs by the field it is in (searchindex.TITLE, KEYS, BODY, ASKED): the players' everyday
#: questions count like the body, a little above it, and never as the title
_FIELD_WEIGHT = (1.0, 0.95, 0.85, _ASKED_WEIGHT := 0.95)
_JAMO_CUTOFF = 68.0
_CHO_CUTOFF = 85.0


# ------------------------------------------------------------- querying ----
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
            near = [long_keys[k] for k in reachable(c, long_table, 0, len(long_keys), _SYN_FUZZY)]
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


def _everyday_words(index: dict) -> dict:
    rev = index.get("everyday")
    if rev is None:  # an index built without it (a test's hand-made index)
        rev = index["everyday"] = everyday_table(index.get("synonyms") or {})
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
            for vi, sc in prefixed(key, table):
                rest = table["keys"][vi][len(key):]
                if rest and not (is_ending(rest) or rest in VERB_TAILS):
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
    tokens = split_run_together(query_words(q, index["_raw_set"]), index)
    tokens = [t for i, t in enumerate(tokens) if not i or t != tokens[i - 1]]  # 따로따로, 계속 계속: once
    exact = {eid: i for i, eid in enumerate(index["ids"])}
    if not tokens and q not in exact:
        return []
    if dict.get(index["jamo"], "_lemmas") is None:
        index["jamo"]["_lemmas"] = lemma_set(index)
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
        self.looked = [word_variants(tok, index) for tok in tokens]
        self.all_variants = [v for v, _ in self.looked]
        self.stops, self.forced = _question_words(q, tokens)
        self.syns = _synonyms_for(tokens, index)
        self.weights: list[float] = []
        self.corrected: list[str] = []
        self.per_token: list[tuple[dict, dict]] = []
        self.unknown: list[bool] = []  # a word neither the rules nor the thesaurus know (a typo to correct)
        self.sources: list[dict] = []
        self.modes = [v[0][0] for v in self.all_variants]
        self.surface = [surface_form(t, v) for t, v in zip(tokens, self.all_variants)]


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
        m.weights.append(tok_weight ** _LEN_POWER * (STOP_WEIGHT if stop else 1.0))
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
                    lookup(form, index["cho"], index["cho_pairs"], _CHO_CUTOFF, True)]
        elif mode == "stem":
            tbl = index["jamo"]
            hits = [(tbl, vi, sc * STEM_SCALE, "lemma") for vi, sc in prefixed(form, tbl)
                    if tbl["keys"][vi][len(form):] in VERB_TAILS or is_ending(tbl["keys"][vi][len(form):])]
        else:
            # one jamo wrong in a one-syllable word (텬 → 턴) scores 66.7
            hits = lookup(form, index["jamo"], lambda: index["jamo_pairs"], 66.0 if len(form) == 3 else _JAMO_CUTOFF,
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
        form = jamo("".join(index_words(term)))
        table = index["jamo"] if len(index_words(term)) == 1 else index["jamo_pairs"]
        scale = _SYN_SCALE * (0.7 + 0.3 * weight)  # a loose synonym (weight 0.6) still counts
        hits = [(table, vi, sc * scale) for vi, sc in prefixed(form, table)]
        _credit(hits, best, best_title, src, (how, form, word, term))
    for word, term, weight, how in syn:
        if word.endswith("다") and how.startswith("synonym") and " " not in word:
            # the verb itself may be in the rules in another form (들어가먄 → 들어가다: 들어가면)
            for _, stem in stem_forms(jamo(word[:-1]) + "ㄷㅏ", index, set()):
                _credit([(index["jamo"], vi, sc * STEM_SCALE, "synonym")
                         for vi, sc in prefixed(stem, index["jamo"])
                         if is_ending(index["jamo"]["keys"][vi][len(stem):])
                         or index["jamo"]["keys"][vi][len(stem):] in VERB_TAILS],
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
            if len(index_words(term)) != 1:
                continue
            for tail in tails:
                form = jamo(term) + tail
                hits = [(index["jamo"], vi, sc * _SYN_SCALE) for vi, sc in prefixed(form, index["jamo"])]
                for u in (t, t + 1):
                    _credit(hits, per_token[u][0], per_token[u][1], sources[u], (how, form, word, compose(form)))


def _credit_joined_words(index: dict, m: _Matches) -> None:
    """Words typed apart that are one word of the corpus (잠입 건설, 피의 장막, 대응 턴): the joined form's
    exact or prefix matches count for each of them."""
    n, modes, surface, all_variants = len(m.tokens), m.modes, m.surface, m.all_variants
    for i in range(n - 1):
        for k in range(i + 2, min(n, i + MAX_JOIN) + 1):
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
                _credit([(table, vi, sc, "joined") for vi, sc in prefixed(form, table)], jbest, jtitle, jsrc)
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
                row.update(how=how, matched=form if how == "choseong" else compose(form))
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
    lemmas = lemma_set(index)
    for head in ending_heads(jamo(word), lemmas):
        return compose(head)
    return word


def _initials_read(index: dict, eid: str, typed: str) -> str | None:
    """What a word typed as 초성 stands for in the entry: a word or two adjacent words of its title, keywords
    or text whose 초성 are the typed ones (ㄷㅇㅅㅌ → 대응 스택), or None."""
    pos = index.setdefault("_id_pos", {i: n for n, i in enumerate(index["ids"])}).get(eid)
    if pos is None:
        return None
    texts = [index["titles"][pos], index["texts"][pos]]
    for text in texts:
        ws = [w for w in index_words(text) if w]
        for i, w in enumerate(ws):
            if choseong(w) == typed:
                return w
            if i + 1 < len(ws) and choseong(w + ws[i + 1]) == typed:
                return f"{w} {ws[i + 1]}"
    run = compose(index["heads"][pos])  # title and keywords, spaces taken out
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

    tokens = split_run_together(query_words(query.strip(), index["_raw_set"]), index)
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
