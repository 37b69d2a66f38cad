"""The engine's small vocabulary: sides, roles, piece states, steps, event types
and the reason codes that results report. Everything here is a plain enum or
alias so that results serialise to the strings the scenario contract uses."""

from __future__ import annotations

from enum import Enum, IntEnum
from typing import Literal, NewType

#: A side code as written in a scenario (``DGM``, ``BGM``, ``ME`` ...).
Side = NewType("Side", str)
#: A cell key as written in a scenario (``"2,4"``).
CellId = NewType("CellId", str)
#: A piece id (unique in the scenario).
PieceId = NewType("PieceId", str)


class Kind(str, Enum):
    """The scenario kinds (docs/SCENARIOS.md): each parses into its own frozen scenario object
    (model.py, scenario.Scenario) and runs into its own frozen result (result.py)."""

    COMBAT = "combat"
    MOVE = "move"
    VICTORY = "victory"
    FIELD = "field"
    ROUND = "round"
    GAME = "game"


class Turn(str, Enum):
    """The seven turns of a round, in order (round.turns)."""

    VICTORY = "victory"  # 승리확인턴
    SUPPLY = "supply"  # 보급턴
    MOVE = "move"  # 이동턴
    RESPONSE = "response"  # 대응턴
    COMBAT = "combat"  # 전투턴
    PRODUCTION = "production"  # 생산턴
    BLACKOUT = "blackout"  # 암막턴


class Role(str, Enum):
    """Who a side is in this combat turn (combat.roles)."""

    ATTACKER = "attacker"  # the turn player, who made the last move turn
    DEFENDER = "defender"


class PieceState(str, Enum):
    MOBILE = "mobile"  # 앞면, 기동
    SETTLED = "settled"  # 뒷면, 정착


class Step(IntEnum):
    BATTLE_CARDS = 1  # (전투) 특수카드
    RESPONSE = 2  # 대응 결산
    SP = 3  # (전투) SP — SP 발동턴
    ATTACKER_VOLLEY = 4
    DEFENDER_VOLLEY = 5
    CHECK = 6
    SWEEP = 7  # 정리


class Phase(str, Enum):
    """When an event happened, outside the numbered combat steps."""

    SETUP = "setup"  # field effects read before anything happens
    RESPONSE_TURN = "response"  # 대응턴 declarations
    COMBAT = "combat"
    AFTER = "after"


class EventType(str, Enum):
    STEP = "step"
    FIELD = "field"  # a field effect (병풍, 결속) changed a piece's stats
    DECLARE = "declare"
    COST = "cost"
    RESOLVE = "resolve"
    FIZZLE = "fizzle"
    FLIP = "flip"
    DEPART = "depart"
    ARRIVE = "arrive"
    BUILD = "build"  # a new piece placed by an effect (production.placement)
    BUFF = "buff"
    SP = "sp"  # a (전투) SP fired (or would have, with an unknown effect)
    ATTACK = "attack"
    NO_ATTACK = "no-attack"
    CAPTURE = "capture"
    FRAGMENT = "fragment"
    STANDOFF = "standoff"
    STALEMATE = "stalemate"
    VACATED = "vacated"  # a combat cell lost every piece of one side (cost or stack)
    SWEEP = "sweep"
    RESTORE = "restore"
    END = "end"


class CaptureReason(str, Enum):
    HP = "hp"  # HP 0 or less (combat.attack)
    SETTLED_HIT = "settled-hit"  # hit while settled (combat.settled)
    SWEEP = "sweep"  # step 7 (combat.step7.sweep)


class FizzleReason(str, Enum):
    TARGET_GONE = "target-gone"  # the chosen piece left the cell or the board
    ALREADY = "already-in-state"
    NO_TARGET = "no-target"  # no opponent piece / no bonded piece at resolution
    COMBAT_ENDED = "combat-ended"  # the cell's combat already ended (vacated-combat-continues false)
    MOVE_BLOCKED = "move-blocked"  # the destination is full at resolution
    BUILD_BLOCKED = "build-blocked"  # a build's cell is full at resolution, or (맞대응) not a 대응 셀


class UnresolvedReason(str, Enum):
    STALEMATE = "stalemate"
    ROUND_LIMIT = "round-limit"  # the combat still changes but did not end within MAX_ROUNDS rounds
    RULING_NOT_IN_FORCE = "ruling-not-in-force"
    EFFECT_UNKNOWN = "effect-unknown"
    NO_RESOLUTION_POINT = "no-resolution-point"
    REMOTE_RANGE_UNKNOWN = "remote-range-unknown"  # a remote (전투) SP whose reach the board or pages do not give


class EndReason(str, Enum):
    DECIDED = "decided"  # steps 4–6 ran until a side had no mobile piece
    STANDOFF = "standoff"
    STALEMATE = "stalemate"
    VACATED = "vacated"  # ended on the spot (vacated-combat-continues false)


Duration = Literal["combat"]

#: Placeholders of an effect (engine/primitives/): where a piece is expected, ``target`` (the piece the player
#: chose at declaration), ``self`` (the piece whose SP is declared) or ``bonded`` (the pieces bonded to the
#: declaring card, chosen by the rule at resolution); where a cell is expected, ``chosen`` (the player's cell)
TARGET, SELF, BONDED, CHOSEN = "target", "self", "bonded", "chosen"
Timing = Literal["대응", "전투", "이동", "등장"]

#: Most pieces a side may have in one cell, and most in one cell in all (move.limit).
SIDE_LIMIT = 3
CELL_LIMIT = 6
#: A hard bound on rounds of steps 4–5 (a round that changes nothing stops first; a combat whose
#: rounds repeat and cannot end within the bound stops as soon as that is certain). The cards'
#: HP is at most a dozen or so, so a real combat never comes near it.
MAX_ROUNDS = 1_000
#: Most cells a scenario may list under `cells` (a real board has a few dozen).
MAX_SCENARIO_CELLS = 1_000
#: Most declarations (response + battle_cards together) a scenario may list, and most items their
#: inline `effect:` lists may hold together (a real combat turn has a handful of each): 10,000
#: declarations in a 1.3–1.9 MB file took 7–30 s.
MAX_DECLARATIONS = 1_000
MAX_EFFECT_ITEMS = 1_000

#: The least value a piece's stat may be given, wherever it is given: a scenario file of any kind
#: (scenario.parse_cells), the one-line `flamer fight` (oneliner) and its terminal prompt (cli), and the
#: JSON Schema (scenario_schema). A stated hp is the piece's HP at the start of a combat: damage lasts
#: only until the combat ends ('전투가 끝나면 원복', combat.attack) and a piece whose HP reaches 0 or
#: less is captured at once, so no piece on the board has HP below 1. Lv, ATK and cost are never
#: negative (ATK 0 is a piece that makes no attack). Lowering a stat inside a combat
#: is an effect (`buff`), not a stated value, and is not bounded here.
from ..constants import STAT_MIN, stat_in_range  # noqa: E402,F401 - shared with the card data
