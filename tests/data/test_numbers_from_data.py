"""Issue 25, faults 3, 11 and 15: a message that cites a clause number takes it from the loaded data's own
numbering, never from rules/numbers.lock.yaml (which only `flamer validate` compares against).

- 3: a stale lock (`move.limit: "1.1"`) made `fight` cite 조항 1.1 while `flamer rule move.limit` said 4.8.
- 11: a FIFO at the lock's place hung every message that cites a number.
- 15: the calculator, whose engine carries no lock, cited `(조항 move.limit)`.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from flamer_fork import run as flamer_process
from inprocess import isolated as invoke

ROOT = Path(__file__).resolve().parent.parent.parent
FOUR = "거신 vs 별마대, 별마대, 별마대, 별마대"  # four defenders in one cell: refused, citing move.limit


@pytest.fixture()
def tree(tmp_path):
    """A copy of the bundled data to damage."""
    t = tmp_path / "data"
    for sub in ("rules", "cards"):
        shutil.copytree(ROOT / sub, t / sub)
    return t


def _number_of(clause: str, env: dict) -> str:
    r = invoke("rule", clause, "--json", env=env)
    assert r.exit_code == 0, r.stderr
    import json

    return json.loads(r.stdout)["number"]


def test_a_stale_lock_does_not_change_the_number_a_refusal_cites(tree):
    lock = tree / "rules" / "numbers.lock.yaml"
    text = lock.read_text(encoding="utf-8")
    real = _number_of("move.limit", {"FLAMER_DATA": str(tree)})
    assert f'  move.limit: "{real}"' in text
    lock.write_text(text.replace(f'  move.limit: "{real}"', '  move.limit: "1.1"'), encoding="utf-8")
    r = invoke("fight", FOUR, env={"FLAMER_DATA": str(tree)})
    assert r.exit_code == 1
    assert f"(조항 {real})" in r.stderr, r.stderr
    assert "조항 1.1" not in r.stderr


def test_a_renumbered_clause_is_cited_by_its_new_number(tree):
    """The number follows the data: move.limit moved to the end of its section gets the section's last
    number, and the refusal cites exactly what `flamer rule move.limit` says (the lock is left stale)."""
    import yaml

    path = tree / "rules" / "clauses" / "move.yaml"
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    before = _number_of("move.limit", {"FLAMER_DATA": str(tree)})
    clauses = doc["clauses"] if isinstance(doc, dict) and "clauses" in doc else None
    if clauses is None:
        pytest.fail("rules/clauses/move.yaml has no top-level 'clauses' list: this test reads it so")
    moved = [c for c in clauses if c.get("id") == "move.limit"]
    assert moved
    doc["clauses"] = [c for c in clauses if c.get("id") != "move.limit"] + moved
    path.write_text(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False), encoding="utf-8")
    (tree / "rules" / "numbers.lock.yaml").unlink()
    after = _number_of("move.limit", {"FLAMER_DATA": str(tree)})
    assert after != before
    r = invoke("fight", FOUR, env={"FLAMER_DATA": str(tree)})
    assert f"(조항 {after})" in r.stderr, r.stderr


def test_without_a_lock_the_number_is_still_cited(tree):
    """The calculator's engine carries the data but no lock: it cites the number as the CLI does."""
    (tree / "rules" / "numbers.lock.yaml").unlink()
    real = _number_of("move.limit", {"FLAMER_DATA": str(tree)})
    r = invoke("fight", FOUR, env={"FLAMER_DATA": str(tree)})
    assert r.exit_code == 1
    assert f"(조항 {real})" in r.stderr and "move.limit" not in r.stderr, r.stderr


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_fifo_at_the_lock_does_not_hang_a_message(tree):
    lock = tree / "rules" / "numbers.lock.yaml"
    lock.unlink()
    os.mkfifo(lock)
    r = flamer_process("fight", FOUR, env={**os.environ, "FLAMER_DATA": str(tree), "FLAMER_CACHE_DIR": ""},
                       timeout=60)
    assert r.returncode == 1
    assert "(조항 4." in r.stderr and "Traceback" not in r.stderr, r.stderr


def test_the_web_engine_cites_the_number_without_a_lock(tree):
    """web.run (the calculator's entry, over the prebuilt corpus as the site's engine has it) cites the
    clause number, not its id."""
    from flamer_ref import corpus as corpus_mod
    from flamer_ref import web

    (tree / "rules" / "numbers.lock.yaml").unlink()
    real = _number_of("move.limit", {"FLAMER_DATA": str(tree)})
    corpus = corpus_mod.load(tree, use_cache=False)
    corpus_mod.preload_corpus(corpus)
    try:
        got = web.run(["fight", FOUR])
    finally:
        corpus_mod.preload_corpus(None)
    code, err = got["code"], got["stderr"]
    assert code == 1
    assert f"(조항 {real})" in err and "move.limit" not in err, err


def test_a_problem_found_in_another_tree_cites_that_trees_number(tree):
    """`flamer validate --data T` words its problems with T's numbering (corpus.citing), not the bundled one's."""
    import yaml

    from flamer_ref import corpus as corpus_mod
    from flamer_ref.errors import Problem

    path = tree / "rules" / "clauses" / "move.yaml"
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    doc["clauses"] = ([c for c in doc["clauses"] if c.get("id") != "move.off-board"]
                      + [c for c in doc["clauses"] if c.get("id") == "move.off-board"])
    path.write_text(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False), encoding="utf-8")
    theirs = corpus_mod.load(tree, use_cache=False).clauses["move.off-board"]["number"]
    ours = corpus_mod.load(ROOT, use_cache=False).clauses["move.off-board"]["number"]
    assert theirs != ours
    with corpus_mod.citing(corpus_mod.load(tree, use_cache=False)):
        inside = Problem("s.yaml", 1, None, code="cell-off-board", params={"cell": "9,9", "sea": True}).message
    outside = Problem("s.yaml", 1, None, code="cell-off-board", params={"cell": "9,9", "sea": True}).message
    assert f"(조항 {theirs})" in inside and f"(조항 {ours})" in outside, (inside, outside)
