"""Issue 9: the game thesaurus (rules/synonyms.yaml), morphology of whole questions, question intent,
weak results and `flamer search --explain`."""

from __future__ import annotations

import functools
import json
import re

import pytest
import flamer_fork  # noqa: E402 (tests/flamer_fork.py)

from flamer_ref.corpus import load, parse
from flamer_ref.searchindex import load_index
from flamer_ref.errors import DataError
from flamer_ref.korean import jamo, verb_stems
from flamer_ref.search import WEAK_SCORE, search, search_report

HANGUL = re.compile(r"[가-힣]")


@pytest.fixture(scope="module")
def index():
    return load_index()


def ids(index, q, n=3, **kw):
    return [r["id"] for r in search(index, q, limit=n, **kw)]


# a real process, forked from a warm interpreter
run = functools.partial(flamer_fork.run, env={"PYTHONIOENCODING": "utf-8", "FLAMER_DEBUG": None}, timeout=60)


# ------------------------------------------------------------------ data ----
def test_thesaurus_loads_and_targets_are_rule_words():
    corpus = load()
    syn = corpus.synonyms
    assert syn["돈"]["terms"][0] == "도르" and syn["칸"]["terms"] == ["셀"]
    assert syn["때리다"]["pos"] == "verb" and syn["건물"]["terms"] == ["구조물"]
    assert all(0 < s["weight"] <= 1 for s in syn.values())


SYN = "# yaml-language-server: $schema=../schemas/synonyms.schema.json\nsynonyms:\n"


@pytest.mark.parametrize("entry, key, contains", [
    ("- {word: 돈, terms: [없는말]}\n", "terms", "룰 데이터에 나오지 않습니다"),  # a term the rules never use
    ("- {word: 돈, terms: []}\n", "terms", "비어"),
    ("- {word: 때리, pos: verb, terms: [첫]}\n", "word", "'~다' 꼴"),
    ("- {word: 돈, pos: adverb, terms: [첫]}\n", "pos", "품사"),
    ("- {word: 돈, terms: [첫], weight: 2}\n", "weight", "1 이하"),
    ("- {word: 돈, terms: [첫], wieght: 1}\n", "wieght", "알 수 없는 키"),
    ("- {word: 돈, terms: [첫]}\n- {word: 돈, terms: [첫]}\n", "word", "중복"),
])
def test_broken_thesaurus_is_reported(tree, entry, key, contains):
    tree.write("rules/synonyms.yaml", SYN + entry)
    with pytest.raises(DataError) as info:
        parse(tree.root)
    probs = [p for p in info.value.problems if p.key == key and contains in p.message]
    assert probs, info.value.problems
    p = probs[0]
    assert p.file.replace("\\", "/") == "rules/synonyms.yaml" and p.line is not None
    assert HANGUL.search(p.message) and (p.fix is None or HANGUL.search(p.fix))


def test_good_thesaurus_in_fixture_loads(tree):
    tree.write("rules/synonyms.yaml", SYN + "- {word: 처음, terms: [첫], weight: 0.5, note: 메모}\n")
    assert parse(tree.root).synonyms["처음"]["weight"] == 0.5


# ------------------------------------------------------------ morphology ----
@pytest.mark.parametrize("word, stem", [("때려", "때리"), ("잡혀", "잡히"), ("들어와", "들어오"), ("부서지면", "부서지"),
                                        ("못가나", "가"), ("움직여", "움직이"), ("깔아둔", "깔아두"), ("돼", "되")])
def test_verb_stems(word, stem):
    assert jamo(stem) in verb_stems(jamo(word))


def test_particle_never_makes_a_wrong_word(index):
    # 바다로 is 바다 + 로, never a fuzzy match of 바로
    res = search(index, "바다로 갈 수 있어?", limit=3, details=True)
    assert res[0]["id"] == "move.off-board"
    row = res[0]["explain"][0]
    assert row["word"] == "바다로" and row["matched"] == "바다" and row["how"] in ("lemma", "prefix", "exact")
    for r in res:
        assert all(x["matched"] != "바로" for x in r["explain"])


@pytest.mark.parametrize("query, expected", [
    ("돈 얼마 들어와", "supply.income"),  # 돈 = 도르/수익, 들어오다 = 수익
    ("건물 부서지면 뭐 남아", "combat.capture"),  # 건물 = 구조물, 부서지다 = 파괴/조각
    ("적 칸에 들어가면 더 못가나", "move.path.enemy-stop"),  # 적 칸 = 상대 셀
    ("돈얼마들어와", "supply.income"),  # typed without spaces
])
def test_issue_examples(index, query, expected):
    assert expected in ids(index, query)


def test_matched_via_names_the_synonym(index):
    res = search(index, "돈 얼마 들어와", limit=3, details=True)
    top = next(r for r in res if r["id"] == "supply.income")
    assert {"word": "돈", "term": "수익"} in top["matched_via"] or {"word": "돈", "term": "도르"} in top["matched_via"]
    # the plain search result keeps the contract's shape (a clause adds its rule number)
    r = search(index, "돈", limit=1)[0]
    assert set(r) == {"id", "kind", "title", "text", "score"} | ({"number"} if r["kind"] == "clause" else set())


# --------------------------------------------------------------- intents ----
def test_date_prefers_that_dates_rulings(index):
    top = ids(index, "9월 24일에 뭐 바뀜", n=2)
    assert all(i.startswith("ruling.2026-09-24.") for i in top), top


def test_why_prefers_faq(index):
    with_why = search(index, "왜 본진 들어갔는데 안 이겨", limit=3)
    assert with_why[0]["kind"] == "faq", with_why


def test_when_prefers_timing_clauses(index):
    assert ids(index, "대응턴 언제 열려", n=1) == ["response.when"]
    res = search(index, "막는 쪽은 언제 반격해", limit=3)
    assert "combat.step5.defender-volley" in [r["id"] for r in res]


def test_card_name_and_verb_prefer_the_rule(index):
    # a card's name with a verb: the clause about the card doing it, before the bare card
    top = ids(index, "버스터콜로 망루도 날아가?")
    assert "move.structures" in top or "ruling.2026-09-24.structures-immovable" in top
    assert top[0] != "버스터콜"


# ------------------------------------------------------------ weak / CLI ----
def test_weak_result_is_flagged(index):
    rep = search_report(index, "냉장고 수리 방법", limit=3)
    assert rep["weak"] is True and rep["results"][0]["score"] < WEAK_SCORE
    good = search_report(index, "돈 얼마 들어와", limit=3)
    assert good["weak"] is False


def test_cli_weak_message_and_json():
    r = run("search", "냉장고", "수리", "방법", "-n", "2")
    assert r.returncode == 0, r.stderr
    assert "정확히 맞는 조항이 없습니다 — 가장 가까운 것:" in r.stdout
    r = run("search", "냉장고", "수리", "방법", "-n", "2", "--json")
    out = json.loads(r.stdout)
    assert out["weak"] is True and isinstance(out["suggestions"], list)


def test_cli_json_keeps_contract_and_adds_matched_via():
    out = json.loads(run("search", "돈", "얼마", "들어와", "--json", "-n", "3").stdout)
    assert out["query"] == "돈 얼마 들어와" and out["weak"] is False
    for r in out["results"]:
        assert {"id", "kind", "title", "text", "score"} <= set(r) and isinstance(r["matched_via"], list)
        assert "explain" not in r
    assert any(v["word"] == "돈" for r in out["results"] for v in r["matched_via"])


def test_cli_human_output_shows_synonym():
    out = run("search", "돈", "얼마", "들어와", "-n", "2").stdout
    assert "'돈' → " in out


def test_explain_shape():
    out = json.loads(run("search", "--explain", "건물", "부서지면", "뭐", "남아", "--json").stdout)
    assert 1 <= len(out["results"]) <= 5
    for r in out["results"]:
        words = [x["word"] for x in r["explain"]]
        assert words == ["건물", "부서지면", "뭐", "남아"]
        for x in r["explain"]:
            assert {"word", "weight", "score", "how", "matched", "field"} <= set(x)
            assert x["how"] in (None, "exact", "prefix", "lemma", "synonym", "synonym+fuzzy", "fuzzy", "choseong",
                                "joined", "kind", "question")
        assert abs(sum(x["weight"] for x in r["explain"]) - 1.0) < 0.01
    # 건물 is found as the thesaurus' 구조물 or, word for word, in an entry's player questions (질문 예)
    rows = [x for r in out["results"] for x in r["explain"] if x["word"] == "건물"]
    assert any(x["how"] == "synonym" and x.get("synonym") == "건물" for x in rows)
    assert all(x["field"] in ("title", "keywords", "body", "asked", None) for x in rows)
    human = run("search", "--explain", "ㄷㅇㅅㅌ").stdout
    assert "검색 풀이" in human and "초성" in human and "가중치" in human


def test_term_shows_everyday_words():
    out = run("term", "도르").stdout
    assert "플레이어가 쓰는 말: 돈" in out
    data = json.loads(run("term", "돈", "--json").stdout)
    assert data["term"] == "도르" and "돈" in data["everyday"]
