"""`flamer timing` (issue 4 §5): every card, ability and timing tag gets a table
whose every row cites clauses; an ability without a stated timing says so."""

from __future__ import annotations

import pytest

from flamer_ref.corpus import TIMING_ROWS, load
from flamer_ref.errors import Ambiguous
from flamer_ref.lookup import timing


@pytest.fixture(scope="module")
def corpus():
    return load()


def test_every_card_is_answered(corpus):
    assert len(corpus.cards) >= 20
    for name, card in corpus.cards.items():
        d = timing(corpus, name)
        assert d["matched"] == {"kind": "card", "name": name}
        assert d["entries"]
        for e in d["entries"]:
            if e["unknown"]:
                assert "미상" in e["message"]
            else:
                assert {r["key"] for r in e["rows"]} == set(TIMING_ROWS)


def test_response_special_card(corpus):
    e = timing(corpus, "진내폭격")["entries"][0]
    assert e["profile"] == "timing.response-special"
    rows = {r["key"]: r for r in e["rows"]}
    assert "세트" in rows["from"]["value"] and "손패" in rows["from"]["value"]
    assert "field.counter-exception" in [c["id"] for c in rows["round"]["clauses"]]
    assert "트래쉬" in rows["after"]["value"]


def test_ability_name_and_tag(corpus):
    d = timing(corpus, "비행")
    assert d["matched"] == {"kind": "ability", "name": "비행", "card": "잠복군"}
    assert [e["profile"] for e in d["entries"]] == ["timing.move-sp"]
    d = timing(corpus, "(전투)")
    assert {e["profile"] for e in d["entries"]} == {"timing.battle-special", "timing.battle-sp"}
    assert timing(corpus, "등장효과")["entries"][0]["profile"] == "timing.entry"
    assert timing(corpus, "구조물")["entries"][0]["profile"] == "timing.structure"


def test_structure_card_gets_structure_rows(corpus):
    profiles = [e["profile"] for e in timing(corpus, "망루")["entries"]]
    assert "timing.structure" in profiles and "timing.response-sp" in profiles


def test_unstated_timing_is_unknown(corpus):
    entries = timing(corpus, "개미")["entries"]
    assert any(e["unknown"] and e["ability"] == "불사" for e in entries)


def test_every_cited_clause_exists(corpus):
    cited = [c for p in corpus.timings.values() for r in p["rows"] for c in r["clauses"]]
    assert len(cited) >= 10  # the timing pages cite clauses, and they were read
    assert [c for c in cited if c not in corpus.clauses] == []


def test_ambiguous_name_lists_candidates(corpus):
    with pytest.raises(Ambiguous):
        timing(corpus, "잠")


def test_candidates_are_shown_as_names_not_internal_keys(corpus):
    from flamer_ref.errors import NotFound

    with pytest.raises(Ambiguous) as exc:
        timing(corpus, "잠")
    shown = [c for c, _ in exc.value.candidates]
    assert "잠복군 비행" in shown and "잠복군" in shown
    assert not any(":" in c for c in shown) and "잠입 작전 잠입 작전" not in shown
    assert "ability:" not in str(exc.value) and "card:" not in str(exc.value)
    with pytest.raises(NotFound) as exc:
        timing(corpus, "없는카드")
    assert "card:" not in str(exc.value) and exc.value.candidates
