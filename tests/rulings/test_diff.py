"""Issue 27: `flamer diff A B` — what changed between two dates or two data folders, and the bulletin.

Dates read one data tree as of each day (clause texts in force, rulings published and withdrawn); folders are
two data trees. Clauses are matched by id (a moved clause is renumbered, not added and removed); verdicts are
the examples and FAQ whose verdict differs. --format md|html escapes what comes from the data.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import yaml
from inprocess import HANGUL, invoke

from flamer_ref.diff import diff, marked, public

ROOT = Path(__file__).resolve().parents[2]


def tree(tmp_path: Path) -> Path:
    root = tmp_path / "data"
    shutil.copytree(ROOT / "rules", root / "rules")
    shutil.copytree(ROOT / "cards", root / "cards")
    return root


def edit_yaml(path: Path, fn) -> None:
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    fn(doc)
    path.write_text(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False), encoding="utf-8")


def test_two_dates_name_the_rulings_and_the_changed_examples():
    out = public(diff("2026-09-23", "2026-09-25"))
    assert (out["from"], out["to"]) == ("2026-09-23", "2026-09-25")
    # the rulings dated after 2026-09-23 up to 2026-09-25: two on 09-24, two on 09-25
    # (a day's rulings in the order of rules/rulings.yaml, as `flamer rule 9/24-1` numbers them)
    assert out["rulings"]["added"] == ["ruling.2026-09-24.vacated-combat", "ruling.2026-09-24.structures-immovable",
                                       "ruling.2026-09-25.settled-sweep", "ruling.2026-09-25.explosive-cost"]
    assert out["rulings"]["withdrawn"] == []
    assert [v["id"] for v in out["verdicts"]] == ["ex.combat.unguarded-cell", "ex.move.structure-not-moved",
                                                 "ex.response.emptied-by-cost", "ex.response.explosive-cost"]
    sweep = out["verdicts"][0]
    assert sweep["source"] == "example" and "점령 없음" in sweep["before"] and "점령" in sweep["after"]
    # the clause whose earlier wording the 09-24 ruling replaced
    changed = {c["id"]: c for c in out["clauses"]["changed"]}
    assert set(changed) == {"response.resolve.depart"}
    assert "그 자리에서" in changed["response.resolve.depart"]["before"] and changed["response.resolve.depart"]["number"]
    assert out["clauses"]["added"] == out["clauses"]["removed"] == out["clauses"]["renumbered"] == []
    assert out["cards"] == {"added": [], "removed": [], "changed": []}


def test_the_same_date_changes_nothing_and_says_so():
    out = public(diff("2026-09-25", "2026-09-25"))
    assert out["verdicts"] == [] and out["rulings"]["added"] == [] and out["clauses"]["changed"] == []
    r = invoke("diff", "2026-09-25", "9/25")
    assert r.exit_code == 0 and "바뀐 것이 없습니다" in r.stdout


def test_two_folders_match_clauses_by_id(tmp_path):
    """A clause moved within its chapter is renumbered, not added and removed; a clause's text edited is
    changed; a card's stat edited is a changed card; a withdrawal is listed with the example it changes."""
    new = tree(tmp_path)
    combat = new / "rules" / "clauses" / "combat.yaml"

    def move_clause(doc):
        cl = doc["clauses"]
        i = next(k for k, c in enumerate(cl) if c["id"] == "combat.standoff")
        cl.append(cl.pop(i))  # to the end of the chapter: its number and those after it change
        for c in cl:
            if c["id"] == "combat.deterministic":
                c["text"] = c["text"] + " 주사위는 쓰지 않는다."
    edit_yaml(combat, move_clause)
    edit_yaml(new / "cards" / "cards.yaml", lambda d: next(c for c in d["cards"] if c["name"] == "거신").update(hp=13))

    def withdraw(doc):
        doc["rulings"].append({"id": "ruling.2026-09-26.withdraw", "date": "2026-09-26", "status": "withdrawn",
                               "label": "철회", "title": "일괄 포획 판정 철회", "summary": "거둔다.",
                               "clauses": ["combat.step7.sweep"], "withdraws": ["ruling.2026-09-25.settled-sweep"],
                               "source": ["page.combat"]})
    edit_yaml(new / "rules" / "rulings.yaml", withdraw)
    r = invoke("diff", str(ROOT), str(new), "--json")
    assert r.exit_code == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["dates"] == {"from": "2026-09-25", "to": "2026-09-26"}
    assert out["clauses"]["added"] == [] and out["clauses"]["removed"] == []
    moved = {c["id"]: c for c in out["clauses"]["renumbered"]}
    assert "combat.standoff" in moved and moved["combat.standoff"]["before"] != moved["combat.standoff"]["after"]
    assert [c["id"] for c in out["clauses"]["changed"]] == ["combat.deterministic"]
    assert out["cards"] == {"added": [], "removed": [], "changed": ["거신"]}
    assert out["rulings"]["added"] == ["ruling.2026-09-26.withdraw"]
    assert out["rulings"]["withdrawn"] == ["ruling.2026-09-25.settled-sweep"]
    assert "ex.combat.unguarded-cell" in [v["id"] for v in out["verdicts"]]


def test_the_bulletin_escapes_the_data(tmp_path):
    new = tree(tmp_path)

    def hostile(doc):
        for c in doc["clauses"]:
            if c["id"] == "combat.deterministic":
                c["title"] = "<script>alert(1)</script> *굵게* [링크](x)"
                c["text"] = c["text"] + " <b>굵게</b> ~~지움~~"
    edit_yaml(new / "rules" / "clauses" / "combat.yaml", hostile)
    html = invoke("diff", str(ROOT), str(new), "--format", "html")
    assert html.exit_code == 0, html.stderr
    assert "<script>alert" not in html.stdout and "&lt;script&gt;" in html.stdout
    assert "<ins>&lt;b&gt;굵게&lt;/b&gt;" in html.stdout or "&lt;b&gt;굵게&lt;/b&gt;" in html.stdout
    assert html.stdout.lstrip().startswith("<!DOCTYPE html>") and 'lang="ko"' in html.stdout
    md = invoke("diff", str(ROOT), str(new), "--format", "md")
    assert md.exit_code == 0, md.stderr
    assert "\\*굵게\\*" in md.stdout and "\\[링크\\]" in md.stdout and "&lt;script&gt;" in md.stdout
    assert "**" in md.stdout and "\\~\\~지움\\~\\~" in md.stdout  # the change marked, the data's marks inert


def test_marked_words():
    segs = marked("한쪽이 비면 그 자리에서 종료", "한쪽이 비어도 전투는 계속")
    assert [s["op"] for s in segs][:1] == ["same"] and {"del", "ins"} <= {s["op"] for s in segs}
    assert " ".join(s["text"] for s in segs if s["op"] != "del") == "한쪽이 비어도 전투는 계속"
    assert " ".join(s["text"] for s in segs if s["op"] != "ins") == "한쪽이 비면 그 자리에서 종료"


def test_diff_refuses_what_is_neither_a_date_nor_a_folder(tmp_path):
    r = invoke("diff", str(tmp_path / "nowhere"), "2026-09-25")
    assert r.exit_code == 1 and HANGUL.search(r.stderr) and "Traceback" not in r.stderr
    (tmp_path / "empty").mkdir()
    r = invoke("diff", str(tmp_path / "empty"), "2026-09-25", "--json")
    assert r.exit_code == 1 and json.loads(r.stdout)["error"]["message"]
    r = invoke("diff", "2026-09-23", "2026-09-25", "--format", "pdf")
    assert r.exit_code == 2


def test_md_bulletin_lists_rulings_clauses_and_verdicts():
    r = invoke("diff", "2026-09-23", "2026-09-25", "--format", "md")
    assert r.exit_code == 0, r.stderr
    text = r.stdout
    assert text.startswith("# 규칙 업데이트: 2026-09-23 → 2026-09-25")
    for heading in ("## 새 판정", "## 바뀐 조항", "## 바뀐 판정 (예시·FAQ)"):
        assert heading in text
    assert "### 2026-09-25 확정 — 정착만 있는 셀도 전투 성립, 7단계 일괄 포획 조건" in text
    assert "~~" in text and "**" in text  # the clause's words lost and gained
