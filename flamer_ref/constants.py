"""Names shared by the data layer (corpus) and the search (search): kept here so that
neither imports the other (no import cycles; tests/cli/test_purity.py)."""

FACTIONS = {"DGM": "대광명연방", "BGM": "밤결무리"}

#: the least value a piece's stat may have wherever it is stated (card data, scenario files, the one-line
#: fight, the terminal prompt): HP is the HP at the start of a combat, so at least 1 (a piece at 0 or less
#: is captured at once, combat.attack); Lv, ATK and cost at least 0
STAT_MIN = {"lv": 0, "hp": 1, "atk": 0, "cost": 0}


def stat_in_range(stat: str, value: int) -> bool:
    """Whether `value` may be stated for the stat (lv, hp, atk, cost): at least STAT_MIN[stat]."""
    return value >= STAT_MIN[stat]
