"""HTML → PDF for the printable book and FAQ (`flamer book --format pdf`, `flamer faq --format pdf`).

Engine: WeasyPrint (a Python package; needs the system's Pango, HarfBuzz and fontconfig). Measured
on this machine (2 cores, other work running) with the book of `flamer book` (83 A4 pages, 36 TOC
entries), WeasyPrint 70.0 against Debian's Chromium 156 `--headless --print-to-pdf
--generate-pdf-document-outline`, both from the same HTML:

- CSS Paged Media: WeasyPrint does @page margin boxes, the running header with the section
  (`string-set`/`string()`), `counter(page)`, TOC page numbers (`target-counter()`, `leader()`),
  PDF bookmarks (`bookmark-level`/`-label`) and internal links as PDF destinations. Chromium has
  margin boxes and `counter(page)`, but no `string-set` (no running header naming the section) and
  no `target-counter()` (no TOC page numbers without a second pass), and its outline is every
  heading: 231 entries against the TOC's 36 (WeasyPrint here: exactly the 36).
- Fonts: WeasyPrint embeds Noto Sans/Serif CJK KR as 7 subset CID fonts (CFF, ToUnicode). Chromium
  (Skia) turns the CFF-in-TTC CJK fonts into 234 Type 3 fonts (glyphs as drawing procedures, no
  hinting): worse in print and in viewers.
- Korean line breaking: WeasyPrint does not implement `word-break: keep-all` (it drops the
  declaration): 340 line ends inside a Korean word. keep_words() below puts U+2060 WORD JOINER
  between the characters of every word that has Hangul in it, for the PDF only: 0 such line ends
  (tests/publishing/test_pdf.py checks it), no U+2060 in the PDF's text (copying and searching still work),
  same page count; the pass itself takes 40–80 ms, and WeasyPrint's layout of the joined text
  differed from the plain one by −8 % … +23 % CPU over four runs on a busy machine, i.e. within
  the noise (benchmarks/book_bench.py measures it). Chromium's keep-all still breaks inside a word
  before "(" and after "·" (21 line ends).
- Time: Chromium 4.7 s; WeasyPrint ~11 s layout + ~5.5 s write; the whole `flamer book --format
  pdf` took 14.6–18.8 s (target ≤ 30 s; benchmarks/book_bench.py).

So WeasyPrint does all the handbook asks in one pass from Python; Chromium would need a second pass
for page numbers, has no running header and embeds Type 3 fonts. Chromium is the browser of the
browser test (tests/web/test_browser.py), which checks that the HTML also prints from a browser.

Everything heavy is imported inside html_to_pdf(): importing this module costs nothing, and the
search path never imports it.
"""

from __future__ import annotations

import glob
import logging
import os
import re
import shutil
import stat
import subprocess
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from html import unescape
from html.parser import HTMLParser
from pathlib import Path

from .errors import FlamerError

FONT_PACKAGE = "fonts-noto-cjk"  # the Debian package of the preferred font
PANGO_PACKAGES = "libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0"

# Korean families, best first: the one used is the first installed (fontconfig decides what is).
KOREAN_FAMILIES = ("Noto Sans CJK KR", "NanumGothic", "NanumBarunGothic", "Noto Serif CJK KR", "NanumMyeongjo")
MONO_FAMILIES = ("Noto Sans Mono CJK KR", "NanumGothicCoding", "D2Coding")
# when fontconfig's fc-list is missing: font files by name in the usual folders
_FONT_FILES = {
    "Noto Sans CJK KR": ("NotoSansCJK-Regular.ttc", "NotoSansCJKkr-Regular.otf", "NotoSansKR-Regular.otf"),
    "Noto Sans Mono CJK KR": ("NotoSansMonoCJK-Regular.ttc", "NotoSansMonoCJKkr-Regular.otf"),
    "NanumGothic": ("NanumGothic.ttf",),
    "NanumBarunGothic": ("NanumBarunGothic.ttf",),
    "Noto Serif CJK KR": ("NotoSerifCJK-Regular.ttc",),
    "NanumMyeongjo": ("NanumMyeongjo.ttf",),
    "NanumGothicCoding": ("NanumGothicCoding.ttf",),
}
_FONT_DIRS = ("/usr/share/fonts", "/usr/local/share/fonts", "~/.local/share/fonts", "~/.fonts")

WORD_JOINER = "\u2060"


class PdfError(FlamerError):
    """The PDF could not be made on this machine (engine, libraries or fonts missing)."""

    code = "pdf"


class MissingKoreanFont(PdfError):
    """No Korean font is installed: the PDF would show empty boxes instead of Hangul."""

    code = "missing-font"

    def __init__(self):
        super().__init__(
            "PDF에 넣을 한글 글꼴이 이 컴퓨터에 없습니다. 글꼴 없이 만들면 한글이 빈 네모로 나옵니다.\n"
            f"Debian/Ubuntu에서는 글꼴 패키지를 설치하세요: sudo apt-get install {FONT_PACKAGE}\n"
            "(나눔 글꼴을 쓰려면 fonts-nanum). 설치한 뒤 다시 실행하면 됩니다.")


class MissingPdfEngine(PdfError):
    """WeasyPrint, or the Pango library it draws text with, cannot be loaded."""

    code = "pdf-engine"


# ------------------------------------------------------------------ fonts ----
@dataclass(frozen=True)
class KoreanFont:
    family: str
    mono: str | None
    file: str | None = None


def _fc_families() -> dict[str, str] | None:
    """Installed families that cover Korean (family → a file), from fontconfig; None without fc-list."""
    if not shutil.which("fc-list"):
        return None
    try:
        out = subprocess.run(["fc-list", ":lang=ko", "family", "file"], capture_output=True, text=True,
                             timeout=30, check=False).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    found: dict[str, str] = {}
    for line in out.splitlines():
        path, _, families = line.partition(": ")
        for fam in families.split(","):
            fam = fam.strip()
            if fam:
                found.setdefault(fam, path.strip())
    return found


def _file_families() -> dict[str, str]:
    """Without fc-list: the known Korean font files found in the usual font folders."""
    found: dict[str, str] = {}
    for family, names in _FONT_FILES.items():
        for folder in _FONT_DIRS:
            for name in names:
                hits = glob.glob(os.path.join(os.path.expanduser(folder), "**", name), recursive=True)
                if hits:
                    found.setdefault(family, hits[0])
    return found


def korean_font() -> KoreanFont:
    """The Korean font the PDF uses (detected with fontconfig), or MissingKoreanFont."""
    found = _fc_families()
    if found is None:
        found = _file_families()
    family = next((f for f in KOREAN_FAMILIES if f in found), None)
    if family is None:
        # another installed Korean family (e.g. from fonts-unfonts-core) beats none at all
        family = next((f for f in sorted(found) if not re.search(r"mono|coding", f, re.I)), None)
    if family is None:
        raise MissingKoreanFont()
    mono = next((f for f in MONO_FAMILIES if f in found), None)
    return KoreanFont(family, mono, found.get(family))


# --------------------------------------------------- Korean line breaking ----
_HANGUL = "\u1100-\u11ff\u3130-\u318f\ua960-\ua97f\uac00-\ud7a3\ud7b0-\ud7ff"
_NOJOIN = r"\s\u200b\u2060\u00ad<>"  # whitespace, zero-width space, word joiner, soft hyphen; tag edges
_JOIN_RE = re.compile(f"(?<=[{_HANGUL}])(?=[^{_NOJOIN}])|(?<=[^{_NOJOIN}])(?=[{_HANGUL}])")
_IS_HANGUL = re.compile(f"[{_HANGUL}]")
_IS_JOINABLE = re.compile(f"[^{_NOJOIN}]")
_TAG_RE = re.compile(r"<!--.*?-->|<!\[CDATA\[.*?\]\]>|<(?:[^>\"']|\"[^\"]*\"|'[^']*')*>", re.S)
_TAG_NAME = re.compile(r"</?\s*([A-Za-z][A-Za-z0-9-]*)")
# elements whose text is not laid out as lines of the page (or that WeasyPrint draws itself)
_RAW = {"script", "style", "svg", "math", "textarea", "title", "template"}
# inline elements: a word can go on across their tags ("<b>수호방패</b>(전투)" is one word)
_INLINE = {"a", "abbr", "b", "bdi", "bdo", "cite", "code", "data", "del", "dfn", "em", "i", "ins", "kbd",
           "mark", "q", "s", "samp", "small", "span", "strong", "sub", "sup", "time", "u", "var", "wbr"}


def _joinable(a: str, b: str) -> bool:
    return bool(_IS_JOINABLE.match(a) and _IS_JOINABLE.match(b) and (_IS_HANGUL.match(a) or _IS_HANGUL.match(b)))


#: a word longer than this (characters, between spaces) is never made one unbreakable run: no line of the
#: book is that narrow, so it is a run without spaces that would go past the page's edge (a hostile or
#: mistyped FAQ answer). It may break anywhere instead (LONG_CLASS). The bundled book's longest word is 28.
LONG_WORD = 30
#: the class of the span around such a word; pdf_stylesheet gives it `word-break: break-all`
LONG_CLASS = "flamer-long-word"
_SPACES = re.compile(r"(\s+)")


def _join_text(text: str) -> tuple[str, int, int]:
    """One text between tags with its Korean words joined (keep_words), a word longer than LONG_WORD
    wrapped in a span that may break anywhere instead; and the lengths of its first and last words (0
    where it begins or ends with a space)."""
    parts = _SPACES.split(text)  # the even parts are words (or ''), the odd ones spaces
    first, last = len(parts[0]), len(parts[-1])
    for k in range(0, len(parts), 2):
        word = parts[k]
        parts[k] = (f'<span class="{LONG_CLASS}">{word}</span>' if len(word) > LONG_WORD
                    else _JOIN_RE.sub(WORD_JOINER, word))
    return "".join(parts), first, last


def keep_words(html: str) -> str:
    """The HTML with U+2060 WORD JOINER between neighbouring characters of every word that has Hangul
    in it (a word: what lies between spaces), so a renderer without `word-break: keep-all` breaks
    lines only between words. Only text is touched (not tags, attributes, entities, or the text of
    script/style/svg/math); a word that runs on across inline tags (`<b>수호방패</b>(전투)`) is joined
    across them. A word longer than any line (LONG_WORD) is not joined but put in a span that may break
    anywhere (`word-break: break-all`, pdf_stylesheet), so it wraps inside the page instead of running
    past its edge; one that grows that long across inline tags is not joined across them. Used for the
    PDF only: `flamer book --format html` is not changed."""
    out: list[str] = []
    pos = 0
    carry = ""  # the last character of the text before, when only inline tags lie between
    carry_len = 0  # and the length of the word it ends
    n = len(html)
    while pos < n:
        m = _TAG_RE.search(html, pos)
        end = m.start() if m else n
        if end > pos:
            raw = html[pos:end]
            text, first, last = _join_text(raw)
            if carry and _joinable(carry, raw[0]) and carry_len + first <= LONG_WORD:
                out.append(WORD_JOINER)
                if last == len(raw):  # the whole text goes on with the word before
                    last += carry_len
            out.append(text)
            carry, carry_len = raw[-1], last
        if not m:
            break
        tag = m.group(0)
        out.append(tag)
        pos = m.end()
        if tag.startswith("<!"):
            continue  # a comment or CDATA: invisible, the word goes on
        name_m = _TAG_NAME.match(tag)
        name = name_m.group(1).lower() if name_m else ""
        if name in _INLINE:
            continue
        carry, carry_len = "", 0
        if name in _RAW and not tag.startswith("</") and not tag.rstrip(">").rstrip().endswith("/"):
            stop = _raw_end(html, pos, name)
            body = html[pos:stop]
            out.append(join_generated(body) if name == "style" else body)
            pos = stop
    return "".join(out)


def _raw_end(html: str, pos: int, name: str) -> int:
    """Where the content of a raw element that opened before pos ends (an <svg> may hold another)."""
    pattern = re.compile(rf"<(/?)\s*{name}\b[^>]*?(/?)>", re.I)
    depth = 1
    for m in pattern.finditer(html, pos):
        if m.group(1):
            depth -= 1
            if depth == 0:
                return m.start()
        elif not m.group(2):
            depth += 1
    return len(html)


_CONTENT_DECL = re.compile(r"(?<![\w-])(content\s*:)([^;{}]*)")
_CSS_STRING = re.compile(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'', re.S)


def join_generated(css: str) -> str:
    """keep_words() for text that CSS generates: in `content:` values, a word joiner inside each string
    and between a string and a counter it touches (`target-counter(attr(href), page) "쪽)"` → 30쪽
    stays one word)."""

    def value(m: re.Match) -> str:
        text = m.group(2)
        parts = []
        last = 0
        for lit in _CSS_STRING.finditer(text):
            before = text[last:lit.start()]
            inner = _JOIN_RE.sub(WORD_JOINER, lit.group(0)[1:-1])
            if inner and _IS_HANGUL.match(inner[0]) and text[:lit.start()].rstrip().endswith(")"):
                inner = WORD_JOINER + inner
            after = text[lit.end():].lstrip()
            if inner and _IS_HANGUL.match(inner[-1]) and re.match(r"[\w-]+\(", after):
                inner += WORD_JOINER
            q = lit.group(0)[0]
            parts += [before, q + inner + q]
            last = lit.end()
        parts.append(text[last:])
        return m.group(1) + "".join(parts)

    return _CONTENT_DECL.sub(value, css)


# ------------------------------------------------------- what the HTML has ----
@dataclass
class _TocEntry:
    target: str
    level: int
    label: str


@dataclass
class DocumentFacts:
    """What html_to_pdf needs to know about the HTML: its title, its ids and its table of contents
    (the first <nav> with class or id "toc", or role="doc-toc": its links to "#id", nested lists
    giving the level)."""

    title: str = ""
    ids: set = field(default_factory=set)
    toc: list = field(default_factory=list)
    toc_heading: str = ""
    links: list = field(default_factory=list)
    css: str = ""


class _Scanner(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.facts = DocumentFacts()
        self._in_title = False
        self._toc_depth = 0      # element nesting inside the TOC nav (0: outside)
        self._toc_done = False
        self._list_depth = 0
        self._link: list | None = None  # [target, level, text parts]
        self._heading: list | None = None
        self._raw = 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("id"):
            self.facts.ids.add(a["id"])
        if tag in ("script", "style", "svg"):
            self._raw += 1
        if tag == "title" and not self.facts.title:
            self._in_title = True
        href = a.get("href") or ""
        if tag == "a" and href.startswith("#") and len(href) > 1:
            self.facts.links.append(unescape(href[1:]))
        if self._toc_depth:
            self._toc_depth += 1
            if self._link is not None:  # <span class="date">2026-09-04</span>개정: two words in the outline
                self._link[2].append(" ")
            if tag in ("ol", "ul"):
                self._list_depth += 1
            elif tag == "a" and href.startswith("#") and self._link is None:
                self._link = [href[1:], max(1, self._list_depth), []]
            elif tag in ("h1", "h2", "h3", "h4", "h5", "h6") and not self.facts.toc_heading:
                self._heading = []
        elif tag == "nav" and not self._toc_done:
            classes = (a.get("class") or "").split()
            if "toc" in classes or a.get("id") == "toc" or a.get("role") == "doc-toc":
                self._toc_depth = 1

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        self.handle_endtag(tag)

    def handle_endtag(self, tag):
        if tag in ("script", "style", "svg") and self._raw:
            self._raw -= 1
        if tag == "title":
            self._in_title = False
        if not self._toc_depth:
            return
        if tag in ("ol", "ul"):
            self._list_depth -= 1
        elif self._link is not None and tag != "a":
            self._link[2].append(" ")
        elif tag == "a" and self._link is not None:
            target, level, parts = self._link
            self.facts.toc.append(_TocEntry(target, level, " ".join("".join(parts).split())))
            self._link = None
        elif tag.startswith("h") and self._heading is not None:
            self.facts.toc_heading = " ".join("".join(self._heading).split())
            self._heading = None
        self._toc_depth -= 1
        if self._toc_depth == 1 and tag == "nav":
            self._toc_depth = 0
            self._toc_done = True

    def handle_data(self, data):
        if self.lasttag == "style" and self._raw:
            self.facts.css += data
        if self._in_title:
            self.facts.title += data
        if self._raw:
            return
        if self._link is not None:
            self._link[2].append(data)
        if self._heading is not None:
            self._heading.append(data)


def scan(html: str) -> DocumentFacts:
    parser = _Scanner()
    parser.feed(html)
    parser.close()
    facts = parser.facts
    facts.title = " ".join(facts.title.split())
    return facts


# ------------------------------------------------------------ stylesheet ----
def _css_string(text: str) -> str:
    return '"' + re.sub(r'["\\\n\r]', lambda m: "\\" + format(ord(m.group(0)), "x") + " ", text) + '"'


def _css_id(ident: str) -> str:
    """`#ident` as a CSS selector, escaping what an identifier cannot hold (ids like combat.occurs)."""
    out = []
    for i, ch in enumerate(ident):
        if ch.isalnum() and not (i == 0 and ch.isdigit()) or ch in "_-" or ord(ch) > 127:
            out.append(ch)
        else:
            out.append("\\" + format(ord(ch), "x") + " ")
    return "#" + "".join(out)


_TOC = ('nav.toc', 'nav#toc', 'nav[role="doc-toc"]')


def pdf_stylesheet(facts: DocumentFacts, font: KoreanFont) -> str:
    """The PDF-only CSS, given to WeasyPrint as a user stylesheet: below the document's own rules in
    the cascade (its `!important` declarations excepted), so what the document says wins.

    Defaults: the installed Korean font, headings kept with what follows. Always: no overflow-wrap
    (see below; keep_words() makes every Korean word one unbreakable run). When the document has no
    `@page` rule of its own: A4 with a running header (the TOC's top-level entry the page is in),
    the title and page numbers. When it has no `target-counter()`: TOC page numbers.
    Always (`!important`): the PDF outline is the table of contents — its entries, levels and words."""
    family = _css_string(font.family)
    mono = ", ".join(_css_string(f) for f in (font.mono, font.family) if f)
    rules = [
        f"html, body {{ font-family: {family}, sans-serif; }}",
        f"code, kbd, samp, pre, tt {{ font-family: {mono}, monospace; }}",
        # WeasyPrint applies overflow-wrap: break-word to a word that would fit on the next line, cutting
        # it at the end of a full line ("맞대응에" / "도"); with every Korean word one run of word joiners,
        # normal wrapping is what keeps them whole (code keeps its word-break: break-all)
        "* { overflow-wrap: normal !important; }",
        # a word longer than any line (keep_words: LONG_WORD) wraps anywhere rather than leave the page
        f".{LONG_CLASS} {{ word-break: break-all !important; }}",
        "h1, h2, h3, h4, h5, h6 { break-after: avoid; }",
        "p, li, dd { orphans: 2; widows: 2; }",
        "figure, svg, tr, pre, blockquote { break-inside: avoid; }",
    ]
    entries = [t for t in facts.toc if t.target in facts.ids]
    if not re.search(r"@page\b", facts.css):
        box = f"font-family: {family}, sans-serif; font-size: 8.5pt; color: #555;"
        rules += [
            f"@page {{ size: A4; margin: 20mm 16mm 18mm;"
            f" @top-left {{ content: string(section, first); {box} }}"
            f" @top-right {{ content: {_css_string(facts.title)}; {box} }}"
            f" @bottom-center {{ content: counter(page) \" / \" counter(pages); {box} }} }}",
            "@page :first { @top-left { content: none; } @top-right { content: none; }"
            " @bottom-center { content: none; } }",
        ]
        if facts.toc_heading:
            rules.append(", ".join(_TOC) + f" {{ string-set: section {_css_string(facts.toc_heading)}; }}")
        rules += [f"{_css_id(t.target)} {{ string-set: section {_css_string(t.label)}; }}"
                  for t in entries if t.level == 1]
    if "target-counter" not in facts.css:
        toc_links = ", ".join(f'{t} a[href^="#"]::after' for t in _TOC)
        rules.append(f"{toc_links} {{ content: leader('.') ' ' target-counter(attr(href url), page); }}")
    if entries:
        rules.append("h1, h2, h3, h4, h5, h6 { bookmark-level: none !important; }")
        rules += [f"{_css_id(t.target)} {{ bookmark-level: {t.level} !important;"
                  f" bookmark-label: {_css_string(t.label)} !important; }}" for t in entries]
    return "\n".join(rules)


_SVG_OPEN = re.compile(r"<svg\b(?:[^>\"']|\"[^\"]*\"|'[^']*')*>", re.I)


def svg_fonts(html: str, font: KoreanFont) -> str:
    """Inline SVG with the Korean font: WeasyPrint draws an inline <svg> as its own document, which the
    page's CSS does not reach (its text would fall back to fontconfig's default, a Japanese face for
    Hangul and DejaVu for the rest), so each <svg> gets a <style> of its own. PDF only."""
    style = f"<style>svg, text, tspan, textPath {{ font-family: {_css_string(font.family)}, sans-serif; }}</style>"
    return _SVG_OPEN.sub(lambda m: m.group(0) if m.group(0).endswith("/>") else m.group(0) + style, html)


# ------------------------------------------------------- anchored labels ----
# WeasyPrint draws an SVG <text> whose text-anchor is middle or end inside a transparency group (it lays the
# text out, then shifts it by its width), and each group carries every font of the page: poppler — Evince,
# Okular, pdftotext, pdftoppm — sets those fonts up again for each group it meets, so a page of board
# pictures (some 30 such labels) took 0.2–0.5 s to read or draw; the book's 293 labels made pdftotext 6.0 s
# instead of 2.1 s. anchor_labels gives each such label the start x WeasyPrint would shift it to instead,
# from the advance widths of the very face it embeds (WeasyPrint lays each letter of an SVG text out alone
# and advances by its width: weasyprint/svg/text.py), so no group is made and the words stand where they
# stood (tests/publishing/test_pdf.py compares every word's box with WeasyPrint's own placement). A label
# it cannot measure so (a letter the face lacks, dx or rotate, letter-spacing, textLength, direction, a
# weight other than normal or bold, no font-size) keeps its anchor.
_ANCHORED = re.compile(r'<text\b([^>]*?)\stext-anchor="(middle|end)"([^>]*)>([^<]*)</text>')
_LABEL_ATTR = re.compile(r'\s([a-zA-Z:-]+)="([^"]*)"')
_UNMEASURED = {"dx", "dy", "rotate", "letter-spacing", "textLength", "lengthAdjust", "direction", "style",
               "font-family", "font-style"}
_X_ATTR = re.compile(r'(\sx=)"[^"]*"')
_WEIGHTS = {"normal": 80, "400": 80, "bold": 200, "700": 200}  # CSS weight → fontconfig's


@lru_cache(maxsize=None)
def _advances(family: str, weight: int):
    """(cmap, advance widths, units per em) of the face fontconfig gives for `family` at `weight` (the one
    WeasyPrint embeds), or None when fontconfig or fontTools cannot say."""
    try:
        out = subprocess.run(["fc-match", "-f", "%{file}\t%{index}", f"{family}:weight={weight}"],
                             capture_output=True, text=True, timeout=30, check=True).stdout
        path, index = out.split("\t")
        from fontTools.ttLib import TTFont

        face = TTFont(path, fontNumber=int(index or 0), lazy=True)
        return face.getBestCmap(), face["hmtx"].metrics, face["head"].unitsPerEm
    except Exception:  # noqa: BLE001 - no fc-match, another font format …: the labels keep their anchors
        return None


def anchor_labels(html: str, font: KoreanFont) -> str:
    """SVG labels centred or right-aligned by text-anchor given their start x instead (see above). PDF only."""

    def one(m: re.Match) -> str:
        attrs = dict(_LABEL_ATTR.findall(m.group(1) + m.group(3)))
        weight = _WEIGHTS.get(attrs.get("font-weight", "normal"))
        if weight is None or _UNMEASURED & attrs.keys() or "x" not in attrs or "font-size" not in attrs:
            return m.group(0)
        metrics = _advances(font.family, weight)
        try:
            x, size = float(attrs["x"]), float(attrs["font-size"])
        except ValueError:
            metrics = None
        if metrics is None:
            return m.group(0)
        cmap, hmtx, upm = metrics
        width = 0.0
        for ch in unescape(m.group(4)):
            glyph = cmap.get(ord(ch))
            if glyph is None:
                return m.group(0)
            width += hmtx[glyph][0] * size / upm
        start = x - (width / 2 if m.group(2) == "middle" else width)
        head = _X_ATTR.sub(lambda g: f'{g.group(1)}"{start:.3f}"', m.group(1) + m.group(3), count=1)
        return f"<text{head}>{m.group(4)}</text>"

    return _ANCHORED.sub(one, html)


# ------------------------------------------------------------ the index ----
# A book's index (찾아보기) lists, for every entry, the pages its places are on. CSS alone could print
# one target-counter() per place, but then an entry with three places on page 12 reads "12, 12, 12".
# So html_to_pdf lays the index out after the rest: the element with the attribute data-pdf-index
# (the last part of the book) is cut out and its heading alone left in its place; once the rest is
# laid out, the page of every anchor is known (WeasyPrint's Page.anchors), and in the index each
# <span class="ix-locs"> of links to places becomes the pages those places are on — each page once,
# in order, as a link to the first of the entry's places on it (class "main" if any place there is).
# The index is then laid out as a document of its own (the same <head>, the same wrappers) whose
# pages are numbered on from the heading's page, and its pages take the heading's place.
_INDEX_SECTION = re.compile(r"<(section|div)\b[^>]*\bdata-pdf-index\b[^>]*>.*?</\1>(?=\s*(?:<footer\b|</div>|</body>))", re.S)
_INDEX_HEAD = re.compile(r"<(?:section|div)\b[^>]*>\s*(?:<h[1-6]\b.*?</h[1-6]>)?", re.S)
_INDEX_LOCS = re.compile(r'<span class="ix-locs">(.*?)</span>', re.S)
_INDEX_LOC = re.compile(r'<a class="loc( main)?" href="#([^"]+)">')
_ID_ATTR = re.compile(r"""\sid=("[^"]*"|'[^']*'|[^\s>]+)""")


@dataclass
class _IndexSplit:
    main: str        # the HTML without the index's entries (its heading stays, for the TOC and the outline)
    anchor: str      # the id of the index element
    before: str      # the index document up to the index: <head> and the open wrappers (ids dropped)
    index: str       # the index element
    after: str       # what follows it, to the end of the document


class _OpenTags(HTMLParser):
    """The start tags of the elements still open at the end of a piece of HTML (below <html>)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, str]] = []

    def handle_starttag(self, tag, attrs):
        if tag in ("area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"):
            return
        self.stack.append((tag, self.get_starttag_text() or f"<{tag}>"))

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                break


def split_index(html: str) -> _IndexSplit | None:
    """The book HTML cut at its index (see above), or None when it has none."""
    m = _INDEX_SECTION.search(html)
    if m is None:
        return None
    section = m.group(0)
    ident = re.search(r"""\sid=["']([^"']+)["']""", section[:section.index(">") + 1])
    if ident is None:
        return None
    head = _INDEX_HEAD.match(section).group(0)
    tag = re.match(r"<(\w+)", section).group(1)
    parser = _OpenTags()
    parser.feed(html[:m.start()])
    head_end = html.lower().find("</head>")
    if head_end < 0:
        return None
    head_end += len("</head>")
    wrappers = "".join(_ID_ATTR.sub("", text) for name, text in parser.stack if name not in ("html", "head"))
    return _IndexSplit(main=html[:m.start()] + head + f"</{tag}>" + html[m.end():], anchor=ident.group(1),
                       before=html[:head_end] + wrappers, index=section, after=html[m.end():])


def paginate_index(index_html: str, pages: dict[str, int]) -> str:
    """The index element with each entry's places written as the pages they are on (pages: anchor →
    page number): "<a class="pg main" href="#term.mobile">79</a>, …", each page once, in order."""

    def locs(m: re.Match) -> str:
        by_page: dict[int, list] = {}
        for main, anchor in _INDEX_LOC.findall(m.group(1)):
            page = pages.get(unescape(anchor))
            if page is None:
                continue
            first = by_page.setdefault(page, [anchor, False])
            first[1] = first[1] or bool(main)
        links = [f'<a class="pg{" main" if main else ""}" href="#{anchor}">{page}</a>'
                 for page, (anchor, main) in sorted(by_page.items())]
        return '<span class="ix-locs">' + ", ".join(links) + "</span>"

    return _INDEX_LOCS.sub(locs, index_html)


def anchor_pages(document) -> dict[str, int]:
    """Every anchor of a laid-out document → the number of the page it is on (from 1)."""
    out: dict[str, int] = {}
    for number, page in enumerate(document.pages, 1):
        for name in page.anchors:
            out.setdefault(name, number)
    return out


# --------------------------------------------------- figures that moved on ----
# A picture is drawn whole (an SVG cannot break), so one that does not fit in what is left of a page
# moves on to the next and leaves the rest of its page blank. CSS has no "shrink to the space left".
# So after the layout, html_to_pdf looks at every page that is less than FIT_MIN_FILL full while the
# next page begins with a row of pictures (after at most a heading and a legend that move with them):
# if those pictures, drawn smaller (not below FIT_MIN_SCALE of their size), fit in the space left with
# their captions and the key under them (KEY_CLASS),
# they get that height (a max-height on their <svg>, which keeps its proportions) and the document is
# laid out again. Where no page needs it (the bundled book), nothing is laid out twice.
FIT_MIN_FILL = 0.5
FIT_MIN_SCALE = 0.5
FIT_ROUNDS = 2
_FIT_SLACK = 28.0  # CSS px (7.4 mm) kept free for the margins of the blocks that move back


def _content_boxes(page_box):
    """The boxes of a page's content (not of its margin boxes: header, page number)."""
    from weasyprint.formatting_structure import boxes

    for child in page_box.children:
        if isinstance(child, boxes.MarginBox):
            continue
        yield child
        yield from child.descendants()


def _leaves(page_box):
    """The boxes that put something on the page: lines of text, pictures, blocks with no children."""
    from weasyprint.formatting_structure import boxes

    for b in _content_boxes(page_box):
        if isinstance(b, (boxes.LineBox, boxes.ReplacedBox)) or (
                isinstance(b, boxes.BlockBox) and not b.children and b.height):
            yield b


def _bottom(b) -> float:
    return b.position_y + b.margin_height()


#: the class of the lines of a picture's key (templates/book/_parts.html.j2): fit_figures keeps them with it
KEY_CLASS = "key-item"


def _is_key(element) -> bool:
    return element is not None and KEY_CLASS in (element.get("class") or "").split()


def _is_svg(element) -> bool:
    return isinstance(getattr(element, "tag", None), str) and element.tag.rsplit("}", 1)[-1] == "svg"


def page_fill(page) -> float:
    """How far down its content area a laid-out page is filled (0–1), by its lines and pictures."""
    box = page._page_box
    top = box.content_box_y()
    bottom = max((_bottom(b) for b in _leaves(box)), default=top)
    return max(0.0, min(1.0, (bottom - top) / box.height)) if box.height else 1.0


def fit_figures(document, root, done: dict[int, float] | None = None) -> dict[int, float]:
    """The pictures (<svg> elements, by their order in the document: root is its element tree) to draw
    smaller so that they stay on the page they left less than FIT_MIN_FILL full: {index: height in
    CSS px}. Those in `done` already have a height and are not shrunk again."""
    from weasyprint.formatting_structure import boxes

    done = done or {}
    order = {id(el): n for n, el in enumerate(el for el in root.iter() if _is_svg(el))}
    out: dict[int, float] = {}
    pages = document.pages
    for page, after in zip(pages, pages[1:]):
        if page_fill(page) >= FIT_MIN_FILL:
            continue
        box, nxt = page._page_box, after._page_box
        top, ntop = box.content_box_y(), nxt.content_box_y()
        left = top + box.height - max((_bottom(b) for b in _leaves(box)), default=top) - _FIT_SLACK
        pictures = [b for b in _content_boxes(nxt) if isinstance(b, boxes.ReplacedBox) and id(b.element) in order]
        if not pictures:
            continue
        row_top = min(b.position_y for b in pictures)
        if row_top - ntop > 0.25 * nxt.height:
            continue  # the next page does not begin with pictures: something else left the gap
        first = min(pictures, key=lambda b: b.position_y)
        row = [b for b in pictures if b.position_y < _bottom(first)]  # side by side with the first
        row_bottom = max(_bottom(b) for b in row)
        captions = [_bottom(b) for b in _leaves(nxt) if isinstance(b, boxes.LineBox)
                    and b.element_tag == "figcaption" and row_top <= b.position_y <= row_bottom + 60]
        below = max([row_bottom, *captions])
        # the key printed under the pictures (a board's numbers → cards: class KEY_CLASS) moves with them
        for b in sorted((b for b in _leaves(nxt) if isinstance(b, boxes.LineBox) and _is_key(b.element)
                         and b.position_y >= row_top), key=lambda b: b.position_y):
            if b.position_y > below + 40:
                break
            below = max(below, _bottom(b))
        needed = below - ntop
        tallest = max(b.height for b in row)
        if needed <= left or any(order[id(b.element)] in done for b in row):
            continue
        scale = 1 - (needed - left) / tallest
        if scale < FIT_MIN_SCALE:
            continue
        for b in row:
            out[order[id(b.element)]] = round(b.height * scale, 1)
    return out


def with_figure_heights(html: str, heights: dict[int, float]) -> str:
    """The HTML with a height limit on the n-th <svg> of the document for each n in heights (CSS px);
    its width follows (auto), so the picture keeps its proportions."""
    count = -1

    def one(m: re.Match) -> str:
        nonlocal count
        count += 1
        if count not in heights:
            return m.group(0)
        decl = f"max-height: {heights[count]}px"
        tag = m.group(0)
        style = re.search(r"""\sstyle=(["'])(.*?)\1""", tag, re.S)
        if style:
            return tag[:style.start(2)] + style.group(2).rstrip("; ") + "; " + decl + tag[style.end(2):]
        return tag[:4] + f' style="{decl}"' + tag[4:]

    return _SVG_OPEN.sub(one, html)


# ---------------------------------------------------------------- render ----
def _load_weasyprint():
    try:
        import weasyprint
    except ImportError as exc:
        if getattr(exc, "name", None) == "weasyprint":
            raise MissingPdfEngine(
                "PDF를 만드는 WeasyPrint가 설치되어 있지 않습니다. PDF 기능(추가 설치 [pdf])을 함께 설치하세요:\n"
                "  pip install \"flamer_ref[pdf]\"   (저장소에서 설치했다면: pip install \".[pdf]\")\n"
                f"시스템 패키지도 필요합니다 (Debian/Ubuntu): sudo apt-get install {PANGO_PACKAGES} {FONT_PACKAGE}") from None
        raise MissingPdfEngine(f"WeasyPrint를 불러오지 못했습니다 ({exc}).") from None
    except OSError as exc:  # cffi could not open libpango / libgobject
        raise MissingPdfEngine(
            f"PDF를 만드는 데 필요한 Pango 라이브러리를 불러오지 못했습니다 ({_library_reason(exc)}).\n"
            f"Debian/Ubuntu에서는 설치하세요: sudo apt-get install {PANGO_PACKAGES}") from None
    return weasyprint


def _library_reason(exc: OSError) -> str:
    """Why a shared library did not load, in Korean: the dynamic loader's message is English
    ("cannot load library 'libpango-1.0-0': … No such file or directory"); its library names are kept."""
    from .errors import os_reason

    if exc.errno:
        return os_reason(exc)
    names = list(dict.fromkeys(re.findall(r"library '([^']+)'", str(exc))))
    return f"라이브러리를 찾을 수 없습니다: {', '.join(names)}" if names else "라이브러리를 찾을 수 없습니다"


class _LayoutProgress(logging.Handler):
    """Reports WeasyPrint's progress ("Step 5 - Creating layout - Page 12") as (step, pages) calls."""

    def __init__(self, report, step: str):
        super().__init__(logging.INFO)
        self.report = report
        self.step = step
        self.pages = 0

    def emit(self, record):
        try:
            msg = record.getMessage()
        except Exception:  # noqa: BLE001 - a message we cannot read: nothing to report
            return
        m = re.search(r"Creating layout - Page (\d+)", msg)
        if m and "up-to-date" not in msg:
            self.pages = max(self.pages, int(m.group(1)))
            self.report(self.step, self.pages)


def html_to_pdf(html: str, out_path, *, base_url=None, progress=None) -> int:
    """Write the PDF of `html` (a whole document) to out_path (a path, or a binary file object), and
    return its number of pages.

    The document's CSS applies as in print, plus pdf_stylesheet() below it; its text gets
    keep_words() and its inline SVG the Korean font (svg_fonts()), its centred labels their start x
    (anchor_labels()). A picture that moved on and left its page less than half full is drawn smaller to
    stay there (fit_figures). An index (data-pdf-index) gets the pages of its places (split_index,
    paginate_index). Only data: and file: URLs are fetched (the book is self-contained; nothing goes to
    the network). `progress(step, pages)`, if given, hears how far it is: ("layout", pages laid out so
    far), ("index", pages of the index so far), ("write", pages). Raises MissingKoreanFont,
    MissingPdfEngine or PdfError (all FlamerError, in Korean, with the package to install)."""
    font = korean_font()
    weasyprint = _load_weasyprint()
    tmp = None
    if not hasattr(out_path, "write"):
        out = Path(out_path)
        # written next to the target, then renamed: a failed run leaves no half-written PDF behind,
        # and a folder that cannot be written is said before the rendering, not after it
        try:
            fd, tmp = tempfile.mkstemp(prefix=".flamer-", suffix=".pdf", dir=str(out.parent.resolve()))
            os.close(fd)
        except OSError as exc:
            from .errors import os_reason

            raise PdfError(f"{out}: PDF 파일을 쓸 수 없습니다 ({os_reason(exc)}).") from None
    facts = scan(html)
    fetcher = weasyprint.URLFetcher(allowed_protocols={"data", "file"}, timeout=5)
    with _quiet_logs():
        try:
            document = _laid_out(weasyprint, html, facts, font, fetcher, base_url, progress)
            if progress is not None:
                progress("write", len(document.pages))
            if tmp is None:
                document.write_pdf(out_path)
            else:
                _put_in_place(document, tmp, out)
                tmp = None
            return len(document.pages)
        finally:
            if tmp is not None:
                try:
                    os.unlink(tmp)
                except OSError:
                    pass


@contextmanager
def _quiet_logs():
    """WeasyPrint's and fontTools' English notes (CSS it skips and the like) kept from the reader, unless
    FLAMER_DEBUG; the loggers as they were afterwards."""
    loggers = [logging.getLogger(name) for name in ("weasyprint", "weasyprint.progress", "fontTools")]
    saved = [(lg.level, lg.propagate) for lg in loggers]
    quiet = logging.NullHandler()
    if not os.environ.get("FLAMER_DEBUG"):
        for lg in loggers:
            lg.addHandler(quiet)
            lg.setLevel(logging.CRITICAL)
            lg.propagate = False
    try:
        yield
    finally:
        for lg, (level, propagate) in zip(loggers, saved):
            lg.removeHandler(quiet)
            lg.setLevel(level)
            lg.propagate = propagate


def _laid_out(weasyprint, html: str, facts, font, fetcher, base_url, progress):
    """The document laid out for print (see html_to_pdf): figures fitted, the index given its pages, the
    bookmarks' labels without word joiners."""
    steps = logging.getLogger("weasyprint.progress")
    step_level = steps.level
    split = split_index(html)
    css = weasyprint.CSS(string=pdf_stylesheet(facts, font), url_fetcher=fetcher)

    def layout(source: str, step: str, extra_css: str = ""):
        handler = None
        if progress is not None:
            handler = _LayoutProgress(progress, step)
            steps.addHandler(handler)
            steps.setLevel(logging.INFO)
        try:
            sheets = [css] + ([weasyprint.CSS(string=extra_css, url_fetcher=fetcher)] if extra_css else [])
            doc = weasyprint.HTML(string=anchor_labels(svg_fonts(keep_words(source), font), font),
                                  base_url=str(base_url) if base_url else None, url_fetcher=fetcher)
            return doc.render(stylesheets=sheets), doc.etree_element
        finally:
            if handler is not None:
                steps.removeHandler(handler)
                steps.setLevel(step_level if os.environ.get("FLAMER_DEBUG") else logging.CRITICAL)

    source = split.main if split else html
    document, root = layout(source, "layout")
    heights: dict[int, float] = {}
    for _ in range(FIT_ROUNDS):  # a figure that moved on and left its page less than half full: fit it in
        more = fit_figures(document, root, heights)
        if not more:
            break
        heights.update(more)
        document, root = layout(with_figure_heights(source, heights), "refit")
    if split is not None:
        pages = anchor_pages(document)
        first = pages.get(split.anchor)
        if first is not None:
            # a first page to drop (so that the index's first page is no :first page), numbered
            # one before the index's heading page; the index's own pages follow it
            index, _ = layout(split.before + '<div style="break-after: page"></div>'
                              + paginate_index(split.index, pages) + split.after, "index",
                              f"@page :first {{ counter-reset: page {first - 1}; }}")
            document = document.copy(document.pages[:first - 1] + index.pages[1:])
    for page in document.pages:  # a label taken from the text (content()) has the word joiners
        page.bookmarks = [(level, label.replace(WORD_JOINER, ""), *rest)
                          for level, label, *rest in page.bookmarks]
    return document


def _put_in_place(document, tmp: str, out: Path) -> None:
    """The PDF written to `tmp` (beside the target) and renamed over `out`, keeping the permission bits of the
    file it replaces (outfile.write_text's rule; a new one: as the umask says, mkstemp made it private and
    a PDF is for sharing). The rename replaces only ever a regular file (never a link, a device, a FIFO or
    a folder), checked again now, after the rendering."""
    try:
        document.write_pdf(tmp)
        try:
            st = os.lstat(out)
            mode = st.st_mode & 0o777 if stat.S_ISREG(st.st_mode) else None
        except OSError:
            mode = None
        if mode is None:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(tmp, mode)
        from .outfile import check_target

        check_target(str(out), "-o", "PDF 파일")
        os.replace(tmp, out)
    except OSError as exc:
        from .errors import os_reason

        kept = " 원래 파일은 그대로입니다." if os.path.isfile(out) else ""
        raise PdfError(f"{out}: PDF 파일을 쓸 수 없습니다 ({os_reason(exc)}).{kept}") from None
