"""Typed names → the names they mean: exact, 초성, 영문 자판, part of a name, or close by
spelling (rapidfuzz on jamo). Pure: no files, no corpus — the caller passes the names. Used by
the lookups (`flamer card`, `flamer term`, lookup.py re-exports it) and by the engine's scenario
parser (a card name in a scenario file, engine/scenario.resolve_card)."""

from __future__ import annotations

from .errors import Ambiguous, BadInput, NotFound
from .korean import choseong, is_choseong_query, is_qwerty_candidate, jamo, josa, quoted, qwerty_to_jamo


def norm_name(s: str) -> str:
    """A name without spaces, lower-cased: the form two names are compared in."""
    return "".join(s.split()).lower()


def resolve_name(query: str, names: dict[str, str], what: str) -> tuple[str, bool]:
    """Resolve a typed name to a key of `names` (alias/name → key).

    Returns (key, corrected). Raises NotFound or Ambiguous: it never guesses
    between several plausible answers."""
    from rapidfuzz import fuzz

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
    scored: dict[str, float] = {}
    for n, ks in normed.items():
        nj = jamo(n)
        s = max(fuzz.ratio(f, nj) for f in forms)
        for k in ks:
            scored[k] = max(scored.get(k, 0.0), s)
    ranked = sorted(scored.items(), key=lambda kv: -kv[1])
    if ranked and ranked[0][1] >= 70 and (len(ranked) == 1 or ranked[0][1] - ranked[1][1] >= 8):
        return ranked[0][0], True
    close = [k for k, s in ranked if s >= 60][:6]
    if len(close) > 1:
        raise Ambiguous(f"{quoted(query)}에 맞는 {josa(what, '을/를')} 하나로 정할 수 없습니다.", [(k, "") for k in close])
    raise NotFound(f"{what} {quoted(query, '을/를')} 찾을 수 없습니다.", [(k, "") for k, _ in ranked[:5]])

