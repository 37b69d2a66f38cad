"""`pip install .` (not only editable) must carry rules/, cards/ and templates/:
build a wheel, install it into an empty directory, and search with it there."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_wheel_carries_data_and_works_when_installed(tmp_path):
    wheel_dir = tmp_path / "wheel"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                    "-w", str(wheel_dir), str(ROOT)], check=True, capture_output=True, timeout=300)
    wheel = next(wheel_dir.glob("flamer_ref-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    # a player's `pip install .` brings no PDF engine: WeasyPrint comes only with the [pdf] extra
    meta = zipfile.ZipFile(wheel).read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    requires = [ln for ln in meta.splitlines() if ln.lower().startswith("requires-dist:")]
    pdf_reqs = [ln for ln in requires if "weasyprint" in ln.lower()]
    assert pdf_reqs and all(re.search(r"extra == ['\"](pdf|test)['\"]", ln) for ln in pdf_reqs), requires
    assert any(re.search(r"extra == ['\"]pdf['\"]", ln) for ln in pdf_reqs), requires
    for must in ("flamer_ref/_data/rules/rulings.yaml", "flamer_ref/_data/cards/cards.yaml",
                 "flamer_ref/_data/templates/cli/search.txt.j2", "flamer_ref/_data/rules/clauses/combat.yaml"):
        assert must in names, must

    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target), str(wheel)],
                   check=True, capture_output=True, timeout=300)
    env = {k: v for k, v in os.environ.items() if k not in ("FLAMER_DATA",)}
    env["PYTHONPATH"] = str(target)
    env["FLAMER_CACHE_DIR"] = str(tmp_path / "cache")
    where = subprocess.run([sys.executable, "-c", "import flamer_ref, flamer_ref.paths as p; "
                            "print(flamer_ref.__file__); print(p.data_root())"],
                           capture_output=True, text=True, env=env, cwd=tmp_path, check=True)
    mod_file, data_root = where.stdout.split()
    assert mod_file.startswith(str(target)) and data_root.startswith(str(target))
    p = subprocess.run([sys.executable, "-m", "flamer_ref", "search", "대응스택", "--json"],
                       capture_output=True, text=True, env=env, cwd=tmp_path, timeout=60)
    assert p.returncode == 0, p.stderr
    ids = [r["id"] for r in json.loads(p.stdout)["results"][:3]]
    assert "response.resolve.one-stack" in ids or "term.stack" in ids
    p = subprocess.run([sys.executable, "-m", "flamer_ref", "card", "별마대"],
                       capture_output=True, text=True, env=env, cwd=tmp_path, timeout=60)
    assert p.returncode == 0 and "Lv 5" in p.stdout  # templates came with the wheel
