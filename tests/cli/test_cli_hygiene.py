"""What a daily user trips on (issue 7): shell completion, help and usage errors
with no English, JSON errors under --json, date options in every form search
takes, `flamer timing` for glossary terms, card pages with their rulings and FAQ,
and search hits that point at `flamer rule <ruling id>`."""

from __future__ import annotations

import functools
import json
import os
import re
import subprocess
import sys

import pytest
import flamer_fork  # noqa: E402 (tests/flamer_fork.py)

from flamer_ref.corpus import load


#: no completion request, whatever this shell has set
NO_COMPLETION = {"_FLAMER_COMPLETE": None}
run = functools.partial(flamer_fork.run, env=NO_COMPLETION, timeout=60)  # a real process, forked from a warm interpreter


def no_traceback(p):
    assert "Traceback" not in p.stderr and "Traceback" not in p.stdout, p.stderr


# ------------------------------------------------------------ the command tree ----
def command_paths() -> list[tuple[str, ...]]:
    """Every command and sub-command of the app, walked from the click tree (so
    commands added later are covered without touching this file)."""
    from typer.main import get_command

    from flamer_ref.cli import app

    out: list[tuple[str, ...]] = []

    def walk(cmd, path):
        out.append(path)
        for name, sub in sorted(getattr(cmd, "commands", {}).items()):
            if not getattr(sub, "hidden", False):
                walk(sub, path + (name,))

    walk(get_command(app), ())
    return out


PATHS = command_paths()
COMMAND_WORDS = {w for p in PATHS for w in p} | {"flamer"}

# ASCII words a help text or an error may contain: things typed literally (option values, scenario keys and
# values, file kinds), metavars, and the game's own abbreviations. Option names (--x), dotted ids (combat.x),
# paths (rules/) and command names are taken out before the check.
ALLOWED = {
    # metavars and formats
    "YYYY", "MM", "DD", "ID", "id", "FILE", "DIR", "JSON", "YAML", "HTML", "FAQ", "UUID",
    "text", "md", "html", "json", "yaml", "pdf", "PDF", "x", "y", "vs", "bash", "zsh", "fish", "PowerShell",
    # option values people type
    "clause", "ruling", "faq", "example", "card", "term", "piece", "special", "true", "false", "yes", "no",
    # scenario keys and kinds (English stays valid in scenario files)
    "kind", "combat", "move", "victory", "field", "round", "game", "as_of", "combat_order",
    # the game's abbreviations
    "DGM", "BGM", "Lv", "lv", "HP", "hp", "ATK", "atk", "cost", "SP", "MOV", "VP",
    # names of things outside the project (flamer site: the engine runs on Pyodide, fetched from npm)
    "Pyodide", "npm",
}
# the English that typer/click would print and that must never show
FORBIDDEN = ("[required]", "[default", "<int range>", "<str>", "<integer>", "x>=", "x<=", "Usage:", "Show this message",
             "Got unexpected", "Missing argument", "Missing option", "No such", "Invalid value", "Error:",
             "Try '", "[OPTIONS]", "COMMAND [ARGS]", "Install completion", "Show completion", "Aborted",
             "is not a valid", "requires an argument", "Did you mean", "Possible options")
HEDGED = re.compile(r"[이을은와과으]\((?:가|를|는|와|과|로)\)|\((?:이|을|은|와|과)\)[가를는와과]|\(으\)로")


def english_words(text: str, typed=()) -> set[str]:
    for word in sorted(typed, key=len, reverse=True):  # what the user typed is quoted back as typed
        text = re.sub(rf"(?<![\w-]){re.escape(word)}(?![\w-])", " ", text)
    t = re.sub(r"(?<![\w-])--?[A-Za-z][\w-]*", " ", text)  # option names
    t = re.sub(r"\b[\w-]+(?:\.[\w…-]+)+", " ", t)  # dotted ids: combat.step7.sweep, interp.…
    t = re.sub(r"\b[\w.-]+/", " ", t)  # paths: rules/, cards/
    t = re.sub(r"\b_?FLAMER_\w+", " ", t)  # environment variables
    return {w for w in re.findall(r"[A-Za-z][A-Za-z_]*", t) if w not in ALLOWED and w not in COMMAND_WORDS}


def assert_korean(text: str, where: str, typed=()) -> None:
    for bad in FORBIDDEN:
        assert bad not in text, f"{where}: {bad!r} in\n{text}"
    found = english_words(text, typed)
    assert not found, f"{where}: English words {sorted(found)} in\n{text}"
    assert not HEDGED.search(text), f"{where}: hedged particle in\n{text}"


def test_the_tree_has_the_known_commands():
    names = {p[0] for p in PATHS if p}
    assert {"search", "rule", "rulings", "card", "cards", "term", "faq", "example", "timing", "validate",
            "simulate", "examples"} <= names


@pytest.mark.parametrize("path", PATHS, ids=lambda p: " ".join(p) or "flamer")
def test_help_has_no_english(path):
    p = run(*path, "--help")
    assert p.returncode == 0, p.stderr
    no_traceback(p)
    assert p.stdout.startswith("사용법: flamer")
    assert_korean(p.stdout, "flamer " + " ".join(path) + " --help")


def test_bare_flamer_prints_korean_help():
    p = run()
    assert p.returncode == 0 and p.stdout.startswith("사용법: flamer [옵션] 명령 [인자]...")
    assert "--install-completion" in p.stdout and "자동 완성" in p.stdout


# ------------------------------------------------------------ usage errors ----
USAGE_ERRORS = [
    (("cards", "--structure", "maybe"), "maybe"),
    (("search", "x", "--limit", "0"), "1 이상"),
    (("search", "x", "--limit", "abc"), "정수"),
    (("search", "x", "--limit"), "값이 필요"),
    (("search", "x", "--lim", "3"), "--limit"),
    (("search",), "검색어"),
    (("card",), "카드이름을 적지 않았습니다"),
    (("rule",), "적지 않았습니다"),
    (("serch", "x"), "search"),
    (("nosuchcommand",), "nosuchcommand"),
    (("faq", "--format", "docx"), "docx"),
    (("rulings", "--since", "2026-13-01"), "9월 24일"),
    (("rule", "combat.occurs", "--as-of", "어제"), "9월 24일"),
]


@pytest.mark.parametrize("args,needle", USAGE_ERRORS, ids=lambda a: " ".join(a) if isinstance(a, tuple) else a)
def test_usage_errors_are_korean(args, needle):
    p = run(*args)
    assert p.returncode == 2, (p.stdout, p.stderr)
    no_traceback(p)
    assert p.stderr.startswith("사용법 오류: ") and needle in p.stderr
    assert "도움말: flamer" in p.stderr and p.stdout == ""
    assert_korean(p.stderr, " ".join(args), typed=args)


def test_usage_error_names_the_subcommand_help_even_without_a_context():
    p = run("search", "x", "--limit")
    assert "도움말: flamer search --help" in p.stderr


def test_usage_error_with_json_is_a_json_object_too():
    p = run("cards", "--structure", "maybe", "--json")
    assert p.returncode == 2 and "사용법 오류" in p.stderr
    d = json.loads(p.stdout)
    assert d["error"]["code"] == "usage" and "maybe" in d["error"]["message"]


def test_i18n_messages_choose_particles():
    from flamer_ref import i18n

    # the particle follows the word's last sound: 카드이름이, 검색어가, 0은, 2는
    assert i18n._subject("필요한 인자", "카드이름", "이/가", "빠졌습니다.") == "필요한 인자 카드이름이 빠졌습니다."
    assert i18n._subject("필요한 인자", "검색어", "이/가", "빠졌습니다.") == "필요한 인자 검색어가 빠졌습니다."
    assert i18n._value_message("0 is not in the range 1 이상.").startswith("0은 ")
    assert i18n._value_message("2 is not in the range 3~5.").startswith("2는 ")
    assert not HEDGED.search(i18n.translate("Got unexpected extra argument (x)"))


# ------------------------------------------------------------ completion ----
def complete(words: str, cword: int | None = None, style: str = "bash_complete"):
    parts = words.split(" ")
    if cword is None:
        cword = len(parts) - 1
    p = run(env={"_FLAMER_COMPLETE": style, "COMP_WORDS": words, "COMP_CWORD": str(cword)})
    no_traceback(p)
    assert p.returncode == 0, p.stderr
    return [line for line in p.stdout.splitlines() if line]


@pytest.mark.parametrize("style", ["bash_source", "source_bash", "zsh_source", "fish_source"])
def test_completion_script_is_printed_without_a_traceback(style):
    p = run(env={"_FLAMER_COMPLETE": style})
    no_traceback(p)
    assert p.returncode == 0 and "flamer" in p.stdout and "_FLAMER_COMPLETE" in p.stdout


def test_completion_of_commands_and_options():
    assert {"card", "cards"} <= set(complete("flamer ca"))
    assert "rule" in complete("flamer ru") and "rulings" in complete("flamer ru")
    opts = complete("flamer search x --")
    assert {"--limit", "--kind", "--as-of", "--json"} <= set(opts)
    assert "clause" in complete("flamer search x --kind c")
    assert complete("flamer faq --format h") == ["html"]
    # typer's own instruction style works too
    assert "card" in complete("flamer ca", style="complete_bash")


def test_completion_of_card_names_including_multi_word_names():
    corpus = load()
    names = complete("flamer card 별")
    assert "별마대" in names and all(n.startswith("별") for n in names)
    assert complete("flamer card 해상 기") == ["기지"]  # the second word of 해상 기지
    assert complete("flamer card 해상 ", cword=3) == ["기지"]
    everything = complete("flamer card ", cword=2)
    assert {c["name"] for c in corpus.cards.values()} <= set(everything)
    assert "별마대" in complete("flamer timing 별")
    assert "맞대응" in complete("flamer timing 맞")


def test_completion_of_rule_ruling_and_interpretation_ids():
    corpus = load()
    assert complete("flamer rule combat.step7") == [k for k in corpus.clauses if k.startswith("combat.step7")]
    rulings = complete("flamer rule ruling.")
    assert set(rulings) == set(corpus.rulings)
    interps = complete("flamer rule interp.")
    assert set(interps) == set(corpus.interpretations) and interps
    # FAQ items by number, rulings by their day (9/24-2)
    assert complete("flamer faq ") == [str(n) for n in range(1, len(corpus.faq) + 1)]
    assert "9/24-2" in complete("flamer rule 9/24") and "9/4" in complete("flamer rule 9/")


def test_zsh_completion_shows_titles_and_shell_named_after_the_option():
    p = run(env={"_FLAMER_COMPLETE": "complete_zsh", "_TYPER_COMPLETE_ARGS": "flamer rule ruling.2026-09-25"})
    no_traceback(p)
    assert "ruling.2026-09-25.explosive-cost" in p.stdout and load().rulings[
        "ruling.2026-09-25.explosive-cost"]["title"] in p.stdout
    p = run("--show-completion", "zsh")
    assert p.returncode == 0 and "#compdef flamer" in p.stdout
    p = run("--show-completion", "fish")
    assert p.returncode == 0 and p.stdout.startswith("complete --command flamer")


def test_completers_never_raise(tmp_path):
    from flamer_ref import complete as comp

    env = {"FLAMER_DATA": str(tmp_path), "FLAMER_CACHE_DIR": ""}
    p = run(env={"_FLAMER_COMPLETE": "bash_complete", "COMP_WORDS": "flamer card 별", "COMP_CWORD": "2", **env})
    no_traceback(p)
    assert p.returncode == 0 and p.stdout.strip() == ""
    assert comp.card_names(None, "별") and comp.card_names(object(), "별")  # a context without params
    assert comp.rule_ids(None, None) is not None


def test_completion_requests_without_their_variables_are_korean_errors():
    for env in ({"_FLAMER_COMPLETE": "bogus_thing"}, {"_FLAMER_COMPLETE": "complete_bash"}):
        p = run(env=env)
        no_traceback(p)
        assert p.returncode == 1 and "자동 완성" in p.stderr


def test_install_and_show_completion(tmp_path):
    env = {**NO_COMPLETION, "HOME": str(tmp_path), "SHELL": "/bin/bash"}
    p = run("--show-completion", env=env)
    no_traceback(p)
    assert p.returncode == 0 and "_FLAMER_COMPLETE" in p.stdout
    p = run("--install-completion", env=env)
    no_traceback(p)
    assert p.returncode == 0, p.stderr
    assert "자동 완성을 설치했습니다" in p.stdout
    installed = [f for f in tmp_path.rglob("*") if f.is_file()]
    assert any("_FLAMER_COMPLETE" in f.read_text(encoding="utf-8") for f in installed)


def test_completion_really_completes_in_bash(tmp_path):
    """The bash completion script, as `flamer --install-completion` installs it, completes a card name. The
    script runs the command by name through `env` (no shell function can stand in for it), so a `flamer`
    that runs this checkout's interpreter goes first on PATH: the test holds whether or not a venv is
    activated."""
    import shlex
    import shutil

    if shutil.which("bash") is None:
        pytest.skip("no bash")
    script = run(env={"_FLAMER_COMPLETE": "bash_source"}).stdout
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    wrapper = bin_dir / "flamer"
    wrapper.write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} -m flamer_ref "$@"\n', encoding="utf-8")
    wrapper.chmod(0o755)
    shell = (f"{script}\n"
             "COMP_WORDS=(flamer card 별마); COMP_CWORD=2; _flamer_completion flamer; printf '%s\\n' \"${COMPREPLY[@]}\"")
    env = {k: v for k, v in os.environ.items() if k != "_FLAMER_COMPLETE"}
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    p = subprocess.run(["bash", "--norc", "-c", shell], capture_output=True, text=True, encoding="utf-8", timeout=60,
                       env=env, cwd=flamer_fork.ROOT)
    assert p.stdout.split() == ["별마대"], p.stderr


# ------------------------------------------------------------ JSON errors ----
def json_error(*args, code: int = 1):
    p = run(*args, "--json")
    assert p.returncode == code, p.stderr
    no_traceback(p)
    assert p.stderr.strip(), "the message is still printed on stderr"
    assert "\\u" not in p.stdout
    d = json.loads(p.stdout)
    assert set(d["error"]) >= {"message", "code"}
    assert d["error"]["message"].splitlines()[0] in p.stderr
    return d


def test_json_error_ambiguous_lists_candidates():
    d = json_error("card", "잠")
    assert d["error"]["code"] == "ambiguous"
    ids = [c["id"] for c in d["candidates"]]
    assert {"잠복군", "잠입건설", "잠식된 석산"} <= set(ids)


def test_json_error_not_found_lists_nearest():
    d = json_error("rule", "combat.step7.swep")
    assert d["error"]["code"] == "not-found"
    assert d["candidates"][0]["id"] == "combat.step7.sweep" and d["candidates"][0]["title"]


def test_json_error_bad_input_and_data_error(tmp_path):
    d = json_error("fight", "거신")  # (a bad option value such as cards --faction XYZ is a usage error, exit 2)
    assert d["error"]["code"] == "bad-input" and "candidates" not in d
    f = tmp_path / "s.yaml"
    f.write_text("kind: move\nattacker: A\nbogus: 1\ncells:\n  \"1,1\": {A: [{id: a, card: 수문장}]}\n", encoding="utf-8")
    d = json_error("simulate", str(f))
    assert d["error"]["code"] == "data-error"
    prob = d["problems"][0]
    assert set(prob) == {"file", "line", "key", "message", "fix"}
    assert prob["file"].endswith("s.yaml") and prob["line"] == 3 and prob["key"] == "bogus"


def test_error_codes_are_declared_on_every_error_class():
    from flamer_ref import errors

    classes = [c for c in vars(errors).values() if isinstance(c, type) and issubclass(c, errors.FlamerError)]
    codes = {c.__name__: c.code for c in classes}
    assert codes["NotFound"] == "not-found" and codes["Ambiguous"] == "ambiguous"
    assert codes["BadInput"] == "bad-input" and codes["DataError"] == "data-error"
    assert all(isinstance(v, str) and v for v in codes.values())


def test_json_error_includes_the_rule_of_an_error_that_has_one():
    from flamer_ref import cli
    from flamer_ref.errors import FlamerError

    class Ruled(FlamerError):
        code = "forbidden"
        rule = "response.opener"

    extra = cli._error_object(Ruled("불가"))
    assert extra == {"rule": "response.opener"}


def test_without_json_errors_leave_stdout_empty():
    p = run("card", "잠")
    assert p.returncode == 1 and p.stdout == "" and "잠복군" in p.stderr


# ------------------------------------------------------------ dates ----
@pytest.mark.parametrize("typed", ["2026-09-24", "9/24", "9월 24일", "09-24", "9 월 24 일", "2026년 9월 24일"])
def test_every_date_form_search_takes(typed):
    p = run("rulings", "--since", typed, "--until", typed, "--json")
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout)
    assert d["since"] == d["until"] == "2026-09-24"
    assert {r["date"] for r in d["rulings"]} == {"2026-09-24"}


def test_partial_dates_take_the_year_of_the_rules_data():
    from flamer_ref.dates import parse_date

    year = int(load().latest_date()[:4])
    assert parse_date("9/24", lambda: year) == f"{year}-09-24"
    assert parse_date("2/30", year) is None and parse_date("13/1", year) is None
    assert parse_date("2026-9-4", year) is None and parse_date("20260924", year) is None
    assert parse_date("2026-09-24", lambda: 1 / 0) == "2026-09-24"  # the year is looked up only when missing


def test_as_of_and_compare_accept_the_short_forms():
    long = json.loads(run("rule", "response.resolve.depart", "--as-of", "2026-09-23", "--json").stdout)
    short = json.loads(run("rule", "response.resolve.depart", "--as-of", "9월 23일", "--json").stdout)
    assert long == short and long["text_status"] == "earlier"
    a = run("search", "정착", "--as-of", "09-23", "--json")
    b = run("search", "정착", "--as-of", "2026-09-23", "--json")
    assert a.returncode == 0 and a.stdout == b.stdout
    scen = os.path.join(os.path.dirname(__file__), "..", "..", "scenarios")
    files = sorted(f for f in os.listdir(scen) if f.endswith(".yaml")) if os.path.isdir(scen) else []
    if files:
        f = os.path.join(scen, files[0])
        a = run("simulate", f, "--compare", "9/23", "--json")
        b = run("simulate", f, "--compare", "2026-09-23", "--json")
        assert a.returncode == b.returncode and a.stdout == b.stdout


# ------------------------------------------------------------ timing for terms ----
def test_timing_answers_for_counter():
    p = run("timing", "맞대응", "--json")
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout)
    corpus = load()
    t = corpus.terms[d["term"]["id"]]
    assert d["matched"]["kind"] == "term" and t["term"] == "맞대응"
    assert d["entries"]
    for e in d["entries"]:
        assert e["rows"]
        for r in e["rows"]:
            ids = [c["id"] for c in r["clauses"]]
            assert set(ids) & set(t["clauses"]), "every row shown cites one of the term's clauses"
            assert all(i in corpus.clauses for i in ids)
            profile = corpus.timings[e["profile"]]
            assert r["value"] in [row["value"] for row in profile["rows"]], "only what the timing table says"
    human = run("timing", "맞대응")
    assert human.returncode == 0 and "맞대응" in human.stdout and "근거:" in human.stdout
    assert "찾을 수 없습니다" not in human.stdout + human.stderr


def test_every_term_with_a_timing_answers():
    from flamer_ref.lookup import term_timing_rows, timing

    corpus = load()
    answered = 0
    for t in corpus.terms.values():
        if not term_timing_rows(corpus, t):
            continue
        d = timing(corpus, t["term"])
        assert d["entries"], t["term"]
        answered += 1
    assert answered >= 10
    p = run("timing", "대응턴")
    assert p.returncode == 0 and "대응턴" in p.stdout


def test_a_misspelt_term_is_corrected_and_a_term_without_timing_says_so():
    d = json.loads(run("timing", "맞대웅", "--json").stdout)
    assert d["matched"]["name"] == "맞대응" and d["corrected"] is True
    corpus = load()
    from flamer_ref.lookup import term_timing_rows

    bare = next(t for t in corpus.terms.values() if not term_timing_rows(corpus, t)
                and not any(t["term"] == c["name"] for c in corpus.cards.values()))
    p = run("timing", bare["term"])
    assert p.returncode == 1 and f"flamer term {bare['term']}" in p.stderr
    no_traceback(p)


# ------------------------------------------------------------ card pages ----
def _card_words(card):
    return [card["name"], *card["aliases"], *(a["name"] for a in card["abilities"])]


def test_card_page_lists_the_rulings_and_faq_that_mention_it():
    corpus = load()
    d = json.loads(run("card", "폭약", "--json").stdout)
    ids = [r["id"] for r in d["rulings"]]
    # computed from the data: every ruling whose title or summary names 폭약 or its ability is there
    words = _card_words(corpus.cards["폭약"])
    direct = [r["id"] for r in corpus.rulings.values() if any(w in r["title"] + r["summary"] for w in words)]
    assert direct and set(direct) <= set(ids)
    for r in d["rulings"]:
        ruling = corpus.rulings[r["id"]]
        if r["via_clause"] is None:
            assert r["mentions"] in ruling["title"] + " " + ruling["summary"]
        else:
            assert r["via_clause"] in ruling["clauses"] and r["mentions"] in corpus.clauses[r["via_clause"]]["text"]
    text = run("card", "폭약").stdout
    assert "관련 판정:" in text and "flamer rule 9/" in text and "ruling." not in text


def test_card_page_faq_and_no_false_mentions():
    from flamer_ref.lookup import mentions

    d = json.loads(run("card", "봉수장", "--json").stdout)
    assert any(f["id"] == "faq.combat.bongsu-support-fire" and f["via_clause"] is None for f in d["faq"])
    assert "flamer faq 3" in run("card", "봉수장").stdout  # the FAQ item's number: the third in rules/faq.yaml
    # 개미 inside 벌크업 개미 (another card) or inside a longer word is not a mention of 개미
    assert mentions("벌크업 개미를 공개한다", ["개미"], ["벌크업 개미"]) is None
    assert mentions("흰개미가 온다", ["개미"], []) is None
    assert mentions("개미를 파괴한다", ["개미"], ["벌크업 개미"]) == "개미"


def test_card_json_keeps_its_contract_keys():
    d = json.loads(run("card", "증폭기", "--json").stdout)
    for key in ("name", "faction", "grade", "lv", "hp", "atk", "cost", "structure", "abilities", "sources",
                "rulings", "faq"):
        assert key in d


# ------------------------------------------------------------ search → flamer rule ----
def test_search_hit_on_a_ruling_points_to_flamer_rule():
    p = run("search", "폭약", "비용", "--kind", "ruling", "-n", "2")
    assert p.returncode == 0
    assert "→ flamer rule 9/" in p.stdout and "flamer rulings" not in p.stdout and "ruling." not in p.stdout
    ref = re.search(r"→ flamer rule (9/\S+)", p.stdout).group(1)
    got = run("rule", ref, "--json")
    assert got.returncode == 0 and json.loads(got.stdout)["kind"] == "ruling"


@pytest.mark.parametrize("cmd, what", [("rule", "조항"), ("faq", "FAQ"), ("example", "예시")])
def test_an_empty_id_says_it_is_empty(cmd, what):
    """`rule ''` listed random suggestions and `example ''` listed every example (adversarial review);
    like `card ''`, an empty id is named as empty."""
    p = run(cmd, "")
    assert p.returncode == 1 and f"{what} id가 비어 있습니다" in p.stderr and p.stdout == ""
