"""Large-but-legal scenarios (issues 11 and 20): time and output size of `flamer simulate FILE`.

    python benchmarks/big_scenario.py            # every case below
    python benchmarks/big_scenario.py --quick    # smaller sizes (a smoke run)

Cases (each at or near a limit of docs/SCENARIOS.md 「입력 한도」):
  combat-1000      1,000 encounter cells (the most a scenario may have), 3 vs 3 pieces each (the reference)
  combat-1000x5    1,000 cells of 1 vs 1 with HP 5: five rounds each, 5,000 rounds in all (the budget)
  long-999         5 cells whose combat lasts 999 rounds (just under the 1,000-round limit): all computed
  budget           1,000 cells that would each last 998 rounds: past 5,000 rounds in all, the rest stop
  budget-3v3       1,000 cells of 3 vs 3 with HP 60: the budget spent on the busiest rounds
  declarations     1,000 cells of 3 vs 3 and 1,000 response declarations (the most), each attacking a cell
  round-limit      8 cells of HP 1,000,000,000: past the limit, stopped at once as `round-limit` gaps
  branches-1000    --all-branches on 1,000 independent cells: one branch, not 1,000! orders
  branches-stack   --all-branches on 1,000 cells and one 재부팅 (issue 20: one resolution per class of orders)
  branches-unknown --all-branches on 150 cells and a card whose effect is unknown (no classes: event budget)
  move-100x100     a 100 × 100 board (the largest), 1,000 pieces, 200 moves
Each is run with --json, with --compare 2026-09-01 (combat cases) and as the text explanation.

Each case is written to a temporary YAML file and run in a fresh process, as a person would run it;
the time includes start-up and printing. Prints the wall time, its ratio to the reference case
(combat-1000 --json, measured in the same run: the ratios hold on a busier or quieter machine), the
output size and the child's peak memory (ru_maxrss; an upper bound: on Linux it includes the image of
this benchmark process at fork). Nothing is asserted here; tests/test_hardening_*.py and
tests/hardening/test_limits_inside.py hold the bounds.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


def _piece(pid, lv, hp, atk, **kw):
    return {"id": pid, "name": "병", "lv": lv, "hp": hp, "atk": atk, **kw}


def combat_cells(n: int, per_side: int = 3, hp: int | None = None) -> dict:
    cells = {}
    for i in range(n):
        k = i % 7
        key = f"{i % 40},{i // 40}"
        if hp is not None:
            cells[key] = {"A": [_piece(f"a{i}", 3, hp, 1)], "B": [_piece(f"b{i}", 2, hp, 1)]}
            continue
        cells[key] = {
            "A": [_piece(f"a{i}-{j}", 2 + j + k % 3, 4 + j + k, 1 + (j + k) % 3, cost=j) for j in range(per_side)],
            "B": [_piece(f"b{i}-{j}", 1 + j + k % 4, 5 + j, 1 + (j * k) % 3, cost=j,
                         state="settled" if j == 0 else "mobile") for j in range(per_side)],
        }
    return cells


def _stack(doc: dict, **decl) -> dict:
    """doc with a settled 행성굴착기 in its first cell and one 재부팅 on it (or the given declaration)."""
    first = next(iter(doc["cells"].values()))
    first["B"][-1] = {"id": "drill", "card": "행성굴착기", "state": "settled", "cost": 5, "lv": 1, "hp": 2, "atk": 1}
    doc["response"] = [decl or {"side": "B", "card": "재부팅", "target": "drill"}]
    return doc


def cases(quick: bool) -> list[tuple[str, dict, list[str]]]:
    n = 100 if quick else 1000
    big = {"kind": "combat", "attacker": "A", "cells": combat_cells(n)}
    cells = combat_cells(n)
    out = [
        (f"combat-{n}", big, []),
        (f"combat-{n}x5", {"kind": "combat", "attacker": "A", "cells": combat_cells(n, hp=5)}, []),
        ("long-999", {"kind": "combat", "attacker": "A", "cells": {
            f"{i},0": {"A": [_piece(f"a{i}", 3, 2000, 1)], "B": [_piece(f"b{i}", 2, 999, 1)]} for i in range(5)}}, []),
        ("budget", {"kind": "combat", "attacker": "A", "cells": {
            f"{i % 40},{i // 40}": {"A": [_piece(f"a{i}", 3, 999, 1)], "B": [_piece(f"b{i}", 2, 998, 1)]}
            for i in range(n)}}, []),
        ("budget-3v3", {"kind": "combat", "attacker": "A", "cells": {
            f"{i % 40},{i // 40}": {"A": [_piece(f"a{i}-{j}", 2 + j, 60, 1, cost=j) for j in range(3)],
                                    "B": [_piece(f"b{i}-{j}", 1 + j, 60, 1, cost=j) for j in range(3)]}
            for i in range(n)}}, []),
        ("declarations", {"kind": "combat", "attacker": "A", "cells": cells, "response": [
            {"side": "B", "card": "재부팅", "effect": [{"attack": 1, "cell": f"{i % 40},{(i // 40) % 25}"}]}
            for i in range(n)]}, []),
        ("round-limit", {"kind": "combat", "attacker": "A", "cells": {
            f"{i},0": {"A": [_piece(f"a{i}", 3, 10 ** 9, 1)], "B": [_piece(f"b{i}", 2, 10 ** 9, 1)]}
            for i in range(8)}}, []),
        (f"branches-{n}", {"kind": "combat", "attacker": "A", "cells": combat_cells(n, hp=3)}, ["--all-branches"]),
        ("branches-stack", _stack({"kind": "combat", "attacker": "A", "cells": combat_cells(n)}), ["--all-branches"]),
        ("branches-unknown", _stack({"kind": "combat", "attacker": "A", "cells": combat_cells(min(n, 150))},
                                    side="B", card="기폭", cost=[{"destroy": "ant"}]), ["--all-branches"]),
    ]
    first = next(iter(out[-1][1]["cells"].values()))
    first["B"][-1] = {"id": "ant", "card": "개미", "state": "settled", "lv": 1, "hp": 2, "atk": 1, "cost": 1}
    side = 30 if quick else 100
    cells, moves = {}, []
    for i in range(n):
        x, y = (i * 7) % side, (i * 13 // side) % side
        key = f"{x},{y}"
        if key in cells:
            continue
        cells[key] = {"A": [_piece(f"m{i}", 2, 3, 1)]} if i % 2 else {"B": [_piece(f"m{i}", 2, 3, 1)]}
    movers = [(k, v["A"][0]["id"]) for k, v in cells.items() if "A" in v]
    activate = [movers[0][0], movers[1][0]]
    for key, pid in movers[: 200]:
        x, y = map(int, key.split(","))
        moves.append({"piece": pid, "path": [f"{min(side - 1, x + 1)},{y}"]})
    out.append((f"move-{side}x{side}", {"kind": "move", "attacker": "A",
                                        "board": {"width": side, "height": side, "adjacency": "square8"},
                                        "cells": cells, "activate": activate, "moves": moves}, []))
    return out


def run(doc: dict, extra: list[str], fmt_args: list[str]) -> tuple[float, int, int, int, float]:
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "big.yaml"
        path.write_text(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False), encoding="utf-8")
        size_in = path.stat().st_size
        env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
        out_path = Path(d) / "out.json"
        t = time.perf_counter()
        with open(out_path, "wb") as out, open(Path(d) / "err.txt", "wb") as err:
            child = subprocess.Popen([sys.executable, "-m", "flamer_ref", "simulate", str(path), *fmt_args, *extra],
                                     stdout=out, stderr=err, cwd=ROOT, env=env)
            _, status, usage = os.wait4(child.pid, 0)  # this child's own peak memory
        took = time.perf_counter() - t
        code = os.waitstatus_to_exitcode(status)
        if code != 0:
            sys.stderr.write((Path(d) / "err.txt").read_text("utf-8", "replace"))
        data = out_path.read_bytes()
        if fmt_args[:1] == ["--json"]:
            json.loads(data)  # one JSON object
        return took, len(data), size_in, code, usage.ru_maxrss / 1024


def main(argv: list[str]) -> None:
    quick = "--quick" in argv
    print(f"{'case':<17} {'output':<8} {'input':>9} {'exit':>4} {'time':>8} {'x ref':>6} {'output':>10} {'peak RSS':>9}")
    ref = None
    for name, doc, extra in cases(quick):
        runs = [("json", ["--json"])]
        if not extra and doc["kind"] == "combat":
            runs.append(("compare", ["--json", "--compare", "2026-09-01"]))
        if not extra:
            runs.append(("text", []))
        for label, fmt_args in runs:
            took, out, size_in, code, peak = run(doc, extra, fmt_args)
            ref = ref or took  # the first case's --json: combat-1000
            print(f"{name:<17} {label:<8} {size_in / 1024:>7.0f}KB {code:>4} {took:>7.2f}s {took / ref:>6.2f} "
                  f"{out / 1e6:>8.2f}MB {peak:>7.0f}MB", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
