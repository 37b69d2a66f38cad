"""The calculator link: a one-line fight as an address of the site's calculator page.

    <site-url>/%ED%8C%90%EC%A0%95%EA%B8%B0.html#q=<line>&r=<decl>&b=<decl>&cell=<x,y>&stat=<spec>&as_of=<date>

The format is shared with the page (templates/site/assets/calculator.js reads and writes it; the
issue 16 interface file fixes it): keys in this order, `r`, `b` and `stat` repeated in declaration
order, `cell` only when it is not the default `1,1`, `stat` and `as_of` only when given. Every value
is percent-encoded as UTF-8 with nothing left bare but A–Z a–z 0–9 - _ . ~ (Python's
`quote(v, safe="")`, JavaScript's encodeURIComponent plus ! ' ( ) *), and the page name 판정기.html
is percent-encoded too, so that chat clients keep the link whole. A site address with or without a
trailing slash gives the same link.

Pure: no I/O, no words. `build` and `parse` are inverses (tests/test_fight_link.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import quote, unquote

#: the calculator page of the built site
PAGE = "판정기.html"
#: the combat cell of a one-line fight when none is given (oneliner.DEFAULT_CELL)
DEFAULT_CELL = "1,1"
#: the keys of a fight link, in the order they are written
KEYS = ("q", "r", "b", "cell", "stat", "as_of")
_REPEATED = frozenset({"r", "b", "stat"})


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


def encode(value: str) -> str:
    """One value as the link writes it: UTF-8, every byte but A–Z a–z 0–9 - _ . ~ as %XX. A lone
    surrogate (undecodable bytes of an argument) is U+FFFD, as the terminal shows it: it has no UTF-8
    (encodeURIComponent throws on one)."""
    if any(0xD800 <= ord(ch) <= 0xDFFF for ch in value):
        value = "".join("\ufffd" if 0xD800 <= ord(ch) <= 0xDFFF else ch for ch in value)
    return quote(value, safe="")


def decode(value: str) -> str:
    """The inverse of encode. Escaped bytes that are not UTF-8 raise ValueError (UnicodeDecodeError),
    as decodeURIComponent throws; a '%' not followed by two hex digits stays as written."""
    return unquote(value, errors="strict")


def page_url(site: str) -> str:
    """The calculator page under a site address: one slash between them whatever the address ends with."""
    return site.rstrip("/") + "/" + encode(PAGE)


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
    """The calculator link of a fight at the site `site`."""
    return page_url(site) + "#" + fragment(FightLink(q, tuple(r), tuple(b), cell or DEFAULT_CELL, tuple(stat), as_of))


def parse(link: str) -> FightLink:
    """A calculator link (or only its fragment, with or without '#') → what it holds.

    Keys come in any order; `r`, `b`, `stat` keep their order; a single key given twice keeps the
    first; unknown keys are skipped (a later page may add some). Raises ValueError when there is no
    `q` or a value is not valid percent-encoded UTF-8."""
    site = ""
    if "#" in link:
        before, frag = link.split("#", 1)
        suffix = "/" + encode(PAGE)
        site = before[: -len(suffix)] if before.endswith(suffix) else before
    else:
        frag = link
    got: dict = {"r": [], "b": [], "stat": []}
    for pair in frag.split("&") if frag else ():
        if "=" not in pair:
            continue
        key, raw = pair.split("=", 1)
        if key not in KEYS:
            continue
        value = decode(raw)
        if key in _REPEATED:
            got[key].append(value)
        else:
            got.setdefault(key, value)
    if "q" not in got:
        raise ValueError("the link has no q=")
    return FightLink(q=got["q"], r=tuple(got["r"]), b=tuple(got["b"]), cell=got.get("cell", DEFAULT_CELL),
                     stat=tuple(got["stat"]), as_of=got.get("as_of"), site=site)
