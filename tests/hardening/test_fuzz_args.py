"""Issue 20: the generator that found faults 3 and 9 — line separators in every text argument of every
command. YAML reads \\r, \\n, U+0085, U+2028 and U+2029 as line breaks; \\x0b and \\x0c are whitespace to
Python's str.split but not to YAML. One or two of them go at seeded places into one text argument (the
fight line, -r, -b, the --save name, a search query, card / rule / term / timing names, example and FAQ
ids) of a working command line, which then runs in-process (typer's CliRunner; sys.argv set as a shell
would set it, since fight writes it into the saved scenario's header).

For every case:
  (a) no traceback, no internal error ('내부 오류'), exit code 0, 1 or 2;
  (b) fight: the result JSON equals the result of the same command with each separator replaced by a
      space (the line's words are whitespace-separated), or the command is refused (exit 1): a separator
      never adds, removes or changes anything; with --save, `simulate` of the saved file gives that result too.

CASES seeded cases (FLAMER_FUZZ_SCALE multiplies them, as in tests/hardening/test_fuzz_scenarios.py)."""

from __future__ import annotations

import json
import os
import random

import inprocess
import pytest


SEPARATORS = ["\r", "\n", "\x85", "\u2028", "\u2029", "\x0b", "\x0c"]
SCALE = float(os.environ.get("FLAMER_FUZZ_SCALE", "1"))
FIGHT_CASES = max(1, int(140 * SCALE))
OTHER_CASES = max(1, int(120 * SCALE))

#: working fight command lines: (line, options); every text in them is mutated in turn
FIGHTS = [
    ("거신 vs 별마대, 행성굴착기(정착)", []),
    ("수문장 x2 vs 개미(lv1 hp2 atk1), 증폭기(정착 atk0)", ["-b", "공격자 피의장막"]),
    ("수문장(lv6), 별마대, 장인 vs 거신, 행성굴착기(정착), 증폭기(정착)", ["-r", "수비자 재부팅 행성굴착기"]),
    ("거신, 장인 vs 개미(정착 lv1 hp2 atk1)", ["-r", "수비자 진내폭격 비용 개미"]),
    ("DGM: 수문장 vs BGM: 개미(lv1 hp2 atk1)", []),
]
#: working lookups: the argument (index 1) is mutated
OTHERS = [
    ["search", "대응 스택"], ["search", "적 칸에 들어가면 더 못가나"], ["search", "ㄷㅇㅅㅌ"],
    ["card", "별마대"], ["card", "해상 기지"], ["rule", "combat.step7.sweep"], ["term", "확보"],
    ["timing", "진내폭격"], ["timing", "맞대응"], ["example", "ex.combat.scene5"],
    ["example", "ex.combat.scene5", "--scenario"], ["faq", "faq.combat.dice"],
]


def _insert(rng: random.Random, text: str) -> tuple[str, str]:
    """text with one or two separators at seeded places (start, end, inside a word, between words), and
    the same text with each separator a space."""
    hostile, plain = text, text
    for _ in range(rng.choice((1, 1, 2))):
        sep = rng.choice(SEPARATORS)
        at = rng.choice((0, len(hostile), rng.randrange(len(hostile) + 1)))
        hostile, plain = hostile[:at] + sep + hostile[at:], plain[:at] + " " + plain[at:]
    return hostile, plain


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory) -> str:
    return str(tmp_path_factory.mktemp("cache"))


@pytest.fixture
def invoke(cache_dir):
    def run(args: list[str]):
        r = inprocess.invoke(*args, cache=cache_dir, env={"FLAMER_DATA": None})
        assert r.exit_code in (0, 1, 2), (args, r.exit_code, r.stderr[-800:])
        assert r.exception is None or isinstance(r.exception, SystemExit), (args, repr(r.exception))
        assert "Traceback" not in r.stderr and "내부 오류" not in r.stderr + r.stdout, (args, r.stderr[-2000:])
        return r
    return run


def _spaced(text: str) -> str:
    for sep in SEPARATORS:
        text = text.replace(sep, " ")
    return text


def _result(r) -> dict:
    out = json.loads(r.stdout)
    out.pop("title", None)  # the line itself
    return out


@pytest.mark.parametrize("seed", range(FIGHT_CASES))
def test_separators_in_fight_arguments_change_nothing(invoke, tmp_path, seed):
    rng = random.Random(seed)
    line, options = FIGHTS[seed % len(FIGHTS)]
    texts = [line, *options[1::2], "저장.yaml"]  # the line, each option's value, the --save name
    which = rng.randrange(len(texts))
    hostile, plain = list(texts), list(texts)
    hostile[which], plain[which] = _insert(rng, texts[which])

    def command(t: list[str], folder: str) -> list[str]:
        opts = [x for k, v in zip(options[0::2], t[1:-1]) for x in (k, v)]
        (tmp_path / folder).mkdir(exist_ok=True)
        return ["fight", t[0], *opts, "--save", str(tmp_path / folder / t[-1]), "--json"]

    got = invoke(command(hostile, "h"))
    ref = invoke(command(plain, "p"))
    if got.exit_code != 0:
        assert got.exit_code == 1, (hostile[which], got.stderr)
        controls = [ch for ch in hostile[which] if ch not in ("\u2028", "\u2029") and ch in SEPARATORS]
        if controls and which < len(texts) - 1:  # a control character in the line or a declaration: said so
            assert "제어 문자" in got.stderr, got.stderr
        else:  # the same refusal as with spaces (a separator splitting a word, as a space does)
            assert ref.exit_code == 1 and _spaced(got.stderr) == _spaced(ref.stderr), (hostile[which], got.stderr)
        return
    assert ref.exit_code == 0, (plain, ref.stderr)
    assert _result(got) == _result(ref), (hostile[which], plain[which])
    saved = invoke(["simulate", str(tmp_path / "h" / hostile[-1]), "--json"])
    assert saved.exit_code == 0 and _result(saved) == _result(ref), hostile[which]


@pytest.mark.parametrize("seed", range(OTHER_CASES))
def test_separators_in_lookup_arguments_end_cleanly(invoke, seed):
    rng = random.Random(10_000 + seed)
    args = list(OTHERS[seed % len(OTHERS)])
    args[1], _ = _insert(rng, args[1])
    r = invoke(args + (["--json"] if rng.random() < 0.5 and "--scenario" not in args else []))
    if r.exit_code == 1:
        assert r.stderr.strip(), args
