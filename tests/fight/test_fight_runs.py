"""Issue 29 "One path for a dispute": `flamer fight` builds its scenario as data (YAML only for --save), asks
the engine once what it needs, and resolves each distinct set of rules in force once.

The engine's combat entry (engine.combat.simulate, which engine.api.run reaches for a combat) is counted
wherever the package holds it, with the rulings in force at each call (inforce.InForce over the date and
the forced rulings): no set of rulings is resolved twice, and a plain fight is resolved exactly once.
"""

from __future__ import annotations

import json
import sys

import pytest
from inprocess import invoke

from flamer_ref import corpus as corpus_mod
from flamer_ref import yamlio
from flamer_ref.engine import combat
from flamer_ref.inforce import InForce

REAL = combat.simulate


class _Calls(list):
    """(as_of, overrides) of each resolution, and the corpus they were made with."""

    corpus = None


@pytest.fixture
def runs(monkeypatch):
    """Every resolution of a combat during the test: (as_of, overrides) per call."""
    corpus = corpus_mod.load()  # loaded (and its cache written) before anything is counted
    # every module on a fight's way imported, holding the real entry, before it is swapped for the counter
    invoke("fight", "거신 vs 별마대", "--compare", "2026-09-23", "--json")
    calls = _Calls()

    def counted(scn, corpus, *args, **kw):
        calls.append((kw.get("as_of"), dict(kw.get("overrides") or {})))
        return REAL(scn, corpus, *args, **kw)

    for name, mod in list(sys.modules.items()):
        if name.startswith("flamer_ref") and mod is not None:
            for attr, value in list(vars(mod).items()):
                if value is REAL:
                    monkeypatch.setattr(mod, attr, counted)
    calls.corpus = corpus
    return calls


@pytest.fixture
def yaml_use(monkeypatch):
    """How often YAML text is written and read back while the fight runs."""
    used = {"dump": 0, "parse_text": 0}
    for name in used:
        real = getattr(yamlio, name)

        def counted(*a, _real=real, _name=name, **k):
            used[_name] += 1
            return _real(*a, **k)

        monkeypatch.setattr(yamlio, name, counted)
    return used


def _rules_in_force(corpus, as_of, overrides) -> frozenset:
    on = InForce(corpus.rulings, as_of or corpus.latest_date(), overrides)
    return frozenset(rid for rid in corpus.rulings if on(rid))


def _fight(*args):
    r = invoke("fight", *args)
    assert r.exit_code == 0, (r.stdout, r.stderr)
    return r


def test_a_plain_fight_runs_the_engine_once_and_writes_no_yaml(runs, yaml_use):
    r = _fight("거신 vs 별마대, 행성굴착기(정착)", "--json")
    assert json.loads(r.stdout)["kind"] == "combat"
    assert len(runs) == 1
    assert yaml_use == {"dump": 0, "parse_text": 0}  # the scenario is data: YAML only for --save


def test_a_fight_whose_unknown_stat_is_given_runs_the_engine_once(runs):
    r = _fight("수문장 vs 개미", "--stat", "개미 hp 2", "--stat", "개미 atk 1", "--json")
    assert json.loads(r.stdout)["player_stats"]  # the values were the player's, and the verdict read them
    assert len(runs) == 1


def test_compare_resolves_each_set_of_rulings_in_force_once(runs):
    r = _fight("거신, 장인 vs 개미(정착 lv1 hp2 atk1)", "-r", "수비자 진내폭격 비용 개미", "--compare", "2026-09-23",
               "--json")
    data = json.loads(r.stdout)
    assert data["kind"] == "compare" and data["by_ruling"]  # a ruling was forced alone to find the difference
    sets = [_rules_in_force(runs.corpus, as_of, overrides) for as_of, overrides in runs]
    assert 2 <= len(runs) == len(set(sets)), runs
    assert len(runs) <= 2 + len(data["rulings_between"])


def test_saving_writes_the_yaml_once_and_resolves_once(runs, yaml_use, tmp_path):
    saved = tmp_path / "전투.yaml"
    _fight("거신 vs 별마대, 행성굴착기(정착)", "--save", str(saved))
    assert saved.read_text(encoding="utf-8").count("거신") >= 1
    assert len(runs) == 1
    assert yaml_use["dump"] == 1 and yaml_use["parse_text"] == 1  # written, and read back once to check it


def test_a_value_the_file_reader_refuses_is_refused_as_the_file_would_be():
    """The one path parses the fight's data without writing YAML; a value the YAML reader's gate refuses (a
    23-digit stat) must still be refused with the file's own message, not passed to the engine (found by
    the calculator test: the fight asked for 개미's ATK instead)."""
    for argv in (["fight", "수문장 vs 개미", "--stat", "개미 체력 12345678901234567890123"],
                 ["fight", "수문장 vs 개미(hp 99999999999999999999999)"]):
        r = invoke(*argv)
        assert r.exit_code == 1, (argv, r.stdout, r.stderr)
        assert "수가 너무 큽니다 (23자리; 절댓값 1,000,000,000 이하만 받습니다)" in r.stderr, (argv, r.stderr)
        assert "공격력" not in r.stderr
