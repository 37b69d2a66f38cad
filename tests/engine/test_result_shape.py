"""The result JSON: the spec's keys, every event typed, every cited id real."""

import subprocess
import sys
from pathlib import Path

from .conftest import C, P, scenario

ROOT = Path(__file__).resolve().parents[2]

SAMPLES = [
    scenario({"1,1": {"A": [P("a", lv=5, hp=9, atk=2), P("z", atk=0)],
                      "B": [P("b", lv=3, hp=4, atk=1), P("t", structure=True, state="settled"), P("s", state="settled")]},
              "2,2": {"A": [P("a2", atk=0)], "B": [P("b2", atk=0)]},
              "3,3": {"A": [P("m", state="settled")], "B": [P("o", state="settled")]},
              "4,4": {"A": [P("a4")], "B": [P("b4"), P("x", state="settled")]}},
             response=[{"side": "B", "effect": {"flip": "x", "to": "mobile"}, "cost": {"destroy": "s"}},
                       {"side": "A", "effect": {"move": "a4", "to": "5,5"}},
                       {"side": "B", "effect": {"attack": 2, "cell": "1,1"}}],
             battle_cards=[{"side": "A", "cell": "1,1", "effect": {"buff": "a", "atk": 1}}]),
    scenario({"2,4": {"DGM": [C("gk", "수문장"), C("star", "별마대")],
                      "BGM": [C("ant", "개미", lv=1, hp=2, atk=1), C("amp", "증폭기", atk=1)]}},
             attacker="DGM", field={"DGM": ["수문장", "별마대", None, None, None],
                                    "BGM": ["개미", "증폭기", None, None, None]}),
]
SPEC_KEYS = {"kind", "as_of", "cells", "prisoners", "fragments", "events", "unresolved"}
CELL_KEYS = {"occupant", "standoff", "rounds", "survivors"}


def _all(run):
    assert len(SAMPLES) >= 2  # the shape checks below walk these results
    for obj in SAMPLES:
        for date in ("2026-09-20", None):
            yield run(obj, as_of=date)


def test_spec_keys(run):
    for res in _all(run):
        assert SPEC_KEYS <= set(res)
        assert res["kind"] == "combat"
        for c in res["cells"].values():
            assert CELL_KEYS <= set(c)
            assert set(c["survivors"]) == {res["attacker"], res["defender"]}
        assert set(res["prisoners"]) == {res["attacker"], res["defender"]}
        for u in res["unresolved"]:
            assert u["reason"] and u["message"]


def test_events_typed_and_cite_real_ids(run, corpus):
    known = set(corpus.clauses) | set(corpus.interpretations)
    for res in _all(run):
        for e in res["events"]:
            assert e["type"]
            if "step" in e:
                assert "cell" in e
            if e["type"] in ("attack", "capture", "fragment", "sweep", "standoff", "flip", "depart", "arrive",
                             "declare", "cost", "resolve", "fizzle", "end", "no-attack", "stalemate", "vacated"):
                assert e.get("rule") in known, e
            if e.get("ruling") is not None:
                assert e["ruling"] in corpus.rulings
            for k in ("order_ties", "target_ties"):
                assert set(e.get(k, [])) <= known
            if e["type"] == "attack":
                assert {"actor", "target", "amount", "hp_before", "hp_after"} <= set(e)
        for a in res["assumed"]:
            assert a["rule"] in known


def test_every_piece_ends_in_one_place(run):
    for res in _all(run):
        places = list(res["positions"]) + res["fragments"] + res["removed"]
        places += [p for v in res["prisoners"].values() for p in v]
        assert sorted(places) == sorted(res["pieces"])


def test_rule_ids_resolve_with_flamer_rule(run):
    res = run(SAMPLES[0])
    ids = sorted({e["rule"] for e in res["events"] if e.get("rule")})
    out = subprocess.run([sys.executable, "-c",
                          "import sys\nfrom flamer_ref.corpus import load\nfrom flamer_ref.lookup import rule\n"
                          "c = load()\nfor i in sys.argv[1:]: rule(c, i, None)\nprint('ok')", *ids],
                         capture_output=True, text=True, cwd=ROOT)
    assert out.stdout.strip() == "ok", out.stderr
