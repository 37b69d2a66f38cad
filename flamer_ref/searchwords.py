"""How a query's words meet the search index's vocabulary (the ranking, flamer_ref/search.py, scores what they
meet): a query cut into words (query_words: a date, digits and letters apart, chat noise off), words typed
together cut apart (split_run_together) and apart joined, each word's forms — endings off on jamo, a verb's
stems, sound-alike spellings (word_variants, stem_forms) — and the look-ups of a form in a vocabulary table: exact,
prefix (on syllable boundaries), and fuzzy (rapidfuzz on jamo, pre-filtered by the letters a word must
share: reachable) for a misspelt word, 초성 against the 초성 tables (lookup).
"""

from __future__ import annotations

import re
from bisect import bisect_left

from .korean import (COLLOQUIAL, ENDINGS, VOWELS, chat_noise, ending_heads, ending_length, fix_shift,
                     is_choseong_query, is_ending, is_question_word, is_qwerty_candidate, is_syllable, jamo,
                     may_carry_ending, qwerty_to_jamo, strip_chat, strip_ending, strip_particle, syllable_count,
                     verb_stems, words)
from .searchindex import norm_word

_SPLIT_WORDS = frozenset(("몇", "꼭", "그", "저", "한", "두", "세", "각", "총", "새", "딴", "첫", "잘", "다시"))


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
        near = [k for k in reachable(token, table, split, len(keys), cutoff) if head in keys[k]]
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
        near = [k for k in reachable(token, table, lo, hi, cutoff) if keys[k][:1] == first]
        for _, score, j in process.extract(token, [keys[k] for k in near], scorer=ratio,
                                           score_cutoff=cutoff, limit=None):
            i = near[j] - lo
            # a longer word (라운드에 for 라운등) a little weaker than as long a one (라운드)
            hits.append((lo + i, score * (0.9 + 0.1 * n / lens[lo + i]) if lens[lo + i] > n else score))
    return hits


def reachable(token: str, table: dict, lo: int, hi: int, cutoff: float) -> list[int]:
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


def prefixed(token: str, table: dict) -> list[tuple[int, float]]:
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
STEM_SCALE = 0.95  # a verb met in another form (열려 ~ 열리는)


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


def lookup(token: str, single: dict, pair: dict, cutoff: float,
            table_is_cho: bool = False, fuzzy: bool = True) -> list[tuple[dict, int, float, str]]:
    """Matches of one query form, (table, vocabulary index, score, how): exact or
    prefix hits when the form is a word of the corpus, else a fuzzy scan; pairs of
    words catch missing spaces (`pair` may be a function giving the table: it is
    fetched only when needed)."""
    hits = [(single, vi, sc, "exact" if sc >= 100.0 else "prefix") for vi, sc in prefixed(token, single)]
    exact = any(h[2] >= 100.0 for h in hits)
    if not exact and fuzzy:
        hits += [(single, vi, sc, "fuzzy") for vi, sc in _fuzzy(token, single, cutoff)]
    best = max((h[2] for h in hits), default=0.0)
    if best < 90.0 or table_is_cho:  # 초성 are short: ㅈㅇㅅ is 지원사격 and 조우 셀 alike
        pair = pair() if callable(pair) else pair
        pair_hits = [(vi, sc, "joined") for vi, sc in prefixed(token, pair)]
        if not pair_hits and fuzzy:
            pair_hits = [(vi, sc, "fuzzy") for vi, sc in _fuzzy(token, pair, cutoff)]
        hits += [(pair, vi, sc, how) for vi, sc, how in pair_hits]
    return hits


_DATE_RE = r"(\d{1,2})\s*월\s*(\d{1,2})\s*일?"  # patterns compiled on first use (re caches them)
_SCRIPT_RE = r"[0-9]+|[A-Za-z]+|[^0-9A-Za-z]+"
STOP_WEIGHT = 0.0  # a question word (어떻게, 있나요) counts for nothing unless the query has nothing else
MAX_JOIN = 5  # words typed apart that may be one word of the corpus (승 리 확 인 턴)


def query_words(q: str, raw: set) -> list[str]:
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
            out.append(norm_word(w))  # one script
            continue
        j = jamo(w)
        if j in raw or strip_ending(j, raw):
            out.append(w)
            continue
        pieces = re.findall(_SCRIPT_RE, w)
        for i, piece in enumerate(pieces):
            if i and not piece.isascii() and piece in ENDINGS:
                continue  # VP가 → VP
            out.append(norm_word(piece))
    return out


_MAX_PIECE = 12  # syllables: longer than any word of the rules or thesaurus with its endings
_MAX_RUN = 40  # syllables: a longer run of Hangul without spaces is not cut into words (work stays bounded)


def split_run_together(tokens: list[str], index: dict) -> list[str]:
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
                or known(tok) or prefixed(j, index["jamo_pairs"]):
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
        out.extend(split_run_together(best, index) if best else [tok])
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
    lemmas = lemma_set(index)
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


def word_variants(token: str, index: dict) -> tuple[list[tuple[str, str]], float]:
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
        cut = ending_length(qj) if main == qj and qj not in lemma_set(index) else 0
        return out, float(max(len(main) - cut, 2))
    if j not in raw:
        # sounds typed for each other: ㅔ/ㅐ (스텍 → 스택, 언재 → 언제), 율/률 and 열/렬 (동율 → 동률)
        for alt in (j.replace(a, b) for a, b in _SOUND_ALIKE if a in j):
            if alt != j and (alt in raw or strip_ending(alt, raw)):
                main, forms = _head_of(alt, index)
                return [("jamo", f) for f in forms] + [("jamo", j)], float(max(len(main), 2))
    if not may_carry_ending(token):  # 정착, 기물: no ending to look for (but 열려 may be 열리다's)
        return [("jamo", j)] + stem_forms(j, index, {j}), float(max(len(j), 2))
    main, forms = _head_of(j, index)
    if main == j and j not in raw:
        # an unknown (misspelt) word with a particle on it (반걱은): the word without it is what to correct
        bare = strip_particle(token)
        if bare and token[len(bare):] in _NOUN_PARTICLES and syllable_count(jamo(bare)) >= 2:
            return [("jamo", jamo(bare)), ("jamo", j)], float(max(len(jamo(bare)), 2))
    weight = len(main)
    if main == j and j not in lemma_set(index):
        cut = ending_length(j)
        weight -= cut  # 정하나요, 없으면: the ending says little
        if cut and j not in raw and syllable_count(j[:-cut]) >= 2 and prefixed(j[:-cut], index["jamo"]):
            # a verb stem the corpus has in another form (뒤집으면 → 뒤집기, 들어가면 →
            # 들어가): looked up as a prefix, and weighing half, as the nouns say more
            return [("jamo", j[:-cut]), ("jamo", j)] + stem_forms(j, index, {j[:-cut], j}), max(weight * 0.5, 2.0)
    out = [("jamo", f) for f in forms]
    if main == j:
        out += stem_forms(j, index, set(forms))
    return out, float(max(weight, 2))


def stem_forms(j: str, index: dict, seen: set) -> list[tuple[str, str]]:
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
            if rest and is_ending(rest) or rest in VERB_TAILS:
                out.append(("stem", stem))
                seen.add(stem)
                break
            i += 1
    return out[:2]


VERB_TAILS = frozenset(jamo(e) for e in ("는", "ㄴ다", "ㅂ니다", "면", "고", "지", "ㄹ", "ㄴ", "며", "어", "아", "기",
                                          "게", "려면", "었다", "았다", "어야", "아야", "도록", "ㄹ수", "ㄴ다면"))


def surface_form(token: str, variants) -> str:
    """The word as typed, in the form it is looked up in (jamo, 초성, or the
    jamo of what was typed in English mode)."""
    if variants[0][0] == "cho":
        return token
    if is_qwerty_candidate(token) and variants[-1][1] == token.lower() and len(variants) > 1:
        return qwerty_to_jamo(token)
    return jamo(token)


def lemma_set(index: dict) -> set:
    """Words of keywords, aliases and term/card names (no particles on them)."""
    if "lemma_set" not in index:
        index["lemma_set"] = set(index["_lemmas"].split("\x00")) if index["_lemmas"] else set()
    return index["lemma_set"]
