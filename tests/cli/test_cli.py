"""The command line contract (shared/spec/cli.md): --json shapes, Korean
output for people, exit codes, and errors without tracebacks."""

from __future__ import annotations

import functools
import json

import pytest
import flamer_fork  # noqa: E402 (tests/flamer_fork.py)

from flamer_ref.corpus import load


run = functools.partial(flamer_fork.run, timeout=60)  # a real process, forked from a warm interpreter


def run_json(*args):
    p = run(*args, "--json")
    assert p.returncode == 0, p.stderr
    assert "\\u" not in p.stdout  # not ASCII-escaped
    return json.loads(p.stdout)


def test_search_json_contract():
    d = run_json("search", "정착", "기물", "공격", "--limit", "4")
    assert d["query"] == "정착 기물 공격"
    assert 1 <= len(d["results"]) <= 4
    for r in d["results"]:
        assert set(r) >= {"id", "kind", "title", "text", "score"}
    assert d["results"][0]["kind"] == "clause"


def test_search_kind_and_korean_kind_alias():
    d = run_json("search", "별마대", "--kind", "카드")
    assert d["results"] and all(r["kind"] == "card" for r in d["results"])
    assert d["results"][0]["id"] == "별마대"


def test_search_people_output_names_matched_words_and_next_command():
    p = run("search", "졍착", "기물이")
    assert p.returncode == 0
    assert "일치한 낱말: 졍착(→정착), 기물" in p.stdout and "맞은 말" not in p.stdout and "flamer rule " in p.stdout
    assert max(len(line) for line in p.stdout.splitlines()) < 120


def test_rule_json_contract():
    d = run_json("rule", "combat.step7.sweep")
    for key in ("id", "title", "text", "section", "source", "rulings", "see_also"):
        assert key in d
    assert d["source"].startswith("전투턴")
    statuses = {r["status"] for r in d["rulings"]}
    assert "confirmed" in statuses
    r = next(r for r in d["rulings"] if r["id"] == "ruling.2026-09-25.settled-sweep")
    assert r["date"] == "2026-09-25" and "summary" in r and "supersedes" in r
    corpus = load()
    assert all(s["id"] in corpus.clauses for s in d["see_also"])


def test_rule_as_of_shows_earlier_wording_and_later_ruling():
    now = run_json("rule", "response.resolve.depart")
    then = run_json("rule", "response.resolve.depart", "--as-of", "2026-09-23")
    assert then["text"] != now["text"]
    assert "그 자리에서" in then["text"] and then["text_status"] == "earlier"
    assert any(r["id"] == "ruling.2026-09-24.vacated-combat" for r in then["later_rulings"])
    assert all(r["date"] <= "2026-09-23" for r in then["rulings"])
    assert "2026-09-24" in then["note"]


def test_rule_as_of_before_entry_effect_revision():
    then = run_json("rule", "field.entry-effect.duration", "--as-of", "2026-09-01")
    assert "영구" in then["text"]


def test_rule_interpretation_resolves_and_is_labelled():
    d = run_json("rule", "interp.tiebreak.current-hp")
    assert d["id"] == "combat.tiebreak"
    assert d["interpretation"]["label"].startswith("해석")


def test_unknown_rule_suggests_nearest():
    p = run("rule", "combat.step7.swep")
    assert p.returncode == 1
    # by number and title, as a person reads them; the ids stay in the --json error's candidates
    assert "  - 6.26 7단계 정리 — 남은 정착 기물 일괄 포획" in p.stderr and "combat.step7.sweep" not in p.stderr
    got = json.loads(run("rule", "combat.step7.swep", "--json").stdout)
    assert "combat.step7.sweep" in [c["id"] for c in got["candidates"]]
    assert "Traceback" not in p.stderr and p.stdout == ""


def test_rulings_json_and_range():
    d = run_json("rulings")
    dates = [r["date"] for r in d["rulings"]]
    assert dates == sorted(dates) and len(dates) >= 11
    for r in d["rulings"]:
        assert set(r) >= {"date", "status", "summary", "clauses", "supersedes"}
    d = run_json("rulings", "--since", "2026-09-24", "--until", "2026-09-24")
    assert {r["date"] for r in d["rulings"]} == {"2026-09-24"} and len(d["rulings"]) == 2


def test_bad_date_is_a_korean_usage_error():
    # a malformed option value is a usage error (exit 2), the same for every command
    for args in (("rulings", "--since", "2026-13-01"), ("rule", "combat.occurs", "--as-of", "2026-9-4"),
                 ("search", "정착", "--as-of", "어제")):
        p = run(*args)
        assert p.returncode == 2 and "2026-09-24, 9/24, 09-24, 9월 24일" in p.stderr and "Traceback" not in p.stderr, args


def test_card_json_contract_and_unknown_stats_are_null():
    d = run_json("card", "증폭기")
    for key in ("name", "faction", "grade", "lv", "hp", "atk", "cost", "structure", "abilities", "sources"):
        assert key in d
    assert d["lv"] == 4 and d["hp"] == 3 and d["atk"] is None and d["cost"] is None
    assert {a["timing"] for a in d["abilities"]} >= {"등장", "전투", "대응"}
    p = run("card", "증폭기")
    assert "ATK 미상" in p.stdout


def test_card_misspelling_is_corrected_and_said():
    d = run_json("card", "별마데")
    assert d["name"] == "별마대" and d["corrected"] is True
    assert "별마대" in run("card", "별마데").stdout.splitlines()[0]


@pytest.mark.parametrize("typed,name", [("ㅂㅁㄷ", "별마대"), ("해상기지", "해상 기지"), ("qufakeo", "별마대")])
def test_card_choseong_spacing_qwerty(typed, name):
    assert run_json("card", typed)["name"] == name


def test_ambiguous_card_lists_candidates():
    p = run("card", "잠")
    assert p.returncode == 1
    for name in ("잠복군", "잠입건설", "잠식된 석산"):
        assert name in p.stderr
    assert "Traceback" not in p.stderr


def test_cards_filters():
    all_cards = run_json("cards")["cards"]
    structures = run_json("cards", "--structure")["cards"]
    assert {c["name"] for c in structures} == {"폭약", "망루", "해상 기지", "잠식된 석산"}
    assert all(c["faction"] == "DGM" for c in run_json("cards", "--faction", "대광명연방")["cards"])
    assert {c["name"] for c in run_json("cards", "--grade", "고급")["cards"]} == {"봉수장"}
    moving = run_json("cards", "--timing", "(이동)")["cards"]
    assert "잠복군" in {c["name"] for c in moving}
    assert len(all_cards) == len(load().cards)
    p = run("cards", "--faction", "XYZ")
    assert p.returncode == 2 and "--faction" in p.stderr and "진영" in p.stderr  # a bad option value: usage error


def test_term_lookup():
    d = run_json("term", "앞면")
    assert d["term"] == "기동"
    d = run_json("term", "ㅁㄷㅇ")
    assert d["term"] == "맞대응"
    assert run_json("term")["terms"]


def test_faq_and_example():
    d = run_json("faq")
    assert len(d["faq"]) >= 12
    d = run_json("example", "ex.combat.scene5")
    assert d["steps"] and "수문장" in d["result"]
    assert len(run_json("example")["examples"]) >= 15


def test_validate_passes_on_bundled_data():
    d = run_json("validate")
    assert d["ok"] is True and d["counts"]["rulings"] >= 11


def test_usage_errors_exit_2_in_korean():
    p = run("search")
    assert p.returncode == 2 and "사용법 오류" in p.stderr
    p = run("search", "x", "--limit", "abc")
    assert p.returncode == 2 and "정수" in p.stderr
    p = run("nosuchcommand")
    assert p.returncode == 2 and "Traceback" not in p.stderr


def test_help_is_korean():
    p = run("--help")
    assert p.returncode == 0 and "사용법" in p.stdout and "명령" in p.stdout
    p = run("search", "--help")
    assert "초성" in p.stdout


def test_missing_data_dir_is_a_korean_error(tmp_path):
    p = run("search", "정착", env={"FLAMER_DATA": str(tmp_path), "FLAMER_CACHE_DIR": ""})
    assert p.returncode == 1 and "rules/" in p.stderr and "Traceback" not in p.stderr


def test_broken_yaml_is_reported_with_file_and_line(tmp_path):
    import shutil
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent.parent
    for d in ("rules", "cards"):
        shutil.copytree(root / d, tmp_path / d)
    path = tmp_path / "rules" / "faq.yaml"
    lines = path.read_text(encoding="utf-8").splitlines()
    lines[2] = "- id: [faq.combat.dice"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    p = run("rule", "combat.step7.sweep", env={"FLAMER_DATA": str(tmp_path), "FLAMER_CACHE_DIR": ""})
    assert p.returncode == 1
    assert "rules/faq.yaml" in p.stderr and "Traceback" not in p.stderr
    assert any(f"{n}행" in p.stderr for n in (3, 4, 5))


@pytest.mark.parametrize("args", [("search", "정착", "기물"), ("rule", "combat.step7.sweep"), ("rulings",),
                                  ("card", "별마대"), ("cards",), ("term",), ("faq",), ("example", "ex.combat.scene5"),
                                  ("example",), ("rule", "interp.stalemate")])
def test_people_output_fits_80_columns(args):
    from flamer_ref.korean import display_width

    p = run(*args)
    assert p.returncode == 0, p.stderr
    assert max(display_width(line) for line in p.stdout.splitlines()) <= 80


def test_rule_resolves_ruling_ids_too():
    d = run_json("rule", "ruling.2026-09-24.vacated-combat")
    assert d["kind"] == "ruling" and d["date"] == "2026-09-24" and d["supersedes"] == "그 자리에서 종료"
    assert "response.resolve.depart" in d["clauses"]
    p = run("rule", "ruling.2026-09-24.vacated-combat", "--as-of", "2026-09-20")
    assert p.returncode == 0 and "아직 없던" in p.stdout


def test_printable_faq_pages():
    p = run("faq", "--format", "html")
    assert p.returncode == 0 and p.stdout.startswith("<!doctype html>")
    assert p.stdout.count('class="qa"') == len(load().faq)
    assert "@page" in p.stdout and "<h3" in p.stdout
    p = run("faq", "--format", "md")
    assert p.returncode == 0 and p.stdout.count("**Q. ") == len(load().faq)
    assert run("faq", "--format", "docx").returncode == 2
