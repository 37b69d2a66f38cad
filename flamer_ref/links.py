"""The calculator link: a one-line fight (or a scenario) as an address of the site's calculator page.

    <site-url>/%ED%8C%90%EC%A0%95%EA%B8%B0.html#q=<line>&r=<decl>&b=<decl>&cell=<x,y>&stat=<spec>&as_of=<date>
    <site-url>/%ED%8C%90%EC%A0%95%EA%B8%B0.html#y=<scenario YAML>

Writing (`build`, and templates/site/assets/calculator.js as the player types): keys in this order,
`r`, `b` and `stat` repeated in declaration order, `cell` only when it is not the default `1,1`, `stat`
and `as_of` only when given. Every value is percent-encoded as UTF-8 with nothing left bare but
A–Z a–z 0–9 - _ . ~ (Python's `quote(v, safe="")`, JavaScript's encodeURIComponent plus ! ' ( ) *), and
the page name 판정기.html is percent-encoded too, so that chat clients keep the link whole. A site
address with or without a trailing slash gives the same link; the site address itself is written with
every character but A–Z a–z 0–9 - _ . ~ : / @ percent-encoded (and a '%' kept only where it starts
%XX), so that no address can carry markup into an answer (`page_url`).

Reading (`read`; the page's reader, FlamerLink.read in calculator.js, follows the same rules and
tests/hardening/test_links.py runs both on the same damaged links): a link is read whole or not at all.
A link cut by a chat client, or edited by hand, is *damaged* — the page then says so and computes
nothing, instead of computing a different fight from what is left. The fragment (after '#') is split
at '&' and read piece by piece, left to right; the first piece that breaks a rule names the damage:

    empty-piece    an empty piece ('&&', a trailing '&')
    no-equals      a piece without '='
    unknown-key    a key other than q r b cell stat as_of y (keys are case-sensitive, never escaped)
    bad-escape     a '%' not followed by two hex digits (a link cut inside %XX ends in '%' or '%E')
    bad-utf8       escaped bytes that are not UTF-8 (a link cut inside a character)
    repeated-key   q, cell, as_of or y given twice
    mixed          y (a scenario) together with any fight key
    empty-value    a value that is empty or only spaces (BLANK)
    bad-date       an as_of that is not a date the CLI's --as-of reads (is_link_date)
    no-q           (after the last piece) a fight link without q

A value is everything after the piece's first '='; '+' is a plus sign, and characters left bare stay
as they are. An empty fragment is no link at all (None). Keys come in any order; `r`, `b`, `stat`
keep theirs.

A scenario link written today carries the YAML compressed (`build_scenario`; the page asks the engine,
`flamer simulate - --link`, for the same link as the player types): the value of `y` is

    ~<d>~<n>~<crc>~<data>

where <data> is the UTF-8 YAML compressed with raw DEFLATE (RFC 1951: Python's zlib with wbits=-15; the
browser reads it with DecompressionStream('deflate-raw')) in base64url without padding, <d> the preset
dictionary it was compressed with (0: none; 1: linkdict.DICTIONARIES[1], the text of the scenario
templates, frozen — a reader puts it in DEFLATE's window first, as a stored block in the browser), <n>
the number of characters of <data> and <crc> the CRC-32 of the UTF-8 YAML as eight lowercase hex digits.
Every character of it is one a link keeps bare, so a chat client keeps it whole or cuts it short. A
value that does not start with '~' is the YAML itself, percent-encoded (the older, longer form: still
read). Two more damages belong to this form (checked after the piece's other rules):

    cut            the value stops short: fewer than <n> characters of data, or a head cut off (a link
                   cut by a chat client: the page says 링크가 잘렸습니다)
    bad-data       anything else wrong in it: a malformed head or a dictionary this reader does not
                   have, more than <n> characters or one outside base64url, data that does not inflate,
                   inflates to more than SCENARIO_MAX_BYTES or to bytes that are not UTF-8, or a CRC-32
                   that differs

Pure: no I/O, no words (the page words the damage in Korean; the codes above are what both readers
agree on).
"""

from __future__ import annotations

import base64
import re
import zlib
from dataclasses import dataclass, field
from urllib.parse import quote, unquote_to_bytes

#: the calculator page of the built site
PAGE = "판정기.html"
#: the combat cell of a one-line fight when none is given (oneliner.DEFAULT_CELL)
DEFAULT_CELL = "1,1"
#: the keys of a fight link, in the order they are written
KEYS = ("q", "r", "b", "cell", "stat", "as_of")
#: the key of a scenario link (the whole YAML)
SCENARIO_KEY = "y"
_REPEATED = frozenset({"r", "b", "stat"})
_ALL_KEYS = frozenset(KEYS) | {SCENARIO_KEY}
#: the damage codes, in the order of the checks made on one piece (no-q comes after the last piece)
DAMAGE = ("empty-piece", "no-equals", "unknown-key", "bad-escape", "bad-utf8", "repeated-key", "mixed",
          "empty-value", "bad-date", "cut", "bad-data", "no-q")
#: the mark that starts a compressed scenario value (y=~<d>~<n>~<crc>~<data>)
PACKED = "~"
#: the preset dictionary links are written with (linkdict.DICTIONARIES)
DICTIONARY = 1
#: the largest scenario a link unpacks to, in UTF-8 bytes: what `flamer simulate` takes (yamlio.SCENARIO_MAX_BYTES)
SCENARIO_MAX_BYTES = 2 * 1024 * 1024
_PACKED = re.compile(r"~([0-9])~([1-9][0-9]{0,8})~([0-9a-f]{8})~([A-Za-z0-9_-]*)")
#: a value that is the start of a compressed value's head (a link cut inside it)
_PACKED_HEAD = re.compile(r"~(?:[0-9](?:~(?:[0-9]{0,9}(?:~[0-9a-f]{0,8})?)?)?)?")
_B64URL = re.compile(r"[A-Za-z0-9_-]*")
#: what counts as blank in a value: the characters JavaScript's String.prototype.trim removes (the
#: page drops a declaration row that trims to nothing), spelt out so that both readers use the same set
BLANK = " \t\n\v\f\r\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a" \
        "\u2028\u2029\u202f\u205f\u3000\ufeff"
_BAD_ESCAPE = re.compile(r"%(?![0-9A-Fa-f]{2})")
# the site address: what stays bare (anything else is percent-encoded as UTF-8)
_SITE_SAFE = "-_.~:/@"

# as_of: the forms dates.parse_date reads, in ASCII digits and ASCII spaces (a subset of what the CLI
# reads, so a date a link carries is always one --as-of takes)
_SP = "[ \t\n\r\f\v]*"
_ISO = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})")
_YMD = re.compile(rf"([0-9]{{4}}){_SP}년{_SP}([0-9]{{1,2}}){_SP}월{_SP}([0-9]{{1,2}}){_SP}일?")
_MD = (re.compile(rf"([0-9]{{1,2}}){_SP}[-/.]{_SP}([0-9]{{1,2}})\.?"),
       re.compile(rf"([0-9]{{1,2}}){_SP}월{_SP}([0-9]{{1,2}}){_SP}일?"))
_DAYS = (31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


@dataclass(frozen=True)
class FightLink:
    """What a calculator link holds: the line, the declarations, the cell, the player's stat values
    and the date, each as the person wrote it."""

    q: str
    r: tuple[str, ...] = ()
    b: tuple[str, ...] = ()
    cell: str = DEFAULT_CELL
    stat: tuple[str, ...] = ()
    as_of: str | None = None
    site: str = field(default="", compare=False)


@dataclass(frozen=True)
class ScenarioLink:
    """A scenario link (#y=…): the YAML as the person wrote it."""

    y: str
    site: str = field(default="", compare=False)


class LinkError(ValueError):
    """A damaged link: `code` (one of DAMAGE), the `key` of the piece (None when the piece has no
    key), `piece` (its number, from 1; 0 for no-q) and `raw` (the piece as written)."""

    def __init__(self, code: str, key: str | None = None, piece: int = 0, raw: str = ""):
        super().__init__(f"damaged link: {code}" + (f" ({key})" if key is not None else "")
                         + (f" at piece {piece}" if piece else ""))
        self.code, self.key, self.piece, self.raw = code, key, piece, raw


def encode(value: str) -> str:
    """One value as the link writes it: UTF-8, every byte but A–Z a–z 0–9 - _ . ~ as %XX. A lone
    surrogate (undecodable bytes of an argument) is U+FFFD, as the terminal shows it: it has no UTF-8
    (encodeURIComponent throws on one)."""
    if any(0xD800 <= ord(ch) <= 0xDFFF for ch in value):
        value = "".join("\ufffd" if 0xD800 <= ord(ch) <= 0xDFFF else ch for ch in value)
    return quote(value, safe="")


def decode(value: str) -> str:
    """The inverse of encode, strictly (decodeURIComponent's rules): a '%' not followed by two hex
    digits, escaped bytes that are not UTF-8, or a lone surrogate raise LinkError (bad-escape,
    bad-utf8)."""
    if _BAD_ESCAPE.search(value):
        raise LinkError("bad-escape", raw=value)
    try:
        return unquote_to_bytes(value.encode("utf-8")).decode("utf-8")
    except UnicodeError:  # not UTF-8 once unescaped, or a lone surrogate written bare
        raise LinkError("bad-utf8", raw=value) from None


def is_blank(value: str) -> bool:
    """Empty, or only BLANK characters."""
    return not value.strip(BLANK)


def is_link_date(value: str) -> bool:
    """An as_of a link may carry: 2026-09-24 (a real date), 2026년 9월 24일, or a month and day
    without the year — 9/24, 09-24, 9.24, 9월 24일 — whose day exists in that month (29 February
    too: the year is the rules data's, known only to the engine). ASCII digits and spaces; spaces
    around the date are allowed, as --as-of allows them."""
    text = value.strip(" \t\n\r\f\v")
    m = _ISO.fullmatch(text) or _YMD.fullmatch(text)
    if m:
        year, month, day = (int(g) for g in m.groups())
        leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
        return year >= 1 and 1 <= month <= 12 and 1 <= day <= (29 if month == 2 and leap else
                                                                28 if month == 2 else _DAYS[month - 1])
    for pattern in _MD:
        m = pattern.fullmatch(text)
        if m:
            month, day = int(m.group(1)), int(m.group(2))
            return 1 <= month <= 12 and 1 <= day <= _DAYS[month - 1]
    return False


def site_address(site: str) -> str:
    """The site address as a link writes it: without trailing slashes, every character but A–Z a–z
    0–9 - _ . ~ : / @ percent-encoded as UTF-8 (a '%' already starting %XX stays), so that no
    address can become Markdown or HTML in an answer."""
    out = []
    for i, ch in enumerate(site.rstrip("/")):
        if ch == "%" and re.match(r"%[0-9A-Fa-f]{2}", site[i:i + 3]):
            out.append(ch)
        else:
            out.append(quote(ch, safe=_SITE_SAFE, errors="replace"))
    return "".join(out)


def page_url(site: str) -> str:
    """The calculator page under a site address: one slash between them whatever the address ends with."""
    return site_address(site) + "/" + encode(PAGE)


def fragment(link: FightLink) -> str:
    """The part after '#': q, r…, b…, cell (not 1,1), stat…, as_of."""
    parts = [f"q={encode(link.q)}"]
    parts += [f"r={encode(v)}" for v in link.r]
    parts += [f"b={encode(v)}" for v in link.b]
    if link.cell != DEFAULT_CELL:
        parts.append(f"cell={encode(link.cell)}")
    parts += [f"stat={encode(v)}" for v in link.stat]
    if link.as_of:
        parts.append(f"as_of={encode(link.as_of)}")
    return "&".join(parts)


def build(site: str, q: str, r=(), b=(), cell: str = DEFAULT_CELL, stat=(), as_of: str | None = None) -> str:
    """The calculator link of a fight at the site `site`. Raises ValueError for a fight the reader
    would call damaged (a blank value, a date it does not read): such a link is never written."""
    link = FightLink(q, tuple(r), tuple(b), cell or DEFAULT_CELL, tuple(stat), as_of)
    if any(is_blank(v) for v in (link.q, *link.r, *link.b, link.cell, *link.stat)) or (
            as_of is not None and not is_link_date(as_of)):
        raise ValueError("a calculator link holds no blank value and only a date --as-of reads")
    return page_url(site) + "#" + fragment(link)


def _dictionary(number: int) -> bytes | None:
    from .linkdict import DICTIONARIES

    return DICTIONARIES[number].encode("utf-8") if number in DICTIONARIES else None


def pack(text: str, dictionary: int = DICTIONARY) -> str:
    """A scenario as the compressed value of a link's `y`: ~<d>~<n>~<crc>~<data> (the module docstring)."""
    raw = encode_text(text)
    zdict = _dictionary(dictionary) if dictionary else None
    deflate = zlib.compressobj(9, zlib.DEFLATED, -15, **({"zdict": zdict} if zdict else {}))
    data = base64.urlsafe_b64encode(deflate.compress(raw) + deflate.flush()).decode("ascii").rstrip("=")
    return f"{PACKED}{dictionary}{PACKED}{len(data)}{PACKED}{zlib.crc32(raw):08x}{PACKED}{data}"


def encode_text(text: str) -> bytes:
    """A scenario's text as the link carries it: UTF-8, a lone surrogate as U+FFFD (as encode does)."""
    return re.sub("[\ud800-\udfff]", "\ufffd", text).encode("utf-8")


def unpack(value: str) -> str:
    """The YAML a compressed `y` value carries. Raises LinkError `cut` for a value that stops short (a
    cut head, or fewer characters of data than its head says) and `bad-data` for anything else wrong."""
    m = _PACKED.fullmatch(value)
    if m is None:
        if _PACKED_HEAD.fullmatch(value):
            raise LinkError("cut", raw=value)
        raise LinkError("bad-data", raw=value)
    number, n, crc, data = int(m.group(1)), int(m.group(2)), int(m.group(3), 16), m.group(4)
    if len(data) < n:
        raise LinkError("cut", raw=value)
    zdict = _dictionary(number) if number else b""
    if len(data) > n or n % 4 == 1 or zdict is None:
        raise LinkError("bad-data", raw=value)
    try:
        packed = base64.urlsafe_b64decode(data + "=" * (-n % 4))
        inflate = zlib.decompressobj(-15, **({"zdict": zdict} if zdict else {}))
        raw = inflate.decompress(packed, SCENARIO_MAX_BYTES + 1)
        if len(raw) > SCENARIO_MAX_BYTES or not inflate.eof or inflate.unused_data:
            raise ValueError("too long, unfinished or followed by more")
        text = raw.decode("utf-8")
    except (ValueError, zlib.error):
        raise LinkError("bad-data", raw=value) from None
    if zlib.crc32(raw) != crc:
        raise LinkError("bad-data", raw=value)
    return text


def build_scenario(site: str, text: str) -> str:
    """The calculator link of a scenario (its YAML as written) at the site `site`: the compressed form.
    Raises ValueError for a blank scenario (such a link is never written)."""
    if is_blank(text):
        raise ValueError("a calculator link holds no blank value")
    return page_url(site) + "#" + SCENARIO_KEY + "=" + pack(text)


def read(frag: str) -> FightLink | ScenarioLink | None:
    """What the fragment of a calculator link (the part after '#') holds: a FightLink, a
    ScenarioLink, or None for an empty fragment. Raises LinkError for a damaged link (the rules are
    this module's docstring)."""
    if not frag:
        return None
    got: dict = {"r": [], "b": [], "stat": []}
    fight_seen = False
    for n, piece in enumerate(frag.split("&"), 1):
        if not piece:
            raise LinkError("empty-piece", None, n, piece)
        if "=" not in piece:
            raise LinkError("no-equals", None, n, piece)
        key, raw = piece.split("=", 1)
        if key not in _ALL_KEYS:
            raise LinkError("unknown-key", key, n, piece)
        try:
            value = decode(raw)
        except LinkError as exc:
            raise LinkError(exc.code, key, n, piece) from None
        if key not in _REPEATED and key in got:
            raise LinkError("repeated-key", key, n, piece)
        if (key == SCENARIO_KEY and fight_seen) or (key != SCENARIO_KEY and SCENARIO_KEY in got):
            raise LinkError("mixed", key, n, piece)
        if is_blank(value):
            raise LinkError("empty-value", key, n, piece)
        if key == "as_of" and not is_link_date(value):
            raise LinkError("bad-date", key, n, piece)
        if key == SCENARIO_KEY and value.startswith(PACKED):
            try:
                value = unpack(value)
            except LinkError as exc:
                raise LinkError(exc.code, key, n, piece) from None
            if is_blank(value):
                raise LinkError("empty-value", key, n, piece)
        if key in _REPEATED:
            got[key].append(value)
        else:
            got[key] = value
        fight_seen = fight_seen or key != SCENARIO_KEY
    if SCENARIO_KEY in got:
        return ScenarioLink(got[SCENARIO_KEY])
    if "q" not in got:
        raise LinkError("no-q")
    return FightLink(q=got["q"], r=tuple(got["r"]), b=tuple(got["b"]), cell=got.get("cell", DEFAULT_CELL),
                     stat=tuple(got["stat"]), as_of=got.get("as_of"))


def parse(link: str) -> FightLink | ScenarioLink:
    """A calculator link (or only its fragment, with or without '#') → what it holds, with the site
    address before the page name (`site`). Raises LinkError for a damaged or empty link."""
    site = ""
    if "#" in link:
        before, frag = link.split("#", 1)
        suffix = "/" + encode(PAGE)
        site = before[: -len(suffix)] if before.endswith(suffix) else before
    else:
        frag = link
    got = read(frag)
    if got is None:
        raise LinkError("no-q")
    return type(got)(**{**got.__dict__, "site": site})
