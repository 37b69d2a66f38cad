"""Kind round: one player's whole round on one board — the seven turns in order
on one state (승리확인 → 보급 → 이동 → 대응 → 전투 → 생산 → 암막, round.turns).

`parse_round(doc, file, corpus)` checks the file (a malformed file is a DataError,
exit 1); `run_round(scn, corpus, as_of)` plays the turns. Each turn reuses the
single-turn engines: victory.check_victory (via turns.run_victory),
movement.resolve_moves (turns.run_move), combat.simulate (the response and combat
turns, on the positions after the move) and fieldplay.FieldPlay. What one turn
leaves (positions, states, prisoners, fields, VP, 도르) is what the next starts from.

The field and the board are linked by a piece's `card`: a card retired by an 엎어
세트 turns all its pieces settled at once (field.retire); an uncovered card's pieces
turn mobile, except when it was retired in the same round (field.uncover, the decision
same-round-uncover-stays-settled). An illegal input in one turn is reported in that turn's `errors` with its
clause and skipped; the round goes on.

Readings where the pages are silent (each reported, never silent):
- `field_actions` are played right after the 보급턴 (the rules allow any time in one's own
  round, field.set; the file format fixes one) — said in `assumed`.
- 보급턴 income: the `values` of the board's cells secured by the player; where one of
  those values is unknown, the income and the player's 도르 are unknown (null), and
  `unresolved` names the cells (supply.income). Never a guess.
- 생산턴: the placement cell is the scenario's (the pages do not say where a produced
  piece may be placed: one `production-cell-unknown` gap); the cost comes from the card
  data and is paid from 도르 (interp.production.cost-from-dor); an unknown cost is a gap.
- 암막턴: turning a piece of a still-retired card mobile is applied and reported as a gap.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..errors import DataError, Forbidden, Problem
from . import aliases
from .model import BlackoutFlip, MoveScenario, Production, RoundScenario, VictoryScenario, frozen_map
from .result import RoundResult
from .scenario import (BATTLE_KEYS, RESPONSE_KEYS, PieceSpec, Scenario, ScenarioSink, Slot, parse_declarations,
                       declarations_bounded,
                       declaration_ref_problems, parse_combat_order,
                       unknown_keys, cell_sort_key, check_response_order, normalize_cell, parse_as_of, parse_cells,
                       resolve_card, side_code_ok)
from .types import CELL_LIMIT, SIDE_LIMIT, PieceState, Turn

ROUND_KEYS = ("kind", "title", "as_of", "player", "first_round", "board", "homes", "vp", "dor", "cells", "field",
              "field_actions", "move", "response", "battle_cards", "combat_order", "produce", "blackout")
MOVE_BLOCK_KEYS = ("activate", "moves", "cards")
PRODUCE_KEYS = ("card", "cell", "id")
BLACKOUT_KEYS = ("piece", "to")
#: the seven turns in order (round.turns)
TURNS = tuple(t.value for t in Turn)

#: error reason → clause of the production and blackout turns
PRODUCTION_RULE = {
    "card-not-on-field": "production.requires-active",
    "card-retired": "production.requires-active",
    "grade-requirement": "field.grades",
    "off-board": "move.off-board",
    "destination-full": "production.placement",
    "cell-full": "production.placement",
    "not-enough-dor": "production.requires-active",
}
BLACKOUT_RULE = {"no-such-piece": "blackout.flip", "not-on-board": "blackout.flip", "not-own-piece": "blackout.flip",
                 "already-in-state": "blackout.flip"}


# ------------------------------------------------------------------ parse ----
def _side_ints(doc, key: str, sink, sides: list[str]) -> dict:
    obj = doc.get(key)
    if obj is None:
        return {}
    if not isinstance(obj, dict) or any(not isinstance(v, int) or isinstance(v, bool) or v < 0 for v in obj.values()):
        sink.add(doc, key, key, "side-ints", key=key)
        return {}
    return dict(obj)



def parse_round(doc: dict, file: str, corpus, known_ids=(), board=None) -> RoundScenario:
    """`known_ids`: ids of pieces that exist beyond the file's `cells` (a game's later rounds: pieces
    produced in earlier rounds), which the moves, declarations and productions may name. `board`: the
    board `doc`'s `board` was already read into (a game's round entries share the start's: a 100×100
    board is not built again for each of 500 entries)."""
    from .turns import read_board, cells_on_board, read_sides, parse_homes

    sink = ScenarioSink(file)
    unknown_keys(sink, doc, ROUND_KEYS, "")
    as_of = parse_as_of(doc, sink)
    title = doc.get("title")
    if title is not None and not isinstance(title, str):
        sink.add(doc, "title", "title", "title-not-text")
    cells, pieces, side_order = parse_cells(doc, sink, corpus)
    for key in ("vp", "dor", "field", "field_actions", "homes"):
        obj = doc.get(key)
        for side in (obj if isinstance(obj, dict) else {}):
            if isinstance(side, str) and side not in side_order:
                side_order.append(side)
    sides = read_sides(doc, sink, side_order, "player")
    board, assumed = (board, []) if board is not None else read_board(doc, sink, corpus)
    outside = cells_on_board(doc, sink, board) if board is not None else []
    first_round = doc.get("first_round", False)
    if not isinstance(first_round, bool):
        sink.add(doc, "first_round", "first_round", "first-round-bool")
    vp = _side_ints(doc, "vp", sink, side_order)
    dor = _side_ints(doc, "dor", sink, side_order)
    homes = parse_homes(doc, sink)

    fields, field_actions = _round_fields(doc, sink, corpus)

    # ----- the move turn
    ids = {p.id: p for p in pieces}
    ids.update({pid: None for pid in known_ids if pid not in ids})
    activate, moves, move_cards = _round_move(doc, sink, corpus, ids)

    # ----- the response and combat turns
    response: list = []
    battle: list = []
    if declarations_bounded(sink, doc):
        response = parse_declarations(corpus, sink, doc, "response", RESPONSE_KEYS, side_order)
        battle = parse_declarations(corpus, sink, doc, "battle_cards", BATTLE_KEYS, side_order)
    order = parse_combat_order(doc, sink)

    # ----- the production and blackout turns
    produce = _round_produce(doc, sink, corpus, ids)
    blackout = _round_blackout(doc, sink)
    if sink.problems:
        raise DataError(sink.problems)

    # piece references in declarations (a piece produced later cannot be referred to)
    problems = declaration_ref_problems(file, list(response) + list(battle), ids)
    if problems:
        raise DataError(problems)
    return RoundScenario(
        file=file, title=title, as_of=as_of, sides=sides, pieces=tuple(pieces), board=board, assumed=tuple(assumed),
        outside=tuple(outside), first_round=first_round, vp=frozen_map(vp), dor=frozen_map(dor),
        homes=None if homes is None else frozen_map(homes), fields=frozen_map(fields),
        field_actions=frozen_map(field_actions), activate=tuple(activate), moves=tuple(moves),
        response=tuple(response), battle_cards=tuple(battle), combat_order=order, produce=tuple(produce),
        blackout=tuple(blackout), notices=tuple(sink.notices), move_cards=tuple(move_cards))

def _round_fields(doc: dict, sink, corpus) -> tuple[dict[str, list], dict[str, list]]:
    """A round's `field` (five slots a side) and `field_actions` (a side with a field only)."""
    from .turns import parse_actions, parse_slots

    fields: dict[str, list] = {}
    fobj = doc.get("field")
    if fobj is not None:
        if not isinstance(fobj, dict):
            sink.add(doc, "field", "field", "round-field-not-mapping")
        else:
            for side, slots in fobj.items():
                if not side_code_ok(sink, fobj, side, f"field.{side}"):
                    continue
                if not isinstance(slots, list) or len(slots) != 5:
                    sink.add(fobj, side, f"field.{side}", "field-not-five")
                    continue
                fields[side] = parse_slots(slots, fobj, side, sink, corpus, f"field.{side}",
                                           f"{aliases.shown_key(doc, 'field')} {side}")
    field_actions: dict[str, list] = {}
    faobj = doc.get("field_actions")
    if faobj is not None:
        if not isinstance(faobj, dict):
            sink.add(doc, "field_actions", "field_actions", "field-actions-not-mapping")
        else:
            for side in faobj:
                if side not in fields:
                    sink.add(faobj, side, f"field_actions.{side}", "field-actions-no-field", side=side)
                    continue
                field_actions[side] = parse_actions(faobj, side, sink, corpus, f"field_actions.{side}",
                                                    allow_at=True)
    return fields, field_actions


def _round_move(doc: dict, sink, corpus, ids: dict) -> tuple[list[str], list, list[str]]:
    """A round's move turn (`move`): the activation cells, the moves, the (이동) special cards."""
    from .turns import parse_move_block

    activate: list[str] = []
    moves: list = []
    move_cards: list[str] = []
    mobj = doc.get("move")
    if mobj is not None:
        if not isinstance(mobj, dict):
            sink.add(doc, "move", "move", "move-block-not-mapping")
        elif unknown_keys(sink, mobj, MOVE_BLOCK_KEYS, "move"):
            activate, moves = parse_move_block(mobj, sink, ids, "move.")
            raw_cards = mobj.get("cards") or []
            if not isinstance(raw_cards, list):
                sink.add(mobj, "cards", "move.cards", "move-cards-not-list")
                raw_cards = []
            for j, name in enumerate(raw_cards):
                card = resolve_card(corpus, name, sink, mobj, "cards", f"move.cards[{j}]")
                if card is None:
                    continue
                info = corpus.cards[card]
                if info["type"] != "special" or info.get("timing") not in ("이동", None):
                    sink.add(mobj, "cards", f"move.cards[{j}]", "move-card-not-move", card=card,
                             timing=info.get("timing"), type=info["type"])
                    continue
                move_cards.append(card)
    return activate, moves, move_cards


def _round_produce(doc: dict, sink, corpus, ids: dict) -> list:
    """A round's production turn (`produce`): a piece card, a cell, a new id."""
    produce = []
    new_ids: set[str] = set()
    for i, where, it in sink.mappings(doc, "produce", "produce", "produce-not-list", "produce-not-mapping"):
        if not unknown_keys(sink, it, PRODUCE_KEYS, where):
            continue
        card = resolve_card(corpus, it.get("card"), sink, it, "card", f"{where}.card", pieces_only=True)
        if card is not None and corpus.cards[card]["type"] != "piece":
            sink.add(it, "card", f"{where}.card", "produce-special-card", card=card)
            card = None
        cell = normalize_cell(it.get("cell"))
        if cell is None:
            sink.add(it, "cell" if "cell" in it else None, f"{where}.cell", "produce-cell")
        pid = it.get("id")
        if pid is not None:
            pid = str(pid)
            if pid in ids or pid in new_ids:
                sink.add(it, "id", f"{where}.id", "produce-id-taken", id=pid)
                continue
            new_ids.add(pid)
        if card is not None and cell is not None:
            produce.append(Production(i, card, cell, pid, getattr(it, "line", None)))
    return produce


def _round_blackout(doc: dict, sink) -> list:
    """A round's blackout turn (`blackout`): the pieces flipped, and to what."""
    blackout = []
    for i, where, it in sink.mappings(doc, "blackout", "blackout", "blackout-not-list", "blackout-not-mapping"):
        if not unknown_keys(sink, it, BLACKOUT_KEYS, where):
            continue
        pid, to = it.get("piece"), it.get("to")
        if pid is None or isinstance(pid, (dict, list, bool)):
            sink.add(it, "piece" if "piece" in it else None, f"{where}.piece", "blackout-piece")
            continue
        if to not in ("mobile", "settled"):
            sink.add(it, "to" if "to" in it else None, f"{where}.to", "blackout-to", to=to)
            continue
        blackout.append(BlackoutFlip(i, str(pid), to))
    return blackout



# -------------------------------------------------------------------- run ----
class _RoundField:
    """The fields of a round's two sides as the turns change them (`RoundPlay` is made of it): which card a
    piece comes from, the field a combat reads, the kinds exhausted, the field actions of a turn and the
    links between the board and the field."""

    def link_field(self, side: str, turn: str, out: list[dict]) -> None:
        """New field events of `side` → the board: a retired card's pieces turn settled at once
        (field.retire); an uncovered card's pieces turn mobile unless retired this round
        (field.uncover: same-round-uncover-stays-settled — the field's uncover event says which)."""
        f = self.fields[side]
        new = f.events[self._seen[side]:]
        self._seen[side] = len(f.events)
        for ev in new:
            if ev["type"] not in ("retire", "uncover"):
                continue
            mine = [p.id for p in self.board_pieces() if p.side == side and p.card == ev["card"]]
            if ev["type"] == "retire":
                flipped = [pid for pid in mine if self.pieces[pid].state is not PieceState.SETTLED]
                for pid in flipped:
                    self.set_state(pid, "settled")
                link = {"type": "link", "turn": turn, "side": side, "card": ev["card"], "cause": "retire",
                        "pieces": flipped, "to": "settled", "rule": "field.retire"}
            else:
                if ev.get("pieces") == "none":
                    continue
                stay = ev.get("pieces") == "stay-settled"
                flipped = [] if stay else [pid for pid in mine if self.pieces[pid].state is not PieceState.MOBILE]
                for pid in flipped:
                    self.set_state(pid, "mobile")
                link = {"type": "link", "turn": turn, "side": side, "card": ev["card"], "cause": "uncover",
                        "pieces": flipped if not stay else mine, "to": "settled" if stay else "mobile",
                        "same_round": stay, "rule": "field.uncover",
                        "ruling": ev.get("ruling") if stay else None}
            out.append(link)
            self.events.append(link)

    def card_slot(self, side: str, card: str) -> tuple[int, Any] | None:
        """(slot number, Card) of a top card named `card` on the side's field."""
        f = self.fields[side]
        for i in range(5):
            top = f.top(i)
            if top is not None and top.name == card:
                return i + 1, top
        return None

    def combat_field(self) -> dict | None:
        """Each side's five slots for the combat: the top card, and under it the cards it covers (so a
        card trashed or removed during the combat uncovers the one below at once, field.uncover)."""
        if not self.fields:
            return None
        out = {}
        for side, f in self.fields.items():
            row = []
            for i in range(5):
                slot = None
                for c in f.slots[i]:  # bottom first
                    slot = Slot(c.name, c.face_up, c.type, under=slot,
                                same_round=bool(c.retired and c.retired_round == f.round))
                row.append(slot)
            out[side] = tuple(row)
        return out

    @staticmethod
    def _field_state(f) -> tuple[dict, dict]:
        """(levels, bonds) of a field now, without leaving the events that computing them records."""
        n = len(f.events)
        levels, bonds = f._levels()
        del f.events[n:]
        return dict(levels), dict(bonds)

    def on_board_of(self, side: str, card: str) -> list[str]:
        """The pieces of `side`'s kind `card` on the board now (종류 한도: how many of a kind exist)."""
        return [p.id for p in self.board_pieces() if p.side == side and p.card == card]

    def kind_exhausted(self, side: str, act, turn: str, out: list[dict]) -> None:
        """Field action `exhausted: N`: the kind limit of slot N's piece card is used up. The card leaves
        the field only when no piece of that kind is left on the board (field.kind-exhausted: '종류 한도가
        모두 소진된 상태에서 보드 위 그 종류 기물이 0기가 되면 …'); while pieces remain it stays, and it
        leaves the moment the last one leaves the board."""
        f = self.fields[side]
        top = f.top(act.slot - 1) if 1 <= act.slot <= 5 else None
        if top is None or top.type != "piece":
            f.exhausted(act.index, act.slot)  # the field reports the slot error
            return
        left = self.on_board_of(side, top.name)
        ev = {"type": "kind-exhausted", "turn": turn, "side": side, "card": top.name, "slot": act.slot,
              "on_board": left, "leaves": not left, "rule": "field.kind-exhausted"}
        out.append(ev)
        self.events.append(ev)
        if left:
            if top.name not in self.exhausted[side]:
                self.exhausted[side].append(top.name)
            return
        f.exhausted(act.index, act.slot)

    def check_exhausted(self, turn: str, out: list[dict]) -> None:
        """An exhausted kind whose last piece has left the board: its card leaves the field now."""
        for side, cards in self.exhausted.items():
            f = self.fields.get(side)
            for card in list(cards):
                if self.on_board_of(side, card) or f is None:
                    continue
                slot = self.card_slot(side, card)
                if slot is None:  # covered by another card: it stays tracked until it is on top again
                    continue
                cards.remove(card)
                ev = {"type": "kind-exhausted", "turn": turn, "side": side, "card": card, "slot": slot[0],
                      "on_board": [], "leaves": True, "rule": "field.kind-exhausted"}
                out.append(ev)
                self.events.append(ev)
                f.exhausted(-1, slot[0])
                self.link_field(side, turn, out)

    def field_actions(self, turn: str, result: dict, pick, errors_key: str = "errors",
                      links_key: str = "links") -> None:
        """The field actions `pick` selects, played now, in the file's order per side (the turn player's
        first); their events, errors and board links go into `result` (the result of `turn`). Setting
        and placing is the turn player's, at any time of their own round (field.set: '세트는 자기 라운드
        중 언제든지'); the opponent cannot set or place in my round (field.special.response-set: '상대
        라운드 중에는 세트 불가')."""
        from .turns import apply_action

        fa = {side: [a for a in acts if pick(a)] for side, acts in self.scn.field_actions.items()}
        if not any(fa.values()):
            return
        per_side = result.setdefault("field_actions", {})
        links: list[dict] = result.setdefault(links_key, [])
        errors = result.setdefault(errors_key, [])
        for side in sorted(fa, key=lambda s: s != self.player):
            actions = fa[side]
            if not actions:
                continue
            f = self.fields[side]
            e0, ev0, u0 = len(f.errors), len(f.events), len(f.unresolved)
            for act in actions:
                if side != self.player and act.verb == "place":
                    f.errors.append({"action": act.index, "reason": "not-own-round", "rule": "field.set",
                                     "card": act.card, "slot": act.slot})
                    continue
                if act.verb == "exhausted":
                    self.kind_exhausted(side, act, turn, links)
                else:
                    apply_action(f, act)
                self.link_field(side, turn, links)
            errs = [{"side": side, **e} for e in f.errors[e0:]]
            errors += errs
            mine = per_side.setdefault(side, {"events": [], "errors": []})
            mine["events"] += list(f.events[ev0:])
            mine["errors"] += errs
            for u in f.unresolved[u0:]:
                self.gap(turn, u["reason"], side=side, **{k: v for k, v in u.items() if k != "reason"})


class RoundPlay(_RoundField):
    """The state one turn leaves to the next."""

    def __init__(self, scn: RoundScenario, corpus, as_of: str):
        from .decisions import rules_at
        from .fieldplay import FieldPlay

        self.scn, self.corpus, self.as_of = scn, corpus, as_of
        self.player, self.opponent = scn.sides
        self.sides = (self.player, self.opponent)
        self.pieces: dict[str, PieceSpec] = {p.id: p for p in scn.pieces}
        self.on_board: set[str] = set(self.pieces)
        self.prisoners: dict[str, list[str]] = {s: [] for s in self.sides}
        self.fragments: list[str] = []
        self.removed: list[str] = []
        self.vp = {s: scn.vp.get(s, 0) for s in self.sides}
        self.dor: dict[str, int | None] = {s: scn.dor.get(s, 0) for s in self.sides}
        self.fields = {s: FieldPlay(corpus.cards, list(init), rules_at(corpus, as_of)) for s, init in scn.fields.items()}
        self._seen = {s: len(f.events) for s, f in self.fields.items()}
        board = scn.board
        self.homes = ({s: list(c) for s, c in scn.homes.items()} if scn.homes is not None
                      else {s: list(c) for s, c in board.homes.items()})
        self.events: list[dict] = []
        self.unresolved: list[dict] = []
        self.assumed: list = list(scn.assumed)
        self.turns: list[dict] = []
        self.ended: dict | None = None
        self.combat_scenario: Scenario | None = None
        self._order = len(self.pieces)
        #: per side, piece cards whose kind limit is used up (field.kind-exhausted): each leaves the field
        #: when its last piece leaves the board (the count of that kind's pieces on the board)
        self.exhausted: dict[str, list[str]] = {s: [] for s in self.sides}
        #: a game record's shared budget (engine/budget.py), spent by every combat of its rounds; None for a
        #: round alone (its one combat has the combat's own budget)
        self.budget = None

    def begin(self, scn: RoundScenario) -> "RoundPlay":
        """The next round of a game (engine/game.py) on the state this one left: the board, the
        fields, prisoners, fragments, VP and 도르 stay; the round's own record starts afresh, and
        each field counts a new round (the same-round exception of field.uncover)."""
        self.scn = scn
        self.player, self.opponent = scn.sides
        self.sides = (self.player, self.opponent)
        for s in self.sides:
            self.prisoners.setdefault(s, [])
            self.vp.setdefault(s, 0)
            self.dor.setdefault(s, 0)
        for f in self.fields.values():
            f.round += 1
        self.events, self.unresolved, self.assumed, self.turns = [], [], list(scn.assumed), []
        self.ended = self.combat_scenario = None
        return self

    # ------------------------------------------------------------ helpers
    def board_pieces(self) -> list[PieceSpec]:
        return [p for pid, p in self.pieces.items() if pid in self.on_board]

    def count(self, cell: str, side: str | None = None) -> int:
        return sum(1 for p in self.board_pieces() if p.cell == cell and (side is None or p.side == side))

    def gap(self, turn: str, reason: str, **kw) -> dict:
        item = {"reason": reason, "turn": turn, **kw}
        self.unresolved.append(item)
        return item

    def set_state(self, pid: str, to: str) -> None:
        self.pieces[pid] = replace(self.pieces[pid], state=PieceState(to))

    def start(self, turn: str) -> None:
        self.events.append({"type": "turn", "turn": turn, "rule": "round.turns"})

    # -------------------------------------------------------------- turns
    def victory(self) -> None:
        from .turns import run_victory

        self.start("victory")
        scn = VictoryScenario(file=self.scn.file, title=None, as_of=self.as_of, sides=self.sides,
                              pieces=tuple(self.board_pieces()), vp=frozen_map(self.vp), homes=frozen_map(self.homes))
        res = run_victory(scn, self.corpus, self.as_of).to_json()
        self.vp = dict(res["vp"])
        self.turns.append({"turn": "victory", "result": res})
        self._secured_cells = res["cells"]
        if res["winner"]:
            self.ended = {"winner": res["winner"], "reasons": list(res["reasons"])}
            self.events.append({"type": "game-end", "turn": "victory", "winner": res["winner"],
                                "reasons": list(res["reasons"]), "rule": "victory.conditions"})

    def supply(self) -> None:
        self.start("supply")
        values = self.scn.board.values
        counted, unknown, not_counted, events = [], [], [], []
        for cell, c in sorted(self._secured_cells.items(), key=lambda kv: cell_sort_key(kv[0])):
            if c["status"] == "secured" and c["by"] == self.player:
                v = values.get(cell)
                if isinstance(v, int) and not isinstance(v, bool):
                    counted.append({"cell": cell, "value": v})
                    events.append({"type": "income", "cell": cell, "value": v, "rule": "supply.income"})
                else:
                    unknown.append(cell)
                    events.append({"type": "income", "cell": cell, "value": None, "rule": "supply.income"})
            elif self.player in c["sides"]:
                why = "contested" if c["status"] == "contested" else "occupied"
                not_counted.append({"cell": cell, "why": why})
                events.append({"type": "no-income", "cell": cell, "why": why, "rule": "victory.secure"})
        before = self.dor[self.player]
        known = sum(x["value"] for x in counted)
        income = None if unknown else known
        if unknown:
            self.gap("supply", "cell-value-unknown", cells=unknown, known=known, rule="supply.income",
                     board=self.scn.board.label)
        after = None if income is None or before is None else before + income
        self.dor[self.player] = after
        events.append({"type": "dor", "side": self.player, "before": before, "income": income, "after": after,
                       "rule": "supply.income"})
        result: dict[str, Any] = {"income": income, "dor": dict(self.dor), "dor_before": before, "cells": counted,
                                  "unknown_values": unknown, "known_income": known, "not_counted": not_counted,
                                  "events": events, "errors": [], "unresolved": [u for u in self.unresolved
                                                                                  if u["turn"] == "supply"]}
        self.turns.append({"turn": "supply", "result": result})
        # field actions without `at:` are played right after the 보급턴 (field.set: '세트는 자기 라운드 중
        # 언제든지'; the file did not say when) — said in `assumed`
        if any(a.at is None for acts in self.scn.field_actions.values() for a in acts):
            self.assumed.append({"choice": "field-actions-after-supply", "rule": "field.set"})
        self.field_actions("supply", result, lambda a: a.at in (None, "victory", "supply"))

    def move(self) -> list[str]:
        from .turns import run_move

        self.start("move")
        scn = MoveScenario(file=self.scn.file, title=None, as_of=self.as_of, sides=self.sides,
                           pieces=tuple(self.board_pieces()), board=self.scn.board, assumed=(),
                           outside=self.scn.outside, first_round=self.scn.first_round,
                           activate=self.scn.activate, moves=self.scn.moves)
        res = run_move(scn, self.corpus, self.as_of).to_json()
        f = self.fields.get(self.player)
        if f is not None:  # a piece settled because its card is retired (field.retire), not by a 암막턴 flip
            retired = {c.name for s in f.slots for c in s if c.type == "piece" and c.retired}
            for e in res["errors"]:
                card = self.pieces[e["piece"]].card if e.get("piece") in self.pieces else None
                if e["reason"] == "settled" and card in retired:
                    e.setdefault("detail", {})["retired_card"] = card
        for pid, cell in res["positions"].items():
            if self.pieces[pid].cell != cell:
                self.pieces[pid] = replace(self.pieces[pid], cell=cell)
        for card in self.scn.move_cards:
            # (이동) 특수카드 (move.special-cards): '세트하거나 손패에서 바로 씁니다' — their effect text is not
            # on the pages: reported, not guessed; the card is used (from hand or its slot) and trashed
            self.gap("move", "move-card-effect-unknown", card=card, rule="move.special-cards")
            slot = self.card_slot(self.player, card) if self.player in self.fields else None
            ev = {"type": "move-card", "turn": "move", "card": card, "effect": None,
                  "from": "field" if slot is not None else "hand", "slot": slot[0] if slot else None,
                  "rule": "move.special-cards"}
            self.events.append(ev)
            res.setdefault("move_cards", []).append(ev)
            if slot is not None:  # a set card used goes to the trash: the card under it comes back
                self.fields[self.player].trash(-1, slot[0])
                self.link_field(self.player, "move", res.setdefault("field_links", []))
        self.turns.append({"turn": "move", "result": res})
        # field actions at the 이동턴 (after the moves) or the 대응턴 (before its declarations: a card set now
        # may be declared as a 맞대응 — '세트한 그 라운드에도 맞대응이 가능')
        self.field_actions("move", res, lambda a: a.at in ("move", "response"), "field_errors", "field_links")
        return list(res["encounters"])

    def combat(self, encounters: list[str]) -> None:
        scn = self.scn
        if not encounters:
            for key, turn in (("response", "response"), ("battle_cards", "combat")):
                if getattr(scn, key):
                    self.events.append({"type": "skipped", "turn": turn, "why": "no-encounter", "ignored": len(getattr(scn, key)),
                                        "rule": "response.needs-encounter" if turn == "response" else "combat.occurs"})
            return
        response, battle = list(scn.response), list(scn.battle_cards)
        res, errors = self._fight(response, battle)
        self._board_after_combat(res)
        declared = [e for e in res["events"] if e.get("phase") == "response"]
        if response or errors["response"]:
            self.start("response")
            self.turns.append({"turn": "response", "result": {
                "opened_by": self.opponent, "declarations": [e for e in declared if e["type"] == "declare"],
                "events": declared, "errors": errors["response"], "unresolved": []}})
        else:
            # 대응턴 page: "조우가 없거나 상대가 발동을 원치 않으면 이 턴은 건너뜁니다" — with an encounter but
            # no declaration the turn is skipped, not run (the page's numbering stays: 5. 전투턴)
            self.events.append({"type": "skipped", "turn": "response", "why": "no-declaration",
                                "rule": "response.opener"})
        self.start("combat")
        res["errors"] = errors["combat"]
        self.turns.append({"turn": "combat", "result": res})
        for u in res["unresolved"]:
            self.unresolved.append({**u, "turn": "combat"})
        links = self._field_after_combat(res)
        self.check_exhausted("combat", links)
        if links:
            res["links"] = links
        self.field_actions("combat", res, lambda a: a.at == "combat", "field_errors", "field_links")

    def _fight(self, response: list, battle: list) -> tuple[dict, dict[str, list[dict]]]:
        """The response turn and the combat turn on the board now; a declaration the rules refuse is taken
        out and reported (its turn's `errors`), and the rest is fought again — the result JSON and those."""
        from .combat import simulate

        scn = self.scn
        errors: dict[str, list[dict]] = {"response": [], "combat": []}
        for _ in range(len(response) + len(battle) + 1):
            pieces = tuple(sorted(self.board_pieces(), key=lambda p: p.order))
            cells = tuple(sorted({p.cell for p in pieces}, key=cell_sort_key))
            cscn = Scenario(kind="combat", title=scn.title, as_of=self.as_of, attacker=self.player,
                            defender=self.opponent, field=self.combat_field(), cells=cells, pieces=pieces,
                            response=tuple(response), battle_cards=tuple(battle), combat_order=scn.combat_order,
                            file=scn.file, lines={}, notices=(),
                            exhausted={s: tuple(c) for s, c in self.exhausted.items() if c} or None)
            try:
                check_response_order(cscn.response, self.player, self.opponent, scn.file, self.corpus)
                res = simulate(cscn, self.corpus, as_of=self.as_of, budget=self.budget).to_json()
                self.combat_scenario = cscn  # what the 전투턴 fought (runner.round_branches reads it)
                break
            except Forbidden as exc:
                key = exc.where.get("key") or ""
                hit = None
                for lst, turn in ((response, "response"), (battle, "combat")):
                    for d in lst:
                        if key == d.where or key.startswith(d.where + "."):
                            hit = (lst, turn, d)
                            break
                    if hit:
                        break
                if hit is None:
                    raise
                lst, turn, d = hit
                lst.remove(d)
                # codes and data only: render.word_result words it as the exception would (its `why`)
                errors[turn].append({"item": d.where, "side": d.side, "card": d.card, "reason": exc.reason,
                                     "rule": exc.rule, "ruling": exc.ruling, "forbidden": dict(exc.detail)})
        else:  # pragma: no cover - every pass removes one item, so the loop ends by break
            raise DataError([Problem(scn.file, None, "response", code="response-unsettled")])
        return res, errors

    def _board_after_combat(self, res: dict) -> None:
        """The board after the combat turn; pieces a build effect placed join the round's pieces."""
        positions = res["positions"]
        for ev in res["events"]:
            if ev["type"] == "build" and ev["piece"] not in self.pieces:
                info = res["pieces"][ev["piece"]]
                self.pieces[ev["piece"]] = PieceSpec(
                    id=ev["piece"], side=info["side"], cell=info["cell"], card=info["card"], name=None, lv=info["lv"],
                    hp=info["hp"], atk=info["atk"], cost=info["cost"], state=PieceState.MOBILE,
                    structure=info["structure"], order=self._order, line=None)
                self._order += 1
                self.on_board.add(ev["piece"])
        for pid in list(self.on_board):
            if pid not in positions:
                self.on_board.discard(pid)
            elif positions[pid] != self.pieces[pid].cell:
                self.pieces[pid] = replace(self.pieces[pid], cell=positions[pid])
        for ev in res["events"]:
            if ev["type"] == "flip" and ev.get("piece") in self.on_board:
                self.set_state(ev["piece"], ev["to"])
        for side, ids in res["prisoners"].items():
            self.prisoners.setdefault(side, []).extend(ids)
        self.fragments += res["fragments"]
        self.removed += res["removed"]

    def _field_after_combat(self, res: dict) -> list[dict]:
        """The field changes the combat made, as links."""
        # the field changes the combat made, in order, on each side's field: a (대응) card trashed in step 2
        # frees its slot and the card it covered comes back (field.uncover); a card whose exhausted kind lost
        # its last piece leaves (field.kind-exhausted). The combat already turned the pieces and applied the
        # returning card's 등장효과 at that moment; the links say which pieces it turned.
        links: list[dict] = []
        for ev in res["events"]:
            if ev["type"] != "field" or ev.get("side") not in self.fields:
                continue
            side, f = ev["side"], self.fields[ev["side"]]
            if ev.get("effect") in ("trash", "removed"):
                top = f.top(ev["slot"] - 1)
                if top is not None and top.name == ev.get("card"):
                    if ev["effect"] == "trash":
                        f.trash(-1, ev["slot"])
                    else:
                        f.exhausted(-1, ev["slot"])
                        if ev["card"] in self.exhausted.get(side, []):
                            self.exhausted[side].remove(ev["card"])
                        kev = {"type": "kind-exhausted", "turn": "combat", "side": side, "card": ev["card"],
                               "slot": ev["slot"], "on_board": [], "leaves": True, "last": ev.get("last"),
                               "cell": ev.get("cell"), "step": ev.get("step"), "rule": "field.kind-exhausted"}
                        links.append(kev)
                        self.events.append(kev)
                    self.link_field(side, "combat", links)
            elif ev.get("effect") == "uncover":
                for link in reversed(links):
                    if link["type"] == "link" and link["card"] == ev["card"] and link["cause"] == "uncover":
                        link.update({"pieces": list(ev["pieces"]) if not link["same_round"] else link["pieces"],
                                     "cell": ev.get("cell"), "step": ev.get("step"), "at_once": True})
                        break
        return links

    def production(self) -> None:
        self.start("production")
        # field actions in the 생산턴 come before its productions (a card placed now may produce now:
        # '이번 생산턴부터 별마대(12도르) 생산 가능'); those `at: combat` when no 전투턴 ran come here too
        pre: dict = {}
        ran = any(t["turn"] == "combat" for t in self.turns)
        self.field_actions("production", pre, lambda a: a.at == "production" or (a.at == "combat" and not ran))
        placed, errors, events = [], [], []
        f = self.fields.get(self.player)
        items = self.scn.produce
        at = len(self.unresolved)  # the placement-cell gap goes here once the placed pieces are known
        if items:
            if f is None:
                self.gap("production", "production-field-unknown", cards=sorted({x.card for x in items}),
                         rule="production.requires-active")
        counters: dict[str, int] = {}
        for it in items:
            self._produce(it, f, counters, placed, errors, events)
        if placed:  # the pages do not say where a produced piece goes: a gap for the pieces actually placed
            self.unresolved.insert(at, {"reason": "production-cell-unknown", "turn": "production",
                                        "cells": sorted({x["cell"] for x in placed}, key=cell_sort_key),
                                        "rule": "production.placement"})
        self.turns.append({"turn": "production", "result": {
            "placed": placed, "errors": pre.get("errors", []) + errors, "events": events, "dor": dict(self.dor),
            "unresolved": [u for u in self.unresolved if u["turn"] == "production"],
            **({"field_actions": pre["field_actions"], "links": pre["links"]} if pre else {})}})

    def _produce(self, it, f, counters: dict[str, int], placed: list, errors: list, events: list) -> None:
        """One production item: refused (its reason), or its card activated if set face down, paid and placed."""
        board = self.scn.board
        card, cell, idx = it.card, it.cell, it.index

        def refuse(reason, **detail):
            errors.append({"produce": idx, "card": card, "cell": cell, "reason": reason,
                           "rule": PRODUCTION_RULE[reason], **detail})

        slot = None
        if f is not None:
            slot = self.card_slot(self.player, card)
            if slot is None:
                under = any(c.name == card for s in f.slots for c in s[:-1])
                refuse("card-retired" if under else "card-not-on-field")
                return
        if not board.on_board(cell):
            refuse("off-board", sea=cell in board.sea)
            return
        if self.count(cell) >= CELL_LIMIT:
            refuse("cell-full")
            return
        if self.count(cell, self.player) >= SIDE_LIMIT:
            refuse("destination-full")
            return
        cost = self.corpus.cards[card].get("cost")
        have = self.dor[self.player]
        if cost is not None and have is not None and have < cost:
            refuse("not-enough-dor", cost=cost, dor=have, interpretation="interp.production.cost-from-dor")
            return
        activated = False
        if slot is not None and not slot[1].face_up:
            e0 = len(f.errors)
            before = self._field_state(f)
            f.activate(-1, slot[0])
            if len(f.errors) > e0:
                f.errors.pop()
                refuse("grade-requirement", slot=slot[0])
                return
            activated = True
            entry = next((e for e in reversed(f.events) if e["type"] == "entry" and e["card"] == card), None)
            after = self._field_state(f)
            changed = [{"card": k, "lv_before": before[0].get(k), "lv_after": v,
                        "pieces": self.on_board_of(self.player, k)}
                       for k, v in after[0].items() if before[0].get(k) != v and k != card]
            bonds = [{"card": a, "with": b} for a, b in after[1].items() if before[1].get(a) != b]
            events.append({"type": "activate", "produce": idx, "card": card, "slot": slot[0],
                           "entry_effect": bool(entry and entry.get("has_entry_effect")),
                           "changed": changed, "bonds": bonds,
                           "rule": "production.requires-active"})
            self._seen[self.player] = len(f.events)
        if cost is None:
            self.gap("production", "production-cost-unknown", card=card, produce=idx,
                     rule="production.requires-active", interpretation="interp.production.cost-from-dor")
        elif have is None:
            self.gap("production", "dor-unknown", card=card, cost=cost, produce=idx, rule="supply.income")
        else:
            self.dor[self.player] = have - cost
            events.append({"type": "pay", "produce": idx, "card": card, "cost": cost, "before": have,
                           "after": have - cost, "rule": "production.requires-active",
                           "interpretation": "interp.production.cost-from-dor"})
        pid = it.id
        if pid is None:
            base = f"{self.player}-{card}"
            while True:
                counters[base] = counters.get(base, 0) + 1
                pid = f"{base}-{counters[base]}"
                if pid not in self.pieces:
                    break
        c = self.corpus.cards[card]
        self.pieces[pid] = PieceSpec(id=pid, side=self.player, cell=cell, card=card, name=None, lv=c.get("lv"),
                                     hp=c.get("hp"), atk=c.get("atk"), cost=c.get("cost"),
                                     state=PieceState.MOBILE, structure=bool(c.get("structure")),
                                     order=self._order, line=it.line)
        self._order += 1
        self.on_board.add(pid)
        placed.append({"produce": idx, "piece": pid, "card": card, "cell": cell, "state": "mobile",
                       "cost": cost, "activated": activated})
        events.append({"type": "place", "produce": idx, "piece": pid, "card": card, "cell": cell,
                       "state": "mobile", "rule": "production.placement"})

    def blackout(self) -> None:
        self.start("blackout")
        pre: dict = {}  # field actions in the 암막턴 come before its flips
        self.field_actions("blackout", pre, lambda a: a.at == "blackout")
        flipped, errors, events = [], [], []
        retired = set()
        if self.player in self.fields:
            retired = {c.name for s in self.fields[self.player].slots for c in s if c.type == "piece" and c.retired}
        for it in self.scn.blackout:
            pid, to, idx = it.piece, it.to, it.index

            def refuse(reason, **detail):
                errors.append({"blackout": idx, "piece": pid, "to": to, "reason": reason,
                               "rule": BLACKOUT_RULE[reason], **detail})

            p = self.pieces.get(pid)
            if p is None:
                refuse("no-such-piece")
                continue
            if pid not in self.on_board:
                where = ("prisoner" if any(pid in v for v in self.prisoners.values())
                         else "fragment" if pid in self.fragments else "removed")
                refuse("not-on-board", where=where)
                continue
            if p.side != self.player:
                refuse("not-own-piece", side=p.side)
                continue
            if p.state.value == to:
                refuse("already-in-state")
                continue
            if to == "mobile" and p.card in retired:
                self.gap("blackout", "retired-card-flip", piece=pid, card=p.card, rule="field.retire")
            self.set_state(pid, to)
            flipped.append({"piece": pid, "from": p.state.value, "to": to, "cell": p.cell})
            events.append({"type": "flip", "blackout": idx, "piece": pid, "from": p.state.value, "to": to,
                           "cell": p.cell, "rule": "blackout.flip"})
        self.turns.append({"turn": "blackout", "result": {
            "flipped": flipped, "errors": pre.get("errors", []) + errors, "events": events,
            "unresolved": [u for u in self.unresolved if u["turn"] == "blackout"],
            **({"field_actions": pre["field_actions"], "links": pre["links"]} if pre else {})}})

    # ------------------------------------------------------------- result
    def final(self) -> dict:
        levels: dict[str, dict] = {}
        field_out = None
        if self.fields:
            field_out = {}
            for side, f in self.fields.items():
                r = f.result()
                levels[side] = dict(r.levels)
                field_out[side] = {"slots": list(r.slots), "active": list(r.active), "retired": list(r.retired),
                                   "levels": dict(r.levels), "bonds": dict(r.bonds)}
        cells: dict[str, dict] = {}
        for p in sorted(self.board_pieces(), key=lambda p: (cell_sort_key(p.cell), p.order)):
            lv = p.lv
            if p.card and "lv" not in p.given and levels.get(p.side, {}).get(p.card) is not None:
                lv = levels[p.side][p.card]
            item = {"id": p.id, **({"card": p.card} if p.card else {"name": p.name}), "state": p.state.value,
                    "lv": lv, "hp": p.hp, "atk": p.atk, "cost": p.cost, "structure": p.structure}
            cells.setdefault(p.cell, {}).setdefault(p.side, []).append(item)
        contested = []
        for cell, by_side in cells.items():
            if len(by_side) > 1:
                mobile = any(q["state"] == "mobile" for ps in by_side.values() for q in ps)
                # both sides in one cell after the round: 대립 when no mobile piece (combat.standoff), else
                # an encounter cell at the next 전투턴 — the opponent's round, its turn player attacking
                contested.append({"cell": cell, "standoff": not mobile, "rule": "combat.standoff" if not mobile
                                  else "move.encounter"})
        out = {"cells": cells, "contested": contested, "vp": dict(self.vp), "dor": dict(self.dor),
               "prisoners": {s: list(v) for s, v in self.prisoners.items()}, "fragments": list(self.fragments),
               "removed": list(self.removed)}
        if field_out is not None:
            out["field"] = field_out
        return out


def _play(scn: RoundScenario, corpus, as_of: str) -> RoundPlay:
    return play_turns(RoundPlay(scn, corpus, as_of))


def play_turns(r: RoundPlay) -> RoundPlay:
    """The seven turns of the round `r` is set up for (a new RoundPlay, or RoundPlay.begin for a game's
    next round)."""
    r.victory()
    if r.ended is None:
        r.supply()
        encounters = r.move()
        r.combat(encounters)
        r.production()
        r.blackout()
    return r


def round_combat(scn: RoundScenario, corpus, as_of: str | None = None) -> Scenario | None:
    """The combat scenario the round's 전투턴 fought (the board after its 이동턴, the declarations
    that stood), or None when no 전투턴 ran: what --all-branches enumerates the orders of."""
    return _play(scn, corpus, as_of or scn.as_of or corpus.latest_date()).combat_scenario


def run_round(scn: RoundScenario, corpus, as_of: str | None = None) -> RoundResult:
    as_of = as_of or scn.as_of or corpus.latest_date()
    r = _play(scn, corpus, as_of)
    out = round_json(r, scn, as_of, {s: scn.vp.get(s, 0) for s in r.sides}, {s: scn.dor.get(s, 0) for s in r.sides})
    return RoundResult.from_json(out)


def round_json(r: RoundPlay, scn: RoundScenario, as_of: str, vp_before: dict, dor_before: dict) -> dict:
    """The result JSON of the round `r` has played (kind round's shape; a game's rounds too)."""
    if scn.outside:
        r.unresolved.insert(0, {"reason": "outside-example-board", "turn": None, "cells": list(scn.outside),
                                "rule": "move.off-board"})
    pieces = {p.id: {"label": p.card or p.name or p.id, "side": p.side, "card": p.card, "name": p.name}
              for p in r.pieces.values()}
    out = {"kind": "round", "title": scn.title, "as_of": as_of, "player": r.player, "opponent": r.opponent,
           "turns": r.turns, "ended": r.ended, "final": r.final(), "events": r.events,
           "unresolved": [], "assumed": r.assumed, "pieces": pieces,
           "board": {"label": scn.board.label, "values": dict(scn.board.values),
                     "homes": {s: list(c) for s, c in r.homes.items()}},
           "vp_before": dict(vp_before), "dor_before": dict(dor_before)}
    # every gap any turn met, in turn order: the sub-turns' own gaps and the round's (their Korean
    # messages are made by the presentation layer: render.word_result)
    for t in r.turns:
        res = t["result"]
        if t["turn"] in ("victory", "move"):
            for u in res.get("unresolved", []):
                out["unresolved"].append({**u, "turn": t["turn"]})
    for u in r.unresolved:
        out["unresolved"].append(u)
    for t in r.turns:  # the round's own gaps, also listed under the turn that met them
        if t["turn"] in ("supply", "production", "blackout"):
            t["result"]["unresolved"] = [u for u in out["unresolved"] if u.get("turn") == t["turn"]]
    return out
