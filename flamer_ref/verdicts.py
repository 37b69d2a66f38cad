"""Verdicts of the bundled cases and of any scenario, compared between two states of the rules.

What `flamer impact` (a draft against the data), `flamer diff` (two dates or two data folders), the
ruling linter of `flamer validate` and the handbook's rulings timeline share:

- `cases(corpus)`: every example and FAQ scenario (`ID` or `ID#n`, as `flamer examples` names them);
- `resolve(corpus, scn, as_of)`: what `flamer simulate` answers — a result JSON with its words, or the
  error it refuses with (`Outcome`);
- `Outcome.key`: the verdict as data (verdict.build) without the clauses it cites — two outcomes with the
  same key are the same verdict (a citation, a ruling's date or title is not a verdict);
- `Outcome.headline(...)`: the verdict's lines as `flamer simulate --brief` prints them.

A change of verdict is a change of key. This room runs the engine (runner) and words (render); the
data, the engine and the search know nothing of it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from .errors import DataError, FlamerError, Forbidden


@dataclass
class Case:
    id: str  # ID or ID#n
    source: str  # "example" | "faq"
    owner: str  # the example's or FAQ entry's id
    title: str
    scenario: Any  # the scenario object as the data holds it


def cases(corpus) -> list[Case]:
    """Every example and FAQ scenario of the corpus, in the order `flamer examples` runs them."""
    out: list[Case] = []
    items = [("example", eid, e, e["title"]) for eid, e in corpus.examples.items()]
    items += [("faq", fid, f, f["question"]) for fid, f in corpus.faq.items()]
    for source, oid, item, title in items:
        scn = item.get("scenario")
        if not scn:
            continue
        if isinstance(scn, list):
            out += [Case(f"{oid}#{i + 1}", source, oid, title, s) for i, s in enumerate(scn)]
        else:
            out.append(Case(oid, source, oid, title, scn))
    return out


def _strip(obj):
    """A verdict without what it cites: clauses, rulings and interpretations are reasons, not the verdict."""
    if isinstance(obj, dict):
        return {k: _strip(v) for k, v in obj.items() if k not in ("clauses", "rule", "ruling", "interpretation")}
    if isinstance(obj, list):
        return [_strip(v) for v in obj]
    return obj


def verdict_key(data: dict) -> str:
    """The verdict of a result JSON (or of an answer of `flamer simulate`) as a comparable string."""
    from .verdict import build

    return json.dumps(_strip(build(data)), ensure_ascii=False, sort_keys=True, default=str)


def error_key(exc: FlamerError) -> str:
    """A refusal as a comparable string: why (the reason or the problems' codes), not the words, which
    name the day it was asked for."""
    if isinstance(exc, Forbidden):
        return f"forbidden:{exc.reason}:{exc.rule}"
    problems = getattr(exc, "problems", None) or []
    return "invalid:" + "|".join(sorted(f"{p.key}:{p.code or p.message}" for p in problems))


@dataclass
class Outcome:
    """What `flamer simulate` answers for one scenario on one state of the rules."""

    corpus: Any
    scn: Any
    data: dict | None = None  # the answer (result JSON with its words), or None when refused
    error: FlamerError | None = None
    _key: str | None = field(default=None, repr=False)

    @property
    def key(self) -> str:
        if self._key is None:
            self._key = verdict_key(self.data) if self.data is not None else error_key(self.error)
        return self._key

    def lines(self) -> list[str]:
        """The verdict as `flamer simulate --brief` prints it (an error: its message's first line)."""
        if self.data is None:
            return [self.error.message.splitlines()[0]]
        from . import runner
        from .corpus import citing
        from .render import render

        people = {"pieces": {p.id: {"label": p.label} for p in self.scn.pieces}} if self.scn.kind == "combat" else {}
        with citing(self.corpus):
            text = render("simulate/_verdict.txt.j2", data=self.data, refs=runner.refs(self.corpus, self.data),
                          brief=True, fmt="text", people=people, full=False, short=False)
        return text.rstrip("\n").splitlines()

    def headline(self) -> str:
        return "\n".join(self.lines())


def resolve(corpus, scn, as_of: str | None, file: str = "-") -> Outcome:
    """`flamer simulate FILE --as-of as_of` on this corpus: the answer, or the refusal."""
    from . import runner
    from .corpus import citing

    try:
        with citing(corpus):
            return Outcome(corpus, scn, data=runner.answer(scn, corpus, file=file, as_of=as_of))
    except (DataError, Forbidden, FlamerError) as exc:
        return Outcome(corpus, scn, error=exc)


def quick_key(corpus, scn, as_of: str | None) -> tuple[str, set]:
    """(the verdict's key, the decisions the resolution asked) from the engine's result alone — no words, no
    answer per range of an unknown value (its refusal's key instead): what a check that only compares verdicts
    needs, several times cheaper than `resolve`."""
    from .engine.api import run
    from .engine.decisions import recording

    with recording() as asked:
        try:
            key = verdict_key(run(scn, corpus, as_of).to_json())
        except (DataError, Forbidden, FlamerError) as exc:
            key = error_key(exc)
    return key, asked


def parse_case(corpus, case: Case):
    """The case's scenario parsed against this corpus's cards, or None when it does not parse there."""
    from .engine.api import parse

    try:
        return parse(case.scenario, case.id, corpus)
    except FlamerError:
        return None


def changed_line(before: list[str], after: list[str]) -> tuple[str, str]:
    """The first pair of verdict lines that differ, leaving out the cited clauses ('근거:'); the first lines
    when only those differ."""
    keep = [(b, a) for b, a in zip(before, after) if not (b.startswith("근거") and a.startswith("근거"))]
    for b, a in keep:
        if b != a:
            return b, a
    if len(before) != len(after):
        return before[-1] if before else "", after[-1] if after else ""
    return (before[0] if before else ""), (after[0] if after else "")
