"""`flamer fight`'s one path (issue 29): a dispute from the line to its answer, the engine asked once.

    fight = oneliner.build(corpus, line, …)            the scenario, as data (a dict)
    settled = settle(corpus, fight, display=…, ask=…)  parsed from that data, resolved once
    answerout.write(settled.answer, …)                 printed: JSON, text, Markdown, HTML

The scenario is never written as YAML to be read back (only `--save` writes it: saved_yaml). It is parsed
from the data with the keys a saved file has (oneliner.korean_doc), so a problem names the keys as that file
would. The run that answers is the run that tells what the verdict reads and nobody gave (runner.answer_data
with `needs`): the player is asked (`ask`), and the scenario, with the values given, resolved again — once
per set of values, and each course of the rules in force once (--compare: runner._Resolutions).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from .answer import Answer, answer
from .errors import FlamerError
from .oneliner import Fight, korean_doc, needs, player_json, supply


@dataclass(frozen=True)
class Settled:
    """A fight resolved: its scenario, and the answer or the error that refused it (raised by the caller
    after --save, which keeps a refused fight too)."""

    scn: object
    answer: Answer | None = None
    refused: FlamerError | None = None


def scenario(corpus, fight: Fight, display: str):
    """The fight's scenario, parsed from its data (a problem names the keys as the --save file has them).
    Raises the parser's error (oneliner.relocate points it at the line)."""
    from .engine.api import parse

    doc = korean_doc(fight.doc)
    if _past_the_gate(doc):
        # a value the file's reader refuses (yamlio's gate: a 23-digit stat, a list of 10,001 items): read
        # as the file would be, so the refusal is the file's own, word for word (the rare path only)
        from .engine import parse_scenario_text
        from .oneliner import to_yaml

        return parse_scenario_text(to_yaml(fight, None), display, corpus)
    return parse(doc, display, corpus)


def _past_the_gate(value) -> bool:
    """Whether a scenario's data holds what every YAML the tool reads is refused for (yamlio's limits on
    integers and on the items of one list or mapping)."""
    from .yamlio import MAX_INT, MAX_ITEMS

    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, bool):
            continue
        if isinstance(v, int):
            if abs(v) > MAX_INT:
                return True
        elif isinstance(v, (dict, list, tuple)):
            if len(v) > MAX_ITEMS:
                return True
            stack.extend(v.values() if isinstance(v, dict) else v)
    return False


def settle(corpus, fight: Fight, *, display: str, as_of: str | None = None, compare: str | None = None,
           ask: Callable[[list], dict], people: dict | None = None) -> Settled:
    """Resolve the fight. What the verdict reads and nobody gave stops the run (runner.is_need): `ask` gets
    those (oneliner.Missing, piece by piece) and returns (piece id, stat) → value, and the fight with the
    values is resolved again. A value given is never asked for again (a bug if it were)."""
    asked: set = set()
    while True:
        scn = scenario(corpus, fight, display)
        try:
            got = answer(scn, corpus, file=display, as_of=as_of, compare_with=compare, needs=True, people=people)
        except FlamerError as exc:
            from .runner import is_need

            if not is_need(exc):
                return Settled(scn, refused=exc)
            missing = needs(fight, exc)
            if any((m.piece, m.stat) in asked for m in missing):
                raise RuntimeError("a stat the player gave is still reported unknown") from None
            asked |= {(m.piece, m.stat) for m in missing}
            supply(fight, ask(missing))
            continue
        return Settled(scn, Answer(got.data, tuple(player_json(fight)), None, got.people))


def saved_yaml(fight: Fight, command: str | None) -> str:
    """The fight as the scenario file --save writes (Korean keys, the command in its `#` header), checked to
    read back as exactly the scenario resolved (oneliner.check_same)."""
    from .oneliner import check_same, to_yaml

    text = to_yaml(fight, command)
    check_same(text, fight)
    return text
