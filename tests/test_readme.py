"""Issue 29 item 1: the README is a front page, and every page of the documentation links where it says.

- README.md: at most 150 lines and 12,000 characters; its first 40 lines carry the two commands (install and
  run, install and test), the Python version and the picture; the picture is in the repository;
- every relative link of README.md and docs/*.md resolves to a file of the repository.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def test_the_readme_is_a_front_page():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    lines = text.splitlines()
    assert len(lines) <= 150 and len(text) <= 12_000, (len(lines), len(text))
    head = "\n".join(lines[:40])
    blocks = re.findall(r"```bash\n(.*?)\n```", text, re.S)
    assert blocks[0].startswith("python3 -m venv") and "pip install . " in blocks[0] and "flamer fight" in blocks[0]
    assert 'pip install ".[test]"' in blocks[1] and blocks[1].endswith("python -m pytest")
    assert text.index(blocks[1]) < len(head)
    assert "3.11" in head
    pictures = re.findall(r"!\[[^\]]+\]\(([^)]+)\)", head)
    assert pictures and all((ROOT / p).is_file() and (ROOT / p).stat().st_size > 10_000 for p in pictures), pictures
    assert "docs/pictures.py" in text  # the picture is made by a script of the repository


def test_the_ci_runs_the_readmes_test_command():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert 'pip install -q ".[test]"' in ci and "python -m pytest" in ci


def test_every_relative_link_of_the_documentation_resolves():
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    assert len(pages) > 10
    broken = []
    for page in pages:
        for target in LINK.findall(page.read_text(encoding="utf-8")):
            if re.match(r"[a-z][a-z0-9+.-]*:", target):  # https:, mailto: …
                continue
            if not (page.parent / target).exists():
                broken.append(f"{page.relative_to(ROOT)} → {target}")
    assert not broken, broken
