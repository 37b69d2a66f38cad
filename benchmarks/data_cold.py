"""Large data trees (issue 20, fault 8): the first command after a data change, and a search with no cache.

    python benchmarks/data_cold.py             # trees of 1 and 1.45 MB (under the 1.5 MB limit), 2 and 6 MB (refused)
    python benchmarks/data_cold.py 1 1.5 2     # other sizes (MB of the whole tree)

A tree is the bundled rules/ and cards/ grown to the given size in one of the two shapes a hostile
tester would pick: ``clauses`` (one more clause file of many clauses, words drawn from the bundled
clauses mixed with random syllables: a large vocabulary for the search index) or ``phrasings`` (every
entry's players' questions repeated in shuffled word order: what the likeness model learns from).

For each tree, in fresh processes: ``flamer search 정착 기물`` with an empty cache (parse, validate,
build the search index, learn the likeness model, write the caches), ``flamer rule combat.step7.sweep``
with an empty cache (parse, validate, index), and ``flamer search 정착 기물`` with no cache at all
(FLAMER_CACHE_DIR=''). Prints the wall time and its ratio to the bundled tree's, measured in the same
run (the ratios hold on a busier or quieter machine). A tree past the data limit ends at once with the
Korean error (exit 1). Nothing is asserted here; tests/hardening/test_limits_inside.py holds the bounds.
"""

from __future__ import annotations

import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


def grow(dest: Path, shape: str, mb: float) -> int:
    """Copy the bundled data to dest and grow it to about `mb` MB in `shape`; returns its size."""
    shutil.copytree(ROOT / "rules", dest / "rules")
    shutil.copytree(ROOT / "cards", dest / "cards")
    rnd = random.Random(5)
    have = sum(p.stat().st_size for p in dest.rglob("*.yaml"))
    want = int(mb * 1024 * 1024)
    clause_text = "".join(p.read_text("utf-8") for p in (ROOT / "rules" / "clauses").glob("*.yaml"))
    words = re.findall(r"[가-힣]{2,}", clause_text)
    if shape == "clauses":
        ids = re.findall(r"^- id: (\S+)", clause_text, re.M)
        clauses, total = [], have + 200

        def syllables() -> str:
            return "".join(chr(0xAC00 + rnd.randrange(11172)) for _ in range(rnd.randint(2, 4)))

        while total < want:
            c = {"id": f"extra.c{len(clauses)}", "title": " ".join(rnd.choice(words) for _ in range(4)),
                 "source": "page.combat", "see_also": [rnd.choice(ids)], "keywords": [rnd.choice(words) for _ in range(6)],
                 "text": " ".join(rnd.choice(words) if rnd.random() < 0.7 else syllables() for _ in range(110))}
            total += len(yaml.safe_dump([c], allow_unicode=True, width=10 ** 6).encode())
            clauses.append(c)
        (dest / "rules" / "clauses" / "extra.yaml").write_text(
            yaml.safe_dump({"section": {"id": "extra", "title": "추가", "order": 99}, "clauses": clauses},
                           allow_unicode=True, width=10 ** 6), "utf-8")
    else:
        path = dest / "rules" / "phrasings.yaml"
        doc = yaml.safe_load(path.read_text("utf-8"))
        times = max(0.0, (want - have) / path.stat().st_size)
        for e in doc["phrasings"]:
            asked = list(e["asked"])
            more = []
            for q in asked * int(times + 1):
                ws = q.split()
                rnd.shuffle(ws)
                more.append(" ".join(ws))
            e["asked"] = asked + more[:int(len(asked) * times)]
        path.write_text(yaml.safe_dump(doc, allow_unicode=True, width=10 ** 6), "utf-8")
    return sum(p.stat().st_size for p in dest.rglob("*.yaml"))


def run(data: Path | None, cache: str, *args: str) -> tuple[float, int]:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "FLAMER_CACHE_DIR": cache}
    if data is not None:
        env["FLAMER_DATA"] = str(data)
    t = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "flamer_ref", *args], cwd=ROOT, env=env, capture_output=True)
    return time.perf_counter() - t, proc.returncode


def main(argv: list[str]) -> None:
    sizes = [float(a) for a in argv] or [1.0, 1.45, 2.0, 6.0]
    commands = [("search, empty cache", True, ("search", "정착", "기물")),
                ("rule, empty cache", True, ("rule", "combat.step7.sweep")),
                ("search, no cache", False, ("search", "정착", "기물"))]
    with tempfile.TemporaryDirectory() as tmp:
        trees = [("bundled", None, sum(p.stat().st_size for d in ("rules", "cards") for p in (ROOT / d).rglob("*.yaml")))]
        for mb in sizes:
            for shape in ("clauses", "phrasings"):
                dest = Path(tmp) / f"{shape}-{mb}"
                trees.append((f"{shape} {mb:g} MB", dest, grow(dest, shape, mb)))
        print(f"{'tree':<18} {'size':>8} {'command':<22} {'exit':>4} {'time':>8} {'x bundled':>9}")
        ref: dict[str, float] = {}
        for name, data, size in trees:
            for label, cached, args in commands:
                cache = tempfile.mkdtemp(dir=tmp) if cached else ""
                took, code = run(data, cache, *args)
                ref.setdefault(label, took)
                print(f"{name:<18} {size / 1e6:>6.2f}MB {label:<22} {code:>4} {took:>7.2f}s {took / ref[label]:>9.2f}",
                      flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
