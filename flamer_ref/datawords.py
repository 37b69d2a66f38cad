"""The data editors' words kept out of what a person reads (`flamer validate`; docs/DATA.md).

Clause texts, card notes and abilities, FAQ answers, examples, the glossary, rulings, timing rows …
are printed as they are. Notes meant for the data's editors (`null로 둠`, `(page.field)`,
`unresolved에 알린다`, ids) belong in `editor_note`, which no output prints. The words refused in a
printed field: `null`, a source id (`page.…`), `unresolved`, an ASCII identifier (`combat.step7.sweep`,
`stat_sources`, `square-8`) and a lowercase English word (`special`, `timing`). The rulebook's own Latin
stays: Lv, HP, ATK, VP, SP, MOV, EMP, LIFO, DGM/BGM, X·Y·Z, v2, dates, and `cost` (the page's word).
"""

from __future__ import annotations

import re

from .errors import Problem
from .korean import josa

#: lowercase English the rulebook pages themselves print
ALLOWED = frozenset({"cost"})

_WORDS = re.compile(
    r"(?P<null>(?<![A-Za-z])null(?![A-Za-z]))"
    r"|(?P<page>(?<![A-Za-z0-9_])page\.[a-z0-9._-]*)"
    r"|(?P<unresolved>(?<![A-Za-z])unresolved(?![A-Za-z]))"
    r"|(?P<id>(?<![A-Za-z0-9_])[A-Za-z][A-Za-z0-9]*(?:[._-][A-Za-z0-9]+)*(?:[._][A-Za-z0-9]+|-[a-z][a-z0-9]*)"
    r"(?![A-Za-z0-9_]))"
    r"|(?P<word>(?<![A-Za-z0-9_])[a-z]{2,}(?![A-Za-z0-9_]))")

_FIX = {
    "null": "'null'은 데이터의 값이지 글이 아닙니다. 룰북에 없는 값은 '미상'이나 '룰북에 나오지 않는다'로 적고, "
            "데이터를 어떻게 채웠는지는 editor_note에 적으세요",
    "page": "출처 페이지는 id 대신 이름으로 적으세요(예: '필드와 카드 페이지'). 편집자에게 남기는 출처 설명은 "
            "editor_note에 적으세요",
    "unresolved": "판정 결과의 칸 이름 대신 '미해결'이라고 적으세요. 편집자에게 남기는 말은 editor_note에 적으세요",
    "id": "id나 키 이름 대신 플레이어가 읽을 한국어로 적으세요(조항은 번호와 제목으로, 예: '6.26 7단계 정리'). "
          "편집자에게 남기는 말은 editor_note에 적으세요",
    "word": "데이터의 값(special, timing …) 대신 한국어로 적으세요(특수카드, 타이밍 …). 편집자에게 남기는 말은 "
            "editor_note에 적으세요",
}


def found(text: str) -> list[tuple[str, str]]:
    """The editors' words in a printed text: [(kind, word)], in order (each word once)."""
    out: list[tuple[str, str]] = []
    for m in _WORDS.finditer(text or ""):
        kind = m.lastgroup
        word = m.group(kind)
        if kind == "word" and word in ALLOWED:
            continue
        if (kind, word) not in out:
            out.append((kind, word))
    return out


def check(corpus) -> list[Problem]:
    """One problem per printed field that holds an editors' word (the first such word, and how many)."""
    printed = corpus.__dict__.get("_printed")
    if printed is None:  # a corpus from the cache: the places are known only to a fresh parse
        from pathlib import Path

        from .corpus import parse

        printed = parse(Path(corpus.root)).__dict__["_printed"]
    problems = []
    for file, line, where, text in printed:
        hits = found(text)
        if not hits:
            continue
        kind, word = hits[0]
        more = f" (이 칸에 {len(hits) - 1}개 더: {', '.join(w for _, w in hits[1:4])}{' …' if len(hits) > 4 else ''})" \
            if len(hits) > 1 else ""
        problems.append(Problem(file, line, where.rsplit(".", 1)[-1],
                                f"{where}: 사람이 읽는 칸에 데이터 편집용 {josa(repr(word), '이/가')} 있습니다{more}.",
                                _FIX[kind]))
    return problems
