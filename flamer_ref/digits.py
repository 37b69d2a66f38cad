"""Numbers as people type them (issue 25, fault 19).

A Korean IME in full-width mode types ６.２６, ２０２６－０９－２４, ９／２４, ２，４ and ｈｐ２; other scripts have digits
of their own (٦ Arabic-Indic, ۶ Persian, ६ Devanagari …). Python's `\\d` and `int()` read every decimal digit
while `[0-9]` reads ASCII only, so one place read ６.２６ as the date 2026-06-26 where another refused it as a
rule number. Every place that reads a number or a date from a person — a rule number or a ruling's date
(`flamer rule`), a date option (--as-of, --compare, --since, --until), `--cell`, the one-line fight and its
`--stat`, a search, an example's `#n` — folds the text first:

- the full-width forms of ASCII (U+FF01–FF5E: digits, letters, punctuation) become ASCII, and the ideographic
  space (U+3000) a space — what Unicode's NFKC does to them;
- every other decimal digit (Unicode category Nd) becomes its ASCII digit — what `int()` reads it as.

Nothing else changes: Hangul (and its compatibility jamo, which NFKC would decompose: ㄱㅅ stays ㄱㅅ), other
letters and symbols stay as typed. Digits that are no decimal digits (², ①) are not folded: they are no
number, and the reader refuses them as it refuses any word. The readers themselves then accept ASCII digits
only, so no other digit can be read by one and refused by another.
"""

from __future__ import annotations

import unicodedata

_FULL_WIDTH = range(0xFF01, 0xFF5F)
_OFFSET = 0xFEE0


def fold(text: str) -> str:
    """`text` with full-width ASCII forms and every decimal digit as ASCII (see the module)."""
    if text.isascii():
        return text
    out = []
    for ch in text:
        o = ord(ch)
        if o < 0x80:
            out.append(ch)
        elif o in _FULL_WIDTH:
            out.append(chr(o - _OFFSET))
        elif o == 0x3000:
            out.append(" ")
        elif ch.isdecimal():
            out.append(str(unicodedata.decimal(ch)))
        else:
            out.append(ch)
    return "".join(out)
