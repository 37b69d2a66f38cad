"""The verdicts the timeline and `flamer diff` compare are kept with the corpus object (diff._verdict_of):
the same corpus asked again answers the same without the engine; another day, or another corpus object,
is asked of the engine."""

from __future__ import annotations

import pytest

from flamer_ref import diff, verdicts
from flamer_ref.corpus import load


@pytest.fixture
def counted(monkeypatch):
    calls = []
    real = verdicts.resolve

    def resolve(corpus, scn, as_of, file="-"):
        calls.append((file, as_of))
        return real(corpus, scn, as_of, file)

    monkeypatch.setattr(verdicts, "resolve", resolve)
    return calls


def _changes(corpus, a: str, b: str) -> list[dict]:
    return diff.verdict_changes(diff.Side(a, corpus, a, "date"), diff.Side(b, corpus, b, "date"))


def test_the_same_corpus_asked_again_answers_the_same_without_the_engine(counted):
    corpus = load(use_cache=False)  # an object of this test's own: nothing kept on it yet
    first = _changes(corpus, "2026-09-01", "2026-09-25")
    asked = len(counted)
    assert first and asked >= 2 * len(first)  # verdicts changed, and the engine was asked for them
    assert _changes(corpus, "2026-09-01", "2026-09-25") == first
    assert len(counted) == asked  # nothing asked again
    _changes(corpus, "2026-09-01", "2026-09-19")  # another day: that side is asked of the engine
    assert {d for _, d in counted[asked:]} == {"2026-09-19"}


def test_another_corpus_object_is_asked_again_and_answers_the_same(counted):
    first = _changes(load(use_cache=False), "2026-09-01", "2026-09-25")
    asked = len(counted)
    assert _changes(load(use_cache=False), "2026-09-01", "2026-09-25") == first
    assert len(counted) == 2 * asked


def test_a_headline_asked_later_is_the_one_a_fresh_answer_gives():
    corpus = load(use_cache=False)
    cases = [c for c in verdicts.cases(corpus) if verdicts.parse_case(corpus, c) is not None][:3]
    assert len(cases) == 3
    for case in cases:
        scn = verdicts.parse_case(corpus, case)
        key, headline = diff._verdict_of(corpus, case.id, scn, "2026-09-25", verdicts.resolve)
        again_key, again = diff._verdict_of(corpus, case.id, scn, "2026-09-25", verdicts.resolve)
        fresh = verdicts.resolve(corpus, scn, "2026-09-25", case.id)
        assert key == again_key == fresh.key and again() == headline() == fresh.headline()


def test_each_case_is_parsed_once_per_corpus_object(monkeypatch):
    parsed = []
    real = verdicts.parse_case

    def parse_case(corpus, case):
        parsed.append(case.id)
        return real(corpus, case)

    monkeypatch.setattr(verdicts, "parse_case", parse_case)
    corpus = load(use_cache=False)
    _changes(corpus, "2026-09-01", "2026-09-25")
    _changes(corpus, "2026-09-18", "2026-09-19")
    ids = [c.id for c in verdicts.cases(corpus)]
    assert sorted(parsed) == sorted(ids) and len(ids) > 20  # every case once, both days and both calls
