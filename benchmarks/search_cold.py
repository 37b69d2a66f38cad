"""Cold-start benchmark of a lookup, as a ratio to `python -c "import typer"`.

Runs `flamer search 정착 기물 --json` in a fresh process, paired with a fresh
`python -c "import typer"` in the same environment, alternating which goes
first, and reports the median of the per-pair ratios. Then does the same with
a generated corpus ten times larger (FLAMER_DATA pointing at it).

    python benchmarks/search_cold.py [--pairs 15]

Target (issue 2): ratio <= 1.6 for both corpora. Nothing here is asserted in tests.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
QUERY = ["정착", "기물"]


def _time(cmd: list[str], env: dict) -> float:
    t0 = time.perf_counter()
    subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - t0


def measure(pairs: int, env: dict) -> tuple[float, float, float]:
    search = [sys.executable, "-m", "flamer_ref", "search", *QUERY, "--json"]
    base = [sys.executable, "-c", "import typer"]
    _time(search, env)  # build the cache once: later runs are cold processes on a warm disk cache
    _time(base, env)
    ratios, s_times, b_times = [], [], []
    for i in range(pairs):
        if i % 2:
            b, s = _time(base, env), _time(search, env)
        else:
            s, b = _time(search, env), _time(base, env)
        ratios.append(s / b)
        s_times.append(s)
        b_times.append(b)
    return statistics.median(ratios), statistics.median(s_times), statistics.median(b_times)


def make_large_corpus(dest: Path, factor: int = 10) -> int:
    """Copy the bundled data and add factor-1 varied copies of every clause,
    FAQ item and term (new ids, sentences in another order, a distinct word
    per copy so the vocabulary grows too). Returns the number of entries."""
    shutil.copytree(ROOT / "rules", dest / "rules")
    shutil.copytree(ROOT / "cards", dest / "cards")
    shutil.copytree(ROOT / "templates", dest / "templates")
    total = 0
    for path in sorted((dest / "rules" / "clauses").glob("*.yaml")):
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        base = list(doc["clauses"])
        for k in range(1, factor):
            for c in base:
                sents = re.split(r"(?<=[.다])\s+", c["text"])
                sents = sents[k % len(sents):] + sents[: k % len(sents)]
                doc["clauses"].append({
                    "id": f"{c['id']}.copy{k}", "title": f"{c['title']} (사본 {k})", "source": c["source"],
                    "text": " ".join(sents) + f" 가상조항{k}번 확장{path.stem}{k}",
                    "see_also": c.get("see_also", []), "keywords": c.get("keywords", []) + [f"사본{k}"]})
        total += len(doc["clauses"])
        path.write_text(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False), encoding="utf-8")
    for name, key, fields in (("faq.yaml", "faq", ("question", "answer")), ("glossary.yaml", "terms", ("term", "definition"))):
        path = dest / "rules" / name
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        base = list(doc[key])
        for k in range(1, factor):
            for item in base:
                new = dict(item)
                new["id"] = f"{item['id']}.copy{k}"
                new[fields[0]] = f"{item[fields[0]]} (사본 {k})"
                new[fields[1]] = f"{item[fields[1]]} 가상항목{k}"
                if key == "terms":
                    new["aliases"] = []
                doc[key].append(new)
        total += len(doc[key])
        path.write_text(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False, default_flow_style=False), encoding="utf-8")
    return total


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pairs", type=int, default=15)
    args = ap.parse_args()
    env = dict(os.environ)
    # pip compiles bytecode when it installs; an editable checkout under
    # PYTHONDONTWRITEBYTECODE=1 would otherwise recompile on every run.
    import compileall
    import flamer_ref

    compileall.compile_dir(str(Path(flamer_ref.__file__).parent), quiet=1)
    with tempfile.TemporaryDirectory() as cache:
        env["FLAMER_CACHE_DIR"] = cache
        r, s, b = measure(args.pairs, env)
        print(f"bundled corpus : search {s*1000:.0f} ms, import typer {b*1000:.0f} ms, ratio {r:.2f}x (median of {args.pairs} pairs)")
    with tempfile.TemporaryDirectory() as tmp, tempfile.TemporaryDirectory() as cache:
        n = make_large_corpus(Path(tmp))
        env["FLAMER_DATA"] = tmp
        env["FLAMER_CACHE_DIR"] = cache
        r10, s10, b10 = measure(args.pairs, env)
        print(f"10x corpus ({n} clause/faq/term entries): search {s10*1000:.0f} ms, import typer {b10*1000:.0f} ms, "
              f"ratio {r10:.2f}x")
    target = 1.6
    print(f"target <= {target}x: {'met' if max(r, r10) <= target else 'NOT met'}")


if __name__ == "__main__":
    main()
