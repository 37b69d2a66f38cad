"""Issue 25: faults of a hostile pass inside the documented limits.

7. A 36 KB game record (60 rounds, 300 cells, HP 998) reached 2.7 GB and a MemoryError; 500 empty
   rounds on a 100×100 board printed 129 MB of JSON: each round's combat could spend the whole
   scenario budget again and every event was kept. A game now has one budget for the whole record
   (engine/budget.py): combat rounds and the size of the result, stopping with a Korean error.
9. The one-liner's side separator and `--stat` were quadratic on runs of spaces.
19. Full-width digits were read as a date by `flamer rule` (６.２６ → 2026-06-26).
And: option values echoed whole in error messages; the per-range answer of an unknown stat re-solving a
big scenario eight times before naming the stat.

Every test bounds the work (rounds, bytes, resolutions, peak memory) or guards a hang with a generous
timeout; none asserts a wall-clock time.
"""

from __future__ import annotations

import json
import os
import random
import resource
import signal
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

import pytest
import yaml

from flamer_ref import corpus as corpus_mod
from flamer_ref import runner
from flamer_ref.engine.api import parse, run

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def corpus():
    return corpus_mod.load()


class Hang(Exception):
    pass


@contextmanager
def hang_guard(seconds: float):
    """Raise Hang past `seconds` (SIGALRM: Python code and the regex engine both check signals). Only
    catches a hang or a quadratic blow-up; the normal case is orders of magnitude faster."""
    def on_alarm(*_):
        raise Hang(f"still running after {seconds} s")

    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


#: `python -m flamer_ref` as its console script runs it, under an address-space cap, telling its own peak
#: memory (VmHWM of its own image) as it exits. wait4's ru_maxrss would not do: a child forked (or vforked)
#: from this worker starts with the worker's pages, and Linux carries that image's high-water mark over exec,
#: so the figure was the larger of the worker's peak and the command's.
MEASURED = r"""
import os, resource, sys
cap, report = int(sys.argv[1]), sys.argv[2]
resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
_exit = os._exit


def exit_telling_the_peak(code):
    with open("/proc/self/status", encoding="ascii") as fh:
        peak = next(line.split()[1] for line in fh if line.startswith("VmHWM:"))
    with open(report, "w", encoding="ascii") as fh:
        fh.write(peak)
    _exit(code)


os._exit = exit_telling_the_peak  # cli.main ends the process with os._exit(code)
sys.argv = [sys.argv[0], *sys.argv[3:]]
from flamer_ref.cli import main
main()
"""


def measured(args: list[str], stdin: bytes = b"", timeout: float = 120, mem_cap: int = 2_000_000_000):
    """`python -m flamer_ref ARGS` in its own process, its address space capped at `mem_cap` (a blow-up
    ends in a MemoryError instead of eating the machine): (exit code, stdout, stderr, its peak RSS in MB,
    from VmHWM as it exits). The timeout only catches a hang."""
    with tempfile.TemporaryFile() as inp, tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, \
            tempfile.TemporaryDirectory() as folder:
        inp.write(stdin)
        inp.seek(0)
        report = os.path.join(folder, "peak")
        proc = subprocess.Popen([sys.executable, "-c", MEASURED, str(mem_cap), report, *args], stdin=inp, stdout=out,
                                stderr=err, cwd=ROOT)
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            pytest.fail(f"flamer {' '.join(args)} still running after {timeout} s")
        out.seek(0)
        err.seek(0)
        with open(report, encoding="ascii") as fh:
            peak_kb = int(fh.read())
        return proc.returncode, out.read().decode("utf-8"), err.read().decode("utf-8"), peak_kb / 1024


def _strip_messages(obj):
    """A result without the Korean `message` keys the presentation layer adds (the budget bounds the
    engine's result; the words of its gaps come on top)."""
    if isinstance(obj, dict):
        return {k: _strip_messages(v) for k, v in obj.items() if k != "message"}
    if isinstance(obj, list):
        return [_strip_messages(v) for v in obj]
    return obj


def compact_size(obj) -> int:
    return len(json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))


# ----------------------------------------------------------- fault 7: game budget ----
def _piece(pid: str, lv: int, hp: int, atk: int, **kw) -> dict:
    return {"id": pid, "name": "병", "lv": lv, "hp": hp, "atk": atk, **kw}


def long_combat_game(rounds: int = 60, cells: int = 300, hp: int = 998, width: int = 20) -> dict:
    """The hostile pass's record: `cells` cells of one piece against one, HP `hp` + 1 against `hp`, ATK 1,
    and `rounds` empty rounds — every round's combat runs to the combat budget (five cells of 998
    rounds), then the next five cells the next round."""
    return {"kind": "game", "first_player": "A",
            "board": {"width": width, "height": -(-cells // width), "adjacency": "square8"},
            "cells": {f"{i % width},{i // width}": {"A": [_piece(f"a{i}", 3, hp + 1, 1)], "B": [_piece(f"b{i}", 2, hp, 1)]}
                      for i in range(cells)},
            "rounds": [{} for _ in range(rounds)]}


def empty_rounds_game(rounds: int = 500, side: int = 100) -> dict:
    """Two pieces far apart on a `side`×`side` board and `rounds` rounds of nothing: each round's move
    turn lists every cell of the board."""
    return {"kind": "game", "first_player": "A", "board": {"width": side, "height": side, "adjacency": "square8"},
            "cells": {"0,0": {"A": [_piece("a", 1, 1, 1)]}, f"{side - 1},{side - 1}": {"B": [_piece("b", 1, 1, 1)]}},
            "rounds": [{} for _ in range(rounds)]}


def seeded_game(seed: int, long: float = 0.004) -> dict:
    """A random record near the documented limits: up to 1,000 cells on a board of up to 100×100, up to
    500 rounds, one to three pieces a side, HP from 1 to 998 (a share `long` of the pieces: long combats),
    some settled or none,
    some cells held by one side, rounds that flip pieces in the 암막턴 (some gone by then: refused, not
    invalid)."""
    rng = random.Random(seed)
    side = rng.choice([40, 70, 100])
    settled = rng.choice([0, 0.2])  # settled pieces secure cells: VP, and a record that may end early
    n = rng.randint(200, 1000)
    spots = rng.sample(range(side * side), n)
    cells, ids = {}, {"A": [], "B": []}
    for i, spot in enumerate(spots):
        cell = {}
        for s in rng.choice([("A",), ("B",), ("A", "B"), ("A", "B")]):
            cell[s] = []
            for j in range(rng.randint(1, 3)):
                pid = f"{s.lower()}{i}-{j}"
                hp = rng.randint(500, 998) if rng.random() < long else rng.randint(1, 6)
                cell[s].append(_piece(pid, rng.randint(0, 5), hp, rng.randint(0, 3),
                                      **({"state": "settled"} if rng.random() < settled else {})))
                ids[s].append(pid)
        cells[f"{spot % side},{spot // side}"] = cell
    rounds = []
    for k in range(rng.randint(1, 500)):
        player = "AB"[k % 2]
        entry: dict = {}
        if rng.random() < 0.3:
            entry["blackout"] = [{"piece": rng.choice(ids[player]), "to": rng.choice(["settled", "mobile"])}
                                 for _ in range(rng.randint(1, 4))]
        rounds.append(entry)
    return {"kind": "game", "first_player": "A", "board": {"width": side, "height": side, "adjacency": "square8"},
            "cells": cells, "rounds": rounds}


def _as_yaml(doc: dict) -> bytes:
    return yaml.safe_dump(doc, allow_unicode=True, default_flow_style=None, width=200).encode("utf-8")


def _budget_or_result(code: int, out: str, err: str) -> dict:
    """The CLI's answer: a result (exit 0) within the size cap, or the budget's Korean error (exit 1,
    the --json error object with its code) — never an internal error."""
    from flamer_ref.engine.budget import MAX_GAME_RESULT_BYTES

    assert "내부 오류" not in err and "Traceback" not in err and "MemoryError" not in err, err[-2000:]
    data = json.loads(out)
    if code == 0:
        assert data["kind"] == "game"
        assert compact_size(_strip_messages(data)) <= MAX_GAME_RESULT_BYTES
    else:
        assert code == 1, (code, err[-2000:])
        assert data["error"]["code"] == "work-limit", data
        assert data["problems"][0]["key"].startswith("rounds[")
        assert "라운드" in err and data["problems"][0]["fix"], err
    return data


def test_long_combats_in_every_round_stop_at_the_record_budget(tmp_path):
    """The reproduction (a 36 KB file): before, 2.7 GB in 20 s and a MemoryError after 53 s."""
    text = _as_yaml(long_combat_game())
    assert len(text) < 40_000
    code, out, err, rss = measured(["simulate", "-", "--json"], text)
    data = _budget_or_result(code, out, err)
    assert code == 1 and data["error"]["code"] == "work-limit"
    assert rss < 300, rss


def test_five_hundred_empty_rounds_on_the_biggest_board_stay_bounded(tmp_path):
    """The reproduction: before, 129 MB of JSON."""
    code, out, err, rss = measured(["simulate", "-", "--json"], _as_yaml(empty_rounds_game()))
    _budget_or_result(code, out, err)
    assert len(out.encode("utf-8")) < 40_000_000
    assert rss < 300, rss


class _Spy:
    """The GameBudget of every replay (engine/game.py makes one per run), to read what it spent."""

    def __init__(self, monkeypatch):
        from flamer_ref.engine import budget as budget_mod, game

        self.made: list = []
        spy = self

        class Recording(budget_mod.GameBudget):
            def __init__(self, file):
                super().__init__(file)
                spy.made.append(self)

        monkeypatch.setattr(game, "GameBudget", Recording)


def _combat_rounds(res: dict) -> int:
    return sum(c["rounds"] for r in res["rounds"] for t in r["turns"] if t["turn"] == "combat"
               for c in t["result"]["cells"].values())


def _bounded(corpus, doc, monkeypatch) -> dict | None:
    """Replay `doc`: its result, or None when a budget stopped it — either way within the budgets."""
    from flamer_ref.engine.budget import MAX_GAME_COMBAT_ROUNDS, MAX_GAME_RESULT_BYTES
    from flamer_ref.errors import WorkLimit

    spy = _Spy(monkeypatch)
    with hang_guard(90):
        try:
            res = run(parse(doc, "g.yaml", corpus), corpus).to_json()
        except WorkLimit as exc:
            (problem,) = exc.problems
            budget = spy.made[-1]
            assert problem.code in ("game-budget-rounds", "game-budget-size") and exc.code == "work-limit"
            assert problem.params["round"] == budget.round and problem.key == f"rounds[{budget.round - 1}]"
            assert budget.combat_rounds <= MAX_GAME_COMBAT_ROUNDS + 1  # it stops at the first round past
            if problem.code == "game-budget-size":
                assert budget.size > MAX_GAME_RESULT_BYTES
                assert budget.size - problem.params["last_kb"] * 1000 <= MAX_GAME_RESULT_BYTES + 1000
            assert "라운드" in problem.message and problem.fix
            return None
    assert compact_size(res) <= MAX_GAME_RESULT_BYTES
    assert _combat_rounds(res) <= MAX_GAME_COMBAT_ROUNDS
    assert spy.made[-1].combat_rounds == _combat_rounds(res)
    return res


@pytest.mark.parametrize("seed", range(4))
def test_seeded_records_near_the_limits_end_within_the_budgets(corpus, monkeypatch, seed):
    _bounded(corpus, seeded_game(seed), monkeypatch)


@pytest.mark.parametrize("seed", range(2))
def test_seeded_records_of_long_combats_end_within_the_budgets(corpus, monkeypatch, seed):
    rng = random.Random(seed)
    doc = long_combat_game(rounds=rng.randint(2, 500), cells=rng.randint(20, 300), hp=rng.randint(300, 998))
    assert _bounded(corpus, doc, monkeypatch) is None  # each round's combat alone would be near the budget


def _contested(cells: int = 10, hp: int = 10 ** 6, rounds: int = 3) -> dict:
    """`cells` cells where neither side can fall (HP a million, ATK 1): each combat stops after two rounds
    (combat.step6.check: round-limit, projected), the cells stay contested and are fought again the next
    round — every round spends 2 × `cells` combat rounds."""
    return {"kind": "game", "first_player": "A", "board": {"width": 10, "height": 2, "adjacency": "square8"},
            "cells": {f"{i},0": {"A": [_piece(f"a{i}", 3, hp, 1)], "B": [_piece(f"b{i}", 2, hp, 1)]}
                      for i in range(cells)},
            "rounds": [{} for _ in range(rounds)]}


def test_the_combats_of_all_rounds_share_one_budget(corpus, monkeypatch):
    from flamer_ref.engine import budget as budget_mod
    from flamer_ref.errors import WorkLimit

    doc = _contested()
    monkeypatch.setattr(budget_mod, "MAX_GAME_COMBAT_ROUNDS", 60)
    res = run(parse(doc, "g.yaml", corpus), corpus).to_json()
    per_round = [sum(c["rounds"] for t in r["turns"] if t["turn"] == "combat" for c in t["result"]["cells"].values())
                 for r in res["rounds"]]
    assert per_round == [20, 20, 20]
    # each round alone is far inside 50; the record is not
    monkeypatch.setattr(budget_mod, "MAX_GAME_COMBAT_ROUNDS", 50)
    with pytest.raises(WorkLimit) as exc:
        run(parse(doc, "g.yaml", corpus), corpus)
    assert exc.value.problems[0].code == "game-budget-rounds"
    assert exc.value.problems[0].params == {"round": 3, "cell": "5,0", "limit": 50}


def test_the_rounds_kept_share_one_size_budget(corpus, monkeypatch):
    from flamer_ref.engine import budget as budget_mod
    from flamer_ref.errors import WorkLimit

    doc = yaml.safe_load((ROOT / "scenarios" / "game-four-rounds.yaml").read_text(encoding="utf-8"))
    res = run(parse(doc, "g.yaml", corpus), corpus).to_json()
    sizes = [compact_size(r) for r in res["rounds"]]
    assert len(sizes) == 4
    monkeypatch.setattr(budget_mod, "MAX_GAME_RESULT_BYTES", sizes[0] + sizes[1] + sizes[2] // 2)
    with pytest.raises(WorkLimit) as exc:
        run(parse(doc, "g.yaml", corpus), corpus)
    (problem,) = exc.value.problems
    assert problem.code == "game-budget-size" and problem.params["round"] == 3
    assert "3라운드까지" in problem.message and "앞의 2라운드는 한 파일로" in problem.fix


def test_the_budget_error_is_said_in_korean():
    from inprocess import clean_error, invoke

    r = invoke("simulate", "-", input=_as_yaml(long_combat_game(rounds=3, cells=12)).decode("utf-8"))
    clean_error(r, "1라운드의 전투", "5,000회차", "고치는 법")
    r = invoke("simulate", "-", "--json", input=_as_yaml(long_combat_game(rounds=3, cells=12)).decode("utf-8"))
    assert r.exit_code == 1 and json.loads(r.stdout)["error"]["code"] == "work-limit"


def test_all_branches_of_a_big_record_replay_it_within_a_budget(corpus, monkeypatch):
    """--all-branches replays the whole record once per combat order (up to 24): near the size budget that
    was 24 records of 8 MB (61 s, 940 MB). The replays now share MAX_GAME_BRANCH_BYTES."""
    doc = _contested(cells=3, hp=2, rounds=2)
    scn = parse(doc, "g.yaml", corpus)
    whole = runner.game_branches(scn, corpus, None)
    assert whole["orders_tried"] == 6 and "note" not in whole
    one = runner._json_size(runner.result_json(scn, corpus))
    monkeypatch.setattr(runner, "MAX_GAME_BRANCH_BYTES", int(one * 2.5))
    cut = runner.game_branches(scn, corpus, None)
    assert cut["orders_tried"] == 1 and cut["note"] == "capped" and cut["orders_total"] == 6
    assert cut["branches"][0]["outcome"] == whole["branches"][0]["outcome"]


# ----------------------------------------------------- fault 9: linear one-line parsing ----
import re  # noqa: E402

from flamer_ref import oneliner  # noqa: E402
from flamer_ref.errors import BadInput, FlamerError  # noqa: E402

#: the separator and the --stat pattern as they were (quadratic on runs of whitespace): the reference the
#: linear ones must agree with on every line short enough for them
OLD_SEP = re.compile(r"\s+(?:vs\.?|VS\.?|Vs\.?|대)\s+|\s*(?<![A-Za-z])vs\.?(?![A-Za-z])\s*", re.IGNORECASE)
OLD_STAT_SPEC = re.compile(r"^(?P<name>.+?)\s+(?P<word>lv|level|레벨|hp|체력|atk|공격력|공격|cost|비용|코스트)\s*[:=]?\s*"
                           r"(?P<value>[-−]?\d+)$", re.IGNORECASE | re.DOTALL)

N = 40_000
SPACES = {"space": " ", "tab": "\t", "nbsp": "\u00a0", "ideographic": "\u3000", "em": "\u2003", "newline": "\n"}
PATHOLOGICAL_LINES = {
    **{f"{k}-run": "가" + v * N + "x" for k, v in SPACES.items()},
    **{f"{k}-run-in-parens": "거신(" + v * N + ") vs 별마대" for k, v in SPACES.items()},
    "run-before-count": "거신 x" + " " * N + "2 vs 별마대",
    "run-before-vs": "거신" + " " * N + "vs 별마대",
    "run-after-vs": "거신 vs" + " " * N + "별마대",
    "v-run": "가 " + "v" * N + " 나",
    "vs-glued": "가" + "vs" * (N // 2),
    "vs-dots": "가 " + "vs." * (N // 3),
    "dae-run": "가 " + "대 " * (N // 2) + "나",
    "dae-glued": "가 " + "대" * N + " 나",
    "spaces-and-v": "가" + " v" * (N // 2),
}


def _split(pattern, line: str):
    line = line.strip()
    parts = pattern.split(line, maxsplit=1) if line else []
    if len(parts) != 2 or not parts[0].strip() or not parts[1].strip():
        return "no-sides"
    if pattern.search(parts[1]):
        return "twice"
    return parts[0].strip(), parts[1].strip()


@pytest.mark.parametrize("name", sorted(PATHOLOGICAL_LINES))
def test_the_side_separator_takes_linear_time(name):
    """40,000 spaces took 1.8–114 s (each position of the run scanned the rest of it); now the scan is linear."""
    with hang_guard(5):
        try:
            oneliner.split_sides(PATHOLOGICAL_LINES[name])
        except BadInput:
            pass


STAT_TEXTS = ["개미" + " " * N + "hp", "개미 hp" + " " * N + "x", "개미 hp" + " " * N + ":" + " " * N + "x",
              "개미 " + "a " * (N // 2) + "hp", "개미 " + "hp " * (N // 3) + "x", "개미" + "\u3000" * N + "hp 2",
              "개미 hp" + "\t" * N + "2"]


@pytest.mark.parametrize("text", STAT_TEXTS, ids=range(len(STAT_TEXTS)))
def test_stat_values_take_linear_time(text):
    with hang_guard(5):
        try:
            oneliner.parse_stat(text, "--stat #1")
        except BadInput:
            pass


def test_a_declaration_of_many_words_takes_linear_time(corpus):
    """`--response "수비자 a a a …"` tried every run of words as a card name (20,000 joins of up to 40,000 characters)."""
    with hang_guard(5):
        with pytest.raises(FlamerError):
            oneliner.parse_declaration(corpus, "수비자 " + "a " * (N // 2), ("DGM", "BGM"), [], "2,2", "--response #1", [])
        with pytest.raises(FlamerError):
            oneliner.parse_declaration(corpus, "수비자 재부팅 " + "a " * (N // 2), ("DGM", "BGM"), [], "2,2",
                                       "--response #1", [])


def _random_line(rng: random.Random) -> str:
    pieces = ["거신", "별마대", "수문장", "개미", "a", "ab", "v", "s", "vs", "VS", "Vs", "vS", "vs.", "V.", "대", "대대",
              "x2", "(정착)", "hp", "lv3", ".", ",", ":", "DGM:", "ſ", "K"]
    return "".join(rng.choice(pieces) + rng.choice(["", " ", "  ", "\t", "\u3000", "\u00a0", " \n "])
                   for _ in range(rng.randint(1, 8)))


def test_the_linear_separator_splits_every_line_as_before():
    rng = random.Random(25)
    for _ in range(20_000):
        line = _random_line(rng)
        assert _split(oneliner._SEP, line) == _split(OLD_SEP, line), repr(line)
    for line in ["거신 vs 별마대", "거신 VS. 별마대, 행성굴착기(정착)", "거신 대 별마대", "거신vs별마대", "DGM: 거신 vs BGM: 별마대",
                 "수문장x2 vs 개미(lv1 hp2)", "거신 vs. 별마대"]:
        assert _split(oneliner._SEP, line) == _split(OLD_SEP, line) != "no-sides", line


def test_the_linear_stat_pattern_reads_every_value_as_before():
    rng = random.Random(26)
    words = ["개미", "32대", "라루나피", "hp", "HP", "lv", "체력", "공격", "공격력", "cost", ":", "=", "2", "-1", "−3", "x",
             "레벨", "a"]
    for _ in range(20_000):
        text = "".join(rng.choice(words) + rng.choice(["", " ", "  ", "\t", "\u3000"]) for _ in range(rng.randint(1, 7)))
        old, new = OLD_STAT_SPEC.match(text.strip()), oneliner._STAT_SPEC.match(text.strip())
        assert (old and old.groupdict()) == (new and new.groupdict()), repr(text)


def test_a_fight_line_of_forty_thousand_spaces_is_a_korean_error():
    from inprocess import clean_error, invoke

    with hang_guard(30):
        clean_error(invoke("fight", "가" + " " * N + "x"), "공격자 기물 vs 수비자 기물")
        clean_error(invoke("fight", "거신 vs 별마대", "--stat", "개미" + " " * N + "hp"), "--stat #1")


# ----------------------------------------------- fault 19: digits typed by a Korean IME ----
import flamer_fork  # noqa: E402 (tests/flamer_fork.py)
from inprocess import clean_error, invoke  # noqa: E402


def _fw(text: str) -> str:
    """`text` as a Korean IME types it in full-width mode: ASCII digits, letters and punctuation → U+FF01–FF5E."""
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text)


def _script(text: str, zero: int) -> str:
    """The ASCII digits of `text` in another script whose digit zero is `zero` (U+0660 Arabic-Indic, …)."""
    return "".join(chr(zero + int(c)) if c.isascii() and c.isdigit() else c for c in text)


SCRIPTS = {"full-width": lambda t: _fw(t), "full-width-digits": lambda t: _script(t, 0xFF10),
           "arabic-indic": lambda t: _script(t, 0x0660), "persian": lambda t: _script(t, 0x06F0),
           "devanagari": lambda t: _script(t, 0x0966), "bengali": lambda t: _script(t, 0x09E6)}


def _same(ascii_args: list[str], typed_args: list[str]) -> None:
    a, b = invoke(*ascii_args), invoke(*typed_args)
    assert a.exit_code == 0, (ascii_args, a.stderr)
    assert (b.exit_code, b.stdout) == (a.exit_code, a.stdout), (typed_args, b.stderr[-500:])


@pytest.mark.parametrize("script", sorted(SCRIPTS))
@pytest.mark.parametrize("number", ["6.26", "1.10.1", "6.14-1", "해석 6.14-1"])
def test_a_rule_number_in_any_digits_is_that_clause(script, number):
    """`flamer rule ６.２６` said "2026-06-26의 판정이 없습니다": the date reader took Unicode digits, the number
    reader ASCII only. Both now read the digits a person types as ASCII digits."""
    typed = SCRIPTS[script](number) if not number.startswith("해석") else "해석 " + SCRIPTS[script](number[3:])
    _same(["rule", number, "--json"], ["rule", typed, "--json"])


@pytest.mark.parametrize("script", sorted(SCRIPTS))
@pytest.mark.parametrize("day", ["2026-09-20", "9/20", "9월 20일", "2026년 9월 20일", "09-20"])
def test_a_ruling_date_in_any_digits_is_that_day(script, day):
    _same(["rule", day, "--json"], ["rule", SCRIPTS[script](day), "--json"])


@pytest.mark.parametrize("typed", ["⁶.²⁶", "①.②", "６。２６", "6.2６x"])
def test_digits_that_are_no_decimal_digits_are_refused_not_read_as_a_date(typed):
    r = invoke("rule", typed)
    clean_error(r)
    assert "판정이 없습니다" not in r.stderr and "2026-" not in r.stderr, r.stderr


@pytest.mark.parametrize("script", ["full-width", "arabic-indic"])
def test_dates_of_options_in_any_digits(script):
    f = SCRIPTS[script]
    _same(["rulings", "--since", "2026-09-19", "--until", "9/24", "--json"],
          ["rulings", "--since", f("2026-09-19"), "--until", f("9/24"), "--json"])
    _same(["rule", "6.26", "--as-of", "2026-09-23", "--json"], ["rule", "6.26", "--as-of", f("2026-09-23"), "--json"])
    _same(["simulate", "scenarios/two-cells.yaml", "--json", "--as-of", "2026-09-23", "--compare", "9/24"],
          ["simulate", "scenarios/two-cells.yaml", "--json", "--as-of", f("2026-09-23"), "--compare", f("9/24")])


@pytest.mark.parametrize("script", ["full-width", "full-width-digits", "arabic-indic"])
def test_fight_numbers_in_any_digits(script):
    f = SCRIPTS[script]
    line = "수문장(hp2) vs 개미(lv1 hp2 atk1) x2"
    _same(["fight", line, "--cell", "2,4", "--json"], ["fight", f(line) if script != "full-width" else
                                                       "수문장（ｈｐ２） vs 개미（ｌｖ１ ｈｐ２ ａｔｋ１） ｘ２",
                                                       "--cell", f("2,4"), "--json"])
    _same(["fight", "거신 vs 개미(lv1 atk1)", "--stat", "개미 hp 3", "--as-of", "2026-09-23", "--json"],
          ["fight", "거신 vs 개미(lv1 atk1)", "--stat", "개미 hp " + f("3"), "--as-of", f("2026-09-23"), "--json"])


@pytest.mark.parametrize("script", ["full-width", "arabic-indic"])
def test_search_numbers_and_dates_in_any_digits(script):
    """The same results (the answer's `query` repeats what was typed)."""
    f = SCRIPTS[script]
    for ascii_args, typed_args in ((["search", "6.26", "--json", "--limit", "2"], ["search", f("6.26"), "--json", "--limit", f("2")]),
                                   (["search", "9월 24일", "--json", "-n", "3"], ["search", f("9월 24일"), "--json", "-n", f("3")])):
        a, b = flamer_fork.run(*ascii_args), flamer_fork.run(*typed_args)  # the search index from the cache
        assert a.returncode == b.returncode == 0, b.stderr
        a, b = json.loads(a.stdout), json.loads(b.stdout)
        assert b.pop("query") == typed_args[1] and a.pop("query") == ascii_args[1]
        assert a == b and a["results"], typed_args


def test_an_example_number_that_is_no_digit_is_refused_in_korean():
    clean_error(invoke("example", "ex.combat.scene5#²", "--scenario"), "ex.combat.scene5")
    _same(["example", "ex.combat.scene5#1", "--scenario", "--json"],
          ["example", "ex.combat.scene5#" + _fw("1"), "--scenario", "--json"])


# ------------------------------------------- option values echoed whole in error messages ----
LONG = "가" * 40_000
ECHOES = {
    "fight --cell": ["fight", "거신 vs 별마대", "--cell", LONG],
    "fight --as-of": ["fight", "거신 vs 별마대", "--as-of", LONG],
    "fight --compare": ["fight", "거신 vs 별마대", "--compare", LONG],
    "fight --stat": ["fight", "거신 vs 별마대", "--stat", LONG],
    "fight --stat name": ["fight", "거신 vs 별마대", "--stat", LONG + " hp 2"],
    "fight --response": ["fight", "거신 vs 별마대", "--response", LONG],
    "fight --response card": ["fight", "거신 vs 별마대", "--response", "수비자 " + LONG],
    "fight --response target": ["fight", "거신 vs 행성굴착기(정착)", "--response", "수비자 재부팅 " + LONG],
    "fight --battle": ["fight", "거신 vs 별마대", "--battle", LONG],
    "fight --format": ["fight", "거신 vs 별마대", "--format", LONG],
    "fight line": ["fight", LONG + " vs 별마대"],
    "fight line modifier": ["fight", "거신(" + LONG + ") vs 별마대"],
    "search --as-of": ["search", "x", "--as-of", LONG],
    "search --limit": ["search", "x", "--limit", LONG],
    "rule --as-of": ["rule", "6.26", "--as-of", LONG],
    "rulings --since": ["rulings", "--since", LONG],
    "rulings --until": ["rulings", "--until", LONG],
    "faq --format": ["faq", "--format", LONG],
    "faq --as-of": ["faq", "--as-of", LONG],
    "simulate --as-of": ["simulate", "scenarios/two-cells.yaml", "--as-of", LONG],
    "simulate --compare": ["simulate", "scenarios/two-cells.yaml", "--compare", LONG],
    "simulate --format": ["simulate", "scenarios/two-cells.yaml", "--format", LONG],
    "simulate file": ["simulate", LONG],
    "book --format": ["book", "--format", LONG],
    "book --as-of": ["book", "--as-of", LONG],
    "site --as-of": ["site", "/nonexistent-folder/x", "--as-of", LONG],
    "site --serve": ["site", "/nonexistent-folder/y", "--serve", LONG],
    "scenario new": ["scenario", "new", LONG],
    "validate --data": ["validate", "--data", LONG],
    "unknown option": ["search", "x", "--" + "x" * 40_000],
    "unknown command": [LONG],
    "extra argument": ["examples", LONG],
}


@pytest.mark.parametrize("name", sorted(ECHOES))
def test_a_long_value_is_echoed_cut(name):
    """A 40,000-character value was repeated whole by the error of about 13 commands; the messages now show
    at most its first korean.ECHO_MAX characters (a path: its start and end), as they already did for
    arguments."""
    args = ECHOES[name]
    r = flamer_fork.run(*args, timeout=60)
    assert r.returncode in (1, 2), (r.returncode, r.stderr[-300:])
    assert "Traceback" not in r.stderr and "내부 오류" not in r.stderr, r.stderr[-500:]
    assert len(r.stderr) < 1500 and len(r.stdout) < 3000, (len(r.stderr), r.stderr[:300])


# -------------------------------------- the per-range answer of an unknown stat: no wasted runs ----
def _old_by_value(scn, corpus, file, as_of, exc):
    """runner.by_value as it was (the reference the faster one must answer exactly as): every run worded,
    the number of verdicts looked at only after all the runs."""
    from flamer_ref.engine.combat import STAT_KO
    from flamer_ref.engine.probe import PROBE, Probe, Untracked, unknown_key
    from flamer_ref.engine.types import STAT_MIN
    from flamer_ref.render import word_result

    needs = {(unknown_key(p.params.get("card"), p.params["piece"]), p.params["stat"]) for p in exc.problems}
    if len(needs) != 1:
        return None
    (key, stat), = needs
    first = exc.problems[0].params
    ranges: list[dict] = []
    x = STAT_MIN[stat]
    for _ in range(runner.BY_VALUE_RUNS):
        probe = Probe(key, stat, x, lo=x)
        token = PROBE.set(probe)
        try:
            res = runner.run(scn, corpus, as_of)
        except (Untracked, FlamerError):
            return None
        finally:
            PROBE.reset(token)
        lo, hi = x, probe.hi
        shown = word_result(runner._plain(res.to_json()))
        k = runner._verdict_key(shown)
        if ranges and ranges[-1]["_key"] == k:
            ranges[-1]["to"] = hi
        else:
            ranges.append({"_key": k, "from": lo, "to": hi, "value": x, "result": shown})
        if hi is None:
            break
        x = hi + 1
    else:
        return None
    if len(ranges) > runner.BY_VALUE_RANGES:
        return None
    return {"kind": "by-value", "file": file, "as_of": ranges[0]["result"].get("as_of"),
            "depends_on": {"piece": first["piece"], "card": first.get("card"), "label": first["label"], "stat": stat,
                           "stat_name": STAT_KO[stat], "least": STAT_MIN[stat], "why": first.get("why")},
            "ranges": [{k: v for k, v in r.items() if k != "_key"} for r in ranges]}


def _unknown_hp_cells(n: int, vary: bool) -> dict:
    """`n` cells of 수문장 against a 개미 whose HP the data leaves unknown (lv 1, atk 1): with `vary`, 수문장's HP
    differs from cell to cell (1–12), so every HP of 개미 gives another verdict."""
    return {"kind": "combat", "attacker": "DGM", "cells": {
        f"{i % 40},{i // 40}": {"DGM": [{"id": f"g{i}", "card": "수문장", **({"hp": 1 + i % 12} if vary else {})}],
                                "BGM": [{"id": f"a{i}", "card": "개미", "lv": 1, "atk": 1}]} for i in range(n)}}


def _runs(monkeypatch) -> list:
    seen: list = []
    real = runner.run

    def spy(*a, **kw):
        seen.append(1)
        return real(*a, **kw)

    monkeypatch.setattr(runner, "run", spy)
    return seen


def test_an_unknown_with_many_verdicts_is_named_after_the_fourth_run(corpus, monkeypatch):
    """1,000 cells where each HP of 개미 gives another verdict: the scenario was resolved 1 + 8 times (5.7 s)
    before the stat was named, because the verdicts were counted only after all eight runs. The fourth
    verdict decides it: 1 + 4 runs, the same error."""
    doc = _unknown_hp_cells(120, vary=True)
    scn = parse(doc, "t.yaml", corpus)
    runs = _runs(monkeypatch)
    with pytest.raises(FlamerError) as new:
        runner.answer(scn, corpus, file="t.yaml")
    assert len(runs) == 1 + runner.BY_VALUE_RANGES + 1
    assert runner.is_need(new.value) and new.value.problems[0].params["stat"] == "hp"
    runs.clear()
    with pytest.raises(FlamerError) as plain:
        runner.run(scn, corpus)
    assert plain.value.message == new.value.message
    exc = plain.value
    runs.clear()
    assert _old_by_value(scn, corpus, "t.yaml", None, exc) is None
    assert len(runs) == runner.BY_VALUE_RUNS  # what it cost before


@pytest.mark.parametrize("doc", [_unknown_hp_cells(40, vary=False), _unknown_hp_cells(3, vary=True),
                                 _unknown_hp_cells(1, vary=True)], ids=["same", "three", "one"])
def test_the_per_range_answer_is_as_before(corpus, doc):
    from flamer_ref.errors import DataError

    scn = parse(doc, "t.yaml", corpus)
    with pytest.raises(DataError) as exc:
        runner.run(scn, corpus)
    old = _old_by_value(scn, corpus, "t.yaml", None, exc.value)
    new = runner.by_value(scn, corpus, "t.yaml", None, exc.value)
    assert new == old and (old is None or old["ranges"])


def test_seeded_unknowns_are_answered_as_before(corpus):
    """The per-range answers of test_by_value.py's seeded combats, and a round and a game: the same with the
    runs worded only for the ranges shown."""
    import importlib.util

    from flamer_ref.errors import DataError

    # its cases, read from tests/scenarios/test_by_value.py (another folder: not on this file's import path)
    spec = importlib.util.spec_from_file_location(
        "by_value_cases", Path(__file__).resolve().parents[1] / "scenarios" / "test_by_value.py")
    tbv = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tbv)

    docs = [tbv.ROUND, tbv.GAME] + [doc for doc, _stat, _exp in tbv.CASES.values()]
    rng = random.Random(7)
    for _ in range(30):
        k = rng.randint(1, 3)
        docs.append({"kind": "combat", "as_of": "2026-10-01", "attacker": rng.choice(["DGM", "BGM"]), "cells": {"2,2": {
            "DGM": [{"id": f"g{j}", "card": "수문장", "hp": rng.randint(1, 6)} for j in range(k)],
            "BGM": [{"id": "ant", "card": "개미", "lv": rng.randint(0, 4), "atk": rng.randint(0, 3)}]}}})
    answered = 0
    for doc in docs:
        scn = parse(doc, "t.yaml", corpus)
        try:
            runner.run(scn, corpus)
            continue
        except DataError as exc:
            err = exc
        old = _old_by_value(scn, corpus, "t.yaml", None, err)
        assert runner.by_value(scn, corpus, "t.yaml", None, err) == old
        answered += old is not None
    assert answered >= 10


def test_a_game_page_draws_its_pictures_within_a_budget():
    """A game's HTML page drew two board pictures a round (a 100×100 board: 10,000 cells each; 10 empty rounds
    took 45 s and 34 MB). It now draws whole rounds while the pictures stay within 20,000 board cells and says
    from which round on it only tells; a record that ends before any move turn still has its page."""
    r = invoke("simulate", "-", "--format", "html", input=_as_yaml(empty_rounds_game(rounds=8, side=40)).decode("utf-8"))
    assert r.exit_code == 0, r.stderr
    sections = r.stdout.split('<section id="r')[1:]
    drawn = [s.count("<svg") for s in sections]
    assert drawn[:6] == [2] * 6 and drawn[6:] == [0, 0], drawn  # 1,600 cells × 2 a round: six rounds fit
    assert "7라운드부터는 그림 없이 글로만 풉니다" in sections[6] and "(보드 하나가 1,600칸)" in sections[6]
    won = {"kind": "game", "first_player": "A",
           "board": {"width": 5, "height": 5, "adjacency": "square8", "homes": {"B": ["4,4", "4,3"], "A": ["0,0", "0,1"]}},
           "cells": {"4,4": {"A": [_piece("a", 1, 1, 1)]}, "2,2": {"B": [_piece("b", 1, 1, 1)]}}, "rounds": [{}, {}]}
    r = invoke("simulate", "-", "--format", "html", input=_as_yaml(won).decode("utf-8"))
    assert r.exit_code == 0 and r.stdout.count("<svg") == 1, r.stderr  # the victory check's board
