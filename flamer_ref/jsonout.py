"""The JSON every `--json` prints: `dumps(obj)` gives exactly the text of
``json.dumps(obj, ensure_ascii=False, indent=2)``, several times faster.

With ``indent`` the standard library falls back to its pure-Python encoder, a generator per
nesting level and per item; a 1,000-cell combat (12 MB, two million tokens) took 1.5–3 s in it
alone. This writer walks the object once and lets the C function of the json module escape each
string. Anything it does not know (an unsupported type, a non-string key of an odd type) is left
to the standard encoder, so the text and the errors stay the standard library's."""

from __future__ import annotations

import json
from json.encoder import encode_basestring as _s  # the C escaper when available (ensure_ascii=False)

try:
    from _json import make_encoder as _c_make_encoder
except ImportError:  # pragma: no cover - CPython always has it
    _c_make_encoder = None

__all__ = ["dumps"]


class _Unknown(Exception):
    """A value this writer does not handle: the standard encoder takes over."""


def _float(o: float) -> str:
    if o != o:
        return "NaN"
    if o == float("inf"):
        return "Infinity"
    if o == -float("inf"):
        return "-Infinity"
    return float.__repr__(o)


def _scalar(o) -> str:
    """A leaf as json.encoder does it (same checks, same order)."""
    if isinstance(o, str):
        return _s(o)
    if o is None:
        return "null"
    if o is True:
        return "true"
    if o is False:
        return "false"
    if isinstance(o, int):
        return int.__repr__(o)
    if isinstance(o, float):
        return _float(o)
    raise _Unknown


def _key(k) -> str:
    if isinstance(k, str):
        return _s(k)
    if isinstance(k, float):
        return _s(_float(k))
    if k is True:
        return '"true"'
    if k is False:
        return '"false"'
    if k is None:
        return '"null"'
    if isinstance(k, int):
        return _s(int.__repr__(k))
    raise _Unknown


_PLAIN = frozenset({str, int, type(None), bool, float})  # leaves the C encoder writes as json.encoder does
_BOXES = frozenset({list, tuple, dict})  # written "[]" / "{}" when empty, in both encoders
_FLAT: dict[str, object] = {}  # newline + indent → a C encoder whose item separator is "," + that


def _flat(nl: str):
    """The C encoder for a container of plain leaves whose items go after `nl` + two spaces: with
    the item separator ",\n" + indent, its compact text is the indented text but for the first and
    last line breaks (a string cannot hold a raw line break, so nothing else is touched)."""
    enc = _FLAT.get(nl)
    if enc is None:
        enc = _FLAT[nl] = _c_make_encoder(None, None, _s, None, ": ", "," + nl + "  ", False, False, True)
    return enc


def _walk(o, out: list, nl: str) -> None:
    """Append the text of container `o` whose closing bracket goes after `nl` (newline + indent)."""
    inner = nl + "  "
    sep = inner
    if isinstance(o, dict):
        if not o:
            out.append("{}")
            return
        if _c_make_encoder is not None and type(o) is dict:
            for v in o.values():
                if type(v) not in _PLAIN and (v or type(v) not in _BOXES):
                    break
            else:
                for k in o:
                    if type(k) is not str:
                        break
                else:
                    text = "".join(_flat(nl)(o, 0))
                    out.append("{" + inner + text[1:-1] + nl + "}")
                    return
        out.append("{")
        for k, v in o.items():
            key = _s(k) if type(k) is str else _key(k)
            t = type(v)
            if t is str:
                out.append(f"{sep}{key}: {_s(v)}")
            elif t is int:
                out.append(f"{sep}{key}: {int.__repr__(v)}")
            elif v is None:
                out.append(f"{sep}{key}: null")
            elif t is dict or t is list or t is tuple or isinstance(v, (dict, list, tuple)) and not isinstance(v, str):
                out.append(f"{sep}{key}: ")
                _walk(v, out, inner)
            else:
                out.append(f"{sep}{key}: {_scalar(v)}")
            sep = "," + inner
        out.append(nl + "}")
        return
    if not o:
        out.append("[]")
        return
    if _c_make_encoder is not None and (type(o) is list or type(o) is tuple):
        for v in o:
            if type(v) not in _PLAIN and (v or type(v) not in _BOXES):
                break
        else:
            text = "".join(_flat(nl)(o, 0))
            out.append("[" + inner + text[1:-1] + nl + "]")
            return
    out.append("[")
    for v in o:
        t = type(v)
        if t is str:
            out.append(sep + _s(v))
        elif t is int:
            out.append(sep + int.__repr__(v))
        elif t is dict or t is list or t is tuple or isinstance(v, (dict, list, tuple)) and not isinstance(v, str):
            out.append(sep)
            _walk(v, out, inner)
        else:
            out.append(sep + _scalar(v))
        sep = "," + inner
    out.append(nl + "]")


def dumps(obj) -> str:
    """``json.dumps(obj, ensure_ascii=False, indent=2)``, byte for byte."""
    try:
        if isinstance(obj, (dict, list, tuple)) and not isinstance(obj, str):
            out: list[str] = []
            _walk(obj, out, "\n")
            return "".join(out)
        return _scalar(obj)
    except (_Unknown, RecursionError):
        return json.dumps(obj, ensure_ascii=False, indent=2)
