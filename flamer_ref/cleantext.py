"""Text made safe to show, wherever it is shown: the terminal (the CLI), a page or a book (the publishers:
site.py, pageout.py), a message of the one-line fight (oneliner.py). One room every output shares
(issue 29); the CLI's streams (flamer_ref/terminal.py) clean every write with it.

- clean(text): control characters (C0 except newline and tab, DEL, C1) become
  visible placeholders, so that text from input or data (a query, a scenario
  title, a piece id, a card name) can never retitle the terminal, clear the
  screen or hide a line: ESC -> U+241B, BEL -> U+2407, DEL -> U+2421, a C1
  character -> the literal text \\x9b.
- json_clean(text): for JSON text, DEL, C1 and the bidirectional controls
  (which json.dumps with ensure_ascii=False leaves raw) become \\u escapes:
  the same JSON value.
- json_text(obj): the --json answer: json.dumps (not ASCII-escaped) + json_clean.

Stdlib only, imported on every run: keep it light.
"""

from __future__ import annotations


def _picture(o: int) -> str:
    if o < 0x20:
        return chr(0x2400 + o)  # the Unicode "control pictures" block: ␛ ␇ ␀ …
    if o == 0x7F:
        return "\u2421"  # ␡
    return f"\\x{o:02x}"  # C1: no picture exists


_CODES = [o for o in range(0xA0) if o < 0x20 and o not in (0x09, 0x0A) or o >= 0x7F]
# bidirectional overrides and isolates (U+202A–202E, U+2066–2069) can make a terminal show text in another
# order than it is ("Trojan Source"): shown as their code point instead
# (and the marks U+200E/U+200F/U+061C, which reorder neutral characters around them)
_BIDI_CONTROLS = [*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F, 0x061C]
_BIDI = [*_BIDI_CONTROLS, 0x200B, 0x2060, 0xFEFF]  # + invisible marks
_TABLE = {o: _picture(o) for o in _CODES} | {o: f"<U+{o:04X}>" for o in _BIDI}
_HTML_TABLE = _TABLE | {o: f"&lt;U+{o:04X}&gt;" for o in _BIDI}  # in a page, '<U+…>' would open a tag
# JSON keeps every character's value, but a raw bidi control would still reorder the JSON text where
# a person reads it (a terminal, a log): written as its \\u escape, the same JSON value
_JSON_TABLE = {o: f"\\u{o:04x}" for o in [*(o for o in _CODES if o >= 0x7F), *_BIDI_CONTROLS]}


_ANY_CONTROL = None  # compiled on first use: a regex scan runs at C speed; str.translate with a dict does not


def _has(text: str, json: bool = False) -> bool:
    global _ANY_CONTROL
    if _ANY_CONTROL is None:
        import re

        _ANY_CONTROL = (re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b\u200e\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]"),
                        re.compile("[\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]"))
    return _ANY_CONTROL[1 if json else 0].search(text) is not None


def clean(text: str, html: bool = False) -> str:
    """Text for a terminal (or a page): every control character except \\n and \\t made visible.
    `html`: the text is HTML (a book, a site page), where a bidi control's <U+…> is written escaped."""
    if not isinstance(text, str):
        return text
    if not _has(text):  # 22 MB of HTML: seconds of translate, ms of scan
        return text
    return text.translate(_HTML_TABLE if html else _TABLE)


def json_clean(text: str) -> str:
    """JSON text with DEL, C1 and bidirectional control characters written as \\u escapes (the same
    JSON value). Such a character can only stand inside a JSON string, where its escape means it."""
    if not isinstance(text, str):
        return text
    return text.translate(_JSON_TABLE) if _has(text, json=True) else text


def json_text(obj) -> str:
    """The JSON a command prints under --json (UTF-8, not ASCII-escaped, indented), with json_clean
    applied: the one function every --json answer and error goes through (standard output under
    --json is cleaned the same way again, which changes nothing more)."""
    from .jsonout import dumps  # json.dumps(obj, ensure_ascii=False, indent=2), byte for byte, faster

    return json_clean(dumps(obj)) + "\n"
