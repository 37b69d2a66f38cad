"""Words that must never reach a person (issue 17): the program's insides — legends, board kinds,
English statuses and kinds, the data editors' notes, the fight's fallback side codes. ONE list, shared
by the tests over every output (text, md, html, PDF text, site, `flamer fight` and `flamer simulate`),
so that later reviews extend it in one place.

`found(text)` lists the forbidden words a text contains. `leaks(text, ids, fmt)` does the same for a
people's answer of fight / simulate, read as a person sees it (HTML without tags, styles and attribute
values: an SVG's element id is no word on the page, its <title> tooltip is), and adds the piece ids
of the scenario that show up as words (a player reads card names, never ids).
"""

from __future__ import annotations

import html as _html
import re

_B = r"(?<![A-Za-z0-9_])"  # not inside a longer ASCII word
_E = r"(?![A-Za-z0-9_])"

#: (word, pattern): a match of the pattern anywhere in a text a person reads is a leak
FORBIDDEN_PATTERNS: tuple[tuple[str, str], ...] = (
    # whole words only (ME in 'MEMO' or 'HOME' is not a legend)
    ("ME", _B + "ME" + _E),                                   # the examples' placeholder for 나
    ("OP", _B + "OP" + _E),                                   # … and for 상대
    # plain substrings
    ("square8", r"square8"),                                  # board adjacency codes: 8방향 인접 in words
    ("square4", r"square4"),
    ("null", r"null"),                                        # JSON's word for 미상; editors' 'null로 둠'
    ("unresolved", r"unresolved"),                            # the data's key for 미해결
    ("confirmed", r"confirmed"),                              # English ruling statuses beside Korean ones
    ("corrected", r"corrected"),
    ("revised", r"revised"),
    ("abolished", r"abolished"),
    ("(mobile)", r"\(mobile\)"),                              # English states beside Korean ones
    ("(settled)", r"\(settled\)"),
    ("page.", r"page\."),                                     # source ids of the data ('(page.field)')
    # flamer fight / simulate answers (issue 17 items 2–3)
    ("A(공격자)", _B + r"A\(공격자\)"),                          # the fight's fallback side codes as labels
    ("B(수비자)", _B + r"B\(수비자\)"),
    ("None", _B + "None" + _E),                               # Python's word for 없음
    ("mobile", r"(?<![A-Za-z0-9_.-])mobile(?![A-Za-z0-9_-])"),  # a state code (not inside an id)
    ("settled", r"(?<![A-Za-z0-9_.-])settled(?![A-Za-z0-9_-])"),
    ("reason@cell", r"(?<![A-Za-z0-9_])[a-z][a-z-]+@"),       # an outcome's gap key (stalemate@1,1)
    # the Korean review (issue 17 item 6): a particle read off the wrong sound (ATK and MOV are read letter by
    # letter, as the rulebook does: 'ATK와', 'MOV가'), a hedged particle, a term the rulebook does not use
    # (선공, not 선 플레이어), translationese and the program's words in messages
    *((w, re.escape(w)) for w in ("ATK이", "ATK을", "ATK은", "ATK과", "MOV이", "MOV을", "MOV은", "이(가)", "을(를)",
                                  "은(는)", "(으)로", "선 플레이어", "필요한 인자", "필요한 옵션", "파일이 없습니다",
                                  "디렉터리", "combat_order가", "YYYY-MM-DD(예")),
    # the second Korean review (issue 28): the program's words in answers — README jargon (줄) and scenario talk in a
    # one-line fight, YAML words, data structures, editors' provenance — and what it called translationese
    *((w, re.escape(w)) for w in ("엔진이 가정한 것", "아래 설명 참고", "그 자리에서 게임 종료", "맞은 말", "줄에 적거나", "줄에 적으세요", "줄에 없습니다", "체력숫자", "시나리오에 필드를 적지 않아",
                                  "시나리오 나열 순서", "(공식 판정 아님))", "id로 고르세요", "기물 id로", "매핑이어야", "기물 id나",
                                  "인용하는 행", "시나리오의 보드", "셀 번호 순", "엔진이 대신 고른 것", "기동 중 Lv",
                                  "서로 다른 결과 1가지", "이동 모두 허용", "라운드 모두 진행, 승부 없음", "(대체: '",
                                  "그런 명령이 없습니다", "그런 옵션이 없습니다", "HP 0 이하로 포획했지만", "조우 셀이 모두 한쪽이 비어",
                                  "상대가 필요한", "효과로 10 ATK 공격이 있으며", "비용으로 보드에서 제거:", "예외 — 맞대응 —",
                                  "폐지 — 전투 보드 폐지", "카드 (예시에서는")),
    # the ids of FAQ items, examples and glossary terms (faq.combat.dice): a person types a number or a word
    ("entry id", r"(?<![A-Za-z0-9_])(?:faq|ex|term)\.[a-z][a-z0-9.-]*"),
    # an id line at the end of an answer ('id: combat.step7.sweep')
    ("id: line", r"(?m)^id: "),
    # a scenario kind in English beside Korean text (examples' `combat` column): 전투, 이동, 승리확인, 필드, 라운드 — an
    # English name given in parentheses after the Korean one (전투(combat)) is what a command also takes
    ("English kind", r"(?<![A-Za-z0-9_./#(-])(?:combat|victory|field|round)(?![A-Za-z0-9_./-])"),
)

FORBIDDEN = tuple(word for word, _ in FORBIDDEN_PATTERNS)

_COMPILED = tuple((word, re.compile(pat)) for word, pat in FORBIDDEN_PATTERNS)


def found(text: str) -> list[str]:
    """The forbidden words in `text`, each once, in the order of FORBIDDEN."""
    text = text or ""
    return [word for word, pat in _COMPILED if pat.search(text)]


#: clause, ruling and interpretation ids: a person reads numbers and titles (the clause_label filter)
CLAUSE_ID = r"(?<![A-Za-z0-9_])(?:combat|response|move|victory|field|supply|round|interp|ruling)\.[a-z0-9][a-z0-9.-]*[a-z0-9]"

_TAGS = re.compile(r"<(style|script)\b.*?</\1>|<[^>]+>", re.S | re.I)


def visible(text: str, fmt: str = "text") -> str:
    """What a person reads: HTML without its tags, styles and attribute values, entities decoded."""
    if fmt != "html":
        return text
    return _html.unescape(_TAGS.sub(" ", text))


def leaks(text: str, ids=(), fmt: str = "text", names: dict | None = None) -> list[str]:
    """The forbidden words in a people's answer (after `visible`), and the piece ids that show up as
    words ('id:drill'). An id that is also the name a player reads for some piece (the one-line fight
    names its pieces after their cards) is no leak; `names`: id → name, as flamer_ref.people.piece_names."""
    seen = visible(text, fmt)
    out = found(seen)
    readable = set((names or {}).values())
    for pid in ids:
        if pid in readable:
            continue
        if re.search(r"(?<![A-Za-z0-9_가-힣.-])" + re.escape(pid) + r"(?![A-Za-z0-9_가-힣-])", seen):
            out.append(f"id:{pid}")
    return out


def clause_ids(text: str, fmt: str = "text") -> list[str]:
    """Clause, ruling and interpretation ids a people's answer shows."""
    return sorted(set(re.findall(CLAUSE_ID, visible(text, fmt))))


def index_words(html: str) -> list[str]:
    """The headwords of the handbook's index (찾아보기) that a forbidden word matches: what a reader
    looks up, listed as the data's keywords and aliases spell them ('선 플레이어' → 선공's clause), not a
    sentence of the program. Tests of the book's text take them out before calling found()."""
    words = {_html.unescape(w) for w in re.findall(r'<span class="ix-word">(.*?)</span>', html or "", re.S)}
    return sorted((w for w in words if found(w)), key=len, reverse=True)


def without(text: str, words) -> str:
    """`text` with every occurrence of `words` taken out (longest first)."""
    for w in words:
        text = text.replace(w, " ")
    return text
