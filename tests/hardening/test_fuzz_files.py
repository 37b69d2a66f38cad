"""Issue 20: seeded generators against the files the tool writes and reads back (see
tests/hardening/test_cache_and_files.py for one reproducer per fault).

- planted temp-file links: symbolic links at every name a temp file of the cache or of `flamer site`
  could take (the patterns the tool used, for a window of process ids) and at the files themselves,
  pointing at a file, a folder or nowhere. Nothing outside the folder may change, every file written is
  a regular file, every link not at a written file's own name is left as it was.
- cache files with sound frames (magic, kind, length, checksum) and wrong contents: bytes that are not
  UTF-8 where text is kept, values of the wrong type, missing parts, another file's contents. The
  answers stay those of a clean cache and no command fails.

The data tree is the minimal one (conftest), the commands run in-process (CliRunner), so a case takes
well under a second. FLAMER_FUZZ_SCALE / FLAMER_FUZZ_SEED as in tests/hardening/test_fuzz_data.py.
"""

from __future__ import annotations

import functools
import json
import marshal
import os
import random
import stat
from pathlib import Path

import inprocess
import pytest

from flamer_ref import cachefile
from flamer_ref import corpus as corpus_mod
from flamer_ref.site import GENERATOR, MARKER, write_site

from datatree import write_minimal_corpus

SCALE = float(os.environ.get("FLAMER_FUZZ_SCALE", "1"))
SEED0 = int(os.environ.get("FLAMER_FUZZ_SEED", "0"))
SUFFIXES = {".corpus": b"C", ".index": b"I", ".pairs": b"P", ".similar": b"S"}
COMMANDS = (("search", "첫째"), ("search", "ㅊㅉ"), ("search", "첫조항"), ("search", "둘째 조항 본문"),
            ("rule", "a.first"), ("card", "수문장"))

needs_symlinks = pytest.mark.skipif(os.name == "nt", reason="POSIX symbolic links")


invoke = functools.partial(inprocess.invoke, fresh=True)  # each call names its data tree and cache folder


def answers(data: Path, cache: Path, what: str) -> dict:
    out = {}
    for cmd in COMMANDS:
        r = invoke(*cmd, "--json", data=data, cache=cache)
        assert r.exit_code == 0, (what, cmd, r.stderr[-2000:])
        assert "내부 오류" not in r.stderr and "Traceback" not in r.stderr, (what, cmd, r.stderr[-2000:])
        out[" ".join(cmd)] = json.loads(r.stdout)
    return out


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    return write_minimal_corpus(tmp_path_factory.mktemp("fuzzfiles") / "data").root


@pytest.fixture(scope="module")
def clean(tree, tmp_path_factory):
    cache = tmp_path_factory.mktemp("cleancache")
    got = answers(tree, cache, "clean")
    assert sorted(p.suffix for p in cache.iterdir()) == sorted(SUFFIXES)
    return got, cache


def _state(path: Path):
    """What a victim is: its bytes, or its listing for a folder, or None."""
    if path.is_dir():
        return sorted((p.name, p.read_bytes()) for p in path.iterdir())
    return path.read_bytes() if path.exists() else None


# ------------------------------------------------------------------ planted temp-file links ----
N_LINK_CASES = max(1, int(12 * SCALE))


def _victims(tmp_path: Path) -> dict[str, Path]:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "victim.txt").write_bytes(b"victim")
    (outside / "folder").mkdir()
    (outside / "folder" / "in.txt").write_bytes(b"in")
    return {"file": outside / "victim.txt", "folder": outside / "folder", "nowhere": outside / "missing"}


def _names(rng: random.Random, base: str, pid: int) -> list[str]:
    """Temp names a file `base` may be written through: the patterns of before and of now, for pids
    around this one, and guesses at the random part."""
    out = []
    for p in range(pid - rng.randrange(0, 8), pid + rng.randrange(1, 8)):
        out += [f"{base}.{p}.tmp", f".{base}.{p}.tmp", f".{base}.{p}.{rng.randbytes(6).hex()}.tmp",
                f".{base}.{p}.{'00' * 6}.tmp"]
    return rng.sample(out, k=max(1, len(out) * rng.randrange(3, 11) // 10))


@needs_symlinks
@pytest.mark.parametrize("seed", range(SEED0, SEED0 + N_LINK_CASES))
def test_planted_temp_links_in_the_cache(seed, tree, clean, tmp_path, monkeypatch):
    rng = random.Random(5000 + seed)
    victims = _victims(tmp_path)
    before = {k: _state(v) for k, v in victims.items()}
    cache = tmp_path / "cache"
    cache.mkdir()
    monkeypatch.setenv("FLAMER_CACHE_DIR", str(cache))
    key = corpus_mod.locate(tree)[2].name
    planted, at_target = {}, []
    for sfx in SUFFIXES:
        for name in _names(rng, key + sfx, os.getpid()):
            planted[name] = victims[rng.choice(sorted(victims))]
        if rng.random() < 0.3:  # a link at the cache file's own name: replaced, never written through
            at_target.append(key + sfx)
            planted[key + sfx] = victims[rng.choice(sorted(victims))]
    for name, target in planted.items():
        (cache / name).symlink_to(target)
    what = f"seed {seed}: {len(planted)} links, at the files: {at_target}"
    assert answers(tree, cache, what) == clean[0], what
    assert {k: _state(v) for k, v in victims.items()} == before, what
    for name, target in planted.items():
        if name in at_target:
            assert stat.S_ISREG(os.lstat(cache / name).st_mode), (what, name)
        else:
            assert os.readlink(cache / name) == str(target), (what, name)
    for p in cache.iterdir():
        if p.name not in planted or p.name in at_target:
            assert stat.S_ISREG(os.lstat(p).st_mode) and cachefile.own_cache_file(str(cache), p.name), (what, p.name)


@needs_symlinks
@pytest.mark.parametrize("seed", range(SEED0, SEED0 + N_LINK_CASES))
def test_planted_temp_links_in_a_site_folder(seed, tmp_path):
    rng = random.Random(6000 + seed)
    victims = _victims(tmp_path)
    before = {k: _state(v) for k, v in victims.items()}
    site = tmp_path / "site"
    files = {"index.html": "<p>첫</p>", "rules/a.html": "<p>가</p>", "cards/수문장.html": "<p>카드</p>",
             "assets/site.css": "p{}"}
    for rel in files:
        (site / rel).parent.mkdir(parents=True, exist_ok=True)
    listed = sorted(rng.sample(sorted(files), k=rng.randrange(1, len(files) + 1)))
    (site / MARKER).write_text(json.dumps({"generator": GENERATOR, "files": listed}), encoding="utf-8")
    planted, at_target = {}, []
    for rel in [*files, MARKER]:
        folder, name = os.path.split(rel)
        for tmp in _names(rng, name, os.getpid()):
            planted[os.path.join(folder, tmp)] = victims[rng.choice(sorted(victims))]
        if rel in listed and rng.random() < 0.4:  # a link where a page of ours was
            at_target.append(rel)
            planted[rel] = victims[rng.choice(sorted(victims))]
    for rel, target in planted.items():
        (site / rel).symlink_to(target)
    what = f"seed {seed}: {len(planted)} links, listed {listed}, at the files: {at_target}"
    write_site(files, str(site), "2026-09-25")
    assert {k: _state(v) for k, v in victims.items()} == before, what
    for rel, text in files.items():
        assert stat.S_ISREG(os.lstat(site / rel).st_mode), (what, rel)
        assert (site / rel).read_text(encoding="utf-8") == text, (what, rel)
    assert stat.S_ISREG(os.lstat(site / MARKER).st_mode), what
    for rel, target in planted.items():
        if rel not in at_target:
            assert os.readlink(site / rel) == str(target), (what, rel)


# -------------------------------------------------------- sound frames, wrong contents ----
N_CONTENT_CASES = max(1, int(24 * SCALE))


def _spots(obj, path=()):
    """Every (path, value) inside the top levels of a cached object (dicts, tuples, two levels down)."""
    out = []
    if isinstance(obj, dict) and len(path) < 2:
        for k, v in obj.items():
            out.append((path + (k,), v))
            out += _spots(v, path + (k,))
    elif isinstance(obj, tuple) and len(path) < 2:
        for i, v in enumerate(obj):
            out.append((path + (i,), v))
    return out


def _set(obj, path, value):
    if len(path) == 1:
        obj[path[0]] = value
        return
    key, last = path
    parent = obj[key]
    if isinstance(parent, tuple):  # tuples are rebuilt
        obj[key] = tuple(value if i == last else v for i, v in enumerate(parent))
    else:
        parent[last] = value


def _drop(obj, path):
    parent = obj if len(path) == 1 else obj[path[0]]
    if isinstance(parent, dict):
        del parent[path[-1]]


def _not_utf8(rng, b: bytes) -> bytes:
    if not b:
        return b"\xff"
    i = rng.randrange(len(b))
    bad = rng.choice([b"\xff", b"\xc3", b"\x80", b"\xfe", b"\xed"])
    return b[:i] + bad + b[i + 1:]  # the same length: sizes and offsets stay consistent


WRONG = [0, -1, 2 ** 40, 1.5, None, True, "", "x\x00y", b"", b"\xff" * 8, [], [1, "a"], {}, {"a": 1}, (), (b"", b"")]


def _mutate(rng, obj, other_objs):
    spots = _spots(obj)
    how = rng.choice(["not-utf8", "not-utf8", "retype", "drop", "other-file"])
    if how == "not-utf8":
        texts = [(p, v) for p, v in spots if isinstance(v, bytes) and v and _is_text(v)]
        if texts:
            p, v = rng.choice(texts)
            _set(obj, p, _not_utf8(rng, v))
            return obj, f"not-utf8 at {p}"
        how = "retype"
    if how == "retype" and spots:
        p, v = rng.choice(spots)
        _set(obj, p, rng.choice([w for w in WRONG if type(w) is not type(v)]))
        return obj, f"retype {p}"
    if how == "drop":
        keyed = [p for p, _ in spots if isinstance(obj if len(p) == 1 else obj[p[0]], dict)]
        if keyed:
            p = rng.choice(keyed)
            _drop(obj, p)
            return obj, f"drop {p}"
    return rng.choice(other_objs), "other-file"


def _is_text(b: bytes) -> bool:
    try:
        return any(c > 0x7f for c in b[:4000]) and bool(b.decode("utf-8"))
    except UnicodeDecodeError:
        return False


@pytest.mark.parametrize("seed", range(SEED0, SEED0 + N_CONTENT_CASES))
def test_cache_files_with_sound_frames_and_wrong_contents(seed, tree, clean, tmp_path):
    import shutil

    rng = random.Random(7000 + seed)
    cache = tmp_path / "cache"
    shutil.copytree(clean[1], cache)
    files = sorted(cache.iterdir())
    objs = {p: marshal.loads(p.read_bytes()[cachefile.HEAD:]) for p in files}
    targets = files if seed % 4 == 0 else [rng.choice(files)]
    hows = []
    for path in targets:
        kind = SUFFIXES[path.suffix]
        obj, how = _mutate(rng, objs[path], [o for p, o in objs.items() if p != path] + [42, {}, [1]])
        path.write_bytes(cachefile.frame(kind, marshal.dumps(obj)))
        assert cachefile.read_cache(path, kind) is not None  # the frame is sound
        hows.append(f"{path.suffix}: {how}")
    what = f"seed {seed}: {hows}"
    assert answers(tree, cache, what) == clean[0], what
