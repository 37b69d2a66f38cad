"""rules/phrasings.yaml (issue 9): the everyday questions players ask about an entry are indexed as a
field of their own ('질문 예'), found by search and shown by --explain; the loader checks their ids."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from flamer_ref.corpus import load
from flamer_ref.searchindex import asked_of, load_index
from flamer_ref.errors import DataError
from flamer_ref.search import ASKED, search

ROOT = Path(__file__).resolve().parents[2]


def test_every_clause_faq_and_interpretation_has_questions():
    c = load()
    have = set(c.phrasings)
    assert set(c.clauses) | set(c.faq) | set(c.interpretations) <= have
    assert all(rec["asked"] for rec in c.phrasings.values())


def test_interpretation_questions_go_to_their_clause():
    c = load()
    interp = next(i for i in c.interpretations if i in c.phrasings)
    clause = c.interpretations[interp]["clause"]
    text = asked_of(c)[clause]
    assert all(q in text for q in c.phrasings[interp]["asked"])
    assert interp not in asked_of(c)


def test_a_player_question_finds_its_entry_through_the_asked_field():
    index = load_index()
    c = load()
    rec = c.phrasings["combat.attack"]
    res = search(index, rec["asked"][0], limit=3, details=True)
    assert "combat.attack" in [r["id"] for r in res]
    row = next(r for r in res if r["id"] == "combat.attack")
    assert any(x["field"] == "asked" for x in row["explain"])


def test_asked_field_is_never_the_title():
    # asked hits count in the body share only: an entry matched only there cannot outrank one whose
    # title says the same words
    assert ASKED > 2


def _tree(tmp_path: Path) -> Path:
    dst = tmp_path / "data"
    shutil.copytree(ROOT / "rules", dst / "rules")
    shutil.copytree(ROOT / "cards", dst / "cards")
    return dst


def test_unknown_id_is_a_data_error_naming_the_file_and_a_fix(tmp_path):
    root = _tree(tmp_path)
    p = root / "rules" / "phrasings.yaml"
    p.write_text(p.read_text(encoding="utf-8").replace("{id: combat.attack,", "{id: combat.atack,", 1),
                 encoding="utf-8")
    with pytest.raises(DataError) as exc:
        load(root, use_cache=False)
    text = str(exc.value)
    assert "rules/phrasings.yaml" in text and "combat.atack" in text and "combat.attack" in text


def test_empty_asked_list_is_refused(tmp_path):
    root = _tree(tmp_path)
    p = root / "rules" / "phrasings.yaml"
    lines = p.read_text(encoding="utf-8").splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("- {id: move.mov,"))
    lines[at] = "- {id: move.mov, asked: []}"
    p.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(DataError) as exc:
        load(root, use_cache=False)
    assert "move.mov" in str(exc.value) and "asked" in str(exc.value)


def test_card_questions_are_keyed_by_the_card_name():
    c = load()
    card = next(name for name in c.cards if name in c.phrasings)
    assert asked_of(c)[card] == " ".join(c.phrasings[card]["asked"])
    index = load_index()
    assert card in [r["id"] for r in search(index, c.phrasings[card]["asked"][0], limit=3)]
