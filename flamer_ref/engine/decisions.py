"""The decisions a dated ruling can set, and the one service that says which value holds on a day.

The engine names *decisions* — a switch such as "step 7 sweeps the remaining settled pieces" — and never
a date or a ruling. `rules/rulings.yaml` says which ruling sets which decision from which date
(`sets: {step7-sweeps-settled: true}`) and which later ruling withdraws an earlier one (`withdraws:`).
`rules_at(corpus, as_of)` answers, for every room that needs it (combat, field play, round, movement,
the runner's --compare), "what is this decision on this day, and by which ruling?"; what the engine
cites is that ruling. Moving a ruling's date in the data moves the behaviour; a new ruling that sets a
decision of this catalogue is a data change only.

The catalogue (DECISIONS) gives per decision: the clause it belongs to, the value before any ruling
(`default`: the rule the pages state or clearly imply before the ruling — the ruling's `earlier_rule` —,
None when the pages do not give it), the values the engine has code for (what a ruling may set), and what
the engine computes while the value is unknown (`while_unknown`, reported as a `ruling-not-in-force` gap).

An answer (`Answer`) carries `value` (None: unknown), `applied` (the value the engine computes with),
`ruling` (the ruling in force that set the value), `cite` (what an explanation cites: that ruling; else,
when the ruling that had set it is withdrawn, the withdrawing ruling — it decides now — with `withdrawn`
naming the withdrawn one; else the ruling that sets it later, not yet in force on that day), `date` (the
cited ruling's date, from the data).
"""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from ..errors import DataError, Problem
from ..inforce import InForce, withdrawers


@dataclass(frozen=True)
class Decision:
    name: str
    clause: str  # the clause the decision belongs to (a ruling that sets it lists this clause)
    default: Any  # the value with no ruling in force; None: the pages do not give the rule before
    values: tuple  # the values the engine has code for: what a ruling may set
    while_unknown: Any  # what the engine computes while the value is unknown (reported as a gap)
    about: str  # what it decides, for docs/ENGINE.md and `flamer validate`'s words


DECISIONS: dict[str, Decision] = {d.name: d for d in (
    Decision("entry-effect-ends-with-card", "field.entry-effect.duration", False, (True, False), False,
             "an entry effect's continuous part (the Lv 6 screen, the amplifier's bond) ends when its card "
             "retires or leaves the field; false: it stays once the card has entered (the earlier rule)"),
    Decision("enemy-cell-stops-move", "move.path.enemy-stop", True, (True,), True,
             "a move ends in the first cell with an enemy piece (structures included); no other rule is coded"),
    Decision("mobile-structures-attack", "combat.structures", None, (True, False), False,
             "a mobile structure attacks in steps 4-5 with its own ATK; unknown: it does not attack (gap)"),
    Decision("uncover-is-entry", "field.uncover", None, (True, False), True,
             "a piece card uncovered face up counts as entering: its entry effect fires again; unknown: it "
             "does (gap)"),
    Decision("counter-with-set-cards", "response.counter", False, (True, False), False,
             "the turn player may counter on a response cell with a set response card in his own round; "
             "false: refused (the earlier rule)"),
    Decision("counter-with-piece-sp", "response.counter.requirements", None, (True, False), True,
             "the turn player may counter by turning up a settled piece with a response SP; unknown: "
             "accepted (gap)"),
    Decision("same-round-uncover-stays-settled", "field.uncover", None, (True, False), True,
             "the pieces of a card retired and uncovered in the same round stay settled; false: they turn "
             "mobile as after any uncover; unknown: they stay (gap)"),
    Decision("vacated-combat-continues", "response.resolve.depart", False, (True, False), False,
             "a combat cell emptied of one side by the stack's departures still goes through steps 1-7; "
             "false: it ends on the spot (the earlier rule)"),
    Decision("cost-emptied-cell-fights", "response.cost.emptied-cell", None, (True, False), False,
             "an encounter cell emptied of one side by response-turn costs still opens its combat (steps "
             "1-7); unknown: it ends on the spot as a departure did (gap, interp.vacated.cost-before-ruling)"),
    Decision("structures-immovable-by-effects", "move.structures", None, (True, False), False,
             "an effect that does not name structures cannot move one (the declaration is refused); unknown: "
             "the structure moves (gap)"),
    Decision("step7-sweeps-settled", "combat.step7.sweep", None, (True, False), False,
             "step 7 captures the opponent's remaining settled pieces when my piece stayed and attacked and "
             "the opponent has no mobile piece; unknown: no sweep (gap)"),
    Decision("explosive-destroy-is-cost", "response.cost.explosive", None, (True,), True,
             "destroying an explosive for its response SP is a cost paid at declaration; unknown: computed "
             "so (gap)"),
)}


@dataclass(frozen=True)
class Answer:
    decision: str
    value: Any  # None: unknown (no ruling in force gives it and the pages give no earlier rule)
    applied: Any  # the value the engine computes with (value, else the decision's while_unknown)
    ruling: str | None  # the ruling in force that set the value
    cite: str | None  # what an explanation cites (see the module's doc)
    date: str | None  # the cited ruling's date (from the data)
    withdrawn: str | None = None  # the ruling that had set it, withdrawn on this day by `cite`

    @property
    def known(self) -> bool:
        return self.value is not None

    def same(self, other: "Answer") -> bool:
        """Would the engine decide and cite alike under both answers?"""
        return (self.value, self.applied, self.cite, self.withdrawn) == (
            other.value, other.applied, other.cite, other.withdrawn)


class _Table:
    """The rulings of one corpus read for the decisions: who sets what, who withdraws whom."""

    def __init__(self, rulings: dict):
        self.rulings = rulings
        self.order = sorted(rulings, key=lambda i: (rulings[i]["date"], i))
        self.by = withdrawers(rulings)
        self.setters: dict[str, list[tuple[str, Any]]] = {}
        for rid in self.order:
            for name, v in (rulings[rid].get("sets") or {}).items():
                self.setters.setdefault(name, []).append((rid, v))
        self._memo: dict = {}

    def answers(self, as_of: str, overrides: dict | None) -> dict:
        key = (as_of, tuple(sorted((overrides or {}).items())))
        got = self._memo.get(key)
        if got is None:
            if len(self._memo) > 256:
                self._memo.clear()
            got = self._memo[key] = {}
            got["_on"] = InForce(self.rulings, as_of, overrides, self.by)
        return got

    def answer(self, name: str, as_of: str, overrides: dict | None) -> Answer:
        memo = self.answers(as_of, overrides)
        got = memo.get(name)
        if got is None:
            got = memo[name] = self._answer(name, memo["_on"])
        return got

    def _answer(self, name: str, on: InForce) -> Answer:
        d = DECISIONS[name]
        setters = self.setters.get(name, ())
        value, ruling = d.default, None
        for rid, v in setters:  # oldest first: the latest ruling in force wins
            if on(rid):
                value, ruling = v, rid
        cite, withdrawn = ruling, None
        if cite is None:
            past = [rid for rid, _ in setters if self.rulings[rid]["date"] <= on.as_of]
            if past:  # dated, not in force: withdrawn (the withdrawal decides now), or forced off
                by = on.withdrawn_by(past[-1])
                cite, withdrawn = (by, past[-1]) if by is not None else (past[-1], None)
            else:  # the ruling that sets it later
                cite = next((rid for rid, _ in setters), None)
        applied = d.while_unknown if value is None else value
        return Answer(name, value, applied, ruling, cite, self.rulings[cite]["date"] if cite else None, withdrawn)

    def rulings_of(self, name: str) -> list[str]:
        """The rulings that set `name`, oldest first, each followed by the rulings that withdraw it."""
        out: list[str] = []
        for rid, _ in self.setters.get(name, ()):
            out.append(rid)
            out.extend(self.by.get(rid, ()))
        return out


#: the decisions asked by every resolution run inside `recording()` (any kind: combat, field, round, …)
_ASKED: "ContextVar[set | None]" = ContextVar("flamer_decisions_asked", default=None)


@contextmanager
def recording():
    """Within this block, every decision any resolution asks is added to the set it yields — also when the
    resolution is refused (a result's `decisions_consulted` is lost with it). What `flamer impact` and the
    linter of `flamer validate` use to skip what a change of decisions cannot touch."""
    asked: set = set()
    token = _ASKED.set(asked)
    try:
        yield asked
    finally:
        _ASKED.reset(token)


class Rules:
    """The decisions on one day (with `overrides`: {ruling id: in force?}), for one resolution: it records
    the decisions asked (`consulted`) — what the engine's result depends on besides the scenario."""

    def __init__(self, table: _Table, as_of: str, overrides: dict | None = None):
        self.table, self.as_of, self.overrides = table, as_of, dict(overrides or {})
        self.consulted: list[str] = []
        self._seen: set[str] = set()

    def ask(self, name: str) -> Answer:
        if name not in self._seen:
            self._seen.add(name)
            self.consulted.append(name)
            asked = _ASKED.get()
            if asked is not None:
                asked.add(name)
        return self.table.answer(name, self.as_of, self.overrides)

    def peek(self, name: str) -> Answer:
        """The answer without recording it (comparing two days, not deciding)."""
        return self.table.answer(name, self.as_of, self.overrides)

    def rulings_consulted(self) -> list[str]:
        """The rulings behind the decisions asked, in the order asked (each decision's rulings oldest first)."""
        out: list[str] = []
        seen: set[str] = set()
        for name in self.consulted:
            for rid in self.table.rulings_of(name):
                if rid not in seen:
                    seen.add(rid)
                    out.append(rid)
        return out


def table_of(corpus) -> _Table:
    """The corpus's rulings read for the decisions, checked once per corpus (DataError: a decision the
    engine does not name, or a value it has no code for)."""
    got = corpus.__dict__.get("_decisions")
    if got is None:
        problems = check_sets(corpus)
        if problems:
            raise DataError(problems)
        got = corpus.__dict__["_decisions"] = _Table(corpus.rulings)
    return got


def rules_at(corpus, as_of: str, overrides: dict | None = None) -> Rules:
    """The decisions on `as_of` (with `overrides`) for one resolution."""
    return Rules(table_of(corpus), as_of, overrides)


def _shown(v) -> str:
    return {True: "true", False: "false"}.get(v, str(v)) if isinstance(v, bool) else str(v)


def check_sets(corpus) -> list[Problem]:
    """Every decision a ruling sets is one the engine names, set to a value the engine has code for."""
    from difflib import get_close_matches

    problems = []
    for rid, r in corpus.rulings.items():
        at = r.get("at") or {}
        for name, v in (r.get("sets") or {}).items():
            d = DECISIONS.get(name)
            if d is None:
                near = get_close_matches(name, list(DECISIONS), n=1, cutoff=0.5)
                problems.append(Problem(at.get("file", ""), at.get("sets"), f"sets.{name}", code="decision-unknown",
                                        params={"ruling": rid, "decision": name, "near": near[0] if near else None,
                                                "decisions": list(DECISIONS)}))
            elif v not in d.values or type(v) is not type(d.values[0]):
                problems.append(Problem(at.get("file", ""), at.get("sets"), f"sets.{name}", code="decision-value",
                                        params={"ruling": rid, "decision": name, "value": _shown(v),
                                                "allowed": [_shown(x) for x in d.values]}))
    return problems


def check_clauses(corpus) -> list[Problem]:
    """A ruling that sets a decision lists the decision's clause among its `clauses` (what it touches)."""
    problems = []
    for rid, r in corpus.rulings.items():
        at = r.get("at") or {}
        for name in r.get("sets") or {}:
            d = DECISIONS.get(name)
            if d is not None and d.clause not in r["clauses"] and d.clause in corpus.clauses:
                problems.append(Problem(at.get("file", ""), at.get("clauses") or at.get("line"), "clauses",
                                        code="decision-clause-missing",
                                        params={"ruling": rid, "decision": name, "clause": d.clause}))
    return problems
