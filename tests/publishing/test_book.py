"""`flamer book` and the FAQ pages (flamer_ref/book.py, templates/book/): everything of the data is in the
book, every internal link resolves, the HTML is well formed and self-contained, the computed results
are those of `flamer examples`, the rulings timeline names exactly the scenarios a ruling changes
(checked by resolving them here), --as-of shows the rules as they stood, and data text is escaped."""

from __future__ import annotations

import datetime
import functools
import json
import os
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import flamer_fork
import pytest

from inprocess import invoke

from flamer_ref.book import build_book, build_faq, card_anchor, render_html, render_md
from flamer_ref.corpus import load
from flamer_ref import runner
from flamer_ref.engine.combat import simulate
from flamer_ref.engine.turns import parse_any

ROOT = Path(__file__).resolve().parent.parent.parent
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


run = functools.partial(flamer_fork.run, cwd=ROOT, timeout=900)  # a real process, forked from a warm interpreter


class Page(HTMLParser):
    """Ids, internal links, tag balance, and what would reach the network."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.ids: list[str] = []
        self.links: list[str] = []
        self.stack: list[tuple[str, int]] = []
        self.problems: list[str] = []
        self.tags: dict[str, int] = {}
        self.external: list[str] = []
        self.classes: list[tuple[str, str | None]] = []  # (class, id)

    def handle_starttag(self, tag, attrs):
        self._attrs(tag, attrs)
        if tag not in VOID:
            self.stack.append((tag, self.getpos()[0]))

    def handle_startendtag(self, tag, attrs):  # <line .../> in SVG
        self._attrs(tag, attrs)

    def _attrs(self, tag, attrs):
        self.tags[tag] = self.tags.get(tag, 0) + 1
        a = dict(attrs)
        if "id" in a:
            self.ids.append(a["id"])
        if "class" in a:
            self.classes.append((a["class"], a.get("id")))
        href = a.get("href")
        if href is not None:
            if href.startswith("#"):
                self.links.append(href[1:])
            else:
                self.external.append(href)
        if a.get("src") is not None or tag in ("script", "link", "iframe"):
            self.external.append(f"<{tag}>")

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1][0] != tag:
            self.problems.append(f"</{tag}> at line {self.getpos()[0]}, open: {self.stack[-3:]}")
            return
        self.stack.pop()


def parse(html: str) -> Page:
    p = Page()
    p.feed(html)
    p.close()
    return p


@pytest.fixture(scope="module")
def corpus():
    return load()


@pytest.fixture(scope="module")
def book(corpus):
    return build_book(corpus)


@pytest.fixture(scope="module")
def html(book):
    return render_html(book)


@pytest.fixture(scope="module")
def page(html):
    return parse(html)


def _prev(date: str) -> str:
    return (datetime.date.fromisoformat(date) - datetime.timedelta(days=1)).isoformat()


def _cases(corpus):
    """(case id, owner id, scenario object, expected), named as `flamer examples` names them."""
    out = []
    items = list(corpus.examples.items()) + list(corpus.faq.items())
    for oid, item in items:
        s = item.get("scenario")
        if not s:
            continue
        if isinstance(s, list):
            exps = item.get("expected") or [None] * len(s)
            out += [(f"{oid}#{i + 1}", oid, x, exps[i]) for i, x in enumerate(s)]
        else:
            out.append((oid, oid, s, item.get("expected")))
    return out


# ---------------------------------------------------------------- coverage ----
def test_every_item_of_the_data_is_in_the_book(corpus, book, page):
    ids = set(page.ids)
    assert len(page.ids) == len(ids), "duplicate ids"
    expected = {
        "clause": set(corpus.clauses), "interpretation": set(corpus.interpretations), "ruling": set(corpus.rulings),
        "faq": set(corpus.faq), "term": set(corpus.terms),
        "example": {e for e in corpus.examples}, "card": {card_anchor(n) for n in corpus.cards},
    }
    for kind, want in expected.items():
        missing = want - ids
        assert not missing, f"{kind} missing from the book: {sorted(missing)}"
    # counted by their boxes, too: one article per clause, FAQ entry, example, card; one entry per term and ruling
    by_class: dict[str, set] = {}
    for cls, i in page.classes:
        for c in cls.split():
            if i is not None:  # the boxes have ids; badges and labels of the same class do not
                by_class.setdefault(c, set()).add(i)
    assert by_class["clause"] == set(corpus.clauses)
    assert by_class["interp"] == set(corpus.interpretations)
    assert by_class["qa"] == set(corpus.faq) | {e for e, x in corpus.examples.items() if x["type"] == "reasoned"}
    assert by_class["example"] == {e for e, x in corpus.examples.items() if x["type"] != "reasoned"}
    assert by_class["card"] == {card_anchor(n) for n in corpus.cards}
    assert by_class["glossary-item"] == set(corpus.terms)
    assert {r["id"] for r in book["rulings"]} == set(corpus.rulings)
    # the model's anchor list is exactly what the page has (so a template links only to what is there)
    assert set(book["anchors"]) <= ids
    assert book["cover"]["counts"]["clauses"] == len(corpus.clauses)


def test_parts_in_order_with_cover_and_toc(html, book):
    marks = ['class="cover"', 'id="part.toc"', 'id="part.rules"', 'id="part.rulings"', 'id="part.faq"',
             'id="part.examples"', 'id="part.cards"', 'id="part.glossary"']
    pos = [html.index(m) for m in marks]
    assert pos == sorted(pos)
    assert f"{book['as_of']} 판정까지 반영" in html
    v = book["cover"]["version"]
    assert v["hash"] in html and v["latest_ruling"] == load().latest_date()
    assert "flamer rule" in html  # how to look a rule up
    # rules sections in the data's order, each once
    secs = [m.group(1) for m in re.finditer(r'<section id="sec\.([\w-]+)"', html)]
    assert secs == list(load().sections)


def test_internal_links_resolve_and_nothing_is_fetched(page):
    ids = set(page.ids)
    dangling = sorted(set(page.links) - ids)
    assert not dangling, f"links to missing anchors: {dangling[:10]}"
    assert len(page.links) > 300
    assert page.external == [], page.external  # no network: no src, no external href, no script or link


def test_html_is_well_formed_self_contained_and_printable(html, page):
    assert html.startswith("<!doctype html>") and '<html lang="ko">' in html
    assert not page.problems, page.problems[:5]
    assert [t for t, _ in page.stack] == [], page.stack
    assert page.tags.get("svg", 0) >= 20 and page.tags.get("style") == 1
    assert ":lang(ko) { word-break: keep-all" in html
    for needle in ("@page", "size: A4", "string(section", "counter(page)", "string-set", "target-counter(attr(href), page)",
                   "bookmark-level", "break-after: avoid", "break-inside: avoid", '<meta name="viewport"',
                   "@media (max-width"):
        assert needle in html, needle
    # every picture keeps its own SVG ids (patterns and markers of one picture do not shadow another's)
    svg_ids = [i for i in page.ids if "-hatch-" in i or "-arrow-" in i]
    assert len(svg_ids) == len(set(svg_ids)) > 0


# ------------------------------------------------------- computed results ----
def test_computed_results_are_those_of_flamer_examples(corpus, book, html):
    rows = {r["id"]: r for r in runner.check_examples(corpus)["examples"]}
    cases = {}
    for part in ("faq", "examples"):
        for g in book[part]:
            for item in g["items"]:
                for c in item["cases"]:
                    cases[c["case"]] = c
    assert set(cases) == set(rows)
    for cid, row in rows.items():
        assert cases[cid]["status"] == row["status"], cid
        assert [d["path"] for d in cases[cid]["differences"]] == [d["path"] for d in row["differences"]], cid
    # and what the page says: one mark per case, each the check's
    marks = re.findall(r'class="badge (ok|bad)">([✓✗][^<]*)</span>', html)
    assert len(marks) == len(rows)
    assert all(m[0] == "ok" and "일치" in m[1] for m in marks) == all(r["status"] == "pass" for r in rows.values())
    # the CLI's summary agrees with `flamer examples --json`
    p = run("book", "--json")
    assert p.returncode == 0, p.stderr
    summary = json.loads(p.stdout)
    ex = json.loads(run("examples", "--json").stdout)
    assert {c["id"]: c["status"] for c in summary["cases"]} == {r["id"]: r["status"] for r in ex["examples"]}
    assert summary["checks"] == ex["counts"]


def test_combat_examples_have_a_round_table_and_cell_picture(book, html):
    scene5 = html[html.index('id="ex.combat.scene5"'):]
    scene5 = scene5[:scene5.index("</article>")]
    assert "<svg" in scene5 and "계산표" in scene5
    assert scene5.count("회차</th>") == 4  # four rounds, as the page says
    assert "✓ 페이지의 결과와 일치" in scene5


# ---------------------------------------------------------------- timeline ----
def _outcome(corpus, scn_obj, cid, date):
    """What a scenario comes to at a date, resolved here without the book's code."""
    kind = scn_obj.get("kind")
    try:
        res = runner.RUNNERS[kind](scn_obj, cid, corpus, date)
    except Exception as exc:  # noqa: BLE001 - invalid at that date
        return ("error", str(type(exc)))
    if kind == "combat":
        return runner.outcome(res)
    keep = {"move": ("valid", "positions", "encounters", "errors"), "victory": ("secured", "vp_gain", "vp", "winner"),
            "field": ("slots", "active", "retired", "levels", "bonds", "errors"), "round": ("ended", "final")}[kind]
    out = {k: res[k] for k in keep}
    if "errors" in out:
        out["errors"] = [e["reason"] for e in out["errors"]]
    out["unresolved"] = sorted(u["reason"] for u in res["unresolved"])
    return out


def test_timeline_names_exactly_the_changed_scenarios(corpus, book):
    by_date: dict[str, set] = {}
    for r in book["rulings"]:
        by_date.setdefault(r["date"], set()).update(c["case"] for c in r["changed"])
    for date, named in by_date.items():
        changed = {cid for cid, _, s, _ in _cases(corpus)
                   if _outcome(corpus, s, cid, _prev(date)) != _outcome(corpus, s, cid, date)}
        assert named == changed, (date, named, changed)
    # the known ones, each attributed to its own ruling of the day (the other ruling of the day alone changes nothing)
    changed = {r["id"]: {c["owner"] for c in r["changed"]} for r in book["rulings"]}
    assert "ex.response.emptied-by-cost" in changed["ruling.2026-09-24.vacated-combat"]
    assert "ex.response.emptied-by-cost" not in changed["ruling.2026-09-24.structures-immovable"]
    assert "ex.combat.unguarded-cell" in changed["ruling.2026-09-25.settled-sweep"]
    assert "ex.combat.unguarded-cell" not in changed["ruling.2026-09-25.explosive-cost"]
    for rid, cid in (("ruling.2026-09-24.vacated-combat", "ex.response.emptied-by-cost"),
                     ("ruling.2026-09-25.settled-sweep", "ex.combat.unguarded-cell")):
        date = corpus.rulings[rid]["date"]
        scn = parse_any(next(s for c, _, s, _ in _cases(corpus) if c == cid), cid, corpus)
        base = runner.outcome(simulate(scn, corpus, as_of=_prev(date)).to_json())
        forced = runner.outcome(simulate(scn, corpus, as_of=_prev(date), overrides={rid: True}).to_json())
        assert base != forced, rid
        # before the ruling the page's result does not hold; from that day it does
        entry = next(c for r in book["rulings"] if r["id"] == rid for c in r["changed"] if c["case"] == cid)
        assert (entry["before"]["status"], entry["after"]["status"]) == ("fail", "pass")


def test_timeline_in_the_html(book, html, corpus):
    rid = "ruling.2026-09-24.vacated-combat"
    part = html[html.index(f'id="{rid}"'):]
    part = part[:part.index("</li>\n\n<li") if "</li>\n\n<li" in part else part.index("</ol>")]
    assert "이 판정으로 결과가 바뀌는 예시: 1건" in part
    assert 'href="#ex.response.emptied-by-cost"' in part
    assert "<del>그 자리에서 종료</del>" in part
    dates = [r["date"] for r in book["rulings"]]
    assert dates == sorted(dates)
    quiet = html[html.index('id="ruling.2026-09-16.path-rule"'):]
    assert "이 판정으로 결과가 바뀌는 예시: 없음" in quiet[:quiet.index("</li>")]


# ------------------------------------------------------------------- as-of ----
def test_as_of_shows_the_rules_as_they_stood(corpus):
    day = "2026-09-23"
    b = build_book(corpus, day)
    h = render_html(b)
    p = parse(h)
    assert not p.problems and not sorted(set(p.links) - set(p.ids))
    assert f"{day} 판정까지 반영" in h
    earlier = next(e["text"] for e in corpus.clauses["response.resolve.depart"]["earlier"]
                   if e["ruling"] == "ruling.2026-09-24.vacated-combat")
    depart = next(c for s in b["sections"] for c in s["clauses"] if c["id"] == "response.resolve.depart")
    assert depart["text"] == earlier and depart["text"] != corpus.clauses["response.resolve.depart"]["text"]
    art = h[h.index('id="response.resolve.depart"'):]
    art = art[:art.index("</article>")]
    assert earlier in art and corpus.clauses["response.resolve.depart"]["text"] not in art
    later = {r for r, x in corpus.rulings.items() if x["date"] > day}
    assert later and not later & set(p.ids)
    assert {r["id"] for r in b["rulings"]} == set(corpus.rulings) - later
    assert all(r["date"] <= day for c in b["cards"] for card in c["cards"] for r in card["rulings"])
    # examples resolved at that date, honestly: the ones the later rulings decide do not match the page then
    rows = {r["id"]: r["status"] for r in runner.check_examples(corpus, day)["examples"]}
    got = {c["case"]: c for part in ("faq", "examples") for g in b[part] for i in g["items"] for c in i["cases"]}
    assert {k: v["status"] for k, v in got.items()} == rows
    assert rows["ex.response.emptied-by-cost"] == "fail" and got["ex.response.emptied-by-cost"]["as_of"] == day
    art = h[h.index('id="ex.response.emptied-by-cost"'):]
    art = art[:art.index("</article>")]
    assert "페이지의 결과와 다름" in art and "페이지의 결과와 일치" not in art
    assert b["cover"]["counts"]["rulings_later"] == len(later)


def test_cli_book_output_and_usage(tmp_path):
    out = tmp_path / "b.html"
    p = run("book", "--as-of", "9/23", "-o", str(out))
    assert p.returncode == 0 and p.stdout == "", p.stderr
    text = out.read_text(encoding="utf-8")
    assert "2026-09-23 판정까지 반영" in text
    p = run("book", "--format", "docx")
    assert p.returncode == 2 and "docx" in p.stderr and "Traceback" not in p.stderr
    p = run("book", "--as-of", "어제")
    assert p.returncode == 2 and "9월 24일" in p.stderr
    p = run("book", "-o", str(tmp_path / "no" / "such" / "dir.html"))
    assert p.returncode == 1 and "파일을 쓸 수 없습니다" in p.stderr and "Traceback" not in p.stderr


def test_cold_path_does_not_import_the_book():
    code = "import sys, flamer_ref.cli; print(any(m.startswith(('flamer_ref.book', 'jinja2')) for m in sys.modules))"
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert p.stdout.strip() == "False", p.stderr


# -------------------------------------------------------------------- FAQ ----
def test_faq_page_is_the_books_faq_part(corpus, book):
    page = build_faq(corpus)
    h = render_html(page)
    p = parse(h)
    assert not p.problems and not sorted(set(p.links) - set(p.ids)) and p.external == []
    reasoned = {e for e, x in corpus.examples.items() if x["type"] == "reasoned"}
    assert reasoned and set(corpus.faq) | reasoned <= set(p.ids)
    assert "@page" in h and ":lang(ko) { word-break: keep-all" in h
    # every clause an answer cites is on the page, as in force
    cited = {c["id"] for g in page["faq"] for i in g["items"] for c in i["clauses"]}
    assert cited <= set(p.ids)
    # the same FAQ groups as the book's
    assert [[i["anchor"] for i in g["items"]] for g in page["faq"]] == \
           [[i["anchor"] for i in g["items"]] for g in book["faq"]]
    md = render_md(page)
    assert md.count("**Q. ") == len(corpus.faq) and md.count("**사례. ") == len(reasoned)
    assert md.count("페이지의 결과와 일치") == sum(len(i["cases"]) for g in page["faq"] for i in g["items"])
    # the 대응턴 page has its reasoned case now
    assert any(g["source"]["id"] == "page.response" for g in page["faq"])


def test_faq_cli_formats(tmp_path):
    p = run("faq", "--format", "html")
    assert p.returncode == 0 and p.stdout.startswith("<!doctype html>")
    p = run("faq", "faq.combat.dice", "--format", "md")
    assert p.returncode == 0 and p.stdout.count("**Q. ") == 1
    p = run("faq", "--format", "md", "--as-of", "2026-09-23", "-o", str(tmp_path / "f.md"))
    assert p.returncode == 0 and "2026-09-23 판정까지 반영" in (tmp_path / "f.md").read_text(encoding="utf-8")
    p = run("faq", "-o", str(tmp_path / "x.txt"))
    assert p.returncode == 1 and "-o" in p.stderr


def test_pdf_without_the_pdf_module_is_a_clear_korean_error(monkeypatch, capsys):
    """Until flamer_ref.pdf exists (or where it cannot be imported) the pdf path says so in Korean."""
    import builtins

    from flamer_ref import pageout
    from flamer_ref.errors import FlamerError

    real = builtins.__import__

    def no_pdf(name, globals=None, locals=None, fromlist=(), level=0):
        if (level == 1 and name == "pdf") or name == "flamer_ref.pdf":
            raise ModuleNotFoundError("No module named 'flamer_ref.pdf'", name="flamer_ref.pdf")
        return real(name, globals, locals, fromlist, level)

    monkeypatch.setattr(builtins, "__import__", no_pdf)
    with pytest.raises(FlamerError) as exc:
        pageout.write_page("<!doctype html><p>x</p>", "pdf", "out.pdf")
    assert "PDF" in exc.value.message and "--format html" in exc.value.message


# ------------------------------------------------------------------ escaping ----
HOSTILE = "<script>alert(1)</script>"


def test_hostile_data_text_is_escaped(tree):
    tree.replace("rules/clauses/a.yaml", "title: 첫 조항", f"title: \"첫 조항 {HOSTILE}\"")
    tree.replace("rules/clauses/a.yaml", "text: 둘째 조항의 본문.", "text: \"<img src=x onerror=alert(2)> 본문\"")
    tree.replace("rules/faq.yaml", "answer: 네, 첫 질문입니다.", "answer: \"네 </p><b>굵게</b> [링크](http://x) *강조*\"")
    tree.replace("rules/glossary.yaml", "definition: 맨 앞의 것.", "definition: \"<iframe src=//x></iframe>\"")
    tree.replace("rules/rulings.yaml", "title: 첫 판정", "title: \"판정 <svg onload=alert(3)>\"")
    tree.replace("cards/cards.yaml", "text: 수비자일 때만 발동한다.", "text: \"<a href='http://evil'>x</a>\"")
    c = load(tree.root, use_cache=False)
    b = build_book(c)
    h = render_html(b)
    p = parse(h)
    for raw in (HOSTILE, "<img src=x", "<b>굵게</b>", "<iframe", "<svg onload", "<a href='http://evil'>"):
        assert raw not in h, raw
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in h
    assert p.external == [] and not p.problems
    assert not sorted(set(p.links) - set(p.ids))
    # the anchors are still there; the broken scenario is reported, not a crash
    assert {"a.first", "a.second", "ruling.2026-09-24.first", "faq.a.first", "term.first", "ex.a.first",
            card_anchor("수문장")} <= set(p.ids)
    f = build_faq(c)
    fh = render_html(f)
    assert "<b>굵게</b>" not in fh and HOSTILE not in fh
    md = render_md(f)
    assert "<b>" not in md and "[링크](http" not in md and "\\[링크\\]" in md and "\\*강조\\*" in md


# ------------------------------------------------------- 가나다 order, index ----
def test_collation_key_orders_like_a_korean_dictionary():
    from flamer_ref.korean import collation_head, collation_heads, collation_key

    words = ["VP", "각", "까치", "가나", "갈", "간", "가", "ㄱ", "필드 10자리", "(대응)", "대응턴", "대응 셀", "값", "꽃",
             "기물 SP", "기물 카드", "Lv 동률", "MOV", "sp 발동", "SP", "32대 라루나피", "2단계", "필드 5자리", "괄", "과",
             "ㅎ", "힘", "나"]
    assert sorted(words, key=collation_key) == [
        "ㄱ", "가", "가나", "각", "간", "갈", "값",  # syllable by syllable (가나 before 각), finals in order
        "과", "괄",                                   # ㅘ after ㅏ…ㅗ
        "기물 카드", "기물 SP",                        # Hangul before Latin inside a word too
        "까치", "꽃",                                 # ㄲ right after ㄱ
        "나", "(대응)", "대응 셀", "대응턴",             # brackets and spaces do not count
        "필드 5자리", "필드 10자리",                    # a digit run is its number
        "ㅎ", "힘",
        "Lv 동률", "MOV", "SP", "sp 발동", "VP",        # then Latin, case ignored
        "2단계", "32대 라루나피"]                        # then digits
    assert [collation_head(w) for w in ("까치", "(대응)", "뜻", "빵", "쌀", "짝", "sp", "32대", "ㅎ")] == \
           ["ㄱ", "ㄷ", "ㄷ", "ㅂ", "ㅅ", "ㅈ", "A–Z", "0–9", "ㅎ"]
    assert collation_heads()[:3] == ("ㄱ", "ㄴ", "ㄷ") and collation_heads()[-2:] == ("A–Z", "0–9")
    assert "ㄲ" not in collation_heads()


def test_glossary_is_in_korean_order_everywhere(corpus, book, html):
    from flamer_ref.korean import collation_key
    from flamer_ref.site import glossary_groups

    want = [t["term"] for t in sorted(corpus.terms.values(), key=lambda t: collation_key(t["term"]))]
    assert want != [t["term"] for t in corpus.terms.values()]  # the data is in topic order: the sort does something
    assert want[0] == "가치" and want[-4:] == ["Lv 동률", "MOV", "SP", "VP"]
    # the book: its model, and the page (the glossary entries in the order of the HTML), under their letters
    assert [t["term"] for t in book["glossary"]] == want
    ids = re.findall(r'<div class="glossary-item" id="([^"]+)"', html)
    assert [corpus.terms[i]["term"] for i in ids] == want
    heads = [g["head"] for g in book["glossary_groups"]]
    assert heads[0] == "ㄱ" and heads[-1] == "A–Z" and len(heads) == len(set(heads))
    part = html[html.index('id="part.glossary"'):html.index('id="part.index"')]
    assert re.findall(r'<h3 class="letter" id="glossary\.[^"]+"[^>]*>([^<]+)</h3>', part) == heads
    # the site's glossary page
    assert [t["term"] for g in glossary_groups(book) for t in g["terms"]] == want
    # `flamer term` without a term: text and JSON
    r = invoke("term", "--json")
    assert [t["term"] for t in json.loads(r.stdout)["terms"]] == want
    r = invoke("term")
    lines = [line for line in r.stdout.splitlines()[1:] if line.strip()]
    assert len(lines) == len(want) and all(line.startswith(w + " ") for line, w in zip(lines, want)), lines


def test_index_lists_terms_cards_and_rule_words_where_they_are_said(corpus, book):
    """찾아보기 (issue 28): every term and card has its entry; another name of a term sends you to the term
    (→) with no pages of its own; a clause's keyword is a headword only where the clause says it and it is
    no generic search word; and every place of an entry prints the word (or, for a card, names it)."""
    from flamer_ref.book import NOT_HEADWORDS, example_parts
    from flamer_ref.korean import collation_head, collation_key

    flat = lambda t: "".join(str(t or "").split())  # noqa: E731
    entries = {e["word"]: e for g in book["index"] for e in g["entries"]}
    order = [e["word"] for g in book["index"] for e in g["entries"]]
    assert order == sorted(order, key=collation_key)
    assert all(collation_head(e["word"]) == g["head"] for g in book["index"] for e in g["entries"])
    anchors = book["anchors"]
    # what each place prints, by anchor (an example's parts each on their own)
    text: dict[str, str] = {}
    parts: dict[str, list[str]] = {}  # a clause's interpretations
    for s in book["sections"]:
        for c in s["clauses"]:
            text[c["anchor"]] = c["title"] + " " + c["text"]
            parts[c["anchor"]] = [i["anchor"] for i in c["interpretations"]]
            for i in c["interpretations"]:  # a box of its own, which may be on the next page
                text[i["anchor"]] = i["title"] + " " + i["text"]
    for r in book["rulings"]:
        text[r["anchor"]] = " ".join(x for x in (r["title"], r["summary"], r["supersedes"], r["earlier_rule"]) if x)
    for part in ("faq", "examples"):
        for g in book[part]:
            for i in g["items"]:
                if i["kind"] == "faq":
                    text[i["anchor"]] = i["question"] + " " + i["answer"]
                else:
                    for key, t in example_parts(i):
                        text[i["anchor"] if key is None else f"{i['anchor']}.{key}"] = t
    for g in book["cards"]:
        for c in g["cards"]:
            text[c["anchor"]] = c["name"]
    for t in book["glossary"]:
        text[t["anchor"]] = t["term"] + " " + t["definition"]
    for word, e in entries.items():
        for loc in e["locs"]:
            assert flat(word) in flat(text[loc["anchor"]]), (word, loc["anchor"])
    terms = {t["term"] for t in corpus.terms.values()}
    for t in corpus.terms.values():
        e = entries[t["term"]]
        assert {"anchor": t["id"], "kind": "term", "title": t["term"], "main": True} in e["locs"], t["term"]
        listed = {loc["anchor"] for loc in e["locs"]} - {t["id"]}
        keyword_of = {cid for cid, c in corpus.clauses.items() if t["term"] in c["keywords"]}
        want = set()
        for cid in set(t["clauses"]) | keyword_of:  # the clause's wording, else the first interpretation saying it
            said = [a for a in [cid, *parts[cid]] if flat(t["term"]) in flat(text[a])]
            want.update(said[:1])
        assert listed == want, t["term"]
        for a in t["aliases"]:
            if a != t["term"] and a not in terms:
                assert entries[a]["see"] == [{"word": t["term"], "anchor": "ix." + t["id"]}] and not entries[a]["locs"], a
    for name in corpus.cards:
        e = entries[name]
        assert [loc for loc in e["locs"] if loc["main"]] == \
               [{"anchor": card_anchor(name), "kind": "card", "title": name, "main": True}], name
    aliases = {a for t in corpus.terms.values() for a in t["aliases"]}
    for cid, c in corpus.clauses.items():
        for k in c["keywords"]:
            k = " ".join(k.split())
            if k in terms or k in aliases or k in corpus.cards:
                continue
            listed = k in entries and bool({cid, *parts[cid]} & {loc["anchor"] for loc in entries[k]["locs"]})
            said = any(flat(k) in flat(text[a]) for a in [cid, *parts[cid]])
            assert listed == (k not in NOT_HEADWORDS and said), (cid, k)
    # the search words of the review are gone: slang, filler, words their places do not say
    for word in ("데미지", "사로잡기", "스택 한도", "강제 발동", "누가 공격", "두 곳", "바로 이기나", "다른 셀", "꼭 써야",
                 "먼저", "만남"):
        assert word not in entries, word
    # 선공 is the first player (2.2 선공 첫 라운드, 4.1 이동 활성화 셀), never the attacker of a combat
    assert {loc["anchor"] for loc in entries["선공"]["locs"]} == {"term.first-player", "round.first-player",
                                                                 "move.activation"}
    # every place is in the book, in the book's order, once
    position = {a: n for n, a in enumerate(anchors)}
    for e in entries.values():
        places = [loc["anchor"] for loc in e["locs"]]
        assert all(a in anchors for a in places) and len(places) == len(set(places))
        assert places == sorted(places, key=position.__getitem__)
        assert e["locs"] or e["see"]
        for s in e["see"]:
            assert anchors.get(s["anchor"]) == "index"
    # a card named in a clause's text is found there (폭약: the clause on its explosion); a card named in an
    # example is found at the part that names it
    assert any(loc["kind"] == "clause" for loc in entries["폭약"]["locs"])
    assert "ex.combat.scene5.situation" in [loc["anchor"] for loc in entries["거신"]["locs"]]
    # places only where they are in this book: a book of 9/23 has no later ruling in its index
    early = build_book(corpus, "2026-09-23")
    later = {r for r, x in corpus.rulings.items() if x["date"] > "2026-09-23"}
    places = {loc["anchor"] for g in early["index"] for e in g["entries"] for loc in e["locs"]}
    assert later and not places & later


def test_index_in_the_html(book, html, page):
    part = html[html.index('id="part.index"'):]
    part = part[:part.index("</section>")]
    assert 'data-pdf-index' in html[html.index('id="part.index"') - 60:html.index('id="part.index"') + 60]
    n = sum(len(g["entries"]) for g in book["index"])
    assert part.count("<li") == n > 300
    assert f"{n}개를 가나다순으로" in part
    # one link per place, to the place; the letters to jump to
    links = re.findall(r'<a class="loc( main)?" href="#([^"]+)">', part)
    assert len(links) == sum(len(e["locs"]) for g in book["index"] for e in g["entries"])
    assert set(a for _, a in links) <= set(page.ids)
    assert re.findall(r'<h3 class="letter" id="index\.[^"]+"[^>]*>([^<]+)</h3>', part) == [g["head"] for g in book["index"]]
    toc = html[html.index('id="part.toc"'):html.index('id="part.rules"')]
    assert '<a href="#part.index">7. 찾아보기</a>' in toc
    # the part order: the index is the last part
    assert html.index('id="part.glossary"') < html.index('id="part.index"') < html.index('class="colophon"')


# --------------------------------------------------------- progress, done line ----
def _on_a_terminal(args: list[str], env: dict) -> tuple[int, str]:
    """Run flamer with stderr on a pseudo-terminal (stdout to /dev/null): exit code and what the terminal got."""
    import pty
    import select

    master, slave = pty.openpty()
    p = subprocess.Popen([sys.executable, "-m", "flamer_ref", *args], stderr=slave, stdout=subprocess.DEVNULL,
                         cwd=ROOT, env={**os.environ, **env})
    os.close(slave)
    got = b""
    try:
        while True:
            ready, _, _ = select.select([master], [], [], 0.5)
            if ready:
                try:
                    chunk = os.read(master, 65536)
                except OSError:  # the other end closed
                    break
                if not chunk:
                    break
                got += chunk
            elif p.poll() is not None:
                break
        p.wait(timeout=120)
    finally:
        os.close(master)
    return p.returncode, got.decode("utf-8", "replace")


def test_book_shows_progress_on_a_terminal_and_a_done_line(tree, tmp_path):
    """A terminal watching stderr sees one line rewritten in place (\\r) that names the counts and the step,
    then the done line with the pages and the size; a pipe gets the done line only (no \\r)."""
    from flamer_ref import pdf

    try:
        pdf.korean_font()
        pdf._load_weasyprint()
    except pdf.PdfError as exc:
        pytest.skip(f"PDF engine not usable here: {exc.message.splitlines()[0]}")
    env = {"FLAMER_DATA": str(tree.root), "FLAMER_CACHE_DIR": str(tmp_path / "cache"), "COLUMNS": "200"}
    out = tmp_path / "작은 책.pdf"
    code, screen = _on_a_terminal(["book", "--format", "pdf", "-o", str(out)], env)
    assert code == 0, screen
    updates = screen.split("\r")
    shown = [u.strip() for u in updates if u.strip()]
    assert "핸드북 만드는 중… 조항 2 · 예시 1 — 시나리오를 엔진으로 푸는 중(1/3)" in shown
    assert any(re.fullmatch(r"핸드북 만드는 중… 조항 2 · 예시 1 · 그림 1 — PDF 조판 중\(2/3\) \d+쪽", u) for u in shown), shown
    assert any(u.startswith("핸드북 만드는 중… 조항 2 · 예시 1 · 그림 1 — 파일 쓰는 중(3/3)") for u in shown), shown
    from pypdf import PdfReader

    pages = len(PdfReader(str(out)).pages)
    size = out.stat().st_size
    done = f"핸드북을 썼습니다: {out} ({pages}쪽, {size / 1e6:.1f} MB)" if size >= 1e5 else \
        f"핸드북을 썼습니다: {out} ({pages}쪽, {round(size / 1000):,} KB)"
    assert shown[-1] == done, shown[-3:]
    assert screen.rstrip().endswith(done) and "␍" not in screen  # the \r is a real carriage return
    # the line before the done line was blanked out (spaces over the progress, then \r)
    assert re.search(r"\r +\r" + re.escape(done), screen)
    # not a terminal: no progress, only the done line
    p = run("book", "-o", str(tmp_path / "b.html"), env=env)
    assert p.returncode == 0 and p.stderr.startswith("핸드북을 썼습니다: ") and "\r" not in p.stderr
    assert re.fullmatch(r"핸드북을 썼습니다: \S+b\.html \([\d,]+ KB\)\n", p.stderr), p.stderr


def test_done_line_goes_to_stderr_when_the_page_goes_to_stdout(tree, tmp_path):
    env = {"FLAMER_DATA": str(tree.root), "FLAMER_CACHE_DIR": str(tmp_path / "cache")}
    p = run("faq", "--format", "md", env=env)
    assert p.returncode == 0 and p.stdout.startswith("#") and "썼습니다" not in p.stdout
    size = len(p.stdout.encode("utf-8"))
    unit = f"{round(size / 1000):,} KB" if size >= 1000 else f"{size:,}바이트"
    assert p.stderr == f"FAQ 페이지를 썼습니다: 표준 출력 ({unit})\n"
    p = run("book", env=env)
    assert p.returncode == 0 and p.stdout.startswith("<!doctype html>")
    assert re.fullmatch(r"핸드북을 썼습니다: 표준 출력 \([\d.,]+ (KB|MB)\)\n", p.stderr), p.stderr
    # --json: the summary only, nothing said on stderr
    p = run("book", "--json", env=env)
    assert p.returncode == 0 and p.stderr == "" and json.loads(p.stdout)["kind"] == "book"
