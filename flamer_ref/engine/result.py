"""Frozen result objects of a combat resolution, and their JSON form.

`CombatResult.to_json()` gives exactly the result JSON of
docs/SCENARIOS.md (`kind`, `as_of`, `cells`, `prisoners`, `fragments`,
`events`, `unresolved`) plus: `attacker`, `defender`, `order` (the combat order
used), `assumed` (choices the engine had to assume, e.g. that order),
`removed` (pieces removed from the board by a cost, not captured),
`positions` (piece → cell of every piece left on the board), `pieces` (the
pieces as the scenario gave them) and `rulings_consulted`.

Events
======

Every event has ``type``. Events of one cell's combat have ``cell`` and
``step`` (and ``round`` in steps 4–6). Every decision names the clause that
made it in ``rule`` (a clause or interpretation id, see ``flamer rule ID``) and,
where a dated ruling decided it, the ruling id in ``ruling``. Events of the
response turn (대응턴) have ``phase: "response"`` and no step.

============  ==========================================================================================
type          fields (besides type, cell, step, round, rule, ruling)
============  ==========================================================================================
step          steps 1–7 of a combat. Step 1: ``skipped`` (no (전투) card). Step 2: ``empty`` with ``why``
              (``resolved-earlier``: a later combat, the stack was resolved in the first one;
              ``no-stack``). Steps 4/5: ``order`` (the acting side's mobile pieces, in attack order).
              Step 6: ``mobile`` ({side: [ids]}) and ``next`` (``repeat`` | ``step7`` | ``stalemate`` |
              ``round-limit``)
field         ``side``, ``effect`` (``병풍`` | ``trash`` | ``uncover`` | ``removed``), ``card`` (the card whose
              pieces change / the card trashed / the card that came back / the card that left), ``source``
              (the card giving the effect), ``pieces``, ``lv``, ``slot`` (1-based); ``phase: "setup"`` before
              the combats, else ``cell`` and ``step`` (or ``phase: "response"`` for a cost). ``trash``: ``under``
              (the card it covered, which comes back at once). ``uncover`` (field.uncover): ``face``,
              ``same_round``, ``pieces`` (turned mobile at once, each with a ``flip`` event); a returning
              별마대's 병풍 fires again (a ``병풍`` event with ``why: uncover``). ``removed``
              (field.kind-exhausted): the kind's limit was used up (the scenario's ``exhausted``) and its
              last piece ``last`` left the board — the card leaves, its 등장효과 ends (``병풍`` with
              ``why: removed``, ``card: null``); ``interpretation`` (``interp.screen.leftmost``) for 병풍
declare       ``phase``, ``index`` (position in the file's list), ``side``, ``role``, ``card``, ``ability``,
              ``piece`` (the piece whose SP is declared), ``target``, ``chosen_cell``, ``applies`` (cells the
              effect applies to), ``counter`` (a 맞대응), ``effect`` (the primitives), ``inline`` (effect
              given in the scenario)
cost          ``phase``, ``index``, ``piece``, ``side``, ``action`` (``destroy``), ``result`` (``removed`` |
              ``fragment``)
resolve       ``index``, ``side``, ``card``, ``ability``, ``at`` (the combat whose step resolves it)
fizzle        ``index``, ``reason`` (``target-gone`` | ``already-in-state`` | ``no-target`` |
              ``combat-ended`` | ``move-blocked`` | ``build-blocked``), ``piece``, ``where`` (the cell concerned),
              ``primitive``
flip          ``piece``, ``from``, ``to``, ``phase`` (``response``: an SP declaration) or step
depart        ``piece``, ``to`` — the piece left ``cell``; ``from_combat`` (``cell`` holds a combat this turn:
              the piece is out of it; false: a plain move from a cell without combat), ``at`` (the combat
              whose step resolved it)
arrive        ``piece``, ``from`` — the piece entered ``cell``; ``joins``: ``combat`` (this very combat, from
              step 3), ``later-combat`` (another combat cell of this turn), ``new-encounter`` (the cell now
              holds both sides and fights later this turn) or null (no combat there); ``at``
build         ``piece`` (the new piece's id), ``card``, ``side``, ``structure``, ``joins`` (as arrive), ``at``,
              ``index`` — a build effect placed a new mobile piece (production.placement); its spec is in ``pieces``
buff          ``piece``, ``atk``, ``hp``, ``lv``, ``source``
sp            ``piece``, ``card``, ``ability``, ``fired`` (true | false | ``unknown``), ``why``
attack        ``actor`` (null for an effect with no piece), ``side``, ``source`` (card of an effect attack),
              ``target``, ``target_state``, ``amount``, ``hp_before``, ``hp_after`` (null when unknown and
              not needed: a settled piece is captured whatever its HP — templates show no HP change for
              it), ``order_ties`` / ``target_ties`` (clause / interpretation ids cited when a Lv tie decided
              the attack order / the target). Why the target (combat.targeting): ``target_pool``
              (``mobile`` | ``settled``: no mobile piece was left), ``target_candidates`` (how many),
              ``target_by`` (``only`` | ``lv`` | ``hp`` | ``atk`` | ``cost`` | ``listing``: the comparison
              that picked it), ``target_value`` (the deciding value), ``target_lv``, ``target_rule``
              (``combat.targeting`` | ``combat.tiebreak`` | ``interp.tiebreak.listing-order``). An effect's
              attack also has ``index`` (the declaration) and ``ability``, and ``actor_where``
              (``fragment`` | ``removed`` | ``prisoner``) when its declaring piece is no longer on the board
              (a 폭약 destroyed as the cost of its own 폭발: the effect attacks, not the piece)
no-attack     ``actor``, ``atk``, ``why`` (``atk-zero`` | ``no-target`` | ``ruling-not-in-force``)
capture       ``piece``, ``by``, ``side`` (the capturing side), ``reason`` (``hp`` | ``settled-hit`` |
              ``sweep``); ``rule`` is the clause that made it a capture
fragment      ``piece``, ``by``, ``side``, ``reason`` (as capture, or ``cost``), ``because`` (the clause that
              removed it): a structure became a 구조물 조각 instead of a prisoner
standoff      —  neither side had a mobile piece at the first step 4 (대립)
stalemate     ``why``: ``no-change`` — a round of steps 4–5 changed nothing; ``round-limit`` — every round
              changed something but the combat had not ended after ``limit`` rounds. Computing stopped
              either way (see ``unresolved``: ``stalemate`` / ``round-limit``)
vacated       ``side`` (the side with no piece left), ``cause`` (``cost`` | ``stack``),
              ``continues`` (true while vacated-combat-continues / cost-emptied-cell-fights hold, false
              when the combat ended on the spot; a cell emptied by costs while the latter is unknown
              also cites ``interpretation``
              ``interp.vacated.cost-before-ruling``, with an ``unresolved`` gap). A side
              captured by a step-1 (전투) card is no vacancy (no event: it was captured)
sweep         ``side`` (the sweeping side, null for ``nothing-to-sweep``), ``pieces``, ``applies`` (false:
              the condition failed or the ruling was not in force), ``why`` (``no-piece-left`` |
              ``opponent-mobile`` | ``no-attack-executed`` | ``ruling-not-in-force`` | ``nothing-to-sweep``);
              ``no-attack-executed`` cites the step-7 sentence itself (ATK 0), plus ``interpretation``
              ``interp.sweep.attack-executed`` when a negative ATK is read as 0
restore       ``pieces`` (HP and combat-limited changes restored)
end           ``occupant``, ``standoff``, ``rounds``, ``reason`` (``decided`` | ``standoff`` |
              ``stalemate`` | ``vacated``), ``survivors`` ({side: [ids]} left in the cell); a decided
              combat cites ``combat.step7.sweep`` (who is left after step 7 holds the cell)
============  ==========================================================================================
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from enum import Enum
from types import MappingProxyType
from typing import Any, ClassVar, Mapping

from .types import EndReason

_FIRST = ("type", "cell", "step", "round")
_FIRST_REST = _FIRST[1:]
_SKIP = frozenset(_FIRST + ("rule", "ruling"))  # keys Event.to_dict places itself


#: values stored as they are (and given back as they are): the bulk of every event
_PLAIN = frozenset({str, int, bool, float, type(None)})


def freeze(v):
    t = type(v)
    if t in _PLAIN:  # fast path: most values are plain (same result as below)
        return v
    if t is dict or isinstance(v, dict):
        return MappingProxyType({k: x if type(x) in _PLAIN else freeze(x) for k, x in v.items()})
    if isinstance(v, (list, tuple)):
        return tuple([x if type(x) in _PLAIN else freeze(x) for x in v]) if v else ()
    return v


def thaw(v):
    t = type(v)
    if t in _PLAIN:  # fast path (typing.Mapping's isinstance check is slow)
        return v
    if t is tuple:  # before the Mapping check: typing.Mapping's isinstance is slow, and tuples are common
        return [x if type(x) in _PLAIN else thaw(x) for x in v]
    if t is MappingProxyType or t is dict or isinstance(v, Mapping):
        return {k: x if type(x) in _PLAIN else thaw(x) for k, x in v.items()}
    if isinstance(v, tuple):
        return [x if type(x) in _PLAIN else thaw(x) for x in v]
    if isinstance(v, Enum):
        return v.value
    return v


@dataclass(frozen=True)
class Event:
    type: str
    data: Mapping[str, Any]

    @classmethod
    def make(cls, type_: str, **kw) -> "Event":
        for k, v in kw.items():  # kw is this call's own dict: frozen in place, then only viewed
            if type(v) not in _PLAIN:
                kw[k] = freeze(v)
        return cls(type_, MappingProxyType(kw))

    def get(self, key, default=None):
        if key == "type":
            return self.type
        return self.data.get(key, default)

    def __getitem__(self, key):
        if key == "type":
            return self.type
        return self.data[key]

    def to_dict(self) -> dict:
        """type, cell, step, round (when set), the other fields in the order given, rule, ruling (when set);
        nested values as plain lists and dicts, enums as their values — a fresh copy each time."""
        data = self.data
        get = data.get
        out: dict[str, Any] = {"type": self.type}
        for k in _FIRST_REST:
            v = get(k)
            if v is not None:
                out[k] = v
        for k, v in data.items():
            if k not in _SKIP:
                out[k] = v if type(v) in _PLAIN else thaw(v)
        v = get("rule")
        if v is not None:
            out["rule"] = v
        v = get("ruling")
        if v is not None:
            out["ruling"] = v
        return out


@dataclass(frozen=True)
class CellResult:
    cell: str
    occupant: str | None
    standoff: bool
    rounds: int
    survivors: Mapping[str, tuple[str, ...]]
    end: EndReason
    resolved_stack: bool = False

    def to_json(self) -> dict:
        return {"occupant": self.occupant, "standoff": self.standoff, "rounds": self.rounds,
                "survivors": {s: list(v) for s, v in self.survivors.items()},
                "end": self.end.value, "resolved_stack": self.resolved_stack}


@dataclass(frozen=True)
class CombatResult:
    as_of: str
    attacker: str
    defender: str
    order: tuple[str, ...]
    cells: tuple[CellResult, ...]
    prisoners: Mapping[str, tuple[str, ...]]
    fragments: tuple[str, ...]
    removed: tuple[str, ...]
    positions: Mapping[str, str]
    events: tuple[Event, ...]
    unresolved: tuple[Mapping[str, Any], ...]
    assumed: tuple[Mapping[str, Any], ...]
    pieces: Mapping[str, Mapping[str, Any]]
    rulings_consulted: tuple[str, ...] = ()
    title: str | None = None
    kind: str = field(default="combat")
    #: the decisions the resolution asked (engine/decisions.py), in order — not in the JSON: what the
    #: result depends on besides the scenario (runner's --compare reuse, `flamer impact`'s skipping)
    decisions_consulted: tuple[str, ...] = field(default=(), compare=False)

    def cell(self, cell: str) -> CellResult:
        for c in self.cells:
            if c.cell == cell:
                return c
        raise KeyError(cell)

    def events_of(self, type_: str) -> list[Event]:
        return [e for e in self.events if e.type == type_]

    def outcome(self) -> dict:
        """The parts of the result that a different choice could change (no events)."""
        j = self.to_json()
        return {k: j[k] for k in ("cells", "prisoners", "fragments", "removed", "positions")} | {
            "unresolved": [u["reason"] + ":" + str(u.get("cell")) for u in j["unresolved"]]}

    def to_json(self) -> dict:
        return {
            "kind": self.kind,
            "title": self.title,
            "as_of": self.as_of,
            "attacker": self.attacker,
            "defender": self.defender,
            "order": list(self.order),
            "cells": {c.cell: c.to_json() for c in self.cells},
            "prisoners": {s: list(v) for s, v in self.prisoners.items()},
            "fragments": list(self.fragments),
            "removed": list(self.removed),
            "positions": dict(self.positions),
            "events": [e.to_dict() for e in self.events],
            # each gap's Korean `message` is added by the presentation layer (render.word_result)
            "unresolved": [thaw(u) for u in self.unresolved],
            "assumed": [thaw(a) for a in self.assumed],
            "pieces": thaw(self.pieces),
            "rulings_consulted": list(self.rulings_consulted),
        }


# ------------------------------------------------------------ turn results ----
@dataclass(frozen=True)
class TurnResult:
    """A frozen result of kind move, victory, field or round. Its fields are the keys of its JSON
    (docs/SCENARIOS.md), in order after `kind`; nested values are frozen (read-only mappings,
    tuples) and `to_json()` gives plain dicts and lists again."""

    kind: ClassVar[str] = ""
    title: str | None
    as_of: str

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "TurnResult":
        """The result object of a JSON-shaped dict (its keys, in field order, after `kind`)."""
        if data.get("kind", cls.kind) != cls.kind:
            raise ValueError(f"not a {cls.kind} result: {data.get('kind')}")
        return cls(**{f.name: freeze(data[f.name]) for f in fields(cls)})

    def to_json(self) -> dict:
        out: dict[str, Any] = {"kind": self.kind}
        for f in fields(self):
            out[f.name] = thaw(getattr(self, f.name))
        return out

    def get(self, key: str, default=None):
        return self.kind if key == "kind" else getattr(self, key, default)


@dataclass(frozen=True)
class MoveTurnResult(TurnResult):
    kind: ClassVar[str] = "move"
    attacker: str
    valid: bool
    errors: tuple[Mapping[str, Any], ...]
    positions: Mapping[str, str]
    encounters: tuple[str, ...]
    events: tuple[Mapping[str, Any], ...]
    unresolved: tuple[Mapping[str, Any], ...]
    assumed: tuple[Mapping[str, Any], ...]
    pieces: Mapping[str, Mapping[str, Any]]
    board: Mapping[str, Any]
    moves: tuple[Mapping[str, Any], ...]


@dataclass(frozen=True)
class VictoryTurnResult(TurnResult):
    kind: ClassVar[str] = "victory"
    player: str
    secured: Mapping[str, int]
    vp_gain: int
    vp: Mapping[str, int]
    winner: str | None
    reasons: tuple[str, ...]
    cells: Mapping[str, Mapping[str, Any]]
    events: tuple[Mapping[str, Any], ...]
    unresolved: tuple[Mapping[str, Any], ...]
    homes: Mapping[str, tuple[str, ...]]


@dataclass(frozen=True)
class FieldTurnResult(TurnResult):
    kind: ClassVar[str] = "field"
    side: str
    slots: tuple[Mapping[str, Any], ...]
    active: tuple[str, ...]
    retired: tuple[str, ...]
    levels: Mapping[str, int]
    bonds: Mapping[str, Any]
    round: int
    errors: tuple[Mapping[str, Any], ...]
    events: tuple[Mapping[str, Any], ...]
    unresolved: tuple[Mapping[str, Any], ...]


@dataclass(frozen=True)
class RoundResult(TurnResult):
    kind: ClassVar[str] = "round"
    player: str
    opponent: str
    turns: tuple[Mapping[str, Any], ...]  # {turn, result}: each turn's result JSON, in turn order
    ended: Mapping[str, Any] | None
    final: Mapping[str, Any]
    events: tuple[Mapping[str, Any], ...]
    unresolved: tuple[Mapping[str, Any], ...]
    assumed: tuple[Mapping[str, Any], ...]
    pieces: Mapping[str, Mapping[str, Any]]
    board: Mapping[str, Any]
    vp_before: Mapping[str, int]
    dor_before: Mapping[str, int]


@dataclass(frozen=True)
class GameResult(TurnResult):
    kind: ClassVar[str] = "game"
    first_player: str
    second_player: str
    first_round: bool
    rounds: tuple[Mapping[str, Any], ...]  # {round, player, opponent, turns, ended, errors, …} per round played
    ended: Mapping[str, Any] | None
    first_illegal: Mapping[str, Any] | None
    final: Mapping[str, Any]
    events: tuple[Mapping[str, Any], ...]
    unresolved: tuple[Mapping[str, Any], ...]
    assumed: tuple[Mapping[str, Any], ...]
    pieces: Mapping[str, Mapping[str, Any]]
    board: Mapping[str, Any]
    vp_before: Mapping[str, int]
    dor_before: Mapping[str, int]
    prisoners_before: Mapping[str, tuple[str, ...]]
    rounds_written: int


#: kind → the result class of that kind (combat: CombatResult)
RESULT_TYPES = {"combat": CombatResult, "move": MoveTurnResult, "victory": VictoryTurnResult,
                "field": FieldTurnResult, "round": RoundResult, "game": GameResult}
