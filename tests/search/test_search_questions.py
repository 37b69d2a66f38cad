"""The whole-question trial (issue 9): everyday questions from tests/search/search_questions.yaml must find an
answering id in the top 3 for >= 95% of the tune half AND of the holdout half (reported per split)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from flamer_ref.corpus import load
from flamer_ref.searchindex import load_index
from flamer_ref.search import KINDS, search

# libyaml's loader where PyYAML has it (the same values; this file is read by every worker at collection)
QUESTIONS = yaml.load((Path(__file__).parent / "search_questions.yaml").read_text(encoding="utf-8"),
                      Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))["questions"]


@pytest.fixture(scope="module")
def index():
    return load_index()


def test_question_set_shape():
    corpus = load()
    known = set(corpus.all_ids()) | set(corpus.cards)
    assert len(QUESTIONS) >= 150
    splits = [q["split"] for q in QUESTIONS]
    assert set(splits) == {"tune", "holdout"} and splits.count("holdout") * 3 >= len(QUESTIONS) - 2
    for q in QUESTIONS:
        assert q.get("kind") in (None, *KINDS), q
        for e in q["expect"]:
            assert e in known, (q["q"], e)
    first = {q["expect"][0] for q in QUESTIONS}
    assert set(corpus.clauses) <= first | {e for q in QUESTIONS for e in q["expect"]}


def hit_rate(index, split: str) -> tuple[float, int]:
    qs = [q for q in QUESTIONS if q["split"] == split]
    hits = 0
    for q in qs:
        ids = [r["id"] for r in search(index, q["q"], kind=q.get("kind"), limit=3)]
        hits += any(e in ids for e in q["expect"])
    return hits / len(qs), len(qs)


#: Issue 9's goal is 95% top-3 on each half. These bars are floors against regressions: they sit a little under
#: the rates measured when they were set (2026-12-01: tune 97.4% of 700, holdout 95.7% of 350; see the issue's
#: closing note), so a change that loses more than a few questions fails here.
FLOOR = {"tune": 0.96, "holdout": 0.94}


@pytest.mark.parametrize("split", ["tune", "holdout"])
def test_top3_hit_rate_per_split(index, split):
    # only the rate is reported: the holdout half's misses are never printed (nobody tunes on them)
    rate, n = hit_rate(index, split)
    print(f"{split}: {rate:.1%} of {n}")
    assert rate >= FLOOR[split], f"{split}: top-3 hit rate {rate:.1%} of {n} < {FLOOR[split]:.0%}"
