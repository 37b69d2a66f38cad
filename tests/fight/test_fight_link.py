"""Issue 16, item 4 (the CLI side): `flamer fight … --link` prints the calculator link of the fight.

The link format is the one the issue 16 interface file fixes and the calculator page reads
(templates/site/assets/calculator.js): keys q, r…, b…, cell (only when not 1,1), stat…, as_of; every
value percent-encoded as `quote(v, safe="")` (= encodeURIComponent plus ! ' ( ) *); the page name
판정기.html percent-encoded. flamer_ref/links.py builds and parses it; these tests check the format
against the interface written out here, the round trip, JavaScript's own escaping (when node is on
the machine), and the CLI: the link alone on the last line, --json's `link` key, html and md, the
usage errors without a site address. In-process (CliRunner) except the exit-code/stderr checks.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from urllib.parse import quote

import functools
from pathlib import Path

import pytest
import flamer_fork  # noqa: E402 (tests/flamer_fork.py)
from inprocess import invoke

from flamer_ref import links

PAGE = "%ED%8C%90%EC%A0%95%EA%B8%B0.html"  # 판정기.html
SITE = "https://example.org/flamer"

#: values a person may type: spaces, & = # % +, Korean, emoji, parentheses, quotes, ~ ! * and friends
TRICKY = [
    "거신 vs 별마대, 행성굴착기(정착)",
    "a b&c=d#e%f+g",
    "100%+1 & =#",
    "개미(lv1 hp2 atk1) × 2",
    "😀 이모지 🐜 vs 거신",
    "\"큰따옴표\" 'apostrophe' `backtick`",
    "(괄호) [대괄호] {중괄호} <꺾쇠>",
    "~!*'();:@$,/?",
    "a+b%2B%25",
    "줄\n바꿈\t탭",
    "é ü ß 中文 日本語",
    "",
]


def spec_hash(q, r=(), b=(), cell="1,1", stat=(), as_of=None) -> str:
    """The interface file's link hash, written out independently of flamer_ref.links."""
    e = lambda v: quote(v, safe="")  # noqa: E731
    parts = [f"q={e(q)}", *(f"r={e(v)}" for v in r), *(f"b={e(v)}" for v in b)]
    if cell != "1,1":
        parts.append(f"cell={e(cell)}")
    parts += [f"stat={e(s)}" for s in stat]
    if as_of:
        parts.append(f"as_of={e(as_of)}")
    return "&".join(parts)


# ------------------------------------------------------------ the format ----
def test_link_format_is_the_interfaces():
    got = links.build(SITE, "수문장 vs 개미", ["수비자 재부팅 개미", "공격자 폭약 폭발"], ["공격자 피의장막"], "2,4",
                      ["개미 hp 2", "개미 체력 3"], "2026-09-20")
    assert got == (f"{SITE}/{PAGE}#q=%EC%88%98%EB%AC%B8%EC%9E%A5%20vs%20%EA%B0%9C%EB%AF%B8"
                   "&r=%EC%88%98%EB%B9%84%EC%9E%90%20%EC%9E%AC%EB%B6%80%ED%8C%85%20%EA%B0%9C%EB%AF%B8"
                   "&r=%EA%B3%B5%EA%B2%A9%EC%9E%90%20%ED%8F%AD%EC%95%BD%20%ED%8F%AD%EB%B0%9C"
                   "&b=%EA%B3%B5%EA%B2%A9%EC%9E%90%20%ED%94%BC%EC%9D%98%EC%9E%A5%EB%A7%89"
                   "&cell=2%2C4&stat=%EA%B0%9C%EB%AF%B8%20hp%202&stat=%EA%B0%9C%EB%AF%B8%20%EC%B2%B4%EB%A0%A5%203"
                   "&as_of=2026-09-20")
    # the default cell and absent stats / date are left out; the page name is percent-encoded
    assert links.build(SITE, "거신 vs 별마대") == f"{SITE}/{PAGE}#q=%EA%B1%B0%EC%8B%A0%20vs%20%EB%B3%84%EB%A7%88%EB%8C%80"


@pytest.mark.parametrize("site", [SITE, SITE + "/", SITE + "//"])
def test_a_site_address_with_or_without_a_trailing_slash_gives_the_same_link(site):
    assert links.build(site, "거신 vs 별마대") == links.build(SITE, "거신 vs 별마대")


@pytest.mark.parametrize("value", [v for v in TRICKY if v])
def test_tricky_values_round_trip_and_escape_everything_but_unreserved(value):
    link = links.build(SITE, value, [value, value + "!"], [value], value, [value], "9월 24일")
    got = links.parse(link)
    assert (got.q, got.r, got.b, got.stat) == (value, (value, value + "!"), (value,), (value,))
    assert got.cell == value and got.as_of == "9월 24일" and got.site == SITE
    frag = link.split("#", 1)[1]
    assert all(ch.isascii() and (ch.isalnum() or ch in "-_.~%=&") for ch in frag), frag
    assert links.fragment(got) == frag  # parse then write gives back the same text


def test_a_blank_value_or_a_date_as_of_does_not_read_is_never_written():
    """What the reader calls damaged (tests/hardening/test_links.py) the writer refuses to write."""
    for kw in ({"q": ""}, {"q": " "}, {"r": [""]}, {"b": ["\u3000"]}, {"cell": " "}, {"stat": [""]},
               {"as_of": "언젠가"}, {"as_of": "2026-13-45"}):
        with pytest.raises(ValueError):
            links.build(SITE, **{"q": "a", **kw})


def test_parse_takes_a_fragment_keys_in_any_order():
    got = links.parse("#as_of=2026-09-20&stat=%EA%B0%9C%EB%AF%B8%20hp%202&q=a%20b&r=1&b=2&r=3")
    assert (got.q, got.r, got.b, got.stat, got.as_of) == ("a b", ("1", "3"), ("2",), ("개미 hp 2",), "2026-09-20")
    # a damaged link is read whole or not at all (links.py; tests/hardening/test_links.py has every rule)
    for bad in ("r=1", "q=%FF", "q=a&x=1", "q=a&q=other", "q=a%"):  # no line, not UTF-8, unknown key, twice, cut
        with pytest.raises(ValueError):
            links.parse(bad)


def test_a_lone_surrogate_is_written_as_the_replacement_character():
    assert links.encode("a\udcffb") == links.encode("a\ufffdb") == "a%EF%BF%BDb"


NODE = shutil.which("node")


@pytest.mark.skipif(NODE is None, reason="node is not installed: JavaScript's encodeURIComponent cannot be asked")
def test_escaping_is_what_the_page_writes_with_encodeURIComponent():
    """The page writes values with encodeURIComponent and escapes ! ' ( ) * as well (calculator.js enc);
    its decodeURIComponent reads what Python wrote."""
    values = [v for v in TRICKY if v]
    script = ("const vs = JSON.parse(process.argv[1]);"
              "console.log(JSON.stringify(vs.map(v => [encodeURIComponent(v).replace(/[!'()*]/g, "
              "c => '%' + c.charCodeAt(0).toString(16).toUpperCase()), decodeURIComponent(process.argv[2 + vs.indexOf(v)])])))")
    encoded = [links.encode(v) for v in values]
    out = subprocess.run([NODE, "-e", script, json.dumps(values), *encoded], capture_output=True, text=True,
                         timeout=60, check=True).stdout
    pairs = json.loads(out)
    assert len(pairs) == len(values) >= 3  # node answered for every value
    for v, (js, back) in zip(values, pairs):
        assert js == links.encode(v), v
        assert back == v, v


# ---------------------------------------------------------------- the CLI ----
@pytest.fixture
def cli(tmp_path):
    return functools.partial(invoke, cache=tmp_path, env=CLEAN)


#: the bundled data and no site address, whatever this shell has set
CLEAN = {"FLAMER_DATA": None, "FLAMER_SITE_URL": None}


README_FIGHTS = [  # README's fight lines, and the options a link carries
    ("거신 vs 별마대, 행성굴착기(정착)", [], [], {}),
    ("수문장 x2 vs 개미(lv1 hp2 atk1), 증폭기(정착 atk0)", [], [], {}),
    ("수문장(lv6), 별마대, 장인 vs 거신, 행성굴착기(정착), 증폭기(정착)", ["수비자 재부팅 행성굴착기"], [], {}),
    ("거신, 장인 vs 개미(정착 lv1 hp2 atk1)", ["수비자 진내폭격 비용 개미"], [], {"as_of": "2026-09-23"}),
    ("별마대, 장인 vs 거신 2기", [], [], {"cell": "2,4"}),
    ("거신 vs 수문장", [], ["공격자 피의장막"], {}),
    ("수문장 vs 행성굴착기(정착)", ["수비자 재부팅 행성굴착기"], [], {"as_of": "9/20"}),
]


def argv_of(line, r, b, opts) -> list[str]:
    argv = ["fight", line]
    for v in r:
        argv += ["-r", v]
    for v in b:
        argv += ["-b", v]
    if "cell" in opts:
        argv += ["--cell", opts["cell"]]
    if "as_of" in opts:
        argv += ["--as-of", opts["as_of"]]
    return argv


@pytest.mark.parametrize("line,r,b,opts", README_FIGHTS, ids=[str(i) for i in range(len(README_FIGHTS))])
def test_the_link_is_the_last_line_after_the_unchanged_answer(cli, line, r, b, opts):
    argv = argv_of(line, r, b, opts)
    plain = cli(*argv)
    assert plain.exit_code == 0, plain.stderr
    got = cli(*argv, "--link", "--site-url", SITE + "/")
    assert got.exit_code == 0, got.stderr
    as_of = {"9/20": "2026-09-20"}.get(opts.get("as_of"), opts.get("as_of"))  # the date as the CLI reads it
    want = f"{SITE}/{PAGE}#" + spec_hash(line, r, b, opts.get("cell", "1,1"), (), as_of)
    assert got.stdout == plain.stdout + "\n" + want + "\n"
    # the link holds the same fight: read back, it runs to the same JSON
    back = links.parse(want)
    again = cli(*argv_of(back.q, back.r, back.b, {**({"cell": back.cell} if back.cell != "1,1" else {}),
                                                 **({"as_of": back.as_of} if back.as_of else {})}), "--json")
    assert again.stdout == cli(*argv, "--json").stdout


def test_json_link_is_one_more_key_of_the_one_object(cli):
    argv = argv_of(*README_FIGHTS[2])
    plain = json.loads(cli(*argv, "--json").stdout)
    got = cli(*argv, "--json", "--link", "--site-url", SITE)
    assert got.exit_code == 0
    obj = json.loads(got.stdout)  # one JSON object, nothing after it
    assert list(obj)[-1] == "link" and obj.pop("link").startswith(f"{SITE}/{PAGE}#q=")
    assert obj == plain
    brief = json.loads(cli(*argv, "--json", "--brief", "--link", "--site-url", SITE).stdout)
    assert list(brief) == ["verdict", "lines", "link"]
    cmp = json.loads(cli(*argv, "--json", "--compare", "2026-09-20", "--link", "--site-url", SITE).stdout)
    assert cmp["kind"] == "compare" and cmp["link"] == obj_link(cli, argv)


def obj_link(cli, argv) -> str:
    return json.loads(cli(*argv, "--json", "--link", "--site-url", SITE).stdout)["link"]


def test_without_link_the_json_has_no_link_key(cli):
    assert "link" not in json.loads(cli("fight", "거신 vs 별마대", "--json").stdout)


def test_html_puts_the_link_in_the_page_and_md_and_brief_end_with_it(cli):
    argv = ["fight", "거신 vs 별마대 <b>&"]
    link = obj_link(cli, argv)
    page = cli(*argv, "--format", "html", "--link", "--site-url", SITE)
    assert page.exit_code == 0
    assert page.stdout.rstrip().endswith("</html>")  # nothing after the page
    assert f'<a href="{link}">{link}</a>' in page.stdout  # (the link holds no & < > ": nothing to escape)
    assert cli(*argv, "--format", "html", "--brief", "--link", "--site-url", SITE).stdout.count(f'href="{link}"') == 1
    for extra in (["--format", "md"], ["--brief"], ["--format", "md", "--brief"], ["--compare", "9/20"]):
        out = cli(*argv, *extra, "--link", "--site-url", SITE).stdout
        shown = f"<{link}>" if "md" in extra else link   # Markdown: an autolink, never read as markup
        assert out.endswith("\n\n" + shown + "\n"), extra  # alone, after a blank line (md: its own paragraph)


def test_site_url_from_the_environment(cli):
    got = cli("fight", "거신 vs 별마대", "--link", env={**CLEAN, "FLAMER_SITE_URL": "https://chat.example/site/"})
    assert got.exit_code == 0
    assert got.stdout.splitlines()[-1] == "https://chat.example/site/" + PAGE + "#" + spec_hash("거신 vs 별마대")
    # --site-url wins over the environment
    got = cli("fight", "거신 vs 별마대", "--link", "--site-url", SITE, env={**CLEAN, "FLAMER_SITE_URL": "https://x.example"})
    assert got.stdout.splitlines()[-1].startswith(SITE + "/" + PAGE)


def test_stats_given_and_dates_go_into_the_link(cli):
    got = cli("fight", "수문장 vs 개미", "--stat", "개미 hp 2", "--stat", " 개미 공격 1 ", "--as-of", "9월 20일",
              "--link", "--site-url", SITE)
    assert got.exit_code == 0, got.stderr
    assert got.stdout.splitlines()[-1] == f"{SITE}/{PAGE}#" + spec_hash("수문장 vs 개미", stat=["개미 hp 2", "개미 공격 1"],
                                                                         as_of="2026-09-20")


def test_values_typed_at_the_prompt_go_into_the_link(cli, monkeypatch):
    from flamer_ref import cli as cli_mod

    answers = {"hp": 2, "atk": 1}
    monkeypatch.setattr(cli_mod, "_ask_missing", lambda missing, as_json: {(m.piece, m.stat): answers[m.stat]
                                                                          for m in missing})
    got = cli("fight", "수문장 vs 개미", "--link", "--site-url", SITE)
    assert got.exit_code == 0, got.stderr
    assert got.stdout.splitlines()[-1] == f"{SITE}/{PAGE}#" + spec_hash("수문장 vs 개미", stat=["개미 hp 2", "개미 atk 1"])


def test_a_refused_play_is_a_verdict_and_keeps_its_link(cli):
    argv = ["fight", "거신 vs 수문장, 장인(정착)", "-r", "공격자 재부팅 장인"]
    want = f"{SITE}/{PAGE}#" + spec_hash(argv[1], [argv[3]])
    got = cli(*argv, "--link", "--site-url", SITE)
    assert got.exit_code == 1 and got.stderr.startswith("불가 — ")
    assert got.stdout == want + "\n"
    got = cli(*argv, "--json", "--link", "--site-url", SITE)
    obj = json.loads(got.stdout)
    assert obj["error"]["code"] == "forbidden" and obj["link"] == want
    # any other error prints no link: there is no verdict to share
    for bad in (["fight", "거신 vs"], ["fight", "없는카드 vs 거신"], ["fight", "수문장 vs 개미"]):
        got = cli(*bad, "--link", "--site-url", SITE)
        assert got.exit_code == 1 and got.stdout == "", bad
        got = cli(*bad, "--json", "--link", "--site-url", SITE)
        assert "link" not in json.loads(got.stdout), bad


# a real process, forked from a warm interpreter, with no site address unless a test gives one
flamer = functools.partial(flamer_fork.run, timeout=60, cwd=Path(__file__).resolve().parents[2],
                           env={"FLAMER_SITE_URL": None})


def test_link_usage_errors_are_korean_and_exit_2():
    r = flamer("fight", "거신 vs 별마대", "--link")
    assert r.returncode == 2 and r.stdout == ""
    assert "--site-url" in r.stderr and "FLAMER_SITE_URL" in r.stderr and "사이트 주소가 없습니다" in r.stderr
    r = flamer("fight", "거신 vs 별마대", "--link", "--json", env={"FLAMER_SITE_URL": ""})
    assert r.returncode == 2 and "사이트 주소가 없습니다" in r.stderr
    r = flamer("fight", "거신 vs 별마대", "--site-url", SITE)
    assert r.returncode == 2 and "--link와 함께" in r.stderr
    for bad in ("example.org", "javascript://x", "https://e.org/a#b", "https://e.org/?x=1", "https://e.org/a b"):
        r = flamer("fight", "거신 vs 별마대", "--link", "--site-url", bad)
        assert r.returncode == 2 and "사이트 주소로 쓸 수 없습니다" in r.stderr, bad
    r = flamer("fight", "거신 vs 별마대", "--link", env={"FLAMER_SITE_URL": "ftp://x"})
    assert r.returncode == 2 and "FLAMER_SITE_URL" in r.stderr
    assert "Traceback" not in r.stderr


def test_help_tells_link_site_url_and_stat():
    out = invoke("fight", "--help").stdout
    for opt in ("--link", "--site-url", "FLAMER_SITE_URL", "--stat"):
        assert opt in out
