"""Issue 17 item 7: option values in Korean wherever the English ones work, and Korean metavars in
every command's --help (파일, 폴더, 날짜, 종류 … instead of FILE, DIR, YYYY-MM-DD, <값>).

In-process (typer's CliRunner): the help of every command in the tree, and for every option that takes a
value from a fixed list, each Korean value gives the same answer (output and exit code) as its English one.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

import inprocess
import pytest
from typer.main import get_command

from flamer_ref.cli import app

ROOT = Path(__file__).resolve().parent.parent.parent

#: ASCII a metavar may hold: what the user types literally (the fight line's "vs")
LITERAL = re.compile(r"\bvs\b")


def _paths() -> list[tuple[tuple[str, ...], object]]:
    out = []

    def walk(cmd, path):
        out.append((path, cmd))
        for name, sub in sorted(getattr(cmd, "commands", {}).items()):
            if not getattr(sub, "hidden", False):
                walk(sub, path + (name,))

    walk(get_command(app), ())
    return out


PATHS = _paths()


@pytest.fixture
def invoke(tmp_path):
    return functools.partial(inprocess.invoke, cache=tmp_path, env={"FLAMER_DATA": None, "COLUMNS": "200"})


def _metavar(param, ctx) -> str:
    try:
        return param.make_metavar(ctx)
    except TypeError:  # click before 8.2: no ctx
        return param.make_metavar()


@pytest.mark.parametrize("path,cmd", PATHS, ids=lambda p: " ".join(p) if isinstance(p, tuple) else "")
def test_every_metavar_is_korean(path, cmd, invoke):
    """No parameter of any command shows an ASCII metavar (FILE, DIR, YYYY-MM-DD, text|md|html, x,y, [ID])
    or typer's placeholder (<값>, <정수>): the words the player reads are Korean."""
    import typer._click as click

    ctx = click.Context(cmd, info_name="flamer")
    seen = 0
    for param in cmd.params:
        if getattr(param, "is_flag", False) or getattr(param, "hidden", False) or param.name in ("help",):
            continue
        if param.name in ("install_completion", "show_completion"):
            continue  # takes a shell's name (bash, zsh …), which is typed as it is
        mv = _metavar(param, ctx)
        seen += 1
        assert not re.search(r"[A-Za-z]", LITERAL.sub("", mv)), (path, param.name, mv)
        assert not re.search(r"<[^>]*>", mv), (path, param.name, mv)  # typer's <값>, <정수>
    # and what --help prints: the metavars as above, no English placeholder anywhere
    p = invoke(*path, "--help")
    assert p.exit_code == 0, p.output
    for bad in ("FILE", "DIR", "YYYY-MM-DD", "<값>", "<정수>", "[ID]", "text|md", "html|pdf", "번호|ID"):
        assert bad not in p.output, (path, bad, p.output)
    if path in (("simulate",), ("site",), ("book",), ("faq",), ("search",), ("cards",)):
        assert seen >= 1


def test_help_shows_the_korean_metavars(invoke):
    """The words that replaced the English placeholders, where a person reads them."""
    want = {
        ("simulate",): ["{파일}", "--as-of 날짜", "--format 형식", "--compare 날짜"],
        ("site",): ["{폴더}", "--as-of 날짜"],
        ("book",): ["-o, --output 파일", "--format 형식", "--as-of 날짜"],
        ("faq",): ["[번호|낱말]", "-o, --output 파일", "--format 형식"],
        ("example",): ["[예시]"],
        ("rule",): ["{조항}", "--as-of 날짜"],
        ("rulings",): ["--since 날짜", "--until 날짜"],
        ("validate",): ["--data 폴더"],
        ("search",): ["-k, --kind 종류", "-n, --limit 개수", "--as-of 날짜"],
        ("cards",): ["-f, --faction 진영", "-g, --grade 등급", "-t, --timing 타이밍", "--type 종류",
                     "대광명연방(DGM)", "특수카드(special)"],
        ("fight",): ["--cell 셀", "--format 형식", "--as-of 날짜", "--compare 날짜"],
    }
    for path, words in want.items():
        out = invoke(*path, "--help").output
        for w in words:
            assert w in out, (path, w, out)


# ------------------------------------------------------- Korean values ----
SCENARIO = str(ROOT / "scenarios" / "combat-scene5.yaml")

#: (English form, Korean forms): each Korean one must answer exactly as the English one
SAME = [
    (("cards", "--type", "special"), [("cards", "--type", "특수카드"), ("cards", "--type", "특수 카드"),
                                      ("cards", "--type", "특수")]),
    (("cards", "--type", "piece"), [("cards", "--type", "기물카드"), ("cards", "--type", "기물 카드"),
                                    ("cards", "--type", "기물")]),
    (("cards", "--type", "special", "--json"), [("cards", "--type", "특수카드", "--json")]),
    (("cards", "--faction", "DGM"), [("cards", "--faction", "대광명연방")]),
    (("cards", "--faction", "BGM", "--json"), [("cards", "--faction", "밤결무리", "--json")]),
    (("cards", "-t", "(대응)"), [("cards", "-t", "대응")]),
    (("search", "정착", "-k", "clause"), [("search", "정착", "-k", "조항")]),
    (("search", "대응", "-k", "ruling"), [("search", "대응", "-k", "판정")]),
    (("search", "대응", "-k", "faq"), [("search", "대응", "-k", "질문")]),
    (("search", "전투", "-k", "example"), [("search", "전투", "-k", "예시")]),
    (("search", "개미", "-k", "card", "--json"), [("search", "개미", "-k", "카드", "--json")]),
    (("search", "확보", "-k", "term"), [("search", "확보", "-k", "용어")]),
    (("faq", "--format", "md"), [("faq", "--format", "마크다운")]),
    (("faq",), [("faq", "--format", "텍스트")]),
    (("simulate", SCENARIO, "--format", "md"), [("simulate", SCENARIO, "--format", "마크다운")]),
    (("simulate", SCENARIO, "--format", "text"), [("simulate", SCENARIO, "--format", "텍스트")]),
    (("fight", "수문장 vs 개미(lv1 hp2 atk1)", "--format", "md"),
     [("fight", "수문장 vs 개미(lv1 hp2 atk1)", "--format", "마크다운")]),
    (("fight", "수문장 vs 개미", "--stat", "개미 hp 2", "--stat", "개미 atk 1", "--json"),
     [("fight", "수문장 vs 개미", "--stat", "개미 체력 2", "--stat", "개미 공격력 1", "--json")]),
    (("scenario", "new", "combat"), [("scenario", "new", "전투")]),
    (("scenario", "new", "move"), [("scenario", "new", "이동")]),
    (("scenario", "new", "victory"), [("scenario", "new", "승리확인")]),
    (("scenario", "new", "field"), [("scenario", "new", "필드")]),
    (("scenario", "new", "round"), [("scenario", "new", "라운드")]),
]


@pytest.mark.parametrize("english,korean", SAME, ids=lambda a: " ".join(a) if isinstance(a, tuple) else "")
def test_a_korean_value_answers_as_the_english_one(english, korean, invoke):
    want = invoke(*english)
    assert want.exit_code == 0, want.output
    assert want.output.strip()
    for args in korean:
        got = invoke(*args)
        assert (got.exit_code, got.output) == (want.exit_code, want.output), args


def test_filters_read_as_the_english_values():
    """The JSON of `cards` names the filter as the program knows it, whichever language it was given in."""
    from flamer_ref.lookup import card_filters

    assert card_filters(type_="특수 카드")[3] == "special" and card_filters(type_="기물카드")[3] == "piece"
    assert card_filters(faction="밤결무리")[0] == "BGM"


@pytest.mark.parametrize("args,needle", [
    (("cards", "--type", "몰라"), "기물카드(piece) 또는 특수카드(special)"),
    (("search", "x", "-k", "몰라"), "조항(clause), 판정(ruling), 질문(faq), 예시(example), 카드(card), 용어(term)"),
    (("faq", "--format", "docx"), "text(텍스트), md(마크다운), html, pdf"),
    (("book", "--format", "md"), "html, pdf"),
    (("simulate", SCENARIO, "--format", "pdf"), "text(텍스트), md(마크다운), html"),
])
def test_an_unknown_value_lists_the_korean_names(args, needle, invoke):
    p = invoke(*args)
    assert p.exit_code == 2, p.output
    assert needle in p.output and "Traceback" not in p.output, p.output
