"""Numbered rules (issue 17, item 4) and the data editors' words kept out of printed fields (item 3).

- every clause and interpretation has a number; numbers are unique; the scheme (chapter = section
  order, file order, sub-clauses under the clause whose id they extend, interpretations after their clause);
- `flamer rule NUMBER` is `flamer rule ID`, in --json and in text;
- rules/numbers.lock.yaml records every number with the rules version; `flamer validate` fails when a
  number changes (or disappears, or is not recorded) without the rules version changing, and says how to
  fix it (`--write-numbers`, which refuses to renumber within a version);
- `flamer validate` rejects the editors' words (null, page.…, unresolved, ids, data values) in printed
  fields, and lets the rulebook's Latin and `editor_note` through.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from inprocess import invoke

from flamer_ref import datawords, numbering
from flamer_ref.corpus import load, parse
from flamer_ref.errors import DataError

ROOT = Path(__file__).resolve().parent.parent.parent


@pytest.fixture(scope="module")
def corpus():
    return load()


# ------------------------------------------------------------------ the numbers ----
def test_every_clause_and_interpretation_has_a_unique_number(corpus):
    nums = numbering.numbers(corpus)
    assert set(nums) == set(corpus.clauses) | set(corpus.interpretations)
    assert len(set(nums.values())) == len(nums), "two entries share a number"
    for key, num in nums.items():
        assert numbering.NUMBER_RE.fullmatch(num), (key, num)
        assert ("-" in num) == (key in corpus.interpretations), (key, num)


def test_numbering_scheme_on_the_bundled_data(corpus):
    n = {k: v for k, v in numbering.numbers(corpus).items()}
    # chapter = the section's place in the order of the sections; clauses in file order
    assert n["field.slots"] == "1.1" and n["round.turns"] == "2.1" and n["combat.occurs"] == "6.1"
    assert n["combat.step7.sweep"] == "6.26"
    # a clause whose id extends another clause's id of the same section is numbered under it
    assert n["field.entry-effect"] == "1.10" and n["field.entry-effect.duration"] == "1.10.1"
    assert n["response.counter.multi-cell"] == "5.4.1" and n["response.counter.requirements"] == "5.4.2"
    # field.special.* has no clause field.special: numbered at the top level
    assert n["field.special.trash"] == "1.3"
    # interpretations after their clause
    assert n["interp.tiebreak.current-hp"] == "6.14-1" and n["interp.tiebreak.listing-order"] == "6.14-2"
    # reading order: 1.9 before 1.10, 1.10 before 1.10.1, 6.14 before 6.14-1
    assert list(n.values()) == sorted(n.values(), key=numbering.sort_key)


def test_clause_added_at_the_end_of_a_section_or_of_its_parent_changes_no_number(tree):
    tree.append("rules/clauses/a.yaml", "- id: a.first.sub\n  title: 하위\n  source: page.combat\n  text: 하위 조항.\n"
                                        "- id: a.third\n  title: 셋째\n  source: page.combat\n  text: 셋째 조항.\n")
    c = parse(tree.root)
    assert [c.clauses[k]["number"] for k in ("a.first", "a.second", "a.first.sub", "a.third")] == \
        ["1.1", "1.2", "1.1.1", "1.3"]


def test_sections_with_the_same_order_are_refused(tree):
    tree.write("rules/clauses/b.yaml", "section: {id: b, title: 나 섹션, order: 10}\nclauses:\n"
                                       "- id: b.one\n  title: 하나\n  source: page.combat\n  text: 본문.\n")
    with pytest.raises(DataError) as err:
        parse(tree.root)
    p = err.value.problems[0]
    assert (p.file, p.key) == ("rules/clauses/b.yaml", "order") and "order 10이" in p.message


# ------------------------------------------------------- flamer rule NUMBER == ID ----
def test_rule_by_number_equals_rule_by_id_in_json_and_text(corpus):
    for key, num in numbering.numbers(corpus).items():
        by_id = invoke("rule", key, "--json")
        by_num = invoke("rule", num, "--json")
        assert by_id.exit_code == by_num.exit_code == 0, (key, num, by_num.output)
        assert json.loads(by_num.stdout) == json.loads(by_id.stdout), (key, num)
        obj = json.loads(by_id.stdout)
        shown = obj["interpretation"]["number"] if key in corpus.interpretations else obj["number"]
        assert shown == num
        text_id, text_num = invoke("rule", key).output, invoke("rule", num).output
        assert text_id == text_num, (key, num)
    # the text leads with the number and the title
    out = invoke("rule", "6.26").output
    assert out.splitlines()[0] == "6.26 7단계 정리 — 남은 정착 기물 일괄 포획"
    assert "id: " not in out and "combat.step7.sweep" not in out  # the id is in --json only (issue 28)


@pytest.mark.parametrize("typed, key", [("해석 6.14-1", "interp.tiebreak.current-hp"),
                                        ("해석6.14-1", "interp.tiebreak.current-hp"),
                                        (" 6.26 ", "combat.step7.sweep"),
                                        ("2026-09-16", "ruling.2026-09-16.path-rule"),
                                        ("9/16", "ruling.2026-09-16.path-rule")])
def test_rule_numbers_and_dates_as_typed(typed, key):
    want = json.loads(invoke("rule", key, "--json").stdout)
    got = invoke("rule", *typed.split(), "--json")
    assert got.exit_code == 0, got.output
    assert json.loads(got.stdout) == want


def test_unknown_number_and_a_date_of_two_rulings_are_korean_errors():
    res = invoke("rule", "6.99")
    assert res.exit_code == 1 and "조항 번호 '6.99'가 없습니다." in res.output and "6.26 7단계 정리" in res.output
    res = invoke("rule", "2026-09-24", "--json")
    assert res.exit_code == 1
    err = json.loads(res.stdout)
    assert err["error"]["code"] == "ambiguous"
    assert {c["id"] for c in err["candidates"]} == {"ruling.2026-09-24.vacated-combat",
                                                    "ruling.2026-09-24.structures-immovable"}


def test_json_of_a_clause_gains_number_and_keeps_its_shape():
    obj = json.loads(invoke("rule", "combat.step7.sweep", "--json").stdout)
    assert obj["number"] == "6.26"
    assert set(obj) == {"kind", "id", "number", "title", "text", "text_status", "as_of", "note", "section",
                        "section_title", "source", "source_ids", "rulings", "later_rulings", "see_also",
                        "interpretations", "faq", "examples", "keywords",
                        "withdrawn_rulings"}  # issue 27: rulings withdrawn by as_of
    assert all(set(s) == {"id", "title", "number"} for s in obj["see_also"])
    assert obj["faq"] == [] or all(isinstance(f, str) for f in obj["faq"])


def test_search_finds_a_clause_by_its_number():
    obj = json.loads(invoke("search", "6.26", "--json").stdout)
    assert [(r["id"], r.get("number")) for r in obj["results"]] == [("combat.step7.sweep", "6.26")]
    out = invoke("search", "정착", "기물").output
    assert re.search(r"\[조항\] 6\.7 정착\(뒷면\) 기물은", out) and "→ flamer rule 6.7" in out


def test_completion_offers_numbers():
    from flamer_ref import complete

    got = complete.rule_ids(None, "6.2")
    assert ("6.26", "7단계 정리 — 남은 정착 기물 일괄 포획") in got
    assert all(v.startswith("6.2") for v, _ in got)


# ------------------------------------------------------------------- the lock ----
def test_bundled_lock_records_every_number_with_the_rules_version(corpus):
    doc, problems = numbering.read_lock(ROOT)
    assert problems == [] and doc is not None
    assert doc["rules_version"] == corpus.rules_version
    assert doc["numbers"] == numbering.numbers(corpus), \
        "a rule number changed: renumbering needs a new rules_version (rules/sources.yaml) and " \
        "`flamer validate --write-numbers`"
    assert numbering.check_lock(corpus, ROOT) == []
    assert (ROOT / numbering.LOCK).read_text(encoding="utf-8") == numbering.lock_text(corpus)


def _locked(tree, version="v1"):
    tree.replace("rules/sources.yaml", "sources:\n", f"rules_version: \"{version}\"\nsources:\n")
    res = invoke("validate", "--data", str(tree.root), "--write-numbers")
    assert res.exit_code == 0, res.output
    return tree


def _insert_first(tree):
    tree.replace("rules/clauses/a.yaml", "clauses:\n", "clauses:\n- id: a.zero\n  title: 새 조항\n"
                                                       "  source: page.combat\n  text: 새 조항의 본문.\n")


def test_validate_rejects_a_changed_number_without_a_new_rules_version(tree):
    _locked(tree)
    assert invoke("validate", "--data", str(tree.root)).exit_code == 0
    _insert_first(tree)  # a.first 1.1 → 1.2, a.second 1.2 → 1.3
    res = invoke("validate", "--data", str(tree.root), "--json")
    assert res.exit_code == 1
    problems = json.loads(res.stdout)["problems"]
    changed = [p for p in problems if "번호가" in p["message"] and "바뀌었습니다" in p["message"]]
    assert {p["message"].split("'")[1] for p in changed} == {"a.first", "a.second"}
    first = next(p for p in changed if "'a.first'" in p["message"])
    assert "1.1에서 1.2로" in first["message"] and first["file"] == "rules/clauses/a.yaml"
    assert "rules_version을 올리고" in first["fix"] and "--write-numbers" in first["fix"]
    # --write-numbers does not renumber within a rules version
    res = invoke("validate", "--data", str(tree.root), "--write-numbers")
    assert res.exit_code == 1 and "바뀌었습니다" in res.output
    # a new rules version: the record is of the old one until written anew
    tree.replace("rules/sources.yaml", 'rules_version: "v1"', 'rules_version: "v2"')
    res = invoke("validate", "--data", str(tree.root))
    assert res.exit_code == 1 and "규칙 판 'v1'의 것인데" in res.output and "--write-numbers" in res.output
    res = invoke("validate", "--data", str(tree.root), "--write-numbers")
    assert res.exit_code == 0, res.output
    assert "조항 번호 기록을 썼습니다" in res.output
    assert 'a.zero: "1.1"' in tree.read(numbering.LOCK) and 'rules_version: "v2"' in tree.read(numbering.LOCK)


def test_a_removed_clause_is_a_renumbering_and_a_new_one_must_be_recorded(tree):
    _locked(tree)
    tree.append("rules/clauses/a.yaml", "- id: a.third\n  title: 셋째\n  source: page.combat\n  text: 셋째 조항.\n")
    res = invoke("validate", "--data", str(tree.root))
    assert res.exit_code == 1 and "'a.third'의 번호 1.3이 번호 기록(rules/numbers.lock.yaml)에 없습니다" in res.output
    res = invoke("validate", "--data", str(tree.root), "--write-numbers")  # no version change needed
    assert res.exit_code == 0 and "새 번호 1개" in res.output
    text = tree.read("rules/clauses/a.yaml")
    tree.write("rules/clauses/a.yaml", text[:text.index("- id: a.third")])
    res = invoke("validate", "--data", str(tree.root))
    assert res.exit_code == 1 and "번호 기록에 있는 조항 'a.third'(번호 1.3)가 데이터에 없습니다" in res.output


def test_without_a_lock_nothing_is_compared(tree):
    assert not (tree.root / numbering.LOCK).exists()
    assert invoke("validate", "--data", str(tree.root)).exit_code == 0


# ------------------------------------------------- editors' words in printed fields ----
@pytest.mark.parametrize("rel, old, new, word", [
    ("cards/cards.yaml", "  notes: null", "  notes: 등급은 페이지에 없어 null로 둠.", "'null'"),
    ("cards/cards.yaml", "  notes: null", "  notes: 예시가 있다(page.field).", "'page.field'"),
    ("rules/clauses/a.yaml", "  text: 첫 조항의 본문.", "  text: 결과의 unresolved에 알린다.", "'unresolved'"),
    ("rules/faq.yaml", "  answer: 네, 첫 질문입니다.", "  answer: 네, combat.step7.sweep을 보세요.", "'combat.step7.sweep'"),
    ("rules/glossary.yaml", "  definition: 맨 앞의 것.", "  definition: 맨 앞의 것(stat_sources).", "'stat_sources'"),
    ("cards/cards.yaml", "    text: 수비자일 때만 발동한다.", "    text: special로 기록한 효과.", "'special'"),
    ("rules/examples/a.yaml", "  result: 결과.", "  result: atk는 null로 두고 효과에 적음.", "'atk'"),
])
def test_validate_rejects_editors_words_in_printed_fields(tree, rel, old, new, word):
    tree.replace(rel, old, new)
    res = invoke("validate", "--data", str(tree.root), "--json")
    assert res.exit_code == 1, res.output
    problems = json.loads(res.stdout)["problems"]
    assert len(problems) == 1, problems
    p = problems[0]
    assert p["file"] == rel and p["line"] == tree.line_of(rel, new.strip().split("\n")[0])
    assert word in p["message"] and "사람이 읽는 칸" in p["message"]
    assert "editor_note" in p["fix"]


def test_rulebook_latin_and_editor_notes_pass(tree):
    tree.replace("rules/clauses/a.yaml", "  text: 첫 조항의 본문.",
                 "  text: Lv·HP·ATK·cost, VP 7, SP, MOV 2, EMP, LIFO, DGM/BGM, 룰북 v2 · 2026-09-24, X·Y, (A − B), HP3.\n"
                 "  editor_note: page.combat에서 옮김. grade는 null로 둠 (combat.step7.sweep).")
    tree.replace("cards/cards.yaml", "  notes: null", "  notes: null\n  editor_note: atk는 null로 두고 special로 기록.")
    res = invoke("validate", "--data", str(tree.root))
    assert res.exit_code == 0, res.output


def test_bundled_data_has_no_editors_words_in_printed_fields(corpus):
    c = parse(ROOT)
    assert datawords.check(c) == []
    # and the notes moved out of them are there, unprinted
    cards = c.cards
    assert "null" in cards["진내폭격"]["editor_note"] and "null" not in cards["진내폭격"]["notes"]
