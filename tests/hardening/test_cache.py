"""Issue 11: the cache is only an accelerator. It is keyed on the data files' bytes, every
cache file is checked (header, checksum, shape) before use, and no cache state changes an
answer or fails a command (wrong type, truncated, random bytes, edited bytes, FIFO, folder)."""

from __future__ import annotations

import functools
import json
import marshal
import os
import random
from pathlib import Path

import flamer_fork
import pytest

from flamer_ref import cachefile
from flamer_ref import corpus as corpus_mod
from flamer_ref import searchindex
from flamer_ref.search import search

from datatree import write_minimal_corpus


def _fresh(monkeypatch, cache: Path):
    monkeypatch.setenv("FLAMER_CACHE_DIR", str(cache))
    cachefile.MEMO.clear()


def _answers(root: Path):
    cachefile.MEMO.clear()
    c = corpus_mod.load(root)
    idx = searchindex.load_index(root)
    hits = [r["id"] for r in search(idx, "첫째")]
    hits_cho = [r["id"] for r in search(idx, "ㅊㅉ")]  # 초성: reads the tables the cache keeps apart (.pairs)
    return c.to_plain(), hits, hits_cho


def _cache_file(cache: Path, suffix: str) -> Path:
    files = sorted(cache.glob("*" + suffix))
    assert len(files) == 1, files
    return files[0]


def _code_object():
    return compile("1", "<x>", "eval")


CORRUPTIONS = {
    "int": lambda kind, blob: cachefile.frame(kind, marshal.dumps(42)),
    "empty-dict": lambda kind, blob: cachefile.frame(kind, marshal.dumps({})),
    "list": lambda kind, blob: cachefile.frame(kind, marshal.dumps([1, 2, 3])),
    "code": lambda kind, blob: cachefile.frame(kind, marshal.dumps(_code_object())),
    "bare-marshal-int": lambda kind, blob: marshal.dumps(42),
    "bare-marshal-code": lambda kind, blob: marshal.dumps(_code_object()),
    "truncated": lambda kind, blob: blob[: len(blob) // 2],
    "header-only": lambda kind, blob: blob[: cachefile.HEAD],
    "empty": lambda kind, blob: b"",
    "random": lambda kind, blob: random.Random(7).randbytes(len(blob)),
    "one-byte-flipped": lambda kind, blob: blob[:-10] + bytes([blob[-10] ^ 0x41]) + blob[-9:],
    "other-kind": lambda kind, blob: cachefile.frame(b"I" if kind == b"C" else b"C", blob[cachefile.HEAD:]),
}


@pytest.mark.parametrize("suffix,kind", [(".corpus", b"C"), (".index", b"I"), (".pairs", b"P")])
@pytest.mark.parametrize("how", sorted(CORRUPTIONS))
def test_corrupt_cache_file_is_rebuilt_and_answers_stay_correct(tmp_path, monkeypatch, suffix, kind, how):
    root = write_minimal_corpus(tmp_path / "data").root
    cache = tmp_path / "cache"
    _fresh(monkeypatch, cache)
    expected = _answers(root)
    assert expected[1], "the query must find something"
    path = _cache_file(cache, suffix)
    path.write_bytes(CORRUPTIONS[how](kind, path.read_bytes()))
    assert _answers(root) == expected
    # and a later run reads a sound cache again
    assert cachefile.read_cache(_cache_file(cache, ".index"), b"I") is not None


@pytest.mark.parametrize("suffix", [".corpus", ".index", ".pairs"])
def test_cache_path_that_is_a_folder_or_fifo_is_skipped(tmp_path, monkeypatch, suffix):
    root = write_minimal_corpus(tmp_path / "data").root
    cache = tmp_path / "cache"
    _fresh(monkeypatch, cache)
    expected = _answers(root)
    path = _cache_file(cache, suffix)
    path.unlink()
    path.mkdir()
    assert _answers(root) == expected
    path.rmdir()
    os.mkfifo(path)
    assert _answers(root) == expected  # must not block on the writer-less FIFO


# a real process, forked from a warm interpreter (tests/flamer_fork.py); each call names its data and cache
run = functools.partial(flamer_fork.run, env={"PYTHONIOENCODING": "utf-8"}, timeout=20)


@pytest.mark.parametrize("how", ["fifo", "int", "random", "code"])
def test_cli_answers_with_a_broken_cache(tmp_path, how):
    root = write_minimal_corpus(tmp_path / "data").root
    cache = tmp_path / "cache"
    first_rule = run("rule", "a.first", "--json", data=root, cache=cache)
    first_search = run("search", "첫째", "--json", data=root, cache=cache)
    assert first_rule.returncode == 0 and first_search.returncode == 0, first_rule.stderr + first_search.stderr
    for suffix, kind in ((".corpus", b"C"), (".index", b"I")):
        path = _cache_file(cache, suffix)
        if how == "fifo":
            path.unlink()
            os.mkfifo(path)
        else:
            path.write_bytes(CORRUPTIONS[how](kind, path.read_bytes()))
    p_rule = run("rule", "a.first", "--json", data=root, cache=cache)
    p_search = run("search", "첫째", "--json", data=root, cache=cache)
    for p in (p_rule, p_search):
        assert p.returncode == 0, p.stderr
        assert "내부 오류" not in p.stderr and "Traceback" not in p.stderr
    assert json.loads(p_rule.stdout) == json.loads(first_rule.stdout)
    assert json.loads(p_search.stdout) == json.loads(first_search.stdout)


def test_same_size_edit_with_old_mtime_is_served(tmp_path, monkeypatch):
    tree = write_minimal_corpus(tmp_path / "data")
    cache = tmp_path / "cache"
    rel = "rules/clauses/a.yaml"
    path = tree.root / rel
    st = path.stat()
    first = run("rule", "a.first", "--json", data=tree.root, cache=cache)
    assert "첫 조항의 본문." in first.stdout
    old = path.read_bytes()
    new = old.replace("첫 조항의 본문.".encode(), "새 조항의 본문.".encode())
    assert len(new) == len(old) and new != old
    path.write_bytes(new)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert path.stat().st_size == st.st_size and path.stat().st_mtime_ns == st.st_mtime_ns
    second = run("rule", "a.first", "--json", data=tree.root, cache=cache)
    assert second.returncode == 0, second.stderr
    assert "새 조항의 본문." in second.stdout and "첫 조항의 본문." not in second.stdout
    # in-process too (the memo is keyed on content as well)
    _fresh(monkeypatch, cache)
    assert corpus_mod.load(tree.root).clauses["a.first"]["text"] == "새 조항의 본문."


def test_the_key_remembered_in_a_process_follows_every_edit(tmp_path, monkeypatch):
    """signature() remembers a key for settled files (changed over 2 s ago) by their identity and change
    time, so a process that loads often hashes unchanged files once. An edit that keeps size and
    modification time still moves the change time: the key is computed again and differs. A file changed
    just now is hashed every time (its clock may not have ticked between two writes)."""
    import time

    tree = write_minimal_corpus(tmp_path / "data")
    root, files, _ = corpus_mod.locate(tree.root)
    path = tree.root / "rules/clauses/a.yaml"
    digests = []
    real_digest = cachefile._digest
    monkeypatch.setattr(cachefile, "_digest", lambda *a: digests.append(1) or real_digest(*a))
    first = cachefile.signature(root, files)
    cachefile.signature(root, files)
    assert len(digests) == 2  # just written: racy, hashed each time
    real_ns = time.time_ns
    monkeypatch.setattr(time, "time_ns", lambda: real_ns() + 10 * cachefile.SETTLED_NS)  # ten limits later
    assert cachefile.signature(root, files) == first and cachefile.signature(root, files) == first
    assert len(digests) == 3  # settled: remembered after one more hash
    time.sleep(0.05)  # past the file system clock's tick, so the edit's change time differs
    st = path.stat()
    old = path.read_bytes()
    path.write_bytes(old.replace("첫 조항의 본문.".encode(), "새 조항의 본문.".encode()))
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert path.stat().st_size == st.st_size and path.stat().st_mtime_ns == st.st_mtime_ns
    assert cachefile.signature(root, files) != first
    assert len(digests) == 4


def test_unwritable_index_is_retried_and_no_temp_files(tmp_path, monkeypatch):
    root = write_minimal_corpus(tmp_path / "data").root
    cache = tmp_path / "cache"
    _fresh(monkeypatch, cache)
    expected = _answers(root)
    _cache_file(cache, ".index").unlink()
    assert _answers(root) == expected
    assert _cache_file(cache, ".index").is_file()  # written again by the search path
    assert not list(cache.glob("*.tmp"))


# ------------------------------------------------------------------ flamer validate (issue 11) ----
def validate(root, *extra):
    args = ["validate", "--data", str(root), *extra] if root is not None else ["validate", *extra]
    return flamer_fork.run(*args, cache="", env={"PYTHONIOENCODING": "utf-8"}, timeout=60)


def _clean_error(p, *needles):
    assert p.returncode == 1, (p.returncode, p.stdout, p.stderr)
    assert "내부 오류" not in p.stderr and "Traceback" not in p.stderr, p.stderr
    for n in needles:
        assert n in p.stderr, p.stderr


@pytest.mark.parametrize("rel,old,new", [
    ("rules/clauses/a.yaml", "id: a.second", 'id: "Bad ID! <script>"'),
    ("rules/rulings.yaml", "id: ruling.2026-09-24.first", "id: Ruling.First"),
    ("rules/faq.yaml", "id: faq.a.first", "id: faq.가"),
    ("rules/glossary.yaml", "id: term.first", "id: term_first"),
    ("rules/examples/a.yaml", "id: ex.a.first", "id: ex..first"),
])
def test_validate_rejects_bad_id_formats(tree, rel, old, new):
    tree.replace(rel, old, new)
    p = validate(tree.root)
    _clean_error(p, "형식이 잘못되었습니다", rel)
    assert p.stderr.count("형식이 잘못되었습니다") == 1, p.stderr


def test_validate_accepts_the_bundled_ids():
    assert validate(None).returncode == 0


@pytest.mark.parametrize("missing", ["rules/sources.yaml", "rules/clauses", "cards/cards.yaml"])
def test_validate_missing_core_file_is_one_line(tree, missing):
    import shutil

    target = tree.root / missing
    shutil.rmtree(target) if target.is_dir() else target.unlink()
    p = validate(tree.root)
    _clean_error(p, missing)
    assert len([ln for ln in p.stderr.splitlines() if ln.strip()]) == 2, p.stderr  # header + one problem


def test_validate_empty_data_is_a_usage_error():
    p = validate("")
    assert p.returncode == 2, (p.stdout, p.stderr)
    assert "--data" in p.stderr and "검사 통과" not in p.stdout


EFFECTS = """\
effects:
- card: 수문장
  ability: 수호방패
  timing: 전투
  cost: []
  effect: null
  source: page.combat
  quote: 수비자일 때만
"""


@pytest.mark.parametrize("old,new,key", [
    ("card: 수문장", "card: [수문장]", "card"),
    ("cost: []", "cost: 3", "cost"),
    ("source: page.combat", "source: [[page.combat]]", "source"),
])
def test_validate_effects_wrong_types(tree, old, new, key):
    tree.write("cards/effects.yaml", EFFECTS)
    assert validate(tree.root).returncode == 0, validate(tree.root).stderr
    tree.replace("cards/effects.yaml", old, new)
    p = validate(tree.root)
    _clean_error(p, "cards/effects.yaml", f"[effects[0].{key}]", "형식이 잘못되었습니다")


def test_validate_example_board_as_list(tree):
    tree.write("rules/boards/example.yaml", "- width: 7\n- height: 6\n")
    _clean_error(validate(tree.root), "rules/boards/example.yaml", "'키: 값' 꼴")
    tree.write("rules/boards/example.yaml", "width: 7\nheight: 6\nadjacency: square8\n")
    assert validate(tree.root).returncode == 0


def test_relative_cache_dir_cannot_leave_the_cache_home(monkeypatch, tmp_path):
    """FLAMER_CACHE_DIR=../../elsewhere used to create folders outside ~/.cache (adversarial review)."""
    from flamer_ref.paths import cache_dir

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cachehome"))
    monkeypatch.setenv("FLAMER_CACHE_DIR", "../../escape")
    assert cache_dir() == tmp_path / "cachehome" / "flamer_ref"
    monkeypatch.setenv("FLAMER_CACHE_DIR", "mine/sub")
    assert cache_dir() == tmp_path / "cachehome" / "mine" / "sub"


def test_the_cache_key_covers_every_module_that_shapes_the_corpus(tmp_path, monkeypatch):
    """parse() reaches numbering.py (rule numbers), constants, the engine's effect parser …: a cache
    keyed on four module files answered with a corpus parsed by older code (no `number`), and the
    templates failed. Every module of the package loaded by a parse must be part of the key."""
    import sys
    from pathlib import Path

    from flamer_ref import corpus as corpus_mod

    corpus_mod.parse(corpus_mod.data_root())
    package = Path(corpus_mod.__file__).resolve().parent
    loaded = {Path(m.__file__).resolve() for name, m in list(sys.modules.items())
              if name.startswith("flamer_ref") and getattr(m, "__file__", None)}
    stats: list[str] = []
    real_stat = Path.stat

    def recording(self, *args, **kwargs):
        stats.append(os.fspath(self))
        return real_stat(self, *args, **kwargs)

    root, files, _ = corpus_mod.locate(None)
    monkeypatch.setattr(Path, "stat", recording)
    cachefile.code_stamp(fresh=True)  # the key's code part (signature reads it once per process)
    monkeypatch.undo()
    seen = {Path(p).resolve() for p in stats}
    missing = sorted(str(p.relative_to(package)) for p in loaded - seen if package in p.parents)
    assert not missing, f"modules that shape the cached corpus but not its key: {missing}"
    # … and the key is made with that code part: another code stamp, another key
    key = cachefile.signature(root, files)
    monkeypatch.setattr(cachefile, "code_stamp", lambda **kw: b"other code")
    assert cachefile.signature(root, files) != key


# ------------------------------------------------------------- compiled templates ----
FIGHT = ("fight", "거신 vs 별마대, 행성굴착기(정착)")


def _templates(cache: Path) -> list[Path]:
    return sorted(cache.glob("*.template"))


def test_a_command_keeps_its_compiled_templates_and_answers_the_same(tmp_path):
    """A command-line process keeps the templates it compiled in the cache folder (flamer_ref/templatecache.py),
    each one of our cache files; the next process reads them and answers byte for byte the same. Damaged
    ones (every kind of corruption, a FIFO in a file's place) change no answer, hang nothing, and are
    written again."""
    import stat
    import types

    cache = tmp_path / "cache"
    cold = run(*FIGHT, cache=cache)
    assert cold.returncode == 0, cold.stderr
    kept = _templates(cache)
    assert len(kept) >= 3, sorted(p.name for p in cache.iterdir())
    assert all(cachefile.own_cache_file(str(cache), p.name) for p in kept)
    assert all(isinstance(cachefile.read_cache(p, b"T"), types.CodeType) for p in kept)
    warm = run(*FIGHT, cache=cache)
    assert (warm.returncode, warm.stdout, warm.stderr) == (cold.returncode, cold.stdout, cold.stderr)
    assert _templates(cache) == kept  # read, not made again under other names
    rng = random.Random(7)
    from test_fuzz_data import CORRUPTIONS

    for n, how in enumerate(sorted(CORRUPTIONS)):
        target = kept[n % len(kept)]
        target.write_bytes(CORRUPTIONS[how](rng, target.read_bytes()))
        again = run(*FIGHT, cache=cache)
        assert (again.returncode, again.stdout, again.stderr) == (cold.returncode, cold.stdout, cold.stderr), how
        assert cachefile.read_cache(target, b"T") is not None, (how, "not written again")
    target = kept[0]
    target.unlink()
    os.mkfifo(target)
    again = run(*FIGHT, cache=cache)  # (run's timeout: a FIFO opened for reading would hang)
    assert (again.returncode, again.stdout) == (cold.returncode, cold.stdout), again.stderr
    assert stat.S_ISREG(os.lstat(target).st_mode)  # the FIFO replaced by a sound file, never read


def test_no_cache_folder_keeps_no_compiled_template(monkeypatch):
    from flamer_ref import templatecache

    monkeypatch.setenv("FLAMER_CACHE_DIR", "")
    assert templatecache.bytecode_cache() is None


def test_a_kept_template_is_its_source_s_and_is_read_instead_of_compiled(tmp_path):
    """The file's name is a digest of the template's source (and the code, Jinja's and Python's versions):
    an edited template is compiled again into a new file, never answered by the old code; an unchanged one
    is read back by a new environment without compiling."""
    import jinja2

    from flamer_ref import templatecache

    sources = {"t.txt": "첫 {{ x }}"}
    folder = tmp_path / "cache"

    def env():
        return jinja2.Environment(loader=jinja2.DictLoader(sources),
                                  bytecode_cache=templatecache.bytecode_cache(folder))

    assert env().get_template("t.txt").render(x=1) == "첫 1"
    assert len(_templates(folder)) == 1
    fresh = env()
    compiled = []
    real = fresh.compile
    fresh.compile = lambda *a, **k: compiled.append(a) or real(*a, **k)
    assert fresh.get_template("t.txt").render(x=2) == "첫 2"
    assert not compiled  # read from the cache folder
    sources["t.txt"] = "새 {{ x }}"
    assert env().get_template("t.txt").render(x=3) == "새 3"
    assert len(_templates(folder)) == 2


def test_a_cache_folder_others_may_write_into_keeps_no_compiled_template(tmp_path):
    """A compiled template is code the next process runs: where another user could put a file into the cache
    folder (group- or world-writable), none is kept or read, and the answer is the same."""
    cache = tmp_path / "shared"
    cache.mkdir()
    os.chmod(cache, 0o777)
    first = run(*FIGHT, cache=cache)
    again = run(*FIGHT, cache=cache)
    assert first.returncode == again.returncode == 0, first.stderr
    assert first.stdout == again.stdout
    assert not _templates(cache) and list(cache.glob("*.corpus"))  # the data's cache is kept as before
    os.chmod(cache, 0o755)
    run(*FIGHT, cache=cache)
    assert _templates(cache)


def test_another_data_tree_leaves_the_compiled_templates_alone(tmp_path):
    """A compiled template does not depend on the data: writing another data tree's cache into the folder
    (a judge's draft tree) removed every compiled template before, and the next command compiled them all
    again. Now they stay, and so does the bundled data's cache (cachefile.KEEP_TREES)."""
    cache = tmp_path / "cache"
    first = run(*FIGHT, cache=cache)
    assert first.returncode == 0, first.stderr
    kept = {p.name: p.stat().st_ino for p in _templates(cache)}
    bundled = {p.name: p.stat().st_ino for p in cache.glob("*.corpus")}
    assert kept and len(bundled) == 1
    draft = write_minimal_corpus(tmp_path / "draft").root
    assert run("rule", "a.first", data=draft, cache=cache).returncode == 0
    assert len(list(cache.glob("*.corpus"))) == 2  # the draft's cache written (and the sweep run)
    assert {p.name: p.stat().st_ino for p in _templates(cache)}.items() >= kept.items()  # the very files
    assert {p.name: p.stat().st_ino for p in cache.glob("*.corpus")}.items() >= bundled.items()
    again = run(*FIGHT, cache=cache)
    assert (again.returncode, again.stdout) == (first.returncode, first.stdout)


def test_compiled_templates_of_other_code_are_swept_when_one_is_kept(tmp_path):
    """Old compiled templates (another version of the code or of a template: ours by name and header, not
    among this code's names) go when a process next compiles and keeps a template in that folder; this
    code's stay, and a file that is not ours is never touched."""
    from flamer_ref import templatecache

    cache = tmp_path / "cache"
    assert run(*FIGHT, cache=cache).returncode == 0
    current = {p.name for p in _templates(cache)}
    assert current and current <= templatecache.current_names(cache)
    stale = [cache / (c * 64 + ".template") for c in "0123"]
    for p in stale:
        p.write_bytes(cachefile.frame(b"T", marshal.dumps(_code_object())))
    foreign = cache / ("4" * 64 + ".template")
    foreign.write_bytes(b"not ours " * 8)
    assert run(*FIGHT, cache=cache).returncode == 0  # nothing compiled: nothing swept
    assert all(p.exists() for p in stale)
    assert run("card", "거신", cache=cache).returncode == 0  # compiles and keeps the card's templates
    names = {p.name for p in _templates(cache)}
    assert not any(p.exists() for p in stale) and foreign.exists()
    assert current < names <= templatecache.current_names(cache) | {foreign.name}
