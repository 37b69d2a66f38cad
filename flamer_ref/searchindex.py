"""The search's index (issue 29: the index in its own room, the ranking in flamer_ref/search.py): built from
the corpus (build_index), packed for its cache (pack_index, unpack_index: marshal-friendly, decoded on first
use), loaded and cached beside the corpus's cache under the same key (load_index: `<key>.index`, `.pairs`);
the likeness model (flamer_ref/similar.py) cached the same way (load_similar: `.similar`); and the prebuilt
data of a data tree (corpus, index and model in one file) for the browser's engine.

The one-way door: this module reads the corpus (flamer_ref.corpus.load); the corpus never reads this. The
words of an entry are cut here as a query's are in the ranking (index_words, norm_word).
"""

from __future__ import annotations

import marshal
from pathlib import Path

from . import __version__
from .cachefile import CACHE_FORMAT, MEMO, digest_of, frame, read_cache, unframe, write_cache
from .corpus import Corpus, load, locate, preload_corpus, valid_plain
from .entries import entries_of
from .korean import choseong, jamo, strip_particle, words

#: the fields of an entry a posting names (entry * 4 + field): its title, its keywords (and heads), its
#: body, and ASKED — the everyday questions a player asks when the entry is the answer (rules/phrasings.yaml)
TITLE, KEYS, BODY, ASKED = 0, 1, 2, 3


# ---------------------------------------------------------------- building ----
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


def norm_word(w: str) -> str:
    """A word as indexed and looked up: numbers lose leading zeros (09 → 9)."""
    return (w.lstrip("0") or "0") if w.isdigit() else w


def index_words(text: str) -> list[str]:
    return [norm_word(w) for w in words(text)]


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
            ws = index_words(text)
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
        flat_heads.append(jamo("".join(index_words(title + " " + head))))
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
        "everyday": everyday_table(synonyms),
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
        key = jamo(word[:-1] if rec["pos"] == "verb" else "".join(index_words(word)))
        out.setdefault(key, []).append([word, list(rec["terms"]), rec["weight"], rec["pos"]])
    return out


def everyday_table(synonyms: dict) -> dict:
    """The thesaurus read backwards: rulebook term (jamo) → [(everyday key, word, term, weight)] (a verb
    by its stem); built with the index, so a cold query does not pay for it."""
    rev: dict[str, list] = {}
    for key, recs in synonyms.items():
        for word, terms, weight, _pos in recs:
            for term in terms:
                if len(index_words(term)) == 1:
                    rev.setdefault(jamo(term), []).append((key, word, term, weight))
    return rev


def _name_forms(title: str, *aliases: str) -> set[str]:
    """The entry's title, the title's head before ' — ' and its other names, as
    jamo without spaces and as 초성: a query equal to one of them names the entry."""
    names = [title, *aliases] + ([title.split(" — ")[0]] if " — " in title else [])
    flat = ["".join(index_words(t)) for t in names]
    return {f for f in (*(jamo(x) for x in flat), *(choseong(x) for x in flat)) if f}


# ----------------------------------------------------------------- packing ----
TABLES = ("jamo", "jamo_pairs", "cho", "cho_pairs")
#: tables a query seldom needs (초성, and pairs of words for a word typed with no space): the cache keeps
#: them in a file of their own, read only when a query asks for one
LAZY_TABLES = ("jamo_pairs", "cho", "cho_pairs")
_COLUMNS = ("raw_words", "lemmas", "entries", "heads", "names")


def pack_index(index: dict) -> dict:
    """A marshal-friendly form: few large objects (joined strings, packed
    integer arrays) load several times faster than many small lists."""
    from array import array

    out = {k: v for k, v in index.items() if k not in TABLES and k not in _COLUMNS}
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
    for name in TABLES:
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
        elif key in TABLES:
            if key not in packed:  # kept apart by the cache (LAZY_TABLES): read it now
                packed.update(self["_more"]())
            value = _Table(packed[key])
        else:
            raise KeyError(key)
        self[key] = value
        return value


def unpack_index(packed: dict) -> dict:
    from array import array

    index = _Index({k: v for k, v in packed.items() if k not in TABLES and k not in _COLUMNS})
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




# --------------------------------------------------------- index cache ----
def _valid_index(packed) -> bool:
    """A cached (packed) search index has every part a search reads, with consistent sizes: every
    vocabulary table but those the cache keeps apart (LAZY_TABLES), which are checked when present."""
    if not isinstance(packed, dict):
        return False
    if not all(isinstance(packed.get(k), str) for k in ("ids", "kinds", "raw_words", "lemmas")):
        return False
    if not isinstance(packed.get("ruling_dates"), dict) or not isinstance(packed.get("synonyms"), dict):
        return False
    if not isinstance(packed.get("numbers"), dict):  # rule number → id (a search of 6.26 reads it)
        return False
    n = packed["ids"].count("\x00") + 1
    if packed["kinds"].count("\x00") + 1 != n:
        return False
    for name in ("titles", "texts", "heads", "names"):
        col = packed.get(name)
        if not (isinstance(col, tuple) and len(col) == 2 and all(isinstance(x, bytes) for x in col)):
            return False
        if len(col[1]) != 4 * (n + 1):
            return False
        # the offsets must stay inside the blob (checked at the ends; the writer makes them monotone)
        if int.from_bytes(col[1][-4:], "little") != len(col[0]) or col[1][:4] != b"\x00\x00\x00\x00":
            return False
    if any(t not in packed for t in TABLES if t not in LAZY_TABLES):
        return False
    return _valid_tables(packed, [t for t in TABLES if t in packed])


def _valid_tables(packed, names) -> bool:
    """The packed vocabulary tables named are there, with consistent sizes."""
    if not isinstance(packed, dict):
        return False
    for name in names:
        t = packed.get(name)
        if not isinstance(t, dict):
            return False
        if not all(isinstance(t.get(k), bytes) for k in ("keys", "lex_keys", "lex_idx", "lens", "post", "offs")):
            return False
        if len(t["post"]) % 4 or len(t["offs"]) % 4 or len(t["lex_idx"]) % 4 or len(t["lens"]) % 2:
            return False
    return True


def load_index(root: Path | str | None = None) -> dict:
    """The search index alone (what a search needs), from its own cache file so
    that a search does not unmarshal the whole corpus."""

    if root is None and _PREBUILT:
        return _PREBUILT["index"]
    root, files, stem = locate(root)
    key = ("index", str(root), stem.name if stem else None)
    if key in MEMO:
        return MEMO[key]  # type: ignore[return-value]
    path = stem.with_name(stem.name + ".index") if stem else None
    packed = read_cache(path, b"I")
    index = None
    if packed is not None and _valid_index(packed):
        try:
            index = unpack_index(packed)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
            index = None
    if index is None:
        packed = _write_index(stem, load(root))  # retried here when an earlier write failed
        index = unpack_index(packed)
    else:
        # its UTF-8 parts (titles, texts, table keys) are decoded only when a query needs them: one that
        # does not decode makes search.search rebuild the index in place (_renew_index) and ask again
        index["_renew"] = lambda: _renew_index(index, root, stem)
    _hooks(index, root, stem)
    MEMO[key] = index
    return index


def _hooks(index: dict, root: Path, stem: Path | None) -> None:
    # read on first need: the tables the cache keeps apart, and the likeness model
    index["_more"] = lambda: _read_more(root, stem)
    index["_similar_loader"] = lambda: load_similar(root, stem)


def _renew_index(index: dict, root: Path, stem: Path | None) -> None:
    """A cached index that passed its checks held bytes that are not UTF-8 (found when a query first
    decoded them): the cache is damaged. Build the index again from the corpus, write its files again
    and refresh `index` in place, so that every holder of it (the memo, the caller) reads the new one."""

    fresh = unpack_index(_write_index(stem, load(root)))
    index.clear()
    index.update(fresh)
    _hooks(index, root, stem)


def _write_index(stem: Path | None, corpus: Corpus) -> dict:
    """Build the packed index and cache it as two files: `.index` (what every query reads) and
    `.pairs` (LAZY_TABLES: read only by a query that needs one). Returns the whole packed index."""

    # built once per corpus object: the first search after a change writes the caches (which builds
    # the index) and then writes the index (which built it again: 2 x 6 s on a 2 MB data tree)
    packed = corpus.__dict__.get("_packed_index")
    if packed is None:
        packed = corpus.__dict__["_packed_index"] = pack_index(build_index(corpus))
    if stem is not None:
        # the rarely read part first: an `.index` is never there without its `.pairs`
        if write_cache(stem.with_name(stem.name + ".pairs"), b"P", {t: packed[t] for t in LAZY_TABLES}):
            write_cache(stem.with_name(stem.name + ".index"), b"I",
                         {k: v for k, v in packed.items() if k not in LAZY_TABLES})
    return packed


def _read_more(root: Path, stem: Path | None) -> dict:
    """The tables the index cache keeps apart (`.pairs`); when that file is missing or cannot be
    trusted, the index is built again from the corpus (and both files written again)."""

    more = read_cache(stem.with_name(stem.name + ".pairs") if stem else None, b"P")
    if isinstance(more, dict) and set(more) == set(LAZY_TABLES) and _valid_tables(more, LAZY_TABLES):
        return more
    packed = _write_index(stem, load(root))
    return {t: packed[t] for t in LAZY_TABLES}


# --------------------------------------------------------- likeness model ----

def _valid_similar(packed) -> bool:
    """A cached likeness model (similar.pack) has its five parts with consistent sizes."""
    if not isinstance(packed, dict) or set(packed) != {"keys", "idf", "offs", "ents", "wts"}:
        return False
    if not all(isinstance(v, bytes) for v in packed.values()):
        return False
    n = packed["keys"].count(b"\x00") + 1 if packed["keys"] else 0
    offs, ents, wts = packed["offs"], packed["ents"], packed["wts"]
    count = len(wts) // 2  # 16-bit weights; entry numbers of 16 or 32 bits
    return (len(packed["idf"]) == 4 * n and len(offs) == 4 * (n + 1) and len(wts) % 2 == 0
            and len(ents) in (2 * count, 4 * count) and offs[:4] == b"\x00\x00\x00\x00"
            and int.from_bytes(offs[-4:], "little") == count)


#: the packed models this process trained, by a digest of the texts they were trained on (the last
#: TRAINED_KEPT): training is a function of those texts alone (0.5–0.7 s for the bundled data), and a
#: process that meets the same texts again — a copy of the data tree, an edit that touched no title,
#: keyword or question, a cache file found damaged — trains once. cachefile.MEMO is per data tree; this is
#: per content, so it can never answer for other texts.
TRAINED: dict[str, dict] = {}
TRAINED_KEPT = 2


def trained(docs: list[tuple[int, str]]) -> dict:
    """similar.pack(similar.train(docs)), trained once per process for the same docs (TRAINED)."""
    from .similar import pack, train

    key = digest_of(f"{e}\x00{t}".encode("utf-8", "surrogatepass") for e, t in docs)
    packed = TRAINED.get(key)
    if packed is None:
        packed = pack(train(docs))
        while len(TRAINED) >= TRAINED_KEPT:
            TRAINED.pop(next(iter(TRAINED)))
        TRAINED[key] = packed
    return packed


def load_similar(root: Path | str | None = None, stem: Path | None = None):
    """The likeness model of a data tree (flamer_ref/similar.py), from its own cache file next to the
    index's; trained from the corpus when there is none (a search of one word never needs it)."""
    from .similar import Model

    if root is None and stem is None and _PREBUILT:
        return _PREBUILT["similar"]()
    if stem is None:
        root, _files, stem = locate(root)
    key = ("similar", str(root), stem.name if stem else None)
    if key in MEMO:
        return MEMO[key]
    path = stem.with_name(stem.name + ".similar") if stem else None
    packed = read_cache(path, b"S")
    model = None
    if packed is not None and _valid_similar(packed):
        try:
            model = Model(packed)
        except UnicodeDecodeError:  # keys that are not UTF-8: a damaged cache, trained again below
            model = None
    if model is None:
        packed = trained(similar_docs(load(root)))
        if path is not None:
            write_cache(path, b"S", packed)
        model = Model(packed)
    MEMO[key] = model
    return model


# -------------------------------------------------------------- prebuilt ----
# Prebuilt data: the validated corpus, the packed search index (with the tables the cache keeps apart)
# and the likeness model of one data tree in one file, for a process that must not parse YAML, build an
# index or train a model before its first answer: the engine `flamer site` ships to the browser
# (Pyodide; flamer_ref/web.py). Written by prebuilt(), read by preload(). Framed as a cache file (magic,
# format, kind b"B", length, crc32); the payload is marshal version 2 of plain values only (dict, list,
# str, bytes, int, float, bool, None): version 2 writes no back-references, so the bytes depend on the
# values alone (two builds of the same data give the same file) and any later Python reads them
# (checked in Pyodide's Python 3.14 by tests/web/test_site_engine.py).
PREBUILT_KIND = b"B"
PREBUILT_MARSHAL = 2
_PREBUILT: dict = {}


def prebuilt(root: Path | str | None = None) -> bytes:
    """The prebuilt data of a data tree (default: the data root) as bytes (see preload)."""
    corpus = load(root)
    plain = corpus.to_plain()
    plain["root"] = ""  # where it is read, the data (effects, example board) is that process's data root
    # the packed index and model as the cache holds them (built and cached when it does not)
    index = load_index(root)
    packed = {**dict.__getitem__(index, "_packed"), **index["_more"]()}
    model = load_similar(root)
    similar = {"keys": "\x00".join(model.keys).encode("utf-8"), "idf": model.idf.tobytes(),
               "offs": model.offs.tobytes(), "ents": model.ents.tobytes(), "wts": model.wts.tobytes()}
    payload = {"format": CACHE_FORMAT, "version": __version__, "corpus": plain,
               "index": {k: packed[k] for k in sorted(packed)}, "similar": similar}
    return frame(PREBUILT_KIND, marshal.dumps(payload, PREBUILT_MARSHAL))


def preload(data: bytes) -> None:
    """Answer corpus.load(), load_index() and load_similar() for the default data tree (no root given) from
    prebuilt data (prebuilt()), checked as a cache file is: ValueError when it cannot be trusted. The
    other files the engine reads (cards/effects.yaml, rules/boards/example.yaml) still come from the data
    root. A given root (validate --data) is read as always."""
    from .similar import Model

    obj = unframe(bytes(data), PREBUILT_KIND)
    if not (isinstance(obj, dict) and set(obj) == {"format", "version", "corpus", "index", "similar"}
            and obj["format"] == CACHE_FORMAT and valid_plain(obj["corpus"], "")
            and _valid_index(obj["index"]) and _valid_tables(obj["index"], LAZY_TABLES)
            and _valid_similar(obj["similar"])):
        raise ValueError("not prebuilt data of this version of flamer_ref")
    corpus = Corpus.from_plain(obj["corpus"])
    index = unpack_index(obj["index"])
    model: list = []

    def similar():
        if not model:
            model.append(Model(obj["similar"]))
        return model[0]

    index["_more"] = lambda: {t: obj["index"][t] for t in LAZY_TABLES}
    index["_similar_loader"] = similar
    _PREBUILT.clear()
    _PREBUILT.update(index=index, similar=similar)
    preload_corpus(corpus)
