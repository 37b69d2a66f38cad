"""`flamer impact` benchmark: one withdrawal, the default 10,000 generated disputes (issue 27).

    python benchmarks/impact_bench.py                      # withdraw ruling.2026-09-25.settled-sweep
    python benchmarks/impact_bench.py ruling.2026-09-24.vacated-combat 20000

Runs `flamer impact DRAFT --json` as a person would (a fresh process, the bundled data) on a draft that
withdraws the ruling, and prints the wall-clock seconds, the generated disputes per second, how many were
resolved a second time (those that asked a decision the draft changes) and how many verdicts changed. The
goal on the project's 2-core machine: ≤ 120 s. The tests assert nothing about time; this is for people.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from flamer_ref.corpus import load  # noqa: E402


def draft_for(rid: str) -> str:
    r = load().rulings[rid]
    lines = ["rulings:", "- id: ruling.2026-09-26.bench-withdrawal", "  date: 2026-09-26", "  status: withdrawn",
             "  label: 철회", "  title: 벤치마크 철회", "  summary: 앞선 판정을 거둔다.",
             f"  clauses: [{', '.join(r['clauses'])}]", f"  withdraws: [{rid}]",
             f"  source: [{', '.join(r['source'])}]"]
    return "\n".join(lines) + "\n"


def main() -> None:
    rid = sys.argv[1] if len(sys.argv) > 1 else "ruling.2026-09-25.settled-sweep"
    count = sys.argv[2] if len(sys.argv) > 2 else "10000"
    with tempfile.TemporaryDirectory() as tmp:
        draft = Path(tmp) / "draft.yaml"
        draft.write_text(draft_for(rid), encoding="utf-8")
        cmd = [sys.executable, "-m", "flamer_ref", "impact", str(draft), "--generated", count, "--json"]
        t0 = time.perf_counter()
        done = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})
        wall = time.perf_counter() - t0
    if done.returncode != 0:
        sys.exit(f"flamer impact failed ({done.returncode}): {done.stderr.strip()}")
    out = json.loads(done.stdout)
    gen = out["checked"]["generated"]
    changed = out["changed"]
    print(f"draft: withdraw {rid} (as of {out['as_of']}); decisions it changes: {', '.join(out['decisions'])}")
    print(f"checked: {out['checked']['examples']} examples, {out['checked']['faq']} FAQ, {gen:,} generated "
          f"({out['rerun']['generated']:,} resolved a second time)")
    print(f"changed verdicts: {len(changed):,} ({sum(c['source'] != 'generated' for c in changed)} bundled)")
    print(f"wall clock: {wall:.1f} s (goal ≤ 120 s) — {gen / wall:,.0f} generated disputes/s")


if __name__ == "__main__":
    main()
