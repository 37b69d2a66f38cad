"""The field (필드 5자리): placing, covering and retiring, uncovering, grades,
entry effects and their continuous part (병풍, 결속)."""

from __future__ import annotations

import pytest

from flamer_ref.corpus import load
from flamer_ref.engine.decisions import rules_at
from flamer_ref.engine.fieldplay import FieldPlay


def on(as_of):
    """The decisions the bundled rulings set on `as_of` (what FieldPlay follows)."""
    return rules_at(load(), as_of)


@pytest.fixture(scope="module")
def db():
    return load().cards


def play(db, initial, actions, as_of="2026-09-25"):
    f = FieldPlay(db, [None if x is None else (x, True) if isinstance(x, str) else (x["set"], False)
                       for x in initial], on(as_of))
    for i, a in enumerate(actions):
        if "place" in a:
            f.place(i, a["place"], a.get("slot", 0), a.get("face", "up") == "up")
        elif "activate" in a:
            f.activate(i, a["activate"])
        elif "trash" in a:
            f.trash(i, a["trash"])
        elif "round" in a:
            f.next_round(i)
    return f.result()


def test_byeolmadae_then_bongsujang(db):
    r = play(db, ["수문장", "장인", None, None, None],
             [{"place": "별마대", "slot": 3}, {"round": "next"}, {"place": "봉수장", "slot": 4}])
    assert not r.errors
    assert r.levels["수문장"] == 6
    assert set(r.active) == {"수문장", "장인", "별마대", "봉수장"}
    assert sum(1 for s in r.slots if s["top"] is None) == 1


def test_bongsujang_needs_an_active_intermediate(db):
    r = play(db, ["수문장", "장인", None, None, None], [{"place": "봉수장", "slot": 4}])
    assert [e["reason"] for e in r.errors] == ["grade-requirement"]
    assert "봉수장" not in r.active


def test_retiring_byeolmadae_releases_the_screen_and_uncovering_restores_it(db):
    r = play(db, ["수문장", "장인", "별마대", None, None], [{"place": "진내폭격", "slot": 3, "face": "down"}])
    assert r.retired == ("별마대",) and r.levels["수문장"] == 3
    r = play(db, ["수문장", "장인", "별마대", None, None],
             [{"place": "진내폭격", "slot": 3, "face": "down"}, {"round": "next"}, {"trash": 3}])
    assert r.retired == () and r.levels["수문장"] == 6
    uncover = next(e for e in r.events if e["type"] == "uncover")
    assert uncover["pieces"] == "mobile" and uncover["rule"] == "field.uncover"
    assert any(e["type"] == "entry" and e["again"] for e in r.events)


def test_same_round_uncover_keeps_pieces_settled(db):
    r = play(db, ["수문장", "장인", "별마대", None, None],
             [{"place": "진내폭격", "slot": 3, "face": "down"}, {"trash": 3}])
    uncover = next(e for e in r.events if e["type"] == "uncover")
    assert uncover["pieces"] == "stay-settled" and uncover["ruling"] == "ruling.2026-09-19.followup3"


def test_before_the_revision_the_screen_was_permanent(db):
    r = play(db, ["수문장", "장인", "별마대", None, None], [{"place": "진내폭격", "slot": 3, "face": "down"}],
             as_of="2026-09-01")
    assert r.levels["수문장"] == 6


def test_special_cards(db):
    r = play(db, ["수문장", None, None, None, None], [{"place": "진내폭격", "slot": 2}])
    assert [e["reason"] for e in r.errors] == ["response-must-be-set"]
    r = play(db, ["수문장", "장인", "갑사", "별마대", "거신"], [{"place": "피의장막", "face": "up"}])
    assert not r.errors and not r.retired  # from hand: no slot, no retirement
    assert any(e["type"] == "from-hand" for e in r.events)
    r = play(db, ["개미", "증폭기", "행성굴착기", "거신", {"set": "재부팅"}], [{"trash": 5}])
    assert r.slots[4]["top"] is None and r.slots[3]["top"] == "거신"  # freed, nothing shifts


def test_amplifier_bond_and_set_card_activation(db):
    r = play(db, ["개미", "증폭기", None, None, None], [])
    assert r.bonds == {"증폭기": "개미"}
    r = play(db, ["수문장", {"set": "별마대"}, None, None, None], [{"activate": 2}])
    assert r.levels["수문장"] == 6 and "별마대" in r.active
    r = play(db, ["수문장", None, None, None, None], [{"activate": 2}, {"activate": 1}, {"place": "장인", "slot": 1}])
    assert [e["reason"] for e in r.errors] == ["empty-slot", "not-face-down", "slot-occupied"]


def test_exhausted_kind_frees_its_slot_and_ends_its_effects(db):
    r = play(db, ["수문장", "장인", "별마대", None, None], [])
    assert r.levels["수문장"] == 6
    from flamer_ref.engine.fieldplay import FieldPlay

    f = FieldPlay(db, [("수문장", True), ("장인", True), ("별마대", True), None, None], on("2026-09-25"))
    f.exhausted(0, 3)
    f.exhausted(1, 5)
    r = f.result()
    assert r.slots[2]["top"] is None and "별마대" not in r.active
    assert r.levels["수문장"] == 3
    assert [e["reason"] for e in r.errors] == ["empty-slot"]
    assert any(e["type"] == "removed" and e["rule"] == "field.kind-exhausted" for e in r.events)


def test_a_covered_face_down_piece_card_comes_back_face_down(db):
    # regression: uncovering turned a never-activated set card face up (and fired its 등장효과)
    r = play(db, ["수문장", {"set": "별마대"}, None, None, None],
             [{"place": "진내폭격", "slot": 2, "face": "down"}, {"round": "next"}, {"trash": 2}])
    assert r.slots[1]["top"] == "별마대" and r.slots[1]["face"] == "down"
    assert "별마대" not in r.active and r.retired == () and r.levels["수문장"] == 3
    uncover = next(e for e in r.events if e["type"] == "uncover")
    assert uncover["pieces"] == "none" and not any(e["type"] == "entry" for e in r.events)
    # it still activates later, with its 등장효과 then
    r = play(db, ["수문장", {"set": "별마대"}, None, None, None],
             [{"place": "진내폭격", "slot": 2, "face": "down"}, {"trash": 2}, {"activate": 2}])
    assert "별마대" in r.active and r.levels["수문장"] == 6


def test_before_the_revision_removal_and_bonds_were_permanent_too(db):
    # '영구 적용' (earlier rule of ruling.2026-09-04): kept after retirement *or removal*
    f = FieldPlay(db, [("수문장", True), ("장인", True), ("별마대", True), None, None], on("2026-09-03"))
    f.exhausted(0, 3)
    r = f.result()
    assert r.slots[2]["top"] is None and r.levels["수문장"] == 6
    f = FieldPlay(db, [("수문장", True), ("장인", True), ("별마대", True), None, None], on("2026-09-04"))
    f.exhausted(0, 3)
    assert f.result().levels["수문장"] == 3
    r = play(db, ["개미", "증폭기", None, None, None], [{"place": "재부팅", "slot": 2, "face": "down"}],
             as_of="2026-09-03")
    assert r.bonds == {"증폭기": "개미"} and r.retired == ("증폭기",)
    r = play(db, ["개미", "증폭기", None, None, None], [{"place": "재부팅", "slot": 2, "face": "down"}])
    assert r.bonds == {}


def test_removing_a_top_piece_card_uncovers_the_card_below(db):
    # a piece card set face down on another and activated, then removed (kind exhausted): the
    # covered card comes back as when the top card is trashed
    f = FieldPlay(db, [("수문장", True), ("장인", True), ("별마대", True), None, None], on("2026-09-25"))
    f.place(0, "거신", 3, False)
    f.activate(1, 3)
    f.next_round(2)
    f.exhausted(3, 3)
    r = f.result()
    assert r.slots[2]["top"] == "별마대" and "별마대" in r.active and r.retired == ()
    assert r.levels["수문장"] == 6
    uncover = next(e for e in r.events if e["type"] == "uncover")
    assert uncover["pieces"] == "mobile" and uncover["action"] == 3
