"""The reference outputs a person reads, for every id (issue 17, items 3 and 4): `flamer rule`, `card`,
`term`, `faq`, `rulings`, `example(s)`, `timing`, `search`, `cards` print none of the words of
tests/forbidden_words.py, cite clauses by number and title (an id only as a handle: an `id: …` line or
a `→ flamer …` command), and never print a data editor's note (`editor_note`), in text or in JSON."""

from __future__ import annotations

import re

import pytest

from inprocess import invoke

from flamer_ref.corpus import load

from forbidden_words import found

corpus = load()


def commands() -> list[tuple[str, ...]]:
    out: list[tuple[str, ...]] = [("rule", i) for i in (*corpus.clauses, *corpus.interpretations, *corpus.rulings)]
    out += [("card", n) for n in corpus.cards]
    out += [("term", t["term"]) for t in corpus.terms.values()] + [("term",)]
    out += [("faq", f) for f in corpus.faq] + [("faq",), ("rulings",), ("cards",), ("example",)]
    out += [("example", e) for e in corpus.examples]
    names = {c["name"] for c in corpus.cards.values()}
    names |= {f"{c['name']} {a['name']}" for c in corpus.cards.values() for a in c["abilities"]}
    out += [("timing", n) for n in sorted(names)]
    out += [("timing", t) for t in ("(대응)", "(전투)", "(이동)", "등장효과", "구조물", "맞대응")]
    out += [("search", *q.split()) for q in ("정착 기물 공격", "7단계 정리", "대응 스택", "확보", "9월 24일 판정",
                                             "맞대응 예시", "ㄷㅇㅅㅌ", "돈 얼마 들어와", "진내폭격")]
    return out


COMMANDS = commands()
#: an id a person may need as a handle: the `id: …` line, a `→ flamer …` command, the examples list
HANDLE = re.compile(r"^\s*(id: |→ flamer |예시 \d+개)|\(시나리오: flamer example ")
CITED_ID = re.compile(r"(?<![\w.])(?:%s)(?![\w.-])" % "|".join(
    re.escape(k) for k in sorted((*corpus.clauses, *corpus.interpretations), key=len, reverse=True)))


def stdout_of(*args) -> str:
    """What `flamer ARGS` prints, after checking it answered (exit 0)."""
    res = invoke(*args)
    assert res.exit_code == 0, (args, res.output)
    return res.stdout


@pytest.fixture(scope="module")
def outputs() -> dict:
    return {cmd: stdout_of(*cmd) for cmd in COMMANDS}


def test_there_are_outputs_for_every_id(outputs):
    assert len(outputs) > 300


def test_no_forbidden_word_in_any_reference_output(outputs):
    bad = {" ".join(cmd): found(text) for cmd, text in outputs.items() if found(text)}
    assert not bad, bad


def test_clauses_are_cited_by_number_not_id(outputs):
    bad = {}
    for cmd, text in outputs.items():
        lines = [ln for ln in text.splitlines() if not HANDLE.search(ln)]
        if cmd == ("example",):  # the list: title, then the id to type
            lines = [ln.rsplit(" ", 1)[0] for ln in lines]
        ids = sorted({m.group(0) for ln in lines for m in CITED_ID.finditer(ln)})
        if ids:
            bad[" ".join(cmd)] = ids
    assert not bad, bad
    assert "  - 6.9 정착 기물만 있는 셀(무호위 셀)도 전투" in outputs[("rule", "combat.step7.sweep")]
    assert "근거: 5.7 선언 시점에 하는 것 — 조건·비용·지정·플립" in outputs[("timing", "진내폭격")]


def test_rulings_show_the_korean_status_alone(outputs):
    text = outputs[("rulings",)]
    assert "2026-09-24 확정 — " in text and "(confirmed)" not in text


def test_editor_notes_are_never_printed():
    notes = [rec["editor_note"] for table in (corpus.clauses, corpus.interpretations, corpus.rulings, corpus.faq,
                                               corpus.terms, corpus.examples, corpus.cards, corpus.timings)
             for rec in table.values() if rec.get("editor_note")]
    notes += [a["editor_note"] for c in corpus.cards.values() for a in c["abilities"] if a.get("editor_note")]
    assert len(notes) >= 10
    for name, card in corpus.cards.items():
        for args in (("card", name), ("card", name, "--json"), ("timing", name), ("timing", name, "--json")):
            out = stdout_of(*args)
            for note in notes:
                assert note not in out, (args, note)
    out = stdout_of("search", "진내폭격", "null", "--json") + stdout_of("cards", "--json")
    assert not any(note in out for note in notes)
