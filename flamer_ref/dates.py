"""Dates as the rules data and the command line write them: YYYY-MM-DD only.
Kept free of imports so that option checks stay off PyYAML's import cost."""

from __future__ import annotations

import datetime as _dt
import re

_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def is_date(value) -> bool:
    """A real calendar date written YYYY-MM-DD (not 2026-9-4, 20260924 or 2026-W39-4)."""
    if not isinstance(value, str) or not _DATE.fullmatch(value):
        return False
    try:
        _dt.date.fromisoformat(value)
    except ValueError:
        return False
    return True
