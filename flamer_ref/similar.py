"""How much a query reads like the questions players ask about each entry: a nearest-centroid
(Rocchio) model over character n-grams, learned from the corpus the first time a query needs it
(flamer_ref.searchindex.load_similar, which caches it).

Each entry is described by its title, its keywords and its players' questions (rules/phrasings.yaml).
Every such text becomes a vector of the jamo n-grams (2 to 4 jamo, inside a word, its edges marked)
weighed by tf-idf (tf as 1 + log tf, idf smoothed) and scaled to length 1; an entry's centroid is
the sum of its texts' vectors, scaled to length 1. A query is made a vector the same way, and its
similarity to an entry is the cosine with the centroid (0 to 1).

Character n-grams carry typos, spacing slips, particles and verb endings without a morphological
analyser: 들어가면 and 들어가나 share most of their n-grams. Training is one pass over the texts (no
iterations); a query reads only the n-grams it has.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from math import log, sqrt

from .korean import jamo

MIN_N, MAX_N = 2, 4


def grams(text: str, _seen: dict | None = None) -> Counter:
    """The jamo n-grams of a text with their counts; each word is framed by spaces, so that its
    first and last jamo make n-grams of their own (' ㅈㅓ' starts a word, 'ㄱㅏ ' ends one).
    `_seen` caches each word's n-grams across texts (training reads the same words many times)."""
    every: list[str] = []
    for word in text.split():
        g = _seen.get(word) if _seen is not None else None
        if g is None:
            w = f" {jamo(word)} "
            size = len(w)
            g = [w[i:i + n] for n in range(MIN_N, min(MAX_N, size) + 1) for i in range(size - n + 1)]
            if _seen is not None:
                _seen[word] = g
        every += g
    return Counter(every)  # counted at once: the same counts, in the same first-seen order


def _weight(count: int, idf: float) -> float:
    """An n-gram's tf-idf in one text (tf as 1 + log tf)."""
    return (1.0 + log(count)) * idf if count > 1 else idf


def _unit(vec: dict[str, float]) -> dict[str, float]:
    norm = sqrt(sum(v * v for v in vec.values()))
    return {k: v / norm for k, v in vec.items()} if norm else {}


#: a centroid's weights below this are dropped: they are most of the model and change no ranking
#: (top 3 of 700 tune questions: 97.4% with all of them and with 28% of them, at 0.02; 97.0% at 0.03)
MIN_WEIGHT = 0.02
#: an n-gram keeps at most this many entries, those it weighs most in: an n-gram shared by more says
#: little, and it is where a large corpus spends its time (700 tune questions: 97.4% with no limit, 128
#: or 96; 97.3% at 64; the ten-fold corpus reads 35% fewer weights at 96)
MAX_ENTRIES = 96


def train(docs: list[tuple[int, str]], min_weight: float = MIN_WEIGHT, max_entries: int = MAX_ENTRIES) -> dict:
    """The model from (entry number, text) pairs: per n-gram its idf and the centroids that have it
    with a weight of at least `min_weight` (at most `max_entries` of them, the heaviest; 0: all), as
    sorted lists (n-gram, idf, [(entry, weight)]). The cyclic garbage collector is paused meanwhile
    (millions of small acyclic objects)."""
    import gc

    was_on = gc.isenabled()
    gc.disable()
    try:
        return _train(docs, min_weight, max_entries)
    finally:
        if was_on:
            gc.enable()


def _train(docs: list[tuple[int, str]], min_weight: float, max_entries: int) -> dict:
    seen: dict = {}
    counted = [(e, grams(t, seen)) for e, t in docs]
    df: Counter = Counter()
    for _, g in counted:
        df.update(g.keys())
    n = len(counted)
    idf = {k: log((1 + n) / (1 + d)) + 1.0 for k, d in df.items()}
    sums: dict[int, dict[str, float]] = {}
    for e, g in counted:
        # _weight inlined (the same arithmetic, in the same order: the same floats)
        ks = list(g)
        ws = [(1.0 + log(c)) * idf[k] if c > 1 else idf[k] for k, c in g.items()]
        norm = sqrt(sum([v * v for v in ws]))
        acc = sums.get(e)
        if acc is None:
            acc = sums[e] = {}
        get = acc.get
        for k, v in zip(ks, ws):
            acc[k] = get(k, 0.0) + v / norm
    post: dict[str, list[tuple[int, float]]] = {}
    for e in sorted(sums):
        for k, v in _unit(sums[e]).items():
            if v >= min_weight:
                post.setdefault(k, []).append((e, v))
    if max_entries:
        for k, p in post.items():
            if len(p) > max_entries:
                post[k] = sorted(sorted(p, key=lambda ew: -ew[1])[:max_entries])
    keys = sorted(post)
    return {"keys": keys, "idf": [idf[k] for k in keys], "post": [post[k] for k in keys]}


_SCALE = 65535  # weights (0 to 1) are stored as 16-bit integers


def pack(model: dict) -> dict:
    """A marshal-friendly form: the n-grams as one text, numbers as packed arrays (weights as
    16-bit fractions, entry numbers as 16-bit integers when there are fewer than 65,536 entries)."""
    from array import array

    top = max((e for p in model["post"] for e, _ in p), default=0)
    offs, ents, wts = array("I", [0]), array("H" if top < 65536 else "I"), array("H")
    for p in model["post"]:
        for e, w in p:
            ents.append(e)
            wts.append(min(_SCALE, max(1, round(w * _SCALE))))
        offs.append(len(ents))
    return {"keys": "\x00".join(model["keys"]).encode("utf-8"), "idf": array("f", model["idf"]).tobytes(),
            "offs": offs.tobytes(), "ents": ents.tobytes(), "wts": wts.tobytes()}


class Model:
    """A packed model (pack), its arrays unpacked once."""

    __slots__ = ("keys", "idf", "offs", "ents", "wts")

    def __init__(self, packed: dict):
        from array import array

        self.keys = packed["keys"].decode("utf-8").split("\x00") if packed["keys"] else []
        wide = len(packed["ents"]) > len(packed["wts"])
        self.idf, self.offs, self.ents, self.wts = array("f"), array("I"), array("I" if wide else "H"), array("H")
        self.idf.frombytes(packed["idf"])
        self.offs.frombytes(packed["offs"])
        self.ents.frombytes(packed["ents"])
        self.wts.frombytes(packed["wts"])

    def similarity(self, text: str, size: int) -> dict[int, float]:
        """Entry number (below `size`, the number of entries) → cosine of the text with the entry's
        centroid; entries sharing no n-gram with the text are left out."""
        keys, idf = self.keys, self.idf
        vec = []
        for g, c in grams(text).items():
            i = bisect_left(keys, g)
            if i < len(keys) and keys[i] == g:
                vec.append((i, _weight(c, idf[i])))
        norm = sqrt(sum(v * v for _, v in vec))
        if not norm:
            return {}
        acc = [0.0] * size
        offs, ents, wts = self.offs, self.ents, self.wts
        for i, v in vec:
            q = v / norm / _SCALE
            lo, hi = offs[i], offs[i + 1]
            for e, w in zip(ents[lo:hi], wts[lo:hi]):
                if e < size:
                    acc[e] += q * w
        return {e: s for e, s in enumerate(acc) if s}
