"""What `flamer fight` and `flamer simulate` print for people (issue 17, items 1–3): short answers at the
table, headlines as a person says them, no internal word.

Over every bundled scenario (scenarios/*.yaml), every rules example with a scenario (`flamer examples`)
and every README fight command, in text, md and html (and fight's --full and --brief): no word of
tests/forbidden_words.py, no piece id where a card name belongs, no clause id where its number and
title belong. README fights answer in at most 15 lines, the verdict first.

All calls are in-process (typer's CliRunner); each answer is computed once per module.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from inprocess import invoke

from flamer_ref.people import piece_names

from forbidden_words import clause_ids, leaks

ROOT = Path(__file__).resolve().parent.parent.parent

FORMATS = {"txt": [], "md": ["--format", "md"], "html": ["--format", "html"]}




def readme_fights() -> list[list[str]]:
    """Every `flamer fight "…"` command of README.md and the pages it sends a player to for the commands
    (docs/FIGHT.md, docs/COMMANDS.md: what the README held before it became a front page), in code blocks
    and inline code, as argv."""
    text = "\n".join((ROOT / page).read_text(encoding="utf-8") for page in ("README.md", "docs/FIGHT.md", "docs/COMMANDS.md"))
    found = []
    for m in re.finditer(r'flamer fight ("[^"\n]+"(?: +-{1,2}[a-z]+(?: +"[^"\n]+"| +[^\s`"-][^\s`]*)?)*)', text):
        argv = ["fight", *shlex.split(m.group(1))]
        if argv not in found:
            found.append(argv)
    return found


FIGHTS = readme_fights()


@pytest.fixture(scope="module")
def answers() -> dict:
    """{(name, form): (exit code, output, JSON of the same answer)} for every scenario, example and README
    fight; form is a format, or fight's --full / --brief."""
    jobs: dict[str, tuple[list[str], str | None]] = {}
    for f in sorted((ROOT / "scenarios").glob("*.yaml")):
        jobs[f.name] = (["simulate", str(f)], None)
    r = invoke("examples", "--json")
    code, out = r.exit_code, r.stdout
    for e in json.loads(out)["examples"]:
        r = invoke("example", e["id"], "--scenario")
        code, yaml_text = r.exit_code, r.stdout
        assert code == 0, e["id"]
        jobs[e["id"]] = (["simulate", "-"], yaml_text)
    for i, argv in enumerate(FIGHTS):
        jobs[f"README fight {i + 1}"] = (argv, None)
    out: dict = {}
    for name, (argv, stdin) in jobs.items():
        r = invoke(*argv + ["--json"], input=stdin)
        js = r.stdout
        data = json.loads(js)
        forms = dict(FORMATS)
        if argv[0] == "fight":
            forms.update({"full": ["--full"], "brief": ["--brief"]})
        for form, extra in forms.items():
            r = invoke(*argv + extra, input=stdin)
            code, text = r.exit_code, r.stdout
            out[(name, form)] = (code, text, data)
    return out


def _ids(data: dict) -> set[str]:
    ids = set(data.get("pieces") or {})
    for res in (data.get("results") or {}).values():  # --compare
        ids |= set((res or {}).get("pieces") or {})
    return ids


def test_every_source_is_covered(answers):
    names = {name for name, _ in answers}
    assert len(FIGHTS) >= 5 and any("--compare" in a for a in FIGHTS) and any("--response" in a for a in FIGHTS)
    assert sum(1 for n in names if n.endswith(".yaml")) == len(list((ROOT / "scenarios").glob("*.yaml")))
    assert sum(1 for n in names if n.startswith("ex.")) >= 20


def test_no_internal_word_in_any_people_answer(answers):
    bad = {}
    for (name, form), (code, text, data) in answers.items():
        assert code == 0, (name, form, text[-300:])
        fmt = "html" if form == "html" else "text"
        found = leaks(text, sorted(_ids(data)), fmt, piece_names(data)) + clause_ids(text, fmt)
        if found:
            bad[f"{name} [{form}]"] = found
    assert not bad, bad


@pytest.mark.parametrize("i", range(len(FIGHTS)), ids=[f"fight{i + 1}" for i in range(len(FIGHTS))])
def test_readme_fight_is_short_with_the_verdict_first(answers, i):
    _, text, _ = answers[(f"README fight {i + 1}", "txt")]
    lines = text.rstrip("\n").split("\n")
    assert len(lines) <= 15, text
    assert lines[0].startswith(("판정: ", "결론: ")), lines[0]
    assert lines[-1] == "단계별 풀이와 모든 근거 조항은 --full로 봅니다."
    full = answers[(f"README fight {i + 1}", "full")][1]
    assert len(full.splitlines()) > 2 * len(lines)  # the story is there on request
    assert full.splitlines()[0] == lines[0]  # with the same verdict
    brief = answers[(f"README fight {i + 1}", "brief")][1]
    assert len(brief.rstrip("\n").split("\n")) <= 4 and brief.splitlines()[0] == lines[0]


def test_short_answer_gives_the_deciding_reasons_by_rule_number(answers):
    _, text, _ = answers[("README fight 1", "txt")]
    assert FIGHTS[0] == ["fight", "거신 vs 별마대, 행성굴착기(정착)"]
    assert text.splitlines()[:3] == ["판정: 공격자가 3회차에 점령", "공격자가 별마대·행성굴착기를 포획", "이유:"]
    flat = " ".join(text.split())
    assert "거신의 공격으로 별마대가 HP 0 이하가 되어 포획 — 수비자의 마지막 기동 기물" in flat
    assert "7단계에 남은 정착 기물 행성굴착기도 포획" in flat
    assert "6.26 7단계 정리" in flat and "2026-09-25 확정" in flat  # by number and title, rulings by date
    # the story's steps are not in the short answer
    assert "[4단계" not in text and "일제 반격" not in text


def test_md_and_html_lead_with_the_short_answer(answers):
    md = answers[("README fight 1", "md")][1]
    assert md.startswith("> 판정: 공격자가 3회차에 점령") and "**이유**" in md and "[4단계" not in md
    html = answers[("README fight 1", "html")][1]
    reasons = html.index('<section class="reasons"')
    assert html.index("공격자가 3회차에 점령") < reasons < html.index("4단계")
    # --compare at the table: the conclusion leads, the comparison is folded under it
    i = next(i for i, a in enumerate(FIGHTS) if "--compare" in a) + 1
    page = answers[(f"README fight {i}", "html")][1]
    assert page.index("결론: ") < page.index('<details class="story">')


def test_headlines_as_a_person_says_them():
    # the cell is named only when the player named it, always in parentheses; the role leads, the code aside
    line = "수문장(lv6), 별마대, 장인 vs 거신, 행성굴착기(정착), 증폭기(정착)"
    r = invoke("fight", line, "-r", "수비자 재부팅 행성굴착기", "--cell", "2,4", "--brief")
    code, text = r.exit_code, r.stdout
    assert code == 0
    assert text.splitlines()[:2] == ["판정: 공격자(DGM)가 4회차에 (2,4)를 점령",
                                     "DGM이 거신·행성굴착기·증폭기를, BGM이 수문장을 포획"]
    r = invoke("fight", line, "-r", "수비자 재부팅 행성굴착기", "--brief")
    code, text = r.exit_code, r.stdout
    assert text.splitlines()[0] == "판정: 공격자(DGM)가 4회차에 점령" and "1,1" not in text
    # sides the cards cannot tell apart: 공격자 / 수비자 in words, A / B only in the JSON
    r = invoke("fight", "거신 vs 별마대, 행성굴착기(정착)", "--full")
    code, text = r.exit_code, r.stdout
    assert "A(" not in text and "B(" not in text and not re.search(r"(?<![A-Za-z])[AB](?:가|의|이) ", text)
    r = invoke("fight", "거신 vs 별마대, 행성굴착기(정착)", "--json")
    code, js = r.exit_code, r.stdout
    assert json.loads(js)["attacker"] == "A"


def test_standoff_is_a_sentence():
    r = invoke("fight", "DGM: 수문장(정착) vs BGM: 개미(정착 lv1 hp2 atk1)", "--brief")
    code, text = r.exit_code, r.stdout
    assert code == 0
    first = text.splitlines()[0]
    assert first.startswith("판정: 대립 — ") and "0회차" not in text and "·" not in first


def test_compare_headline_names_every_changed_outcome():
    r = invoke("fight", "거신 vs 별마대, 행성굴착기(정착)", "--compare", "2026-09-24")
    code, text = r.exit_code, r.stdout
    assert code == 0
    lines = text.splitlines()
    assert lines[0] == "결론: 2026-09-25 판정으로 전투 결과·공격자의 포획·수비자 생존 기물이 달라짐"
    assert lines[1].startswith("2026-09-24: ") and "공격자가 별마대를 포획" in lines[1]
    assert lines[2].startswith("2026-09-25: ") and "공격자가 별마대·행성굴착기를 포획" in lines[2]
    assert "settled-sweep" not in text and "ruling." not in text


def test_help_says_short_full_and_brief():
    r = invoke("fight", "--help")
    code, text = r.exit_code, r.stdout
    flat = " ".join(text.split())
    assert code == 0 and "--full" in flat and "--brief" in flat and "이유" in flat
    r = invoke("fight", "거신 vs 별마대", "--full", "--brief")
    code, text = r.exit_code, r.stdout
    assert code == 2


def test_a_refusal_cites_its_clause_by_number_and_title():
    # before: "근거: 조항 response.opener" (an id alone); the JSON keeps the id in `rule`
    args = ["fight", "수문장 vs 개미", "-r", "공격자 재부팅 수문장"]
    res = invoke(*args)
    assert res.exit_code == 1 and res.stderr.startswith("불가 — ")
    assert "근거: 조항 5.2 대응턴은 수비자가 연다" in res.stderr and not clause_ids(res.stderr)
    res = invoke(*args + ["--json"])
    assert json.loads(res.stdout)["rule"] == "response.opener"
