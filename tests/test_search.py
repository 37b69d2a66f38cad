"""The search trial (issue 2 §6): every kind of imperfect Korean input must
still find its entry, >= 95% of the queries with the expected entry in the top 3."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
import yaml

from flamer_ref.corpus import load, load_index
from flamer_ref.korean import choseong, jamo, josa, qwerty_to_jamo, strip_particle
from flamer_ref.search import KINDS, search

QUERIES = yaml.safe_load((Path(__file__).parent / "search_queries.yaml").read_text(encoding="utf-8"))["queries"]


@pytest.fixture(scope="module")
def index():
    return load_index()


def test_query_set_covers_every_category():
    cats = Counter(q["cat"] for q in QUERIES)
    assert len(QUERIES) >= 40
    for cat in ("typo", "spacing", "particle", "reorder", "choseong", "qwerty", "card", "term", "faq", "ruling",
                "example"):
        assert cats[cat] >= 1, cat


def test_expected_ids_exist():
    corpus = load()
    known = set(corpus.all_ids()) | set(corpus.cards)
    for q in QUERIES:
        for e in q["expect"]:
            assert e in known, (q["q"], e)


def test_top3_hit_rate(index):
    misses = []
    for q in QUERIES:
        ids = [r["id"] for r in search(index, q["q"], limit=3)]
        if not any(e in ids for e in q["expect"]):
            misses.append((q["q"], ids, q["expect"]))
    rate = 1 - len(misses) / len(QUERIES)
    assert rate >= 0.95, misses


@pytest.mark.parametrize("query,expected", [
    ("스텍", "response.resolve.one-stack"),
    ("대응스택", "response.resolve.one-stack"),
    ("ㄷㅇㅅㅌ", "response.resolve.one-stack"),
    ("eodmdtmxor", "response.resolve.one-stack"),
])
def test_issue_examples_find_the_stack(index, query, expected):
    ids = [r["id"] for r in search(index, query, limit=3)]
    assert expected in ids or "term.stack" in ids


def test_result_shape(index):
    res = search(index, "정착 기물 공격", limit=5)
    assert 1 <= len(res) <= 5
    for r in res:
        assert set(r) == {"id", "kind", "title", "text", "score"}
        assert r["kind"] in KINDS
        assert 0 <= r["score"] <= 100
    assert [r["score"] for r in res] == sorted((r["score"] for r in res), reverse=True)


def test_kind_filter(index):
    for kind in KINDS:
        res = search(index, "정착", kind=kind, limit=20)
        assert all(r["kind"] == kind for r in res)


def test_as_of_hides_later_rulings(index):
    ids = {r["id"] for r in search(index, "그 자리에서 종료", kind="ruling", limit=20, as_of="2026-09-20")}
    assert "ruling.2026-09-24.vacated-combat" not in ids
    ids = {r["id"] for r in search(index, "그 자리에서 종료", kind="ruling", limit=20, as_of="2026-09-24")}
    assert "ruling.2026-09-24.vacated-combat" in ids


def test_exact_id_query_comes_first(index):
    assert search(index, "combat.step7.sweep", limit=1)[0]["id"] == "combat.step7.sweep"


def test_nonsense_finds_nothing_relevant(index):
    assert search(index, "   ") == []
    res = search(index, "zzzzqqqq")
    assert all(r["score"] < 70 for r in res)


def test_korean_helpers():
    assert jamo("대응스택") == qwerty_to_jamo("eodmdtmxor")
    assert jamo("과") == "ㄱㅗㅏ"  # compound vowels split into their keys
    assert choseong("대응 스택") == "ㄷㅇㅅㅌ"
    assert strip_particle("기물이") == "기물"
    assert strip_particle("정착") is None
    assert josa("카드", "이/가") == "카드가" and josa("용어", "을/를") == "용어를"
    assert josa("별마대", "으로/로") == "별마대로" and josa("맞대응", "으로/로") == "맞대응으로"
