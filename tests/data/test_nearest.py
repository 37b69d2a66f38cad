"""The loader's "did you mean" (corpus._nearest) answers exactly as difflib.get_close_matches(n=1,
cutoff=0.6) does: the LCS bound it filters with only drops options difflib would drop too."""

from __future__ import annotations

import difflib

from hypothesis import given, settings, strategies as st

from flamer_ref.corpus import NEAREST_CUTOFF, _nearest

# few letters, so that near and exact matches are common; long words too (difflib's autojunk from 200)
WORD = st.text(alphabet="ab.c가나다ㄱ", max_size=12) | st.text(alphabet="ab가", min_size=190, max_size=230)


def _difflib(word: str, options: list[str]) -> str | None:
    hits = difflib.get_close_matches(word, options, n=1, cutoff=NEAREST_CUTOFF)
    return hits[0] if hits else None


@settings(max_examples=300, deadline=None)
@given(word=WORD, options=st.lists(WORD, max_size=30))
def test_nearest_is_difflibs_answer(word, options):
    assert _nearest(word, options) == _difflib(word, options)


def test_nearest_finds_a_typo_and_nothing_far():
    ids = ["combat.step7.sweep", "combat.step6.capture", "term.stack", "response.resolve.one-stack"]
    assert _nearest("combat.step7.swep", ids) == "combat.step7.sweep"
    assert _nearest("term.stak", ids) == "term.stack"
    assert _nearest("zzzzzz", ids) is None
    assert _nearest("", ids) is None and _nearest("", [""]) == ""
