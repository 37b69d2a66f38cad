"""Issue 11: random byte-level corruption of the data tree (rules/, cards/) and of the cache.

A copy of the bundled data is corrupted with seeded random edits (a flipped byte, a cut, a NUL,
invalid UTF-8, a duplicated or dropped line …) in one file, then `flamer validate --data`,
`flamer rule` and `flamer search` run over it (FLAMER_DATA). Each must give a correct answer or a
clean Korean error: exit 1, one message, no traceback, never "내부 오류". An answer that cannot
depend on the corrupted file must be exactly the clean one.

The cache (FLAMER_CACHE_DIR) is only an accelerator: random corruptions of its files must never
change an answer nor fail a command.

Seeds are fixed: CI sees the same cases every time. Most cases run in-process (Typer's CliRunner,
as tests/test_fidelity_*.py do); a few in a subprocess, the way people run the tool."""

from __future__ import annotations

import functools
import json
import os
import random
import re
import shutil
from pathlib import Path

import flamer_fork
import inprocess
import pytest

from flamer_ref import cachefile
from flamer_ref import corpus as corpus_mod
from flamer_ref.paths import data_root

HANGUL = re.compile("[가-힣]")
RULE = "combat.step7.sweep"
QUERY = "정착 기물 공격"
CHO_QUERY = "ㅈㅊ ㄱㅁ"  # 초성: reads the tables the index cache keeps apart (.pairs)
#: the files `flamer rule combat.step7.sweep` reads its answer from (its clause, rulings, pages)
RULE_DEPENDS = ("rules/clauses/", "rules/rulings.yaml", "rules/sources.yaml")


# ----------------------------------------------------------------- corruptions ----
def _flip(rng, b: bytes) -> bytes:
    if not b:
        return b"\x01"
    i = rng.randrange(len(b))
    return b[:i] + bytes([b[i] ^ rng.randrange(1, 256)]) + b[i + 1:]


def _truncate(rng, b: bytes) -> bytes:
    return b[: rng.randrange(len(b) + 1)]


def _nul(rng, b: bytes) -> bytes:
    i = rng.randrange(len(b) + 1)
    return b[:i] + b"\x00" + b[i:]


def _bad_utf8(rng, b: bytes) -> bytes:
    i = rng.randrange(len(b) + 1)
    return b[:i] + rng.choice([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xe2\x82", b"\xfe\xff"]) + b[i:]


def _dup_lines(rng, b: bytes) -> bytes:
    lines = b.splitlines(keepends=True)
    if not lines:
        return b + b
    i = rng.randrange(len(lines))
    j = min(len(lines), i + rng.randrange(1, 4))
    return b"".join(lines[:j] + lines[i:j] + lines[j:])


def _drop_line(rng, b: bytes) -> bytes:
    lines = b.splitlines(keepends=True)
    if not lines:
        return b
    i = rng.randrange(len(lines))
    return b"".join(lines[:i] + lines[i + 1:])


def _shift_indent(rng, b: bytes) -> bytes:
    lines = b.splitlines(keepends=True)
    if not lines:
        return b
    i = rng.randrange(len(lines))
    lines[i] = rng.choice([b" ", b"  ", b"\t"]) + lines[i]
    return b"".join(lines)


def _random_bytes(rng, b: bytes) -> bytes:
    return rng.randbytes(rng.randrange(1, 200))


def _many_flips(rng, b: bytes) -> bytes:
    for _ in range(rng.randrange(2, 12)):
        b = _flip(rng, b)
    return b


def _retype(rng, b: bytes) -> bytes:
    """A value of the wrong type where a YAML line has `key: value` (the bytes stay valid YAML):
    what a careless edit or a merge does to a data file."""
    lines = b.splitlines(keepends=True)
    spots = [i for i, ln in enumerate(lines) if re.match(rb"^\s*-?\s*[A-Za-z_]+: \S", ln)]
    if not spots:
        return b
    i = rng.choice(spots)
    head = lines[i][: lines[i].index(b": ") + 2]
    lines[i] = head + rng.choice([b"[x, 1]", b"{a: 1}", b"5", b"-3", b"null", b"true", b"''", b"[[a]]",
                                  b"2026-13-45", b"{}", b"[]", b"1.5"]) + b"\n"
    return b"".join(lines)


CORRUPTIONS = {"retype": _retype, "retype2": _retype, "flip": _flip, "truncate": _truncate, "nul": _nul, "bad-utf8": _bad_utf8, "dup-lines": _dup_lines,
               "drop-line": _drop_line, "indent": _shift_indent, "random": _random_bytes, "many-flips": _many_flips}


# ----------------------------------------------------------------------- data ----
@pytest.fixture(scope="module")
def clean_tree(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("clean")
    for sub in ("rules", "cards"):
        shutil.copytree(data_root() / sub, root / sub)
    return root


def _data_files(root: Path) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*.yaml"))


# in-process on a data tree: no cache folder unless given, a fresh corpus memo
invoke = functools.partial(inprocess.invoke, cache="", fresh=True)


def clean_error(r, what: str) -> dict:
    """Exit 1 with one Korean message (stderr), the JSON error object on stdout; never an internal error."""
    assert r.exit_code == 1, (what, r.exit_code, r.stdout[-500:], r.stderr[-2000:])
    assert "Traceback" not in r.stderr and "내부 오류" not in r.stderr, (what, r.stderr[-3000:])
    assert r.stderr.strip() and HANGUL.search(r.stderr), (what, r.stderr)
    obj = json.loads(r.stdout)
    if "error" in obj:  # flamer rule / search
        assert obj["error"]["code"] != "internal", (what, obj)
    else:  # flamer validate --json
        assert obj["ok"] is False and obj["problems"], (what, obj)
        for p in obj["problems"]:
            assert HANGUL.search(p["message"]) and p["file"], (what, p)
    return obj


@pytest.fixture(scope="module")
def clean_answers(clean_tree):
    v = invoke("validate", "--data", str(clean_tree), "--json", data=clean_tree)
    rule = invoke("rule", RULE, "--json", data=clean_tree)
    search = invoke("search", QUERY, "--json", data=clean_tree)
    cho = invoke("search", CHO_QUERY, "--json", data=clean_tree)
    assert v.exit_code == rule.exit_code == search.exit_code == cho.exit_code == 0, (v.stderr, rule.stderr, search.stderr)
    return {"rule": json.loads(rule.stdout), "search": json.loads(search.stdout), "cho": json.loads(cho.stdout)}


#: a longer local soak: FLAMER_FUZZ_SCALE=10 (cases ×10), FLAMER_FUZZ_SEED=N (another set of seeds)
SCALE = float(os.environ.get("FLAMER_FUZZ_SCALE", "1"))
SEED0 = int(os.environ.get("FLAMER_FUZZ_SEED", "0"))
N_DATA_CASES = max(1, int(48 * SCALE))


@pytest.mark.parametrize("seed", range(SEED0, SEED0 + N_DATA_CASES))
def test_corrupt_data_file(seed, clean_tree, clean_answers, tmp_path):
    rng = random.Random(seed)
    root = tmp_path / "data"
    shutil.copytree(clean_tree, root)
    files = _data_files(root)
    rel = rng.choice(files)
    how = rng.choice(sorted(CORRUPTIONS))
    path = root / rel
    before = path.read_bytes()
    after = CORRUPTIONS[how](rng, before)
    path.write_bytes(after)
    what = f"seed {seed}: {how} in {rel}"

    v = invoke("validate", "--data", str(root), "--json", data=root)
    if v.exit_code == 0:
        assert json.loads(v.stdout)["ok"] is True, what
    else:
        clean_error(v, what)

    r = invoke("rule", RULE, "--json", data=root)
    if r.exit_code == 0:
        got = json.loads(r.stdout)
        assert got["id"] == RULE, what
        if not rel.startswith(RULE_DEPENDS):
            assert got == clean_answers["rule"], what  # the answer cannot depend on that file
    else:
        err = clean_error(r, what)
        if v.exit_code == 0:  # a tree that validates only loses the clause if its id was hit
            assert err["error"]["code"] == "not-found", (what, err)

    if seed % 4 == 0:
        s = invoke("search", QUERY, "--json", data=root)
        if s.exit_code == 0:
            assert isinstance(json.loads(s.stdout)["results"], list), what
        else:
            clean_error(s, what)


@pytest.mark.parametrize("how", ["bad-utf8", "nul", "truncate"])
def test_corrupt_data_in_a_real_process(how, clean_tree, tmp_path):
    """The same through `python -m flamer_ref` (a few cases): the Korean message and exit status a person sees."""
    root = tmp_path / "data"
    shutil.copytree(clean_tree, root)
    path = root / "rules" / "clauses" / "combat.yaml"
    data = path.read_bytes()
    middle = len(data) // 2
    path.write_bytes({"bad-utf8": data[:middle] + b"\xff\xfe" + data[middle:],
                      "nul": data[:middle] + b"\x00" + data[middle:],
                      "truncate": data[:middle]}[how])
    for args in (["validate", "--data", str(root)], ["rule", RULE], ["search", QUERY]):
        p = flamer_fork.run(*args, data=root, cache="", env={"PYTHONIOENCODING": "utf-8", "FLAMER_DEBUG": None},
                            timeout=60)
        assert "Traceback" not in p.stderr and "내부 오류" not in p.stderr, (args, p.stderr)
        if how == "truncate" and p.returncode == 0:
            continue  # a cut at a line end can leave valid YAML
        assert p.returncode == 1, (args, p.returncode, p.stderr)
        assert "rules/clauses/combat.yaml" in p.stderr and HANGUL.search(p.stderr), (args, p.stderr)


# ---------------------------------------------------------------------- cache ----
N_CACHE_CASES = max(1, int(30 * SCALE))


@pytest.fixture(scope="module")
def warm_cache(clean_tree, clean_answers, tmp_path_factory) -> Path:
    cache = tmp_path_factory.mktemp("cache")
    assert invoke("rule", RULE, "--json", data=clean_tree, cache=str(cache)).exit_code == 0
    assert invoke("search", QUERY, "--json", data=clean_tree, cache=str(cache)).exit_code == 0
    # the corpus, the index (the tables a query seldom needs apart, in .pairs) and the likeness model
    assert sorted(p.suffix for p in cache.iterdir()) == [".corpus", ".index", ".pairs", ".similar"]
    return cache


@pytest.mark.parametrize("seed", range(SEED0, SEED0 + N_CACHE_CASES))
def test_corrupt_cache_never_changes_an_answer(seed, clean_tree, clean_answers, warm_cache, tmp_path):
    rng = random.Random(1000 + seed)
    cache = tmp_path / "cache"
    shutil.copytree(warm_cache, cache)
    targets = sorted(cache.iterdir()) if seed % 3 == 0 else [rng.choice(sorted(cache.iterdir()))]
    hows = []
    for path in targets:
        how = rng.choice(sorted(CORRUPTIONS))
        hows.append(how)
        path.write_bytes(CORRUPTIONS[how](rng, path.read_bytes()))
    what = f"seed {seed}: {hows} in {[p.name for p in targets]}"
    for args, key in ((["rule", RULE, "--json"], "rule"), (["search", QUERY, "--json"], "search"),
                      (["search", CHO_QUERY, "--json"], "cho")):
        r = invoke(*args, data=clean_tree, cache=str(cache))
        assert r.exit_code == 0, (what, r.stderr)
        assert "내부 오류" not in r.stderr and "Traceback" not in r.stderr, (what, r.stderr)
        assert json.loads(r.stdout) == clean_answers[key], what
    # the damage is repaired: the next run reads a sound cache again, and nothing is left behind
    assert not list(cache.glob("*.tmp")), what
    for path in cache.iterdir():
        kind = {".corpus": b"C", ".index": b"I", ".pairs": b"P", ".similar": b"S"}[path.suffix]
        assert cachefile.read_cache(path, kind) is not None, (what, path.name)


# ------------------------------------------------------- many broken references ----
# (issue 20, fault 5: a data tree with hundreds of broken references took 40 s through a cubic
# duplicate check and printed one line per reference.) Seeded trees: a widely cited id renamed, a
# top-level key misspelt (every id of a kind gone) or hundreds of clauses citing ids that do not exist.
N_REF_CASES = max(1, int(6 * SCALE))
#: a person's problem list is bounded (errors.render_problems): 40 entries, each with a "same problem" line,
#: ten per-file "… 외 N건" lines, one for the other files, one pointing at validate --json, and the head
SHOWN_LINES = 1 + 40 * 2 + 10 + 1 + 1


def _rename_cited_id(rng, root: Path) -> str:
    path = root / "rules" / "sources.yaml" if rng.random() < 0.5 else root / "rules" / "rulings.yaml"
    text = path.read_text(encoding="utf-8")
    ids = re.findall(r"(?m)^- id: (\S+)$", text)
    old = rng.choice(ids)
    path.write_text(text.replace(f"- id: {old}\n", f"- id: {old}x\n"), encoding="utf-8")
    return f"renamed {old}"


def _misspell_top_key(rng, root: Path) -> str:
    rel, key = rng.choice([("rules/sources.yaml", "sources"), ("rules/rulings.yaml", "rulings"),
                           ("rules/clauses/combat.yaml", "clauses"), ("cards/cards.yaml", "cards")])
    path = root / rel
    text = path.read_text(encoding="utf-8")
    typo = key[0] + key[2] + key[1] + key[3:]
    path.write_text(re.sub(rf"(?m)^{key}:", f"{typo}:", text, count=1), encoding="utf-8")
    return f"{rel}: {key} → {typo}"


def _broken_see_also(rng, root: Path) -> str:
    n = rng.randrange(200, 600)
    targets = [f"combat.gone{rng.randrange(n)}" if rng.random() < 0.8 else "combat.step7.swep" for _ in range(n)]
    path = root / "rules" / "clauses" / "combat.yaml"
    with path.open("a", encoding="utf-8") as fh:
        for i, t in enumerate(targets):
            refs = t if rng.random() < 0.7 else ", ".join([t] * rng.randrange(2, 5) + targets[:rng.randrange(1, 20)])
            fh.write(f"- id: combat.extra{i}\n  title: 덧붙인 조항 {i}\n  source: page.combat\n  text: 본문.\n"
                     f"  see_also: [{refs}]\n")
    return f"{n} clauses with broken see_also"


BREAKERS = {"rename": _rename_cited_id, "top-key": _misspell_top_key, "see-also": _broken_see_also}


@pytest.mark.parametrize("seed", range(SEED0, SEED0 + N_REF_CASES))
def test_many_broken_references(seed, clean_tree, tmp_path, monkeypatch):
    from flamer_ref.errors import Problem

    rng = random.Random(2000 + seed)
    root = tmp_path / "data"
    shutil.copytree(clean_tree, root)
    how = sorted(BREAKERS)[seed % len(BREAKERS)]
    what = f"seed {seed}: {BREAKERS[how](rng, root)}"
    # the work: Problem comparisons and the ids a "did you mean" search compares a word with
    work = {"eq": 0, "compared": 0}
    real_eq, real_nearest = Problem.__eq__, corpus_mod._nearest

    def eq(a, b):
        work["eq"] += 1
        assert work["eq"] <= 20_000, (what, "Problem comparisons")  # the old check made ~10^7
        return real_eq(a, b)

    def nearest(word, options):
        work["compared"] += len(options)
        return real_nearest(word, options)

    monkeypatch.setattr(Problem, "__eq__", eq)
    monkeypatch.setattr(corpus_mod, "_nearest", nearest)
    v = invoke("validate", "--data", str(root), "--json", data=root)
    obj = clean_error(v, what)
    problems = [(p["file"], p["line"], p["key"], p["message"], p["fix"]) for p in obj["problems"]]
    assert len(problems) == len(set(problems)), what  # every problem, once
    assert len(v.stderr.splitlines()) <= SHOWN_LINES, (what, len(v.stderr.splitlines()))
    assert work["compared"] <= 50_000 + 200, (what, work)  # the suggestion budget (one search may finish it)
    broken = {m for *_, m, _f in problems if "찾을 수 없습니다" in m}
    for message in broken:  # a target cited many times is said once to a person (or counted among the rest)
        assert v.stderr.count(message) <= 1, (what, message)
    r = invoke("rule", RULE, "--json", data=root)
    if r.exit_code:
        clean_error(r, what)
        assert len(r.stderr.splitlines()) <= SHOWN_LINES, what


# ---------------------------------------------- a scalar where a list belongs ----
# (issue 20, fault 11: `clauses: 7` in a clause file was an internal error.) Every top-level key of
# every kind of data file, given a value of another type: one Korean problem naming the file and key.
TOP_LEVEL = [("rules/clauses/combat.yaml", "section"), ("rules/clauses/combat.yaml", "clauses"),
             ("rules/examples/combat.yaml", "examples"), ("rules/sources.yaml", "sources"),
             ("rules/rulings.yaml", "rulings"), ("rules/faq.yaml", "faq"), ("rules/glossary.yaml", "terms"),
             ("rules/timing.yaml", "timings"), ("rules/synonyms.yaml", "synonyms"),
             ("rules/phrasings.yaml", "phrasings"), ("cards/cards.yaml", "cards"), ("cards/effects.yaml", "effects"),
             ("rules/boards/example.yaml", "width"), ("rules/boards/example.yaml", "adjacency"),
             ("rules/boards/example.yaml", "homes"), ("rules/boards/example.yaml", "values")]
WRONG = ["7", "1.5", "true", "-3", "abc", "''", "{a: 1}", "[x]", "'2026-09-24'"]
#: each key gets values of two kinds, the kinds turning from key to key (FLAMER_FUZZ_SEED shifts them,
#: FLAMER_FUZZ_SCALE=5 gives every key every kind)
WRONG_CASES = [(rel, key, WRONG[(i + SEED0 + 4 * k) % len(WRONG)])
               for i, (rel, key) in enumerate(TOP_LEVEL) for k in range(max(2, int(2 * SCALE)))]


def _set_top_key(text: str, key: str, value: str) -> str:
    """`key: value` in place of the key's whole block (its value, indented or list lines, comments)."""
    out, skip = [], False
    for line in text.splitlines(keepends=True):
        if re.match(rf"{re.escape(key)}:", line):
            out.append(f"{key}: {value}\n")
            skip = True
            continue
        if skip and (line[:1] in (" ", "-", "\t", "#") or not line.strip()):
            continue
        skip = False
        out.append(line)
    return "".join(out)


@pytest.mark.parametrize("rel,key,value", WRONG_CASES, ids=[f"{r}:{k}={v}" for r, k, v in WRONG_CASES])
def test_a_wrong_type_at_a_top_level_key(rel, key, value, clean_tree, tmp_path):
    root = tmp_path / "data"
    shutil.copytree(clean_tree, root)
    path = root / rel
    path.write_text(_set_top_key(path.read_text(encoding="utf-8"), key, value), encoding="utf-8")
    what = f"{rel}: {key}: {value}"
    v = invoke("validate", "--data", str(root), "--json", data=root)
    if v.exit_code == 0:  # a value the key accepts (an empty list, say)
        return
    obj = clean_error(v, what)
    assert obj["problems"][0]["file"] == rel, (what, obj["problems"][:3])
    assert key in json.dumps(obj["problems"][0], ensure_ascii=False), (what, obj["problems"][0])
    assert len(v.stderr.splitlines()) <= SHOWN_LINES, what
    if rel.startswith("cards/effects") or rel.startswith("rules/boards"):
        r = invoke("fight", "거신 vs 별마대, 행성굴착기(정착)", "--json", data=root)
        if r.exit_code:
            clean_error(r, what)
