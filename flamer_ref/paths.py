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
    """The package's own templates, never a data tree's: a FLAMER_DATA (or --data) tree holds data
    only (rules/, cards/). Templates are code (Jinja can reach Python), so a shared "rules pack" with a
    templates/ folder must not be able to run anything; its templates/ is ignored (docs/DATA.md)."""
    bundled = PKG_DIR / "_data" / "templates"
    return bundled if bundled.is_dir() else PKG_DIR.parent / "templates"


def cache_dir() -> Path | None:
    """The cache folder, always absolute (None: no cache). A relative FLAMER_CACHE_DIR
    lives under the user's cache home, never in the current directory, never the cache home
    itself nor above it (then the default folder); a relative XDG_CACHE_HOME is ignored, as the
    XDG spec says."""
    env = os.environ.get("FLAMER_CACHE_DIR")
    if env == "":
        return None
    if env:
        env = os.path.expanduser(env)
        if os.path.isabs(env):
            return Path(env)
    xdg = os.environ.get("XDG_CACHE_HOME")
    home = os.path.expanduser("~")
    if xdg and os.path.isabs(xdg):
        base = xdg
    elif os.path.isabs(home):
        base = os.path.join(home, ".cache")
    else:
        return None  # no home to put it in: parse every time rather than write into the current directory
    home_dir = os.path.normpath(base)
    if env:
        inside = os.path.normpath(os.path.join(home_dir, env))
        # ../../elsewhere would leave the cache home, and `.` (or a/..) is the cache home itself, shared
        # with every other program: keep the default folder instead
        if inside != home_dir and os.path.commonpath([inside, home_dir]) == home_dir:
            return Path(inside)
    return Path(home_dir) / "flamer_ref"
