"""`flamer simulate` and `flamer examples` through the real command line (exit codes 0 / 1 / 2)."""

import functools
import json
from pathlib import Path

import pytest
import flamer_fork  # noqa: E402 (tests/flamer_fork.py)

ROOT = Path(__file__).resolve().parents[2]

SCENE = """\
kind: combat
title: 두 셀
attacker: A
cells:
  "1,1":
    A: [{id: a, name: 가, lv: 3, hp: 3, atk: 1}]
    B: [{id: b, name: 나, lv: 2, hp: 1, atk: 1}, {id: s, name: 다, lv: 1, hp: 1, atk: 1, state: settled}]
  "2,2":
    A: [{id: a2, name: 가, lv: 3, hp: 3, atk: 1}]
    B: [{id: b2, name: 나, lv: 4, hp: 5, atk: 3}]
response:
- {side: B, effect: {attack: 1, cell: "2,2"}}
"""


def runner_kinds():
    from flamer_ref.runner import RUNNERS

    return tuple(RUNNERS)


flamer = functools.partial(flamer_fork.run, cwd=ROOT, timeout=120)  # a real process, forked from a warm interpreter


@pytest.fixture(scope="module")
def scene(tmp_path_factory):
    f = tmp_path_factory.mktemp("s") / "scene.yaml"
    f.write_text(SCENE, encoding="utf-8")
    return f


def test_text_md_html(scene):
    out = flamer("simulate", str(scene))
    assert out.returncode == 0, out.stderr
    assert "(1,1) 전투" in out.stdout and "최종 상태" in out.stdout and "근거:" in out.stdout
    md = flamer("simulate", str(scene), "--format", "md")
    # the verdict leads (issue 7), then the account
    assert md.returncode == 0 and md.stdout.startswith("> 판정: ") and "\n# 전투 판정" in md.stdout
    html = flamer("simulate", str(scene), "--format", "html")
    assert html.returncode == 0 and "<html" in html.stdout and "</html>" in html.stdout


def test_json_only_on_stdout(scene):
    out = flamer("simulate", str(scene), "--json", "--as-of", "2026-09-24")
    data = json.loads(out.stdout)
    assert data["as_of"] == "2026-09-24"
    assert data["order"] == ["1,1", "2,2"]
    # the sweep ruling is not in force on 2026-09-24 → reported, not applied
    assert [u["reason"] for u in data["unresolved"]] == ["ruling-not-in-force"]


def test_invalid_exit_1_korean_no_traceback(tmp_path):
    f = tmp_path / "bad.yaml"
    f.write_text(SCENE.replace("- {side: B,", "- {side: A,"), encoding="utf-8")
    out = flamer("simulate", str(f))
    assert out.returncode == 1 and out.stdout == ""
    assert "bad.yaml" in out.stderr and "12행" in out.stderr and "response[0].side" in out.stderr
    assert "Traceback" not in out.stderr


@pytest.mark.parametrize("args", [["--format", "pdf"], ["--as-of", "2026-9-1"], ["--compare", "어제"]])
def test_usage_errors_exit_2(scene, args):
    out = flamer("simulate", str(scene), *args)
    assert out.returncode == 2 and "Traceback" not in out.stderr


def test_missing_file_is_bad_input_exit_1():
    # issue 2's policy for bad input: a missing file is one Korean message naming it, exit 1
    out = flamer("simulate", "/nonexistent/scene.yaml")
    assert out.returncode == 1
    assert "/nonexistent/scene.yaml" in out.stderr and "파일을 찾을 수 없습니다: /nonexistent/scene.yaml" in out.stderr
    assert "Traceback" not in out.stderr


def test_compare_and_branches(scene):
    out = flamer("simulate", str(scene), "--compare", "2026-09-24", "--json")
    data = json.loads(out.stdout)
    assert data["kind"] == "compare" and data["by_ruling"][0]["ruling"] == "ruling.2026-09-25.settled-sweep"
    text = flamer("simulate", str(scene), "--compare", "2026-09-24")
    # the ruling that made the difference, by its date and title (issue 17: no ids in front of a person)
    assert text.returncode == 0 and "2026-09-25 확정 「정착만 있는 셀도" in text.stdout and "settled-sweep" not in text.stdout
    br = flamer("simulate", str(scene), "--all-branches", "--json")
    data = json.loads(br.stdout)
    assert data["orders_tried"] == 2 and data["distinct"] >= 1
    assert sorted(o for b in data["branches"] for o in map(tuple, b["orders"])) == [("1,1", "2,2"), ("2,2", "1,1")]
    assert flamer("simulate", str(scene), "--all-branches").returncode == 0


def test_examples_command():
    out = flamer("examples", "--json")
    data = json.loads(out.stdout)
    assert out.returncode == (0 if data["ok"] else 1)
    ids = {r["id"]: r["status"] for r in data["examples"]}
    assert ids["ex.combat.scene5"] == "pass"
    assert all(r["status"] == "skipped" for r in data["examples"] if r["kind"] not in runner_kinds())
    text = flamer("examples")
    assert "예시 2. 장면 5 — 3기 대 3기" in text.stdout and "ex.combat.scene5" not in text.stdout  # by number and title
