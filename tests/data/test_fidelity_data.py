"""Fidelity of the rules data to the pages (issue 10): timing rows, glossary definitions, ruling labels,
home positions and colours."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inprocess import invoke

from flamer_ref.corpus import load

SEEDS = Path(__file__).resolve().parents[3] / "shared" / "seeds"


def cli_json(*args):
    r = invoke(*args, "--json")
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def test_explosive_detonation_timing_says_the_explosive_is_a_cost():
    """대응턴 page: "폭약 (대응) 폭발의 폭약 파괴도 기폭·염동력의 개미 파괴와 같은 비용입니다(2026-09-25 확정) —
    선언 시 폭약을 파괴해 구조물 조각으로 만들고 5 ATK 공격만 2단계에 해결하며, 불발이어도 조각은 되돌리지
    않고 폭약은 4~6단계에 참여하지 않습니다." — no row of `flamer timing 폭발` may say the flipped 폭약
    stays mobile."""
    d = cli_json("timing", "폭발")
    entry = next(e for e in d["entries"] if e["card"] == "폭약")
    rows = {r["key"]: r["value"] for r in entry["rows"]}
    assert entry["profile"] == "timing.explosive-detonation"
    assert "기동으로 남" not in rows["after"] and "4~6단계" in rows["after"]
    assert "조각" in rows["when"] and "비용" in rows["when"]
    assert "기동으로 남지 않는다" in rows["state"]
    cites = {c["id"] for r in entry["rows"] for c in r["clauses"]}
    assert "response.cost.explosive" in cites
    # other (대응) SP keep the general profile
    other = cli_json("timing", "재부팅")
    assert all(e["profile"] != "timing.explosive-detonation" for e in other["entries"])


def test_response_cell_is_where_the_opponent_declared():
    """대응턴 page: "턴 플레이어는 상대가 (대응) 효과를 선언한 셀('대응 셀')에 한해 … 맞대응으로 선언할 수
    있습니다." """
    d = cli_json("term", "대응 셀")
    assert "상대(수비자)가 (대응) 효과를 선언한 셀" in d["definition"]


def test_structure_term_says_basic_cards_including_structures_may_start():
    """필드와 카드 page: "초급: 시작 카드로 설정 가능(구조물 포함)." """
    d = cli_json("term", "구조물")
    assert "초급 카드는 구조물이라도 시작 카드로 설정할 수 있다" in d["definition"]
    assert "field.grades" in json.dumps(d, ensure_ascii=False)


def test_home_positions_and_colours_are_in_the_data():
    """승리확인턴 page (장면 1): "나는 대광명연방(DGM·파랑, 본진 좌상단), 상대는 밤결무리(BGM·초록, 본진
    우하단)" and "상대 본진 (5,5)(6,4)"."""
    d = cli_json("term", "본진")
    for words in ("대광명연방(DGM)은 파랑, 본진 좌상단", "밤결무리(BGM)는 초록, 본진 우하단", "(5,5)·(6,4)"):
        assert words in d["definition"]


def test_counter_ruling_label_is_the_pages_word():
    """필드와 카드 page: "예외 = 맞대응(2026-09-19): 자기 라운드의 대응턴에 …" — the label is the page's word
    ('예외'), like every other ruling's label (확정, 정정, 개정, 폐지, 명문화, 후속3)."""
    corpus = load()
    assert corpus.rulings["ruling.2026-09-19.counter"]["label"] == "예외"
    if not SEEDS.is_dir():
        pytest.skip("rulebook pages not beside the repository")
    pages = "\n".join(p.read_text(encoding="utf-8") for p in sorted(SEEDS.glob("*.txt")))
    assert "예외 = 맞대응(2026-09-19)" in pages
    for r in corpus.rulings.values():
        assert r["label"] in pages, r["id"]
