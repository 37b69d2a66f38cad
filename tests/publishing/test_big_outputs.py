"""A combat of many cells (adversarial review: 1,000 cells took 12 s in HTML, 9 s in text): people's
formats explain the first EXPLAIN_CELLS cells event by event and list every cell's result; --json keeps
every event. The work is bounded by the number of explained cells, not by the scenario."""

from __future__ import annotations

import json

import pytest
import yaml

from inprocess import invoke

from flamer_ref.render import EXPLAIN_CELLS

N = EXPLAIN_CELLS + 10


def _doc() -> str:
    cells = {f"{i},0": {"A": [{"id": f"a{i}", "name": "x", "lv": 3, "hp": 2, "atk": 1}],
                        "B": [{"id": f"b{i}", "name": "y", "lv": 2, "hp": 1, "atk": 1}]} for i in range(N)}
    return yaml.safe_dump({"kind": "combat", "attacker": "A", "cells": cells}, allow_unicode=True)


@pytest.mark.parametrize("fmt", ["text", "md", "html"])
def test_people_formats_explain_the_first_cells_and_list_them_all(fmt):
    r = invoke("simulate", "-", "--format", fmt, input=_doc())
    assert r.exit_code == 0, r.stderr
    out = r.stdout
    assert f"셀이 {N}개라" in out and f"처음 {EXPLAIN_CELLS}셀만" in out
    last = f"{N - 1},0"
    assert last in out  # the result of every cell is listed
    # the event-by-event story of a cell past the limit is not told (its pieces appear only in the results)
    first_story = out.count("(0,0) 전투")  # cells as a player writes them in Korean text (issue 17)
    assert first_story >= 1 and out.count(f"({last}) 전투") == 0


def test_json_keeps_every_event():
    r = invoke("simulate", "-", "--json", input=_doc())
    data = json.loads(r.stdout)
    assert len(data["cells"]) == N
    assert {e.get("cell") for e in data["events"] if e.get("cell")} == set(data["cells"])


def test_a_small_combat_is_told_in_full():
    cells = {"0,0": {"A": [{"id": "a", "name": "x", "lv": 3, "hp": 2, "atk": 1}],
                     "B": [{"id": "b", "name": "y", "lv": 2, "hp": 1, "atk": 1}]}}
    r = invoke("simulate", "-", input=yaml.safe_dump({"kind": "combat", "attacker": "A",
                                                                         "cells": cells}))
    assert r.exit_code == 0 and "처음" not in r.stdout and "(0,0) 전투" in r.stdout
