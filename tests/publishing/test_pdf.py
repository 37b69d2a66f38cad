"""The PDF of `flamer book` (and `flamer faq --format pdf`), read back with poppler-utils and pypdf:
A4, a sane page count, the Korean font embedded (no Type 3, no missing font), an outline that is
the table of contents, internal links that land on their targets, TOC page numbers that are the
targets' pages, and no line that ends inside a Korean word (flamer_ref/pdf.py: keep_words).

Skipped, saying why, where the PDF engine (WeasyPrint and Pango), a Korean font or poppler-utils is
missing (.ci/run installs them on Debian)."""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
import sys
from html import unescape
from html.parser import HTMLParser
from pathlib import Path

import flamer_fork
import pytest

from inprocess import invoke

from flamer_ref import pdf

from forbidden_words import found, index_words, without

A4 = (595.276, 841.89)  # points
HANGUL = re.compile("[\uac00-\ud7a3]")
WJ = "\u2060"
INLINE = {"a", "abbr", "b", "bdi", "bdo", "cite", "code", "data", "del", "dfn", "em", "i", "ins", "kbd", "mark",
          "q", "s", "samp", "small", "span", "strong", "sub", "sup", "time", "u", "var", "wbr"}


# ----------------------------------------------------------------- helpers ----
def need_engine() -> None:
    try:
        pdf.korean_font()
        pdf._load_weasyprint()
    except pdf.PdfError as exc:
        pytest.skip(f"PDF engine not usable here: {exc.message.splitlines()[0]}")


def need_poppler() -> None:
    missing = [t for t in ("pdftotext", "pdfinfo", "pdffonts") if not shutil.which(t)]
    if missing:
        pytest.skip(f"poppler-utils missing ({', '.join(missing)}): apt-get install poppler-utils")


# the real command, as a user runs it (a process of its own: tests/flamer_fork.py)
flamer = functools.partial(flamer_fork.run, timeout=900, env={"PYTHONIOENCODING": "utf-8"})


@functools.lru_cache(maxsize=None)
def _poppler_run(tool: str, path: str, mtime_ns: int, args: tuple) -> str:
    return subprocess.run([tool, *args, path, "-"], capture_output=True, text=True, check=True).stdout


def poppler(tool: str, path: Path, *args: str) -> str:
    """What a poppler tool prints for the whole of a PDF (pdftotext: `-` for stdout), read once per file
    and version: the book's 90 pages take poppler seconds, and a dozen tests read the same output."""
    return _poppler_run(tool, str(path), os.stat(path).st_mtime_ns, args)


def pages_of(tool: str, path: Path, *args: str) -> list[str]:
    """poppler(...) cut into pages: pdftotext ends each page with a form feed (plain and -layout), and
    its -bbox output wraps each in <page …>…</page>. Page n is [n - 1], as `-f n -l n` prints it.
    Cut once per file and version, as poppler() reads it: a test that reads one page after another
    (the running heads: every page) cut the whole book's XML again for each page, 7 CPU-seconds."""
    return list(_pages_cut(tool, str(path), os.stat(path).st_mtime_ns, args))


@functools.lru_cache(maxsize=16)
def _pages_cut(tool: str, path: str, _mtime_ns: int, args: tuple[str, ...]) -> tuple[str, ...]:
    out = poppler(tool, Path(path), *args)
    if "-bbox" in args or "-bbox-layout" in args:
        return tuple(re.findall(r"<page\b[^>]*>.*?</page>", out, re.S))
    return tuple(out.split("\f")[:-1])


def pdfinfo(path: Path) -> dict[str, str]:
    out = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True).stdout
    return {k.strip(): v.strip() for k, _, v in (line.partition(":") for line in out.splitlines())}


def pdffonts(path: Path) -> list[dict]:
    lines = subprocess.run(["pdffonts", str(path)], capture_output=True, text=True, check=True).stdout.splitlines()
    rows = []
    for line in lines[2:]:
        # name, type (may have spaces), encoding, emb, sub, uni, object, id: read from the right
        parts = line.split()
        emb, sub, uni = parts[-5:-2]
        rows.append({"name": parts[0], "type": " ".join(parts[1:-6]), "emb": emb, "sub": sub, "uni": uni})
    return rows


def fonts_of(path: Path) -> list[dict]:
    """The fonts of a PDF as pdffonts lists them ({name, type, emb, sub, uni}), read with pypdf: every font
    of every page's resources and of the form XObjects (figures) they use. The book's whole-file pdffonts
    pass takes 5 s; this walk 1 s. test_faq_pdf checks that both list the same fonts the same way."""
    from pypdf import PdfReader

    fonts: dict = {}

    def walk(res, seen: set) -> None:
        res = res.get_object() if res is not None else None
        if not res or id(res) in seen:
            return
        seen.add(id(res))
        for ref in (res.get("/Font") or {}).values():
            key = getattr(ref, "idnum", None) or id(ref)
            fonts.setdefault(key, ref.get_object())
        for ref in (res.get("/XObject") or {}).values():
            x = ref.get_object()
            if x.get("/Subtype") == "/Form":
                walk(x.get("/Resources"), seen)

    seen: set = set()
    for page in PdfReader(str(path)).pages:
        walk(page.get("/Resources"), seen)
    rows = []
    for key in sorted(fonts):
        f = fonts[key]
        sub = f.get("/Subtype")
        d = f["/DescendantFonts"][0].get_object() if sub == "/Type0" else f
        fd = d.get("/FontDescriptor")
        fd = fd.get_object() if fd is not None else {}
        kind = {"/Type3": "Type 3", "/Type1": "Type 1", "/TrueType": "TrueType", "/CIDFontType0": "CID Type 0C",
                "/CIDFontType2": "CID TrueType"}.get(d.get("/Subtype"), str(d.get("/Subtype")))
        name = str(f.get("/BaseFont") or f.get("/Name") or "[none]").lstrip("/")
        emb = sub == "/Type3" or any(k in fd for k in ("/FontFile", "/FontFile2", "/FontFile3"))
        rows.append({"name": name, "type": kind, "emb": "yes" if emb else "no",
                     "sub": "yes" if re.match(r"[A-Z]{6}\+", name) else "no",
                     "uni": "yes" if "/ToUnicode" in f else "no"})
    return rows


def text_blocks(path: Path) -> list[list[list[str]]]:
    """The PDF's text as poppler reads it: flows (a column of text, in reading order; poppler's
    smaller blocks often hold a single line of a paragraph), each a list of lines of words."""
    xml = poppler("pdftotext", path, "-enc", "UTF-8", "-bbox-layout")
    flows = []
    for flow in re.findall(r"<flow>(.*?)</flow>", xml, re.S):
        lines = [[unescape(w) for w in re.findall(r"<word[^>]*>(.*?)</word>", line, re.S)]
                 for line in re.findall(r"<line[^>]*>(.*?)</line>", flow, re.S)]
        flows.append([ln for ln in lines if ln])
    return flows


_BOX_DECL = re.compile(r"(?:^|;)\s*(display\s*:\s*(?:inline-block|inline-flex|block|flex|grid|table)\b"
                       r"|(?:margin|padding|border)(?:-left|-right|-inline(?:-start|-end)?)?\s*:\s*([^;]*))")


def _spaced(decls: str) -> bool:
    """Whether declarations give an inline box room on its sides (a display that makes it a box, or a
    horizontal margin, padding or border that is not zero)."""
    for m in _BOX_DECL.finditer(decls):
        if m.group(2) is None:
            return True
        vals = m.group(2).split()
        if m.group(0).strip(" ;").startswith("border"):
            if vals and vals[0] not in ("0", "none"):
                return True
            continue
        horizontal = vals[1] if len(vals) > 1 else (vals[0] if vals else "0")
        if re.match(r"-?[\d.]*[1-9]", horizontal):
            return True
    return False


def boxed_selectors(css: str) -> list[tuple[str | None, frozenset, str | None]]:
    """The elements that the page's CSS sets apart from their neighbours (badges, labels with a
    margin): their edges separate words on the page even without a space in the text. Each is
    (tag or None, classes it has, a class one of its ancestors has or None) — `.meta b` is
    ("b", {}, "meta")."""
    rules = []
    for selectors, decls in re.findall(r"([^{}]+)\{([^{}]*)\}", re.sub(r"/\*.*?\*/", "", css, flags=re.S)):
        if not _spaced(decls):
            continue
        for sel in selectors.split(","):
            compounds = [re.sub(r"::?[\w-]+(\([^)]*\))?", "", c) for c in re.split(r"[\s>+~]+", sel.strip())]
            last = compounds[-1]
            tag = re.match(r"[a-z][a-z0-9]*", last)
            classes = frozenset(re.findall(r"\.([\w-]+)", last))
            ancestor = None
            if len(compounds) > 1:
                found = re.findall(r"\.([\w-]+)", compounds[-2])
                ancestor = found[0] if found else None
                if ancestor is None and not classes:
                    continue  # "nav.toc a" and the like: too broad to tell
            if tag or classes:
                rules.append((tag.group(0) if tag else None, classes, ancestor))
    return rules


class _Words(HTMLParser):
    """The text of an HTML page with a space wherever the page shows one: at spaces, at the edges of
    block elements and at the edges of inline boxes that the page's CSS spaces apart; not at the tags
    of other inline elements (`<a>전투턴</a>에서` is one word)."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skip = 0
        css = "".join(re.findall(r"<style[^>]*>(.*?)</style>", html, re.S))
        self.rules = boxed_selectors(css)
        self.stack: list[tuple[bool, set]] = []  # open elements: (set apart?, classes)

    def _apart(self, tag, classes) -> bool:
        if tag not in INLINE:
            return True
        above = set().union(*(c for _, c in self.stack)) if self.stack else set()
        return any((t is None or t == tag) and need <= classes and (anc is None or anc in above)
                   for t, need, anc in self.rules)

    def handle_starttag(self, tag, attrs):
        if tag in ("style", "script", "title"):
            self.skip += 1
        classes = set((dict(attrs).get("class") or "").split())
        apart = self._apart(tag, classes)
        if tag not in ("br", "img", "wbr", "input", "meta", "link", "hr"):
            self.stack.append((apart, classes))
        if apart or tag == "br":
            self.parts.append(" ")

    def handle_endtag(self, tag):
        if tag in ("style", "script", "title"):
            self.skip -= 1
        apart = self.stack.pop()[0] if self.stack else True
        if apart:
            self.parts.append(" ")

    def handle_data(self, data):
        if not self.skip:
            self.parts.append(data)


class SourceText:
    """The words of an HTML page's text as the page shows them (see _Words), and its word pairs (two
    words one space apart)."""

    def __init__(self, html: str):
        p = _Words(html)
        p.feed(html)
        seq = "".join(p.parts).split()
        self.words = set(seq)
        self.pairs = set(zip(seq, seq[1:]))

    def __contains__(self, word: str) -> bool:
        return word in self.words


def source_words(html: str) -> SourceText:
    return SourceText(html)


def mid_word_breaks(pdf_path: Path, words: SourceText) -> list[str]:
    """Line ends inside a Korean word: within a flow, the last word X of a line and the first word Y
    of the next make a word XY of the source text, which never has X and Y as two words, and the
    break is next to a Hangul letter (a break between "]" and "[" of "[개미][증폭기]" is one between
    brackets, as keep-all allows too)."""
    bad = []
    for block in text_blocks(pdf_path):
        for a, b in zip(block, block[1:]):
            x, y = a[-1], b[0]
            if x + y in words and (x, y) not in words.pairs and (HANGUL.match(x[-1]) or HANGUL.match(y[0])):
                bad.append(f"{x}/{y}")
    return bad


class _Toc(HTMLParser):
    """The table of contents of the HTML (the <nav class="toc">): (target id, level, label)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.entries: list[tuple[str, int, str]] = []
        self.depth = 0  # element depth inside the nav
        self.lists = 0
        self.link: list | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if self.depth:
            self.depth += 1
            if tag in ("ol", "ul"):
                self.lists += 1
            if tag == "a" and (a.get("href") or "").startswith("#"):
                self.link = [a["href"][1:], self.lists, ""]
        elif tag == "nav" and "toc" in (a.get("class") or "").split():
            self.depth = 1

    def handle_endtag(self, tag):
        if not self.depth:
            return
        if tag in ("ol", "ul"):
            self.lists -= 1
        if tag == "a" and self.link:
            self.entries.append((self.link[0], self.link[1], " ".join(self.link[2].split())))
            self.link = None
        self.depth -= 1

    def handle_data(self, data):
        if self.link is not None:
            self.link[2] += data


def toc_of(html: str) -> list[tuple[str, int, str]]:
    p = _Toc()
    p.feed(html)
    return p.entries


def squeeze(text: str) -> str:
    """Text without its spaces: a label compared as words in order, however the layout spaced them."""
    return "".join(text.split())


def outline(reader) -> list[tuple[int, str, int]]:
    """The PDF outline, flattened: (level, title, page number from 1)."""
    out = []

    def walk(items, level):
        for it in items:
            if isinstance(it, list):
                walk(it, level + 1)
            else:
                out.append((level, it.title, reader.get_destination_page_number(it) + 1))

    walk(reader.outline, 1)
    return out


# ---------------------------------------------------------------- fixtures ----
@pytest.fixture(scope="module")
def book(pdf_book):
    """`flamer book --format html` and `--format pdf` of the same data, made by the real command once per
    session (tests/conftest.py pdf_book)."""
    # no engine chatter (WeasyPrint's warnings) for the reader: only the done line
    assert re.fullmatch(r"핸드북을 썼습니다: \S+rules\.pdf \([\d,]+쪽, [\d.]+ MB\)\n", pdf_book["stderr"]), pdf_book["stderr"]
    return pdf_book


@pytest.fixture(scope="module")
def reader(book):
    pypdf = pytest.importorskip("pypdf", reason="pypdf (a test extra) is not installed")
    return pypdf.PdfReader(str(book["pdf"]))


# ------------------------------------------------------------------- book ----
def test_book_pdf_is_a4_with_a_sane_page_count(book):
    info = pdfinfo(book["pdf"])
    w, h = (float(x) for x in re.findall(r"[\d.]+", info["Page size"])[:2])
    assert abs(w - A4[0]) < 1 and abs(h - A4[1]) < 1, info["Page size"]
    pages = int(info["Pages"])
    parts = sum(1 for _, level, _ in toc_of(book["html"]) if level == 1)
    # every part starts on a page of its own, after the cover and the contents; a whole book, not a runaway
    assert parts + 2 <= pages <= 400, pages
    assert info.get("Title", "").startswith("더 플래머 룰 핸드북")


def test_book_pdf_embeds_the_korean_font(book):
    fonts = fonts_of(book["pdf"])
    assert fonts, "no fonts at all"
    for f in fonts:
        assert f["emb"] == "yes" and f["uni"] == "yes", f
        assert "Type 3" not in f["type"], f  # outlines as drawings: what Chromium makes of CJK fonts
    family = pdf.korean_font().family.replace(" ", "-")
    assert any(family in f["name"] for f in fonts), (family, [f["name"] for f in fonts])


def page_margins_pt(html: str) -> tuple[float, float]:
    """Left and right margins of the document's first @page rule, in points (20 mm when it has none:
    flamer_ref.pdf's own page)."""
    m = re.search(r"@page\s*\{[^}]*?margin:\s*([^;]+);", html)
    vals = [float(v[:-2]) for v in m.group(1).split() if v.endswith("mm")] if m else []
    if not vals:
        vals = [20.0]
    right = vals[1] if len(vals) > 1 else vals[0]
    left = vals[3] if len(vals) > 3 else right
    return left * 72 / 25.4, right * 72 / 25.4


def test_nothing_runs_past_the_text_area(book):
    """No word of any page lies outside the page's margins (a wide table, picture or long word would)."""
    xml = poppler("pdftotext", book["pdf"], "-enc", "UTF-8", "-bbox-layout")  # its words are -bbox's: _words_with_boxes
    left, right = page_margins_pt(book["html"])
    out = []
    for n, page in enumerate(re.findall(r"<page width=\"([\d.]+)\"[^>]*>(.*?)</page>", xml, re.S), 1):
        width = float(page[0])
        for x0, x1, word in re.findall(r'<word xMin="([\d.]+)" yMin="[\d.]+" xMax="([\d.]+)"[^>]*>(.*?)</word>', page[1]):
            if float(x0) < left - 1 or float(x1) > width - right + 1:
                out.append((n, word, round(float(x0)), round(float(x1))))
    assert not out, f"{len(out)} words outside the text area {left:.0f}–{width - right:.0f} pt: {out[:10]}"


def test_book_text_has_no_word_joiners_and_html_has_none(book):
    text = poppler("pdftotext", book["pdf"], "-enc", "UTF-8")
    assert "대응턴" in text
    assert WJ not in text  # copying and searching the PDF find the words as typed
    assert WJ not in book["html"]  # the word joiners are for the PDF only


def test_the_book_pdf_text_has_no_forbidden_word(book):
    """Issue 17: the PDF's text (what a reader copies or searches) has no internal word — the example pages
    name sides 나 / 상대 and pieces by their cards, never ME / OP or ids."""
    text = poppler("pdftotext", book["pdf"], "-enc", "UTF-8")
    # the index's headwords are the data's keywords as a reader looks them up ('선 플레이어' → 선공)
    text = without(text, index_words(book["html"]))
    words = found(text)
    assert not words, {w: [ln for ln in text.splitlines() if w in ln][:3] for w in words}


def test_no_line_of_the_book_pdf_ends_inside_a_korean_word(book):
    words = source_words(book["html"])
    blocks = text_blocks(book["pdf"])
    assert sum(len(b) for b in blocks) > 2000  # the check has lines to look at
    bad = mid_word_breaks(book["pdf"], words)
    assert not bad, f"{len(bad)} line ends inside a word: {bad[:20]}"


def test_outline_is_the_table_of_contents(book, reader):
    toc = toc_of(book["html"])
    assert len(toc) > 20
    got = [(level, squeeze(title)) for level, title, _ in outline(reader)]
    assert got == [(level, squeeze(label)) for _, level, label in toc]
    assert all(WJ not in title for _, title in got)


def test_internal_links_land_on_their_targets(book, reader):
    from pypdf.generic import NameObject

    dests = reader.named_destinations
    targets = {unescape(t) for t in re.findall(r'<a\s[^>]*href="#([^"]+)"', book["html"])}
    missing = targets - set(dests)
    assert targets and not missing, f"link targets of the HTML that are no destination in the PDF: {missing}"
    links = 0
    for page in reader.pages:
        for annot in page.get("/Annots") or []:
            annot = annot.get_object()
            if annot.get("/Subtype") != "/Link":
                continue
            if "/Dest" in annot:
                dest = annot["/Dest"]
            else:
                action = annot["/A"]
                if action.get("/S") == NameObject("/URI"):
                    continue  # an outside link (the book has none today)
                assert action.get("/S") == "/GoTo", action
                dest = action["/D"]
            name = str(dest)
            assert name in dests, f"link to a missing destination {name}"
            assert 0 <= reader.get_destination_page_number(dests[name]) < len(reader.pages)
            links += 1
    toc = toc_of(book["html"])
    assert links >= len(toc)  # at least the TOC's links are live


def test_toc_page_numbers_are_the_pages_of_their_targets(book, reader):
    dests = reader.named_destinations
    want = {target: reader.get_destination_page_number(dests[target]) + 1 for target, _, _ in toc_of(book["html"])}
    # the contents pages: from the first page that says 차례 up to the page of the first part
    first_part = min(want.values())
    printed = {}
    for page_no in range(1, first_part):
        # the contents' few pages alone (a -layout pass over the whole book costs seconds)
        text = subprocess.run(["pdftotext", "-enc", "UTF-8", "-layout", "-f", str(page_no), "-l", str(page_no),
                               str(book["pdf"]), "-"], capture_output=True, text=True, check=True).stdout
        for line in text.splitlines():
            m = re.match(r"\s*(.+?)\s*(?:\.\s*){3,}\s*(\d+)\s*$", line)
            if m:
                printed[squeeze(m.group(1))] = int(m.group(2))
    labels = {squeeze(label): want[target] for target, _, label in toc_of(book["html"])}
    found = {label: printed[label] for label in labels if label in printed}
    assert len(found) >= 0.8 * len(labels), f"only {len(found)} of {len(labels)} TOC lines read back"
    wrong = {label: (n, labels[label]) for label, n in found.items() if n != labels[label]}
    assert not wrong, f"TOC says page → target is on page: {wrong}"


def top_blocks(path: Path, page_no: int, limit: float = 50.0) -> list[str]:
    """The texts of the blocks in the top margin of a page (above `limit` points): its running header."""
    xml = pages_of("pdftotext", path, "-enc", "UTF-8", "-bbox-layout")[page_no - 1]
    out = []
    for attrs, body in re.findall(r"<block([^>]*)>(.*?)</block>", xml, re.S):
        if float(re.search(r'yMax="([\d.]+)"', attrs).group(1)) < limit:
            out.append(squeeze("".join(unescape(w) for w in re.findall(r"<word[^>]*>(.*?)</word>", body))))
    return out


def section_names(html: str) -> set[str]:
    """What a running header may say for a stretch of the HTML: its headings' texts and attribute values."""
    names = {squeeze(unescape(re.sub(r"<[^>]+>", "", h))) for h in re.findall(r"<h[1-6][^>]*>(.*?)</h[1-6]>", html, re.S)}
    names |= {squeeze(unescape(v)) for v in re.findall(r'\s[\w-]+="([^"]*)"', html)}
    return names - {""}


def test_running_header_names_the_section(book, reader):
    """Every page after the contents has a header in its top margin that names a section of the part
    the page is in (one of that part's headings, or a name the HTML gives it)."""
    html = book["html"]
    dests = reader.named_destinations
    parts = [(target, reader.get_destination_page_number(dests[target]) + 1)
             for target, level, _ in toc_of(html) if level == 1]
    cuts = [html.index(f'id="{target}"') for target, _ in parts] + [len(html)]
    pages = len(reader.pages)
    checked = 0
    for i, (target, first) in enumerate(parts):
        last = parts[i + 1][1] - 1 if i + 1 < len(parts) else pages
        names = section_names(html[cuts[i]:cuts[i + 1]])
        for page_no in range(first, last + 1):
            heads = top_blocks(book["pdf"], page_no)
            assert any(h in names for h in heads), (target, page_no, heads)
            checked += 1
    assert checked >= pages - parts[0][1]


# -------------------------------------------------------------------- faq ----
@pytest.fixture(scope="module")
def faq_pdf(tmp_path_factory):
    """`flamer faq --format pdf` and `--format html` of the bundled data with one 200-syllable run added to
    an answer (issue 25 fault 18), made by the real command once for the module: test_faq_pdf reads it as
    the FAQ, test_a_korean_run_longer_than_a_line_wraps_inside_the_page for the run (one PDF instead of
    two; the run changes no other page of the FAQ)."""
    need_engine()
    need_poppler()
    tmp = tmp_path_factory.mktemp("faq")
    data = tmp / "data"
    for sub in ("rules", "cards"):
        shutil.copytree(Path(__file__).resolve().parent.parent.parent / sub, data / sub)
    faq = data / "rules" / "faq.yaml"
    text = faq.read_text(encoding="utf-8")
    assert "    없습니다. 전투 결과는" in text
    faq.write_text(text.replace("    없습니다. 전투 결과는", f"    없습니다. {LONG_RUN} 전투 결과는", 1), encoding="utf-8")
    out = tmp / "faq.pdf"
    env = {"FLAMER_DATA": str(data), "PYTHONIOENCODING": "utf-8"}
    r = flamer_fork.run("faq", "--format", "pdf", "-o", str(out), timeout=300, env=env)
    assert r.returncode == 0, r.stderr
    html = flamer_fork.run("faq", "--format", "html", env=env, timeout=300).stdout
    assert LONG_RUN in html
    return {"pdf": out, "html": html}


def test_faq_pdf(faq_pdf):
    out = faq_pdf["pdf"]
    info = pdfinfo(out)
    assert "595.2" in info["Page size"] and int(info["Pages"]) >= 2
    fonts = pdffonts(out)
    assert fonts and all(f["emb"] == "yes" for f in fonts)
    # the book's fonts are read with pypdf (fonts_of: 1 s instead of pdffonts' 5 s): both read a PDF alike
    key = lambda f: (f["name"], f["emb"], f["sub"], f["uni"], "Type 3" in f["type"], f["type"].split(" (")[0])  # noqa: E731
    assert sorted(map(key, fonts_of(out))) == sorted(map(key, fonts))
    # every word of the FAQ (but the added run, which may break: see below) stays whole at line ends
    words = source_words(faq_pdf["html"].replace(LONG_RUN, ""))
    assert len(words.words) > 100 and not mid_word_breaks(out, words)


# ------------------------------------------------------- the line breaking ----
SAMPLE = ("<!doctype html><html lang='ko'><head><meta charset='utf-8'><title>시험</title>"
          "<style>@page { size: 90mm 200mm; margin: 8mm; } body { font-size: 11pt; }</style></head><body>"
          + "".join(f"<p>{t}</p>" for t in (
              "이동턴과 대응턴이 끝난 뒤 같은 셀에 양측 기물이 함께 있으면(조우 셀) 그 셀마다 전투가 성립한다.",
              "전투턴은 조우가 있을 때만 진행하며, 양측이 만나지 않았으면 건너뛴다. 단 대응턴을 연 조우 셀은 "
              "대응턴의 비용 지불(진내폭격의 헌납, 기폭의 개미 파괴 등)로 한쪽 기물이 비었더라도 전투를 연다.",
              "등장효과의 지속 효과는 그 기물 카드가 필드에서 <b>활성 상태인</b> 동안만 적용되고, 카드가 은퇴하거나 "
              "제거되는 순간 해제된다. 이전의 '영구 적용'은 폐기되었다."))
          + "</body></html>")


def test_keep_words_is_what_keeps_words_whole(tmp_path):
    """The same narrow page without keep_words breaks Korean words (WeasyPrint has no keep-all), with
    it none: the line-break check above is not vacuous and the workaround is what makes it pass."""
    need_engine()
    need_poppler()
    weasyprint = pdf._load_weasyprint()
    plain = tmp_path / "plain.pdf"
    weasyprint.HTML(string=SAMPLE).write_pdf(plain)
    joined = tmp_path / "joined.pdf"
    pdf.html_to_pdf(SAMPLE, joined)
    words = source_words(SAMPLE)
    assert mid_word_breaks(plain, words), "the sample should break words without the workaround"
    assert mid_word_breaks(joined, words) == []


def test_keep_words_only_adds_word_joiners():
    html = ('<p title="가나 다라">조항 <b>수호방패</b>(전투) · <a href="#x">전투턴</a>에서 A&amp;B 3기</p>'
            '<div>끝</div><div>시작</div><script>var s = "가나";</script>'
            '<svg><text>조우 셀</text><svg><rect/></svg><text>기물</text></svg><style>a::after { content: " (" target-counter(attr(href), page) "쪽)" }</style>')
    out = pdf.keep_words(html)
    assert out.replace(WJ, "") == html
    assert 'title="가나 다라"' in out and 'var s = "가나"' in out and "<text>조우 셀</text>" in out
    assert "<text>기물</text>" in out  # an <svg> inside an <svg>: still drawn by the SVG renderer, untouched
    assert f"<b>수{WJ}호{WJ}방{WJ}패</b>{WJ}({WJ}전{WJ}투{WJ})" in out  # one word across the inline tag
    assert f"{WJ}<a href=\"#x\">" not in out and f">전{WJ}투{WJ}턴</a>{WJ}에{WJ}서" in out
    assert "끝</div><div>시" in out  # blocks do not run on into each other
    assert f"3{WJ}기" in out and "A&amp;B" in out
    assert f'"{WJ}쪽{WJ})"' in out  # generated "30쪽)" stays one word


def test_keep_words_leaves_the_book_html_as_it_was_but_for_joiners(book):
    assert pdf.keep_words(book["html"]).replace(WJ, "") == book["html"]


# ------------------------------------------------------------------ errors ----
def test_missing_korean_font_is_a_korean_error_naming_the_package(tmp_path, monkeypatch):
    """A machine without a Korean font: fontconfig lists none and no font folder has one."""
    fake_bin = tmp_path / "bin"
    fake_bin.mkdir()
    fc = fake_bin / "fc-list"
    fc.write_text("#!/bin/sh\nexit 0\n")
    fc.chmod(0o755)
    monkeypatch.setenv("PATH", f"{fake_bin}{os.pathsep}{os.environ.get('PATH', '')}")
    monkeypatch.setattr(pdf, "_FONT_DIRS", (str(tmp_path / "fonts"),))
    with pytest.raises(pdf.MissingKoreanFont) as exc:
        pdf.korean_font()
    assert "fonts-noto-cjk" in exc.value.message and "한글" in exc.value.message
    out = tmp_path / "x.pdf"
    result = invoke("faq", "--format", "pdf", "-o", str(out))
    assert result.exit_code == 1
    assert "fonts-noto-cjk" in result.output and "Traceback" not in result.output
    assert not out.exists() and not list(tmp_path.glob(".flamer-*"))


def test_unwritable_target_is_said_before_rendering(tmp_path):
    need_engine()
    p = flamer("faq", "--format", "pdf", "-o", str(tmp_path / "no" / "such" / "dir" / "x.pdf"))
    assert p.returncode == 1 and "PDF 파일을 쓸 수 없습니다" in p.stderr and "Traceback" not in p.stderr


def test_pdf_module_is_not_on_the_search_path():
    code = ("import sys; from flamer_ref.cli import app; import flamer_ref.search; "
            "print('flamer_ref.pdf' in sys.modules, 'weasyprint' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["False", "False"]
    out = subprocess.run([sys.executable, "-c", "import sys, flamer_ref.pdf; print('weasyprint' in sys.modules)"],
                         capture_output=True, text=True, check=True).stdout.strip()
    assert out == "False"  # importing the module loads no engine


# ------------------------------------------------------------------ index ----
def _index_entries(html: str) -> list[tuple[str, list[tuple[str, bool]]]]:
    """The index of the HTML book: (word, [(place anchor, main?)]) per entry, in order."""
    part = html[html.index('id="part.index"'):]
    part = part[:part.index("</section>")]
    out = []
    for li in re.findall(r"<li[^>]*>(.*?)</li>", part, re.S):
        word = unescape(re.search(r'<span class="ix-word">(.*?)</span>', li).group(1))
        out.append((word, [(unescape(a), bool(m)) for m, a in re.findall(r'<a class="loc( main)?" href="#([^"]+)">', li)]))
    return out


def _page_links(reader, page_index: int) -> list[tuple[list[float], str]]:
    """The internal links of a page: (rect, destination name)."""
    out = []
    for annot in reader.pages[page_index].get("/Annots") or []:
        annot = annot.get_object()
        if annot.get("/Subtype") != "/Link":
            continue
        dest = annot["/Dest"] if "/Dest" in annot else annot["/A"].get("/D")
        if dest is not None:
            x0, y0, x1, y1 = (float(v) for v in annot["/Rect"])
            out.append(([min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)], str(dest)))
    return out


def _words_with_boxes(path: Path, page_no: int) -> list[tuple[float, float, float, float, str]]:
    """The words of a page with their boxes, as `pdftotext -bbox` lists them. Read from the -bbox-layout
    output the other tests read anyway (one whole-book pass less): poppler writes the same <word> elements
    in the same order in both, inside <flow>/<block>/<line> there (checked on all 93 pages of the book)."""
    xml = pages_of("pdftotext", path, "-enc", "UTF-8", "-bbox-layout")[page_no - 1]
    return [(float(a), float(b), float(c), float(d), unescape(w)) for a, b, c, d, w in
            re.findall(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*?)</word>', xml)]


def _page_text(path: Path, page_no: int) -> str:
    return squeeze(pages_of("pdftotext", path, "-enc", "UTF-8")[page_no - 1])


def test_index_is_the_last_part_and_in_the_outline(book, reader):
    entries = outline(reader)
    level1 = [(title, page) for level, title, page in entries if level == 1]
    assert level1[-1][0] == "7. 찾아보기" and level1[-2][0] == "6. 용어집"
    first = level1[-1][1]
    assert first > level1[-2][1]
    assert reader.get_destination_page_number(reader.named_destinations["part.index"]) + 1 == first
    pages = len(reader.pages)
    assert 2 <= pages - first + 1 <= 20  # some pages of entries, not a runaway
    text = _page_text(book["pdf"], first)
    assert "찾아보기" in text and "가나다순" in text
    # its pages are numbered on from the rest (the page number in the bottom margin) and keep the header
    for page_no in range(first, pages + 1):
        words = _words_with_boxes(book["pdf"], page_no)
        assert [w for *_, y1, w in [(x0, y0, x1, y1, w) for x0, y0, x1, y1, w in words] if y1 > A4[1] - 40] == [str(page_no)]
        assert any("찾아보기" in h for h in top_blocks(book["pdf"], page_no))


def test_index_prints_the_pages_of_its_places_as_links(book, reader):
    """Every number in the index is a link to a place of its entry and is the number of the page that
    place is on; each entry lists each of its places' pages once. Read back from the PDF: the link
    annotations (their rectangles and destinations) and the words under them."""
    dests = reader.named_destinations

    def page_of(anchor: str) -> int:
        return reader.get_destination_page_number(dests[anchor]) + 1

    entries = _index_entries(book["html"])
    assert len(entries) > 300
    # what the index must print: per entry, the pages of its places (each once), as links to the first place there
    want: dict[str, int] = {}
    for _, places in entries:
        firsts: dict[int, str] = {}
        for anchor, _ in places:
            firsts.setdefault(page_of(anchor), anchor)
        for anchor in firsts.values():
            want[anchor] = want.get(anchor, 0) + 1
    first = page_of("part.index")
    got: dict[str, int] = {}
    numbers = 0
    for page_no in range(first, len(reader.pages) + 1):
        words = _words_with_boxes(book["pdf"], page_no)
        height = float(reader.pages[page_no - 1].mediabox.height)
        for (x0, y0, x1, y1), name in _page_links(reader, page_no - 1):
            if name.startswith(("index.", "ix.", "top")):
                continue  # the letters to jump to, the "→ term" links, "↑ 처음"
            top, bottom = height - y1, height - y0
            inside = [w for wx0, wy0, wx1, wy1, w in words
                      if x0 - 1 <= (wx0 + wx1) / 2 <= x1 + 1 and top - 1 <= (wy0 + wy1) / 2 <= bottom + 1]
            assert [w.rstrip(",") for w in inside] == [str(page_of(name))], (page_no, name, inside)
            got[name] = got.get(name, 0) + 1
            numbers += 1
    assert got == want
    assert numbers >= sum(1 for _, places in entries if places)  # a see-reference (→) has no pages


# the pages an index entry gives show its word: tests/publishing/test_handbook_trust.py (issue 28)


def test_paginate_index_lists_each_page_once_with_its_first_place():
    html = ('<section id="ix" data-pdf-index><h2>찾아보기</h2><ul><li><span class="ix-word">기동</span> '
            '<span class="ix-locs"><a class="loc" href="#a">가</a>, <a class="loc" href="#b">나</a>, '
            '<a class="loc main" href="#c">뜻</a>, <a class="loc" href="#d">다</a>, <a class="loc" href="#gone">x</a></span>'
            '</li></ul></section>')
    out = pdf.paginate_index(html, {"a": 12, "b": 12, "c": 40, "d": 13})
    assert ('<span class="ix-locs"><a class="pg" href="#a">12</a>, <a class="pg" href="#d">13</a>, '
            '<a class="pg main" href="#c">40</a></span>') in out
    assert out.startswith('<section id="ix" data-pdf-index><h2>찾아보기</h2>')
    doc = ('<!doctype html><html lang="ko"><head><title>t</title></head><body data-x="1"><div class="doc" id="top">'
           '<p>앞</p>' + html + '\n<footer>끝</footer></div></body></html>')
    split = pdf.split_index(doc)
    assert split.anchor == "ix"
    assert split.main == ('<!doctype html><html lang="ko"><head><title>t</title></head><body data-x="1">'
                          '<div class="doc" id="top"><p>앞</p><section id="ix" data-pdf-index><h2>찾아보기</h2></section>'
                          '\n<footer>끝</footer></div></body></html>')
    assert split.before == '<!doctype html><html lang="ko"><head><title>t</title></head><body data-x="1"><div class="doc">'
    assert split.index == html and split.after == "\n<footer>끝</footer></div></body></html>"
    assert pdf.split_index("<html><body><p>x</p></body></html>") is None


# ---------------------------------------------------------------- page fill ----
def page_fills(path: Path, first: int, last: int, top_mm: float, bottom_mm: float, side_mm: float) -> dict[int, float]:
    """How far down each page's text area its content reaches (0–1): the page drawn at 30 dpi in grey,
    the lowest row with ink between the margins, left and right edges of the text area left out (the
    border of a box that goes on to the next page runs down them)."""
    out = {}
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        subprocess.run(["pdftoppm", "-r", "30", "-gray", "-f", str(first), "-l", str(last), str(path), f"{d}/p"],
                       check=True)
        for f in Path(d).glob("p-*.pgm"):
            data = f.read_bytes()
            _, w, h, _ = data.split(maxsplit=4)[:4]
            w, h = int(w), int(h)
            px = data[len(data) - w * h:]
            top, bottom, side = (round(v / 25.4 * 30) for v in (top_mm, bottom_mm, side_mm))
            bottom = h - bottom
            last_ink = top
            for y in range(bottom - 1, top - 1, -1):
                if min(px[y * w + side:(y + 1) * w - side]) < 235:
                    last_ink = y + 1
                    break
            out[int(re.search(r"-(\d+)\.pgm$", f.name).group(1))] = (last_ink - top) / (bottom - top)
    return out


def test_no_page_of_examples_is_more_than_half_empty(book, reader):
    """Every page of the examples (and of the FAQ, whose worked cases have pictures too) is filled at least
    halfway down, but for the last page of the part: a picture that does not fit is made to fit
    (pdf.fit_figures) or the text goes on beside it, instead of leaving half a page blank."""
    m = re.search(r"@page\s*\{[^}]*?margin:\s*([\d.]+)mm\s+([\d.]+)mm\s+([\d.]+)mm", book["html"])
    top, side, bottom = (float(v) for v in m.groups())
    level1 = [(title, page) for level, title, page in outline(reader) if level == 1]
    checked = 0
    low = {}
    for name in ("예시", "자주 하는 실수"):
        i = next(n for n, (title, _) in enumerate(level1) if name in title)
        first, last = level1[i][1], level1[i + 1][1] - 1
        fills = page_fills(book["pdf"], first, last, top, bottom, side + 3)
        assert len(fills) == last - first + 1
        low.update({p: round(f, 2) for p, f in fills.items() if f < 0.5 and p != last})
        checked += len(fills)
    assert checked >= 20
    assert not low, f"pages less than half full: {low}"


def test_page_fill_measure_sees_a_half_empty_page(tmp_path):
    """The measure above is not blind: a page whose content stops a third of the way down reads as ~1/3."""
    need_engine()
    need_poppler()
    html = ("<!doctype html><html lang='ko'><head><meta charset='utf-8'><title>t</title><style>"
            "@page { size: A4; margin: 20mm 15mm 20mm; } p { margin: 0; height: 70mm; background: #333; }</style>"
            "</head><body><p></p><p style='break-before: page; height: 250mm'></p></body></html>")
    out = tmp_path / "fill.pdf"
    pdf.html_to_pdf(html, out)
    fills = page_fills(out, 1, 2, 20, 20, 18)
    assert abs(fills[1] - 70 / 257) < 0.03 and fills[2] > 0.95


def test_a_picture_that_would_leave_its_page_half_empty_is_drawn_smaller(tmp_path, monkeypatch):
    """pdf.fit_figures: a page filled 40% whose next picture (160 mm) does not fit in what is left moved
    that picture on and left the page more than half empty; drawn smaller (its proportions kept) it stays.
    A picture that would have to shrink below FIT_MIN_SCALE moves on as before."""
    need_engine()
    need_poppler()

    def doc(block_mm: float, picture_mm: float) -> str:
        return ("<!doctype html><html lang='ko'><head><meta charset='utf-8'><title>t</title><style>"
                "@page { size: A4; margin: 20mm 15mm 20mm; } body { margin: 0; } "
                "div.text { margin: 0; background: #333; } figure { margin: 0; } "
                "figure svg.fig { width: auto; height: auto; }</style></head><body>"
                f"<div class='text' style='height: {block_mm}mm'></div><figure>"
                f"<svg class='fig' xmlns='http://www.w3.org/2000/svg' viewBox='0 0 100 100' width='{picture_mm}mm' "
                f"height='{picture_mm}mm'><rect x='0' y='0' width='100' height='100' fill='#333'/></svg>"
                "</figure></body></html>")

    out = tmp_path / "fit.pdf"
    pages = pdf.html_to_pdf(doc(100, 160), out)
    fills = page_fills(out, 1, pages, 20, 20, 18)
    assert pages == 1 and fills[1] > 0.9, (pages, fills)  # the picture stayed, a little smaller
    # without the fit (the old layout) the same page was less than half full: the measure sees it
    monkeypatch.setattr(pdf, "FIT_ROUNDS", 0)
    pages = pdf.html_to_pdf(doc(100, 160), out)
    fills = page_fills(out, 1, pages, 20, 20, 18)
    assert pages == 2 and fills[1] < 0.5, (pages, fills)
    monkeypatch.undo()
    # too big to shrink into the space (it would need less than half its size): it moves on, untouched
    pages = pdf.html_to_pdf(doc(125, 255), out)
    fills = page_fills(out, 1, pages, 20, 20, 18)
    assert pages == 2 and fills[1] < 0.5, (pages, fills)


# ------------------------------------------- a word longer than any line ----
LONG_RUN = "가나다라마바사아자차" * 20  # 200 syllables, no space: a mistyped or hostile FAQ answer


def words_past_the_edge(path: Path, margin_pt: float) -> list[str]:
    """The words of a PDF that reach into its right margin (or beyond the page)."""
    xml = poppler("pdftotext", path, "-enc", "UTF-8", "-bbox")
    out = []
    for width, body in re.findall(r'<page width="([\d.]+)"[^>]*>(.*?)</page>', xml, re.S):
        out += [w for x1, w in re.findall(r'<word xMin="[\d.]+" yMin="[\d.]+" xMax="([\d.]+)"[^>]*>(.*?)</word>', body)
                if float(x1) > float(width) - margin_pt + 1]
    return out


def test_a_korean_run_longer_than_a_line_wraps_inside_the_page(faq_pdf):
    """Issue 25 fault 18: the word joiners made a 200-syllable run one unbreakable word that ran past the
    page's edge and was cut off. It now wraps inside the text area, every syllable still printed, and the
    ordinary words around it still break only between words (test_faq_pdf)."""
    out, html = faq_pdf["pdf"], faq_pdf["html"]
    assert not words_past_the_edge(out, page_margins_pt(html)[1])
    assert LONG_RUN in "".join(poppler("pdftotext", out, "-enc", "UTF-8").split())  # nothing cut off


def test_keep_words_puts_a_long_run_in_a_span_that_may_break():
    short = "수호방패"
    out = pdf.keep_words(f"<p>{short} {LONG_RUN} <b>{LONG_RUN[:20]}</b>{LONG_RUN[:20]} 끝</p>")
    assert f'<span class="{pdf.LONG_CLASS}">{LONG_RUN}</span>' in out  # no joiner inside it
    assert WJ.join(short) in out
    # a word that grows past the limit across an inline tag is not joined across the tag
    assert f"</b>{WJ}" not in out and f"{WJ.join(LONG_RUN[:20])}</b>{WJ.join(LONG_RUN[:20])}" in out
    assert len(pdf.keep_words("가" * pdf.LONG_WORD).replace(WJ, "")) == pdf.LONG_WORD  # up to the limit: joined
    assert pdf.LONG_CLASS not in pdf.keep_words("가" * pdf.LONG_WORD)


# ------------------------------------------------------------ anchored labels ----
#: SVG labels as the board pictures have them: centred and right-aligned, normal and bold, Hangul, Latin,
#: digits, a middle dot and a bullet
def need_fc_match() -> None:
    if not shutil.which("fc-match"):
        pytest.skip("fontconfig's fc-match is missing (apt-get install fontconfig): labels keep their anchors")


LABELS = (("활성", "middle", "normal", 14), ("Lv 미상", "middle", "bold", 12), ("나 · 공격자", "end", "normal", 11),
          ("DGM", "end", "bold", 16), ("5번 자리", "middle", "normal", 13), ("● 1,2", "middle", "normal", 12))


def test_centred_labels_stand_where_weasyprint_puts_them_without_a_group_each(tmp_path, monkeypatch):
    """anchor_labels: a label centred or right-aligned by text-anchor is given its start x from the embedded
    face's advance widths, so WeasyPrint draws it without a transparency group (each carried every font of
    the page, which poppler set up again for each: the book's pictures made pdftotext 6.0 s instead of 2.1 s).
    Every word stands where WeasyPrint's own anchoring puts it, and the PDF has no group left to draw."""
    need_engine()
    need_poppler()
    need_fc_match()
    pypdf = pytest.importorskip("pypdf", reason="pypdf (a test extra) is not installed")
    texts = "".join(f'<text x="{150 + 10 * i}" y="{30 + 30 * i}" font-size="{size}" text-anchor="{anchor}" '
                    f'font-weight="{weight}" fill="#222">{text}</text>'
                    for i, (text, anchor, weight, size) in enumerate(LABELS))
    html = ('<!doctype html><html lang="ko"><head><meta charset="utf-8"></head><body><svg xmlns="http://www.w3.org/2000/svg"'
            f' width="300" height="220" viewBox="0 0 300 220">{texts}</svg></body></html>')
    ours, theirs = tmp_path / "ours.pdf", tmp_path / "theirs.pdf"
    pdf.html_to_pdf(html, ours)
    monkeypatch.setattr(pdf, "anchor_labels", lambda html, font: html)  # WeasyPrint anchors them itself
    pdf.html_to_pdf(html, theirs)

    mine, weasy = _words_with_boxes(ours, 1), _words_with_boxes(theirs, 1)
    assert [w[4] for w in mine] == [w[4] for w in weasy] == [w for text, *_ in LABELS for w in text.split()]
    for a, b in zip(mine, weasy):
        assert all(abs(p - q) < 0.01 for p, q in zip(a[:4], b[:4])), (a, b)

    def drawn_objects(path: Path) -> int:
        return len(re.findall(rb"/x\d+ Do\b", pypdf.PdfReader(str(path)).pages[0].get_contents().get_data()))

    assert drawn_objects(theirs) == len(LABELS) and drawn_objects(ours) == 0


def test_a_label_anchor_labels_cannot_measure_keeps_its_anchor():
    """A letter the face lacks, dx, rotate, letter-spacing, an unknown weight, no font-size: left as written."""
    need_engine()
    need_fc_match()
    font = pdf.korean_font()
    kept = ['<text x="10" y="9" font-size="12" text-anchor="middle">\U0001F600</text>',
            '<text x="10" y="9" font-size="12" text-anchor="middle" dx="2">활성</text>',
            '<text x="10" y="9" font-size="12" text-anchor="end" rotate="30">활성</text>',
            '<text x="10" y="9" font-size="12" text-anchor="middle" letter-spacing="1">활성</text>',
            '<text x="10" y="9" font-size="12" text-anchor="middle" font-weight="300">활성</text>',
            '<text x="10" y="9" text-anchor="middle">활성</text>']
    for label in kept:
        assert pdf.anchor_labels(label, font) == label
    moved = pdf.anchor_labels('<text x="10" y="9" font-size="12" text-anchor="end">활성</text>', font)
    assert re.fullmatch(r'<text x="(-?[\d.]+)" y="9" font-size="12">활성</text>', moved)
    # right-aligned at 10: starts two Hangul advances (0.8–1 em each in a Korean face) to the left
    assert 10 - 2 * 12 <= float(re.search(r'x="([-\d.]+)"', moved).group(1)) <= 10 - 2 * 0.8 * 12
