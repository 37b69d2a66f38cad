"""The JSON Schema of scenario files (schemas/scenario.schema.json), built from
the alias tables so that an editor accepts every Korean key and value the tool
accepts (an effect item's keys, hover texts and value types from the primitive registry,
engine/primitives/). Regenerate after changing aliases.py, a primitive or the scenario keys:

    python -m flamer_ref.engine.scenario_schema > schemas/scenario.schema.json

tests/scenarios/test_scenario_input.py checks that the file equals `build()`.

The schema is for editors (completion, hover text, typos flagged as you type);
the tool's own checks (scenario.py, turns.py) stay the authority: they also
accept English keys in any letter case, and check what a schema cannot (piece
ids that exist, 3/6 pieces per cell, the response order …)."""

from __future__ import annotations

import json

from .aliases import (ADJACENCY_VALUES, AT_VALUES, BOOL_VALUES, FACE_VALUES, KEYS, KIND_VALUES, ROUND_VALUES, SPACED,
                      STATE_VALUES)
from .primitives import HEADS, effect_hover, effect_item_schema
from .types import STAT_MIN

#: canonical key → Korean description (hover text), per context
DESCRIPTIONS: dict[str, dict[str, str]] = {
    "top": {
        "kind": "시나리오 종류: 전투(combat), 이동(move), 승리확인(victory), 필드(field), 라운드(round, 일곱 턴), 게임(game, 라운드를 번갈아).",
        "title": "제목. 아무 설명.",
        "as_of": "기준일 YYYY-MM-DD: 이 날짜까지 나온 판정만 적용. 없으면 최신 판정까지.",
        "attacker": "전투·이동: 턴 플레이어(공격자)의 진영 코드. 셀에 나오는 다른 진영이 수비자.",
        "player": "승리확인(·라운드): 그 턴을 하는 턴 플레이어의 진영 코드.",
        "board": "보드: {너비, 높이, 인접, 바다} 또는 {셀, 이웃}. 없으면 예시 보드(공식 지도 아님).",
        "field": "필드: 전투에서는 {진영: [다섯 자리]}, 필드 종류에서는 [다섯 자리]. 자리: 카드 이름 | {세트: 카드} | 빈자리 (null도 빈자리).",
        "cells": "셀: \"x,y\" → 진영 코드 → 기물 목록 (한 셀에 한 진영 3기, 합쳐 6기까지).",
        "response": "대응턴 선언 목록, 선언한 순서대로. 첫 항목은 수비자의 것.",
        "combat_order": "조우 셀이 여럿일 때 공격자가 고른 해소 순서 (셀 목록).",
        "battle_cards": "전투 1단계의 (전투) 특수카드 선언 목록 (셀 필수).",
        "first_round": "이동: 선공의 첫 라운드면 true (이동 활성화 셀 1곳).",
        "activate": "이동: 이동 활성화 셀 목록.",
        "moves": "이동: 이동 목록 {기물, 경로, 능력?} — 동시에 일어남.",
        "vp": "승리확인: 확인 전의 VP {진영: 수}.",
        "homes": "승리확인: 본진 셀 {진영: [셀 두 개]}.",
        "side": "필드: 필드의 주인 진영 코드.",
        "actions": "필드: 차례대로 하는 행동 목록.",
        "dor": "라운드: 라운드 전의 도르 {진영: 수}.",
        "move": "라운드: 이동턴 {활성화, 이동}.",
        "field_actions": "라운드: {진영: [필드 행동]}.",
        "produce": "라운드: 생산 목록 {카드, 셀}.",
        "blackout": "라운드: 암막턴 뒤집기 {기물, 상태}.",
        "first_player": "게임: 1라운드를 하는 진영(선공). 이후 라운드는 번갈아.",
        "rounds": "게임: 라운드 목록, 차례대로 — 항목마다 라운드 종류의 라운드별 키(이동턴, 대응, 생산, 암막 …).",
        "prisoners": "게임: 시작할 때의 포로 영역 {잡은 진영: [기물 id]}.",
    },
    "round_entry": {
        "player": "이 라운드의 턴 플레이어 (확인용: 선공부터 번갈아야 함).",
        "field_actions": "{진영: [필드 행동]}.", "move": "이동턴 {활성화, 이동}.",
        "response": "대응턴 선언 목록.", "battle_cards": "전투 1단계의 (전투) 특수카드 선언 목록.",
        "combat_order": "조우 셀이 여럿일 때 공격자가 고른 해소 순서.", "produce": "생산 목록 {카드, 셀}.",
        "blackout": "암막턴 뒤집기 {기물, 상태}.",
    },
    "piece": {
        "id": "기물 id: 결과에 나오는 이름. 없으면 자동.",
        "card": "카드 이름 (카드 데이터베이스의 수치가 기본값; 오타는 고쳐 읽고 알림).",
        "name": "카드 대신: 데이터베이스에 없는 임시 기물 이름 (레벨·체력·공격력 필수).",
        "lv": "Lv (레벨), 0 이상.", "hp": "전투가 시작될 때의 HP (체력), 1 이상.", "atk": "ATK (공격력), 0 이상.",
        "cost": "cost (비용), 0 이상.",
        "state": "상태: 기동(mobile, 앞면; 기본) | 정착(settled, 뒷면).",
        "structure": "구조물인가: 기본은 카드대로.",
    },
    "decl": {
        "side": "선언한 진영 코드.", "card": "(대응) 특수카드, 또는 (대응) SP를 가진 기물 카드의 이름.",
        "ability": "카드의 어느 능력인가 (여럿일 때).", "piece": "(대응) SP를 선언하는 정착 기물의 id.",
        "effect": "효과를 직접 적기 (카드 데이터에 효과가 없을 때 필수).", "target": "대상 기물 id.",
        "cell": "적용 셀 \"x,y\".", "cost": "비용: {파괴: 기물 id} 또는 그 목록. 선언 때 바로 냄.",
    },
    "effect": effect_hover(),  # each primitive's own (engine/primitives/)
    "cost": {"destroy": "파괴(헌납)할 기물 id."},
    "selector": {"own": "자기 기물만.", "card": "카드 이름.", "state": "상태."},
    "move": {"piece": "움직이는 기물 id.", "path": "들어가는 셀을 차례로 (출발 셀 제외).",
             "sp": "(이동) SP 이름 — SP로 움직일 때."},
    "board": {"width": "가로 셀 수.", "height": "세로 셀 수.",
              "adjacency": "인접: 팔방(square8) | 사방(square4) | 육각(hex).", "sea": "바다 셀 목록.",
              "cells": "셀을 직접 나열할 때의 목록.", "neighbors": "셀 → 이웃 셀 목록.", "label": "보드 이름.",
              "values": "셀 → 가치.", "homes": "진영 → 본진 셀."},
    "action": {"place": "놓을 카드 이름.", "slot": "자리 번호 1~5.", "face": "앞면(up) | 뒷면(down).",
               "activate": "N번 자리의 뒷면 카드를 앞면으로.", "trash": "N번 자리 맨 위 카드를 트래쉬로.",
               "round": "다음(next): 다음 라운드로.", "exhausted": "N번 자리 기물 카드의 종류 한도가 다 소진됨.",
               "at": "라운드: 이 행동을 하는 턴 (보급턴·이동턴·대응턴·전투턴·생산턴·암막턴; 없으면 보급턴 뒤)."},
    "slot": {"set": "뒷면으로 세트한 카드 이름."},
    "turn_move": {"activate": "이동 활성화 셀 목록.", "moves": "이동 목록.",
                  "cards": "이 이동턴에 쓰는 (이동) 특수카드 이름 목록 (효과 문안이 룰북에 없으면 unresolved로 알림)."},
    "produce": {"card": "생산할 카드 이름.", "cell": "놓을 셀.", "id": "새 기물의 id (없으면 자동: 진영-카드-n). 암막턴에 이 id로 뒤집을 수 있음."},
    "blackout": {"piece": "뒤집을 자기 기물 id.", "to": "정착 | 기동."},
}


def _enum(table: dict, canonical) -> dict:
    names = set(canonical) | set(table) | {SPACED[k] for k in table if k in SPACED}
    return {"enum": sorted(names, key=lambda v: (not v.isascii(), v))}


def _aliases(ctx: str) -> dict[str, list[str]]:
    """canonical key → its aliases (with the spaced form of a two-word alias)."""
    out: dict[str, list[str]] = {}
    for alias, canon in KEYS[ctx].items():
        out.setdefault(canon, []).append(alias)
        if alias in SPACED:
            out[canon].append(SPACED[alias])
    return out


def _object(ctx: str, props: dict[str, dict], *, required_any: list[str] | None = None) -> dict:
    """An object whose properties are the canonical keys of ctx and each of their aliases."""
    ko = _aliases(ctx)
    properties: dict[str, dict] = {}
    for canon, schema in props.items():
        desc = DESCRIPTIONS[ctx][canon]
        names = [canon] + ko.get(canon, [])
        for name in names:
            alias_note = f" (= {canon})" if name != canon else (f" 한국어 키: {', '.join(ko[canon])}." if canon in ko else "")
            properties[name] = {**schema, "description": desc + alias_note}
    out: dict = {"type": "object", "properties": properties, "additionalProperties": False}
    if required_any:
        out["anyOf"] = [{"required": [n]} for n in required_any]
    return out


def _spellings(ctx: str, canon: str) -> list[str]:
    return [canon] + _aliases(ctx).get(canon, [])


def build() -> dict:
    cell = {"$ref": "#/$defs/cell"}
    cells = {"type": "array", "items": cell}
    side_int = {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0}}
    kinds = _enum({**KIND_VALUES, **{k + "턴": v for k, v in KIND_VALUES.items() if k not in ("라운드", "게임")}}, KIND_VALUES.values())
    kinds["enum"] += [k + " 턴" for k in KIND_VALUES if k not in ("라운드", "게임") and k + " 턴" not in kinds["enum"]]
    defs = _defs(cell, cells)
    top = _top(cell, cells, side_int, kinds)
    rules = _kind_rules(kinds)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://flamer-ref.invalid/schemas/scenario.schema.json",
        "title": "flamer simulate 시나리오 파일",
        "description": ("flamer simulate가 푸는 시나리오 (docs/SCENARIOS.md). 키는 영어나 한국어로 적습니다. "
                        "편집기용 스키마이며, 기물 id가 있는지·셀 인원 제한·대응 순서 같은 검사는 flamer simulate가 합니다. "
                        "flamer_ref/engine/scenario_schema.py가 만듭니다 — 손으로 고치지 마세요."),
        **top,
        "allOf": rules,
        "$defs": defs,
    }


def _defs(cell: dict, cells: dict) -> dict:
    """The schema's `$defs`: a cell, a piece, the field, an effect (from the primitive registry), a
    declaration, a move, a board, a field action, the items of the turns and a game's round entry."""
    defs: dict = {
        "cell": {"description": "셀: \"x,y\" (또는 [x, y]).",
                 "oneOf": [{"type": "string"},
                           {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2}]},
        "boolish": {"description": "true/false (예/아니오도 됩니다).",
                    "oneOf": [{"type": "boolean"}, {"enum": sorted(BOOL_VALUES)}]},
        "state": {"description": "기동(mobile, 앞면) | 정착(settled, 뒷면).",
                  **_enum(STATE_VALUES, ("mobile", "settled"))},
        "piece": _object("piece", {
            "id": {"type": ["string", "integer"]}, "card": {"type": "string"}, "name": {"type": "string"},
            **{s: {"type": "integer", "minimum": STAT_MIN[s]} for s in ("lv", "hp", "atk", "cost")},  # types.STAT_MIN
            "state": {"$ref": "#/$defs/state"}, "structure": {"$ref": "#/$defs/boolish"},
        }, required_any=_spellings("piece", "card") + _spellings("piece", "name")),
        "pieces": {"description": "한 진영의 기물 목록 (3기까지).", "type": ["array", "null"],
                   "items": {"$ref": "#/$defs/piece"}, "maxItems": 3},
        "cells": {"description": DESCRIPTIONS["top"]["cells"], "type": "object",
                  "additionalProperties": {"type": "object", "additionalProperties": {"$ref": "#/$defs/pieces"}}},
        "slot_card": {"oneOf": [{"type": "string"},
                                _object("slot", {"set": {"type": "string"}}, required_any=_spellings("slot", "set"))]},
        "slot": {"description": "필드 자리: 카드 이름(앞면) | {세트: 카드}(뒷면 세트) | 빈자리(또는 null) | "
                                "[맨 위 카드, 그 아래 카드, …](엎어 세트한 묶음, 위에서부터).",
                 "oneOf": [{"$ref": "#/$defs/slot_card"}, {"type": "null"},
                           {"type": "array", "items": {"$ref": "#/$defs/slot_card"}, "minItems": 1}]},
        "field_row": {"description": "왼쪽부터 1~5번 자리.", "type": "array", "items": {"$ref": "#/$defs/slot"},
                      "minItems": 5, "maxItems": 5},
        "effect_item": {**_object("effect", effect_item_schema(),  # from the primitive registry
                                  required_any=[n for c in HEADS for n in _spellings("effect", c)])},
        "effect": {"oneOf": [{"$ref": "#/$defs/effect_item"},
                             {"type": "array", "items": {"$ref": "#/$defs/effect_item"}, "minItems": 1}]},
        "cost_item": _object("cost", {"destroy": {"oneOf": [{"type": "string"}, _object("selector", {
            "own": {"$ref": "#/$defs/boolish"}, "card": {"type": "string"}, "state": {"$ref": "#/$defs/state"}})]}},
            required_any=_spellings("cost", "destroy")),
        "declaration": _object("decl", {
            "side": {"type": "string"}, "card": {"type": "string"}, "ability": {"type": "string"},
            "piece": {"type": ["string", "integer"]}, "effect": {"$ref": "#/$defs/effect"},
            "target": {"type": ["string", "integer"]}, "cell": cell,
            "cost": {"oneOf": [{"$ref": "#/$defs/cost_item"}, {"type": "array", "items": {"$ref": "#/$defs/cost_item"}}]},
        }, required_any=_spellings("decl", "side")),
        "move_item": _object("move", {"piece": {"type": ["string", "integer"]},
                                      "path": {"type": "array", "items": cell, "minItems": 1},
                                      "sp": {"type": "string"}}, required_any=_spellings("move", "piece")),
        "board": _object("board", {
            "width": {"type": "integer", "minimum": 1}, "height": {"type": "integer", "minimum": 1},
            "adjacency": _enum(ADJACENCY_VALUES, ("square8", "square4", "hex")), "sea": cells, "cells": cells,
            "neighbors": {"type": "object", "additionalProperties": cells}, "label": {"type": "string"},
            "values": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0}},
            "homes": {"type": "object", "additionalProperties": cells},
        }),
        "action": _object("action", {
            "place": {"type": "string"}, "slot": {"type": "integer", "minimum": 1, "maximum": 5},
            "face": _enum(FACE_VALUES, ("up", "down")), "activate": {"type": "integer"},
            "trash": {"type": "integer"}, "round": _enum(ROUND_VALUES, ("next",)), "exhausted": {"type": "integer"},
            "at": _enum(AT_VALUES, ("victory", "supply", "move", "response", "combat", "production", "blackout")),
        }),
        "turn_move": _object("turn_move", {"activate": cells,
                                           "moves": {"type": "array", "items": {"$ref": "#/$defs/move_item"}},
                                           "cards": {"type": "array", "items": {"type": "string"}}}),
        "produce_item": _object("produce", {"card": {"type": "string"}, "cell": cell, "id": {"type": ["string", "integer"]}}),
        "blackout_item": _object("blackout", {"piece": {"type": ["string", "integer"]},
                                              "to": {"$ref": "#/$defs/state"}}),
    }
    defs["round_entry"] = _object("round_entry", {
        "player": {"type": "string"},
        "field_actions": {"type": "object", "additionalProperties": {"type": "array", "items": {"$ref": "#/$defs/action"}}},
        "move": {"$ref": "#/$defs/turn_move"},
        "response": {"type": "array", "items": {"$ref": "#/$defs/declaration"}},
        "battle_cards": {"type": "array", "items": {"$ref": "#/$defs/declaration"}},
        "combat_order": {"type": "array", "items": cell, "minItems": 1},
        "produce": {"type": "array", "items": {"$ref": "#/$defs/produce_item"}},
        "blackout": {"type": "array", "items": {"$ref": "#/$defs/blackout_item"}},
    })
    return defs


def _top(cell: dict, cells: dict, side_int: dict, kinds: dict) -> dict:
    """The top level of a scenario file of any kind."""
    top = _object("top", {
        "kind": kinds, "title": {"type": "string"}, "as_of": {"type": "string", "pattern": r"^\d{4}-\d{2}-\d{2}$"},
        "attacker": {"type": "string"}, "player": {"type": "string"}, "board": {"$ref": "#/$defs/board"},
        "field": {"oneOf": [{"$ref": "#/$defs/field_row"},
                            {"type": "object", "additionalProperties": {"$ref": "#/$defs/field_row"}}]},
        "cells": {"$ref": "#/$defs/cells"},
        "response": {"type": "array", "items": {"$ref": "#/$defs/declaration"}},
        "combat_order": {"type": "array", "items": cell, "minItems": 1},
        "battle_cards": {"type": "array", "items": {"$ref": "#/$defs/declaration"}},
        "first_round": {"$ref": "#/$defs/boolish"}, "activate": cells,
        "moves": {"type": "array", "items": {"$ref": "#/$defs/move_item"}},
        "vp": side_int, "homes": {"type": "object", "additionalProperties": cells}, "side": {"type": "string"},
        "actions": {"type": "array", "items": {"$ref": "#/$defs/action"}},
        "dor": side_int, "move": {"$ref": "#/$defs/turn_move"},
        "field_actions": {"type": "object", "additionalProperties": {"type": "array", "items": {"$ref": "#/$defs/action"}}},
        "produce": {"type": "array", "items": {"$ref": "#/$defs/produce_item"}},
        "blackout": {"type": "array", "items": {"$ref": "#/$defs/blackout_item"}},
        "first_player": {"type": "string"},
        "rounds": {"type": "array", "items": {"$ref": "#/$defs/round_entry"}, "minItems": 1},
        "prisoners": {"type": "object", "additionalProperties": {"type": "array", "items": {"type": ["string", "integer"]}}},
    }, required_any=_spellings("top", "kind"))
    return top


def _kind_rules(kinds: dict) -> list:
    """What each kind requires (either spelling of the key; either spelling of the kind)."""
    kind_names = _spellings("top", "kind")
    needs = {"combat": ("attacker", "cells"), "move": ("attacker", "cells"), "victory": ("player",),
             "field": ("side", "field"), "round": ("player", "cells"), "game": ("first_player", "cells", "rounds")}
    rules = []
    for kind, keys in needs.items():
        values = sorted(v for v in kinds["enum"] if KIND_VALUES.get(v.removesuffix("턴").strip(), v) == kind)
        rules.append({
            "if": {"anyOf": [{"required": [n], "properties": {n: {"enum": values}}} for n in kind_names]},
            "then": {"allOf": [{"anyOf": [{"required": [n]} for n in _spellings("top", k)]} for k in keys]},
        })
    return rules


def main() -> None:  # pragma: no cover - a maintenance command
    print(json.dumps(build(), ensure_ascii=False, indent=2))


if __name__ == "__main__":  # pragma: no cover
    main()
