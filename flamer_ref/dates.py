"""Dates as the rules data writes them (YYYY-MM-DD) and as people type them on
the command line (2026-09-24, 9/24, 9월 24일, 09-24, 2026년 9월 24일).
Kept free of imports beyond the standard library so that option checks stay
off PyYAML's import cost."""

from __future__ import annotations

import datetime as _dt
import re

from .digits import fold

# ASCII digits only (re.ASCII): what a person types is folded to them first (digits.fold), so no other digit
# is read here and refused elsewhere
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}", re.ASCII)
# a month and a day without the year: 9/24, 09-24, 9.24, 9월 24일 (the way search reads dates, 9월 24일 = 9-24)
_MONTH_DAY = (re.compile(r"(\d{1,2})\s*[-/.]\s*(\d{1,2})\.?", re.ASCII),
              re.compile(r"(\d{1,2})\s*월\s*(\d{1,2})\s*일?", re.ASCII))
_YEAR_MONTH_DAY = re.compile(r"(\d{4})\s*년\s*(\d{1,2})\s*월\s*(\d{1,2})\s*일?", re.ASCII)

#: the forms accepted, for messages
FORMS = "2026-09-24, 9/24, 09-24, 9월 24일"


def is_date(value) -> bool:
    """A real calendar date written YYYY-MM-DD (not 2026-9-4, 20260924 or 2026-W39-4)."""
    if not isinstance(value, str) or not _DATE.fullmatch(value):
        return False
    try:
        _dt.date.fromisoformat(value)
    except ValueError:
        return False
    return True


def _ymd(year: int, month: int, day: int) -> str | None:
    try:
        return _dt.date(year, month, day).isoformat()
    except ValueError:
        return None


def parse_date(value, default_year) -> str | None:
    """The date `value` means, as YYYY-MM-DD, or None when it is not a date.

    Accepts YYYY-MM-DD, 'YYYY년 M월 D일', and a month and day without the year
    (9/24, 09-24, 9.24, 9월 24일); `default_year` (an int, or a function
    returning one, called only when needed) supplies the missing year. Full-width
    forms and other scripts' digits are read as ASCII (digits.fold: ９／２４ is 9/24)."""
    if not isinstance(value, str):
        return None
    text = fold(value).strip()
    if is_date(text):
        return text
    m = _YEAR_MONTH_DAY.fullmatch(text)
    if m:
        return _ymd(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    for pattern in _MONTH_DAY:
        m = pattern.fullmatch(text)
        if m:
            month, day = int(m.group(1)), int(m.group(2))
            if not (1 <= month <= 12 and 1 <= day <= 31):
                return None
            year = default_year() if callable(default_year) else default_year
            return _ymd(int(year), month, day)
    return None


def missing_day(value) -> str | None:
    """'9월 31일' when `value` is written as a date (9/31, 2026-02-30, 9월 31일) whose month has no such day;
    None otherwise (a real date, or text that is no date at all)."""
    if not isinstance(value, str):
        return None
    text = value.strip()
    m = re.fullmatch(r"\d{4}-(\d{2})-(\d{2})", text) or _YEAR_MONTH_DAY.fullmatch(text)
    groups = None
    if m is not None:
        groups = m.groups()[-2:]
    else:
        for pattern in _MONTH_DAY:
            m = pattern.fullmatch(text)
            if m:
                groups = m.groups()
                break
    if groups is None:
        return None
    month, day = int(groups[0]), int(groups[1])
    if not 1 <= month <= 12 or not 1 <= day <= 31:
        return None
    if _ymd(2024, month, day) is None:  # no year has it (2024 is a leap year)
        return f"{month}월 {day}일"
    if month == 2 and day == 29 and re.match(r"\d{4}", text) and _ymd(int(text[:4]), 2, 29) is None:
        return f"{text[:4]}년 2월 29일"
    return None
