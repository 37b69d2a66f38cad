"""General question understanding (issue 9, second pass): chat noise and colloquial spellings, question verbs
with any ending, auxiliary verbs, the Shift typo, run-together words with a misspelt piece, '뭐라 함' asking
for the term, and clauses before the examples that retell them."""

from __future__ import annotations

import pytest

from flamer_ref.corpus import load
from flamer_ref.searchindex import load_index
from flamer_ref.korean import chat_noise, fix_shift, is_question_word, jamo, strip_chat, verb_stems
from flamer_ref.search import search
from flamer_ref.searchwords import query_words as _query_words, split_run_together as _split_run_together


@pytest.fixture(scope="module")
def index():
    return load_index()


def top(index, q, n=3, kind=None):
    return [r["id"] for r in search(index, q, limit=n, kind=kind)]


@pytest.mark.parametrize("word", ["되냐", "되냐고", "가능하냐", "가능하냐고", "있음", "없냐", "하냐", "잇냐", "할까", "그걸"])
def test_question_verbs_with_any_ending_are_question_words(word):
    assert is_question_word(word)


@pytest.mark.parametrize("word", ["이동", "공격", "때려", "이김", "맞냐", "구조물", "정착"])
def test_content_words_are_not_question_words(word):
    assert not is_question_word(word)


def test_chat_noise_and_laughter():
    assert chat_noise("ㅋㅋㅋ") and chat_noise("ㅇㅇ") and chat_noise("ㅠㅠ")
    assert not chat_noise("ㅈㅊ")  # a 초성 search stays one
    assert strip_chat("됨ㅋㅋ") == "됨" and strip_chat("ㅋㅋ") == "ㅋㅋ"


def test_shift_typo_on_tense_consonants():
    assert fix_shift("떄려") == "때려" and fix_shift("쎼트") == "쎄트"
    assert fix_shift("예시") == "예시" and fix_shift("계산") == "계산"  # ㅖ after a plain consonant is kept


@pytest.mark.parametrize("word, stem", [("숨어있던", "숨"), ("덮어둘", "덮"), ("돌려줌", "돌리"), ("깔아놔야", "깔")])
def test_auxiliary_verbs_give_the_main_verb(word, stem):
    assert jamo(stem) in verb_stems(jamo(word))


def test_colloquial_and_counter_words_are_read(index):
    raw = index["_raw_set"]
    assert _query_words("첨에 몇칸 가", raw)[:3] == ["처음에", "몇", "칸"]
    assert "ㅋㅋ" not in _query_words("바다로 갈 수 있음 ㅋㅋ", raw)


def test_run_together_words_with_a_misspelt_piece_are_cut(index):
    tokens = _split_run_together(["건물부셔지면"], index)
    assert tokens[0] == "건물" and len(tokens) == 2


@pytest.mark.parametrize("q, want", [
    ("ㅋㅋ 바다로 갈 수 있음?", "move.off-board"),
    ("숨어있던 애 들어오면 언제부터 싸워", "response.resolve.arrive"),
    ("떄리는 순서", "combat.step4.attacker-volley"),
    ("건물부셔지면 뭐가 남음", "term.structure-fragment"),
    ("구조물 이동 되냐고", "move.structures"),
    ("유닛 몇 칸 움직여?", "move.mov"),
    ("체인 걸면 어느 거부터 처리돼?", "response.resolve.lifo"),
    ("무덤 간 특수카드 다시 씀?", "field.special.trash"),
    ("골드 언제 받아", "supply.income"),
])
def test_everyday_questions_find_the_clause(index, q, want):
    assert want in top(index, q), (q, top(index, q))


def test_what_is_it_called_finds_the_name(index):
    ids = top(index, "적이랑 같은 칸에 서면 그걸 뭐라 함")
    assert {"move.encounter", "term.encounter", "term.encounter-cell"} & set(ids)


def test_a_clause_comes_before_the_example_that_retells_it(index):
    ids = top(index, "적 칸에 들어가면 더 못가나")
    assert ids[0] == "move.path.enemy-stop"


def test_an_example_asked_for_is_still_first(index):
    assert top(index, "장면 3 예시")[0] == "ex.move.scene3"


def test_every_new_thesaurus_term_occurs_in_the_rules():
    corpus = load()
    assert {"유닛", "체인", "무덤", "골드", "소환", "헛방"} <= set(corpus.synonyms)


def test_a_long_run_of_hangul_is_not_cut_into_every_piece():
    """One 499-syllable word (under the 500-character cap) took minutes: every substring was tried as a
    word with its verb stems. Runs longer than _MAX_RUN stay one word, pieces longer than _MAX_PIECE are
    never words, and the memo makes each piece's check happen once."""
    from flamer_ref.searchindex import load_index
    from flamer_ref.search import search
    from flamer_ref.searchwords import _MAX_PIECE, _MAX_RUN, split_run_together as _split_run_together

    index = load_index()
    assert _split_run_together(["가" * 499], index) == ["가" * 499]
    assert _MAX_PIECE < _MAX_RUN <= 60
    assert search(index, "가" * 499, limit=3) is not None
    # a sentence typed without spaces is still cut into words
    assert "건물" in _split_run_together(["상대건물있는칸도못지나가"], index)
