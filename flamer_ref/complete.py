"""Shell completion of argument and option values (typer `autocompletion=`):
card names, ability names, rule/ruling/interpretation ids, FAQ and example ids,
glossary terms. Read from the cached corpus; fast, and never raising: on any
error a completer offers nothing.

Parameters are named `ctx` and `incomplete` (typer matches them by name).
"""

# no module-level imports beyond the standard library: cli.py imports this on every run

TIMING_TAGS = ("(대응)", "(전투)", "(이동)", "등장효과", "구조물")
SEARCH_KINDS = ("clause", "ruling", "faq", "example", "card", "term", "조항", "판정", "질문", "예시", "카드", "용어")
FORMATS = ("text", "md", "html", "텍스트", "마크다운")
FACTIONS = ("DGM", "BGM", "대광명연방", "밤결무리", "미상")
GRADES = ("초급", "중급", "고급", "미상")
CARD_TIMINGS = ("전투", "대응", "이동", "등장")
CARD_TYPES = ("piece", "special", "기물카드", "특수카드")


def _corpus():
    from .corpus import load

    return load()


def _safe(fn):
    """A completer that returns [] instead of raising."""

    def wrapper(ctx=None, incomplete=""):
        try:
            return list(fn(ctx, incomplete or ""))
        except Exception:  # noqa: BLE001 - completion must never break the shell
            return []

    wrapper.__name__ = fn.__name__
    wrapper.__doc__ = fn.__doc__
    return wrapper


def _typed_words(ctx, param: str) -> list[str]:
    """Words of a multi-word argument already typed before the one being completed."""
    try:
        value = (ctx.params or {}).get(param) if ctx is not None else None
    except Exception:  # noqa: BLE001
        value = None
    if not value:
        return []
    return [str(v) for v in value] if isinstance(value, (list, tuple)) else [str(value)]


def _names_after(names, typed: list[str], incomplete: str) -> list[str]:
    """Complete a name that may have spaces: the words typed so far must begin
    it; offer the rest of the name from the word being completed on."""
    out: list[str] = []
    n = len(typed)
    for name in names:
        words = name.split()
        if len(words) <= n or words[:n] != typed:
            continue
        rest = " ".join(words[n:])
        if rest.startswith(incomplete) and rest not in out:
            out.append(rest)
    return out


def _card_names(corpus) -> list[str]:
    names: list[str] = []
    for c in corpus.cards.values():
        for n in (c["name"], *c["aliases"]):
            if n not in names:
                names.append(n)
    return names


@_safe
def card_names(ctx, incomplete):
    """Card names (and aliases) for `flamer card`."""
    return _names_after(_card_names(_corpus()), _typed_words(ctx, "name"), incomplete)


@_safe
def timing_names(ctx, incomplete):
    """Cards, abilities, timing tags and glossary terms for `flamer timing`."""
    corpus = _corpus()
    names = list(TIMING_TAGS) + _card_names(corpus)
    for c in corpus.cards.values():
        for a in c["abilities"]:
            if a["name"] not in names:
                names.append(a["name"])
    for t in corpus.terms.values():
        if t["term"] not in names:
            names.append(t["term"])
    return _names_after(names, _typed_words(ctx, "name"), incomplete)


@_safe
def rule_ids(ctx, incomplete):
    """Rule numbers (6.26, 6.14-1: clauses and interpretations, in number order), then clause,
    interpretation and ruling ids for `flamer rule`, with their titles."""
    from .numbering import numbers

    corpus = _corpus()
    out = []
    for key, number in numbers(corpus).items():
        if number.startswith(incomplete):
            item = corpus.clauses.get(key) or corpus.interpretations[key]
            out.append((number, item.get("title") or ""))
    from .handles import ruling_ref

    for r in corpus.rulings.values():  # a ruling by its day (9/24, 9/24-2)
        ref = ruling_ref(corpus, r["id"])
        if ref.startswith(incomplete):
            out.append((ref, f"{r['label']} — {r['title']}"))
    for table in (corpus.clauses, corpus.interpretations, corpus.rulings):
        for key, item in table.items():
            if key.startswith(incomplete):
                out.append((key, item.get("title") or ""))
    return out


@_safe
def faq_ids(ctx, incomplete):
    """FAQ numbers (`flamer faq 3`), with their questions."""
    return [(str(n), f["question"]) for n, f in enumerate(_corpus().faq.values(), 1) if str(n).startswith(incomplete)]


@_safe
def example_ids(ctx, incomplete):
    """Example numbers (`flamer example 3`), with their titles."""
    return [(str(n), e["title"]) for n, e in enumerate(_corpus().examples.values(), 1)
            if str(n).startswith(incomplete)]


@_safe
def term_names(ctx, incomplete):
    return _names_after([t["term"] for t in _corpus().terms.values()], _typed_words(ctx, "word"), incomplete)


def choices(values):
    """A completer offering fixed values."""

    @_safe
    def complete(ctx, incomplete):
        return [v for v in values if v.startswith(incomplete)]

    return complete
