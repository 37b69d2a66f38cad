"""Issue 20, second hostile pass: the faults of argument and scenario input (3, 9, 15, 19, 20, 21).

3  argument or data text never becomes scenario structure (`fight`, `fight --save`, `example --scenario`);
9  `term`, `timing`, `card`, `rule` take no more than a search query and echo only a short prefix;
15 shell completion offers nothing on malformed completion variables;
19 a bad option value is a usage error (exit 2);
20 `--install-completion` / `--show-completion` refuse a shell they do not support before writing anything;
21 one stat rule everywhere: HP ≥ 1 at the start of combat, Lv/ATK/cost ≥ 0.

Each test is the issue's reproducer; in-process (typer's CliRunner) unless the test is about a real
process (completion reads its environment, --install-completion writes to HOME)."""

from __future__ import annotations

import functools
import json
import sys

import pytest
import flamer_fork  # noqa: E402 (tests/flamer_fork.py)
import yaml
from inprocess import invoke

from flamer_ref.cli import app

#: every character YAML reads as a line break (flamer_ref/yamltext.py LINE_BREAKS)
BREAKS = ["\r", "\n", "\x85", "\u2028", "\u2029"]


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory) -> str:
    return str(tmp_path_factory.mktemp("cache"))


@pytest.fixture
def cli(cache_dir):
    """Run `flamer ARGS…` in-process on the bundled data (sys.argv is set as a shell would set it)."""
    return functools.partial(invoke, cache=cache_dir, env={"FLAMER_DATA": None})


@pytest.fixture
def main(monkeypatch, capsys, cache_dir):
    """Run `flamer ARGS…` in-process through i18n.run, as the installed command runs (Korean usage errors):
    returns (exit code, stdout, stderr)."""
    from flamer_ref import i18n

    def invoke(*args):
        monkeypatch.setattr(sys, "argv", ["flamer", *args])
        monkeypatch.setenv("FLAMER_CACHE_DIR", cache_dir)
        capsys.readouterr()
        with pytest.raises(SystemExit) as exc:
            i18n.run(app)
        out, err = capsys.readouterr()
        assert "Traceback" not in err and "내부 오류" not in err + out, err
        return exc.value.code, out, err
    return invoke


def no_crash(r):
    assert "Traceback" not in r.stderr and "내부 오류" not in r.stderr + r.stdout, r.stderr[-2000:]
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)


# ----------------------------------------------------------------- fault 3 ----
BASE = "거신 vs 별마대, 행성굴착기(정착), 유닛{sep}대응:{sep}- 진영: B{sep}  카드: 재부팅{sep}  대상: 행성굴착기{sep}#(lv1 hp1 atk1)"


def verdict(r) -> dict:
    assert r.exit_code == 0, r.stderr
    out = json.loads(r.stdout)
    out.pop("title", None)  # the title is the line itself
    return out


@pytest.mark.parametrize("sep", BREAKS)
def test_a_line_break_in_the_fight_line_adds_no_declaration(cli, sep):
    """Issue 20 #3: U+2028 in the line ended the `# 원래 명령:` comment and the rest was read as a 재부팅
    declaration: the verdict flipped from A to B with exit 0. Now: the same verdict as with a space, or refused."""
    plain = verdict(cli("fight", BASE.format(sep=" "), "--json"))
    r = cli("fight", BASE.format(sep=sep), "--json")
    no_crash(r)
    if r.exit_code == 1:  # a control character (CR, LF, NEL) is refused with its place
        assert "제어 문자" in r.stderr
        return
    got = verdict(r)
    assert got == plain
    assert not any(e.get("card") == "재부팅" for e in got["events"])


@pytest.mark.parametrize("sep", ["\u2028", "\u2029"])
def test_a_line_break_in_the_fight_line_changes_no_saved_scenario(cli, tmp_path, sep):
    """The same through --save and simulate: the file reads back as the scenario built, nothing more."""
    plain = verdict(cli("fight", BASE.format(sep=" "), "--json"))
    path = tmp_path / "s.yaml"
    r = cli("fight", BASE.format(sep=sep), "--save", str(path), "--json")
    assert verdict(r) == plain
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert "대응" not in doc and "response" not in doc
    assert verdict(cli("simulate", str(path), "--json")) == plain
    header = [ln for ln in path.read_text(encoding="utf-8").split("\n") if ln.startswith("#")]
    assert len(header) == 2 and "\\u2" in header[1]  # the separator shown, not obeyed


def test_a_cr_in_the_save_name_does_not_change_as_of(cli, tmp_path):
    """Issue 20 #3: `--save $'c\\r기준일: 2026-09-01\\r#.yaml'` turned the saved scenario's as_of (and the answer's)
    into 2026-09-01."""
    line = "거신 vs 별마대, 행성굴착기(정착)"
    plain = verdict(cli("fight", line, "--json"))
    name = tmp_path / "c\r기준일: 2026-09-01\r#.yaml"
    got = verdict(cli("fight", line, "--save", str(name), "--json"))
    assert got["as_of"] == plain["as_of"] != "2026-09-01"
    text = name.read_text(encoding="utf-8")
    assert "기준일" not in yaml.safe_load(text)
    assert "$'" in text.split("\n")[1]  # the name as bash would take it back, escapes visible
    assert verdict(cli("simulate", str(name), "--json"))["as_of"] == plain["as_of"]


@pytest.mark.parametrize("sep", ["\\L", "\\P", "\\N", "\\r", "\\r\\n"])
def test_an_example_title_in_a_data_tree_cannot_become_structure(cli, tree, tmp_path, sep):
    """Issue 20 #3: a data tree's example title with a line break YAML knows ended the `# 예시 …` comment of
    `example ID --scenario`, and `| simulate -` read the rest (here: as_of) as the scenario's."""
    tree.replace("rules/examples/a.yaml", "title: 첫 예시", f'title: "첫 예시{sep}as_of: 2026-09-01{sep}#"')
    env = {"FLAMER_DATA": str(tree.root), "FLAMER_CACHE_DIR": str(tmp_path / "c")}
    r = cli("example", "ex.a.first", "--scenario", env=env)
    assert r.exit_code == 0, r.stderr
    text = r.stdout
    scenario = json.loads(cli("example", "ex.a.first", "--scenario", "--json", env=env).stdout)["scenario"]
    assert yaml.safe_load(text) == scenario and "as_of" not in yaml.safe_load(text)
    lines = text.split("\n")
    assert lines[0].startswith("# 예시 1 — 첫 예시") and lines[1].startswith("# flamer example")
    r = cli("simulate", "-", "--json", input=text, env=env)
    assert r.exit_code == 0, r.stderr
    assert json.loads(r.stdout)["as_of"] != "2026-09-01"


def test_saved_and_example_scenarios_read_back_exactly_whatever_their_text():
    """Every writer of scenario YAML: strings with any line break or control character read back unchanged
    (PyYAML's own single-quoted style folds U+0085 into a space), and a header is comments only."""
    from flamer_ref import oneliner, scenario_files
    from flamer_ref.yamlio import comment_header, parse_text, plain

    texts = ["a" + b + "b" for b in BREAKS + ["\x0b", "\x0c", "\t", "\r\n"]]
    texts += [b + "x" + c for b in BREAKS for c in BREAKS] + ["\n", "x\n", "\nx", " x\ny ", "a\n\nb", "#: 1\n- x"]
    for t in texts:
        doc = {"kind": "combat", "title": t, "attacker": "A",
               "cells": {"1,1": {"A": [{"id": t, "name": t, "lv": 1, "hp": 1, "atk": 1}]}}}
        assert plain(parse_text(scenario_files.to_yaml(doc, header="# 머리\n"), "x")) == doc, repr(t)
        fight = oneliner.Fight(doc=doc)
        assert plain(parse_text(oneliner.to_yaml(fight, "flamer fight " + t), "x")) == oneliner.korean_doc(doc), repr(t)
    for bad in ("# a\nkind: move\n", "# a\u2028b: 1\n", "# a"):
        with pytest.raises(ValueError):
            comment_header(bad)


# ----------------------------------------------------------------- fault 9 ----
LOOKUPS = {"term": "용어", "timing": "이름", "card": "카드 이름", "rule": "조항 번호", "example": "예시", "faq": "FAQ 번호나 낱말"}


@pytest.mark.parametrize("command", sorted(LOOKUPS))
@pytest.mark.parametrize("shape", ["chars", "words", "huge"])
def test_lookup_arguments_have_the_search_cap(cli, monkeypatch, command, shape):
    """Issue 20 #9: term/timing (and card, rule) took arguments of any length: 480 KB took 15-20 s and came
    back whole in the error. Now the search cap (cli.SEARCH_MAX_CHARS / _WORDS), refused before any lookup
    (the corpus is never loaded), with the search's wording and exit status and none of the input echoed."""
    from flamer_ref import cli as cli_mod

    def no_lookup():
        raise AssertionError("the corpus was loaded for an over-long argument")

    monkeypatch.setattr(cli_mod, "_corpus", no_lookup)
    word = "가" * (cli_mod.SEARCH_MAX_CHARS + 1)
    if shape == "words":
        word = " ".join(["대응"] * (cli_mod.SEARCH_MAX_WORDS + 1))
    elif shape == "huge":
        word = "가" * 160_000
    args = [command, word] if command in ("rule", "example", "faq") or shape != "huge" else [command] + [word[:40_000]] * 4
    r = cli(*args)
    no_crash(r)
    assert r.exit_code == 1, r.stderr
    assert f"{LOOKUPS[command]}" in r.stderr and "너무 깁니다" in r.stderr and "고치는 법" in r.stderr
    assert f"한도 {cli_mod.SEARCH_MAX_CHARS}자·{cli_mod.SEARCH_MAX_WORDS}단어" in r.stderr
    assert "가가가" not in r.stderr and "대응 대응" not in r.stderr and len(r.stderr) < 300
    r = cli(*args, "--json")
    assert r.exit_code == 1 and json.loads(r.stdout)["error"]["code"] == "bad-input"


def test_search_keeps_its_wording(cli):
    from flamer_ref import cli as cli_mod

    r = cli("search", "대응 " * 400)
    assert r.exit_code == 1 and r.stderr.startswith("검색어가 너무 깁니다 (") and str(cli_mod.SEARCH_MAX_CHARS) in r.stderr


@pytest.mark.parametrize("command", ["term", "timing", "card", "rule", "example", "faq"])
def test_a_name_not_found_is_repeated_only_as_a_prefix(cli, command):
    """Within the cap an unknown name is still an error that names it, but only its first korean.ECHO_MAX
    characters, with the particle of the last syllable shown."""
    from flamer_ref.korean import ECHO_MAX

    name = "ㅋ" * 10 + "뷁" * 200
    r = cli(command, name)
    no_crash(r)
    assert r.exit_code == 1
    assert "뷁" * (ECHO_MAX - 10) + "…'" in r.stderr and "뷁" * (ECHO_MAX - 9) not in r.stderr, r.stderr


def test_quoted_cuts_and_keeps_the_particle():
    from flamer_ref.korean import quoted

    assert quoted("정착", "이/가") == "'정착'이" and quoted("수문장") == "'수문장'"
    assert quoted("가" * 50 + "각", "을/를", limit=5) == "'가가가가가…'를"
    assert quoted("가" * 4 + "각" + "나" * 9, "을/를", limit=5) == "'가가가가각…'을"


# ---------------------------------------------------------------- fault 15 ----
#: no completion request, whatever this shell has set
NO_COMPLETION = {"_FLAMER_COMPLETE": None, "COMP_WORDS": None, "COMP_CWORD": None}
run = functools.partial(flamer_fork.run, env=NO_COMPLETION, timeout=60)  # a real process, forked from a warm interpreter


@pytest.mark.parametrize("cword", ["x", "", " ", "1.5", "-1", "99", "１", "1e3", "2 ", "0x1"])
def test_malformed_completion_variables_offer_nothing(cword):
    """Issue 20 #15: COMP_CWORD=x crashed completion ('내부 오류 … ValueError', exit 1); 99 offered commands."""
    p = run(env={"_FLAMER_COMPLETE": "complete_bash", "COMP_WORDS": "flamer ca", "COMP_CWORD": cword})
    assert p.returncode == 0 and p.stdout == "" and p.stderr == "", (p.returncode, p.stdout, p.stderr)


def test_well_formed_completion_still_completes():
    p = run(env={"_FLAMER_COMPLETE": "bash_complete", "COMP_WORDS": "flamer ca", "COMP_CWORD": "1"})
    assert p.returncode == 0 and p.stdout.split() == ["card", "cards"], p.stderr
    p = run(env={"_FLAMER_COMPLETE": "bash_complete", "COMP_WORDS": 'flamer "ca', "COMP_CWORD": "1"})
    assert p.returncode == 0 and p.stdout.split() == ["card", "cards"], p.stderr


# ---------------------------------------------------------------- fault 19 ----
@pytest.mark.parametrize("args, option", [
    (("search", "대응", "-k", "bogus"), "--kind"),
    (("search", "대응", "--kind", "예시들"), "--kind"),
    (("cards", "--type", "bogus"), "--type"),
    (("cards", "--faction", "XYZ"), "--faction"),
    (("cards", "--grade", "특급"), "--grade"),
    (("cards", "--timing", "공격"), "--timing"),
])
def test_a_bad_option_value_is_a_usage_error(main, monkeypatch, args, option):
    """Issue 20 #19: `search -k bogus` and `cards --type bogus` exited 1 (a domain error); a bad option value
    is a usage error: exit 2, '사용법 오류: --option: …' in Korean, the help hint, no data read."""
    from flamer_ref import cli as cli_mod, searchindex

    monkeypatch.setattr(cli_mod, "_corpus", lambda: pytest.fail("data read for a usage error"))
    monkeypatch.setattr(searchindex, "load_index", lambda *a, **k: pytest.fail("index read for a usage error"))
    code, out, err = main(*args)
    assert code == 2, (code, err)
    assert err.startswith(f"사용법 오류: {option}: ") and "모릅니다" in err and "도움말: flamer" in err, err
    code, out, err = main(*args, "--json")
    assert code == 2 and json.loads(out)["error"]["code"] == "usage"


def test_good_option_values_still_filter(cli):
    r = cli("search", "대응", "-k", "카드", "-n", "1", "--json")
    assert r.exit_code == 0 and all(x["kind"] == "card" for x in json.loads(r.stdout)["results"])
    r = cli("cards", "--type", "special", "--timing", "(대응)", "--json")
    assert r.exit_code == 0 and {c["type"] for c in json.loads(r.stdout)["cards"]} == {"special"}


# ---------------------------------------------------------------- fault 20 ----
def _snapshot(home) -> dict:
    return {p.relative_to(home).as_posix(): p.read_bytes() for p in sorted(home.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("option", ["--install-completion", "--show-completion"])
@pytest.mark.parametrize("shell", ["tcsh", "csh", "ksh", "nu"])
def test_an_unsupported_shell_is_refused_before_anything_is_written(tmp_path, option, shell):
    """Issue 20 #20: `--install-completion tcsh` ignored the word, installed bash completion and edited
    ~/.bashrc (exit 0). Now: a usage error naming the supported shells, and HOME untouched."""
    home = tmp_path / "home"
    home.mkdir()
    (home / ".bashrc").write_text("# mine\n", encoding="utf-8")
    before = _snapshot(home)
    p = run(option, shell, env={**NO_COMPLETION, "HOME": str(home), "SHELL": "/bin/bash"})
    assert p.returncode == 2, (p.returncode, p.stdout, p.stderr)
    assert p.stderr.startswith(f"사용법 오류: {option}: '{shell}'") and "지원하지 않는 셸" in p.stderr
    assert all(s in p.stderr for s in ("bash", "zsh", "fish", "PowerShell")) and "Traceback" not in p.stderr
    assert p.stdout == ""
    assert _snapshot(home) == before


def test_a_supported_shell_named_in_any_case_still_installs(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    p = run("--install-completion", "ZSH", env={**NO_COMPLETION, "HOME": str(home), "SHELL": "/bin/bash"})
    assert p.returncode == 0 and "zsh 자동 완성을 설치했습니다" in p.stdout, p.stderr
    assert any("_FLAMER_COMPLETE" in v.decode() for v in _snapshot(home).values())


# ---------------------------------------------------------------- fault 21 ----
KIND_HEADS = {"combat": "kind: combat\nattacker: A\n", "move": "kind: move\nattacker: A\n",
              "victory": "kind: victory\nplayer: A\n", "round": "kind: round\nplayer: A\n"}
BAD_STATS = [("lv", -5), ("hp", 0), ("hp", -7), ("atk", -3), ("cost", -1), ("레벨", -1), ("체력", 0), ("공격력", -1),
             ("비용", -2)]


def _scenario(kind: str, piece: str) -> str:
    return KIND_HEADS[kind] + f'cells:\n  "1,1":\n    A: [{piece}]\n    B: [{{id: b, name: 적, lv: 1, hp: 2, atk: 1}}]\n'


@pytest.fixture(scope="module")
def corpus():
    from flamer_ref.corpus import load

    return load()


@pytest.mark.parametrize("kind", sorted(KIND_HEADS))
@pytest.mark.parametrize("key, value", BAD_STATS)
def test_scenario_pieces_of_every_kind_take_only_stats_a_piece_can_have(corpus, kind, key, value):
    """Issue 20 #21: scenario files accepted Lv −5, HP 0 or −7, ATK −3 (exit 0: a 거신 with HP 0 won its
    combat in round 1), which the one-line syntax refuses. Now one rule for every kind: piece-stat-range."""
    from flamer_ref.engine.turns import parse_any
    from flamer_ref.errors import DataError
    from flamer_ref.yamlio import parse_text

    for piece in (f"{{id: a, card: 거신, {key}: {value}}}", f"{{id: a, name: 임시, lv: 1, hp: 1, atk: 1, {key}: {value}}}"):
        canon = {"레벨": "lv", "체력": "hp", "공격력": "atk", "비용": "cost"}.get(key, key)
        if canon in ("lv", "hp", "atk") and "임시" in piece:
            piece = piece.replace(f", {canon}: 1", "", 1)
        with pytest.raises(DataError) as exc:
            parse_any(parse_text(_scenario(kind, piece), "s.yaml"), "s.yaml", corpus)
        (p,) = exc.value.problems
        assert p.code == "piece-stat-range" and p.params["value"] == value and p.key.endswith(f".{key}"), p.key
        assert f"'{key}'" in p.message and "이상이어야 합니다" in p.message and p.line == 5 and p.fix


@pytest.mark.parametrize("kind", sorted(KIND_HEADS))
def test_the_least_stats_are_still_accepted(corpus, kind):
    from flamer_ref.engine.turns import parse_any
    from flamer_ref.yamlio import parse_text

    text = _scenario(kind, "{id: a, name: 임시, lv: 0, hp: 1, atk: 0, cost: 0}")
    assert parse_any(parse_text(text, "s.yaml"), "s.yaml", corpus) is not None


def test_simulate_refuses_hp_zero(cli, tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(_scenario("combat", "{id: a, card: 거신, hp: 0}"), encoding="utf-8")
    r = cli("simulate", str(path), "--json")
    no_crash(r)
    assert r.exit_code == 1 and "'hp'는 1 이상이어야 합니다 (지금: 0)" in r.stderr
    assert json.loads(r.stdout)["problems"][0]["key"] == "cells.1,1.A[0].hp"


def _prompt(monkeypatch, capsys, stat: str, answers: list[str]):
    """cli._ask_missing at a terminal, answering `answers` in turn: (value taken, what was written)."""
    from flamer_ref import cli as cli_mod
    from flamer_ref.oneliner import Missing

    feed = iter(answers)
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True, raising=False)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    monkeypatch.setattr("builtins.input", lambda *a: next(feed))
    got = cli_mod._ask_missing([Missing("개미", "개미", stat)], as_json=False)
    return got[("개미", stat)], capsys.readouterr().err


@pytest.mark.parametrize("stat, bad, good", [("hp", ["0", "-7"], "1"), ("lv", ["-5"], "0"), ("atk", ["-3", "x"], "0")])
def test_the_terminal_prompt_asks_again_for_a_stat_no_piece_can_have(monkeypatch, capsys, stat, bad, good):
    """Issue 20 #21: the prompt of `fight` (stats the card database lacks) took Lv −5, HP 0 or −7, ATK −3."""
    value, err = _prompt(monkeypatch, capsys, stat, bad + [good])
    assert value == int(good)
    assert err.count("다시 입력하세요") == len(bad)
    for b in bad:
        assert f"'{b}'" in err
    if stat == "hp":
        assert "'0'은 쓸 수 없습니다 (HP는 1 이상 — 전투를 시작할 때의 HP)" in err


def test_one_stat_rule_for_the_line_the_prompt_files_and_the_schema(corpus, monkeypatch, capsys):
    """The one-line syntax, scenario files, the prompt and the JSON Schema agree for every stat and value."""
    from pathlib import Path

    from flamer_ref import oneliner
    from flamer_ref.engine.scenario import parse
    from flamer_ref.engine.types import STAT_MIN
    from flamer_ref.errors import BadInput, DataError

    schema = json.loads((Path(__file__).resolve().parents[2] / "schemas" / "scenario.schema.json").read_text("utf-8"))
    props = schema["$defs"]["piece"]["properties"]
    for stat in ("lv", "hp", "atk", "cost"):
        assert props[stat]["minimum"] == STAT_MIN[stat]
        for value in range(-2, 3):
            try:
                oneliner.build(corpus, f"개미(lv1 hp2 atk1 {stat}{value}) vs 거신")
                line_ok = True
            except BadInput:
                line_ok = False
            doc = {"kind": "combat", "attacker": "A", "cells": {"1,1": {
                "A": [{"id": "a", "name": "a", "lv": 1, "hp": 2, "atk": 1, stat: value}],
                "B": [{"id": "b", "card": "거신"}]}}}
            try:
                parse(doc, "x", corpus)
                file_ok = True
            except DataError:
                file_ok = False
            assert line_ok == file_ok == (value >= STAT_MIN[stat]), (stat, value)
            if stat != "cost":  # the prompt asks lv, hp, atk
                taken, _ = _prompt(monkeypatch, capsys, stat, [str(value), "5"])
                assert (taken == value) == file_ok, (stat, value)
