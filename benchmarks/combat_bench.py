"""Combat engine benchmark: one scenario with N encounter cells of 3-vs-3.

    python benchmarks/combat_bench.py            # 100, 250, 500 cells
    python benchmarks/combat_bench.py 1000 2000  # other sizes

Prints, for each size, the time to parse + resolve the scenario, combats per
second, and the time ratios between sizes (linear growth ≈ ratio of sizes). The
tests assert nothing about time; this is for people.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from flamer_ref.corpus import load  # noqa: E402
from flamer_ref.engine import parse_scenario, simulate  # noqa: E402
from flamer_ref.engine.effects import effects_of  # noqa: E402


def build(n: int) -> dict:
    """n cells "i,0", each with three attacker and three defender pieces (one settled)."""
    cells = {}
    for i in range(n):
        k = i % 7
        cells[f"{i},0"] = {
            "A": [{"id": f"a{i}-{j}", "name": "공", "lv": 2 + j + k % 3, "hp": 4 + j + k, "atk": 1 + (j + k) % 3,
                   "cost": j} for j in range(3)],
            "B": [{"id": f"b{i}-{j}", "name": "수", "lv": 1 + j + k % 4, "hp": 5 + j, "atk": 1 + (j * k) % 3,
                   "cost": j, "state": "settled" if j == 0 else "mobile"} for j in range(3)],
        }
    return {"kind": "combat", "title": f"벤치마크 {n}셀", "attacker": "A",
            "combat_order": [f"{i},0" for i in range(n)], "cells": cells}


def measure(corpus, effects, n: int, repeat: int = 5) -> tuple[float, float, int]:
    obj = build(n)
    best_total = best_sim = float("inf")
    events = 0
    for _ in range(repeat):
        t0 = time.perf_counter()
        scn = parse_scenario(obj, f"bench-{n}", corpus)
        t1 = time.perf_counter()
        res = simulate(scn, corpus, effects=effects)
        t2 = time.perf_counter()
        best_total = min(best_total, t2 - t0)
        best_sim = min(best_sim, t2 - t1)
        events = len(res.events)
        assert len(res.cells) == n
    return best_total, best_sim, events


def main(argv: list[str]) -> None:
    sizes = [int(a) for a in argv] or [100, 250, 500]
    corpus = load()
    effects = effects_of(corpus)  # cards/effects.yaml, read by the data layer, checked once
    measure(corpus, effects, 10, repeat=1)  # warm up
    rows = []
    print(f"{'cells':>6} {'parse+resolve s':>16} {'resolve s':>10} {'combats/s':>10} {'events':>8}")
    for n in sizes:
        total, sim, events = measure(corpus, effects, n)
        rows.append((n, total))
        print(f"{n:>6} {total:>16.4f} {sim:>10.4f} {n / total:>10.0f} {events:>8}")
    print()
    base_n, base_t = rows[0]
    for n, t in rows[1:]:
        print(f"{n} vs {base_n} cells: size x{n / base_n:.2f}, time x{t / base_t:.2f}")


if __name__ == "__main__":
    main(sys.argv[1:])
