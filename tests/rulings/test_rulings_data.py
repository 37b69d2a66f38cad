"""Issue 27 "Rulings decided by data": whether a ruling applies comes from rules/rulings.yaml alone.

- The engine names decisions (engine/decisions.py) and never a date or a ruling id (an ast walk).
- Moving a ruling's date in a copied data tree moves the day the engine changes its answer.
- Withdrawals (`withdraws:`): the engine decides as before the withdrawn ruling from the withdrawing
  ruling's date; unknown ids and impossible dates are data errors.
"""

from __future__ import annotations

import ast
import re
import shutil
from pathlib import Path

import pytest
import sourcetree
import yaml

from flamer_ref import corpus as corpus_mod
from flamer_ref.engine.api import parse, run
from flamer_ref.engine.decisions import DECISIONS, rules_at
from flamer_ref.errors import DataError

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "flamer_ref" / "engine"
DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


@pytest.fixture(scope="module")
def bundled():
    return corpus_mod.load()


def tree(tmp_path: Path, edit=None) -> Path:
    """A copy of the bundled data tree; `edit(rulings_list)` changes its rules/rulings.yaml."""
    root = tmp_path / "data"
    shutil.copytree(ROOT / "rules", root / "rules")
    shutil.copytree(ROOT / "cards", root / "cards")
    if edit is not None:
        path = root / "rules" / "rulings.yaml"
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        edit(doc["rulings"])
        path.write_text(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return root


def load(root: Path):
    return corpus_mod.load(root, use_cache=False)


def ruling(rulings: list, rid: str) -> dict:
    return next(r for r in rulings if r["id"] == rid)


# ------------------------------------------------------------------ the engine names no date ----
def _strings(path: Path):
    for node in ast.walk(sourcetree.parse(path)):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node.lineno, node.value


def test_the_engine_code_holds_no_date_and_no_ruling_id(bundled):
    """Every string of flamer_ref/engine/**/*.py (docstrings included): no date, no `ruling.` id, and none of
    the bundled rulings' ids. The engine asks decisions; the data says which ruling sets them and when."""
    ids = set(bundled.rulings)
    found = []
    for path in sorted(ENGINE.rglob("*.py")):
        for line, text in _strings(path):
            if DATE.search(text) or re.search(r"\bruling\.[a-z0-9]", text) or any(i in text for i in ids):
                found.append(f"{path.name}:{line}: {text[:80]!r}")
    assert not found, "\n".join(found)


def test_the_walk_finds_a_date_and_an_id(tmp_path):
    """The check above is not vacuous: it sees a date or a ruling id in a string."""
    bad = tmp_path / "bad.py"
    bad.write_text('"""doc"""\nX = "ruling.2026-09-04.entry-effect-duration"\nY = as_of < "2026-09-04"\n',
                   encoding="utf-8")
    hits = [t for _, t in _strings(bad) if DATE.search(t) or re.search(r"\bruling\.[a-z0-9]", t)]
    assert len(hits) == 2


def test_every_decision_a_ruling_sets_is_in_the_catalogue_and_every_ruling_is_checked(bundled):
    named = {n for r in bundled.rulings.values() for n in r["sets"]}
    assert named <= set(DECISIONS)
    # every decision of the catalogue is set by some bundled ruling (none is dead code)
    assert set(DECISIONS) == named


# ------------------------------------------------------------------ the first example ----
def _field_case(corpus):
    ex = corpus.examples["ex.field.full-field-response"]
    return parse(ex["scenario"][0], "ex.field.full-field-response#1", corpus)


def test_moving_the_revision_date_moves_the_permanent_screen(tmp_path, bundled):
    """The issue: ruling.2026-09-04.entry-effect-duration corrected to 2026-09-10. As of 2026-09-05 the old
    rule ('영구 적용': 수문장 stays Lv 6 after 별마대 retires) still holds; from 2026-09-10 the new one."""
    root = tree(tmp_path, lambda rs: ruling(rs, "ruling.2026-09-04.entry-effect-duration").update(date="2026-09-10"))
    moved = load(root)
    scn = _field_case(moved)
    assert run(scn, moved, "2026-09-05").to_json()["levels"]["수문장"] == 6
    assert run(scn, moved, "2026-09-09").to_json()["levels"]["수문장"] == 6
    assert run(scn, moved, "2026-09-10").to_json()["levels"]["수문장"] == 3
    # the bundled date: already the new rule on 2026-09-05
    assert run(_field_case(bundled), bundled, "2026-09-05").to_json()["levels"]["수문장"] == 3


def test_the_answer_cites_the_ruling_the_data_names(tmp_path):
    root = tree(tmp_path, lambda rs: ruling(rs, "ruling.2026-09-04.entry-effect-duration").update(date="2026-09-10"))
    moved = load(root)
    a = rules_at(moved, "2026-09-12").ask("entry-effect-ends-with-card")
    assert (a.value, a.ruling, a.date) == (True, "ruling.2026-09-04.entry-effect-duration", "2026-09-10")
    a = rules_at(moved, "2026-09-05").ask("entry-effect-ends-with-card")
    assert a.value is False and a.ruling is None and a.cite == "ruling.2026-09-04.entry-effect-duration"


# ------------------------------------------------------------------ withdrawals ----
def _withdraw(rid: str, date: str, wid: str = "ruling.2026-09-26.withdraw"):
    def edit(rs):
        rs.append({"id": wid, "date": date, "status": "abolished", "label": "철회", "title": "앞선 판정 철회",
                   "summary": "앞선 판정을 거둔다.", "clauses": list(ruling(rs, rid)["clauses"]),
                   "withdraws": [rid], "source": list(ruling(rs, rid)["source"])})
    return edit


def test_a_withdrawn_ruling_no_longer_decides_from_the_withdrawal_on(tmp_path):
    root = tree(tmp_path, _withdraw("ruling.2026-09-04.entry-effect-duration", "2026-09-26"))
    data = load(root)
    scn = _field_case(data)
    assert run(scn, data, "2026-09-25").to_json()["levels"]["수문장"] == 3  # still in force
    assert run(scn, data, "2026-09-26").to_json()["levels"]["수문장"] == 6  # as before it: '영구 적용'
    a = rules_at(data, "2026-09-26").ask("entry-effect-ends-with-card")
    # the withdrawal decides now: it is what the explanation cites, naming the ruling it withdrew
    assert a.value is False and a.cite == "ruling.2026-09-26.withdraw" and a.date == "2026-09-26"
    assert a.withdrawn == "ruling.2026-09-04.entry-effect-duration"


def test_withdrawing_the_withdrawal_brings_the_ruling_back(tmp_path):
    def edit(rs):
        _withdraw("ruling.2026-09-04.entry-effect-duration", "2026-09-26")(rs)
        _withdraw("ruling.2026-09-26.withdraw", "2026-09-28", "ruling.2026-09-28.undo")(rs)
    data = load(tree(tmp_path, edit))
    scn = _field_case(data)
    assert run(scn, data, "2026-09-27").to_json()["levels"]["수문장"] == 6
    assert run(scn, data, "2026-09-28").to_json()["levels"]["수문장"] == 3


def _problems(root: Path) -> list:
    with pytest.raises(DataError) as exc:
        load(root)
    return exc.value.problems


def test_withdrawing_an_unknown_id_is_a_data_error(tmp_path):
    def edit(rs):
        _withdraw("ruling.2026-09-04.entry-effect-duration", "2026-09-26")(rs)
        rs[-1]["withdraws"] = ["ruling.2026-09-04.entry-effect-duraton"]
    problems = _problems(tree(tmp_path, edit))
    assert len(problems) == 1 and problems[0].file == "rules/rulings.yaml" and problems[0].line
    assert "ruling.2026-09-04.entry-effect-duraton" in problems[0].message
    assert "ruling.2026-09-04.entry-effect-duration" in problems[0].fix  # the nearest id


def test_withdrawing_before_the_ruling_is_a_data_error(tmp_path):
    problems = _problems(tree(tmp_path, _withdraw("ruling.2026-09-25.settled-sweep", "2026-09-20")))
    assert len(problems) == 1 and problems[0].key == "withdraws" and problems[0].line
    assert "2026-09-25" in problems[0].message and "2026-09-20" in problems[0].message


def test_a_ruling_that_withdraws_itself_or_a_cycle_is_a_data_error(tmp_path):
    def edit(rs):
        ruling(rs, "ruling.2026-09-25.settled-sweep")["withdraws"] = ["ruling.2026-09-25.explosive-cost"]
        ruling(rs, "ruling.2026-09-25.explosive-cost")["withdraws"] = ["ruling.2026-09-25.settled-sweep"]
    problems = _problems(tree(tmp_path, edit))
    assert len(problems) == 1 and "→" in problems[0].message


def test_two_rulings_setting_one_decision_on_one_day_differently_is_a_data_error(tmp_path):
    def edit(rs):
        rs.append({**ruling(rs, "ruling.2026-09-25.settled-sweep"), "id": "ruling.2026-09-25.other",
                   "sets": {"step7-sweeps-settled": False}})
    problems = _problems(tree(tmp_path, edit))
    assert len(problems) == 1 and problems[0].key == "sets.step7-sweeps-settled"


def test_an_unknown_decision_or_value_is_a_validate_error(tmp_path):
    from flamer_ref.checks import validate_tree

    def edit(rs):
        ruling(rs, "ruling.2026-09-25.settled-sweep")["sets"] = {"step7-sweep-settled": True}
        ruling(rs, "ruling.2026-09-25.explosive-cost")["sets"] = {"explosive-destroy-is-cost": False}
    v = validate_tree(tree(tmp_path, edit))
    words = {p.key: (p.message, p.fix) for p in v.problems}
    assert len(v.problems) == 2, words
    assert "step7-sweeps-settled" in words["sets.step7-sweep-settled"][1]  # the nearest name
    assert "true" in words["sets.explosive-destroy-is-cost"][0]  # the values the engine takes
    assert all(p.file == "rules/rulings.yaml" and p.line for p in v.problems)


# ------------------------------------------------------------------ every ruling's date moves its day ----
def _changing(corpus):
    """(ruling, its first example or FAQ case whose verdict it changes on its date) for every ruling that
    changes a decision — what the linter of flamer validate asks for."""
    from flamer_ref.checks import without_ruling
    from flamer_ref.verdicts import cases, parse_case, resolve

    out = []
    for rid, r in corpus.rulings.items():
        if not r["sets"]:
            continue
        without = without_ruling(corpus, rid)
        for case in cases(corpus):
            scn = parse_case(corpus, case)
            if scn is not None and resolve(corpus, scn, r["date"]).key != resolve(without, scn, r["date"]).key:
                out.append((rid, case))
                break
    return out


def _moved(corpus, rid: str, date: str):
    """The corpus with ruling `rid` dated `date` (what a copied tree with that one edit loads into)."""
    plain = corpus.to_plain()
    rulings = {k: dict(v, date=date) if k == rid else v for k, v in corpus.rulings.items()}
    plain["rulings"] = dict(sorted(rulings.items(), key=lambda kv: (kv[1]["date"], kv[0])))
    return corpus_mod.Corpus.from_plain(plain)


def _day(date: str, n: int) -> str:
    import datetime

    return (datetime.date.fromisoformat(date) + datetime.timedelta(days=n)).isoformat()


def test_every_ruling_that_changes_a_decision_has_an_example_that_shows_it(bundled):
    shown = {rid for rid, _ in _changing(bundled)}
    changing = {rid for rid, r in bundled.rulings.items() if r["sets"]} - {"ruling.2026-09-16.path-rule"}
    assert shown == changing  # the codification (path-rule) confirms the value that held: nothing to show


def test_moving_each_rulings_date_moves_the_day_its_example_changes(tmp_path, bundled):
    """For each ruling, in a copied tree with its date two days later: on its old date and the day after, its
    example reads as without the ruling; on the new date as in the bundled data."""
    from flamer_ref.checks import without_ruling
    from flamer_ref.verdicts import parse_case, resolve

    pairs = _changing(bundled)
    assert len(pairs) >= 9
    for rid, case in pairs:
        old = bundled.rulings[rid]["date"]
        new = _day(old, 2)
        # the data with that one date moved (read from YAML for the first, then the same data in memory)
        moved = load(tree(tmp_path, lambda rs: ruling(rs, rid).update(date=new))) if rid == pairs[0][0] else \
            _moved(bundled, rid, new)
        without = without_ruling(bundled, rid)
        scn = parse_case(moved, case)

        def key(corpus, as_of):
            return resolve(corpus, scn, as_of).key

        for as_of in (old, _day(old, 1)):
            assert key(moved, as_of) == key(without, as_of), (rid, case.id, as_of)
        assert key(moved, new) == key(bundled, new), (rid, case.id)
        assert key(moved, new) != key(moved, _day(new, -1)), (rid, case.id)  # the day it changes moved


# ------------------------------------------------------------------ the linter ----
def test_the_linter_names_a_ruling_no_example_shows(tmp_path):
    """Without the example that shows it, a ruling that changes a decision is a validate problem at its
    `sets:` line, with the fix; a ruling that confirms a value (path-rule) is not."""
    from flamer_ref.checks import validate_tree

    root = tree(tmp_path)
    path = root / "rules" / "examples" / "combat.yaml"
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    doc["examples"] = [e for e in doc["examples"] if e["id"] != "ex.combat.mobile-structure"]
    path.write_text(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False), encoding="utf-8")
    v = validate_tree(root)
    assert [(p.file, p.key) for p in v.problems] == [("rules/rulings.yaml", "sets")]
    p = v.problems[0]
    assert "ruling.2026-09-17.mobile-structures" in p.message and "mobile-structures-attack" in p.message
    assert p.line and "flamer impact" in p.fix
    text = (root / "rules" / "rulings.yaml").read_text(encoding="utf-8").splitlines()
    assert text[p.line - 1].strip().startswith("sets:")


# ------------------------------------------------------------------ what people see ----
def test_rulings_json_and_text_show_withdrawals(tmp_path):
    from inprocess import isolated as invoke

    root = tree(tmp_path, _withdraw("ruling.2026-09-04.entry-effect-duration", "2026-09-26"))
    r = invoke("rulings", "--json", env={"FLAMER_DATA": str(root)})
    assert r.exit_code == 0, r.stderr
    import json

    got = {x["id"]: x for x in json.loads(r.stdout)["rulings"]}
    assert got["ruling.2026-09-04.entry-effect-duration"]["withdrawn_by"] == {"id": "ruling.2026-09-26.withdraw",
                                                                           "date": "2026-09-26"}
    assert got["ruling.2026-09-26.withdraw"]["withdraws"] == ["ruling.2026-09-04.entry-effect-duration"]
    assert got["ruling.2026-09-25.settled-sweep"]["withdrawn_by"] is None
    text = invoke("rulings", env={"FLAMER_DATA": str(root)}).stdout
    assert "2026-09-26에 철회됨" in text and "철회한 판정: ruling.2026-09-04.entry-effect-duration" in text
    # the clause's text as of the withdrawal is its earlier wording again
    rule = invoke("rule", "field.entry-effect.duration", "--json", env={"FLAMER_DATA": str(root)})
    clause = json.loads(rule.stdout)
    assert clause["text_status"] == "earlier" and "영구" in clause["text"]
    assert [x["id"] for x in clause["withdrawn_rulings"]] == ["ruling.2026-09-04.entry-effect-duration"]


def test_the_timeline_keeps_a_withdrawn_ruling_with_its_withdrawal(tmp_path):
    from flamer_ref.book import timeline

    data = load(tree(tmp_path, _withdraw("ruling.2026-09-04.entry-effect-duration", "2026-09-26")))
    t = {r["id"]: r for r in timeline(data, "2026-09-26")}
    assert t["ruling.2026-09-04.entry-effect-duration"]["withdrawn_by"]["id"] == "ruling.2026-09-26.withdraw"
    w = t["ruling.2026-09-26.withdraw"]
    assert [x["case"] for x in w["changed"]] == ["ex.field.full-field-response#1"]
    assert w["changed"][0]["rulings"] == ["ruling.2026-09-26.withdraw"]
    # as of the day before the withdrawal, the book does not know of it
    from flamer_ref.book import _ruling_view

    assert _ruling_view(data, data.rulings["ruling.2026-09-04.entry-effect-duration"], "2026-09-25")["withdrawn_by"] is None


def test_messages_take_the_rulings_date_from_the_data(tmp_path):
    """The words name the day the data gives: the revision moved to 2026-09-10, the '영구 적용' note says so."""
    from inprocess import isolated as invoke

    root = tree(tmp_path, lambda rs: ruling(rs, "ruling.2026-09-04.entry-effect-duration").update(date="2026-09-10"))
    scn = tmp_path / "field.yaml"
    data = load(root)
    scn.write_text(yaml.safe_dump(dict(data.examples["ex.field.full-field-response"]["scenario"][0]),
                                  allow_unicode=True), encoding="utf-8")
    r = invoke("simulate", str(scn), "--as-of", "2026-09-05", env={"FLAMER_DATA": str(root)})
    assert r.exit_code == 0, r.stderr
    assert "2026-09-10 개정 이전" in r.stdout and "2026-09-04" not in r.stdout
