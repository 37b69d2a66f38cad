"""rapidfuzz's ratio and partial_ratio, as its pure-Python implementation computes them, faster.

Where rapidfuzz has no compiled part (the site's engine in the browser, Pyodide: rapidfuzz runs with
RAPIDFUZZ_IMPLEMENTATION=python), each fuzzy search step scores thousands of word pairs through
rapidfuzz.fuzz_py, whose every window of partial_ratio goes through five layers of calls. These are the
same computations (the same windows, the same bit-parallel LCS, the same float operations in the same
order, the same cut-off rules), written flat for plain strings, so the scores are those of
rapidfuzz.fuzz_py exactly (tests/web/test_site_engine.py compares them pair by pair) at a fraction of the
cost. scorers() gives rapidfuzz's own functions when its compiled implementation is in use.
"""

from __future__ import annotations


def scorers():
    """(ratio, partial_ratio) for process.extract: rapidfuzz's compiled ones, or these."""
    from rapidfuzz import fuzz

    if getattr(fuzz.ratio, "__module__", "").endswith("_py"):
        return ratio, partial_ratio
    return fuzz.ratio, fuzz.partial_ratio


def _block(s1: str) -> dict:
    block: dict = {}
    x = 1
    for ch in s1:
        block[ch] = block.get(ch, 0) | x
        x <<= 1
    return block


def _lcs(block: dict, len1: int, s2) -> int:
    """LCSseq_py._block_similarity: the length of the longest common subsequence (len1 > 0)."""
    S = (1 << len1) - 1
    get = block.get
    for ch in s2:
        u = S & get(ch, 0)
        S = (S + u) | (S - u)
    return bin(S)[-len1:].count("0")


def ratio(s1, s2, *, processor=None, score_cutoff=None, **_kwargs) -> float:
    """fuzz_py.ratio for strings: Indel normalized similarity × 100."""
    if s1 is None or s2 is None:
        return 0
    if processor is not None:
        s1, s2 = processor(s1), processor(s2)
    cutoff = score_cutoff / 100 if score_cutoff is not None else None
    maximum = len(s1) + len(s2)
    lcs = _lcs(_block(s1), len(s1), s2) if s1 else 0
    dist = maximum - 2 * lcs
    norm_dist = dist / maximum if maximum else 0
    norm_sim = 1.0 - norm_dist
    return (norm_sim if (cutoff is None or norm_sim >= cutoff) else 0) * 100


_PREP: dict = {}


def _prep(s1: str) -> tuple[set, dict, dict]:
    """The shorter string's jamo set, LCS block and jamo counts (the last few kept: process.extract scores
    one token against thousands of words)."""
    got = _PREP.get(s1)
    if got is None:
        want: dict = {}
        for ch in s1:
            want[ch] = want.get(ch, 0) + 1
        if len(_PREP) > 64:
            _PREP.clear()
        got = _PREP[s1] = (set(s1), _block(s1), want)
    return got


def _partial(s1: str, s2: str, score_cutoff: float) -> tuple[float, int, int]:
    """fuzz_py._partial_ratio_impl (len(s1) <= len(s2)): (score, dest_start, dest_end). The same windows
    in the same order; a window whose best possible score could neither reach the cut-off nor beat the
    best so far is not computed (it could not have changed the result): its LCS with s1 is at most the
    jamo they share, a multiset count kept up to date as the window slides."""
    if not s1:
        return 0, 0, 0
    chars, block, want = _prep(s1)
    len1, len2 = len(s1), len(s2)
    score, start, end = 0, 0, len1  # (an int while nothing scores: 0, as rapidfuzz returns it)
    get = want.get

    # the windows s2[:i], 0 < i < len1
    have: dict = {}
    shared = 0
    for i in range(1, len1):
        ch = s2[i - 1]
        c = have.get(ch, 0)
        if c < get(ch, 0):
            shared += 1
        have[ch] = c + 1
        if ch not in chars:
            continue
        maximum = len1 + i
        bound = 1.0 - (maximum - 2 * shared) / maximum
        if bound >= score_cutoff and bound > score:
            r = 1.0 - (maximum - 2 * _lcs(block, len1, s2[:i])) / maximum
            if r >= score_cutoff and r > score:
                score = score_cutoff = r
                start, end = 0, i
                if score == 1:
                    return 100, start, end
    # the windows s2[i:i + len1]
    have = {}
    shared = 0
    for ch in s2[:len1 - 1]:
        c = have.get(ch, 0)
        if c < get(ch, 0):
            shared += 1
        have[ch] = c + 1
    maximum = 2 * len1
    for i in range(len2 - len1):
        ch = s2[i + len1 - 1]
        c = have.get(ch, 0)
        if c < get(ch, 0):
            shared += 1
        have[ch] = c + 1
        if ch in chars:
            bound = 1.0 - (maximum - 2 * shared) / maximum
            if bound >= score_cutoff and bound > score:
                r = 1.0 - (maximum - 2 * _lcs(block, len1, s2[i:i + len1])) / maximum
                if r >= score_cutoff and r > score:
                    score = score_cutoff = r
                    start, end = i, i + len1
                    if score == 1:
                        return 100, start, end
        ch = s2[i]
        c = have[ch] - 1
        have[ch] = c
        if c < get(ch, 0):
            shared -= 1
    # the windows s2[i:], len2 - len1 <= i < len2
    have = {}
    shared = 0
    for ch in s2[len2 - len1:]:
        c = have.get(ch, 0)
        if c < get(ch, 0):
            shared += 1
        have[ch] = c + 1
    for i in range(len2 - len1, len2):
        ch = s2[i]
        if ch in chars:
            maximum = len1 + len2 - i
            bound = 1.0 - (maximum - 2 * shared) / maximum
            if bound >= score_cutoff and bound > score:
                r = 1.0 - (maximum - 2 * _lcs(block, len1, s2[i:])) / maximum
                if r >= score_cutoff and r > score:
                    score = score_cutoff = r
                    start, end = i, len2
                    if score == 1:
                        return 100, start, end
        c = have[ch] - 1
        have[ch] = c
        if c < get(ch, 0):
            shared -= 1
    return score * 100, start, end


def partial_ratio(s1, s2, *, processor=None, score_cutoff=None, **_kwargs) -> float:
    """fuzz_py.partial_ratio for strings: the best ratio of the shorter string with a window of the longer."""
    if s1 is None or s2 is None:
        return 0
    if processor is not None:
        s1, s2 = processor(s1), processor(s2)
    if score_cutoff is None:
        score_cutoff = 0
    if not s1 and not s2:
        return 100.0
    len1, len2 = len(s1), len(s2)
    shorter, longer = (s1, s2) if len1 <= len2 else (s2, s1)
    score = _partial(shorter, longer, score_cutoff / 100)[0]
    if score != 100 and len1 == len2:
        score_cutoff = max(score_cutoff, score)
        second = _partial(longer, shorter, score_cutoff / 100)[0]
        if second > score:
            score = second
    if score < score_cutoff:
        return 0
    return score
