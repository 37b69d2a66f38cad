"""Victory check (승리확인턴): secured cells, VP gain, the two win conditions."""

from __future__ import annotations

from collections import namedtuple

from hypothesis import given, settings, strategies as st

from flamer_ref.engine.victory import check_victory

P = namedtuple("P", "side cell state")


def test_scene1_four_against_two():
    pieces = [P("D", c, "settled") for c in ("0,2", "2,2", "3,0", "5,0")] + \
        [P("B", c, "settled") for c in ("2,4", "4,4")]
    r = check_victory(pieces, "D", ("D", "B"), {"D": 3, "B": 1}, {"B": ["5,5", "6,4"]})
    assert r.secured == {"D": 4, "B": 2} and r.vp_gain == 2 and r.vp == {"D": 5, "B": 1}
    assert r.winner is None and r.reasons == ()


def test_mobile_only_is_occupied_not_secured_and_contested_counts_for_nobody():
    pieces = [P("D", "0,0", "mobile"), P("D", "1,1", "settled"), P("B", "1,1", "settled"), P("B", "2,2", "settled")]
    r = check_victory(pieces, "D", ("D", "B"), {"D": 0, "B": 0}, {})
    assert r.cells["0,0"]["status"] == "occupied" and r.cells["1,1"]["status"] == "contested"
    assert r.secured == {"D": 0, "B": 1} and r.vp_gain == 0


def test_vp_table_four_rounds():
    vp = 0
    for a, b, want in ((3, 1, 2), (2, 2, 2), (4, 1, 5), (3, 1, 7)):
        pieces = [P("D", f"0,{i}", "settled") for i in range(a)] + [P("B", f"5,{i}", "settled") for i in range(b)]
        r = check_victory(pieces, "D", ("D", "B"), {"D": vp, "B": 0}, {})
        vp = r.vp["D"]
        assert vp == want
    assert r.winner == "D" and r.reasons == ("vp",)


def test_home_occupation_wins_whatever_the_state_and_vp():
    pieces = [P("D", "5,5", "mobile")]
    r = check_victory(pieces, "D", ("D", "B"), {"D": 0, "B": 6}, {"B": ["5,5", "6,4"]})
    assert r.winner == "D" and r.reasons == ("home",)
    # only the player doing the check can win in it
    r = check_victory(pieces, "B", ("D", "B"), {"D": 0, "B": 6}, {"D": ["0,0", "1,0"]})
    assert r.winner is None and r.vp["B"] == 6


def test_no_homes_given_means_no_home_win():
    r = check_victory([P("D", "5,5", "mobile")], "D", ("D", "B"), {"D": 0, "B": 0}, {})
    assert r.winner is None


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.sampled_from("DB"), st.integers(0, 8), st.sampled_from(["mobile", "settled"])),
                max_size=20), st.integers(0, 10), st.integers(0, 10))
def test_property_vp_never_decreases(raw, vd, vb):
    pieces = [P(s, f"{c},0", st_) for s, c, st_ in raw]
    r = check_victory(pieces, "D", ("D", "B"), {"D": vd, "B": vb}, {})
    assert r.vp["D"] >= vd and r.vp["B"] == vb and r.vp_gain >= 0


def test_a_side_known_only_from_homes_can_be_won_against():
    # regression: the opponent with no piece and no vp entry was not a side, so its home was ignored
    from flamer_ref.corpus import load
    from flamer_ref.engine.turns import parse_any, run_any
    from flamer_ref.yamlio import parse_text

    corpus = load()
    text = 'kind: victory\nplayer: A\nhomes: {B: ["5,5", "6,4"]}\ncells:\n  "5,5": {A: [{id: a, card: 수문장}]}\n'
    d = run_any(parse_any(parse_text(text, "t.yaml"), "t.yaml", corpus), corpus)
    assert d["winner"] == "A" and d["reasons"] == ["home"] and d["secured"] == {"A": 0, "B": 0}
    assert d["vp"] == {"A": 0, "B": 0}


def test_an_unknown_opponent_is_shown_as_the_opponent_not_a_made_up_side(tmp_path):
    """Only the player's pieces on the board: the text never prints '?' or a side 'B' nobody named."""
    import flamer_fork

    p = tmp_path / "v.yaml"
    p.write_text('kind: victory\nplayer: DGM\ncells:\n  "2,2": {DGM: [{id: a, card: 수문장, state: settled}]}\n',
                 encoding="utf-8")
    for fmt in ("text", "md", "html"):
        out = flamer_fork.run("simulate", str(p), "--format", fmt, timeout=None).stdout
        assert "상대 0곳" in out and "B(상대)" not in out, (fmt, out)  # issue 17: no code nobody wrote
        assert "? 0곳" not in out and "− B 0" not in out
