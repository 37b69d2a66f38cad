"""Issue 20, the files this tool writes and its cache (faults 1, 2, 4, 10 and 14).

1. Writing the cache removed every other `*.corpus` in the cache folder (FLAMER_CACHE_DIR may be a
   working folder) with its .index/.pairs/.similar; `FLAMER_CACHE_DIR=.` was the cache home itself.
2. The temp files of the cache and of `flamer site` were opened through a symbolic link planted at
   their predictable names: a file outside the folder overwritten, the page left a link to it.
4. The cache key was crc32 + adler32: an edit that keeps both answered from old data.
10. A planted 42 MB `.flamer-site.json` was read whole and acted on (15-30 s).
14. A cache file with a sound frame but bytes that are not UTF-8 crashed search (내부 오류).

Each test is the reproducer, in temp folders; in-process (CliRunner or the library) so that the
process id a temp name carries is known.
"""

from __future__ import annotations

import json
import marshal
import os
import stat
import zlib
from pathlib import Path

import pytest

import inprocess

from flamer_ref import cachefile
from flamer_ref import corpus as corpus_mod
from flamer_ref import searchindex
from flamer_ref import site as site_mod
from flamer_ref.errors import BadInput
from flamer_ref.outfile import write_atomic
from flamer_ref.paths import cache_dir
from flamer_ref.search import search_report
from flamer_ref.site import GENERATOR, MARKER, MARKER_MAX_BYTES, check_target, write_site

from datatree import MINIMAL, write_minimal_corpus

needs_symlinks = pytest.mark.skipif(not hasattr(os, "symlink") or os.name == "nt", reason="POSIX symbolic links")

SUFFIXES = {".corpus": b"C", ".index": b"I", ".pairs": b"P", ".similar": b"S"}
#: a single word, 초성 and words typed together (read .pairs), words enough for the likeness model (.similar)
QUERIES = ("첫째", "ㅊㅉ", "첫조항", "둘째 조항 본문")


def invoke_clean(*args: str, data: Path, cache: Path | str):
    """`flamer ARGS` in-process on a data tree and cache folder, a fresh corpus memo; no internal error."""
    r = inprocess.invoke(*args, data=data, cache=cache, fresh=True)
    assert "내부 오류" not in r.stderr and "Traceback" not in r.stderr, r.stderr
    return r


def warm(data: Path, cache: Path) -> dict:
    """Run what writes all four cache files; the answers, to compare with later."""
    out = {}
    for q in QUERIES:
        r = invoke_clean("search", q, "--json", data=data, cache=cache)
        assert r.exit_code == 0, r.stderr
        out[q] = json.loads(r.stdout)
    r = invoke_clean("rule", "a.first", "--json", data=data, cache=cache)
    assert r.exit_code == 0, r.stderr
    out["rule"] = json.loads(r.stdout)
    return out


def ours(path: Path) -> bool:
    return cachefile.own_cache_file(str(path.parent), path.name)


def snapshot(folder: Path) -> dict:
    """name → (kind, bytes or link target) of everything in folder (not descending)."""
    out = {}
    for p in folder.iterdir():
        if p.is_symlink():
            out[p.name] = ("link", os.readlink(p))
        elif p.is_dir():
            out[p.name] = ("dir", sorted(x.name for x in p.iterdir()))
        else:
            out[p.name] = ("file", p.read_bytes())
    return out


# --------------------------------------------------------- 1. cache writes delete other files ----
@needs_symlinks
def test_cache_writes_never_delete_files_it_did_not_write(tmp_path):
    """FLAMER_CACHE_DIR pointed at a working folder: before, 12 of its 13 files went (thesis.corpus,
    book.similar, a file named like a cache file, a link named like one ...); now none."""
    data = write_minimal_corpus(tmp_path / "data").root
    work = tmp_path / "work"
    work.mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_text("victim", encoding="utf-8")
    for name, body in {"thesis.corpus": b"my thesis", "thesis.index": b"i", "thesis.pairs": b"p",
                       "thesis.similar": b"s", "book.corpus": b"book", "book.similar": b"b", "notes.txt": b"n",
                       # our name pattern, not our header
                       "0123456789abcdef.corpus": b"not ours", "0123456789abcdef.index": b"x" * 64,
                       "ab" * 32 + ".corpus": b"not ours either " * 4,
                       # our header with the wrong kind for the suffix, and our header under another name
                       "cd" * 32 + ".index": cachefile.frame(b"C", marshal.dumps({})),
                       "mine.corpus": cachefile.frame(b"C", marshal.dumps({}))}.items():
        (work / name).write_bytes(body)
    (work / ("ef" * 32 + ".corpus")).symlink_to(victim)  # our pattern, a link: never followed nor removed
    (work / ("01" * 32 + ".pairs")).mkdir()  # a folder with our pattern
    (work / ("01" * 32 + ".pairs") / "inside.txt").write_text("x", encoding="utf-8")
    before = snapshot(work)
    warm(data, work)
    # the data changes again and again: each write has a new key, and the oldest keys' files are cleaned up
    for n in range(cachefile.KEEP_TREES + 1):
        (data / "rules" / "faq.yaml").write_text(MINIMAL["rules/faq.yaml"] + f"# edited {n}\n", encoding="utf-8")
        warm(data, work)
    after = snapshot(work)
    assert {k: v for k, v in after.items() if k in before} == before
    assert victim.read_text(encoding="utf-8") == "victim"
    new = sorted(set(after) - set(before))
    assert all(ours(work / n) for n in new), new  # only our files: those of the last KEEP_TREES keys
    assert len(new) == 4 * cachefile.KEEP_TREES and len({n.split(".")[0] for n in new}) == cachefile.KEEP_TREES, new


def _plant(cache: Path, key: str, mtime_s: int | None = None) -> list[str]:
    """A stale key's four files, ours by name and header (their modification time set when given)."""
    names = []
    for sfx, kind in SUFFIXES.items():
        (cache / (key + sfx)).write_bytes(cachefile.frame(kind, marshal.dumps({"old": 1})))
        if mtime_s is not None:
            os.utime(cache / (key + sfx), (mtime_s, mtime_s))
        names.append(key + sfx)
    return names


def test_stale_cache_files_of_this_tool_are_still_removed(tmp_path):
    """What the clean-up is for: the files older keys (older data or code) left, ours by name and header.
    The data trees used last keep theirs (cachefile.KEEP_TREES, the one written included); the others and
    every 16-digit key (the versions before issue 20) go."""
    data = write_minimal_corpus(tmp_path / "data").root
    cache = tmp_path / "cache"
    cache.mkdir()
    old = _plant(cache, "a" * 16)
    by_age = [_plant(cache, f"{n}" * 64, 1_000_000 + n) for n in range(1, cachefile.KEEP_TREES + 2)]  # oldest first
    assert all(ours(cache / n) for names in [old, *by_age] for n in names)
    warm(data, cache)
    left = set(p.name for p in cache.iterdir())
    kept = by_age[-(cachefile.KEEP_TREES - 1):]
    assert not set(old) & left and not {n for names in by_age[:-(cachefile.KEEP_TREES - 1)] for n in names} & left
    assert {n for names in kept for n in names} <= left
    assert len(left) == 4 * cachefile.KEEP_TREES and len({n.split(".")[0] for n in left}) == cachefile.KEEP_TREES


def test_a_tree_in_use_keeps_its_cache_while_others_come_and_go(tmp_path):
    """Reading a tree's cache marks it used (its `.corpus` is touched): a judge who looks a draft tree up
    between lookups in another keeps both caches, however many other trees come after."""
    cache = tmp_path / "cache"
    trees = [write_minimal_corpus(tmp_path / f"data{n}").root for n in range(cachefile.KEEP_TREES + 2)]
    for n, tree in enumerate(trees):
        (tree / "rules" / "faq.yaml").write_text(MINIMAL["rules/faq.yaml"] + f"# tree {n}\n", encoding="utf-8")

    def key_of(tree):
        return cachefile.signature(*corpus_mod.locate(tree)[:2])

    def age(tree, seconds):
        for p in cache.glob(key_of(tree) + ".*"):
            os.utime(p, (seconds, seconds))

    in_use = warm(trees[0], cache)
    age(trees[0], 1_000_000)
    written = {p.name: p.stat().st_ino for p in cache.glob(key_of(trees[0]) + ".*")}
    assert sorted(Path(n).suffix for n in written) == sorted(SUFFIXES)
    for n, tree in enumerate(trees[1:], 1):
        warm(tree, cache)
        age(tree, 1_000_000 + 10 * n)
        assert invoke_clean("rule", "a.first", "--json", data=trees[0], cache=cache).exit_code == 0  # used
    keys = {p.name.split(".")[0] for p in cache.iterdir()}
    assert key_of(trees[0]) in keys and len(keys) == cachefile.KEEP_TREES, keys
    # never removed and written again: the very files of the first write, all four
    assert {p.name: p.stat().st_ino for p in cache.glob(key_of(trees[0]) + ".*")} == written
    assert key_of(trees[1]) not in keys  # the oldest that was not used since
    assert warm(trees[0], cache) == in_use


@pytest.mark.parametrize("value", [".", "./", "a/..", "x/../.", "mine/.."])
def test_relative_cache_dir_that_is_the_cache_home_keeps_the_default_folder(tmp_path, monkeypatch, value):
    """FLAMER_CACHE_DIR=. resolved to ~/.cache itself, shared with every other program."""
    home = tmp_path / "cachehome"
    monkeypatch.setenv("XDG_CACHE_HOME", str(home))
    monkeypatch.setenv("FLAMER_CACHE_DIR", value)
    assert cache_dir() == home / "flamer_ref"


def test_cache_dir_dot_writes_into_its_own_folder(tmp_path, monkeypatch):
    home = tmp_path / "cachehome"
    home.mkdir()
    (home / "thesis.corpus").write_text("mine", encoding="utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(home))
    data = write_minimal_corpus(tmp_path / "data").root
    warm(data, ".")
    assert sorted(p.name for p in home.iterdir()) == ["flamer_ref", "thesis.corpus"]
    assert (home / "thesis.corpus").read_text(encoding="utf-8") == "mine"
    assert len(list((home / "flamer_ref").iterdir())) == 4


# ------------------------------------------------------------- 2. planted temp-file links ----
def _pid_window(pid: int) -> range:
    return range(max(1, pid - 20), pid + 21)


@needs_symlinks
def test_cache_temp_names_planted_as_links_are_never_followed(tmp_path, monkeypatch):
    """Links at every temp name the cache used (`<key>.<kind>.<pid>.tmp`) and a hidden variant, for the
    pids around this process's, and one at a cache file's own name: before, the victim was overwritten
    with a cache file and the cache files left links to it; now the victim is intact, every cache file
    is a regular file of ours, and the planted links are left as they were."""
    data = write_minimal_corpus(tmp_path / "data").root
    cache = tmp_path / "cache"
    cache.mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_bytes(b"victim")
    monkeypatch.setenv("FLAMER_CACHE_DIR", str(cache))
    key = corpus_mod.locate(data)[2].name
    planted = []
    for pid in _pid_window(os.getpid()):
        for sfx in SUFFIXES:
            for name in (f"{key}{sfx}.{pid}.tmp", f".{key}{sfx}.{pid}.tmp"):
                (cache / name).symlink_to(victim)
                planted.append(name)
    (cache / (key + ".corpus")).symlink_to(victim)
    answers = warm(data, cache)
    assert victim.read_bytes() == b"victim"
    assert all(os.readlink(cache / n) == str(victim) for n in planted)
    files = sorted(p for p in cache.iterdir() if p.name not in planted)
    assert [p.name for p in files] == sorted(key + sfx for sfx in SUFFIXES)
    for p in files:
        assert stat.S_ISREG(os.lstat(p).st_mode) and ours(p), p.name
    assert warm(data, cache) == answers  # and they are read back


@needs_symlinks
def test_write_atomic_never_opens_a_taken_temp_name(tmp_path, monkeypatch):
    """The temp name is new each time (pid + random); one taken by a link or a file is passed over."""
    folder = tmp_path / "f"
    folder.mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_bytes(b"victim")
    draws = iter([b"\x00" * 6, b"\x01" * 6, b"\x02" * 6])
    monkeypatch.setattr(os, "urandom", lambda n: next(draws))
    pid = os.getpid()
    (folder / f".page.html.{pid}.{'00' * 6}.tmp").symlink_to(victim)
    (folder / f".page.html.{pid}.{'01' * 6}.tmp").write_bytes(b"someone's")
    write_atomic(folder / "page.html", b"new page")
    assert victim.read_bytes() == b"victim"
    assert (folder / "page.html").read_bytes() == b"new page" and not (folder / "page.html").is_symlink()
    assert (folder / f".page.html.{pid}.{'01' * 6}.tmp").read_bytes() == b"someone's"
    assert len(list(folder.iterdir())) == 3  # nothing of ours left behind


def test_write_atomic_that_fails_leaves_no_temp_file(tmp_path, monkeypatch):
    folder = tmp_path / "f"
    folder.mkdir()
    (folder / "page.html").mkdir()  # os.replace cannot put a file there
    with pytest.raises(OSError):
        write_atomic(folder / "page.html", b"x")
    assert [p.name for p in folder.iterdir()] == ["page.html"]


@needs_symlinks
def test_site_temp_names_planted_as_links_are_never_followed(tmp_path):
    """`flamer site` into a folder it wrote before, with links at `.<page>.<pid>.tmp` (and at the list's
    temp name): before, the victim got the page and index.html was left a link to it."""
    site, outside = tmp_path / "site", tmp_path / "outside"
    (site / "rules").mkdir(parents=True)
    outside.mkdir()
    victim = outside / "victim.txt"
    victim.write_bytes(b"victim")
    (site / MARKER).write_text(json.dumps({"generator": GENERATOR, "files": ["index.html", "rules/a.html"]}),
                               encoding="utf-8")
    planted = []
    for pid in _pid_window(os.getpid()):
        for rel in (f".index.html.{pid}.tmp", f"rules/.a.html.{pid}.tmp", f".{MARKER}.{pid}.tmp"):
            (site / rel).symlink_to(victim)
            planted.append(rel)
    (site / "index.html").symlink_to(victim)  # listed as ours: replaced, not written through
    files = {"index.html": "<p>새 쪽</p>", "rules/a.html": "<p>가</p>"}
    write_site(files, str(site), "2026-09-25")
    assert victim.read_bytes() == b"victim"
    for rel, text in files.items():
        assert stat.S_ISREG(os.lstat(site / rel).st_mode) and (site / rel).read_text(encoding="utf-8") == text
    assert stat.S_ISREG(os.lstat(site / MARKER).st_mode)
    assert json.loads((site / MARKER).read_text(encoding="utf-8"))["files"] == sorted(files)
    assert all((site / rel).is_symlink() for rel in planted)


# ---------------------------------------------------------------------- 4. the cache key ----
def test_cache_key_is_a_digest_that_one_comment_byte_changes(tmp_path, monkeypatch):
    data = write_minimal_corpus(tmp_path / "data").root
    monkeypatch.setenv("FLAMER_CACHE_DIR", str(tmp_path / "cache"))
    key = corpus_mod.locate(data)[2].name
    assert len(key) == 64 and all(c in "0123456789abcdef" for c in key)
    path = data / "rules" / "faq.yaml"
    text = path.read_bytes()
    path.write_bytes(text.replace(b"# yaml", b"# yamL", 1))
    other = corpus_mod.locate(data)[2].name
    assert other != key and len(other) == 64


# cards.yaml of the minimal tree with three comment lines; in the second version 수문장's atk is 9
# (was 1) and the comments are edited so that crc32 and adler32 of the file stay the same (built
# offline: the atk edit balanced for adler32 two bytes each side, then crc32 restored by flipping
# low bits of adler-neutral triples, solved over GF(2))
_PAD_A = ("# " + "e" * 40, "# " + "e" * 40, "# " + "b" * 192)
_PAD_B = ("# eeeeeeeeeeeeeeeeeeeeeeeeeeeeaeeeeeeeeeee",
          "# eeeeeeeeeeeeeeeeaeeeeeeeeeeeeeeeeeeeeeee",
          "# bbbc`cbbbbbbbbbc`cc`cbbbc`cbbbc`cbbbbbbc`cbbbc`cc`cc`cbbbc`cbbbbbbc`cc`cc`cc`cc`c"
          + "b" * 111)


def _cards(atk: int, pad: tuple[str, str, str]) -> bytes:
    text = MINIMAL["cards/cards.yaml"].replace("  atk: 1\n", f"{pad[0]}\n  atk: {atk}\n{pad[1]}\n")
    return (text + pad[2] + "\n").encode("utf-8")


def test_crc32_and_adler32_collision_does_not_answer_from_old_data(tmp_path):
    """An edit that keeps crc32 and adler32 (수문장 ATK 1 → 9): the old key answered ATK 1 for ever."""
    old, new = _cards(1, _PAD_A), _cards(9, _PAD_B)
    assert old != new and len(old) == len(new)
    assert zlib.crc32(old) == zlib.crc32(new) and zlib.adler32(old) == zlib.adler32(new)  # the reproducer holds
    data = write_minimal_corpus(tmp_path / "data").root
    cache = tmp_path / "cache"
    cards = data / "cards" / "cards.yaml"
    cards.write_bytes(old)
    r = invoke_clean("card", "수문장", "--json", data=data, cache=cache)
    assert r.exit_code == 0 and json.loads(r.stdout)["atk"] == 1, r.stderr
    cards.write_bytes(new)
    r = invoke_clean("card", "수문장", "--json", data=data, cache=cache)
    assert r.exit_code == 0 and json.loads(r.stdout)["atk"] == 9, r.stderr


# ---------------------------------------------------------------- 10. an oversized site list ----
class _JsonSpy:
    """site.py's json, recording the size of every text it parses."""

    def __init__(self):
        self.sizes = []

    def loads(self, text, *a, **k):
        self.sizes.append(len(text))
        return json.loads(text, *a, **k)

    def dumps(self, *a, **k):
        return json.dumps(*a, **k)


def test_site_list_larger_than_any_written_is_refused_unread(tmp_path, monkeypatch):
    """A 42 MB `.flamer-site.json` (a valid list padded with spaces): before, read whole and taken as ours;
    now refused as not this command's, without reading it."""
    site = tmp_path / "site"
    site.mkdir()
    with open(site / MARKER, "w", encoding="utf-8") as fh:
        fh.write(json.dumps({"generator": GENERATOR, "files": []}))
        fh.truncate(42 * 1024 * 1024)
    with open(site / MARKER, "r+b") as fh:  # trailing spaces (valid JSON), not a hole of NULs
        fh.seek(100)
        fh.write(b" " * (42 * 1024 * 1024 - 100))
    spy = _JsonSpy()
    monkeypatch.setattr(site_mod, "json", spy)
    with pytest.raises(BadInput, match="망가졌거나 flamer site가 쓴 것이 아닙니다"):
        check_target(str(site))
    assert not spy.sizes or max(spy.sizes) <= MARKER_MAX_BYTES
    r = inprocess.invoke("site", str(site), cache="")
    assert r.exit_code == 1 and "망가졌거나" in r.stderr, r.stderr


def test_site_list_naming_many_missing_files_costs_no_check_each(tmp_path, monkeypatch):
    """A list under the cap can still name ~100,000 files: only the ones that are there get the checks
    (a dozen system calls each); a 1 MB list of missing names took 55 s here."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "old.html").write_text("old", encoding="utf-8")
    names = [f"{i:x}.html" for i in range(80_000)] + ["old.html"]
    text = json.dumps({"generator": GENERATOR, "files": names}, separators=(",", ":"))
    assert len(text) <= MARKER_MAX_BYTES
    (site / MARKER).write_text(text, encoding="utf-8")
    calls = []
    real = site_mod._remove_owned
    monkeypatch.setattr(site_mod, "_remove_owned", lambda out, rel: calls.append(rel) or real(out, rel))
    assert write_site({"index.html": "x"}, str(site), "2026-09-25") == ["old.html"]
    assert calls == ["old.html"]


def test_site_list_this_command_writes_is_far_below_the_cap(tmp_path):
    """The cap leaves room: a site of 5,000 files writes a list of about 1/6 of it."""
    site = tmp_path / "site"
    files = {f"cards/카드-{i}.html": "x" for i in range(5000)}
    write_site(files, str(site), "2026-09-25")
    assert (site / MARKER).stat().st_size * 5 < MARKER_MAX_BYTES
    assert write_site(files, str(site), "2026-09-25") == []  # and it is read back as ours


# ----------------------------------------------------------- 14. cache contents not UTF-8 ----
def _reframe(path: Path, mutate) -> None:
    kind = SUFFIXES[path.suffix]
    obj = marshal.loads(path.read_bytes()[cachefile.HEAD:])
    mutate(obj)
    path.write_bytes(cachefile.frame(kind, marshal.dumps(obj)))


def _bad(b: bytes) -> bytes:
    return b"\xff" + b[1:]  # the same length: offsets and sizes stay consistent


NOT_UTF8 = {
    "titles": (".index", lambda o: o.update(titles=(b"\xff" * len(o["titles"][0]), o["titles"][1]))),
    "texts": (".index", lambda o: o.update(texts=(_bad(o["texts"][0]), o["texts"][1]))),
    "names": (".index", lambda o: o.update(names=(b"\xc3" * len(o["names"][0]), o["names"][1]))),
    "jamo-keys": (".index", lambda o: o["jamo"].update(keys=_bad(o["jamo"]["keys"]))),
    "jamo-lex-keys": (".index", lambda o: o["jamo"].update(lex_keys=b"\xed\xa0\x80" + o["jamo"]["lex_keys"][3:])),
    "cho-keys": (".pairs", lambda o: o["cho"].update(keys=_bad(o["cho"]["keys"]))),
    "pairs-lex-keys": (".pairs", lambda o: o["jamo_pairs"].update(lex_keys=_bad(o["jamo_pairs"]["lex_keys"]))),
    "similar-keys": (".similar", lambda o: o.update(keys=_bad(o["keys"]))),
}


@pytest.mark.parametrize("how", sorted(NOT_UTF8))
def test_cache_file_with_a_sound_frame_and_bytes_not_utf8_is_rebuilt(tmp_path, how):
    """Before: search answered 내부 오류 (UnicodeDecodeError). Now the cache is damaged, so rebuilt."""
    data = write_minimal_corpus(tmp_path / "data").root
    cache = tmp_path / "cache"
    clean = warm(data, cache)
    suffix, mutate = NOT_UTF8[how]
    (path,) = cache.glob("*" + suffix)
    _reframe(path, mutate)
    assert cachefile.read_cache(path, SUFFIXES[suffix]) is not None  # the frame is sound
    assert warm(data, cache) == clean
    # written again, sound: every UTF-8 part decodes
    obj = cachefile.read_cache(path, SUFFIXES[suffix])
    for part in ([obj["keys"]] if suffix == ".similar" else
                 [t[k] for t in obj.values() if isinstance(t, dict) and "keys" in t for k in ("keys", "lex_keys")]
                 + [obj[c][0] for c in ("titles", "texts", "heads", "names") if c in obj]):
        part.decode("utf-8")


def test_index_from_the_cache_is_rebuilt_in_place_once(tmp_path, monkeypatch):
    """The rebuild is for an index read from a cache file, in place (every holder sees the new one),
    once; an index built in this process has nothing to rebuild from."""
    from flamer_ref.searchindex import _Column

    data = write_minimal_corpus(tmp_path / "data").root
    monkeypatch.setenv("FLAMER_CACHE_DIR", str(tmp_path / "cache"))
    cachefile.MEMO.clear()
    fresh = searchindex.load_index(data)
    assert "_renew" not in fresh
    clean = search_report(fresh, "첫째")
    cachefile.MEMO.clear()
    index = searchindex.load_index(data)
    assert "_renew" in index
    good = index["titles"]
    index["titles"] = _Column(b"\xff" * len(good.blob), good.offs)
    assert search_report(index, "첫째") == clean
    assert "_renew" not in index and searchindex.load_index(data) is index
