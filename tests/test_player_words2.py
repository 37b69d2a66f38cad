"""What a player types and reads in Korean (issue 28, the player-words part, and the Korean review in
docs of the issue): entries opened by number or by a word instead of an English id, lists without internal
ids (the ids stay in --json), lookups that refuse a far guess, scenario templates in Korean, search that
explains only what the player typed.

In-process (tests/inprocess.py): each call builds its answer from the bundled data.
"""

from __future__ import annotations

import json
import re

import pytest

from flamer_ref.corpus import load
from inprocess import clean_error, invoke

#: ids of FAQ items, examples, terms, rulings and clauses as they would leak into a person's text
ENTRY_ID = re.compile(r"(?<![A-Za-z0-9_])(?:faq|ex|term|ruling|combat|response|move|victory|field|interp)\.[a-z0-9]")


@pytest.fixture(scope="module")
def corpus():
    return load()


def ok(*args, input=None) -> str:
    r = invoke(*args, input=input)
    assert r.exit_code == 0, (args, r.stdout[-600:], r.stderr[-600:])
    return r.stdout


def js(*args) -> dict:
    return json.loads(ok(*args, "--json"))


# --------------------------------------------------------------------------------------- FAQ ----
def test_faq_items_open_by_number(corpus):
    first, third = list(corpus.faq.values())[0], list(corpus.faq.values())[2]
    out = ok("faq", "1")
    assert out.startswith("Q1. " + first["question"]) and out.count("Q") == 1
    assert ok("faq", "3").startswith("Q3. " + third["question"])
    assert js("faq", "3")["faq"][0]["id"] == third["id"]


def test_faq_items_open_by_a_word_of_the_question():
    out = ok("faq", "주사위")
    assert "('주사위'가 들어간 질문: 1번)" in out and "Q1. 전투에 주사위 운이 있나요?" in out
    got = js("faq", "주사위")
    assert got["found_by"] == "word" and [f["id"] for f in got["faq"]] == ["faq.combat.dice"]


def test_faq_word_of_several_questions_lists_them_by_number():
    r = invoke("faq", "전투")
    clean_error(r, "들어간 질문이 3개입니다", "  - 1. 전투에 주사위 운이 있나요?", "flamer faq 1")
    assert not ENTRY_ID.search(r.stderr)
    r = invoke("faq", "99")
    clean_error(r, "FAQ 99번이 없습니다. 1번부터 12번까지 있습니다")


def test_faq_list_numbers_every_item_without_ids(corpus):
    out = ok("faq")
    assert not ENTRY_ID.search(out), ENTRY_ID.findall(out)
    for n, f in enumerate(corpus.faq.values(), 1):
        assert f"Q{n}. " in out and f"   → flamer faq {n}\n" in out
    # the --json list keeps the ids, with the numbers beside them (fields added, none taken away)
    items = js("faq")["faq"]
    assert [f["id"] for f in items] == list(corpus.faq) and [f["number"] for f in items] == list(range(1, 13))
    assert set(items[0]) >= {"id", "question", "answer", "clauses", "source", "number"}


# ----------------------------------------------------------------------------------- rulings ----
def test_a_ruling_of_a_day_opens_by_its_number(corpus):
    day = [r for r in corpus.rulings.values() if r["date"] == "2026-09-24"]
    assert len(day) == 2
    for n, r in enumerate(day, 1):
        out = ok("rule", f"9/24-{n}")
        assert out.startswith(f"2026-09-24 {r['label']} — ") and r["title"][:20] in " ".join(out.split())
        assert js("rule", f"9/24-{n}")["id"] == r["id"]
    # the order of rules/rulings.yaml, which the numbers follow (docs/DATA.md)
    assert [r["id"] for r in day] == ["ruling.2026-09-24.vacated-combat", "ruling.2026-09-24.structures-immovable"]


def test_a_day_of_two_rulings_lists_them_by_number_not_by_id():
    r = invoke("rule", "9/24")
    clean_error(r, "2026-09-24의 판정이 2건입니다", "  - 9/24-1  확정 — 이탈·비용으로", "  - 9/24-2  확정 — 구조물을",
                "flamer rule 9/24-2")
    assert "ruling." not in r.stderr and "id로" not in r.stderr
    got = json.loads(invoke("rule", "9/24", "--json").stdout)
    assert {c["id"] for c in got["candidates"]} == {"ruling.2026-09-24.vacated-combat",
                                                     "ruling.2026-09-24.structures-immovable"}
    clean_error(invoke("rule", "9/24-3"), "2026-09-24의 판정은 2건이라 3번이 없습니다")


def test_rulings_list_points_at_days_not_ids(corpus):
    out = ok("rulings")
    assert not ENTRY_ID.search(out), ENTRY_ID.findall(out)
    assert "   → flamer rule 9/4\n" in out and "   → flamer rule 9/24-1\n" in out
    rows = js("rulings")["rulings"]
    assert [r["id"] for r in rows] == list(corpus.rulings)  # the ids stay in --json
    assert {r["ref"] for r in rows} >= {"9/4", "9/24-1", "9/24-2"}


def test_rule_shows_no_id_line():
    for q in ("6.26", "9/4", "해석 6.14-1"):
        out = ok("rule", q)
        assert not re.search(r"^id: ", out, re.M) and not ENTRY_ID.search(out), (q, out[-300:])
    out = ok("rule", "6.26")
    assert "→ flamer example 2" in out and "→ flamer example ex." not in out


# ---------------------------------------------------------------------------------- examples ----
def test_examples_open_by_title_or_number(corpus):
    for typed in ("장면5", "장면 5", "2"):
        out = ok("example", typed)
        assert out.startswith("2. 장면 5 — 3기 대 3기, 네 회차 만에 결착"), typed
    assert ok("example", "3").startswith("3. " + list(corpus.examples.values())[2]["title"])
    assert js("example", "장면5")["id"] == "ex.combat.scene5"
    r = invoke("example", "장면")
    clean_error(r, "들어간 예시가 7개입니다", "  - 2. 장면 5 — 3기 대 3기")
    # the scenario of one, by number too; the header names it by number
    text = ok("example", "장면5", "--scenario")
    assert "flamer example 2 --scenario" in text and "ex.combat" not in text
    assert ok("simulate", "-", input=text).startswith("판정: ")


def test_example_lists_show_numbers_and_korean_kinds_not_ids(corpus):
    out = ok("example")
    assert not ENTRY_ID.search(out) and "2.  장면 5 — 3기 대 3기, 네 회차 만에 결착" in out
    checked = ok("examples")
    assert not ENTRY_ID.search(checked), ENTRY_ID.findall(checked)
    assert re.search(r"^통과  전투     예시 2\. 장면 5 — 3기 대 3기, 네 회차 만에 결착$", checked, re.M)
    assert "FAQ 4. 상대 본진에" in checked and "(시나리오 2/2)" in checked
    for word in ("combat", "victory", "field", "round"):
        assert not re.search(rf"(?<![\w.-]){word}(?![\w.-])", checked), word
    rows = js("examples")["examples"]
    assert rows[0]["id"] == "ex.combat.scene5" and rows[0]["kind"] == "combat"
    assert (rows[0]["source"], rows[0]["number"], rows[0]["part"], rows[0]["parts"]) == ("example", 2, 1, 1)


# ------------------------------------------------------------------------------------ lookups ----
def test_timing_refuses_a_far_guess_with_candidates():
    r = invoke("timing", "아무거나")
    clean_error(r, "'아무거나'에 맞는 카드·능력·타이밍 태그·용어가 없습니다", "  - 암막턴 (용어)")
    assert "찾았습니다" not in r.stdout + r.stderr
    # a close typo still corrects, and says so
    out = ok("timing", "맞대웅")
    assert out.startswith("('맞대웅' → '맞대응'으로 찾았습니다)")
    # an ambiguous name lists the candidates, by name
    r = invoke("timing", "잠")
    clean_error(r, "여럿입니다", "  - 잠복군 (카드)")


def test_card_and_term_refuse_what_looks_like_nothing():
    r = invoke("card", "없는카드")
    clean_error(r, "비슷한 카드도 없습니다. 카드 목록: flamer cards")
    assert "은림단" not in r.stderr
    r = invoke("term", "없는말")
    clean_error(r, "용어 '없는말'을 찾을 수 없습니다")
    assert "term." not in r.stderr
    assert ok("card", "별마데").startswith("('별마데' → '별마대'로 찾았습니다)")


# ------------------------------------------------------------------------- scenario templates ----
KINDS = ("전투", "이동", "승리확인", "필드", "라운드", "게임")


@pytest.mark.parametrize("kind", KINDS)
def test_scenario_templates_are_korean_and_resolve(kind):
    text = ok("scenario", "new", kind)
    body = "\n".join(line.split("#")[0] for line in text.splitlines())  # what is written, not the comments
    # no English piece code (gk1, drill, amp …) and no YAML word for an empty slot: every value a player
    # writes is Korean, a number, a side code or a cell
    assert not re.search(r"\bnull\b", text), kind
    latin = set(re.findall(r"[A-Za-z][A-Za-z0-9_]*", body)) - {"DGM", "BGM"}
    assert not latin, (kind, latin)
    got = json.loads(ok("simulate", "-", "--json", input=text))
    assert not got.get("errors") and not (got.get("first_illegal") if kind == "게임" else None)


def test_combat_template_names_pieces_by_card():
    text = ok("scenario", "new", "전투")
    assert "- {아이디: 수문장1, 카드: 수문장}" in text and "대상: 행성굴착기}" in text
    assert "[수문장, 장인, 빈자리, 빈자리, 빈자리]" in text


def test_an_empty_field_slot_is_written_binjari(corpus):
    base = "종류: 필드\n진영: DGM\n필드: [수문장, 장인, EMPTY, EMPTY, EMPTY]\n행동:\n- {놓기: 별마대, 자리: 3, 면: 앞면}\n"
    texts = {w: base.replace("EMPTY", w) for w in ("null", "빈자리", "빈 자리")}
    results = {w: json.loads(ok("simulate", "-", "--json", input=t)) for w, t in texts.items()}
    assert results["빈자리"] == results["null"] == results["빈 자리"]
    assert not results["빈자리"].get("errors") and results["빈자리"]["slots"][3]["top"] is None
    # the example export writes the rulebook's word, and reads back to the same result
    text = ok("example", "장면5", "--scenario")
    assert "DGM: [수문장, 장인, 갑사, 별마대, 빈자리]" in text and "null" not in text
    again = json.loads(ok("simulate", "-", "--json", input=text))
    assert again["prisoners"] == {"DGM": ["giant", "drill", "amp"], "BGM": ["gk"]}
