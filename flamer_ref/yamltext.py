"""Text that goes into YAML files this tool writes, kept inert: pure string functions (standard library only), so the
renderer's `yaml_comment` filter and the YAML writer (yamlio.dump) share them without an import cycle.

Scenario files this tool writes (`fight --save`, `example --scenario`) are built as data and
serialised by yamlio.dump; the only free text outside the data is a header of `#` comments. No text from
an argument or a data file may become structure: a comment ends at any line break YAML knows,
so every such character in a comment is written as a visible escape, and every string value
that holds one (or a character YAML cannot carry raw) is written double-quoted, which YAML
reads back exactly (PyYAML's plain, single-quoted and literal styles fold some of them).
"""

from __future__ import annotations

import re

#: every character YAML (PyYAML) reads as a line break; one ends a comment or a plain value
LINE_BREAKS = "\r\n\x85\u2028\u2029"
_ESCAPES = {"\r": "\\r", "\n": "\\n", "\t": "\\t"}


def _unsafe(ch: str) -> bool:
    """A character a comment or an unquoted value may not hold raw: a line break, a control character
    (YAML refuses most; tab included, to keep one rule), a lone surrogate, U+FFFE/U+FFFF."""
    o = ord(ch)
    return (ch in LINE_BREAKS or o < 0x20 or 0x7F <= o < 0xA0 or 0xD800 <= o < 0xE000 or o in (0xFFFE, 0xFFFF))


def comment_text(value) -> str:
    """`value` as text that stays inside one `# …` comment line: every line break YAML knows and every
    character YAML cannot read raw becomes a visible escape (`\\r`, `\\u2028` …)."""
    text = "" if value is None else str(value)
    if not any(_unsafe(ch) for ch in text):
        return text
    out = []
    for ch in text:
        if not _unsafe(ch):
            out.append(ch)
        elif ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        else:
            o = ord(ch)
            out.append(f"\\x{o:02x}" if o < 0x100 else f"\\u{o:04x}")
    return "".join(out)


def comment_header(text: str) -> str:
    """A header of comment lines, checked: each line (split at every YAML line break) starts with `#`,
    so the header can never hold a key. Raises ValueError otherwise (a template or a writer forgot
    `comment_text`)."""
    lines = re.split(f"[{LINE_BREAKS}]", text)
    if lines and lines[-1] == "":
        lines.pop()
    bad = next((ln for ln in lines if not ln.startswith("#") or any(_unsafe(ch) for ch in ln)), None)
    if bad is not None or (text and not text.endswith("\n")):
        raise ValueError(f"a scenario header line is not a plain comment: {bad!r}")
    return text


def needs_quotes(text: str) -> bool:
    """True when a string must be written double-quoted to be read back as the same string."""
    return any(_unsafe(ch) for ch in text.replace("\n", "")) or "\n" in text and (
        text != text.strip("\n") or "\n\n" in text or text != text.strip())
