"""The printed handbook can be trusted at the table (issue 28): read back from the PDF of `flamer book` (the
session's one build, tests/conftest.py pdf_book), page by page with poppler as a judge reads it.

- the index (찾아보기) sends the reader to pages that show the word;
- every board picture has its key (number → card, side) on its page, in text;
- no dangling or contradicting text: no content hash on the cover, no "아래 풀이 참고" with nothing below, the
  engine's game end worded as the FAQ says it (in the victory-check turn, not "그 자리에서");
- the cards are one table, without the data editors' notes.

Skipped, saying why, where the PDF engine, a Korean font or poppler-utils is missing."""

from __future__ import annotations

import re
from html import unescape

import pytest

from test_pdf import _index_entries, outline, pages_of, squeeze


@pytest.fixture(scope="module")
def book(pdf_book):
    return pdf_book


@pytest.fixture(scope="module")
def reader(book):
    pypdf = pytest.importorskip("pypdf", reason="pypdf (a test extra) is not installed")
    return pypdf.PdfReader(str(book["pdf"]))


@pytest.fixture(scope="module")
def pages(book) -> list[str]:
    """The text of each page (page n is [n - 1]), without spaces: a word is found however a line breaks it."""
    return [squeeze(p) for p in pages_of("pdftotext", book["pdf"], "-enc", "UTF-8")]


@pytest.fixture(scope="module")
def page_of(reader):
    dests = reader.named_destinations

    def page(anchor: str) -> int:
        return reader.get_destination_page_number(dests[anchor]) + 1

    return page


# ------------------------------------------------------------------ index ----
#: the (word, page) pairs the review found wrong (issue 28), by the place each page came from
REVIEW_WORDS = ("진내폭격", "빈자리", "불침번", "스택 한도", "가장 낮은 Lv", "강제 발동", "선공", "데미지", "사로잡기")


def test_every_page_the_index_gives_shows_the_word(book, pages, page_of):
    """Every (headword, page) pair of the index: the page's text has the word. The places an entry lists are
    the pages the PDF prints for it (tests/test_pdf.py checks the printed numbers against the places)."""
    pairs, holding, wrong = 0, 0, []
    for word, places in _index_entries(book["html"]):
        for page in sorted({page_of(anchor) for anchor, _ in places}):
            pairs += 1
            if squeeze(word) in pages[page - 1]:
                holding += 1
            else:
                wrong.append((word, page))
    assert pairs >= 500
    assert holding >= 0.98 * pairs, (f"{holding}/{pairs} pairs hold", wrong[:20])


def test_the_reviews_wrong_pairs_are_gone(book, pages, page_of):
    """The pairs the review listed: each word is gone as a headword (slang, a search word its place does
    not say) or every page it gives shows it; 선공 (the first player) never sends you to a combat's attacker."""
    entries = dict(_index_entries(book["html"]))
    for word in REVIEW_WORDS:
        for anchor, _ in entries.get(word, []):
            assert squeeze(word) in pages[page_of(anchor) - 1], (word, anchor, page_of(anchor))
    assert not {"스택 한도", "강제 발동", "데미지", "사로잡기"} & set(entries)
    first = [anchor for anchor, _ in entries["선공"]]
    assert first and not [a for a in first if a.startswith(("combat.", "response."))], first
    # filler phrases are no headwords
    assert not {"누가 공격", "두 곳", "바로 이기나", "다른 셀", "꼭 써야", "먼저", "만남"} & set(entries)


def test_another_name_sends_you_to_the_word_the_book_uses(book):
    """앞면 → 기동: a see-reference, with no pages of its own, to an entry of the index."""
    part = book["html"][book["html"].index('id="part.index"'):]
    seen = {unescape(w): unescape(t) for w, t in re.findall(
        r'<span class="ix-word">([^<]*)</span> <span class="ix-see">→ <a href="#[^"]+">([^<]*)</a>', part)}
    assert seen["앞면"] == "기동" and seen["뒷면"] == "정착" and seen["후공"] == "선공"
    words = {w for w, _ in _index_entries(book["html"])}
    assert set(seen.values()) <= words


# ------------------------------------------------------- dangling text ----
def test_below_means_below(pages):
    """"아래 풀이 참고" only where the explanation follows: within the same result box (before its ✓/✗ mark),
    a 미해결, 가정 or 불가 (a refused input of a round) line. And an assumption is said, not only counted ("엔진이 가정한 것 1건")."""
    found = 0
    for n, text in enumerate(pages):
        rest = text + (pages[n + 1] if n + 1 < len(pages) else "")
        for m in re.finditer("아래풀이참고", text):
            after = rest[m.end():]
            mark = min([i for i in (after.find("✓"), after.find("✗")) if i >= 0], default=len(after))
            told = min([i for i in (after.find("미해결:"), after.find("가정:"), after.find("불가:")) if i >= 0],
                       default=len(after))
            assert told < mark, (n + 1, after[:120])
            found += 1
        assert "엔진이가정한것" not in text, n + 1
        for m in re.finditer("가정한것\\d+건", text):
            assert text[m.end()] == ":", (n + 1, text[m.start():m.end() + 40])  # 가정한 것 1건: what it took
            found += 1
    assert found >= 2  # the book has such lines (a gap on the 승리확인턴 page, assumptions in the examples)


def test_the_engine_ends_the_game_where_the_faq_does(pages):
    """The FAQ says a piece in the opponent's home does not win on the spot: the win is judged in the
    victory-check turn. The engine's result boxes say so too ("이 승리확인턴에 게임 종료")."""
    text = "".join(pages)
    assert "그자리에서게임종료" not in text
    assert "그자리에서바로이기나요" in text and "이승리확인턴에게임종료" in text


# ------------------------------------------------------------------ boards ----
def _board_cases():
    """(item anchor, [scenario]) of every example and worked case whose pictures are boards (move, victory),
    in the order the book draws them, with the names of each scenario's pieces (their cards) and sides."""
    from flamer_ref.corpus import load
    from flamer_ref.engine.api import parse

    corpus = load()
    out = []
    for iid, item in corpus.examples.items():
        scns = item.get("scenario")
        scns = scns if isinstance(scns, list) else [scns] if scns else []
        boards = []
        for n, s in enumerate(scns):
            if s.get("kind") in ("move", "victory"):
                scn = parse(s, f"{iid}#{n}", corpus)
                boards.append(({p.name or p.card for p in scn.pieces}, {p.side for p in scn.pieces}))
        if boards:
            out.append((iid, boards))
    return out


def test_every_board_picture_has_its_key_on_its_page(book, pages, page_of):
    """A board's pieces are numbered tokens (a victory-check board shows only who holds each cell): the key
    beside it, on the same page, names each piece's card, and each side by a mark of its own shape (● / ◆),
    not by colour alone."""
    html = book["html"]
    checked = 0
    for iid, boards in _board_cases():
        art = html[html.index(f'id="{iid}"'):]
        art = art[:art.index("</article>")]
        doms = re.findall(r'<figure id="(k\d+-)fig">', art)
        assert len(doms) == len(boards), iid
        for dom, (names, sides) in zip(doms, boards):
            page = page_of(f"{dom}key")
            assert page_of(f"{dom}fig") == page, (iid, "the key is not on the picture's page")
            text = pages[page - 1]
            missing = [n for n in names if squeeze(n) not in text]
            assert not missing, (iid, page, missing)
            if len(sides) > 1:
                assert "●" in text and "◆" in text, (iid, page)
            checked += 1
    assert checked >= 8  # ex.move.figure, ex.move.cells-xy, ex.move.scene3, ex.victory.figure … and more


# ------------------------------------------------------------- cover, cards ----
def test_the_cover_has_no_hash_and_the_colophon_has_the_data_version(book, pages):
    """A judge's book shows what it is on its cover, not a content hash or a command sheet: the data
    version (latest ruling, hash, package) and the command-line sheet are on the last page."""
    from flamer_ref.book import data_version
    from flamer_ref.corpus import load

    v = data_version(load())
    cover = pages[0]
    assert v["hash"] not in cover and "해시" not in cover and "flamer" not in cover
    assert "2026-09-25판정까지반영" in cover
    assert v["hash"] in pages[-1] and "flamerrule" in pages[-1] and v["package"] in pages[-1]


def test_the_cards_are_one_table_without_editors_notes(book, pages, page_of):
    """The cards part is one table (a row per card: kind, Lv/HP/ATK/cost, abilities), a few pages, not a
    page of boxes per handful of cards; the data editors' provenance notes are not printed; the stat is
    written Lv as everywhere else."""
    from flamer_ref.corpus import load

    corpus = load()
    html = book["html"]
    part = html[html.index('id="part.cards"'):html.index('id="part.glossary"')]
    assert part.count("<table") == 1 and 'class="cards-table"' in part
    rows = re.findall(r'<tr class="card[^"]*" id="([^"]+)"', part)
    assert len(rows) == len(corpus.cards)
    assert "<th class=\"num\">Lv</th>" in part and ">LV<" not in html
    start, end = page_of("part.cards"), page_of("part.glossary") - 1
    assert end - start + 1 <= 5, (start, end)  # was 14 pages
    text = "".join(pages[start - 1:end])
    notes = [c["notes"] for c in corpus.cards.values() if c.get("notes")]
    assert len(notes) > 20
    leaked = [n[:40] for n in notes if squeeze(n)[:25] in text]
    assert not leaked, leaked
    assert "진영은" not in text  # 진영은 '나는 대광명연방 …'에서 나온다
    # an ability's tag said once: 병풍 [등장효과] 별마대 카드가 …, not [등장효과][등장효과] 등장효과.
    assert "등장효과등장효과" not in text and "병풍등장효과별마대" in text


def test_interpretations_are_set_smaller_than_the_rules(book):
    """해석 (the project's reading) is secondary to the rule: its box's type is smaller than the clause's."""
    css = book["html"][book["html"].index("<style>"):book["html"].index("</style>")]
    size = lambda sel: float(re.search(re.escape(sel) + r"\s*\{[^}]*font-size:\s*([\d.]+)rem", css).group(1))  # noqa: E731
    assert size("aside.interp") < 0.9 and "aside.interp" in css
    assert not re.search(r"\.clause\s*\.text\s*\{[^}]*font-size", css)  # the rule keeps the body size


def test_running_heads_of_the_timeline_name_the_page_s_own_entry(book, reader, pages, page_of):
    """The rulings timeline's running head names the ruling the page begins with (or goes on with), not the
    last one of the page before."""
    from flamer_ref.book import build_book
    from flamer_ref.corpus import load

    rulings = build_book(load())["rulings"]
    level1 = [(title, page) for level, title, page in outline(reader) if level == 1]
    i = next(n for n, (title, _) in enumerate(level1) if "판정 연표" in title)
    first, last = level1[i][1], level1[i + 1][1] - 1
    raw = pages_of("pdftotext", book["pdf"], "-enc", "UTF-8")
    checked = 0
    for page in range(first + 1, last + 1):
        head = raw[page - 1].strip().splitlines()[0]
        here = [r for r in rulings if page_of(r["anchor"]) == page]
        before = [r for r in rulings if page_of(r["anchor"]) < page]
        body = pages[page - 1]
        starts = here and body.find(squeeze(here[0]["date"] + here[0]["title"])) <= len(squeeze(head)) + 40
        want = here[0] if starts else before[-1]
        assert want["date"] in head, (page, head, want["date"])
        checked += 1
    assert checked >= 3
