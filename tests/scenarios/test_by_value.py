"""Issue 18, item 4: say what an unknown decides.

When a verdict reads a stat the pages do not give (미상) and the scenario does not either, `flamer
simulate` answers per range of that stat's values ("개미의 HP가 3 이하면 …, 4 이상이면 …") when the
ranges are few, and names the stat as before otherwise. The ranges come from following the one unknown
through the engine (flamer_ref/engine/probe.py): every comparison the run makes with it narrows the
values for which the run is the same.

The claim each answer makes is checked the hard way: the scenario is resolved again with every value
from the stat's least to least + 12 written into the file, and each must give the verdict of the range
that holds it. Hand-written cases (each page rule they rest on named) and seeded random combats.
"""

from __future__ import annotations

import copy
import json
import operator
import random

import pytest
import yaml

from flamer_ref import runner
from flamer_ref.corpus import load
from flamer_ref.engine.api import parse
from flamer_ref.engine.probe import PROBE, Lin, Probe, Untracked
from flamer_ref.errors import DataError
from inprocess import invoke

CORPUS = load()


def _combat(dgm: list[dict], bgm: list[dict], attacker: str = "DGM") -> dict:
    return {"kind": "combat", "as_of": "2026-10-01", "attacker": attacker, "cells": {"2,2": {"DGM": dgm, "BGM": bgm}}}


# The pages: 6.11 a hit lowers HP by ATK, HP 0 or less is captured at once; 6.8 the target is the
# opponent's highest-priority mobile piece (Lv, then current HP, then ATK); steps 4–5 repeat while both
# sides have a mobile piece (6.25).
CASES = {
    # 수문장 (Lv 3, HP 3, ATK 1) against 개미 of unknown HP and ATK 1: 개미 falls in round v unless 수문장
    # falls first in round 3 — HP 3 or less loses, 4 or more wins
    "hp-decides-who-falls": (_combat([{"id": "gk", "card": "수문장"}],
                                     [{"id": "ant", "card": "개미", "lv": 1, "atk": 1}]), "hp", [(1, 3), (4, None)]),
    # 개미 of unknown ATK attacks first against two 수문장 (HP 3 and 2): ATK 0 or 1 cannot take both
    "atk-decides-the-race": (_combat([{"id": "gk", "card": "수문장"}, {"id": "gk2", "card": "수문장", "hp": 2}],
                                     [{"id": "ant", "card": "개미", "lv": 1, "hp": 5}], attacker="BGM"),
                             "atk", [(0, 1), (2, None)]),
    # two Lv 3 targets: 개미's unknown HP against a piece of HP 3 decides which one is hit first (6.8)
    "hp-decides-the-target": (_combat([{"id": "gk", "card": "수문장"}, {"id": "g2", "card": "수문장", "hp": 2}],
                                      [{"id": "ant", "card": "개미", "lv": 3, "atk": 1},
                                       {"id": "t", "name": "임시", "lv": 3, "hp": 3, "atk": 2}]), "hp", None),
    "atk-against-three": (_combat([{"id": "gk", "card": "수문장"}, {"id": "g2", "card": "수문장"},
                                   {"id": "g3", "card": "수문장", "hp": 5}],
                                  [{"id": "ant", "card": "개미", "lv": 1, "hp": 9}], attacker="BGM"), "atk", None),
}

ROUND = {
    "kind": "round", "as_of": "2026-10-01", "player": "DGM", "vp": {"DGM": 3, "BGM": 1}, "dor": {"DGM": 20, "BGM": 0},
    "board": {"width": 7, "height": 6, "adjacency": "square8", "homes": {"BGM": ["5,5", "6,4"]},
              "values": {"2,3": 1}},
    "cells": {"1,2": {"DGM": [{"id": "gk", "card": "수문장"}]},
              "2,3": {"BGM": [{"id": "ant", "card": "개미", "lv": 1, "atk": 1}]}},
    "move": {"activate": ["1,2"], "moves": [{"piece": "gk", "path": ["2,3"]}]},
}
GAME = {
    "kind": "game", "as_of": "2026-10-01", "first_player": "DGM", "vp": {"DGM": 3, "BGM": 1}, "dor": {"DGM": 10, "BGM": 4},
    "board": ROUND["board"],
    "cells": {**ROUND["cells"], "4,4": {"BGM": [{"id": "g2", "card": "거신"}]}},
    "rounds": [{"player": "DGM", "move": ROUND["move"]},
               {"player": "BGM", "move": {"activate": ["4,4"], "moves": [{"piece": "g2", "path": ["3,3"]}]}}],
}


def _give(doc, card: str, stat: str, value: int) -> dict:
    """The file with `stat: value` written on every piece of `card` that does not give it."""
    doc = copy.deepcopy(doc)

    def walk(o):
        if isinstance(o, dict):
            if o.get("card") == card and stat not in o:
                o[stat] = value
            for v in o.values():
                walk(v)
        elif isinstance(o, list):
            for v in o:
                walk(v)
    walk(doc)
    return doc


def _key(res: dict, card: str, stat: str) -> str:
    """The verdict key of a result, the given stat itself left out of a round's or game's final pieces
    (the per-range answer shows it as 미상, the file with the value shows the value)."""
    res = copy.deepcopy(res)
    for cell in ((res.get("final") or {}).get("cells") or {}).values():
        for plist in cell.values():
            for p in plist:
                if p.get("card") == card:
                    p[stat] = None
    return runner._verdict_key(res)


def _answer(doc) -> dict:
    return runner.answer(parse(copy.deepcopy(doc), "t.yaml", CORPUS), CORPUS, file="t.yaml")


def _check_claim(doc, out) -> None:
    """Every value from the least to least + 12, written into the file, gives its range's verdict."""
    dep = out["depends_on"]
    for v in range(dep["least"], dep["least"] + 13):
        res = runner.result_json(parse(_give(doc, dep["card"], dep["stat"], v), "t.yaml", CORPUS), CORPUS)
        r = next(r for r in out["ranges"] if r["from"] <= v and (r["to"] is None or v <= r["to"]))
        assert _key(res, dep["card"], dep["stat"]) == _key(r["result"], dep["card"], dep["stat"]), (dep, v, r["from"], r["to"])


@pytest.mark.parametrize("name", sorted(CASES))
def test_each_range_is_what_the_value_gives(name):
    doc, stat, expected = CASES[name]
    out = _answer(doc)
    assert out["kind"] == "by-value" and out["depends_on"]["stat"] == stat and out["depends_on"]["card"] == "개미"
    if expected:
        assert [(r["from"], r["to"]) for r in out["ranges"]] == expected
    assert out["ranges"][0]["from"] == out["depends_on"]["least"] and out["ranges"][-1]["to"] is None
    assert all(a["to"] + 1 == b["from"] for a, b in zip(out["ranges"], out["ranges"][1:]))  # no gap, no overlap
    assert len({_key(r["result"], "개미", stat) for r in out["ranges"]}) == len(out["ranges"])  # neighbours merged
    _check_claim(doc, out)


@pytest.mark.parametrize("doc", [ROUND, GAME], ids=["round", "game"])
def test_a_round_and_a_game_are_answered_per_range_too(doc):
    out = _answer(doc)
    assert out["kind"] == "by-value" and [(r["from"], r["to"]) for r in out["ranges"]] == [(1, 3), (4, None)]
    assert [r["result"]["kind"] for r in out["ranges"]] == [doc["kind"]] * 2
    _check_claim(doc, out)


def _random_combat(rng: random.Random) -> dict:
    """A small combat: known piece cards and one 개미 missing one of Lv/HP/ATK (the others given)."""
    known = ["수문장", "거신", "별마대", "장인", "갑사"]
    ant = {"id": "ant", "card": "개미", "lv": rng.randint(0, 7), "hp": rng.randint(1, 9), "atk": rng.randint(0, 4),
           "cost": rng.randint(0, 3)}
    del ant[rng.choice(["lv", "hp", "atk"])]
    if rng.random() < 0.3:
        ant["state"] = "settled"
    dgm = [{"id": f"d{i}", "card": rng.choice(known), "hp": rng.randint(1, 6), "atk": rng.randint(0, 3),
            "cost": rng.randint(0, 3)} for i in range(rng.randint(1, 3))]
    bgm = [ant] + [{"id": f"b{i}", "name": "임시", "lv": rng.randint(0, 7), "hp": rng.randint(1, 6),
                    "atk": rng.randint(0, 3), "cost": rng.randint(0, 3)} for i in range(rng.randint(0, 2))]
    return _combat(dgm, bgm, attacker=rng.choice(["DGM", "BGM"]))


def test_seeded_random_combats_keep_their_claims():
    """150 random combats: each is answered as a result (the value is never read), per range (every
    claim checked value by value), or with the stat named (too many ranges, or something else unknown)."""
    rng = random.Random(18)
    kinds = {"result": 0, "by-value": 0, "named": 0}
    for _ in range(150):
        doc = _random_combat(rng)
        try:
            out = _answer(doc)
        except DataError as exc:
            assert runner.is_need(exc), exc.message
            kinds["named"] += 1
            continue
        if out["kind"] != "by-value":
            kinds["result"] += 1
            continue
        kinds["by-value"] += 1
        _check_claim(doc, out)
    assert kinds["by-value"] >= 40, kinds  # the generator does reach the feature


def test_more_ranges_than_a_reader_takes_name_the_stat(monkeypatch):
    doc = CASES["hp-decides-who-falls"][0]
    monkeypatch.setattr(runner, "BY_VALUE_RANGES", 1)
    with pytest.raises(DataError) as exc:
        _answer(doc)
    assert runner.is_need(exc.value) and exc.value.problems[0].params["stat"] == "hp"


def test_two_unknowns_still_name_the_stat():
    """수문장 against a 개미 with nothing given: HP decides the hit, then ATK the answer — two unknowns
    at once are not split into ranges (the error names what to write, as before)."""
    r = invoke("simulate", "-", input=yaml.safe_dump(_combat([{"id": "gk", "card": "수문장"}],
                                                            [{"id": "ant", "card": "개미", "lv": 1}]), allow_unicode=True))
    assert r.exit_code == 1 and "ant" in r.stderr and "알 수 없습니다" in r.stderr, r.stderr


# ------------------------------------------------------------------------ the CLI ----
def _run(*opts, doc=None):
    text = yaml.safe_dump(doc or CASES["hp-decides-who-falls"][0], allow_unicode=True)
    r = invoke("simulate", "-", *opts, input=text)
    assert r.exit_code == 0, r.stderr + r.stdout
    return r.stdout


def test_the_answer_leads_with_the_verdict_per_range():
    out = _run()
    lines = out.splitlines()
    assert lines[0] == "결론: 개미의 HP에 따라 판정이 2가지로 갈림 — 카드 데이터에도 시나리오에도 없는 값(미상)"
    assert lines[1] == "개미의 HP가 3 이하면: DGM이 (2,2)를 점령 · DGM이 개미를 포획 · 미해결 1건"  # 개미 불사
    assert lines[2] == "개미의 HP가 4 이상이면: BGM이 (2,2)를 점령 · BGM이 수문장을 포획"
    assert "시나리오 파일의 그 기물에 체력: 값(hp: 값)을 적으세요" in " ".join(out.split())  # how to settle it
    assert "━━ 개미의 HP가 3 이하일 때 — HP 1로 푼 풀이 (풀이 속 수치는 HP가 1일 때의 것) ━━" in out
    assert "━━ 개미의 HP가 4 이상일 때 — HP 4로 푼 풀이" in out
    assert out.count("전투 판정") == 2  # each range's own explanation follows
    assert "회차에 (2,2)" not in "\n".join(lines[:3])  # the rounds differ inside a range: not said there


def test_json_shape():
    obj = json.loads(_run("--json"))
    assert list(obj) == ["kind", "file", "as_of", "depends_on", "ranges"]
    assert obj["kind"] == "by-value" and obj["file"] == "-" and obj["as_of"] == "2026-10-01"
    assert obj["depends_on"] == {"piece": "ant", "card": "개미", "label": "개미", "stat": "hp", "stat_name": "HP",
                                 "least": 1, "why": {"need": "hp-left"}}
    assert [{k: r[k] for k in ("from", "to", "value")} for r in obj["ranges"]] == [
        {"from": 1, "to": 3, "value": 1}, {"from": 4, "to": None, "value": 4}]
    assert [r["result"]["prisoners"] for r in obj["ranges"]] == [{"DGM": ["ant"], "BGM": []}, {"DGM": [], "BGM": ["gk"]}]


def test_brief_and_other_formats():
    brief = _run("--brief")
    assert brief.splitlines() == _run().splitlines()[:3]
    v = json.loads(_run("--brief", "--json"))
    assert v["verdict"]["kind"] == "by-value" and [r["to"] for r in v["verdict"]["ranges"]] == [3, None]
    assert len(v["lines"]) == 3
    md = _run("--format", "md")
    assert md.startswith("```text\n결론: 개미의 HP에 따라")
    html = _run("--format", "html")
    assert "개미의 HP가 4 이상이면" in html and "<script" not in html


# ------------------------------------------------------------------- the probe ----
@pytest.mark.parametrize("a,b,op,x,lo,hi", [
    (1, -3, operator.le, 1, 1, 3),          # v − 3 ≤ 0 holds for v ≤ 3
    (1, -3, operator.le, 5, 4, None),       # and fails from 4 on
    (1, -3, operator.eq, 3, 3, 3),          # equal at 3 only
    (1, -3, operator.ne, 1, 1, 2),          # unequal below 3 (the side x is on)
    (1, -3, operator.ne, 7, 4, None),
    (-2, 5, operator.gt, 1, 1, 2),          # −2v + 5 > 0 for v ≤ 2
    (2, -5, operator.lt, 3, 3, None),       # 2v − 5 < 0 fails for v ≥ 3
])
def test_a_comparison_narrows_to_where_it_answers_the_same(a, b, op, x, lo, hi):
    p = Probe(("card", "개미"), "hp", x, lo=1)
    assert p.keep(a, b, op) == op(a * x + b, 0)
    assert (p.lo, p.hi) == (lo, hi)


def test_arithmetic_keeps_the_form_and_the_rest_is_refused():
    p = Probe(("card", "개미"), "hp", 4, lo=1)
    v = p.value()
    hp = v + 2 - 3  # a change, then damage
    assert isinstance(hp, Lin) and int(hp) == 3 and (hp.a, hp.b) == (1, -1)
    assert -hp == -3 and 0 - hp == -3 and (hp - v) == -1 and not isinstance(hp - v, Lin)
    p2 = Probe(("card", "개미"), "hp", 4, lo=1)
    assert 10 // p2.value() == 2 and (p2.lo, p2.hi) == (4, 5)  # floor(10/v) = 2 for v in 4..5
    with pytest.raises(Untracked):
        v * v
    with pytest.raises(Untracked):
        v / 2
    p3 = Probe(("card", "개미"), "hp", 4, lo=1)
    hash(p3.value())  # a set or a dict may compare by hash: the run then holds for x alone
    assert (p3.lo, p3.hi) == (4, 4)


def test_the_probe_is_read_only_for_its_own_stat():
    """The probe answers the unknown it follows; another unknown stops the run as before."""
    doc = _combat([{"id": "gk", "card": "수문장"}], [{"id": "ant", "card": "개미", "lv": 1}])
    scn = parse(doc, "t.yaml", CORPUS)
    token = PROBE.set(Probe(("card", "개미"), "hp", 5, lo=1))
    try:
        with pytest.raises(DataError) as exc:
            runner.result_json(scn, CORPUS)
    finally:
        PROBE.reset(token)
    assert [p.params["stat"] for p in exc.value.problems] == ["atk"]
