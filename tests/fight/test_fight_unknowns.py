"""Issue 16, item 5 (the CLI side): unknown stats (미상) in `flamer fight`.

- only the values the verdict depends on are asked for: the engine runs with the unknown stats left
  unknown and whatever it reads to decide is asked (at a terminal) or listed (the --json error object of
  the interface file: `missing: [{piece, card, label, stat}]`); a settled piece captured by a hit, a piece
  paid as a cost, a lone piece's Lv (nothing to compare) are never asked;
- `--stat "카드이름 스탯 값"` gives a card's unknown stat; the answer marks it as the player's value
  (text, md, html, the verdict, JSON `player_stats`, the saved scenario's header), never as card data;
  a stat the card data states is refused (the line is where a variant goes);
- the explanation shows a stat never needed as 미상 (JSON null), not as a number.
Also the review fix: a data file's own error (cards/effects.yaml unreadable) keeps its file name.

In-process (typer's CliRunner); the terminal flow itself is tests/fight/test_fight.py's pty test.
"""

from __future__ import annotations

import functools
import json
import sys

import pytest
from inprocess import invoke



@pytest.fixture
def cli(tmp_path):
    return functools.partial(invoke, cache=tmp_path, env={"FLAMER_DATA": None, "FLAMER_SITE_URL": None})


def ok(r) -> dict | str:
    assert r.exit_code == 0, r.stderr + r.stdout
    assert "Traceback" not in r.stderr
    return r.stdout


def missing(r) -> list[dict]:
    """The interface's missing list of a --json missing-stats answer."""
    assert r.exit_code == 1, r.stdout
    obj = json.loads(r.stdout)
    assert list(obj) == ["error"] and list(obj["error"]) == ["message", "code", "missing"]
    assert obj["error"]["code"] == "missing-stats"
    # each entry says in one line what it is needed for (issue 26: the calculator asks with it)
    assert all(isinstance(m.pop("why"), (str, type(None))) for m in obj["error"]["missing"])
    return obj["error"]["missing"]


# -------------------------------------------------- nothing needed, nothing asked ----
@pytest.mark.parametrize("line,opts", [
    ("수문장 vs 개미(정착)", []),                                   # one hit captures a settled piece
    ("수문장 vs 개미(정착), 개미(정착)", []),                        # two alike: either is the target
    ("거신 vs 수문장, 갑사(정착)", []),                              # swept in step 7
    ("거신, 장인 vs 개미(정착)", ["-r", "수비자 진내폭격 비용 개미"]),  # paid as a cost
    ("갑사 vs 개미(정착)", ["-r", "수비자 기폭 비용 개미"]),           # nothing left to attack: no ATK read
    ("수문장 x2 vs 개미 x2", ["--stat", "개미 hp 1"]),               # alike mobile pieces: no Lv compared
])
def test_a_verdict_that_does_not_read_an_unknown_stat_asks_for_none(cli, line, opts):
    data = json.loads(ok(cli("fight", line, *opts, "--json")))
    unknown = [p for p in data["pieces"].values() if p["card"] in ("개미", "갑사")]
    assert unknown and all(p["lv"] is None for p in unknown)  # never needed: 미상 (null), not 0
    assert all(p["atk"] is None for p in unknown)
    text = ok(cli("fight", line, *opts))
    assert "판정:" in text.splitlines()[0]
    page = ok(cli("fight", line, *opts, "--format", "html"))
    assert "Lv 미상" in page and "ATK 미상" in page


def test_the_player_values_are_absent_when_none_were_given(cli):
    data = json.loads(ok(cli("fight", "수문장 vs 개미(정착)", "--json")))
    assert "player_stats" not in data
    assert "직접 넣은 값" not in ok(cli("fight", "수문장 vs 개미(정착)"))


# ------------------------------------------------------ exactly what is read ----
def test_a_mobile_unknown_piece_is_asked_for_what_its_fight_reads_one_decision_at_a_time(cli):
    # 수문장 hits first: 개미's HP decides whether it survives
    assert missing(cli("fight", "수문장 vs 개미", "--json")) == [
        {"piece": "개미", "card": "개미", "label": "개미", "stat": "hp"}]
    # HP 2 survives ATK 1: 개미 strikes back, so its ATK is needed now
    assert missing(cli("fight", "수문장 vs 개미", "--stat", "개미 hp 2", "--json")) == [
        {"piece": "개미", "card": "개미", "label": "개미", "stat": "atk"}]
    # HP 1 does not: captured in step 4, its ATK is never read — and never asked for
    data = json.loads(ok(cli("fight", "수문장 vs 개미", "--stat", "개미 hp 1", "--json")))
    assert data["pieces"]["개미"]["atk"] is None and data["pieces"]["개미"]["lv"] is None
    assert data["prisoners"]["DGM"] == ["개미"]
    assert data["player_stats"] == [{"card": "개미", "label": "개미", "stat": "hp", "value": 1, "pieces": ["개미"]}]


def test_a_tie_needs_every_tied_unknown_at_once(cli):
    """Two different unknown cards compete as the target: both Lvs are compared, so both are listed."""
    got = missing(cli("fight", "수문장 vs 개미, 갑사", "--json"))
    assert got == [{"piece": "개미", "card": "개미", "label": "개미", "stat": "lv"},
                   {"piece": "갑사", "card": "갑사", "label": "갑사", "stat": "lv"}]
    # a Lv that settles it: only the chosen target's HP is needed next
    got = missing(cli("fight", "수문장 vs 개미, 갑사", "--stat", "개미 lv 1", "--stat", "갑사 lv 2", "--json"))
    assert got == [{"piece": "갑사", "card": "갑사", "label": "갑사", "stat": "hp"}]


def test_a_cost_tie_of_a_card_and_a_piece_named_in_the_line(cli):
    """장인 and 가(lv2 hp2 atk1) tie down to the cost, which neither gives: both needed; a piece named in
    the line only takes --stat by its name."""
    line = "수문장 vs 장인, 가(lv2 hp2 atk1)"
    assert missing(cli("fight", line, "--json")) == [
        {"piece": "장인", "card": "장인", "label": "장인", "stat": "cost"},
        {"piece": "가", "card": None, "label": "가", "stat": "cost"}]
    data = json.loads(ok(cli("fight", line, "--stat", "장인 cost 1", "--stat", "가 비용 2", "--json")))
    assert [(r["label"], r["stat"], r["value"], r["pieces"]) for r in data["player_stats"]] == [
        ("장인", "cost", 1, ["장인"]), ("가", "cost", 2, ["가"])]


def test_the_missing_message_names_what_and_why_and_how_to_give_it(cli):
    r = cli("fight", "수문장 vs 개미 x2")
    assert r.exit_code == 1 and r.stdout == ""
    assert "  - 개미: HP(체력) — 피격 기물의 남은 HP를 계산해야 합니다" in r.stderr and "개미1" not in r.stderr
    assert '--stat "개미 체력 2" 또는 개미(체력2) (2 자리에 실제 값)' in r.stderr and "숫자" not in r.stderr
    assert "Lv" not in r.stderr and "ATK" not in r.stderr


def test_typed_names_are_the_label_and_corrections_are_told(cli):
    r = cli("fight", "수문장 vs 개마", "--json")
    assert missing(r) == [{"piece": "개미", "card": "개미", "label": "개마", "stat": "hp"}]
    assert "'개마' → '개미'" in r.stderr


def test_compare_asks_for_what_either_date_reads(cli):
    assert missing(cli("fight", "수문장 vs 개미", "--compare", "9/20", "--json")) == [
        {"piece": "개미", "card": "개미", "label": "개미", "stat": "hp"}]
    data = json.loads(ok(cli("fight", "수문장 vs 개미", "--stat", "개미 hp 1", "--compare", "9/20", "--json")))
    assert data["kind"] == "compare" and data["player_stats"][0]["value"] == 1


def test_the_prompt_is_asked_again_until_nothing_unknown_is_read(cli, monkeypatch):
    """At a terminal the loop asks what one run needs, runs again, asks what the next run needs."""
    from flamer_ref import cli as cli_mod

    asked = []

    def answer(ms, as_json):
        asked.append([(m.piece, m.card, m.stat) for m in ms])
        return {(m.piece, m.stat): {"hp": 2, "atk": 1, "lv": 1}[m.stat] for m in ms}

    monkeypatch.setattr(cli_mod, "_ask_missing", answer)
    text = ok(cli("fight", "수문장 vs 개미 x2"))
    # 개미1 is hit first (the two are alike); then 개미2, unhurt, strikes first: its ATK (개미's) is needed
    assert asked == [[("개미1", "개미", "hp")], [("개미2", "개미", "atk")]], asked
    assert "직접 넣은 값 개미 HP 2, 개미 ATK 1(카드 데이터 아님)" in text


def test_the_prompt_asks_once_per_card_and_stat(monkeypatch, capsys):
    from flamer_ref import cli as cli_mod
    from flamer_ref.oneliner import Missing

    monkeypatch.setattr(sys.stdin, "isatty", lambda: True, raising=False)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    feed = iter(["3"])
    monkeypatch.setattr("builtins.input", lambda *a: next(feed))
    got = cli_mod._ask_missing([Missing("개미1", "개미", "lv", "개미", {"need": "tie", "level": 0,
                                                                     "what": "attack-target", "step": 4}),
                                Missing("개미2", "개미", "lv", "개미")], as_json=False)
    assert got == {("개미1", "lv"): 3, ("개미2", "lv"): 3}
    err = capsys.readouterr().err
    assert err.count("값을 입력하세요") == 1
    assert "개미의 Lv(레벨)이 카드 데이터에 없습니다 (4단계 공격 대상 판정에서 Lv을 비교해야 합니다)" in err


# ------------------------------------------------------------------- --stat ----
def test_stat_values_are_marked_as_the_players_everywhere(cli, tmp_path):
    argv = ["fight", "수문장 vs 개미 x2", "--stat", "개미 체력 2", "--stat", "개미 atk 1"]
    # the short answer at the table (issue 17): the verdict's 주의 line says where the rest is
    text = ok(cli(*argv))
    # … and says what was assumed (issue 28), so nothing is left for the full answer to tell
    said = ("주의: 직접 넣은 값 개미 HP 2, 개미 ATK 1(카드 데이터 아님) · 가정한 것 1건: 개미 1·개미 2는 똑같은 기물이라 "
            "적은 순서대로 봄(어느 쪽이든 결과는 같음)")
    assert text.splitlines()[2] == said
    text = ok(cli(*argv, "--full"))
    assert text.splitlines()[3] == said
    assert "  - 개미 HP 2: 직접 넣은 값 (기물 개미 1, 개미 2)" in text  # pieces by their cards, numbered
    assert "직접 넣은 값 개미 HP 2" in ok(cli(*argv, "--brief"))
    assert "직접 넣은 값 개미 HP 2" in ok(cli(*argv, "--format", "md"))
    assert "**직접 넣은 값**" in ok(cli(*argv, "--format", "md", "--full"))
    page = ok(cli(*argv, "--format", "html"))
    assert "HP 2* · ATK 1*" in page and "Lv 미상 · HP 2*" in page and "* 직접 넣은 값" in page
    brief = json.loads(ok(cli(*argv, "--brief", "--json")))
    assert brief["verdict"]["player_stats"] == [{"label": "개미", "stat": "hp", "value": 2},
                                               {"label": "개미", "stat": "atk", "value": 1}]
    saved = tmp_path / "s.yaml"
    ok(cli(*argv, "--save", str(saved)))
    head = saved.read_text("utf-8")
    assert "# 직접 넣은 값 — 카드 데이터에는 없는(미상) 수치를 플레이어가 넣은 것이며 카드 데이터가 아닙니다:" in head
    assert "#   개미 체력 2 (기물 개미1, 개미2)" in head
    sim = json.loads(ok(cli("simulate", str(saved), "--json")))
    fight = json.loads(ok(cli(*argv, "--json")))
    assert fight.pop("player_stats") and fight == sim  # the same fight, the values as the pieces' stats


def test_the_lines_own_value_wins_over_stat(cli):
    data = json.loads(ok(cli("fight", "수문장 vs 개미(hp1)", "--stat", "개미 hp 5", "--json")))
    assert data["pieces"]["개미"]["hp"] == 1 and "player_stats" not in data


@pytest.mark.parametrize("spec,needle", [
    ("수문장 hp 4", "수문장의 HP는 카드 데이터에 있습니다(3). --stat은 카드 데이터에 없는(미상) 수치만 채웁니다. "
                  "다른 값으로 풀어 보려면 전투 문장에 수문장(hp4)처럼 적으세요."),
    ("개미 hp 0", "HP 0은 쓸 수 없습니다 (HP는 1 이상 — 전투를 시작할 때의 HP)"),
    ("개미 lv -1", "Lv -1은 쓸 수 없습니다"),
    ("개미 속도 2", "'카드이름 스탯 값'으로 적으세요"),
    ("개미", "'카드이름 스탯 값'으로 적으세요"),
    ("갑사 hp 2", "이 전투에 '갑사'가 없습니다"),
    ("잠 hp 2", "맞는 카드가 여럿입니다"),
    ("없는카드 hp 2", "카드 데이터베이스에"),
    ("재부팅 hp 2", "'재부팅'은 특수카드라 기물의 수치가 없습니다"),
])
def test_bad_stat_options_are_korean_errors(cli, spec, needle):
    r = cli("fight", "수문장 vs 개미", "--stat", spec)
    assert r.exit_code == 1 and r.stdout == ""
    assert r.stderr.startswith("--stat #1") and needle in r.stderr, r.stderr
    assert "Traceback" not in r.stderr


def test_a_stat_given_twice(cli):
    r = cli("fight", "수문장 vs 개미", "--stat", "개미 hp 2", "--stat", "개미 체력 3")
    assert r.exit_code == 1 and "--stat #2: 개미의 HP를 --stat #1에서 2로 적었습니다" in r.stderr
    ok(cli("fight", "수문장 vs 개미", "--stat", "개미 hp 1", "--stat", "개미 hp 1"))  # the same value: fine


def test_a_stat_card_name_is_corrected_like_the_lines(cli):
    r = cli("fight", "수문장 vs 개미", "--stat", "개마 hp 1", "--json")
    data = json.loads(ok(r))
    assert "--stat #1의 '개마' → '개미'" in r.stderr and data["pieces"]["개미"]["hp"] == 1


# --------------------------------------------------------------- the engine ----
SCENARIO = """\
kind: combat
attacker: A
cells:
  "1,1":
    A: [{{id: g, card: 거신}}]
    B: [{pieces}]
response:
- {{side: B, effect: [{{buff: target, hp: {delta}}}], target: a2, cell: "1,1"}}
"""


def test_a_lowered_hp_needs_the_hp_it_lowers(cli, tmp_path):
    """A buff taking HP from a piece of unknown HP: whether it is captured depends on the HP (the engine
    took it as safe and went on). Issue 18 item 4: the answer is per range of that HP — at HP 1 the
    effect itself captures it (HP 0: 개미 불사 is not on the pages, a gap), from HP 2 on the hit does."""
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO.format(pieces="{id: a2, card: 개미, state: settled}", delta=-1), encoding="utf-8")
    data = json.loads(ok(cli("simulate", str(path), "--json")))
    assert data["kind"] == "by-value" and data["depends_on"]["why"] == {"need": "hp-lowered"}
    assert [(r["from"], r["to"]) for r in data["ranges"]] == [(1, 1), (2, None)]
    low, high = (r["result"] for r in data["ranges"])
    assert [u["reason"] for u in low["unresolved"]] and not high["unresolved"]
    assert next(e for e in low["events"] if e["type"] == "capture")["reason"] != \
        next(e for e in high["events"] if e["type"] == "capture")["reason"]
    text = ok(cli("simulate", str(path)))
    assert text.startswith("결론: 개미의 HP에 따라 판정이 2가지로 갈림")
    assert "개미의 HP가 1이면: " in text and "미해결 1건" in text.splitlines()[1]


def test_pieces_of_one_card_with_an_unknown_stat_are_told_apart_by_what_changed_it(cli, tmp_path):
    """Two settled 개미, HP unknown (개미's, the same for both), one of them +1 HP: not interchangeable —
    the one with more HP is the target (combat.tiebreak) whatever the HP is. The engine took them as
    interchangeable and hit the first listed."""
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO.format(pieces="{id: a1, card: 개미, state: settled}, {id: a2, card: 개미, state: settled}",
                                    delta=1), encoding="utf-8")
    data = json.loads(ok(cli("simulate", str(path), "--json")))
    hit = next(e for e in data["events"] if e["type"] == "attack")
    assert (hit["target"], hit["target_by"], hit["target_value"]) == ("a2", "hp", None)
    assert not any(a["choice"] == "tiebreak-interchangeable" for a in data["assumed"])
    assert "현재 HP가 가장 높음(미상)" in ok(cli("simulate", str(path)))  # never a number it does not know
    # a mobile one is hit: its HP is needed now, and only its
    path.write_text(SCENARIO.format(pieces="{id: a1, card: 개미}, {id: a2, card: 개미}", delta=1), encoding="utf-8")
    r = cli("simulate", str(path), "--json")
    assert r.exit_code == 1 and [p["key"] for p in json.loads(r.stdout)["problems"]] == ["a2.hp"]


# ------------------------------------------------------- a data file's error ----
def test_an_unreadable_data_file_keeps_its_name(cli, monkeypatch, tmp_path):
    """Review fix: with cards/effects.yaml unreadable, `fight` said '전투: 파일을 읽을 수 없습니다' — as if
    the line were the file. A problem of another file than the built scenario keeps its file."""
    from flamer_ref.engine import effects as effects_mod
    from flamer_ref.errors import DataError, Problem

    def unreadable(corpus):  # the first read of the corpus's effects (engine.effects.effects_of) fails
        raise DataError([Problem("cards/effects.yaml", None, None, "파일을 읽을 수 없습니다 (권한이 없습니다).")])

    monkeypatch.setattr(effects_mod, "effects_of", unreadable)
    for extra in ([], ["--save", str(tmp_path / "f.yaml")]):
        r = cli("fight", "거신 vs 별마대, 행성굴착기(정착)", *extra)
        assert r.exit_code == 1
        assert "cards/effects.yaml: 파일을 읽을 수 없습니다 (권한이 없습니다)." in r.stderr
        assert "전투: 파일을" not in r.stderr
    obj = json.loads(cli("fight", "거신 vs 별마대", "--json").stdout)
    assert obj["error"]["code"] == "data-error" and obj["problems"][0]["file"] == "cards/effects.yaml"


def test_relocate_rewrites_only_the_built_scenarios_problems():
    from flamer_ref import oneliner
    from flamer_ref.errors import BadInput, DataError, Problem

    fight = oneliner.Fight(doc={"cells": {"1,1": {"A": [{"id": "x", "name": "x"}]}}})
    mixed = DataError([Problem("f.yaml", 3, "cells.1,1.A[0].lv", "틀린 값입니다."),
                       Problem("cards/effects.yaml", 5, None, "읽을 수 없습니다.")])
    got = oneliner.relocate(mixed, fight, "f.yaml")
    assert isinstance(got, BadInput)
    assert got.message.splitlines() == ["기물 x: 틀린 값입니다.", "cards/effects.yaml 5행: 읽을 수 없습니다."]
