"""What a player types and reads in Korean (issue 28, the player-words part, and the Korean review in
docs of the issue): entries opened by number or by a word instead of an English id, lists without internal
ids (the ids stay in --json), lookups that refuse a far guess, scenario templates in Korean, search that
explains only what the player typed.

In-process (tests/inprocess.py `invoke`): the bundled data, through this worker's cache (keyed on the data's bytes and
the code, so it cannot change an answer: tests/hardening/test_cache.py).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

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


# ------------------------------------------------------------------------------------- search ----
def _search(*words) -> str:
    return ok("search", *words, "-n", "3")


def test_search_names_the_players_own_words():
    out = _search("대응턴은", "누가", "먼저", "해")
    assert "일치한 낱말: 대응턴, 먼저" in out and "맞은 말" not in out and "먼저얌" not in out
    # a word matched inside a longer word of the entry says which (장 → 장인)
    assert "일치한 낱말: 졍착(→정착), 기물" in ok("search", "졍착", "기물이", "-n", "1")


def test_search_shows_only_synonyms_the_query_used():
    out = _search("전투", "보드", "어디", "있어")
    assert "유의어" not in out and "'싸움'" not in out and "'판'" not in out
    out = _search("상대", "본진", "들어가면", "바로", "이겨")
    assert "'상대편'" not in out and "'기지'" not in out
    got = js("search", "돈은", "언제", "들어와")["results"]
    vias = [v for r in got for v in r["matched_via"]]
    assert {"word": "돈", "term": "수익"} in vias and all(v["word"] != v["term"] for v in vias)
    assert all(v["word"] in ("돈", "들어오다") for v in vias)  # words the player typed (들어와 → 들어오다)


def test_search_spells_out_initials():
    out = _search("ㄷㅇㅅㅌ")
    assert "초성 ㄷㅇㅅㅌ → 대응 스택" in out and "일치한 낱말: ㄷㅇㅅㅌ" not in out


def test_search_points_at_numbers_and_days_not_ids():
    out = ok("search", "전투", "보드", "폐지", "-n", "5")
    assert "→ flamer rule 9/20" in out and not ENTRY_ID.search(out)
    assert js("search", "전투", "보드", "폐지")["results"][0]["ref"] == "9/20"


# ------------------------------------------------------------------------ fight and simulate ----
FIGHT2 = "수문장 x2 vs 개미(lv1 hp2 atk1), 증폭기(정착 atk0)"
FIGHT3 = ["수문장(lv6), 별마대, 장인 vs 거신, 행성굴착기(정착), 증폭기(정착)", "-r", "수비자 재부팅 행성굴착기"]
COST = ["거신, 장인 vs 개미(정착 lv1 hp2 atk1)", "-r", "수비자 진내폭격 비용 개미"]


def flat(text: str) -> str:
    return " ".join(text.split())


def test_missing_stats_say_how_to_write_them_in_the_fight():
    r = invoke("fight", "수문장 vs 개미")
    clean_error(r, "전투 문장의 카드 이름 뒤 괄호에 적거나 --stat으로 넣어 주세요",
                '예: --stat "개미 체력 2" 또는 개미(체력2) (2 자리에 실제 값)')
    assert "줄에" not in r.stderr and "숫자" not in r.stderr
    r = invoke("fight", "거신 vs 별마대", "--stat", "거신 hp 4")
    clean_error(r, "다른 값으로 풀어 보려면 전투 문장에 거신(hp4)처럼 적으세요.")


def test_a_one_line_fight_talks_of_no_scenario():
    out = flat(ok("fight", *FIGHT3, "--full"))
    assert "필드를 적지 않았으므로 재부팅은 필드에 세트되어 있었다고 보았음" in out and "시나리오" not in out
    assert "#1 수비자(BGM)가 세트해 둔 (대응) 특수카드 재부팅을 선언 — 대상 행성굴착기(전투 셀), 효과:" in out
    assert "고른 셀 전투 셀" not in out
    assert "— 대상: 상대 기동 기물 중 Lv이 가장 높음(7)" in out and "기동 중 Lv" not in out
    assert "가정 — 적혀 있지 않거나 룰북이 정하지 않아 대신 고른 것" in out


def test_ties_are_said_once_in_the_words_of_what_was_written():
    out = flat(ok("fight", FIGHT2, "--full"))
    assert "[공격 순서: Lv·HP·ATK·cost가 모두 같아 전투 문장에 먼저 적은 순서대로(룰북에 없는 기준, 해석 6.14-2)]" in out
    assert "(공식 판정 아님))" not in out and "시나리오 나열 순서" not in out
    out = flat(ok("simulate", "-", input=ok("scenario", "new", "전투")))
    assert "대상: 수문장 1 — 상대 기동 기물의 Lv·HP·ATK·cost가 모두 같아 시나리오 파일에 먼저 적은 순서대로" in out


def test_steps_and_sweeps_count_their_pieces():
    out = flat(ok("fight", "수문장 vs 거신", "--full"))
    assert "기동 기물 수문장 1기]" in out and "거신 순 (Lv 높은 순)" not in out
    out = flat(ok("fight", "거신 vs 별마대, 행성굴착기(정착)", "--full"))
    assert "남은 정착 기물 행성굴착기를 포획" in out and "모두 포획(구조물은 조각)" not in out


def test_unresolved_gap_is_named_in_the_short_answer():
    out = ok("fight", FIGHT2)
    assert "미해결:\n  - 개미는 HP가 0 이하가 되어 포획되었지만, 룰북에 개미 '불사'의 원문이 없어" in out
    assert len(out.rstrip("\n").split("\n")) <= 15
    brief = ok("fight", FIGHT2, "--brief")
    assert brief.rstrip().endswith("자세한 풀이는 --full로 보세요") and "--brief 없이" not in brief


def test_a_cost_is_offered_and_hits_land_on_pieces():
    out = ok("fight", *COST)
    assert "개미는 진내폭격의 비용으로 헌납(보드에서 제거)" in out and "비용으로 보드에서 제거:" not in out
    out = ok("fight", *COST, "--compare", "2026-09-23")
    assert "진내폭격 10 ATK가 거신에게 적중" in out and "거신에 10 ATK" not in out
    out = flat(ok("fight", *COST, "--full"))
    assert "상대가 있어야 하는 효과·공격은 불발" in out and "상대가 필요한" not in out


def test_a_defender_keeps_its_cell():
    assert ok("fight", "수문장 vs 거신", "--cell", "2,4").startswith("판정: 수비자(BGM)가 (2,4)를 지켜 냄(1회차)\n")


def test_combat_order_and_branches_in_plain_words():
    out = flat(ok("simulate", "scenarios/two-cells.yaml"))
    assert "전투 순서: (2,4) → (4,4) (시나리오 파일에 순서가 없어 좌표 순으로 가정 — 실제로는 공격자가 고름)" in out
    assert "셀 번호" not in out
    out = ok("simulate", "scenarios/two-cells.yaml", "--all-branches")
    assert "공격자가 고를 수 있는 순서 2가지 — 어느 쪽이든 결과는 같음" in out and "서로 다른 결과 1가지" not in out


def test_verdicts_of_other_kinds_read_as_sentences():
    assert ok("simulate", "scenarios/move-scene3.yaml").startswith("판정: 모든 이동이 규칙에 맞음\n")
    assert ok("simulate", "scenarios/field-byeolmadae.yaml").startswith(
        "판정: 활성 카드 수문장·장인·별마대·봉수장, 은퇴한 카드 없음\n")
    out = ok("simulate", "scenarios/combat-scene5.yaml")
    assert "별마대 병풍: DGM 필드의 가장 왼쪽(1번 자리) 카드 수문장의 기물이 Lv 6" in out


def test_a_game_record_reads_round_by_round():
    out = ok("simulate", "scenarios/game-four-rounds.yaml")
    lines = out.splitlines()
    assert lines[0].startswith("판정: 4라운드까지 승부가 나지 않음 · ")
    assert lines[2].startswith("근거: ") and " · 주의:" not in lines[2] and lines[3].startswith("주의: ")
    assert "보드: 시나리오 파일에 적은 보드" in out and "시나리오의 보드" not in out
    title = "네 라운드 — 장면 5의 결착"
    assert out.count(title) == 1  # the game's banner only, not every combat turn's heading
    assert "전투 판정: (2,4)" in out and "※ 4·5. 대응턴·전투턴 없음 — 조우 셀이 없어 건너뜁니다" in out


def test_citations_are_listed_by_number():
    out = ok("fight", *FIGHT3, "--full")
    cited = out.split("인용한 조항·판정\n", 1)[1].splitlines()
    numbers = [line.split()[0] for line in cited if re.match(r"\s+\d+\.\d", line)]
    keys = [tuple(int(x) for x in n.split(".")) for n in numbers]
    assert keys == sorted(keys) and len(keys) >= 10, numbers


def test_vacated_stack_gap_is_plain():
    out = flat(ok("simulate", "scenarios/vacated-by-cost.yaml", "--compare", "2026-09-23"))
    assert "모든 조우 셀에서 한쪽 기물이 대응턴 비용으로 사라져, 기준일" in out and "조우 셀이 모두 한쪽이 비어" not in out


# ------------------------------------------------------------------------------- lookups, help ----
def test_card_page_reads_for_players():
    out = ok("card", "별마대")
    assert out.startswith("별마대 — 기물 카드\n") and "생산 비용 12도르 · 중급(조건 없이 활성화)" in out
    assert '  - Lv·HP·ATK: "별마대 Lv5·HP8·ATK3" (전투턴 페이지)' in out and out.count("별마대 Lv5·HP8·ATK3") == 1
    assert "참고:" not in out and "에서 나온다" not in out and "카드 (예시" not in out
    assert "cost 12는 생산 비용" in js("card", "별마대")["notes"]  # the editors' note stays in --json
    out = ok("cards")
    assert out.splitlines()[1].split()[:4] == ["이름", "종류", "진영", "등급"] and " ?" not in out


def test_timing_and_term_read_as_a_reference():
    out = ok("timing", "진내폭격")
    assert "누구의 라운드:  상대 라운드의 대응턴에 발동한다" in out and "예외(맞대응, 2026-09-19)로" in out
    assert "효과는 10 ATK 공격이며" in out
    out = ok("timing", "맞대응")
    assert "아래는 맞대응과 관련된 사용 시점을 카드 종류별로 모은 것입니다." in out and "인용하는" not in out
    out = ok("term", "확보")
    assert "플레이어가 쓰는 말: 먹다, 지키다, 굳히다, 내 땅, 땅 개수, 챙기다\n" in out


def test_rulings_and_rules_read_without_stacked_dashes():
    out = ok("rulings")
    assert "2026-09-20 폐지 — 전투 보드 없이 필드의 카드를 그대로 두고 조우 셀에서 전투" in out
    assert not re.search(r"^\d{4}-\d\d-\d\d \S+ — [^—\n]+ — ", out, re.M)
    out = flat(ok("rule", "6.26"))
    assert "(옛 문안 '그 자리에서 종료'를 대신함)" in out and "(대체:" not in out
    out = flat(ok("rule", "response.resolve.depart", "--as-of", "9/23"))
    assert "2026-09-24 확정 판정으로 바뀌었습니다(" in out


def test_usage_words():
    from test_korean_review import told

    code, err = told("fight", "거신 vs 별마대", "--as-of", "9/31")
    assert code == 2 and "9월 31일은 없는 날짜입니다." in err
    code, err = told("figth", "x")
    assert code == 2 and "'figth'라는 명령은 없습니다. fight를 찾으셨나요?" in err
    help_ = flat(ok("fight", "--help"))
    assert "기물 id" not in help_ and "행성굴착기2처럼 번호까지" in help_ and "적으면 답에 그 셀 좌표가 나오고" in help_
    site = flat(ok("site", "--help"))
    assert "돕니다" not in site and "약 17메가바이트" in site


def test_scenario_problems_say_key_value_not_mapping(tmp_path):
    f = tmp_path / "bad.yaml"
    f.write_text("종류: 전투\n공격자: DGM\n셀: [1, 2]\n", encoding="utf-8")
    r = invoke("simulate", str(f))
    clean_error(r, "'셀'은 셀마다 \"좌표: 진영별 기물 목록\" 꼴로 적어야 합니다")
    assert "매핑" not in r.stderr


# ------------------------------------------------------------------ the README's commands ----
def readme_commands() -> list[str]:
    """Every `flamer …` line of the README's shell blocks that answers a question (not the book, the site
    or writing files beside the tests), its comment taken off; `a && b` are two."""
    root = Path(__file__).resolve().parent.parent.parent  # the README and its command pages (docs/FIGHT.md, COMMANDS.md)
    text = "\n".join((root / page).read_text(encoding="utf-8") for page in ("README.md", "docs/FIGHT.md", "docs/COMMANDS.md"))
    out = []
    for block in re.findall(r"```bash\n(.*?)```", text, re.S):
        for line in block.splitlines():
            for part in line.split("  #")[0].split("&&"):
                part = part.strip()
                if part.startswith("flamer ") and not re.match(r"flamer (book|site)\b", part) \
                        and "--format pdf" not in part and part not in out:
                    out.append(part)
    return out


README_COMMANDS = readme_commands()


def test_the_readme_commands_are_found():
    assert len(README_COMMANDS) >= 20
    assert any(c.startswith("flamer example 장면5 --scenario") for c in README_COMMANDS)


def test_readme_commands_hold_no_internal_word(tmp_path, monkeypatch):
    """Every README command, run as the README runs it (`a > f` then `b f`, `a | b -`): no word of
    tests/forbidden_words.py, no clause, ruling, FAQ, example or term id in what a person reads; a scenario
    file it prints (YAML, whose keys are the format's) has no `null` and no such id either."""
    import shlex

    from forbidden_words import clause_ids, found, visible

    monkeypatch.chdir(Path(__file__).resolve().parent.parent.parent)  # the README's paths: scenarios/…
    files: dict = {}
    bad = {}
    for line in README_COMMANDS:
        stdin = None
        for cmd in line.split("|"):
            cmd, _, target = (x.strip() for x in cmd.partition(">"))
            argv = [str(files.get(a, a)) for a in shlex.split(cmd)[1:]]
            r = invoke(*argv, input=stdin)
            assert r.exit_code == 0, (line, r.stderr[-400:])
            text = r.stdout
            if argv[:2] == ["scenario", "new"] or "--scenario" in argv:
                wrong = (["null"] if "null" in text else []) + ENTRY_ID.findall(text)
            else:
                fmt = "html" if "html" in argv else "text"
                seen = visible(text, fmt)
                wrong = found(seen) + clause_ids(text, fmt) + ENTRY_ID.findall(seen)
            if wrong:
                bad[line] = wrong
            if target:
                files[target] = tmp_path / target
                files[target].write_text(text, encoding="utf-8")
            stdin = text
    assert not bad, bad


def test_an_faq_items_scenario_exports_by_its_number():
    text = ok("example", "FAQ 4", "--scenario")
    assert text.startswith("# FAQ4 — 상대 본진에") and "flamer example FAQ4#2 --scenario" in text
    assert json.loads(ok("simulate", "-", "--json", input=text))["kind"] == "move"
    assert json.loads(ok("simulate", "-", "--json", input=ok("example", "FAQ4#2", "--scenario")))["winner"] == "DGM"
    r = invoke("example", "FAQ4")
    clean_error(r, "'FAQ4'는 예시가 아니라 FAQ 항목입니다: flamer faq 4")
