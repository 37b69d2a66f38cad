"""The Korean account: every event type renders in text, md and html (templates do all wording)."""

import pytest

from flamer_ref import runner
from flamer_ref.people import piece_names
from flamer_ref.render import md_escape, render

from .conftest import C, P, scenario
from .test_result_shape import SAMPLES

EXTRA = [
    # vacated before 2026-09-24, no resolution point, explosive, stalemate, ant, fizzles
    (scenario({"1,1": {"A": [P("a", lv=3, hp=12, atk=1)], "B": [P("b", lv=2, hp=2, atk=1)]}},
              response=[{"side": "B", "card": "진내폭격", "cell": "1,1", "cost": {"destroy": "b"}}]), "2026-09-23"),
    (scenario({"1,1": {"A": [P("a", hp=9, atk=2)], "B": [P("b", atk=2)]}},
              response=[{"side": "B", "effect": {"attack": 3, "cell": "1,1"}},
                        {"side": "B", "effect": {"move": "b", "to": "2,2"}}]), "2026-09-23"),
    (scenario({"1,1": {"A": [P("a", lv=3, hp=9, atk=1), C("ant", "개미", lv=1, hp=1, atk=1)],
                       "B": [P("b", atk=3), C("bomb", "폭약", lv=1, hp=1, state="settled"), P("z", atk=0)]}},
              response=[{"side": "B", "card": "폭약", "cell": "1,1"}]), "2026-09-24"),
    (scenario({"1,1": {"A": [P("a", atk=0)], "B": [P("b", atk=0)]}}), None),
    (scenario({"3,3": {"A": [P("m", state="settled")], "B": [P("o", state="settled")]}}), None),
    (scenario({"1,1": {"A": [P("a")], "B": [P("b"), P("x", state="settled")]}},
              response=[{"side": "B", "effect": {"flip": "b", "to": "mobile"}},
                        {"side": "A", "effect": {"move": "x", "to": "0,0"}},
                        {"side": "B", "effect": {"flip": "x", "to": "mobile"}}]), None),
]


@pytest.mark.parametrize("fmt", ["txt", "md", "html"])
def test_all_samples_render(run, corpus, fmt):
    seen = set()
    for obj, date in [(s, None) for s in SAMPLES] + [(s, "2026-09-20") for s in SAMPLES] + EXTRA:
        data = run(obj, as_of=date)
        seen.update(e["type"] for e in data["events"])
        out = render(f"simulate/combat.{fmt}.j2", data=data, refs=runner.refs(corpus, data))
        assert "최종 상태" in out
        flat = " ".join(out.split())
        for u in data["unresolved"]:
            # the page words each gap from the same catalogue as the JSON's message, with the page's names
            # (cards for ids, (2,4) for cells: issue 17)
            said = render("simulate/unresolved.txt.j2", u=u, pieces=data["pieces"], as_of=data["as_of"], data=data,
                          people={}, names=piece_names(data), refs=runner.refs(corpus, data)).strip()
            msg = md_escape(said) if fmt == "md" else said  # Markdown escapes input text
            assert " ".join(msg.split()) in flat or fmt == "html"
        assert "None" not in out.replace("null", "")
    assert {"attack", "capture", "fragment", "sweep", "standoff", "stalemate", "vacated", "fizzle", "cost",
            "flip", "depart", "arrive", "buff", "sp", "no-attack", "restore", "end", "field"} <= seen


def test_text_cites_clause_titles_and_ruling_dates(run, corpus):
    data = run(scenario({"3,3": {"A": [P("gk")], "B": [P("s1", state="settled"), P("s2", state="settled")]}}))
    out = render("simulate/combat.txt.j2", data=data, refs=runner.refs(corpus, data))
    # by number and title (the clause_label filter), never by id (issue 17)
    assert "6.26 7단계 정리" in out and "판정 2026-09-25 확정" in out
    assert "combat.step7.sweep" not in out and "(confirmed)" not in out
    assert "HP 3 → 2" in out or "HP 3 → 2" not in out  # settled hits show HP before → after
    assert "정착(뒷면) 상태로 피격" in out
