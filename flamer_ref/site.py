"""`flamer site DIR`: the rules reference as a folder of static HTML pages.

Any web server serves the folder, and it works opened from disk (file://): no
page fetches anything; the search index is a script (search-index.js) that
assigns a global, loaded with <script src>. Layout (every link relative):

    index.html                 table of contents and the search box (index.html?q=… searches)
    rules/<section>.html       one page per rules section, an anchor per clause
                               (#combat.step7.sweep) and per interpretation (#interp.…)
    rulings.html               the rulings timeline (#ruling.…)
    faq.html                   FAQ entries (#faq.…) and the reasoned cases (#ex.…)
    examples.html              the worked examples by page (#examples.<page>)
    examples/<id>.html         one example: situation, diagrams, computed result
    examples/<case>.full.html  the engine's step-by-step page of a computed case
                               (ex.x, ex.x-2 for the second scenario, faq.x)
    cards.html                 cards by faction (#cards.<faction>)
    cards/<name>.html          one card (spaces in the name become '-'; a name too long for a file
                               name is cut and ends in a short hash: card_slug)
    glossary.html              terms (#term.…)
    assets/, search-index.js   style, search code and the prebuilt index

The content is the book's (flamer_ref.book.build_book) and its pieces are the
book's templates (templates/book/_parts.html.j2, which link through HREF: the
anchor → URL map of site_urls, seen from each page).

These addresses are the stable part: a clause keeps its anchor as long as its
id lives. The folder also holds .flamer-site.json, the list of files this
command wrote: a rebuild writes only into an empty folder or one carrying that
list, replaces the files it wrote before, removes the ones it no longer writes
and leaves every other file alone. The list is written first (naming the files
of the last build and of this one), so a build that fails half-way leaves a
folder the next build takes (docs/FILES.md).

Every sentence a reader sees comes from templates/site/*.j2 and templates/book/
(autoescaped).
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Mapping
from pathlib import Path, PurePosixPath
from urllib.parse import quote, unquote

from .korean import cut_path as _shown  # a path as a message repeats it
from .errors import BadInput, FlamerError, os_reason
from .cleantext import clean

MARKER = ".flamer-site.json"
#: the largest file list (MARKER) taken for one this command wrote: the bundled data's is 3.8 KB (109
#: files), 1 MB holds some 30,000 names. A planted 42 MB list took 15-30 s (issue 20); a larger one is
#: not ours, refused unread
MARKER_MAX_BYTES = 1024 * 1024
GENERATOR = "flamer site"
INDEX_SNIPPET = 150


# ------------------------------------------------------------------ links ----
#: the longest card slug, in UTF-8 bytes (40 Hangul syllables): with "-N" and ".html" it stays far below
#: the 255 bytes a file name may have (and the 143 of an encrypted home folder)
CARD_SLUG_MAX_BYTES = 120
#: hex digits of the name's hash that end a cut slug (two long names sharing their start stay apart)
CARD_SLUG_HASH = 10


def card_slug(name: str) -> str:
    """A card's file name: its name with spaces as '-' ('해상 기지' → 해상-기지); characters a
    file name cannot hold (/ \\ : * ? " < > | and control characters) become '_', and a name
    starting with '.' gets a '_' in front. A name longer than CARD_SLUG_MAX_BYTES (UTF-8) is cut at
    a character and ends in '~' and a short hash of the whole name: the page's name, its links and
    the search index use it; the page and its links still read as the card's whole name."""
    import re

    slug = re.sub(r'[/\\:*?"<>|\x00-\x1f\x7f#%]', "_", "-".join(str(name).split())) or "_"
    slug = "_" + slug if slug.startswith(".") else slug
    if len(slug.encode("utf-8")) <= CARD_SLUG_MAX_BYTES:
        return slug
    import hashlib

    tail = "~" + hashlib.sha256(str(name).encode("utf-8", "surrogatepass")).hexdigest()[:CARD_SLUG_HASH]
    head = slug.encode("utf-8")[:CARD_SLUG_MAX_BYTES - len(tail)].decode("utf-8", "ignore")
    return head + tail


def card_file(name: str, taken: set[str]) -> str:
    """The card's slug, made unique among `taken` (compared case-insensitively) with -2, -3 …"""
    slug, n = card_slug(name), 1
    while (slug if n == 1 else f"{slug}-{n}").lower() in taken:
        n += 1
    slug = slug if n == 1 else f"{slug}-{n}"
    taken.add(slug.lower())
    return slug


def site_urls(book: dict) -> dict[str, str]:
    """Every anchor of the book (flamer_ref.book: clauses, interpretations, rulings, FAQ entries,
    examples, cards, terms, groups, parts) → its address in the site, relative to the site root."""
    urls: dict[str, str] = {"cover": "index.html", "part.toc": "index.html#toc", "part.rules": "index.html#toc",
                            "part.rulings": "rulings.html", "part.faq": "faq.html", "part.examples": "examples.html",
                            "part.cards": "cards.html", "part.glossary": "glossary.html"}
    for sec in book["sections"]:
        page = f"rules/{sec['id']}.html"
        urls[sec["anchor"]] = page
        for c in sec["clauses"]:
            urls[c["anchor"]] = f"{page}#{c['anchor']}"
            for i in c["interpretations"]:
                urls[i["anchor"]] = f"{page}#{i['anchor']}"
    for r in book["rulings"]:
        urls[r["anchor"]] = f"rulings.html#{r['anchor']}"
    for g in book["faq"]:
        urls[g["anchor"]] = f"faq.html#{g['anchor']}"
        for item in g["items"]:
            urls[item["anchor"]] = f"faq.html#{item['anchor']}"
    for g in book["examples"]:
        urls[g["anchor"]] = f"examples.html#{g['anchor']}"
        for item in g["items"]:
            urls[item["anchor"]] = f"examples/{item['id']}.html"
    taken: set[str] = set()
    for g in book["cards"]:
        urls[g["anchor"]] = f"cards.html#{g['anchor']}"
        for c in g["cards"]:
            urls[c["anchor"]] = "cards/" + quote(card_file(c["name"], taken)) + ".html"
    for t in book["glossary"]:
        urls[t["anchor"]] = f"glossary.html#{t['anchor']}"
    return urls


class Hrefs(Mapping):
    """The site's addresses as seen from one page: anchor → URL relative to that page.
    What the templates get as HREF (book/_parts.html.j2 links through it) and L."""

    def __init__(self, urls: dict[str, str], root: str = ""):
        self._urls = urls
        self.root = root

    def __getitem__(self, anchor: str) -> str:
        return self.root + self._urls[anchor]

    def __contains__(self, anchor) -> bool:
        return anchor in self._urls

    def __iter__(self):
        return iter(self._urls)

    def __len__(self) -> int:
        return len(self._urls)

    def page(self, rel: str) -> str:
        return self.root + rel

    def card(self, name: str) -> str:
        from .book import card_anchor

        return self[card_anchor(name)]


# ------------------------------------------------------------------- data ----
def _runs_of(book: dict) -> list[dict]:
    """Every computed case of the FAQ and the examples (each carries its result)."""
    return [c for part in ("faq", "examples") for g in book[part] for item in g["items"] for c in item["cases"]]


def card_pages(corpus, book: dict, urls: dict[str, str]) -> list[dict]:
    """The book's cards, each with what a card page adds: when it can be used (flamer timing)
    and the page each stat comes from."""
    from .lookup import timing

    out = []
    for g in book["cards"]:
        for c in g["cards"]:
            view = dict(c)
            try:
                view["usage"] = timing(corpus, c["name"])["entries"]
            except FlamerError:
                view["usage"] = []
            view["stat_sources"] = {k: {**v, "title": corpus.sources[v["source"]]["title"]}
                                    for k, v in c["stat_sources"].items()}
            view["path"] = unquote(urls[c["anchor"]])
            out.append(view)
    return out


def glossary_groups(book: dict) -> list[dict]:
    """The glossary in 가나다 order under each index letter (ㄱ, ㄴ, … ; ㄲ under ㄱ; a leading
    bracket does not count: (대응) is under ㄷ), then the terms in Latin letters under A–Z: the book's
    own grouping (book.glossary_groups, korean.collation_key), with the page's anchors."""
    from .book import glossary_groups as groups

    return [{"head": g["head"], "anchor": f"head-{n}", "terms": g["terms"]}
            for n, g in enumerate(groups(book["glossary"]), 1)]


# ----------------------------------------------------------------- search ----
def search_index(corpus, urls: dict[str, str], as_of: str) -> dict:
    """The prebuilt index the page's search reads (see templates/site/assets/search.js): the
    entries of `flamer search` (flamer_ref.entries.entries_of), their words and pairs of adjacent
    words with postings (entry * 4 + field), names, and the particle and question-word lists."""
    from .entries import entries_of
    from .korean import AFTER_FINAL, AFTER_VOWEL, ENDINGS, STOPWORDS
    from .searchindex import index_words

    docs, singles, pairs, names = [], {}, {}, []

    def add(table: dict, word: str, posting: int) -> None:
        lst = table.setdefault(word, [])
        if posting not in lst:
            lst.append(posting)

    from .book import card_anchor

    for eid, kind, title, text, head, body, *other in entries_of(corpus):
        url = urls.get(card_anchor(eid) if kind == "card" else eid)
        if url is None:  # a ruling after as_of: not on the site
            continue
        n = len(docs)
        snippet = " ".join(str(text).split())
        if len(snippet) > INDEX_SNIPPET:
            snippet = snippet[:INDEX_SNIPPET - 1].rstrip() + "…"
        docs.append([kind, eid, title, url, snippet])
        for field, value in ((0, title), (1, head), (2, body)):
            ws = index_words(value)
            for w in ws:
                add(singles, w, n * 4 + field)
            if field < 2:  # words typed together (대응스택, 해상기지) and words side by side in a title or keyword
                for a, b in zip(ws, ws[1:]):
                    add(pairs, a + b, n * 4 + field)
        for name in (title, *(other[0] if other else ()), *([title.split(" — ")[0]] if " — " in title else [])):
            names.append([n, name])
    words = sorted(singles)
    pair_words = sorted(p for p in pairs if p not in singles)
    for p in pairs:
        if p in singles:
            for posting in pairs[p]:
                add(singles, p, posting)
    return {"version": 1, "as_of": as_of, "docs": docs, "words": words + pair_words, "singles": len(words),
            "post": [singles[w] for w in words] + [pairs[w] for w in pair_words], "names": names,
            "endings": {"all": sorted(ENDINGS), "after_vowel": list(AFTER_VOWEL), "after_final": list(AFTER_FINAL)},
            "stop": sorted(STOPWORDS)}


# ------------------------------------------------------------- calculator ----
#: the calculator page (templates/site/calculator.html.j2, assets/calculator.js): a fight in one line
#: or a scenario, computed in the browser by the engine (assets/engine.js)
CALCULATOR = "판정기.html"
#: the fight one-liners of README (line, declarations), offered as examples to start from: written as a
#: player types them on a phone's Korean keyboard (대, ×2, 레벨 체력 공격력), the same fights
FIGHT_EXAMPLES = (
    ("거신 대 별마대, 행성굴착기(정착)", ()),
    ("수문장 ×2 대 개미(레벨1 체력2 공격력1), 증폭기(정착 공격력0)", ()),
    ("수문장(레벨6), 별마대, 장인 대 거신, 행성굴착기(정착), 증폭기(정착)", ("수비자 재부팅 행성굴착기",)),
    ("거신, 장인 대 개미(정착 레벨1 체력2 공격력1)", ("수비자 진내폭격 비용 개미",)),
)


def script_json(obj) -> str:
    """obj as JSON to sit inside <script type="application/json">: <, > and & escaped as \\u003c …
    so no text in it can close the script element or open a comment (the same value for JSON.parse)."""
    text = json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
    return (text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def cite_links(book: dict, urls: dict[str, str]) -> dict[str, str]:
    """How a verdict cites a clause, an interpretation or a ruling (render.clause_number: '6.26',
    '해석 6.14-1', '2026-09-24 확정') → its address in the site (relative to the site root): the
    calculator page links the citations of the engine's answers with it."""
    out: dict[str, str] = {}
    for sec in book["sections"]:
        for c in sec["clauses"]:
            if c.get("number"):
                out.setdefault(str(c["number"]), urls[c["anchor"]])
            for i in c["interpretations"]:
                if i.get("number"):
                    out.setdefault(f"해석 {i['number']}", urls[i["anchor"]])
    for r in book["rulings"]:
        out.setdefault(f"{r['date']} {r['label']}".strip(), urls[r["anchor"]])
    return out


def web_template(text: str) -> str:
    """A `flamer scenario new` template as the calculator's 틀 button gives it: the same scenario, without
    the header lines that say how to run it on the command line (a player on the site runs it by typing)."""
    import re

    lines = [ln for ln in text.split("\n") if not re.match(r"#\s+(그대로 풀어 보기|고쳐서 풀기):", ln)]
    lines = [ln for i, ln in enumerate(lines) if not (ln == "#" and i and lines[i - 1] == "#")]
    out = re.sub(r" — flamer scenario new \S+", "", "\n".join(lines), count=1)
    return re.sub(r"flamer scenario new (\S+?)\)", r"‘\1’ 틀)", out)


def calculator_context(corpus=None, book: dict | None = None, urls: dict[str, str] | None = None) -> dict:
    """What the calculator page needs from the build: the text of every `flamer scenario new` template
    (the same code: scenario_files.template_text), and for the page's script (JSON safe inside a script
    element): the citations' addresses (cite_links), the preset dictionaries of compressed scenario links
    (linkdict) and the cards' names for completion (name, 기물/특수, faction)."""
    from markupsafe import Markup

    from .engine.aliases import KIND_KO
    from .linkdict import DICTIONARIES
    from .scenario_files import available_kinds, template_text

    from .pyodidefetch import PYODIDE_VERSION

    kinds = available_kinds()

    cards = []
    if corpus is not None:
        for name, c in corpus.cards.items():
            cards.append([name, "특수" if c.get("type") == "special" else "기물", c.get("faction") or ""])
    data = {"cites": cite_links(book, urls) if book is not None and urls is not None else {},
            "dictionaries": {str(k): v for k, v in DICTIONARIES.items()}, "cards": cards}
    return {"scenario_templates": Markup(script_json({k: web_template(template_text(k)) for k in kinds})),
            "page_data": Markup(script_json(data)),
            "template_kinds": [(k, KIND_KO.get(k, k)) for k in kinds],
            "fight_examples": [(line, list(rs)) for line, rs in FIGHT_EXAMPLES], "pyodide_version": PYODIDE_VERSION}


# ------------------------------------------------------------------ build ----
def _asset(name: str) -> str:
    from .paths import templates_dir

    return (templates_dir() / "site" / "assets" / name).read_text(encoding="utf-8")


def build_site(corpus, as_of: str | None = None) -> dict[str, str]:
    """Every file of the site: relative path → text. The content is the book's
    (flamer_ref.book.build_book): the same clauses, rulings, computed cases and cards."""
    from . import __version__
    from .book import build_book
    from . import runner
    from .render import render, render_result

    book = build_book(corpus, as_of)
    date = book["as_of"]
    urls = site_urls(book)
    cases = _runs_of(book)
    checks = book["cover"]["checks"]
    base = {"as_of": date, "latest": corpus.latest_date(), "version": __version__, "book": book,
            "ver": book["cover"]["version"], "counts": book["cover"]["counts"], "checks": checks,
            "total_cases": sum(checks.values()), "refs": book["refs"], "A": book["anchors"],
            "sections": [{"id": s["id"], "title": s["title"]} for s in book["sections"]],
            "site": True}  # (the book's shared parts leave out the command-line hints on the site)

    files: dict[str, str] = {}

    def page(path: str, template: str, **ctx) -> None:
        root = "../" * path.count("/")
        hrefs = Hrefs(urls, root)
        files[path] = render(f"site/{template}", **base, root=root, HREF=hrefs, L=hrefs, path=path, **ctx)

    # the engine's own step-by-step page of every computed case (as `flamer simulate --format html`)
    full = {}
    for c in cases:
        if c["result"] is not None:
            rel = f"examples/{c['case'].replace('#', '-')}.full.html"
            # its cited clauses link to their pages here (site_links: id → address from examples/)
            files[rel] = render_result(c["result"], "html", refs=runner.refs(corpus, c["result"]),
                                       site_links=Hrefs(urls, "../"))
            full[c["case"]] = rel

    sections = book["sections"]
    page("index.html", "index.html.j2")
    for i, sec in enumerate(sections):
        page(f"rules/{sec['id']}.html", "section.html.j2", section=sec,
             prev=sections[i - 1] if i else None, next=sections[i + 1] if i + 1 < len(sections) else None)
    page("rulings.html", "rulings.html.j2")
    page("faq.html", "faq.html.j2", full=full)
    page("examples.html", "examples.html.j2")
    examples = [e for g in book["examples"] for e in g["items"]]
    group_of = {e["id"]: g for g in book["examples"] for e in g["items"]}
    for i, ex in enumerate(examples):
        page(f"examples/{ex['id']}.html", "example.html.j2", ex=ex, full=full, group=group_of[ex["id"]],
             prev=examples[i - 1] if i else None, next=examples[i + 1] if i + 1 < len(examples) else None)
    cards = card_pages(corpus, book, urls)
    page("cards.html", "cards.html.j2", cards=cards)
    from .lookup import cite_refs

    clause_refs = cite_refs(corpus)  # a clause cited by its number and title (the clause_label filter)
    for card in cards:
        page(card["path"], "card.html.j2", card=card, clause_refs=clause_refs)
    page("glossary.html", "glossary.html.j2", groups=glossary_groups(book))
    page(CALCULATOR, "calculator.html.j2", **calculator_context(corpus, book, urls))  # the calculator (issues 16, 26)
    page("offline.html", "offline.html.j2")  # what the service worker shows for a page it cannot get (issue 26)

    # no raw control character from the data (ESC, C1, a bidi override) in any page: the cleaning of
    # `flamer book -o` (cleantext.clean), for HTML
    files = {rel: clean(text, html=True) for rel, text in files.items()}
    files["assets/site.css"] = render("site/site.css.j2")
    files["assets/search.js"] = _asset("search.js")
    files["assets/app.js"] = _asset("app.js")
    files["assets/calculator.js"] = _asset("calculator.js")
    files["assets/calculator.css"] = _asset("calculator.css")
    # the index's texts are shown with textContent: cleaned as text, then written as JSON
    index = _cleaned(search_index(corpus, urls, date))
    files["search-index.js"] = ("/* flamer site: the search index (generated; see assets/search.js) */\n"
                                "var FLAMER_INDEX = " + json.dumps(index, ensure_ascii=False, separators=(",", ":"))
                                + ";\n")
    return files


def _cleaned(obj):
    """Every string in obj (lists, dicts, their keys too) through cleantext.clean."""
    if isinstance(obj, str):
        return clean(obj)
    if isinstance(obj, list):
        return [_cleaned(v) for v in obj]
    if isinstance(obj, dict):
        return {_cleaned(k): _cleaned(v) for k, v in obj.items()}
    return obj


def summary(files: dict[str, str | bytes], corpus, as_of: str, out_dir: str, removed: list[str],
            engine: dict | None = None) -> dict:
    pages = sorted(p for p in files if p.endswith(".html"))
    return {
        "dir": out_dir, "as_of": as_of, "pages": len(pages), "files": len(files),
        "bytes": sum(len(t.encode("utf-8") if isinstance(t, str) else t) for t in files.values()),
        "counts": {"rules_pages": sum(1 for p in pages if p.startswith("rules/")),
                   "card_pages": sum(1 for p in pages if p.startswith("cards/")),
                   "example_pages": sum(1 for p in pages if p.startswith("examples/") and not p.endswith(".full.html")),
                   "engine_pages": sum(1 for p in pages if p.endswith(".full.html")),
                   "clauses": len(corpus.clauses), "interpretations": len(corpus.interpretations),
                   "rulings": sum(1 for r in corpus.rulings.values() if r["date"] <= as_of),
                   "rulings_later": sum(1 for r in corpus.rulings.values() if r["date"] > as_of),
                   "faq": len(corpus.faq), "examples": len(corpus.examples), "cards": len(corpus.cards),
                   "terms": len(corpus.terms)},
        "index": "index.html", "removed": removed,
        # the calculator's engine (flamer_ref/sitepack.py): Pyodide's version and the bytes it adds
        "engine": engine,
    }


# ------------------------------------------------------------------ write ----
class _Corrupt(Exception):
    """The folder's .flamer-site.json is there but is not a list this command wrote."""


def _owned(out: Path) -> set[str] | None:
    """The files a previous `flamer site` wrote into out (None: no list there). Raises _Corrupt
    for a list that cannot be read or is not ours: not a regular file (a link is not followed), or
    larger than any list this command writes (MARKER_MAX_BYTES; not read at all then)."""
    import stat

    marker = out / MARKER
    try:
        st = os.lstat(marker)
    except FileNotFoundError:
        return None
    except OSError:
        raise _Corrupt() from None
    if not stat.S_ISREG(st.st_mode) or st.st_size > MARKER_MAX_BYTES:
        raise _Corrupt()
    try:
        fd = os.open(marker, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
                     | getattr(os, "O_BINARY", 0))
    except OSError:
        raise _Corrupt() from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise _Corrupt()
        with os.fdopen(fd, "rb", closefd=False) as fh:
            raw = fh.read(MARKER_MAX_BYTES + 1)  # it may have grown since the lstat: read no more
    except OSError:
        raise _Corrupt() from None
    finally:
        os.close(fd)
    if len(raw) > MARKER_MAX_BYTES:
        raise _Corrupt()
    try:
        data = json.loads(raw.decode("utf-8"))
    except ValueError:
        raise _Corrupt() from None
    if not isinstance(data, dict) or data.get("generator") != GENERATOR or not isinstance(data.get("files"), list):
        raise _Corrupt()
    return {f for f in data["files"] if isinstance(f, str) and _safe_rel(f)}


def _safe_rel(rel: str) -> bool:
    """A name in the list that stays inside the folder: relative, plain parts (no '', '.', '..'), no
    backslash or NUL, not the list itself. String work only: a list may hold some 100,000 names."""
    if not rel or rel[0] == "/" or "\\" in rel or "\x00" in rel:
        return False
    parts = rel.split("/")
    return parts[-1] != MARKER and not any(p in ("", ".", "..") for p in parts)


def _link_in_way(out: Path, rel: str) -> bool:
    """Is any folder on the way from out to rel (inside the site folder) something other than a
    real folder — a symbolic link above all? (A missing folder is not in the way: it is made.)"""
    import stat

    cur = out
    for part in PurePosixPath(rel).parts[:-1]:
        cur = cur / part
        try:
            st = os.lstat(cur)
        except FileNotFoundError:
            return False
        if not stat.S_ISDIR(st.st_mode):
            return True
    return False


def _inside(out: Path, path: Path) -> bool:
    root = os.path.realpath(out)
    return os.path.commonpath([root, os.path.realpath(path)]) == root


def _files_in(out: Path) -> set[str]:
    """Every file name (relative, '/'-separated) in out and its real subfolders: the folder walked
    without following a symbolic link."""
    found = set()
    for top, _dirs, names in os.walk(out, followlinks=False):
        rel = os.path.relpath(top, out).replace(os.sep, "/")
        found.update(names if rel == "." else (f"{rel}/{n}" for n in names))
    return found


def _remove_owned(out: Path, rel: str) -> bool:
    """Remove out/rel if it is a regular file reached through real folders inside out only
    (never through a symbolic link); True when removed."""
    import stat

    path = out / rel
    if _link_in_way(out, rel) or not _inside(out, path.parent):
        return False
    try:
        st = os.lstat(path)
    except OSError:
        return False
    if not stat.S_ISREG(st.st_mode):
        return False
    path.unlink()
    return True


def check_target(out_dir: str, files=None) -> set[str]:
    """May a site be written into out_dir? Returns the files a previous build wrote there (empty
    for a new or empty folder); raises BadInput for a file, for a folder with files and no list
    of ours (or a damaged list), for a symbolic link inside the folder on the way to a file about
    to be written, and (given those files) for a file of someone else's in the way."""
    import stat

    if not out_dir or not str(out_dir).strip():
        raise BadInput("빈 경로입니다. 사이트를 쓸 폴더 이름을 주세요.")
    out = Path(out_dir)
    try:
        st = os.stat(out)
    except FileNotFoundError:
        st = None
    except (OSError, ValueError) as exc:  # a name too long, a file on the way, no permission, a NUL
        why = os_reason(exc) if isinstance(exc, OSError) else "이름에 NUL 문자가 있습니다"
        raise BadInput(f"{_shown(out_dir)}: 사이트를 쓸 폴더로 쓸 수 없습니다 ({why}). 다른 폴더 이름을 주세요.") from None
    if st is None:
        _check_new_folder(out_dir)
        return set()
    if not stat.S_ISDIR(st.st_mode):
        raise BadInput(f"{_shown(out_dir)}: 폴더가 아니라 파일입니다. 사이트를 쓸 빈 폴더(또는 없는 폴더) 이름을 주세요.")
    try:
        owned = _owned(out)
    except _Corrupt:
        raise BadInput(f"{_shown(out_dir)}: flamer site의 파일 목록({MARKER})이 망가졌거나 flamer site가 쓴 것이 아닙니다. "
                       "다른 파일을 지우거나 덮어쓰지 않도록 멈춥니다. 빈 폴더나 새 폴더 이름을 주세요.") from None
    if owned is None:
        try:
            busy = any(out.iterdir())
        except OSError as exc:
            raise BadInput(f"{_shown(out_dir)}: 폴더를 읽을 수 없습니다 ({os_reason(exc)}).") from None
        if busy:
            raise BadInput(f"{_shown(out_dir)}: 비어 있지 않은 폴더이고 flamer site가 만든 폴더도 아닙니다({MARKER} 없음). "
                           "다른 파일을 덮어쓰지 않도록 멈춥니다. 빈 폴더나 새 폴더 이름을 주세요.")
        return set()
    linked = sorted(p for p in (files or ()) if _link_in_way(out, p))
    if linked:
        shown = ", ".join(linked[:5]) + (f" 외 {len(linked) - 5}개" if len(linked) > 5 else "")
        raise BadInput(f"{_shown(out_dir)}: 이번에 쓸 파일로 가는 길에 폴더가 아닌 것(심볼릭 링크 등)이 있습니다: {shown}. "
                       "폴더 밖에 쓰지 않도록 멈춥니다. 옮기거나 지운 뒤 다시 실행하세요.")
    clash = sorted(p for p in (files or ()) if p not in owned and os.path.lexists(out / p))
    if clash:
        shown = ", ".join(clash[:5]) + (f" 외 {len(clash) - 5}개" if len(clash) > 5 else "")
        raise BadInput(f"{_shown(out_dir)}: flamer site가 쓰지 않은 파일이 이번에 쓸 자리에 있습니다: {shown}. "
                       "옮기거나 지운 뒤 다시 실행하세요.")
    return owned


def _check_new_folder(out_dir: str) -> None:
    """A folder about to be made: each missing name on the way must fit the file system (a name of 300
    bytes is refused here, in Korean, not by mkdir half-way)."""
    from .outfile import NAME_MAX

    for part in Path(out_dir).parts:
        if len(os.fsencode(part)) > NAME_MAX:
            raise BadInput(f"{_shown(out_dir)}: 사이트를 쓸 폴더로 쓸 수 없습니다 (이름이 너무 깁니다: 폴더 이름 하나가 "
                           f"{len(os.fsencode(part)):,}바이트, 한도 {NAME_MAX}바이트). 더 짧은 폴더 이름을 주세요.")


def _list_text(files, as_of: str) -> bytes:
    from . import __version__

    return (json.dumps({"generator": GENERATOR, "version": __version__, "as_of": as_of, "files": sorted(files)},
                       ensure_ascii=False, indent=1) + "\n").encode("utf-8")


def write_site(files: dict[str, str | bytes], out_dir: str, as_of: str) -> list[str]:
    """Write the files into out_dir (see the module docstring for what it refuses).
    Returns the files of the previous build that this one no longer writes, now removed."""
    from .outfile import write_atomic

    out = Path(out_dir)
    owned = check_target(out_dir, files)
    listed = False
    try:
        out.mkdir(parents=True, exist_ok=True)
        # the list first, naming what the folder held from us and all it is about to hold: a build that
        # fails half-way (disk full, a name the file system refuses) leaves a folder the next build takes
        # (check_target has refused every file of someone else's in the way, so the list claims none)
        write_atomic(out / MARKER, _list_text(owned | set(files), as_of))
        listed = True
        for rel, text in files.items():
            path = out / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            # never through a link planted at a temp name
            write_atomic(path, text.encode("utf-8") if isinstance(text, str) else text)
        removed = []
        # only names that are there: a list may name 100,000 files that are not (a dozen system calls each)
        for rel in sorted((owned - set(files)) & _files_in(out) if owned - set(files) else ()):
            if _remove_owned(out, rel):
                removed.append(rel)
                parent = (out / rel).parent
                while parent != out and not parent.is_symlink() and parent.is_dir() and not any(parent.iterdir()):
                    parent.rmdir()
                    parent = parent.parent
        write_atomic(out / MARKER, _list_text(files, as_of))
    except OSError as exc:
        if not listed:
            raise BadInput(f"{_shown(out_dir)}: 사이트를 쓸 수 없습니다 ({os_reason(exc)}).") from None
        raise BadInput(f"{_shown(out_dir)}: 사이트를 다 쓰지 못했습니다 ({os_reason(exc)}). 이미 쓴 파일은 폴더의 목록"
                       f"({MARKER})에 있으니, 고친 뒤 같은 폴더에 다시 만들면 됩니다.") from None
    return removed


def make_site(corpus, out_dir: str, as_of: str | None = None, *, engine: bool = True,
              pyodide: str | None = None) -> dict:
    """Build and write the site; the summary `flamer site --json` prints. With `engine`, the
    calculator's engine goes in (flamer_ref/sitepack.py packs it; Pyodide from `pyodide`, FLAMER_PYODIDE,
    the cache or the npm registry: flamer_ref/pyodidefetch.py); when none of them gives it, the site is
    built without it and the summary's engine says why (`reason`). A named source that is wrong is a
    BadInput."""
    from . import pyodidefetch, sitepack

    check_target(out_dir)  # before the work: a folder it may not write into is refused at once
    got, source, reason, bytecode = None, None, None, None
    if engine and not pyodidefetch.engine_off(pyodide):
        try:  # first: a wrong --pyodide is said before minutes of building
            got, source = pyodidefetch.obtain_pyodide(pyodide)
        except pyodidefetch.EngineUnavailable as exc:
            reason = exc.message
    else:
        reason = "off"
    # the engine first: its bytecode compiles (node, in the background) while the pages are built
    with contextlib.ExitStack() as stack:
        build = stack.enter_context(sitepack.EngineBuild(got, corpus, as_of)) if got is not None else None
        files: dict[str, str | bytes] = dict(build_site(corpus, as_of))  # without as_of, each example at its scenario's own date, as the book
        if build is not None:
            part, bytecode = build.files()
            files.update(part)
    date = as_of or corpus.latest_date()
    report = sitepack.engine_report(files, got is not None, source, reason, bytecode)
    calculator = "판정기.html"  # the calculator page: the installed app's start page
    files.update(sitepack.pwa_files(files, calculator if calculator in files else None))
    removed = write_site(files, out_dir, date)
    return summary(files, corpus, date, out_dir, removed, report)
