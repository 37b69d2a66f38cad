"""Large-but-legal scenarios (issue 11): time and JSON size of `flamer simulate FILE --json`.

    python benchmarks/big_scenario.py            # every case below
    python benchmarks/big_scenario.py --quick    # smaller sizes (a smoke run)

Cases (each at or near an engine limit of docs/SCENARIOS.md 「입력 한도」):
  combat-1000      1,000 encounter cells (the most a scenario may have), 3 vs 3 pieces each
  combat-1000x10   1,000 cells of 1 vs 1 with HP 10: ten rounds each
  long-999         8 cells whose combat lasts 999 rounds (just under the 1,000-round limit): all computed
  budget           1,000 cells that would each last 998 rounds: past 10,000 rounds in all, the rest stop
  round-limit      8 cells of HP 1,000,000,000: past the limit, stopped at once as `round-limit` gaps
  branches-1000    --all-branches on 1,000 independent cells: one branch, not 1,000! orders
  move-100x100     a 100 × 100 board (the largest), 1,000 pieces, 200 moves

Each case is written to a temporary YAML file and run in a fresh process, as a person would run it
(python -m flamer_ref simulate FILE --json, and the text explanation without --json); the time includes
start-up and printing. Prints the wall time, the output size and the child's peak memory (ru_maxrss; an
upper bound: on Linux it includes the image of this benchmark process at fork, ~100-160 MB here). Nothing is asserted here;
tests/test_hardening_*.py hold the bounds.
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


def cases(quick: bool) -> list[tuple[str, dict, list[str]]]:
    n = 100 if quick else 1000
    out = [
        (f"combat-{n}", {"kind": "combat", "attacker": "A", "cells": combat_cells(n)}, []),
        (f"combat-{n}x10", {"kind": "combat", "attacker": "A", "cells": combat_cells(n, hp=10)}, []),
        ("long-999", {"kind": "combat", "attacker": "A", "cells": {
            f"{i},0": {"A": [_piece(f"a{i}", 3, 2000, 1)], "B": [_piece(f"b{i}", 2, 999, 1)]} for i in range(8)}}, []),
        ("budget", {"kind": "combat", "attacker": "A", "cells": {
            f"{i % 40},{i // 40}": {"A": [_piece(f"a{i}", 3, 999, 1)], "B": [_piece(f"b{i}", 2, 998, 1)]}
            for i in range(n)}}, []),
        ("round-limit", {"kind": "combat", "attacker": "A", "cells": {
            f"{i},0": {"A": [_piece(f"a{i}", 3, 10 ** 9, 1)], "B": [_piece(f"b{i}", 2, 10 ** 9, 1)]}
            for i in range(8)}}, []),
        (f"branches-{n}", {"kind": "combat", "attacker": "A", "cells": combat_cells(n, hp=3)}, ["--all-branches"]),
    ]
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
        if fmt_args == ["--json"]:
            json.loads(data)  # one JSON object
        return took, len(data), size_in, code, usage.ru_maxrss / 1024


def main(argv: list[str]) -> None:
    quick = "--quick" in argv
    print(f"{'case':<16} {'output':<6} {'input':>9} {'exit':>4} {'time':>8} {'output':>10} {'peak RSS':>9}")
    for name, doc, extra in cases(quick):
        for label, fmt_args in (("json", ["--json"]), ("text", [])):
            if label == "text" and extra:
                continue
            took, out, size_in, code, peak = run(doc, extra, fmt_args)
            print(f"{name:<16} {label:<6} {size_in / 1024:>7.0f}KB {code:>4} {took:>7.2f}s {out / 1e6:>8.2f}MB "
                  f"{peak:>7.0f}MB", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
