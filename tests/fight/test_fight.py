"""`flamer fight`: a one-line combat resolves exactly as the scenario file it saves."""

from __future__ import annotations

import functools
import json
import os
import sys
from pathlib import Path

import pytest
import flamer_fork  # noqa: E402 (tests/flamer_fork.py)

ROOT = Path(__file__).resolve().parents[2]


flamer = functools.partial(flamer_fork.run, cwd=ROOT, timeout=120)  # a real process, forked from a warm interpreter


# (line, extra options) — the issue's two lines first, then the everyday disputes
ONE_LINERS = [
    ("거신 vs 별마대, 행성굴착기(정착)", []),
    ("수문장 x2 vs 개미(lv1 hp2 atk1), 증폭기(정착 atk0)", []),
    ("수문장(lv6), 별마대, 장인 vs 거신, 행성굴착기(정착), 증폭기(정착)", ["--response", "수비자 재부팅 행성굴착기"]),
    ("거신, 장인 vs 개미(정착 lv1 hp2 atk1)", ["-r", "수비자 진내폭격 비용 개미"]),
    ("거신, 장인 vs 개미(정착 lv1 hp2 atk1)", ["-r", "수비자 진내폭격 비용 개미", "--as-of", "2026-09-23"]),
    ("수문장 vs 행성굴착기(정착), 증폭기(정착)", []),
    ("장인(정착) vs 행성굴착기(정착)", []),
    ("가(lv3 hp3 atk1) vs 나(lv3 hp3 atk1)", []),
    ("DGM: 수문장 ×3 vs BGM: 거신", []),
    ("별마대 vs 거신, 폭약(정착 lv1 hp1 구조물)", ["-r", "수비자 폭약 폭발"]),
    ("별마대, 장인 vs 거신 2기", ["--cell", "2,4"]),
    ("수문장 vs 행성굴착기(정착)", ["-r", "수비자 재부팅 행성굴착기", "--as-of", "2026-09-20"]),
]


@pytest.mark.parametrize("line,opts", ONE_LINERS, ids=[f"{i}" for i in range(len(ONE_LINERS))])
def test_json_equals_simulate_of_saved_file(tmp_path, line, opts):
    saved = tmp_path / "fight.yaml"
    fight = flamer("fight", line, *opts, "--save", str(saved), "--json")
    assert fight.returncode == 0, fight.stderr
    assert saved.is_file()
    as_of = opts[opts.index("--as-of") + 1] if "--as-of" in opts else None
    sim = flamer("simulate", str(saved), "--json")
    assert sim.returncode == 0, sim.stderr
    assert json.loads(fight.stdout) == json.loads(sim.stdout)
    data = json.loads(fight.stdout)
    assert data["kind"] == "combat" and data["title"] == line
    if as_of:
        assert data["as_of"] == as_of


def test_issue_lines_run_as_written():
    for line in ("거신 vs 별마대, 행성굴착기(정착)", "수문장 x2 vs 개미(lv1 hp2 atk1), 증폭기(정착 atk0)"):
        r = flamer("fight", line)
        assert r.returncode == 0, r.stderr
        assert "Traceback" not in r.stderr and r.stdout.strip()


def test_scene5_by_one_line_matches_the_page():
    """장면 5 written on one line (수문장 at Lv 6 from 병풍): the page's prisoners and survivors."""
    r = flamer("fight", "수문장(lv6), 별마대, 장인 vs 거신, 행성굴착기(정착), 증폭기(정착)",
               "--response", "수비자 재부팅 행성굴착기", "--json")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert (d["attacker"], d["defender"]) == ("DGM", "BGM")
    assert sorted(d["prisoners"]["DGM"]) == sorted(["거신", "행성굴착기", "증폭기"])
    assert d["prisoners"]["BGM"] == ["수문장"]
    cell = d["cells"]["1,1"]
    assert cell["occupant"] == "DGM" and cell["rounds"] == 4
    assert sorted(cell["survivors"]["DGM"]) == ["별마대", "장인"]


def test_counts_and_ids():
    r = flamer("fight", "수문장 x2 vs 개미(lv1 hp2 atk1)*2", "--json")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert sorted(d["pieces"]) == ["개미1", "개미2", "수문장1", "수문장2"]
    assert d["pieces"]["개미1"]["lv"] == 1 and d["pieces"]["개미2"]["atk"] == 1


def test_typo_is_corrected_with_a_notice():
    r = flamer("fight", "수문쟝 vs 거신", "--json")
    assert r.returncode == 0, r.stderr
    assert "'수문쟝'" in r.stderr and "'수문장'" in r.stderr
    d = json.loads(r.stdout)
    assert d["pieces"]["수문장"]["card"] == "수문장"


def test_ambiguous_name_lists_candidates_and_stops():
    r = flamer("fight", "수문장 vs 잠")
    assert r.returncode == 1
    assert "잠복군" in r.stderr and "잠식된 석산" in r.stderr
    assert not r.stdout.strip()


def test_missing_stats_without_terminal_is_one_error_listing_what_the_verdict_needs():
    """Issue 16 item 5: only the values the verdict reads are asked for (it listed 개미's Lv, HP, ATK and
    봉수장's Lv, HP up front): 개미 attacks first, so its ATK is needed and nothing else yet."""
    r = flamer("fight", "개미 vs 수문장, 봉수장(정착)")
    assert r.returncode == 1
    assert "Traceback" not in r.stderr
    lines = [ln for ln in r.stderr.splitlines() if ln.strip().startswith("-")]
    assert len(lines) == 1 and "개미: ATK" in lines[0] and "봉수장" not in r.stderr, r.stderr


def test_missing_stats_json_error():
    r = flamer("fight", "개미 vs 수문장", "--json")
    assert r.returncode == 1
    assert "개미" in r.stderr


def test_missing_stats_asked_at_a_terminal():
    """At a terminal the stats are asked for, in Korean, and the fight then resolves."""
    import pty
    import select

    pid, fd = pty.fork()
    if pid == 0:  # child: stdin/stdout/stderr are the pty
        os.chdir(ROOT)
        os.execv(sys.executable, [sys.executable, "-m", "flamer_ref", "fight", "수문장 vs 개미", "--brief"])
    out = b""
    answers = iter(["x", "2", "1"])  # a wrong answer, HP, then ATK (asked once the HP shows 개미 survives)
    try:
        while True:
            r, _, _ = select.select([fd], [], [], 20)
            if not r:
                break
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
            if out.decode("utf-8", "replace").rstrip().endswith("입력하세요:"):
                os.write(fd, (next(answers) + "\n").encode())
    finally:
        _, status = os.waitpid(pid, 0)
    text = out.decode("utf-8", "replace")
    assert os.waitstatus_to_exitcode(status) == 0, text
    assert "개미의 HP(체력)가 카드 데이터에 없습니다" in text and "개미의 ATK" in text
    assert "Lv" not in text.split("판정:")[0]  # a lone 개미 is never compared: its Lv is not asked
    assert "직접 넣은 값 개미 HP 2, 개미 ATK 1(카드 데이터 아님)" in text
    assert "정수가 아닙니다" in text
    assert "Traceback" not in text


def test_bad_lines_are_korean_errors():
    for line, needle in (("수문장 거신", "vs"), ("수문장 vs", "vs"), ("수문장(lv) vs 거신", "lv"),
                         ("수문장 x5 vs 거신", "3기"), ("수문장 vs 거신 vs 장인", "두 번")):
        r = flamer("fight", line)
        assert r.returncode == 1, (line, r.stderr)
        assert needle in r.stderr and "Traceback" not in r.stderr


def test_declaration_errors():
    r = flamer("fight", "수문장 vs 행성굴착기(정착)", "-r", "누군가 재부팅 행성굴착기")
    assert r.returncode == 1 and "공격자" in r.stderr
    r = flamer("fight", "수문장 vs 행성굴착기(정착)", "-r", "수비자 재부팅 장인")
    assert r.returncode == 1 and "장인" in r.stderr


def test_saved_file_is_commented_and_reruns(tmp_path):
    saved = tmp_path / "f.yaml"
    r = flamer("fight", "거신 vs 별마대", "--save", str(saved))
    assert r.returncode == 0, r.stderr
    text = saved.read_text(encoding="utf-8")
    assert text.startswith("# flamer fight")
    assert "flamer simulate" in r.stderr  # where it was saved and how to re-run it


def test_unwritable_save_is_an_error(tmp_path):
    r = flamer("fight", "거신 vs 별마대", "--save", str(tmp_path / "no" / "such" / "dir" / "f.yaml"))
    assert r.returncode == 1 and "--save" in r.stderr and "Traceback" not in r.stderr


# ---------------------------------------------------------------- review findings ----
@pytest.mark.parametrize("line,n", [("수문장 3 vs 거신", 3), ("수문장 2개 vs 거신", 2), ("2기 수문장 vs 거신", 2),
                                    ("수문장 둘 vs 거신", 2), ("수문장 (2기) vs 거신", 2), ("수문장×3 vs 거신", 3)])
def test_counts_written_in_korean(line, n):
    r = flamer("fight", line, "--json")
    assert r.returncode == 0, r.stderr
    assert sum(1 for p in json.loads(r.stdout)["pieces"].values() if p["card"] == "수문장") == n
    assert "읽었습니다" not in r.stderr  # a count is not a name correction


def test_stats_written_naturally():
    r = flamer("fight", "수문장(Lv6, HP3, ATK2) vs 거신(lv 7 hp 12)", "--json")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)["pieces"]
    assert (d["수문장"]["lv"], d["수문장"]["hp"], d["수문장"]["atk"]) == (6, 3, 2)
    assert (d["거신"]["lv"], d["거신"]["hp"]) == (7, 12)


@pytest.mark.parametrize("line,needle", [("수문장(정착 기동) vs 거신", "함께"), ("수문장(lv-1) vs 거신", "Lv -1은"),
                                         ("수문장(hp0) vs 거신", "HP 0은"), ("재부팅 vs 거신", "특수카드")])
def test_bad_pieces_are_refused_before_anything_is_asked(line, needle):
    r = flamer("fight", line)
    assert r.returncode == 1 and needle in r.stderr, r.stderr


def test_one_side_code_written_the_other_from_its_cards():
    d = json.loads(flamer("fight", "DGM: 수문장 vs 거신", "--json").stdout)
    assert (d["attacker"], d["defender"]) == ("DGM", "BGM")


def test_cell_option_must_be_a_cell():
    r = flamer("fight", "수문장 vs 거신", "--cell", "abc")
    assert r.returncode == 1 and "--cell" in r.stderr


def test_ambiguous_target_lists_side_and_state():
    r = flamer("fight", "거신, 개미(lv1 hp2 atk1) vs 장인, 개미(정착 lv1 hp2 atk1)", "-r", "수비자 재부팅 개미")
    assert r.returncode == 1
    assert "개미1" in r.stderr and "개미2" in r.stderr and "정착" in r.stderr and "기동" in r.stderr


def test_errors_point_at_the_option_not_a_hidden_file():
    r = flamer("fight", "거신 vs 수문장, 장인(정착)", "-r", "공격자 재부팅 장인")
    assert r.returncode == 1 and r.stderr.startswith("불가 —")
    assert "--response #1" in r.stderr and "행" not in r.stderr.split("위치:")[-1]
    r = flamer("fight", "거신 vs 수문장, 장인(정착)", "-r", "수비자 재부팅")
    assert r.returncode == 1 and "--response #1" in r.stderr and "target:" not in r.stderr


def test_attacker_cannot_declare_twice_in_a_row():
    """대응턴 page: 수비자가 선언했으면 턴 플레이어가 … 맞대응 하나를 선언하거나 패스 → 다시 수비자."""
    r = flamer("fight", "거신, 개미(정착 lv1 hp2 atk1), 행성굴착기(정착) vs 수문장, 장인(정착)",
               "-r", "수비자 재부팅 장인", "-r", "공격자 재부팅 개미", "-r", "공격자 재부팅 행성굴착기", "--json")
    assert r.returncode == 1
    err = json.loads(r.stdout)["error"]
    assert err["code"] == "forbidden" and json.loads(r.stdout)["rule"] == "response.declare.order"


def test_card_with_unknown_effect_is_declared_and_reported():
    r = flamer("fight", "거신 vs 수문장", "-b", "공격자 피의장막", "--json")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert any(u["reason"] == "effect-unknown" and u.get("card") == "피의장막" for u in d["unresolved"])
    r = flamer("fight", "거신, 장인 vs 개미(정착 lv1 hp1 atk1), 수문장(정착)", "-r", "수비자 기폭 비용 개미", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["removed"] == ["개미"]


def test_capture_in_a_cost_emptied_cell_cites_the_interpretation():
    """대응턴 page: '포획은 없습니다' and '진내폭격의 10 ATK도 정상 적중' — the hit captures as the project reads it."""
    r = flamer("fight", "수문장 vs 개미(정착 lv1 hp1 atk1)", "-r", "수비자 진내폭격 비용 개미", "--json")
    d = json.loads(r.stdout)
    cap = [e for e in d["events"] if e["type"] == "capture"]
    assert len(cap) == 1 and cap[0]["interpretation"] == "interp.vacated.effect-capture"
    assert any(a["choice"] == "vacated-effect-capture" for a in d["assumed"])
    steps = [e["step"] for e in d["events"] if e["type"] == "step"]
    assert steps[:7] == [1, 2, 3, 4, 5, 6, 7]  # every step is gone through, none skipped
    assert flamer("rule", "interp.vacated.effect-capture").returncode == 0


# ---------------------------------------------------- hostile one-liners (adversarial review) ----
@pytest.mark.parametrize("line, option, where", [
    ("x\x07y(lv1 hp1 atk1) vs 개미(lv1 hp2 atk1)", None, "전투: 2번째 글자"),
    ("x\x9by(lv1 hp1 atk1) vs 개미(lv1 hp2 atk1)", None, "전투: 2번째 글자"),
    ("수문장 vs 개미(lv1 hp2 atk1)", "수비자 \x1b[2J", "--response #1: 5번째 글자"),
])
def test_control_characters_are_named_with_their_place_not_as_yaml(line, option, where):
    args = ["fight", line] + (["--response", option] if option else [])
    p = flamer(*args)
    assert p.returncode == 1, p.stderr
    assert where in p.stderr and "제어 문자" in p.stderr and "YAML" not in p.stderr
    assert "\x1b" not in p.stderr and "\x07" not in p.stderr


def test_a_negative_count_is_refused_not_read_as_a_name():
    p = flamer("fight", "수문장 x-1 vs 개미(lv1 hp2 atk1)")
    assert p.returncode == 1 and "개수는 1~3" in p.stderr and "읽었습니다" not in p.stderr


def test_an_impossible_side_code_is_refused_not_dropped():
    p = flamer("fight", "<b>: 수문장 vs BGM: 개미(lv1 hp2 atk1)")
    assert p.returncode == 1 and "진영 코드 '<b>'는 쓸 수 없습니다" in p.stderr
