"""Where the bundled data lives: inside the installed wheel (flamer_ref/_data)
or, in a source checkout, at the repository root."""

from __future__ import annotations

import os
from pathlib import Path

PKG_DIR = Path(__file__).resolve().parent


def data_root() -> Path:
    env = os.environ.get("FLAMER_DATA")
    if env:
        return Path(env)
    bundled = PKG_DIR / "_data"
    if (bundled / "rules").is_dir():
        return bundled
    return PKG_DIR.parent


def templates_dir() -> Path:
    root = data_root()
    if (root / "templates").is_dir():
        return root / "templates"
    # A custom FLAMER_DATA tree need not carry templates.
    bundled = PKG_DIR / "_data" / "templates"
    return bundled if bundled.is_dir() else PKG_DIR.parent / "templates"


def cache_dir() -> Path | None:
    env = os.environ.get("FLAMER_CACHE_DIR")
    if env == "":
        return None
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "flamer_ref"
