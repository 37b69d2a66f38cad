"""Issue 7: every human `flamer simulate` answer leads with a verdict of at most four lines (flamer_ref.verdict +
templates/simulate/_verdict.*.j2), and `--brief` prints only that verdict."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inprocess import invoke

from flamer_ref import runner, verdict
from flamer_ref.engine.turns import run_any
from flamer_ref.scenario_files import load_any
from flamer_ref.render import render

from .conftest import P, scenario

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = sorted((ROOT / "scenarios").glob("*.yaml"))
HEAD = {"combat": "판정: ", "move": "판정: ", "victory": "판정: ", "field": "판정: ", "round": "판정: ", "game": "판정: "}


def example_results(corpus):
    """(id, result JSON) of every scenario that the corpus examples and FAQ carry."""
    out = []
    for eid, ex in list(corpus.examples.items()) + list(corpus.faq.items()):
        s = ex.get("scenario")
        if not s:
            continue
        for i, obj in enumerate(s if isinstance(s, list) else [s]):
            out.append((f"{eid}#{i + 1}", runner.RUNNERS[obj["kind"]](obj, eid, corpus, None)))
    return out


def scenario_results(corpus):
    out = []
    for f in SCENARIOS:
        scn = load_any(str(f), corpus, display=f.name)
        out.append((f.name, run_any(scn, corpus, None)))
    return out


def lines_of(data, corpus, **ctx):
    text = render("simulate/_verdict.txt.j2", data=data, refs=runner.refs(corpus, data), **ctx)
    return [x for x in text.splitlines() if x.strip()]


def check_verdict_matches(data, v, corpus):
    """The structured verdict says what the result says (not a hard-coded answer)."""
    known = set(corpus.clauses) | set(corpus.interpretations) | set(corpus.rulings)
    for c in v.get("clauses", []):
        assert c["rule"] in known, c
        assert c["ruling"] is None or c["ruling"] in corpus.rulings
    kind = data["kind"]
    if kind == "combat":
        assert [c["cell"] for c in v["cells"]] == list(data["cells"])
        for c in v["cells"]:
            cell = data["cells"][c["cell"]]
            assert c["side"] == cell["occupant"]
            assert (c["status"] == "held") == (cell["occupant"] is not None and cell["end"] == "decided")
            assert (c["status"] == "standoff") == cell["standoff"]
        taken = {c["side"]: sorted(p["id"] for p in c["pieces"]) for c in v["captures"]}
        assert taken == {s: sorted(ids) for s, ids in data["prisoners"].items() if ids}
        assert 1 <= len(v["clauses"]) <= verdict.MAX_CLAUSES or not data["cells"]
    elif kind == "move":
        assert v["valid"] == data["valid"] and len(v["refused"]) == len(data["errors"])
        assert v["encounters"] == data["encounters"]
    elif kind == "victory":
        assert v["winner"] == data["winner"] and v["vp_after"] == data["vp"][data["player"]]
        assert v["vp_gain"] == data["vp_gain"]
    elif kind == "field":
        assert v["active"] == data["active"] and v["retired"] == data["retired"]
        assert len(v["errors"]) == len(data["errors"])


def test_verdict_of_every_scenario_and_example(corpus):
    results = scenario_results(corpus) + example_results(corpus)
    assert len(results) >= 30
    kinds = set()
    for name, data in results:
        kinds.add(data["kind"])
        v = verdict.build(data)
        assert v["kind"] == data["kind"], name
        check_verdict_matches(data, v, corpus)
        lines = lines_of(data, corpus)
        assert 1 <= len(lines) <= 4, (name, lines)
        assert lines[0].startswith(HEAD[data["kind"]]), (name, lines[0])
        for bad in ("이(가)", "을(를)", "은(는)", "와(과)", "None", "{{", "}}"):
            assert bad not in "\n".join(lines), (name, bad)
    assert kinds == {"combat", "move", "victory", "field", "round", "game"}


def test_build_is_pure(corpus):
    data = scenario_results(corpus)[0][1]
    before = json.dumps(data, sort_keys=True, ensure_ascii=False)
    assert verdict.build(data) == verdict.build(json.loads(before))
    assert json.dumps(data, sort_keys=True, ensure_ascii=False) == before


def test_scene5_verdict_reads_aloud(run, corpus):
    scn = load_any(str(ROOT / "scenarios" / "combat-scene5.yaml"), corpus, display="scene5")
    data = run_any(scn, corpus, None)
    lines = lines_of(data, corpus)
    # as a person says it (issue 17): who, when, where — the cell in parentheses, the particle by 받침
    assert lines[0] == "판정: 공격자(DGM)가 4회차에 (2,4)를 점령"
    assert lines[1] == "DGM이 거신·행성굴착기·증폭기를, BGM이 수문장을 포획"
    assert lines[2].startswith("근거: ") and "combat.no-retreat" not in lines[2]


def test_verdict_statuses(run, corpus):
    standoff = run(scenario({"3,3": {"A": [P("m", state="settled")], "B": [P("o", state="settled")]}}))
    assert lines_of(standoff, corpus)[0] == "판정: (3,3)은 대립 — 양쪽 모두 기동 기물이 없어 공격 없이 끝남 (점령 없음)"
    assert verdict.build(standoff)["clauses"][0]["rule"] == "combat.standoff"
    stalemate = run(scenario({"2,2": {"A": [P("a", atk=0)], "B": [P("b", atk=0)]}}))
    v = verdict.build(stalemate)
    assert v["cells"][0]["status"] == "unresolved" and v["unresolved"] == 1
    assert lines_of(stalemate, corpus)[0] == "판정: (2,2)는 결착 없음 — 계산을 멈춤(미해결)"
    shared = run(scenario({"1,1": {"A": [P("z", lv=5, atk=0)], "B": [P("s", atk=0, state="settled")]}}))
    assert lines_of(shared, corpus)[0] == "판정: (1,1)에 양쪽 기물이 함께 남아 점령 없음"
    nothing = run(scenario({"1,1": {"A": [P("a")]}, "2,2": {"B": [P("b")]}}))
    assert lines_of(nothing, corpus)[0] == "판정: 조우 셀이 없어 전투 없음"


def test_text_and_md_outputs_start_with_the_verdict():
    assert len(SCENARIOS) >= 5  # the bundled scenarios were found
    for f in SCENARIOS:
        out = invoke("simulate", str(f))
        assert out.exit_code == 0, out.stderr
        brief = invoke("simulate", str(f), "--brief")
        assert brief.exit_code == 0, brief.stderr
        blines = brief.stdout.splitlines()
        assert 1 <= len(blines) <= 4 and blines[0].startswith("판정: ")
        assert out.stdout.splitlines()[:2] == blines[:2]  # (a closing note may point elsewhere under --brief)
        md = invoke("simulate", str(f), "--format", "md")
        assert md.exit_code == 0 and md.stdout.startswith("> 판정: "), md.stdout[:80]


def test_brief_json_and_other_outputs():
    f = str(ROOT / "scenarios" / "two-cells.yaml")
    out = invoke("simulate", f, "--brief", "--json")
    assert out.exit_code == 0, out.stderr
    obj = json.loads(out.stdout)
    assert obj["verdict"]["kind"] == "combat" and obj["lines"][0].startswith("판정: ")
    assert len(obj["lines"]) <= 4
    br = invoke("simulate", f, "--all-branches")
    assert br.stdout.startswith("결론: 공격자가 고를 수 있는 전투 순서 2가지 모두 같은 결과")
    cmp = invoke("simulate", str(ROOT / "scenarios" / "vacated-by-cost.yaml"), "--compare", "2026-09-23", "--brief")
    assert cmp.exit_code == 0 and cmp.stdout.startswith("결론: ") and len(cmp.stdout.splitlines()) <= 4
    # stdin works with --brief too
    text = (ROOT / "scenarios" / "combat-scene5.yaml").read_text(encoding="utf-8")
    sin = invoke("simulate", "-", "--brief", input=text)
    assert sin.exit_code == 0 and sin.stdout.startswith("판정: 공격자(DGM)가 4회차에 (2,4)를 점령")


def test_present_scenario_keeps_its_signature():
    import inspect

    from flamer_ref.cli import present_scenario

    sig = inspect.signature(present_scenario)
    assert sig.parameters["brief"].default is False
    assert sig.parameters["brief"].kind is inspect.Parameter.KEYWORD_ONLY
    assert list(sig.parameters)[:2] == ["scn", "corpus"]


def test_html_fragment_escapes_input(run, corpus):
    data = run(scenario({"1,1": {"A": [P("a", name="<script>x</script>", lv=5, hp=9, atk=9)],
                                 "B": [P("b", name="<b>보스</b>", atk=1)]}}))
    html = render("simulate/_verdict.html.j2", data=data, refs=runner.refs(corpus, data))
    assert "<script>" not in html and "<b>" not in html
    assert "&lt;b&gt;보스&lt;/b&gt;" in html
    assert html.count("<p>") == len(lines_of(data, corpus)) <= 4
    assert '<section class="verdict"' in html
