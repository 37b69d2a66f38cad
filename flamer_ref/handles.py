"""What a person types to open an entry instead of its id: an FAQ item's number, an example's number,
a ruling's day (9/24, and 9/24-2 when that day has several rulings). Plain functions over a loaded
corpus; the ids stay what `--json` and the data use.

The numbers are the order of the data (docs/DATA.md):
- FAQ: the place of the item in rules/faq.yaml, from 1 (a new item at the end keeps every number);
- example: the place in `flamer example`'s list (the files of rules/examples/ by name, then their order);
- ruling of a day: the place among that date's rulings in rules/rulings.yaml, from 1."""

from __future__ import annotations


def _numbers(corpus, table: str) -> dict[str, int]:
    key = "_numbers_" + table
    got = corpus.__dict__.get(key)
    if got is None:
        got = corpus.__dict__[key] = {eid: i for i, eid in enumerate(getattr(corpus, table), 1)}
    return got


def faq_number(corpus, fid: str) -> int:
    """The FAQ item's number (`flamer faq 3`)."""
    return _numbers(corpus, "faq")[fid]


def example_number(corpus, eid: str) -> int:
    """The example's number (`flamer example 3`)."""
    return _numbers(corpus, "examples")[eid]


def by_number(corpus, table: str, n: int) -> str | None:
    """The id of FAQ item (table "faq") or example ("examples") number n, or None."""
    ids = list(getattr(corpus, table))
    return ids[n - 1] if 1 <= n <= len(ids) else None


def day_rulings(corpus, date: str) -> list[dict]:
    """That date's rulings in the order of rules/rulings.yaml."""
    return [r for r in corpus.rulings.values() if r["date"] == date]


def ruling_ref(corpus, rid: str) -> str:
    """What opens the ruling with `flamer rule`: its day (9/24; the full date in a year other than the data's),
    and -n when the day has several rulings (9/24-2)."""
    refs = corpus.__dict__.get("_ruling_refs")
    if refs is None:
        year = corpus.latest_date()[:4]
        refs = {}
        for r in corpus.rulings.values():
            y, m, d = r["date"].split("-")
            day = f"{int(m)}/{int(d)}" if y == year else r["date"]
            same = day_rulings(corpus, r["date"])
            refs[r["id"]] = day if len(same) == 1 else f"{day}-{[x['id'] for x in same].index(r['id']) + 1}"
        corpus.__dict__["_ruling_refs"] = refs
    return refs[rid]
