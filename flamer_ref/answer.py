"""The answer to a scenario, as one object (issue 29): what `flamer simulate` and `flamer fight` print, in
every format, is made from an `Answer` — the JSON, text, Markdown and HTML renderers (flamer_ref/answerout.py)
walk it, and nothing runs the engine again to print it.

`Answer.data` is the answer JSON as the runner gives it (runner.answer_data): a result of the scenario's
kind, or `compare` (two dates), `by-value` (an unknown stat's ranges), `branches` (orders of play). Its Korean
words are made once, by the templates, where it is printed (answerout: render.word_result).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Answer:
    """One scenario's answer and what goes out with it."""

    data: dict
    #: flamer fight: the player's own values for stats the card data leaves unknown (`player_stats`)
    player: tuple[dict, ...] = ()
    #: --link: the calculator link that opens the same answer
    link: str | None = None
    #: what the player wrote, for the words only (templates/simulate/_people.j2); never in the JSON
    people: dict = field(default_factory=dict)

    @property
    def kind(self) -> str:
        return self.data.get("kind", "combat")

    @property
    def one(self) -> bool:
        """One answer (a result, or the same scenario at two dates), not a list of branches: the player's
        values go with it."""
        return self.kind != "branches"


def answer(scn, corpus, *, file: str, as_of: str | None = None, compare_with: str | None = None,
           all_branches: bool = False, needs: bool = False, player=(), link: str | None = None,
           people: dict | None = None) -> Answer:
    """Resolve a parsed scenario once (each course of the rules in force once: runner.answer_data) into its
    Answer. needs: a stat the verdict reads and nobody gave stops it (runner.is_need), for the fight to ask."""
    from .runner import answer_data

    data = answer_data(scn, corpus, file=file, as_of=as_of, compare_with=compare_with, all_branches=all_branches,
                       needs=needs)
    return Answer(data, tuple(player or ()), link, _people(scn, people))


def _people(scn, people: dict | None) -> dict:
    """The words' view of the pieces: --all-branches outcomes carry no pieces, so a combat's names come from
    the scenario."""
    out = dict(people or {})
    if scn.kind == "combat":
        out.setdefault("pieces", {p.id: {"label": p.label} for p in scn.pieces})
    return out
