"""Issue 25 (the calculator links and the in-browser engine), the parts outside a browser:

- fault 2: ONE reader of the calculator link. flamer_ref/links.py `read` and the page's FlamerLink.read
  (templates/site/assets/calculator.js, loaded by node) read the same few hundred fragments — valid
  links, links cut by a chat client (a stray '%', '%E', a cut character), %ZZ, escaped bytes that are
  not UTF-8, unknown keys, repeated single keys, bad dates, empty values, no q, scenario links — made
  deterministically here, and give the same fields or the same damage (code, key, piece). A damaged
  value is never dropped: the whole link is damaged. as_of reads as --as-of reads (dates.parse_date).
- fault 6: `fight --link --format md` cannot carry markup: the site address is percent-encoded and the
  link is a Markdown autolink, rendered here by markdown-it (CommonMark) when it is installed.
- the refused play (불가) of `fight --link --format html`: the link is inside an HTML page.
- fault 16 (the engine's half): a 100,000-deep `[[…]]` gets the same message from the pure-Python
  YAML reader the browser runs (PyYAML without libyaml) as from the command line's (libyaml).

The browser's half (the page's damage message, the time limit, cancelling, the 23-digit stat) is in
tests/web/test_calculator.py.
"""

from __future__ import annotations

import functools
import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote

import pytest
from inprocess import invoke

from flamer_ref import dates, links

ROOT = Path(__file__).resolve().parents[2]
CALCULATOR_JS = ROOT / "templates" / "site" / "assets" / "calculator.js"
NODE = shutil.which("node")
PAGE = "%ED%8C%90%EC%A0%95%EA%B8%B0.html"
SITE = "https://example.org/flamer"
#: the hostile pass's fight (fault 2): 진내폭격 decides it; without it 공격자가 개미를 포획
LINE = "거신, 장인 vs 개미(정착 lv1 hp2 atk1)"
DECL = "수비자 진내폭격 비용 개미"
#: the hostile pass's site address (fault 6)
EVIL_SITE = "https://a/![x](https://evil.example/t.png)<b>b</b>"


# ------------------------------------------------------- one reader, two languages ----
def py_outcome(frag: str) -> dict:
    """links.read's answer as the page's reader gives it (without its raw/value echo)."""
    try:
        got = links.read(frag)
    except links.LinkError as exc:
        return {"kind": "damaged", "code": exc.code, "key": exc.key, "piece": exc.piece}
    if got is None:
        return {"kind": "none"}
    if isinstance(got, links.ScenarioLink):
        return {"kind": "scenario", "y": got.y}
    return {"kind": "fight", "q": got.q, "r": list(got.r), "b": list(got.b), "cell": got.cell,
            "stat": list(got.stat), "as_of": got.as_of}


JS_READ = r"""
const L = require(process.argv[1]);
let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', d => { input += d; });
process.stdin.on('end', async () => {
  const given = JSON.parse(input);
  Object.assign(L.dictionaries, given.dictionaries);
  const out = [];
  for (const f of given.frags) {
    const got = await L.readAsync(f);
    const sync = L.read(f);   // the synchronous pass: the same answer, or a stop at a compressed value
    if (sync.kind !== 'packed' && JSON.stringify(sync) !== JSON.stringify(got)) throw new Error('read and readAsync differ: ' + f);
    if (got.kind === 'damaged') {
      const m = L.message(got);
      const head = got.code === 'cut' ? '링크가 잘렸습니다: ' : '링크가 손상되었습니다: ';
      if (!m.startsWith(head)) throw new Error('no damage sentence for ' + got.code);
      out.push({kind: got.kind, code: got.code, key: got.key, piece: got.piece});
    } else out.push(got);
  }
  process.stdout.write(JSON.stringify(out));
});
"""


def js_outcomes(frags: list[str]) -> list[dict]:
    """FlamerLink.readAsync on every fragment, in ONE node process (calculator.js loaded as a module, the
    preset dictionaries given as the page gets them from the build)."""
    from flamer_ref.linkdict import DICTIONARIES

    given = {"frags": frags, "dictionaries": {str(k): v for k, v in DICTIONARIES.items()}}
    proc = subprocess.run([NODE, "-e", JS_READ, str(CALCULATOR_JS)], input=json.dumps(given), capture_output=True,
                          text=True, encoding="utf-8", timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout)


TEXTS = ["거신 vs 별마대, 행성굴착기(정착)", LINE, "수문장 x2 vs 개미(lv1 hp2 atk1)", "a b&c=d#e%f+g", "😀 vs 🐜",
         "(괄호) [대괄호] <꺾쇠> \"따옴표\"", "~!*'();:@$,/?", "줄\n바꿈", "é ü 中文", "100%", "_x_ ~~y~~"]
DECLS = [DECL, "수비자 재부팅 행성굴착기", "공격자 피의장막", "수비자 폭약 폭발", "a=b&c"]
STATS = ["개미 hp 2", "개미 체력 99999999999999999999999", "잠식된 석산 atk 1", "개미 속도 2"]
GOOD_DATES = ["2026-09-24", "2024-02-29", "9/24", "09-24", "9.24", "9.24.", "9월 24일", "9월24", "2026년 9월 24일",
              " 9/24 ", "2/29", "12 / 31"]
BAD_DATES = ["2026-13-45", "abc", "2026-02-29", "0000-01-01", "9/31", "13/1", "0/5", "2026-9-4", "20260924",
             "٩/٢٤", "９/２４", "9월 24일 오후", "언젠가", "2026-W39-4", "9/24/2026"]
BLANKS = ["", " ", "\u3000", "\u00a0", "\t\n", "\ufeff"]
NOT_BLANK = ["\u200b", "\u0085", "\u180e", "\x1c"]   # not in the shared BLANK set (Python or JS alone would differ)
BAD_ESCAPES = ["%", "%E", "%ZZ", "%G1", "%%41", "%4"]
NOT_UTF8 = ["%FF", "%C3%28", "%ED%A0%80", "%F4%90%80%80", "%C0%AF", "%E2%82", "%EA%B1", "%80"]


def valid_link(rng: random.Random) -> links.FightLink:
    return links.FightLink(q=rng.choice(TEXTS), r=tuple(rng.sample(DECLS, rng.randint(0, 2))),
                           b=tuple(rng.sample(DECLS, rng.randint(0, 1))), cell=rng.choice(["1,1", "2,4", "abc"]),
                           stat=tuple(rng.sample(STATS, rng.randint(0, 2))),
                           as_of=rng.choice([None, None, *GOOD_DATES]))


def damage(frag: str, rng: random.Random) -> str:
    """One way a link gets damaged on its way (or by hand)."""
    pieces = frag.split("&")
    op = rng.randrange(12)
    if op == 0:                                   # cut by a chat client anywhere
        return frag[: rng.randrange(1, len(frag) + 1)]
    if op == 1:                                   # a stray % (or %E) at the end
        return frag + rng.choice(["%", "%E", "%EC%A7"])
    if op == 2:                                   # a bad escape inside a value
        i = rng.randrange(len(pieces))
        k, _, v = pieces[i].partition("=")
        pieces[i] = f"{k}={v[: len(v) // 2]}{rng.choice(BAD_ESCAPES)}{v[len(v) // 2:]}"
    elif op == 3:                                 # escaped bytes that are not UTF-8
        i = rng.randrange(len(pieces))
        pieces[i] += rng.choice(NOT_UTF8)
    elif op == 4:                                 # an unknown key
        pieces.insert(rng.randrange(len(pieces) + 1), rng.choice(["x=1", "Q=a", "utm_source=chat", "%71=1", "q =a",
                                                                  "=1", "as-of=2026-09-24", "stats=1", "R=1"]))
    elif op == 5:                                 # a single key twice
        key = rng.choice(["q", "cell", "as_of", "y"])
        pieces.insert(rng.randrange(len(pieces) + 1), f"{key}={quote(rng.choice(['1,1', '2026-09-24', 'a']), safe='')}")
    elif op == 6:                                 # a bad (or good) date
        pieces = [p for p in pieces if not p.startswith("as_of=")]
        pieces.append("as_of=" + quote(rng.choice(BAD_DATES + GOOD_DATES), safe=""))
    elif op == 7:                                 # an empty or blank value (or one that only looks blank)
        key = rng.choice(["q", "r", "b", "cell", "stat", "as_of"])
        pieces.insert(rng.randrange(len(pieces) + 1), f"{key}={quote(rng.choice(BLANKS + NOT_BLANK), safe='')}")
    elif op == 8:                                 # no q
        pieces = [p for p in pieces if not p.startswith("q=")] or ["r=1"]
    elif op == 9:                                 # empty pieces, a piece without '='
        pieces.insert(rng.randrange(len(pieces) + 1), rng.choice(["", "r", "q", "as_of"]))
    elif op == 10:                                # a scenario mixed in
        pieces.insert(rng.randrange(len(pieces) + 1), "y=" + quote("kind: combat\n", safe=""))
    else:                                         # bare characters a person may type (a raw lone surrogate too)
        i = rng.randrange(len(pieces))
        pieces[i] += rng.choice(["+", "=", "#", "거신 vs", " ", "\ud800", "\udc00x", "😀"])
    return "&".join(pieces)


def fragments() -> list[str]:
    """A few hundred fragments, the same every run: fixed cases, then valid links and their damage."""
    fixed = ["", "q=a", "r=1", "y=abc", "y=", "y=a&y=b", "y=a&q=b", "q=b&y=a", "&q=a", "q=a&", "q=a&&r=1", "=",
             "q==a", "q=a+b", "q=%2B", "q=거신 vs 별마대", "q=%ED%A0%80", "q=\ud800", "q=%F0%9F%98%80",
             "q=a&as_of=2026-13-45", "q=a&as_of=abc", "q=a&as_of=9%2F24", "q=a&as_of=", "q=a&r=", "q=%20",
             "q=a&cell=%C2%A0", "q=%E2%80%8B", "Q=a", "q=a&q=a", "q=a&b=%ZZ", "q=a&stat=%EA%B0%9C%EB%AF%B8%20hp%202",
             "q=" + links.encode(LINE) + "&r=" + links.encode(DECL) + "%",   # the hostile pass's link, cut
             "y=" + links.encode("[" * 50 + "]" * 50)]
    rng = random.Random(25)
    out = list(fixed)
    for _ in range(120):
        out.append(links.fragment(valid_link(rng)))
    for _ in range(360):
        frag = links.fragment(valid_link(rng))
        for _ in range(rng.choice([1, 1, 2, 3])):
            frag = damage(frag, rng)
        out.append(frag)
    for _ in range(20):
        out.append("y=" + links.encode(rng.choice(TEXTS)) + rng.choice(["", "%", "%E", "&q=a", "&y=b", "&x=1"]))
    out += packed_fragments(rng)
    return out


def packed_fragments(rng: random.Random) -> list[str]:
    """Compressed scenario links (issue 26: y=~<d>~<n>~<crc>~<data>), whole, cut anywhere, and tampered with."""
    from flamer_ref.scenario_files import available_kinds, template_text

    texts = [template_text(k) for k in available_kinds()] + TEXTS + ["\ufeff종류: 전투\n", "a" * 70000]
    whole = [links.pack(rng.choice(texts), rng.choice([0, 1, 1])) for _ in range(40)]
    out = ["y=" + v for v in whole]
    out += ["y=~", "y=~1", "y=~1~", "y=~1~12", "y=~1~12~", "y=~1~12~abc", "y=~1~12~0123abcd", "y=~1~12~0123abcd~",
            "y=~9~4~00000000~AAAA", "y=~1~0~00000000~", "y=~1~5~00000000~AAAAA", "y=~x~4~00000000~AAAA",
            "y=~1~4~0000000G~AAAA", "y=~1~4~00000000~AA=A", "y=" + links.pack("   "), "y=" + links.pack("\u3000\n"),
            "y=%7E1%7E4%7E00000000%7EAAAA", "y=~0~4~00000000~AAAA", "y=~1~999999999~00000000~"]
    for v in whole:
        head_end = v.rindex("~") + 1
        for _ in range(3):                                    # cut by a chat client: in the data or in the head
            out.append("y=" + v[: rng.randrange(1, len(v))])
        i = rng.randrange(head_end, len(v))                   # a character changed
        out.append("y=" + v[:i] + rng.choice("AZaz09-_!.") + v[i + 1:])
        out.append("y=" + v + rng.choice(["A", "AA", "~", "&q=a", "&y=" + v, "%", "&x=1"]))
        crc = v.split("~")[3]                                  # another checksum
        out.append("y=" + v.replace("~" + crc + "~", "~" + f"{(int(crc, 16) ^ 1):08x}" + "~"))
    # a DEFLATE stream that inflates to more than a scenario may be (a bomb), and one with junk after its end
    import base64
    import zlib

    big = b"x" * (links.SCENARIO_MAX_BYTES + 1)
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    data = base64.urlsafe_b64encode(c.compress(big) + c.flush()).decode().rstrip("=")
    out.append(f"y=~0~{len(data)}~{zlib.crc32(big):08x}~{data}")
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    data = base64.urlsafe_b64encode(c.compress(b"kind: combat\n") + c.flush() + b"junk").decode().rstrip("=")
    out.append(f"y=~0~{len(data)}~{zlib.crc32(b'kind: combat' + bytes([10])):08x}~{data}")
    return out


@pytest.mark.skipif(NODE is None, reason="node is not installed: the page's reader cannot be run outside a browser")
def test_the_page_and_the_cli_read_every_link_alike():
    frags = fragments()
    assert len(frags) > 500
    py = [py_outcome(f) for f in frags]
    js = js_outcomes(frags)
    assert len(js) == len(py)
    for frag, a, b in zip(frags, py, js):
        assert a == b, (frag, a, b)
    # the sample reaches every rule: each damage, every kind of outcome, every key named in a damage
    kinds = {o["kind"] for o in py}
    codes = {o["code"] for o in py if o["kind"] == "damaged"}
    keys = {o["key"] for o in py if o["kind"] == "damaged"}
    assert kinds == {"none", "fight", "scenario", "damaged"}
    assert codes == set(links.DAMAGE), set(links.DAMAGE) - codes
    assert {"q", "r", "b", "cell", "stat", "as_of", "y"} <= keys
    assert sum(o["kind"] == "fight" for o in py) >= 120 and sum(o["kind"] == "damaged" for o in py) >= 250


def test_a_link_cut_after_a_percent_is_damaged_not_shortened():
    """Fault 2: the 진내폭격 declaration cut by a chat client ('…%') is not dropped (the fight without it
    is another verdict): the link is damaged at that piece."""
    cut = links.build(SITE, LINE, [DECL]) + "%"
    with pytest.raises(links.LinkError) as got:
        links.parse(cut)
    assert (got.value.code, got.value.key, got.value.piece) == ("bad-escape", "r", 2)
    # cut inside the character instead (…%EB%B0): damaged too; whole, the link reads back whole
    with pytest.raises(links.LinkError) as got:
        links.parse(links.build(SITE, LINE, [DECL])[:-3])
    assert got.value.code == "bad-utf8" and got.value.key == "r"
    assert links.parse(links.build(SITE, LINE, [DECL])) == links.FightLink(LINE, (DECL,))


@pytest.mark.parametrize("value,code", [("2026-13-45", "bad-date"), ("abc", "bad-date"), ("", "empty-value"),
                                        ("2026-02-29", "bad-date"), ("9/31", "bad-date")])
def test_a_bad_date_is_a_damaged_link_not_the_latest(value, code):
    with pytest.raises(links.LinkError) as got:
        links.read("q=a&as_of=" + quote(value, safe=""))
    assert (got.value.code, got.value.key) == (code, "as_of")
    with pytest.raises(ValueError):   # and no link is ever written with one
        links.build(SITE, "a", as_of=value)


def test_link_dates_are_the_dates_as_of_reads():
    """is_link_date (and the page's isDate, by the test above) takes exactly the ASCII dates the CLI's
    --as-of takes (dates.parse_date; a month and day without the year checked against a leap year: the
    data's year is the engine's to know), and never one --as-of refuses."""
    samples = GOOD_DATES + BAD_DATES + ["2026년 2월 29일", "2024년 2월 29일", "1/1", "01-01.", "9 월 24 일", "9월", "9",
                                        " 2026-09-24\t", "2026-09-24 ", "9//24", "9-24-", "99/99", "2026-00-10"]
    for v in samples:
        cli_ok = dates.parse_date(v, 2024) is not None
        if links.is_link_date(v):
            assert cli_ok, v
        elif v.isascii():
            assert not cli_ok, v
    assert sum(links.is_link_date(v) for v in samples) >= 12


def test_unknown_keys_and_repeated_keys_are_damage():
    for frag, code, key in (("q=a&utm_source=chat", "unknown-key", "utm_source"), ("q=a&q=b", "repeated-key", "q"),
                            ("q=a&cell=1%2C2&cell=1%2C2", "repeated-key", "cell"), ("y=a&r=1", "mixed", "r"),
                            ("r=1", "no-q", None), ("q=a&r=%20", "empty-value", "r")):
        with pytest.raises(links.LinkError) as got:
            links.read(frag)
        assert (got.value.code, got.value.key) == (code, key), frag
    assert links.read("") is None


# ------------------------------------------------------------------ the CLI ----
@pytest.fixture
def cli(tmp_path):
    return functools.partial(invoke, cache=tmp_path, env={"FLAMER_DATA": None, "FLAMER_SITE_URL": None})


def markdown_html(text: str) -> str | None:
    try:
        from markdown_it import MarkdownIt
    except ImportError:  # the checks on the text itself below still run
        return None
    return MarkdownIt("commonmark").render(text)


def test_a_site_address_cannot_put_markup_into_the_markdown_answer(cli):
    """Fault 6: the address is percent-encoded (nothing but A–Z a–z 0–9 - _ . ~ : / @ % bare) and the
    Markdown answer writes the link as an autolink, so nothing of it becomes an image, a link text or
    HTML; the link still opens the same fight."""
    for extra in ([], ["--brief"]):
        got = cli("fight", "거신 vs 별마대", "--format", "md", *extra, "--link", "--site-url", EVIL_SITE)
        assert got.exit_code == 0, got.stderr
        last = got.stdout.rstrip("\n").split("\n")[-1]
        assert last.startswith("<https://a/") and last.endswith(">"), last
        link = last[1:-1]
        assert all(ch.isascii() and (ch.isalnum() or ch in "-_.~:/@%#=&") for ch in link), link
        for bad in ("![", "](", "<b>", "</b>", "(", ")", "[", "]", "!"):
            assert bad not in link, bad
        assert links.parse(link).q == "거신 vs 별마대"
        html = markdown_html(got.stdout)
        if html is not None:
            assert "<img" not in html and "<b>" not in html and "evil.example/t.png\"" not in html, html
            assert html.count("<a href=") == 1 and f'<a href="{link.replace("&", "&amp;")}">' in html, html
    # text and html carry the same address; --json too
    plain = cli("fight", "거신 vs 별마대", "--link", "--site-url", EVIL_SITE).stdout.rstrip("\n").split("\n")[-1]
    assert plain == link
    page = cli("fight", "거신 vs 별마대", "--format", "html", "--link", "--site-url", EVIL_SITE).stdout
    assert "<b>b</b>" not in page and f'<a href="{link}">' in page


def test_a_link_with_an_underscore_or_tilde_value_stays_whole_in_markdown(cli):
    """Values keep - _ . ~ bare (the link format): in Markdown the autolink keeps `_x_` and `~~y~~` letters."""
    got = cli("fight", "수문장 vs 가_x_(lv1 hp1 atk1) ~~y~~", "--format", "md", "--link", "--site-url", SITE)
    last = got.stdout.rstrip("\n").split("\n")[-1]
    html = markdown_html(got.stdout)
    if html is not None:
        assert "<em>" not in html.split("<p><a href=")[-1] and "<del>" not in html
    assert links.parse(last[1:-1]).q == "수문장 vs 가_x_(lv1 hp1 atk1) ~~y~~"


def test_a_refused_play_puts_its_link_inside_the_html_page(cli):
    argv = ["fight", "거신 vs 수문장, 장인(정착)", "-r", "공격자 재부팅 장인"]
    link = links.build(SITE, argv[1], [argv[3]])
    got = cli(*argv, "--format", "html", "--link", "--site-url", SITE)
    assert got.exit_code == 1 and got.stderr.startswith("불가 — ")
    out = got.stdout
    assert out.startswith("<!DOCTYPE html>") and out.rstrip().endswith("</html>"), out[:200]
    assert f'<a href="{link.replace("&", "&amp;")}">' in out
    assert out.count("<html") == 1 and link not in out.split("</html>")[-1]
    first = got.stderr.splitlines()[0]
    assert f"<p>{first}</p>" in out   # the refusal, as the CLI says it
    # text and Markdown: the link alone on stdout (Markdown: an autolink)
    assert cli(*argv, "--link", "--site-url", SITE).stdout == link + "\n"
    assert cli(*argv, "--format", "md", "--link", "--site-url", SITE).stdout == f"<{link}>\n"


# ---------------------------------------------------- deep nesting, both readers ----
DEEP = [
    "종류: 전투\n셀: " + "[" * 100000 + "]" * 100000 + "\n",     # the hostile pass's #y=
    "종류: 전투\n셀: " + "[" * 999 + "]" * 999 + "\n",           # one under libyaml's limit: the input gate's
    "종류: 전투\n셀: " + "[" * 1000 + "]" * 1000 + "\n",
    "a:\n  b:\n    c: " + "[" * 998 + "]" * 998 + "\n",          # block levels count with flow levels
    "x: " + "[\n" * 1000 + "]" * 1000 + "\n",
    "".join(" " * i + "-\n" for i in range(1100)),               # block nesting alone
    "- " * 1100 + "x\n",
    "a: " + "[" * 2000,
]

PURE = r"""
import json, sys
sys.modules["yaml._yaml"] = None          # PyYAML without libyaml, as in the browser
import yaml
from flamer_ref import web, yamlio
assert not yaml.__with_libyaml__ and yamlio._Base is yamlio._PureBase
print(json.dumps([web.run(["simulate", "-"], t) for t in json.load(sys.stdin)], ensure_ascii=False))
"""


def test_deep_nesting_reads_the_same_without_libyaml():
    """Fault 16: `flamer simulate -` on a deeply nested YAML says the same with libyaml (the command
    line) and without it (the browser's engine): libyaml's nesting limit (1,000 levels, flow and block
    together, found by its look-ahead before the input gate's 64) is the pure reader's too."""
    import yaml

    from flamer_ref import web

    if not getattr(yaml, "__with_libyaml__", False):
        pytest.skip("this PyYAML has no libyaml: the command line reads as the browser does")
    native = [web.run(["simulate", "-"], t) for t in DEEP]
    proc = subprocess.run([sys.executable, "-c", PURE], input=json.dumps(DEEP), capture_output=True, text=True,
                          encoding="utf-8", cwd=ROOT, timeout=300,
                          env={**os.environ, "PYTHONIOENCODING": "utf-8", "FLAMER_CACHE_DIR": ""})
    assert proc.returncode == 0, proc.stderr[-2000:]
    pure = json.loads(proc.stdout)
    for text, a, b in zip(DEEP, native, pure):
        assert a["code"] == 1 and a == b, (text[:40], a["stderr"], b["stderr"])
    # the hostile case: the parser's limit, worded in Korean, on line 2 — not the gate's 64-level message
    assert "2행" in native[0]["stderr"] and "너무 깊게 중첩" in native[0]["stderr"], native[0]["stderr"]
    assert "64단계보다 깊게" in native[1]["stderr"]
