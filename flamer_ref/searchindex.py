"""The search's own data: the index (flamer_ref.search.build_index) and the likeness model
(flamer_ref.similar) of a data tree, built from its corpus and cached beside the corpus's cache, under
the same key (`<key>.index`, `.pairs`, `.similar`; the frame and the key are flamer_ref.corpus's); and
the prebuilt data of a data tree (corpus, index and model in one file) for the browser's engine.

The one-way door: this module reads the corpus (flamer_ref.corpus.load); the corpus never reads this.
"""

from __future__ import annotations

import marshal
from pathlib import Path

from . import __version__
from .corpus import (_MEMO, CACHE_FORMAT, Corpus, _frame, _paths, _read_cache, _unframe, _valid_corpus, _write_cache,
                     load, preload_corpus)


# --------------------------------------------------------- index cache ----
def _valid_index(packed) -> bool:
    """A cached (packed) search index has every part a search reads, with consistent sizes: every
    vocabulary table but those the cache keeps apart (LAZY_TABLES), which are checked when present."""
    from .search import _TABLES, LAZY_TABLES

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
    if any(t not in packed for t in _TABLES if t not in LAZY_TABLES):
        return False
    return _valid_tables(packed, [t for t in _TABLES if t in packed])


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
    from .search import unpack_index

    if root is None and _PREBUILT:
        return _PREBUILT["index"]
    root, files, stem = _paths(root)
    key = ("index", str(root), stem.name if stem else None)
    if key in _MEMO:
        return _MEMO[key]  # type: ignore[return-value]
    path = stem.with_name(stem.name + ".index") if stem else None
    packed = _read_cache(path, b"I")
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
    _MEMO[key] = index
    return index


def _hooks(index: dict, root: Path, stem: Path | None) -> None:
    # read on first need: the tables the cache keeps apart, and the likeness model
    index["_more"] = lambda: _read_more(root, stem)
    index["_similar_loader"] = lambda: load_similar(root, stem)


def _renew_index(index: dict, root: Path, stem: Path | None) -> None:
    """A cached index that passed its checks held bytes that are not UTF-8 (found when a query first
    decoded them): the cache is damaged. Build the index again from the corpus, write its files again
    and refresh `index` in place, so that every holder of it (the memo, the caller) reads the new one."""
    from .search import unpack_index

    fresh = unpack_index(_write_index(stem, load(root)))
    index.clear()
    index.update(fresh)
    _hooks(index, root, stem)


def _write_index(stem: Path | None, corpus: Corpus) -> dict:
    """Build the packed index and cache it as two files: `.index` (what every query reads) and
    `.pairs` (LAZY_TABLES: read only by a query that needs one). Returns the whole packed index."""
    from .search import LAZY_TABLES, build_index, pack_index

    # built once per corpus object: the first search after a change writes the caches (which builds
    # the index) and then writes the index (which built it again: 2 x 6 s on a 2 MB data tree)
    packed = corpus.__dict__.get("_packed_index")
    if packed is None:
        packed = corpus.__dict__["_packed_index"] = pack_index(build_index(corpus))
    if stem is not None:
        # the rarely read part first: an `.index` is never there without its `.pairs`
        if _write_cache(stem.with_name(stem.name + ".pairs"), b"P", {t: packed[t] for t in LAZY_TABLES}):
            _write_cache(stem.with_name(stem.name + ".index"), b"I",
                         {k: v for k, v in packed.items() if k not in LAZY_TABLES})
    return packed


def _read_more(root: Path, stem: Path | None) -> dict:
    """The tables the index cache keeps apart (`.pairs`); when that file is missing or cannot be
    trusted, the index is built again from the corpus (and both files written again)."""
    from .search import LAZY_TABLES

    more = _read_cache(stem.with_name(stem.name + ".pairs") if stem else None, b"P")
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


def load_similar(root: Path | str | None = None, stem: Path | None = None):
    """The likeness model of a data tree (flamer_ref/similar.py), from its own cache file next to the
    index's; trained from the corpus when there is none (a search of one word never needs it)."""
    from .similar import Model, pack, train

    if root is None and stem is None and _PREBUILT:
        return _PREBUILT["similar"]()
    if stem is None:
        root, _files, stem = _paths(root)
    key = ("similar", str(root), stem.name if stem else None)
    if key in _MEMO:
        return _MEMO[key]
    path = stem.with_name(stem.name + ".similar") if stem else None
    packed = _read_cache(path, b"S")
    model = None
    if packed is not None and _valid_similar(packed):
        try:
            model = Model(packed)
        except UnicodeDecodeError:  # keys that are not UTF-8: a damaged cache, trained again below
            model = None
    if model is None:
        from .search import similar_docs

        packed = pack(train(similar_docs(load(root))))
        if path is not None:
            _write_cache(path, b"S", packed)
        model = Model(packed)
    _MEMO[key] = model
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
    return _frame(PREBUILT_KIND, marshal.dumps(payload, PREBUILT_MARSHAL))


def preload(data: bytes) -> None:
    """Answer corpus.load(), load_index() and load_similar() for the default data tree (no root given) from
    prebuilt data (prebuilt()), checked as a cache file is: ValueError when it cannot be trusted. The
    other files the engine reads (cards/effects.yaml, rules/boards/example.yaml) still come from the data
    root. A given root (validate --data) is read as always."""
    from .search import LAZY_TABLES, unpack_index
    from .similar import Model

    obj = _unframe(bytes(data), PREBUILT_KIND)
    if not (isinstance(obj, dict) and set(obj) == {"format", "version", "corpus", "index", "similar"}
            and obj["format"] == CACHE_FORMAT and _valid_corpus(obj["corpus"], "")
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
