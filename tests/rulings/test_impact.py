"""Issue 27: `flamer impact DRAFT` — what publishing a draft of rulings would change, before it is published.

Each withdrawal of a ruling that sets a decision changes a bundled verdict and generated ones, and a generated
change runs as given with `flamer simulate` (before: the data; after: the data with the draft published); a
clarifying draft changes nothing; the generated disputes are the same for the same draft, exercise every
decision a ruling sets, and are not resolved twice when they asked no decision the draft changes.
(The 10,000-dispute run itself is benchmarks/impact_bench.py.)
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml
from inprocess import HANGUL, isolated as invoke

from flamer_ref import impact as impact_mod
from flamer_ref.corpus import load
from flamer_ref.engine.decisions import DECISIONS
from flamer_ref.impact import generate, impact

ROOT = Path(__file__).resolve().parents[2]
SMALL = 250  # generated disputes per test run (the default, 10,000, is the benchmark's)


@pytest.fixture(scope="module")
def bundled():
    return load()


def withdrawal(corpus, rid: str, date: str = "2026-09-26") -> dict:
    r = corpus.rulings[rid]
    return {"id": f"ruling.{date}.withdraw", "date": date, "status": "withdrawn", "label": "철회",
            "title": "앞선 판정 철회", "summary": "앞선 판정을 거둔다.", "clauses": list(r["clauses"]),
            "withdraws": [rid], "source": list(r["source"])}


def draft_file(tmp_path: Path, *rulings: dict, name: str = "draft.yaml") -> Path:
    path = tmp_path / name
    path.write_text(yaml.safe_dump({"rulings": list(rulings)}, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


def size(s: dict) -> tuple[int, int]:
    """(pieces, declarations) of a generated scenario: what `smallest first` orders by."""
    if s["kind"] == "combat":
        return (sum(len(v) for cell in s["cells"].values() for v in cell.values()), len(s.get("response") or ()))
    return (sum(1 for x in s["field"] if x is not None), len(s["actions"]))


CHANGING = ["ruling.2026-09-04.entry-effect-duration", "ruling.2026-09-17.mobile-structures",
            "ruling.2026-09-17.re-entry", "ruling.2026-09-19.counter", "ruling.2026-09-19.followup3",
            "ruling.2026-09-24.structures-immovable", "ruling.2026-09-24.vacated-combat",
            "ruling.2026-09-25.explosive-cost", "ruling.2026-09-25.settled-sweep"]


def test_the_list_above_is_every_ruling_that_changes_a_decision(bundled):
    from flamer_ref.checks import without_ruling
    from flamer_ref.engine.decisions import rules_at

    def changes(rid):
        r = bundled.rulings[rid]
        on, off = rules_at(bundled, r["date"]), rules_at(without_ruling(bundled, rid), r["date"])
        return any(on.peek(d).value != off.peek(d).value for d in r["sets"])

    assert sorted(rid for rid in bundled.rulings if changes(rid)) == sorted(CHANGING)


@pytest.mark.parametrize("rid", CHANGING)
def test_withdrawing_a_ruling_changes_verdicts(tmp_path, bundled, rid):
    out = impact(draft_file(tmp_path, withdrawal(bundled, rid)), generated=SMALL)
    assert out["draft"] == ["ruling.2026-09-26.withdraw"] and out["as_of"] == "2026-09-26"
    assert set(out["decisions"]) == set(bundled.rulings[rid]["sets"])
    sources = [c["source"] for c in out["changed"]]
    assert "generated" in sources or "example" in sources or "faq" in sources
    assert "example" in sources  # each is shown by an example (the linter asks for one)
    # bundled first, then generated smallest first
    kinds = [s == "generated" for s in sources]
    assert kinds == sorted(kinds)
    gen = [c for c in out["changed"] if c["source"] == "generated"]
    assert [size(c["scenario"]) for c in gen] == sorted(size(c["scenario"]) for c in gen)
    for c in out["changed"]:
        assert c["before"] != c["after"] and c["before"].splitlines() and c["after"].splitlines()
    if gen:  # the smallest generated change runs as given: `flamer simulate` on the data answers `before`
        path = tmp_path / "scene.yaml"
        path.write_text(yaml.safe_dump(gen[0]["scenario"], allow_unicode=True, sort_keys=False), encoding="utf-8")
        r = invoke("simulate", str(path), "--brief")
        assert (r.stdout.rstrip("\n") if r.exit_code == 0 else r.stderr.splitlines()[0]) == gen[0]["before"], r.stderr


def test_a_generated_change_runs_as_given_with_flamer_simulate(tmp_path, bundled):
    """The scenario of a changed generated dispute: `flamer simulate --brief` on the data answers `before`,
    on a copy of the data with the draft published it answers `after`."""
    w = withdrawal(bundled, "ruling.2026-09-25.settled-sweep")
    out = impact(draft_file(tmp_path, w), generated=SMALL)
    gen = [c for c in out["changed"] if c["source"] == "generated"]
    assert gen, "a withdrawn sweep changes generated combats"
    first = gen[0]
    scn = tmp_path / f"{first['id']}.yaml"
    scn.write_text(yaml.safe_dump(first["scenario"], allow_unicode=True, sort_keys=False), encoding="utf-8")
    r = invoke("simulate", str(scn), "--brief")
    assert r.exit_code == 0, r.stderr
    assert r.stdout.rstrip("\n") == first["before"]
    published = tmp_path / "published"
    shutil.copytree(ROOT / "rules", published / "rules")
    shutil.copytree(ROOT / "cards", published / "cards")
    with (published / "rules" / "rulings.yaml").open("a", encoding="utf-8") as fh:
        fh.write(yaml.safe_dump([w], allow_unicode=True, sort_keys=False))
    r = invoke("simulate", str(scn), "--brief", env={"FLAMER_DATA": str(published)})
    assert r.exit_code == 0, r.stderr
    assert r.stdout.rstrip("\n") == first["after"]
    assert all(size(first["scenario"]) <= size(c["scenario"]) for c in gen)  # the smallest first


def test_a_clarifying_draft_changes_nothing(tmp_path, bundled):
    """A ruling that confirms the values in force (a codification), and one that sets no decision at all."""
    base = {"date": "2026-09-26", "status": "codified", "label": "명문화", "summary": "지금의 규칙을 명문화한다.",
            "source": ["page.combat"]}
    confirm = {**base, "id": "ruling.2026-09-26.confirm", "title": "7단계 일괄 포획 명문화",
               "clauses": ["combat.step7.sweep"], "sets": {"step7-sweeps-settled": True}}
    words = {**base, "id": "ruling.2026-09-26.words", "title": "용어 정리", "clauses": ["combat.deterministic"]}
    out = impact(draft_file(tmp_path, confirm, words), generated=SMALL)
    assert out["changed"] == [] and out["decisions"] == [] and out["rerun"] == {"generated": 0}
    assert out["checked"] == {"examples": 31, "faq": 9, "generated": SMALL}


def test_generation_is_deterministic_distinct_and_asks_every_combat_decision(bundled):
    from flamer_ref.engine.api import parse, run

    a = generate(bundled, 600, "2026-09-26")
    b = generate(bundled, 600, "2026-09-26")
    assert [d.scenario for d in a] == [d.scenario for d in b]
    keys = {json.dumps({k: v for k, v in d.scenario.items() if k != "title"}, sort_keys=True, ensure_ascii=False)
            for d in a}
    assert len(keys) == 600
    for d in a:  # every one is a valid scenario (none is left out of a run)
        d.parsed = parse(d.scenario, d.id, bundled)

    from flamer_ref.errors import Forbidden

    asked = set()
    for d in a:
        if d.scenario["kind"] == "combat":
            try:
                asked.update(run(d.parsed, bundled).decisions_consulted)
            except Forbidden as exc:  # a refused declaration is a verdict too: refused by a decision
                asked.update({"structure-cannot-move": ["structures-immovable-by-effects"],
                              "counter-before-ruling": ["counter-with-set-cards"]}.get(exc.reason, []))
    field_only = {"entry-effect-ends-with-card", "same-round-uncover-stays-settled", "enemy-cell-stops-move"}
    assert set(DECISIONS) - field_only <= asked
    assert any(d.scenario["kind"] == "field" for d in a)


def test_the_default_is_ten_thousand_generated_disputes(bundled):
    assert impact_mod.GENERATED >= 10_000
    got = generate(bundled, impact_mod.GENERATED, "2026-09-26")
    assert len(got) == impact_mod.GENERATED
    assert len({d.id for d in got}) == impact_mod.GENERATED


def test_a_dispute_that_asked_no_changed_decision_is_not_resolved_again(tmp_path, bundled):
    """The engine asks step7-sweeps-settled only where the sweep's conditions hold: only those disputes are
    resolved twice, and every changed verdict is among them."""
    out = impact(draft_file(tmp_path, withdrawal(bundled, "ruling.2026-09-25.settled-sweep")), generated=SMALL)
    changed = sum(1 for c in out["changed"] if c["source"] == "generated")
    assert 0 < changed <= out["rerun"]["generated"] < SMALL // 2


# ------------------------------------------------------------------ the command ----
def test_impact_command_json_and_text(tmp_path, bundled):
    draft = draft_file(tmp_path, withdrawal(bundled, "ruling.2026-09-25.settled-sweep"))
    r = invoke("impact", str(draft), "--generated", "200", "--json")
    assert r.exit_code == 0, r.stderr
    out = json.loads(r.stdout)
    assert set(out) >= {"draft", "as_of", "checked", "changed"}
    assert out["checked"]["generated"] == 200
    for c in out["changed"]:
        assert set(c) == {"source", "id", "title", "before", "after", "scenario"}
    assert out["changed"][0]["id"] == "ex.combat.unguarded-cell"
    r = invoke("impact", str(draft), "--generated", "200", "--save", str(tmp_path / "saved"))
    assert r.exit_code == 0, r.stderr
    assert "ex.combat.unguarded-cell" in r.stdout and "바뀐 판정" in r.stdout and "확인한 것" in r.stdout
    saved = sorted(p.name for p in (tmp_path / "saved").iterdir())
    assert "ex.combat.unguarded-cell.yaml" in saved and len(saved) == len(out["changed"])
    r = invoke("impact", str(draft), "--generated", "0", "--as-of", "2026-09-25")
    assert r.exit_code == 0 and "바뀐 판정 0건" in r.stdout  # not yet withdrawn on that day


def test_impact_command_refuses_bad_drafts_in_korean(tmp_path, bundled):
    bad = {**withdrawal(bundled, "ruling.2026-09-25.settled-sweep"), "sets": {"step7-sweep-settled": False}}
    r = invoke("impact", str(draft_file(tmp_path, bad)), "--generated", "0")
    assert r.exit_code == 1 and "Traceback" not in r.stderr and HANGUL.search(r.stderr)
    assert "draft.yaml" in r.stderr and "step7-sweeps-settled" in r.stderr
    early = withdrawal(bundled, "ruling.2026-09-25.settled-sweep", date="2026-09-20")
    r = invoke("impact", str(draft_file(tmp_path, early, name="early.yaml")), "--json", "--generated", "0")
    assert r.exit_code == 1 and json.loads(r.stdout)["error"]["message"]
    assert "2026-09-25" in r.stderr
    r = invoke("impact", str(tmp_path / "none.yaml"))
    assert r.exit_code == 1 and HANGUL.search(r.stderr)
    r = invoke("impact", str(tmp_path / "none.yaml"), "--generated", "many")
    assert r.exit_code == 2 and "--generated" in r.stderr


def test_the_commands_default_is_the_generated_count():
    import inspect

    from flamer_ref.cli import impact as command

    assert inspect.signature(command).parameters["generated"].default.default == str(impact_mod.GENERATED)
