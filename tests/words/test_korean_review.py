"""The Korean review of what the program prints (issue 17 item 6), over real outputs: errors of every
command for typical bad input, lookups, scenario problems. Each sentence the review corrected is checked as
a player reads it, and no output here holds a word of tests/forbidden_words.py. In-process (CliRunner)."""

from __future__ import annotations

import pytest

from inprocess import invoke

from flamer_ref.korean import josa

from forbidden_words import found


def told(*args) -> tuple[int, str]:
    """(exit code, stderr) as `flamer` tells a person, in-process: a usage error is worded by i18n as
    i18n.run does (exit 2), any other error is what the command wrote (exit 1)."""
    from typer._click import exceptions as cexc

    from flamer_ref.i18n import usage_message

    r = invoke(*args)
    if r.exit_code == 2:
        exc = invoke(*args, standalone_mode=False).exception
        assert isinstance(exc, cexc.UsageError), (args, r.output)
        return 2, "사용법 오류: " + usage_message(exc) + "\n"
    return r.exit_code, r.stderr


# ------------------------------------------------------------------ particles ----
def test_acronyms_take_the_particles_the_rulebook_gives_them():
    # the pages: 'ATK와 HP가', 'ATK로', 'MOV가', 'Lv이 같으면', 'Lv은' — ATK/MOV letter by letter, Lv as 레벨
    assert [josa("ATK", p) for p in ("이/가", "을/를", "은/는", "과/와")] == ["ATK가", "ATK를", "ATK는", "ATK와"]
    assert josa("MOV", "이/가") == "MOV가" and josa("ATK(공격력)", "이/가") == "ATK(공격력)가"
    assert josa("Lv", "이/가") == "Lv이" and josa("Lv", "으로/로") == "Lv로"
    assert josa("DGM", "이/가") == "DGM이" and josa("HP", "을/를") == "HP를"


def test_card_lookup_echoes_an_acronym_with_its_particle():
    r = invoke("card", "ATK")
    assert r.exit_code == 1 and "카드 'ATK'를 찾을 수 없습니다." in r.stderr


def test_missing_stats_are_named_in_korean_without_piece_ids():
    r = invoke("fight", "수문장 vs 개미 x2")
    assert r.exit_code == 1
    assert "  - 개미: HP(체력) — 피격 기물의 남은 HP를 계산해야 합니다. " in r.stderr
    assert '--stat "개미 체력 2" 또는 개미(체력2) (2 자리에 실제 값)' in r.stderr and "체력숫자" not in r.stderr
    assert "개미1" not in r.stderr and "(기물 " not in r.stderr


# ----------------------------------------------------------------- error shapes ----
def test_a_missing_file_is_said_what_then_which(tmp_path):
    gone = tmp_path / "nofile.yaml"
    r = invoke("simulate", str(gone))
    assert r.exit_code == 1 and r.stderr == f"파일을 찾을 수 없습니다: {gone}\n"
    r = invoke("simulate", str(tmp_path))
    assert r.exit_code == 1
    assert r.stderr == f"파일이 아니라 폴더입니다: {tmp_path}\n고치는 법: 폴더 안의 YAML 파일 경로를 주세요\n"


def test_a_missing_file_in_json_keeps_its_code(tmp_path):
    import json

    r = invoke("simulate", str(tmp_path / "nofile.yaml"), "--json")
    err = json.loads(r.stdout)["error"]
    assert err["code"] == "data-error" and err["message"].startswith("파일을 찾을 수 없습니다: ")


@pytest.mark.parametrize("args, said", [
    (("search",), "사용법 오류: 검색어를 적지 않았습니다."),
    (("card",), "사용법 오류: 카드이름을 적지 않았습니다."),
    (("scenario", "new"), "사용법 오류: 종류를 적지 않았습니다."),
    (("rulings", "--since", "2026-13-01"), "이렇게 적으세요: 2026-09-24, 9/24, 09-24, 9월 24일."),
])
def test_usage_errors_say_what_was_left_out(args, said):
    code, err = told(*args)
    assert code == 2 and said in err and "빠졌습니다" not in err, err


def test_rules_are_cited_by_number_in_messages():
    r = invoke("fight", "수문장 x4 vs 개미")
    assert r.exit_code == 1 and "(한 셀에 한 진영은 3기까지, 조항 4.8)" in r.stderr and "move.limit" not in r.stderr
    r = invoke("fight", "수문장, 수문장, 수문장, 장인 vs 개미")
    assert r.exit_code == 1 and "공격자(DGM) 기물이 4기입니다. 한 셀에 한 진영은 3기까지입니다 (조항 4.8)." in r.stderr


# ---------------------------------------------- scenario problems in the writer's keys ----
KOREAN = """\
종류: 전투
공격자: DGM
셀:
  "2,4":
    DGM: [{아이디: g, 카드: 거신}]
    BGM: [{아이디: a1, 카드: 개미, 체력: 2, 공격력: 1}, {아이디: a2, 카드: 개미, 체력: 2, 공격력: 1}]
"""
ENGLISH = """\
kind: combat
attacker: DGM
cells:
  "2,4":
    DGM: [{id: g, card: 거신}]
    BGM: [{id: a1, card: 개미, hp: 2, atk: 1}, {id: a2, card: 개미, hp: 2, atk: 1}]
"""


def simulate(tmp_path, text):
    f = tmp_path / "s.yaml"
    f.write_text(text, encoding="utf-8")
    r = invoke("simulate", str(f))
    assert r.exit_code == 1, r.output
    return r.stderr


def test_a_korean_file_hears_of_its_missing_key_in_korean(tmp_path):
    err = simulate(tmp_path, KOREAN.replace("공격자: DGM\n", ""))
    assert "[공격자]: 필수 키 '공격자'가 없습니다. → 고치는 법: 직전 이동턴을 수행한 턴 플레이어의 진영 코드를 적으세요 " \
           "(예: 공격자: DGM)" in err
    assert "attacker" not in err
    err = simulate(tmp_path, KOREAN.replace("셀:", "샐:"))
    assert "[셀]: 필수 키 '셀'이 없거나 비어 있습니다." in err and "cells" not in err
    assert "'셀'의 오타라면 고치고, 아니면 지우세요 (허용: 종류, 제목, 기준일, 공격자," in err
    err = simulate(tmp_path, KOREAN.replace("공격자: DGM", "공격자: XYZ"))
    assert "'공격자'에 적은 'XYZ'는 '셀'에 나오는 진영이 아닙니다." in err


def test_an_english_file_keeps_both_names(tmp_path):
    err = simulate(tmp_path, ENGLISH.replace("attacker: DGM\n", ""))
    assert "[attacker]: 필수 키 'attacker'(공격자)가 없습니다." in err and "(예: attacker: DGM 또는 공격자: DGM)" in err


def test_the_cost_of_jinnae_pokgyeok_is_offered(tmp_path):
    # the pages: '진내폭격의 헌납', '기폭의 개미 파괴'
    err = simulate(tmp_path, KOREAN + "대응:\n- {진영: BGM, 카드: 진내폭격, 셀: \"2,4\"}\n")
    assert "'진내폭격'의 비용으로 헌납할 기물을 골라야 합니다 (후보: a1, a2)." in err and "파괴" not in err
    err = simulate(tmp_path, ENGLISH + "response:\n- {side: BGM, card: 진내폭격, cell: \"2,4\"}\n")
    assert "cost: {destroy: a1} (또는 비용: {헌납: a1}) 처럼 적으세요" in err


def test_scenario_new_move_says_seongong():
    r = invoke("scenario", "new", "이동")
    assert r.exit_code == 0 and "선공의 첫 라운드면 예" in r.stdout and "선 플레이어" not in r.stdout


# ------------------------------------------------------- no forbidden word anywhere here ----
BAD_INPUTS = [
    ("rule", "nope"), ("rule", "99.9"), ("card", "없는카드"), ("card", "ATK"), ("term", "없는말"), ("faq", "zzz"),
    ("example", "nope"), ("timing", "nope"), ("search",), ("card",), ("rule",), ("cards", "--faction", "nope"),
    ("rulings", "--since", "2026-13-01"), ("fight", "거신"), ("fight", "개미 vs 개미"), ("fight", "없는카드 vs 별마대"),
    ("fight", "수문장 x4 vs 개미"), ("simulate", "nofile.yaml"), ("scenario", "new"), ("scenario", "new", "전쟁"),
    ("examples", "nope"), ("book", "--format", "nope"),
]


@pytest.mark.parametrize("args", BAD_INPUTS, ids=lambda a: " ".join(a))
def test_errors_of_every_command_hold_no_forbidden_word(args):
    code, err = told(*args)
    assert code in (1, 2) and err.strip(), (args, code)
    assert "Traceback" not in err and not found(err), (args, found(err), err)


def test_lookups_hold_no_forbidden_word():
    for args in (("timing", "진내폭격"), ("card", "진내폭격"), ("term", "헌납"), ("rule", "round.first-player"),
                 ("validate",)):
        r = invoke(*args)
        assert r.exit_code == 0 and not found(r.stdout), (args, found(r.stdout))
    assert "[(대응) 특수카드]" not in invoke("timing", "진내폭격").stdout  # the title is not said twice
