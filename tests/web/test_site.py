"""`flamer site DIR`: a folder of static pages that works from disk (file://) and from any web
server. Every page parses, says lang="ko" and its as-of date, escapes the data; every internal
link resolves; every clause, ruling, FAQ entry, example, card and term of the data has its place
(and a clause its stable anchor); the command writes only into an empty folder or one it made,
and only its own files. The offline search (templates/site/assets/search.js over the prebuilt
search-index.js) is run by Node and inside headless Chromium when they are installed."""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import quote, unquote, urlsplit

import pytest
import yaml

from inprocess import invoke

from flamer_ref.corpus import load
from flamer_ref.site import MARKER, card_file, card_slug

from forbidden_words import found, index_words, visible, without

ROOT = Path(__file__).resolve().parents[2]
NODE = shutil.which("node") or shutil.which("nodejs")
CHROMIUM = next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome") if shutil.which(n)), None)
needs_node = pytest.mark.skipif(NODE is None, reason="Node.js가 없어 검색 스크립트를 돌리지 못함 (apt-get install nodejs)")
needs_chromium = pytest.mark.skipif(CHROMIUM is None, reason="Chromium이 없음 (.ci/run이 Debian의 chromium을 설치)")

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
SVG_LEAVES = {"path", "rect", "circle", "line", "polyline", "polygon", "stop", "ellipse", "use"}


class Page(HTMLParser):
    """Balance of tags, ids, and every href / src / action of one page."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.errors: list[str] = []
        self.ids: set[str] = set()
        self.links: list[str] = []
        self.lang = None
        self.meta_viewport = False
        self.text: list[str] = []

    def _attrs(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            if a["id"] in self.ids:
                self.errors.append(f"duplicate id {a['id']}")
            self.ids.add(a["id"])
        for k in ("href", "src", "action"):
            if a.get(k) is not None:
                self.links.append(a[k])
        if tag == "html":
            self.lang = a.get("lang")
        if tag == "meta" and a.get("name") == "viewport":
            self.meta_viewport = True

    def handle_starttag(self, tag, attrs):
        self._attrs(tag, attrs)
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self._attrs(tag, attrs)

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-3:]} at line {self.getpos()[0]}")
            if tag in self.stack:
                while self.stack.pop() != tag:
                    pass
            return
        self.stack.pop()

    def handle_data(self, data):
        self.text.append(data)


def parse(path: Path) -> Page:
    p = Page()
    p.feed(path.read_text(encoding="utf-8"))
    p.close()
    return p


def build(out: Path, *args: str, env: dict | None = None) -> dict:
    res = invoke("site", str(out), "--json", *args, env=env)
    assert res.exit_code == 0, (res.stdout, res.stderr)
    assert "Traceback" not in res.stdout + res.stderr
    return json.loads(res.stdout)


@pytest.fixture(scope="module")
def site(bundled_site):
    out = bundled_site["dir"]  # `flamer site` of the bundled data, once a session (tests/web/conftest.py)
    pages = {p: parse(p) for p in sorted(out.rglob("*.html"))}
    return out, bundled_site["summary"], pages


def rel(out: Path, p: Path) -> str:
    return p.relative_to(out).as_posix()


# ------------------------------------------------------------------ pages ----
def test_summary_counts_what_was_written(site):
    out, summary, pages = site
    corpus = load()
    assert summary["pages"] == len(pages)
    manifest = json.loads((out / MARKER).read_text(encoding="utf-8"))
    on_disk = sorted(rel(out, p) for p in out.rglob("*") if p.is_file() and p.name != MARKER)
    assert manifest["files"] == on_disk and summary["files"] == len(on_disk)
    c = summary["counts"]
    assert c["clauses"] == len(corpus.clauses) and c["cards"] == len(corpus.cards) and c["terms"] == len(corpus.terms)
    assert c["rules_pages"] == len(corpus.sections) == len(list((out / "rules").glob("*.html")))
    assert c["card_pages"] == len(corpus.cards) == len(list((out / "cards").glob("*.html")))
    assert summary["as_of"] == corpus.latest_date()


def test_every_page_parses_is_korean_and_responsive(site):
    out, _, pages = site
    bad = {rel(out, p): (pg.errors[:3], pg.stack) for p, pg in pages.items() if pg.errors or pg.stack}
    assert not bad
    assert all(pg.lang == "ko" for pg in pages.values())
    assert all(pg.meta_viewport for pg in pages.values())
    css = (out / "assets" / "site.css").read_text(encoding="utf-8")
    assert re.search(r":lang\(ko\)\s*\{[^}]*word-break:\s*keep-all", css)
    assert "@media (max-width" in css


def test_every_internal_link_resolves(site):
    out, _, pages = site
    missing = []
    for path, pg in pages.items():
        for link in pg.links:
            u = urlsplit(link)
            assert not u.scheme and not link.startswith("//"), f"{rel(out, path)}: link leaves the folder: {link}"
            target = path if not u.path else (path.parent / unquote(u.path)).resolve()
            if not target.is_file():
                missing.append((rel(out, path), link))
            elif u.fragment and unquote(u.fragment) not in pages[target].ids:
                missing.append((rel(out, path), link))
    assert not missing, missing[:10]


def test_nothing_is_fetched(site):
    """file:// forbids fetch() of local files: the index is a script that assigns a global."""
    out, _, _ = site
    for js in [out / "search-index.js", *(out / "assets").glob("*.js")]:
        text = js.read_text(encoding="utf-8")
        assert "fetch(" not in text and "XMLHttpRequest" not in text and "import(" not in text
    assert (out / "search-index.js").read_text(encoding="utf-8").splitlines()[1].startswith("var FLAMER_INDEX = {")
    index_html = (out / "index.html").read_text(encoding="utf-8")
    assert '<script src="search-index.js"></script>' in index_html
    # results are built from DOM nodes and text, never from markup
    assert "innerHTML" not in (out / "assets" / "app.js").read_text(encoding="utf-8")


def test_every_page_shows_the_as_of_date(site):
    out, summary, pages = site
    assert len(pages) >= 50 and any(p.name.endswith(".full.html") for p in pages)  # both kinds of page are read
    for path, pg in pages.items():
        text = "".join(pg.text)
        if path.name.endswith(".full.html"):  # the engine's own page: its date is the computation's
            assert re.search(r"기준일 \d{4}-\d{2}-\d{2}", text), rel(out, path)
        else:
            assert f"{summary['as_of']} 판정까지 반영" in text, rel(out, path)


def test_every_item_of_the_data_has_its_place(site):
    out, _, pages = site
    corpus = load()
    for cid, c in corpus.clauses.items():  # a stable anchor per clause: rules/<section>.html#<clause id>
        assert cid in pages[out / "rules" / f"{c['section']}.html"].ids, cid
    for iid, it in corpus.interpretations.items():
        assert iid in pages[out / "rules" / f"{corpus.clauses[it['clause']]['section']}.html"].ids, iid
    assert set(corpus.rulings) <= pages[out / "rulings.html"].ids
    assert set(corpus.faq) <= pages[out / "faq.html"].ids
    for eid, e in corpus.examples.items():
        if e["type"] == "reasoned":
            assert eid in pages[out / "faq.html"].ids
        else:
            assert eid in pages[out / "examples" / f"{eid}.html"].ids
    assert set(corpus.terms) <= pages[out / "glossary.html"].ids
    card_links = {unquote(urlsplit(h).path) for h in pages[out / "cards.html"].links if h.startswith("cards/")}
    assert len(card_links) == len(corpus.cards)
    for name in corpus.cards:
        page = next(out / p for p in card_links if Path(p).stem == card_slug(name))
        assert f"<h1>{html.escape(name, quote=False)}</h1>" in page.read_text(encoding="utf-8")
    # the examples' computed results: as many as `flamer examples` checks, each marked against the page
    ex = invoke("examples", "--json")
    rows = json.loads(ex.stdout)["examples"]
    full = list((out / "examples").glob("*.full.html"))
    assert len(full) == sum(1 for r in rows if r["status"] in ("pass", "fail"))
    marks = sum(len(re.findall(r"페이지의 결과와 일치", p.read_text(encoding="utf-8")))
                for p in [out / "faq.html", *(out / "examples").glob("*.html")] if not p.name.endswith(".full.html"))
    assert marks == sum(1 for r in rows if r["status"] == "pass")


def test_no_page_shows_a_forbidden_word(site):
    """Issue 17: the site's pages come from the book's templates — no ME / OP, piece id or other internal
    word a person would read (the index's headwords are the data's keywords as a reader looks them up)."""
    out, _, _ = site
    bad = {}
    for p in sorted(out.rglob("*.html")):
        text = p.read_text(encoding="utf-8")
        words = found(without(visible(text, "html"), index_words(text)))
        if words:
            bad[rel(out, p)] = words
    assert not bad, bad


def test_a_card_page_is_a_card_database_page(site):
    out, _, pages = site
    corpus = load()
    from flamer_ref.lookup import card_mentions

    unknown = next(c for c in corpus.cards.values() if c["type"] == "piece" and None in (c["lv"], c["hp"], c["atk"], c["cost"]))
    text = (out / "cards" / f"{card_slug(unknown['name'])}.html").read_text(encoding="utf-8")
    stats = text[text.index('<div class="stats">'):]
    stats = stats[:stats.index("</div></div>") + 12]
    assert stats.count("미상") == sum(1 for k in ("lv", "hp", "atk", "cost") if unknown[k] is None)
    for k in ("lv", "hp", "atk", "cost"):
        if unknown[k] is not None:
            assert f"<b>{unknown[k]}</b>" in stats
    with_rulings = next(c for c in corpus.cards.values() if card_mentions(corpus, c)["rulings"])
    pg = pages[out / "cards" / f"{card_slug(with_rulings['name'])}.html"]
    for r in card_mentions(corpus, with_rulings)["rulings"]:
        assert f"../rulings.html#{r['id']}" in pg.links
    for a in with_rulings["abilities"]:
        assert a["name"] in "".join(pg.text)


def test_card_file_names_are_safe_and_distinct():
    assert card_slug("해상 기지") == "해상-기지"
    for name in ("../../etc/passwd", "a/b", "..", ".hidden", "x\\y", "a?b#c%d"):
        slug = card_slug(name)
        assert "/" not in slug and "\\" not in slug and not slug.startswith(".") and "#" not in slug
    taken: set[str] = set()
    assert [card_file(n, taken) for n in ("a b", "a-b", "A-B")] == ["a-b", "a-b-2", "A-B-3"]


# --------------------------------------------------------------- as of ----
def test_a_site_as_of_an_earlier_date(tmp_path):
    corpus = load()
    date = "2026-09-23"
    later = [r for r in corpus.rulings.values() if r["date"] > date]
    assert later, "the data has rulings after 2026-09-23"
    out = tmp_path / "past"
    summary = build(out, "--as-of", "9/23")
    assert summary["as_of"] == date and summary["counts"]["rulings_later"] == len(later)
    rulings = parse(out / "rulings.html")
    for r in corpus.rulings.values():
        assert (r["id"] in rulings.ids) == (r["date"] <= date)
    # a clause whose wording a later ruling changed shows the wording of that day
    clause = next(c for c in corpus.clauses.values() if any(e["ruling"] in {r["id"] for r in later} for e in c["earlier"]))
    earlier = next(e["text"] for e in clause["earlier"] if e["ruling"] in {r["id"] for r in later})
    page = (out / "rules" / f"{clause['section']}.html").read_text(encoding="utf-8")
    assert html.escape(earlier, quote=False) in page
    for p in out.rglob("*.html"):
        if not p.name.endswith(".full.html"):
            assert f"{date} 판정까지 반영" in p.read_text(encoding="utf-8"), p
    index = (out / "search-index.js").read_text(encoding="utf-8")
    assert all(r["id"] not in index for r in later)


# ---------------------------------------------------------------- escaping ----
XSS = '<img src=x onerror="alert(1)">'


def test_every_page_escapes_the_data(tmp_path):
    data = tmp_path / "data"
    for sub in ("rules", "cards"):
        shutil.copytree(ROOT / sub, data / sub)
    clauses = data / "rules" / "clauses" / "combat.yaml"
    doc = yaml.safe_load(clauses.read_text(encoding="utf-8"))
    doc["clauses"][0]["title"] = "정착악성 " + XSS
    doc["clauses"][0]["text"] += " " + XSS
    clauses.write_text(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False), encoding="utf-8")
    faq = data / "rules" / "faq.yaml"
    doc = yaml.safe_load(faq.read_text(encoding="utf-8"))
    doc["faq"][0]["question"] = XSS + " 질문"
    faq.write_text(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False), encoding="utf-8")
    glossary = data / "rules" / "glossary.yaml"
    doc = yaml.safe_load(glossary.read_text(encoding="utf-8"))
    doc["terms"][0]["definition"] += " </dd></dl><script>alert(2)</script>"
    glossary.write_text(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False), encoding="utf-8")
    cards = data / "cards" / "cards.yaml"
    doc = yaml.safe_load(cards.read_text(encoding="utf-8"))
    doc["cards"][0]["abilities"][0]["text"] += " " + XSS
    cards.write_text(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False), encoding="utf-8")
    out = tmp_path / "site"
    build(out, env={"FLAMER_DATA": str(data), "FLAMER_CACHE_DIR": ""})
    seen = 0
    for p in out.rglob("*.html"):
        text = p.read_text(encoding="utf-8")
        assert XSS not in text and "<script>alert(2)" not in text, p
        seen += text.count("&lt;img src=x onerror=")
        assert not parse(p).errors, p
    assert seen >= 4
    if CHROMIUM:  # the search shows the title as text, not as markup
        dom = dump_dom(out / "index.html", "정착악성")
        assert "정착악성" in dom and "<img src=\"x\"" not in dom and "&lt;img src=x" in dom


# ------------------------------------------------------------------ writing ----
def test_refuses_a_folder_it_did_not_make(tmp_path):
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("내 메모", encoding="utf-8")
    res = invoke("site", str(mine))
    assert res.exit_code == 1 and "Traceback" not in res.stderr
    assert "flamer site가 만든 폴더도 아닙니다" in res.stderr
    assert sorted(p.name for p in mine.iterdir()) == ["notes.txt"]
    res = invoke("site", str(mine), "--json")
    assert res.exit_code == 1 and json.loads(res.stdout)["error"]["code"] == "bad-input"
    res = invoke("site", str(mine / "notes.txt"))
    assert res.exit_code == 1 and "폴더가 아니라 파일" in res.stderr
    res = invoke("site", str(tmp_path / "x"), "--as-of", "9/33")
    assert res.exit_code == 2


def test_rebuild_touches_only_its_own_files(bundled_site, tmp_path):
    out = tmp_path / "site"
    shutil.copytree(bundled_site["dir"], out)  # a first build's files, as `flamer site` wrote them
    (out / "README.txt").write_text("내 파일", encoding="utf-8")
    (out / "cards" / "내카드.txt").write_text("내 파일", encoding="utf-8")
    # a page the previous build wrote and this one does not (e.g. a card since renamed)
    manifest = json.loads((out / MARKER).read_text(encoding="utf-8"))
    (out / "cards" / "옛카드.html").write_text("old", encoding="utf-8")
    (tmp_path / "outside.html").write_text("keep", encoding="utf-8")
    manifest["files"] += ["cards/옛카드.html", "../outside.html", "/etc/hostname"]
    (out / MARKER).write_text(json.dumps(manifest, ensure_ascii=False), encoding="utf-8")
    summary = build(out)
    assert summary["removed"] == ["cards/옛카드.html"]
    assert not (out / "cards" / "옛카드.html").exists()
    assert (out / "README.txt").read_text(encoding="utf-8") == "내 파일"
    assert (out / "cards" / "내카드.txt").exists() and (tmp_path / "outside.html").read_text() == "keep"
    # a file of the user's where the new build would write: refuse, touch nothing
    manifest = json.loads((out / MARKER).read_text(encoding="utf-8"))
    manifest["files"].remove("glossary.html")
    (out / MARKER).write_text(json.dumps(manifest, ensure_ascii=False), encoding="utf-8")
    (out / "glossary.html").write_text("사용자가 만든 용어집", encoding="utf-8")
    res = invoke("site", str(out))
    assert res.exit_code == 1 and "glossary.html" in res.stderr
    assert (out / "glossary.html").read_text(encoding="utf-8") == "사용자가 만든 용어집"


def test_human_summary_is_korean(tmp_path):
    res = invoke("site", str(tmp_path / "s"))
    assert res.exit_code == 0, res.stderr
    assert "사이트를 썼습니다" in res.stdout and "판정까지 반영" in res.stdout and "index.html" in res.stdout


# ------------------------------------------------------------------ search ----
# (query, ids of which one must be in the top 3): 초성, typos, exact words, particles, card names
SEARCH_CASES = [
    ("ㄷㅇㅅㅌ", ["response.resolve.one-stack", "term.stack", "response.resolve.lifo"]),
    ("ㅁㄷㅇ", ["response.counter", "term.counter"]),
    ("ㅂㅁㄷ", ["별마대"]),
    ("스텍", ["response.resolve.one-stack", "term.stack", "response.resolve.lifo"]),
    ("졍착", ["combat.settled", "term.settled"]),
    ("졍착 기물", ["combat.settled", "term.settled"]),
    ("맞대웅", ["response.counter", "term.counter", "field.counter-exception"]),
    ("대응 스택", ["response.resolve.one-stack", "term.stack", "response.resolve.lifo"]),
    ("대응스택", ["response.resolve.one-stack", "term.stack", "response.resolve.lifo"]),
    ("7단계 정리", ["combat.step7.sweep"]),
    ("스택을 해결", ["response.resolve.lifo", "combat.step2.response", "response.resolve.once"]),
    ("별마대", ["별마대"]),
    ("별마데", ["별마대"]),
    ("해상기지", ["해상 기지"]),
    ("진내폭격", ["진내폭격"]),
    ("eodmdtmxor", ["response.resolve.one-stack", "term.stack", "response.resolve.lifo"]),
    ("9월 24일 판정", ["ruling.2026-09-24.structures-immovable", "ruling.2026-09-24.vacated-combat"]),
]

NODE_RUNNER = r"""
const fs = require("fs"), vm = require("vm");
const dir = process.argv[2];
vm.runInThisContext(fs.readFileSync(dir + "/search-index.js", "utf8"));
const FlamerSearch = require(dir + "/assets/search.js");
const index = new FlamerSearch.Index(FLAMER_INDEX);
const queries = JSON.parse(fs.readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify(queries.map(q => index.search(q, 10))));
"""


def node_search(out: Path, queries: list[str], tmp_path: Path) -> list[list[dict]]:
    script = tmp_path / "search-run.js"
    script.write_text(NODE_RUNNER, encoding="utf-8")
    res = subprocess.run([NODE, str(script), str(out)], input=json.dumps(queries), capture_output=True, text=True,
                         timeout=60)
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout)


@needs_node
def test_search_finds_by_choseong_typo_words_and_card_names(site, tmp_path):
    out, _, _ = site
    results = node_search(out, [q for q, _ in SEARCH_CASES], tmp_path)
    for (q, expect), found in zip(SEARCH_CASES, results):
        top = [r["id"] for r in found[:3]]
        assert set(top) & set(expect), (q, top)
    # each result points at a page of the site that has its anchor
    for found in results:
        for r in found:
            path, _, frag = r["url"].partition("#")
            target = out / unquote(path)
            assert target.is_file(), r
            if frag:
                assert unquote(frag) in parse(target).ids, r
    assert node_search(out, ["", "   ", "zzzzqqqq"], tmp_path) == [[], [], []]


@needs_node
def test_search_trial_of_flamer_search(site, tmp_path):
    """The page's search against the trial of `flamer search` (tests/search/search_queries.yaml, without
    the kind-filtered queries the page has no filter for): the expected entry in the top 3 for
    at least 95% of the queries, as the CLI's search must."""
    out, _, _ = site
    queries = [q for q in yaml.safe_load((ROOT / "tests" / "search" / "search_queries.yaml").read_text(encoding="utf-8"))["queries"]
               if "kind" not in q]
    results = node_search(out, [q["q"] for q in queries], tmp_path)
    misses = [(q["q"], [r["id"] for r in found[:3]]) for q, found in zip(queries, results)
              if not set(r["id"] for r in found[:3]) & set(q["expect"])]
    assert len(misses) <= 0.05 * len(queries), misses


@needs_node
def test_jamo_and_distance(tmp_path):
    script = tmp_path / "unit.js"
    script.write_text(f"""
const S = require({json.dumps(str(ROOT / "templates" / "site" / "assets" / "search.js"))});
process.stdout.write(JSON.stringify([S.jamo("과정"), S.choseong("대응 스택"), S.distance(S.jamo("스텍"), S.jamo("스택"), 2),
  S.distance(S.jamo("졍착"), S.jamo("정착"), 2), S.qwertyJamo("wjdckr"), S.words("9월 24일, 09-24")]));
""", encoding="utf-8")
    res = subprocess.run([NODE, str(script)], capture_output=True, text=True, timeout=30)
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout) == ["ㄱㅗㅏㅈㅓㅇ", "ㄷㅇㅅㅌ", 1, 1, "ㅈㅓㅇㅊㅏㄱ", ["9", "24", "9", "24"]]


# ----------------------------------------------------------------- browser ----
def dump_dom(page: Path, query: str | None = None, *extra: str) -> str:
    url = page.as_uri() + (f"?q={quote(query)}" if query else "")
    res = subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", *extra,
                          "--dump-dom", url], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr[-2000:]
    return res.stdout


def harness(out: Path, frames: str, collect: str) -> list[dict]:
    """Open pages of the site in frames of one page in headless Chromium (file://, frames may be read
    with --allow-file-access-from-files) and return what `collect` (JS: f → object) finds in each."""
    page = out / "_harness_test.html"
    page.write_text(f"""<!doctype html><html lang="ko"><head><meta charset="utf-8"></head><body>{frames}<pre id="out"></pre>
<script>
window.addEventListener("load", function () {{
  var out = [];
  document.querySelectorAll("iframe").forEach(function (f) {{
    var r = {{src: decodeURIComponent(f.getAttribute("src")), w: +f.dataset.w}};
    try {{ {collect} }} catch (e) {{ r.error = String(e); }}
    out.push(r);
  }});
  document.getElementById("out").textContent = JSON.stringify(out);
}});
</script></body></html>""", encoding="utf-8")
    try:
        dom = dump_dom(page, None, "--allow-file-access-from-files", "--virtual-time-budget=30000")
    finally:
        page.unlink()
    return json.loads(html.unescape(re.search(r'<pre id="out">(.*?)</pre>', dom, re.S).group(1)))


@needs_chromium
def test_search_works_in_the_browser_from_disk(site):
    out, _, _ = site
    cases = [("ㄷㅇㅅㅌ", ["term.stack", "response.resolve.one-stack"]), ("졍착 기물", ["combat.settled", "term.settled"]),
             ("별마데", ["별마대"]), ("스텍", ["term.stack", "response.resolve.one-stack"])]
    frames = "".join(f'<iframe data-w="1000" src="index.html?q={html.escape(quote(q))}"></iframe>' for q, _ in cases)
    found = harness(out, frames, """var list = f.contentDocument.getElementById("results");
      r.query = list.getAttribute("data-query");
      r.ids = Array.prototype.map.call(list.querySelectorAll("li"), function (li) { return li.getAttribute("data-id"); });
      r.hrefs = Array.prototype.map.call(list.querySelectorAll("a"), function (a) { return a.href; });""")
    for (q, expect), r in zip(cases, found):
        assert r.get("error") is None and r["query"] == q
        assert set(r["ids"][:3]) & set(expect), (q, r["ids"])
        assert all(h.startswith("file://") for h in r["hrefs"])
    # the search form of every other page sends its words to index.html?q=…
    page = (out / "rules" / "combat.html").read_text(encoding="utf-8")
    assert '<form class="mini-search" action="../index.html" method="get"' in page and 'name="q"' in page


@needs_chromium
def test_no_page_is_wider_than_a_phone_or_a_laptop(site):
    """Every page of the site (the engine's own pages have their own test) in frames 400 and 1000 px
    wide: nothing sticks out to the right, except inside a scrolling table."""
    out, _, pages = site
    names = [rel(out, p) for p in pages if not p.name.endswith(".full.html")]
    frames = "".join(f'<iframe data-w="{w}" style="width:{w}px;height:500px;border:0" src="{html.escape(quote(n))}"></iframe>'
                     for n in names for w in (400, 1000))
    found = harness(out, frames, """var de = f.contentDocument.documentElement;
      r.scroll = de.scrollWidth; r.client = de.clientWidth; r.wide = [];
      f.contentDocument.querySelectorAll("body *").forEach(function (el) {
        var b = el.getBoundingClientRect();
        if (b.width && b.right > de.clientWidth + 1 && !el.closest(".table-wrap") && r.wide.length < 3)
          r.wide.push(el.tagName + "." + el.className + " " + Math.round(b.right));
      });""")
    assert len(found) == 2 * len(names)
    bad = [r for r in found if r.get("error") or r["scroll"] > r["client"] or r["wide"]]
    assert not bad, bad[:5]
