"""The JSON Schema of cards/effects.yaml (schemas/effects.schema.json), made from the primitive registry
(engine/primitives/: each primitive's `data_schema`) and the item keys effects.py checks. Regenerate after
adding or changing a primitive:

    python -m flamer_ref.engine.effects_schema > schemas/effects.schema.json

tests/cli/test_engine_rooms.py checks that the file equals `build()`. As for scenario files, the schema is for
editors; `effects.parse_effects` (run by `flamer validate`) stays the authority — it also checks that each
card and ability is in cards.yaml and each source is a page."""

from __future__ import annotations

import json

from .effects import CHOOSE_CELL, CHOOSE_TARGET, TIMINGS
from .primitives import PRIMITIVES


def build() -> dict:
    strings = {"oneOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "cards/effects.yaml — 카드 효과 (엔진 데이터)",
        "description": ("flamer_ref/engine/effects.py의 parse_effects가 검사하는 형식. 효과의 기본 동작(primitive)은 "
                        "flamer_ref/engine/primitives/의 등록부에서 만듭니다 — flamer_ref/engine/effects_schema.py가 "
                        "만드니 손으로 고치지 마세요. card·ability가 cards.yaml에 있는지는 parse_effects가 검사합니다."),
        "type": ["object", "null"],
        "properties": {
            "effects": {"type": ["array", "null"], "items": {"$ref": "#/$defs/effect"}},
        },
        "additionalProperties": False,
        "$defs": {
            "piece": {"type": "string",
                      "description": "기물 id 또는 target(선언 때 고른 기물) / self(SP를 선언한 기물) / bonded(결속 기물)"},
            "cell": {"type": "string", "description": "\"x,y\" 또는 chosen(선언 때 고른 셀)"},
            "primitive": {"oneOf": [cls.data_schema for cls in PRIMITIVES]},
            "destroy": {
                "type": "object", "required": ["destroy"], "additionalProperties": False,
                "properties": {"destroy": {"oneOf": [
                    {"type": "string"},
                    {"type": "object", "additionalProperties": False,
                     "properties": {"own": {"type": "boolean"}, "card": {"type": "string"},
                                    "state": {"enum": ["mobile", "settled"]}}},
                ]}},
            },
            "effect": {
                "type": "object",
                "required": ["card", "ability", "timing", "effect", "source", "quote"],
                "additionalProperties": False,
                "properties": {
                    "card": {"type": "string", "description": "cards.yaml의 카드 이름"},
                    "ability": {"type": ["string", "null"], "description": "능력 이름; null = 특수카드 자체의 효과"},
                    "timing": {"enum": list(TIMINGS)},
                    "choose": {"oneOf": [
                        {"const": "none"}, {"type": "null"},
                        {"type": "object", "additionalProperties": False,
                         "properties": {"target": {"enum": list(CHOOSE_TARGET)}, "cell": {"enum": list(CHOOSE_CELL)},
                                        "cost": {"type": "string"}}},
                    ]},
                    "condition": {"type": "object", "additionalProperties": False,
                                  "properties": {"role": {"enum": ["attacker", "defender"]}}},
                    "cost": {"type": "array", "items": {"$ref": "#/$defs/destroy"}},
                    "effect": {"oneOf": [{"type": "null"},
                                         {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/primitive"}}]},
                    "source": strings,
                    "quote": strings,
                    "note": {"type": "string"},
                },
            },
        },
    }


def main() -> None:  # pragma: no cover - a maintenance command
    print(json.dumps(build(), ensure_ascii=False, indent=2))


if __name__ == "__main__":  # pragma: no cover
    main()
