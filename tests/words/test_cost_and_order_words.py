"""The leftovers of issue 17 (no internal word in front of a person; the Korean review): a cost is paid
in the rulebook's word for its card (진내폭격's 헌납), the scenario's combat order is worded in Korean
(never `combat_order`), the handbook's example pages name pieces by their cards and sides as 나 / 상대,
and a combat scenario without a board refuses a cell key that is no coordinate ("2,x").

In-process (typer's CliRunner, library calls); the PDF's text is checked in tests/publishing/test_pdf.py (the
session's one PDF book) and the site's pages in tests/web/test_site.py (its one built site).
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from inprocess import invoke


from forbidden_words import found, index_words, visible, without

ROOT = Path(__file__).resolve().parent.parent.parent

JINNAE = ["fight", "거신, 장인 vs 개미(정착 lv1 hp2 atk1)", "-r", "수비자 진내폭격 비용 개미"]




# ------------------------------------------------------------------ 헌납 ----
def test_jinnae_cost_reads_heonnap_in_the_full_story():
    r = invoke(*JINNAE, "--full")
    code, out, err = r.exit_code, r.stdout, r.stderr
    assert code == 0, err
    line = next(ln for ln in out.splitlines() if "비용 지불" in ln)
    assert "개미 헌납" in line, line  # was '비용 지불(#1): 개미 파괴'
    assert "파괴" not in out, [ln for ln in out.splitlines() if "파괴" in ln]


def test_jinnae_cost_reads_heonnap_in_md_and_html():
    for fmt in ("md", "html"):
        r = invoke(*JINNAE, "--full", "--format", fmt)
        code, out, err = r.exit_code, r.stdout, r.stderr
        assert code == 0, err
        text = visible(out, fmt if fmt == "html" else "text")
        assert "개미 헌납" in text, fmt
        assert "개미 파괴" not in text, fmt


def test_a_cost_of_another_card_is_still_destroyed(tmp_path):
    """기폭's cost is worded 파괴 by the pages: the word follows the declaring card, not every cost."""
    from flamer_ref import render

    data = {"events": [
        {"type": "declare", "phase": "response", "index": 0, "card": "진내폭격"},
        {"type": "cost", "phase": "response", "index": 0, "piece": "ant"},
        {"type": "declare", "cell": "1,1", "step": 1, "index": 0, "card": "기폭"},
        {"type": "cost", "cell": "1,1", "step": 1, "index": 0, "piece": "bomb"},
    ]}
    cards = render.cost_cards(data)
    assert cards == {"ant": "진내폭격", "bomb": "기폭"}
    assert [render.cost_verb(cards[p]) for p in ("ant", "bomb")] == ["헌납", "파괴"]


def test_refused_cost_of_jinnae_reads_heonnap():
    """The refusal of a cost that does not fit (forbidden.txt.j2) words the cost as the card's page does."""
    from flamer_ref.errors import Forbidden

    exc = Forbidden("cost-mismatch", "response.declare.timing",
                    detail={"piece": "drill", "card": "진내폭격", "own": True, "state": None, "cost_card": None,
                            "labels": {"drill": "행성굴착기"}})
    assert "헌납)에 맞지 않습니다" in exc.why, exc.why
    gone = Forbidden("cost-piece-gone", "response.declare.timing", detail={"piece": "ant", "card": "진내폭격"})
    assert "비용으로 헌납할" in gone.why, gone.why
    other = Forbidden("cost-unpayable", "response.declare.timing",
                      detail={"card": "기폭", "own": True, "state": None, "cost_card": "개미"})
    assert "하나 파괴)을 낼 수 없습니다" in other.why, other.why


# --------------------------------------------------------- combat order ----
ORDERED = textwrap.dedent("""\
    kind: combat
    attacker: DGM
    combat_order: ["2,2", "1,1"]
    cells:
      "1,1":
        DGM: [{id: gk, card: 수문장}]
        BGM: [{id: ant, card: 개미, hp: 1, atk: 1}]
      "2,2":
        DGM: [{id: gk2, card: 수문장}]
        BGM: [{id: ant2, card: 개미, hp: 1, atk: 1}]
      "3,3":
        DGM: [{id: gk3, card: 수문장}]
        BGM: [{id: ant3, card: 개미, hp: 1, atk: 1}]
    """)


def test_the_scenarios_combat_order_is_worded_in_korean(tmp_path):
    f = tmp_path / "ordered.yaml"
    f.write_text(ORDERED, encoding="utf-8")
    r = invoke("simulate", str(f))
    code, out, err = r.exit_code, r.stdout, r.stderr
    assert code == 0, err
    assert "combat_order" not in out, [ln for ln in out.splitlines() if "combat_order" in ln]
    # cells have coordinates, not numbers (the Korean review, issue 28)
    assert "시나리오 파일에 적은 전투 순서에 없는 조우 셀 (3,3)은 좌표 순으로 그 뒤에 둠" in " ".join(out.split()), out
    r = invoke("simulate", str(f), "--all-branches")
    code, out, err = r.exit_code, r.stdout, r.stderr
    assert code == 0, err
    assert "combat_order" not in out, [ln for ln in out.splitlines() if "combat_order" in ln]
    assert "시나리오에 적은 전투 순서((2,2) → (1,1))대로" in out, out


def test_no_template_shows_combat_order_to_a_person():
    """Outside the problems' catalogue (which names the key the writer wrote) and the JSON messages'
    non-people branch, no template says combat_order."""
    hits = []
    for p in (ROOT / "templates").rglob("*.j2"):
        if p.parts[-2] == "problems":
            continue
        for n, ln in enumerate(p.read_text(encoding="utf-8").splitlines(), 1):
            body = ln.split("{#")[0]
            if "combat_order" in body:
                hits.append(f"{p.relative_to(ROOT)}:{n}")
    assert not hits, hits


# ----------------------------------------------------------- cell names ----
BAD_CELL = textwrap.dedent("""\
    kind: combat
    attacker: DGM
    cells:
      "2,x":
        DGM: [{id: gk, card: 수문장}]
        BGM: [{id: ant, card: 개미, hp: 1, atk: 1}]
    """)


@pytest.mark.parametrize("text", [BAD_CELL, BAD_CELL.replace("kind: combat", "종류: 전투").replace("attacker", "공격자")
                                  .replace("cells:", "셀:")])
def test_a_cell_key_that_is_no_coordinate_is_refused(tmp_path, text):
    f = tmp_path / "bad.yaml"
    f.write_text(text, encoding="utf-8")
    r = invoke("simulate", str(f))
    code, out, err = r.exit_code, r.stdout, r.stderr
    assert code == 1, out  # was 0: '2,x를 DGM이 점령'
    assert "'2,x'는 좌표가 아닙니다" in err, err
    assert '"2,4"처럼' in err, err
    assert "Traceback" not in err
    r = invoke("simulate", str(f), "--json")
    code, out, err = r.exit_code, r.stdout, r.stderr
    assert code == 1
    assert "2,x" in json.loads(out)["error"]["message"]


def test_an_explicit_board_still_names_its_cells_freely(tmp_path):
    f = tmp_path / "named.yaml"
    f.write_text(textwrap.dedent("""\
        kind: combat
        attacker: DGM
        board: {cells: [X, Y], neighbors: {X: [Y]}}
        cells:
          X:
            DGM: [{id: gk, card: 수문장}]
            BGM: [{id: ant, card: 개미, hp: 1, atk: 1}]
        """), encoding="utf-8")
    r = invoke("simulate", str(f), "--json")
    code, out, err = r.exit_code, r.stdout, r.stderr
    assert code == 0, err
    assert json.loads(out)["cells"]["X"]["occupant"] == "DGM"


# ------------------------------------------------------ the book's pages ----
@pytest.fixture(scope="module")
def book_html():
    from flamer_ref.book import build_book, render_html
    from flamer_ref.corpus import load

    return render_html(build_book(load()))


def test_the_books_html_has_no_forbidden_word(book_html):
    # the index's headwords are the data's keywords as a reader looks them up ('선 플레이어' → 선공)
    text = without(visible(book_html, "html"), index_words(book_html))
    assert not found(text), {w: [ln.strip() for ln in text.splitlines() if w in ln][:3] for w in found(text)}


def test_the_books_example_pages_name_cards_and_sides(book_html):
    text = visible(book_html, "html")
    assert "ME의 포로" not in text and "ME 필드" not in text
    assert "내 포로" in text  # 나's prisoners, as a person says it
    # no piece id of the examples where a card name belongs (the combat tables used to print 'gk', 's2')
    from flamer_ref.corpus import load

    corpus = load()
    ids = set()
    for e in [*corpus.examples.values(), *corpus.faq.values()]:
        scns = e.get("scenario") or []
        for s in scns if isinstance(scns, list) else [scns]:
            for by_side in (s.get("cells") or s.get("셀") or {}).values():
                for plist in (by_side or {}).values():
                    ids.update(str(p["id"]) for p in plist or () if isinstance(p, dict) and "id" in p)
    import re

    shown = {i for i in ids if re.search(r"(?<![A-Za-z0-9_가-힣.-])" + re.escape(i) + r"(?![A-Za-z0-9_가-힣-])", text)}
    names = set(corpus.cards)
    assert not (shown - names), sorted(shown - names)
