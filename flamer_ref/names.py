"""Typed names → the names they mean: exact, 초성, 영문 자판, part of a name, or close by
spelling (rapidfuzz on jamo). Pure: no files, no corpus — the caller passes the names. Its own room,
under everything that reads a typed name — the lookups (`flamer card`, `flamer term`: lookup.py), the
one-line fight (oneliner.py), the engine's scenario parser (a card name in a scenario file,
engine/scenario.resolve_card) — and above errors.py and korean.py alone."""

from __future__ import annotations

from .errors import Ambiguous, BadInput, NotFound
from .korean import (choseong, is_choseong_query, is_qwerty_candidate, jamo, josa, quoted, qwerty_to_jamo,
                     syllable_count)


def norm_name(s: str) -> str:
    """A name without spaces, lower-cased: the form two names are compared in."""
    return "".join(s.split()).lower()


def resolve_name(query: str, names: dict[str, str], what: str) -> tuple[str, bool]:
    """Resolve a typed name to a key of `names` (alias/name → key).

    Returns (key, corrected). Raises NotFound or Ambiguous: it never guesses
    between several plausible answers."""
    q = norm_name(query)
    if not q:
        raise BadInput(f"{what} 이름이 비어 있습니다.")
    normed: dict[str, set[str]] = {}
    for alias, key in names.items():
        normed.setdefault(norm_name(alias), set()).add(key)
    if q in normed and len(normed[q]) == 1:
        return next(iter(normed[q])), False

    def pick(keys: set[str], why: str) -> tuple[str, bool]:
        if len(keys) == 1:
            return next(iter(keys)), True
        raise Ambiguous(f"{quoted(query)}에 맞는 {josa(what, '이/가')} 여럿입니다 ({why}). 하나를 골라 다시 입력하세요.",
                        [(k, "") for k in sorted(keys)])

    if is_choseong_query(q):
        exact = {k for n, ks in normed.items() if choseong(n) == q for k in ks}
        if exact:
            return pick(exact, "초성")
        pre = {k for n, ks in normed.items() if choseong(n).startswith(q) for k in ks}
        if pre:
            return pick(pre, "초성")
    forms = [jamo(q)]
    if is_qwerty_candidate(q):
        forms.append(qwerty_to_jamo(query.replace(" ", "")))
        conv = forms[-1]
        hits = {k for n, ks in normed.items() if jamo(n) == conv for k in ks}
        if hits:
            return pick(hits, "영문 자판")
    # the typed text inside a name (e.g. '잠복' → 잠복군)
    inside = {k for n, ks in normed.items() if q in n for k in ks}
    if inside:
        return pick(inside, "이름 일부")
    ranked = _ranked(normed, forms)
    if ranked and ranked[0][1] >= 70 and (len(ranked) == 1 or ranked[0][1] - ranked[1][1] >= 8) and (
            ranked[0][2] <= max(1, len(forms[0]) // 3)
            or any(forms[0].startswith(jamo(n)) and syllable_count(jamo(n)) >= 2  # the name, then more: 별마대요
                   for n, ks in normed.items() if ranked[0][0] in ks)):
        return ranked[0][0], True
    close = [k for k, s, _ in ranked if s >= 60][:6]
    if len(close) > 1:
        raise Ambiguous(f"{quoted(query)}에 맞는 {josa(what, '을/를')} 하나로 정할 수 없습니다.", [(k, "") for k in close])
    near = [(k, "") for k, s, _ in ranked[:5] if s >= SHOW_AT]
    if not near:
        raise NotFound(f"{what} {quoted(query, '을/를')} 찾을 수 없습니다. 비슷한 {what}도 없습니다.")
    raise NotFound(f"{what} {quoted(query, '을/를')} 찾을 수 없습니다.", near)


#: A typed name is read as another one only when it is alike (rapidfuzz ratio of their jamo at least 70, and
#: 8 more than the next name's) and a typo away: at most one keystroke (jamo) in three differs — 별마데 → 별마대,
#: 개마 → 개미, 맞대웅 → 맞대응 (one each). A farther guess is refused with the candidates: 아무거나 is not
#: 암막턴 (ratio 71, but four keystrokes of eight). A name followed by more is read as the name: 별마대요 → 별마대.
#: a name farther than this is not offered as a candidate at all (없는카드 ~ 은림단: 40, 없는말 ~ 헌납: 50)
SHOW_AT = 55


def _ranked(normed: dict[str, set[str]], forms: list[str]) -> list[tuple[str, float, int]]:
    """Every key with its best spelling likeness to the typed forms (0–100) and the fewest keystrokes
    (jamo) apart of its names, best first."""
    from rapidfuzz import fuzz
    from rapidfuzz.distance import Levenshtein

    scored: dict[str, tuple[float, int]] = {}
    for n, ks in normed.items():
        nj = jamo(n)
        s = max(fuzz.ratio(f, nj) for f in forms)
        d = min(Levenshtein.distance(f, nj) for f in forms)
        for k in ks:
            old = scored.get(k)
            scored[k] = (max(old[0], s), min(old[1], d)) if old else (s, d)
    return sorted(((k, s, d) for k, (s, d) in scored.items()), key=lambda kv: -kv[1])


def nearest(query: str, names: dict[str, str], n: int = 5) -> list[tuple[str, float]]:
    """The keys of `names` whose names are spelt most like `query` (at least SHOW_AT), best first, with
    their likeness: the candidates a refusal offers."""
    normed: dict[str, set[str]] = {}
    for alias, key in names.items():
        normed.setdefault(norm_name(alias), set()).add(key)
    q = norm_name(query)
    if not q:
        return []
    forms = [jamo(q)] + ([qwerty_to_jamo(query.replace(" ", ""))] if is_qwerty_candidate(q) else [])
    return [(k, s) for k, s, _ in _ranked(normed, forms)[:n] if s >= SHOW_AT]

