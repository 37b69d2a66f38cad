"""Issue 29 item 2: a light player install and `flamer --version`.

- `pip install .` brings no PDF engine: WeasyPrint is the `[pdf]` extra (the test extra includes it);
- without it, `flamer book --format pdf` says in Korean exactly what to install (the extra and the system
  packages), exit 1, no traceback — and everything else (fight, search) works;
- `flamer --version` prints the package version and the rules version (the latest ruling in force today).
"""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

from inprocess import isolated as invoke

ROOT = Path(__file__).resolve().parent.parent.parent


def test_the_pdf_engine_is_an_extra_and_the_test_extra_takes_it():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    base = [d.split(";")[0].strip().lower() for d in project["dependencies"]]
    assert not [d for d in base if re.match(r"weasyprint|pillow|fonttools|pydyf|cffi|tinycss2", d)], base
    extras = project["optional-dependencies"]
    assert any(d.lower().startswith("weasyprint") for d in extras["pdf"])
    assert "flamer_ref[pdf]" in extras["test"]


def test_without_weasyprint_a_pdf_names_the_extra_and_the_rest_works(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setitem(sys.modules, "weasyprint", None)  # `import weasyprint` now fails as when not installed
    r = invoke("book", "--format", "pdf", "-o", "never.pdf")
    assert r.exit_code == 1, (r.exit_code, r.stderr)
    assert "[pdf]" in r.stderr and "pip install" in r.stderr and "libpango" in r.stderr, r.stderr
    assert "Traceback" not in r.stderr + r.stdout
    assert not Path("never.pdf").exists()
    fight = invoke("fight", "거신 vs 별마대", "--brief")
    assert fight.exit_code == 0 and fight.stdout.startswith("판정:"), fight.stdout
    assert invoke("search", "대응스택", "-n", "1").exit_code == 0


def test_version_says_the_package_and_the_rules_version():
    from flamer_ref import __version__
    from flamer_ref.corpus import load
    from flamer_ref.inforce import InForce
    import datetime

    r = invoke("--version")
    assert r.exit_code == 0, r.stderr
    corpus = load()
    on = InForce(corpus.rulings, datetime.date.today().isoformat())
    latest = max(x["date"] for rid, x in corpus.rulings.items() if on(rid))
    assert r.stdout == f"flamer {__version__} · 규칙 {latest} 판정까지\n", r.stdout


def test_version_with_data_that_cannot_be_read_says_why(tmp_path):
    r = invoke("--version", env={"FLAMER_DATA": str(tmp_path / "nothing-here")})
    assert r.exit_code == 1
    assert r.stdout.startswith("flamer ") and "규칙 판을 말할 수 없습니다" in r.stderr and "Traceback" not in r.stderr
