"""Korean text normalisation for search: jamo decomposition, 초성 projection,
QWERTY (두벌식) to jamo conversion and particle stripping.

Everything here is pure Python with no imports beyond the standard library, so
that the search path stays cheap to import.
"""

from __future__ import annotations

import re
import unicodedata

_SBASE = 0xAC00
_SLAST = 0xD7A3
_CHO = "ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ"
_JUNG = "ㅏㅐㅑㅒㅓㅔㅕㅖㅗㅘㅙㅚㅛㅜㅝㅞㅟㅠㅡㅢㅣ"
_JONG = ("", "ㄱ", "ㄲ", "ㄳ", "ㄴ", "ㄵ", "ㄶ", "ㄷ", "ㄹ", "ㄺ", "ㄻ", "ㄼ", "ㄽ", "ㄾ",
         "ㄿ", "ㅀ", "ㅁ", "ㅂ", "ㅄ", "ㅅ", "ㅆ", "ㅇ", "ㅈ", "ㅊ", "ㅋ", "ㅌ", "ㅍ", "ㅎ")

# Compound vowels and final clusters split into the keys typed for them, so that
# text typed on a QWERTY keyboard in English mode lands on the same jamo string.
_KEYSTROKES = {
    "ㅘ": "ㅗㅏ", "ㅙ": "ㅗㅐ", "ㅚ": "ㅗㅣ", "ㅝ": "ㅜㅓ", "ㅞ": "ㅜㅔ", "ㅟ": "ㅜㅣ", "ㅢ": "ㅡㅣ",
    "ㄳ": "ㄱㅅ", "ㄵ": "ㄴㅈ", "ㄶ": "ㄴㅎ", "ㄺ": "ㄹㄱ", "ㄻ": "ㄹㅁ", "ㄼ": "ㄹㅂ", "ㄽ": "ㄹㅅ",
    "ㄾ": "ㄹㅌ", "ㄿ": "ㄹㅍ", "ㅀ": "ㄹㅎ", "ㅄ": "ㅂㅅ",
}

_QWERTY = {
    "q": "ㅂ", "w": "ㅈ", "e": "ㄷ", "r": "ㄱ", "t": "ㅅ", "y": "ㅛ", "u": "ㅕ", "i": "ㅑ", "o": "ㅐ",
    "p": "ㅔ", "a": "ㅁ", "s": "ㄴ", "d": "ㅇ", "f": "ㄹ", "g": "ㅎ", "h": "ㅗ", "j": "ㅓ", "k": "ㅏ",
    "l": "ㅣ", "z": "ㅋ", "x": "ㅌ", "c": "ㅊ", "v": "ㅍ", "b": "ㅠ", "n": "ㅜ", "m": "ㅡ",
    "Q": "ㅃ", "W": "ㅉ", "E": "ㄸ", "R": "ㄲ", "T": "ㅆ", "O": "ㅒ", "P": "ㅖ",
}

_CONSONANTS = set("ㄱㄲㄳㄴㄵㄶㄷㄸㄹㄺㄻㄼㄽㄾㄿㅀㅁㅂㅃㅄㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ")

# Particles and endings a player may attach to a search word (longest first).
PARTICLES = (
    "에서는", "으로는", "에서", "으로", "부터", "까지", "에게", "한테", "이랑", "하고", "처럼", "보다",
    "이나", "에는", "에도", "이면", "으면", "하면", "하는", "되면",
    "은", "는", "이", "가", "을", "를", "의", "에", "도", "만", "로", "와", "과", "랑", "면",
)

# What a player may type after a noun in a search: particles, the endings of
# 하다/되다/받다/당하다/시키다 put straight onto it (이동할, 은퇴된, 공격받으면),
# question endings and the copula (도르란, 뭐예요). Matched on jamo, so text typed
# in English mode (wjdckrdl) loses them too; up to two may follow each other.
ENDINGS = frozenset(PARTICLES + (
    "께서", "엔", "에선", "이라", "라", "이란", "란", "이라는", "라는", "이라도", "라도", "이라면", "라면",
    "이야", "야", "이요", "요", "이지", "지", "인가요", "인가", "인데", "인지", "이고", "고", "이며", "며",
    "이에요", "예요", "에요", "이죠", "죠", "이냐", "냐", "나요", "까", "까요", "어요", "아요", "여요", "어", "아",
    "하다", "하면", "하는", "하나요", "하나", "한", "할", "함", "해", "해도", "해요", "했", "했을", "했는데",
    "하려면", "하지", "하게", "하여", "하고", "할때", "할까요", "해야", "하죠",
    "되다", "되면", "되는", "되나요", "되나", "된", "될", "됨", "돼", "돼요", "되요", "됐", "되어", "되고", "되지",
    "되죠", "될때", "돼도", "되도", "되어도", "되었", "됩니다", "됐을",
    "받다", "받으면", "받는", "받나요", "받은", "받을", "받아", "받고", "받아도", "받았", "받을때",
    "당하다", "당하면", "당한", "당하는", "당할", "당해", "당해도", "당했",
    "시키다", "시키면", "시킨", "시키는", "시킬", "시켜", "시켜도",
    "들", "들은", "들이", "들을", "들의", "끼리", "마다", "밖에", "조차", "까지는", "부터는",
))

# Words that carry no rule content in a question (어떻게 되나요, 할 수 있나요,
# 뭐예요): they count for little in the score instead of drowning the words that do.
STOPWORDS = frozenset((
    "어떻게", "어떡해", "어떻", "어떤", "어찌", "되나요", "되나", "돼요", "되요", "됨", "돼", "되는지", "됩니까", "됩니다",
    "되죠", "될까요", "있나요", "있어", "있어요", "있음", "있는", "있을", "있는지", "있죠", "있습니까", "없나요", "없어",
    "없어요", "수", "뭐", "뭐야", "뭐예요", "뭐에요", "뭔가요", "뭔데", "뭔지", "무엇", "무엇인가요", "무슨", "왜", "좀",
    "그냥", "가능", "가능한가요", "가능해", "가능함", "가능한지", "가능해요", "하나요", "할까요", "인가요", "건가요",
    "거", "것", "건", "게", "알려줘", "알려주세요", "궁금", "궁금해요", "궁금합니다", "질문", "경우", "때", "요", "나요",
    "해도", "하면", "되면", "돼도", "되도", "의미", "설명", "말", "말인가요", "이거", "이건", "그거",
    "그럼", "그러면", "근데", "혹시", "정확히", "맞나요", "맞아요", "맞죠", "되는", "하는", "할", "된", "될",
    "합니까", "해요", "하죠", "이다", "입니다", "인지", "는지", "는데", "중", "중에", "도중", "도중에", "동안", "나", "어디", "어디로", "어디에", "어디서", "어느", "가나요", "가요", "가는지",
    "얼마", "얼마나", "어케", "어케됨", "누가", "누구", "누굴", "그럼", "안", "못", "더", "또", "다", "같이", "그대로", "임", "함", "됨", "해", "번에", "번씩", "번째", "한번에", "했어", "나면", "나서", "하면서", "내", "내가", "나", "너", "우리", "제가", "난", "넌", "잇나", "잇어", "있나",
    "되나", "할수", "있을수", "될까", "되지", "하지", "있지", "맞지", "거야", "건가", "건데", "거임", "제대로",
    "필요해", "필요한가요", "필요해요", "해야", "가는", "갈", "가면", "가서", "오는", "뭐가", "뭘", "무엇을", "무엇이", "어때", "어때요",
    "그걸", "그게", "이걸", "이게", "저거", "저걸", "그것", "이것", "걔", "얘", "쟤", "걔네", "얘네", "걔도", "얘도", "거기",
    "여기", "저기", "이야", "이냐", "이냐고", "인거", "인거야", "인거임", "막", "진짜", "완전", "약간", "일단", "아니", "아님", "그니까", "그러니까", "하여튼", "암튼",
))

WORD_RE = re.compile(r"[0-9A-Za-z\uac00-\ud7a3\u3131-\u318e]+")


def is_syllable(ch: str) -> bool:
    return _SBASE <= ord(ch) <= _SLAST


class _JamoMap(dict):
    """str.translate table of jamo(), filled letter by letter on first sight: a syllable → its
    keystroke jamo, a compound jamo → its keystrokes, any other letter → itself (lower-cased first)."""

    def __missing__(self, code: int) -> str:
        value = _jamo_loop(chr(code)) if _SBASE <= code <= _SLAST or chr(code) in _KEYSTROKES else chr(code)
        self[code] = value
        return value


class _ChoMap(dict):
    """str.translate table of choseong(), filled on first sight: a syllable → its initial, a
    consonant → itself, anything else → None (dropped)."""

    def __missing__(self, code: int):
        ch = chr(code)
        value = _CHO[(code - _SBASE) // 588] if _SBASE <= code <= _SLAST else ch if ch in _CONSONANTS else None
        self[code] = value
        return value


_JAMO_MAP = _JamoMap()
_CHO_MAP = _ChoMap()


def jamo(text: str) -> str:
    """Decompose Hangul syllables into keystroke-level compatibility jamo;
    other characters are lower-cased and kept."""
    if "Σ" not in text:  # str.lower() is letter by letter but for the final sigma: then the loop
        return text.lower().translate(_JAMO_MAP)  # (Hangul has no case: lower() leaves it as it is)
    return _jamo_loop(text)


def _jamo_loop(text: str) -> str:
    """jamo() letter by letter (its reference; tests compare the two)."""
    out: list[str] = []
    for ch in text:
        code = ord(ch)
        if _SBASE <= code <= _SLAST:
            idx = code - _SBASE
            cho, rest = divmod(idx, 588)
            jung, jong = divmod(rest, 28)
            out.append(_CHO[cho])
            v = _JUNG[jung]
            out.append(_KEYSTROKES.get(v, v))
            if jong:
                f = _JONG[jong]
                out.append(_KEYSTROKES.get(f, f))
        elif ch in _KEYSTROKES:
            out.append(_KEYSTROKES[ch])
        else:
            out.append(ch.lower())
    return "".join(out)


def compose(j: str) -> str:
    """Jamo (keystroke form) back to Hangul syllables, for showing a vocabulary word."""
    pairs = {v: k for k, v in _KEYSTROKES.items()}
    out, i, n = [], 0, len(j)
    while i < n:
        c = j[i]
        if c in _CHO and i + 1 < n and j[i + 1] in VOWELS:
            v, i = j[i + 1], i + 2
            if i < n and j[i] in VOWELS and pairs.get(v + j[i], "-") in _JUNG:
                v, i = pairs[v + j[i]], i + 1
            f = ""
            if i < n and j[i] in _JONG[1:] and not (i + 1 < n and j[i + 1] in VOWELS):
                f, i = j[i], i + 1
                if i < n and pairs.get(f + j[i], "-") in _JONG and not (i + 1 < n and j[i + 1] in VOWELS):
                    f, i = pairs[f + j[i]], i + 1
            out.append(chr(0xAC00 + (_CHO.index(c) * 21 + _JUNG.index(v)) * 28 + _JONG.index(f)))
        else:
            out.append(c)
            i += 1
    return "".join(out)


def choseong(text: str) -> str:
    """The initial consonant of every Hangul syllable (others dropped)."""
    return text.translate(_CHO_MAP)


def _choseong_loop(text: str) -> str:
    """choseong() letter by letter (its reference; tests compare the two)."""
    out = []
    for ch in text:
        code = ord(ch)
        if _SBASE <= code <= _SLAST:
            out.append(_CHO[(code - _SBASE) // 588])
        elif ch in _CONSONANTS:
            out.append(ch)
    return "".join(out)


def is_choseong_query(token: str) -> bool:
    return len(token) >= 2 and all(ch in _CONSONANTS for ch in token)


def is_qwerty_candidate(token: str) -> bool:
    return token.isascii() and token.isalpha() and len(token) >= 2


def qwerty_to_jamo(token: str) -> str:
    """Map keys typed with the keyboard left in English mode to the jamo they
    would have produced (두벌식 layout). Unknown characters are kept."""
    out = []
    for ch in token:
        j = _QWERTY.get(ch) or _QWERTY.get(ch.lower())
        out.append(j if j else ch)
    return "".join(out)


def normalize(text: str) -> str:
    return unicodedata.normalize("NFC", text)


def words(text: str) -> list[str]:
    """Split text into search words (Hangul, jamo, ASCII letters and digits)."""
    return WORD_RE.findall(normalize(text))


def strip_particle(word: str) -> str | None:
    """The word without a trailing particle, or None when it has none."""
    for p in PARTICLES:
        if len(word) > len(p) and word.endswith(p) and is_syllable(word[-len(p) - 1]):
            return word[: -len(p)]
    return None


# Particles that come only after a vowel, and their forms that come only after a
# final consonant: 장면이 is 장면 + 이, never 장 + 면이 (after 장 it would be 이면).
AFTER_VOWEL = ("는", "가", "를", "와", "로", "로는", "로도", "면", "란", "랑", "라", "라는", "라도", "라면", "야",
                "예요", "며")
AFTER_FINAL = ("은", "이", "을", "과", "으로", "으로는", "으로도", "이면", "으면", "이란", "이랑", "이라", "이라는",
                "이라도", "이라면", "이야", "이에요", "이며")


# The last syllable of every ending: a word ending otherwise carries none.
ENDING_LAST = frozenset(e[-1] for e in ENDINGS)
_SETS: dict = {}  # the endings as jamo, made on first use (not on import: a cold search may need none)


def _ending_sets() -> dict:
    if not _SETS:
        _SETS["all"] = frozenset(jamo(e) for e in ENDINGS)
        _SETS["max"] = 2 * max(len(e) for e in _SETS["all"])
        _SETS["after_vowel"] = frozenset(jamo(e) for e in AFTER_VOWEL)
        _SETS["after_final"] = frozenset(jamo(e) for e in AFTER_FINAL)
    return _SETS


def may_carry_ending(word: str) -> bool:
    """False when the word's last syllable ends no ending (정착, 기물); True
    otherwise and for words not in Hangul syllables (jamo, English-mode keys)."""
    return not is_syllable(word[-1]) or word[-1] in ENDING_LAST


def is_ending(tail: str) -> bool:
    """Is the jamo string one ending, or two in a row (에서+는, 되+나요)?"""
    ends = _ending_sets()["all"]
    if tail in ends:
        return True
    return any(tail[:k] in ends and tail[k:] in ends for k in range(1, len(tail)))


def _fits(head: str, ending: str) -> bool:
    """May this particle follow this head (jamo), by the head's last sound?"""
    last = head[-1]
    if last in VOWELS:
        return ending not in _SETS["after_final"]
    if "\u3131" <= last <= "\u314e":  # a final consonant (ㄹ also takes 로)
        return ending not in _SETS["after_vowel"] or (last == "ㄹ" and ending.startswith("ㄹㅗ"))
    return True


def ending_heads(j: str, vocabulary) -> list[str]:
    """Every head of the jamo string `j` that is in `vocabulary` and is followed
    only by endings (particles, verb and question endings) that may follow it,
    longest first."""
    sets = _ending_sets()
    ends, longest = sets["all"], sets["max"]
    out = []
    for k in range(len(j) - 1, 1, -1):
        head, tail = j[:k], j[k:]
        if len(tail) > longest or head not in vocabulary:
            continue
        if (tail in ends and _fits(head, tail)) or any(
                tail[:m] in ends and tail[m:] in ends and _fits(head, tail[:m]) for m in range(1, len(tail))):
            out.append(head)
    return out


def strip_ending(j: str, vocabulary) -> str | None:
    """The longest head of `j` in `vocabulary` followed only by endings, or None."""
    heads = ending_heads(j, vocabulary)
    return heads[0] if heads else None


def ending_length(j: str) -> int:
    """Jamo taken by the longest ending (or two) that `j` ends with, leaving at
    least one syllable before it; 0 when it ends with none."""
    longest = _ending_sets()["max"]
    for k in range(2, len(j)):
        if len(j) - k <= longest and is_ending(j[k:]):
            return len(j) - k
    return 0


VOWELS = frozenset(_JUNG) | frozenset("".join(_KEYSTROKES[v] for v in _JUNG if v in _KEYSTROKES))


def syllable_count(j: str) -> int:
    """Hangul syllables in a jamo string: one per run of vowels."""
    n, prev = 0, False
    for ch in j:
        v = ch in VOWELS
        if v and not prev:
            n += 1
        prev = v
    return n


_CHAR_WIDTH: dict[str, int] = {}


def _char_width(ch: str) -> int:
    w = 0 if unicodedata.combining(ch) else 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    if len(_CHAR_WIDTH) < 65536:
        _CHAR_WIDTH[ch] = w
    return w


def display_width(text: str) -> int:
    """Terminal columns: East Asian wide and full-width characters take two (combining marks none)."""
    if text.isascii():  # one column each: the common case of ids and numbers, without a lookup
        return len(text)
    get = _CHAR_WIDTH.get
    return sum(get(ch) if ch in _CHAR_WIDTH else _char_width(ch) for ch in text)


def wrap(text: str, width: int = 78, indent: str = "", subsequent: str | None = None) -> str:
    """Word-wrap by display width (Korean syllables are two columns wide)."""
    if subsequent is None:
        subsequent = indent
    lines_out: list[str] = []
    for para in str(text).split("\n"):
        line = indent
        line_w = display_width(indent)
        first_word = True
        for word in para.split(" "):
            if not word:
                continue
            ww = display_width(word)
            sep = 0 if first_word else 1
            if not first_word and line_w + sep + ww > width:
                lines_out.append(line.rstrip())
                line = subsequent + word
                line_w = display_width(subsequent) + ww
            else:
                line += (" " if sep else "") + word
                line_w += sep + ww
            first_word = False
        lines_out.append(line.rstrip())
    return "\n".join(lines_out)


def josa(word: str, pair: str) -> str:
    """Attach the right particle of a pair such as '이/가', '을/를', '은/는',
    '과/와', '으로/로' to a word, by its last syllable's final consonant."""
    with_final, without = pair.split("/")
    base = str(word)
    if base.endswith(")") and "(" in base:  # 'gk(수문장)': the particle follows the word outside
        head = base[:base.rindex("(")].rstrip()
        # '(2,4)': nothing outside — the particle follows what is inside (4 사 → 를; (1,1) 일 → 을)
        base = head if head else base[base.rindex("(") + 1:-1]
    base = base.rstrip("'\"’”」』》〉]」 ")  # '정착' + 이: the particle follows what is quoted
    last = base[-1] if base else ""
    if last and is_syllable(last):  # '' (an empty quoted value) has no last syllable
        final = (ord(last) - _SBASE) % 28
        if pair == "으로/로" and final == 8:  # ㄹ takes 로
            return word + without
        return word + (with_final if final else without)
    if last and not last.isascii() and last not in _DIGIT_FINAL:  # ６ ⁶ ① ٦ are read as the digit they stand for
        from .digits import fold

        last = unicodedata.normalize("NFKC", fold(last))[-1:] or last
    if last in _DIGIT_FINAL:  # a number is read in Korean: 1 일, 3 삼, 6 육 ...
        final = _DIGIT_FINAL[last]
        if pair == "으로/로" and final == "ㄹ":
            return word + without
        return word + (with_final if final else without)
    final = _latin_final(base)
    if pair == "으로/로" and final == "ㄹ":
        return word + without
    return word + (with_final if final else without)


#: the most characters of a person's input an error message repeats: a longer input is shown as its prefix + '…'
ECHO_MAX = 40


#: a path an error message repeats is cut in the middle past this many characters (its start and its file name
#: stay; no real path is this long: a file name has 255 bytes at most)
PATH_ECHO_MAX = 160


def cut(value, limit: int = ECHO_MAX) -> str:
    """`value` as an error message repeats it without quotes: its first `limit` characters and '…' when longer
    (the same cut as `quoted`)."""
    text = str(value)
    return text if len(text) <= limit else text[:limit] + "…"


def cut_path(value, limit: int = PATH_ECHO_MAX) -> str:
    """A path as an error message repeats it: whole up to `limit` characters, else its start, '…' and its
    last characters (where the file name is)."""
    text = str(value)
    if len(text) <= limit:
        return text
    tail = limit // 3
    return text[: limit - tail - 1] + "…" + text[-tail:]


def quoted(value, pair: str | None = None, limit: int = ECHO_MAX) -> str:
    """'value' as an error message repeats it: in quotes, cut to `limit` characters ('…' after the cut),
    with the particle of `pair` chosen by the last syllable shown ('정착'이, '가나다…'가)."""
    text = str(value)
    cut = len(text) > limit
    shown = text[:limit] if cut else text
    word = f"'{shown}'"
    particle = josa(word, pair)[len(word):] if pair else ""
    return f"'{shown}…'{particle}" if cut else word + particle


#: abbreviations the rulebook reads as Korean words: Lv 레벨 ('Lv이 같으면', 'Lv은'). ATK and MOV are read
#: letter by letter as the rulebook does ('ATK와 HP가', 'ATK로', 'MOV가'): they take the form without a final
_READ_AS = {"Lv": "ㄹ", "LV": "ㄹ"}


def _latin_final(base: str) -> str:
    """The final consonant a Latin-script word is read with, so that no particle is ever hedged.

    An all-capital acronym or a single letter is read letter by letter (DGM 디지엠, HP 에이치피, ATK 에이티케이);
    another word by its sound (drill 드릴, gk 지케이: a final l, m, n or ng is read as ㄹ, ㅁ, ㄴ, ㅇ).
    Anything else (symbols, digits handled above) takes the form without a final consonant."""
    letters = "".join(ch for ch in base if ch.isascii() and ch.isalpha())
    for abbr, final in _READ_AS.items():  # game abbreviations read as Korean words
        if base.endswith(abbr) and not base[: -len(abbr)][-1:].isalpha():
            return final
    if not letters or not base[-1].isascii() or not base[-1].isalpha():
        return ""
    if letters.isupper() or len(letters) <= 2 or base[-1].isupper():
        return {"L": "ㄹ", "M": "ㅁ", "N": "ㄴ", "R": "ㄹ"}.get(base[-1].upper(), "")
    low = letters.lower()
    if low.endswith("ng"):
        return "ㅇ"
    return {"l": "ㄹ", "m": "ㅁ", "n": "ㄴ"}.get(low[-1], "")


#: the final consonant of each digit read in Korean (영 일 이 삼 사 오 육 칠 팔 구)
_DIGIT_FINAL = {"0": "ㅇ", "1": "ㄹ", "2": "", "3": "ㅁ", "4": "", "5": "", "6": "ㄱ", "7": "ㄹ", "8": "ㄹ", "9": ""}


# Endings a question puts on a verb or adjective stem (as jamo after the stem; a
# final consonant such as ㄴ, ㄹ, ㅁ joins the stem's last syllable: 깔아둔 = 깔아두 + ㄴ).
VERB_ENDINGS = (
    "다", "면", "으면", "나", "냐", "니", "나요", "냐고", "나여", "어", "아", "여", "요", "어요", "아요", "여요", "도",
    "어도", "아도", "고", "지", "죠", "지요", "는", "은", "을", "ㄴ", "ㄹ", "ㅁ", "음", "서", "어서", "아서", "는데",
    "은데", "ㄴ데", "려면", "으려면", "려고", "려는데", "기", "게", "자", "자마자", "까", "ㄹ까", "을까", "야", "어야",
    "아야", "었", "았", "였", "ㅆ", "는지", "은지", "ㄴ지", "던", "는다", "ㄴ다", "습니다", "ㅂ니다", "네", "ㄹ때", "을때",
    "ㄹ수", "을수", "ㄴ거", "는거", "ㄹ거", "을거", "ㄴ가", "는가", "게요", "ㄹ게", "을게", "더니", "었더니", "았더니", "다가", "다가는", "다가도", "ㄴ거", "ㄹ래", "을래", "구나", "네요",
    "ㄴ다면", "는다면", "다면", "라서", "니까", "으니까", "ㄹ지", "을지",
)
# Contracted vowels a stem and an 어/아 ending make (때리+어 → 때려, 되+어 → 돼, 하+여 → 해),
# as (contracted jamo, stem's last vowel, ending's vowel): 들어와 → 들어오 + 아.
_CONTRACTIONS = (("ㅕ", "ㅣ", "ㅓ"), ("ㅗㅐ", "ㅗㅣ", "ㅓ"), ("ㅐ", "ㅏ", "ㅕ"), ("ㅓ", "ㅡ", "ㅓ"), ("ㅏ", "ㅡ", "ㅏ"),
                 ("ㅗㅏ", "ㅗ", "ㅏ"), ("ㅜㅓ", "ㅜ", "ㅓ"))
_VERB_SETS: dict = {}


def _verb_endings() -> frozenset:
    if not _VERB_SETS:
        _VERB_SETS["all"] = frozenset(jamo(e) for e in VERB_ENDINGS)
        _VERB_SETS["max"] = 8
    return _VERB_SETS["all"]


def _is_verb_tail(tail: str, ends: frozenset) -> bool:
    """One verb ending, or two in a row (었+어, 어+도)."""
    return tail in ends or any(tail[:k] in ends and tail[k:] in ends for k in range(1, len(tail)))


_STEMS_MEMO: dict[str, tuple[str, ...]] = {}
_QUESTION_MEMO: dict[str, bool] = {}
_MEMO_MAX = 8192  # words remembered (a search asks for the same words again and again: the site's search
                  # box keystroke by keystroke, the common words of questions); then forgotten at once


def verb_stems(j: str) -> list[str]:
    """Candidate stems (jamo) of a word that may be a conjugated verb or adjective:
    때려 → 때리, 잡혀 → 잡히, 들어와 → 들어오, 부서지면 → 부서지, 깔아둔 → 깔아두, 못가나 → 가.
    Over-generates on purpose: callers keep only the stems they know. (Remembered per word: a new
    list each call, so a caller may change it.)"""
    got = _STEMS_MEMO.get(j)
    if got is None:
        if len(_STEMS_MEMO) >= _MEMO_MAX:
            _STEMS_MEMO.clear()
        got = _STEMS_MEMO[j] = tuple(_verb_stems(j))
    return list(got)


def _verb_stems(j: str) -> list[str]:
    ends = _verb_endings()
    longest = _VERB_SETS["max"]
    out: list[str] = []

    def add(stem):
        if stem and stem not in out and any(ch in VOWELS for ch in stem):
            out.append(stem)

    if j[:1] in ("ㅁ", "ㅇ") and (j.startswith("ㅁㅗㅅ") or j.startswith("ㅇㅏㄴ")) and len(j) > 5:
        for s in verb_stems(j[3:]):  # 못가나 → 가나, 안고른 → 고른 (negation)
            add(s)
    forms = [j]
    for k in range(1, len(j)):
        for short, vowel, ending in _CONTRACTIONS:
            if j[k - len(short) + 1:k + 1] == short and (k + 1 == len(j) or j[k + 1] not in VOWELS):
                forms.append(j[:k - len(short) + 1] + vowel + "ㅇ" + ending + j[k + 1:])
    for f in forms:
        if f[-1:] in VOWELS:
            add(f)  # a bare stem (가, 때려 → 때리어)
        for k in range(len(f) - 1, max(0, len(f) - longest) - 1, -1):
            if _is_verb_tail(f[k:], ends):
                add(f[:k])
    # an auxiliary verb after -어/-아/-고 (숨어있던, 깔아놔야, 도와주는, 덮어둘, 하고있어):
    # the main verb's stem as well
    for stem in list(out):
        for aux in _AUX_STEMS:
            if stem.endswith(aux) and len(stem) > len(aux) + 2:
                head = stem[:-len(aux)]
                if head.endswith(("ㅇㅓ", "ㅇㅏ", "ㄱㅗ")):
                    add(head[:-2])
                    for s in verb_stems(head):
                        add(s)
    return out


# auxiliary verbs (as jamo stems) that follow a main verb's -어/-아/-고 form
_AUX_STEMS = ("ㅇㅣㅆ", "ㄴㅗㅎ", "ㄴㅗ", "ㄷㅜ", "ㅈㅜ", "ㅂㅓㄹㅣ", "ㅂㅗ")


# Colloquial and chat spellings players type, read as the word they stand for
# (머 = 뭐, 첨 = 처음, 젤 = 제일); only used when the corpus does not know the word.
COLLOQUIAL = {
    "머": "뭐", "모야": "뭐야", "넘": "너무", "암": "아무", "암거나": "아무거나", "암데나": "아무데나", "첨": "처음",
    "첨에": "처음에", "담": "다음", "담에": "다음에", "젤": "제일", "겜": "게임", "걍": "그냥", "맘대로": "마음대로",
    "얼만큼": "얼마나", "왤케": "왜", "왜케": "왜", "어캐": "어떻게", "어떠케": "어떻게", "어케": "어떻게", "몬": "못",
    "글구": "그리고", "글고": "그리고", "땜에": "때문에", "땜시": "때문에", "머임": "뭐임", "뭔": "무슨", "낭": "나중",
    "낭중": "나중", "울": "우리", "첨부터": "처음부터",
}

# Stems of the verbs a question is built with (되냐, 가능하냐고, 있음?, 없냐, 하는거임):
# a word that is one of them plus endings carries no rule content.
_FUNCTION_STEMS = frozenset(jamo(s) for s in (
    "되", "돼", "하", "있", "잇", "없", "업", "가능하", "어떻", "어떡하", "그렇", "알려주", "궁금하", "않", "말",
    "뭐", "뭐이", "거이", "건가", "그러", "맞는거", "되는거", "하는거", "있는거", "없는거", "되는건", "하는건",
    "일어나", "일어난"))  # 언제 일어나: 'happen' says nothing about the rule
_LAUGH = frozenset("ㅋㅎㅠㅜㅡ;")
_CHAT = frozenset(("ㅇㅇ", "ㄴㄴ", "ㅇㅋ", "ㄱㄱ", "ㄷㄷ", "ㅈㅅ", "ㅇㅈ", "ㄹㅇ", "ㅁㅊ", "ㅎㅇ", "ㅂㅂ"))


def chat_noise(token: str) -> bool:
    """ㅋㅋ, ㅎㅎ, ㅠㅠ, ㅇㅇ, ㄴㄴ …: chat noise, not a 초성 search."""
    return bool(token) and (all(ch in _LAUGH for ch in token) or token in _CHAT)


def strip_chat(token: str) -> str:
    """A word with laughter typed onto it (됨ㅋㅋ, 뭐임ㅠㅠ) without it."""
    end = len(token)
    while end > 0 and token[end - 1] in _LAUGH:
        end -= 1
    return token[:end] if 0 < end < len(token) and is_syllable(token[end - 1]) else token


def is_question_word(token: str) -> bool:
    """A question word: in STOPWORDS, or a question verb with its endings (되냐고,
    가능하냐, 있음, 없냐, 해야됨, 되는거임). (Remembered per word, as verb_stems.)"""
    got = _QUESTION_MEMO.get(token)
    if got is None:
        if len(_QUESTION_MEMO) >= _MEMO_MAX:
            _QUESTION_MEMO.clear()
        got = _QUESTION_MEMO[token] = _is_question_word(token)
    return got


def _is_question_word(token: str) -> bool:
    if token in STOPWORDS:
        return True
    if not token or not all(is_syllable(c) for c in token) or len(token) > 6:
        return False
    j = jamo(token)
    if j in _FUNCTION_STEMS:
        return True
    ends = _verb_endings()
    for stem in verb_stems(j):
        if stem in _FUNCTION_STEMS and _is_verb_tail(j[len(stem):], ends) if j.startswith(stem) else False:
            return True
    return False


def fix_shift(word: str) -> str:
    """Shift held a key too long on a tense consonant also shifts the vowel (떄려 for
    때려, 쎼트 for 세트): a syllable with ㄲ ㄸ ㅃ ㅆ ㅉ and ㅒ/ㅖ gets ㅐ/ㅔ."""
    out = []
    for ch in word:
        code = ord(ch) - _SBASE
        if 0 <= code <= _SLAST - _SBASE:
            cho, rest = divmod(code, 588)
            jung, jong = divmod(rest, 28)
            if cho in (1, 4, 8, 10, 13) and jung in (3, 7):
                ch = chr(_SBASE + cho * 588 + (jung - 2) * 28 + jong)
        out.append(ch)
    return "".join(out)


def clip(text, width: int) -> str:
    """Cut text to a display width (Korean syllables count two), ending in '…'."""
    text = " ".join(str(text).split())
    if display_width(text) <= width:
        return text
    out, w = [], 0
    for ch in text:
        cw = display_width(ch)
        if w + cw > width - 1:
            break
        out.append(ch)
        w += cw
    return "".join(out) + "…"


# ---------------------------------------------------------- 가나다 order ----
# The order of a Korean dictionary (표준국어대사전, KS X 1026-1): syllable by syllable, each by its
# initial, vowel and final in the standard jamo order — ㄱ ㄲ ㄴ ㄷ ㄸ … (a tense consonant right
# after its plain one), ㅏ ㅐ ㅑ …, no final before ㄱ ㄲ ㄳ ㄴ … — which is the order of the
# precomposed syllables' code points (가나 before 각: the syllable decides, not the jamo string).
# Spaces and punctuation do not count (대응 셀 sorts as 대응셀; (대응) as 대응), a digit run counts as
# its number (필드 5자리 before 필드 10자리). Words that begin with Hangul come first, then those that
# begin with a Latin letter (A–Z, case ignored), then those that begin with a digit; within a word,
# Hangul < Latin < digits too. Groups (collation_head): ㄱ … ㅎ (tense consonants under their plain
# one: ㄲ under ㄱ), then A–Z, then 0–9.
_CHO_COMPAT = {ch: i for i, ch in enumerate(_CHO)}
_PLAIN = {"ㄲ": "ㄱ", "ㄸ": "ㄷ", "ㅃ": "ㅂ", "ㅆ": "ㅅ", "ㅉ": "ㅈ"}
_COLLATE_TOKEN = re.compile(r"\d+|[A-Za-z]|[\uac00-\ud7a3]|[\u3131-\u314e]")
HEAD_LATIN = "A–Z"
HEAD_DIGIT = "0–9"


def _collation_units(text: str) -> tuple:
    out = []
    for m in _COLLATE_TOKEN.finditer(unicodedata.normalize("NFC", str(text))):
        tok = m.group(0)
        ch = tok[0]
        if _SBASE <= ord(ch) <= _SLAST:
            cho, rest = divmod(ord(ch) - _SBASE, 588)
            jung, jong = divmod(rest, 28)
            out.append((0, cho, jung + 1, jong))
        elif ch in _CHO_COMPAT:  # a bare initial (ㄷ): before every syllable that starts with it
            out.append((0, _CHO_COMPAT[ch], 0, 0))
        elif ch.isdigit():
            out.append((2, int(tok), 0, 0))
        elif ch.isascii():
            out.append((1, ord(ch.lower()), 0, 0))
    return tuple(out)


def collation_key(text: str) -> tuple:
    """A sort key that puts words in 가나다 order (see above): sorted(words, key=collation_key).
    Ties (same letters, other spacing, case or punctuation) are broken by the text itself, so the
    order is total and stable across runs."""
    units = _collation_units(text)
    group = units[0][0] if units else 3
    return (group, units, str(text))


def collation_head(text: str) -> str:
    """The index letter a word is listed under: its first initial (ㄲ under ㄱ), A–Z or 0–9."""
    units = _collation_units(text)
    if not units:
        return HEAD_LATIN
    kind, value = units[0][0], units[0][1]
    if kind == 0:
        ch = _CHO[value]
        return _PLAIN.get(ch, ch)
    return HEAD_LATIN if kind == 1 else HEAD_DIGIT


def collation_heads() -> tuple[str, ...]:
    """Every index letter in order: ㄱ ㄴ ㄷ ㄹ ㅁ ㅂ ㅅ ㅇ ㅈ ㅊ ㅋ ㅌ ㅍ ㅎ A–Z 0–9."""
    return tuple(ch for ch in _CHO if ch not in _PLAIN) + (HEAD_LATIN, HEAD_DIGIT)
