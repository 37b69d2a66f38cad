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

WORD_RE = re.compile(r"[0-9A-Za-z\uac00-\ud7a3\u3131-\u318e]+")


def is_syllable(ch: str) -> bool:
    return _SBASE <= ord(ch) <= _SLAST


def jamo(text: str) -> str:
    """Decompose Hangul syllables into keystroke-level compatibility jamo;
    other characters are lower-cased and kept."""
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


def choseong(text: str) -> str:
    """The initial consonant of every Hangul syllable (others dropped)."""
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


def display_width(text: str) -> int:
    """Terminal columns: East Asian wide and full-width characters take two."""
    w = 0
    for ch in text:
        if unicodedata.combining(ch):
            continue
        w += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return w


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
    last = word[-1] if word else ""
    if is_syllable(last):
        final = (ord(last) - _SBASE) % 28
        if pair == "으로/로" and final == 8:  # ㄹ takes 로
            return word + without
        return word + (with_final if final else without)
    return word + f"{with_final}({without})"
