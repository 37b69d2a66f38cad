"""Names shared by the data layer (corpus) and the search (search): kept here so that
neither imports the other (no import cycles; tests/test_purity.py)."""

FACTIONS = {"DGM": "대광명연방", "BGM": "밤결무리"}
