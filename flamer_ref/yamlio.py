"""Strict YAML reading: safe types only, duplicate keys rejected, and the line
of every mapping and key remembered so that errors can name them."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from .errors import DataError, Problem
from .korean import josa

try:  # the C parser is several times faster than the pure-Python one
    from yaml import CSafeLoader as _Base
except ImportError:  # pragma: no cover - depends on how PyYAML was built
    from yaml import SafeLoader as _Base  # type: ignore[assignment]


class LineDict(dict):
    """A dict that knows the line of itself and of each of its keys (1-based)."""

    line: int | None = None
    key_lines: dict

    def line_of(self, key) -> int | None:
        return getattr(self, "key_lines", {}).get(key, self.line)


class _DuplicateKey(Exception):
    def __init__(self, key, line):
        self.key = key
        self.line = line


class _StrictLoader(_Base):  # type: ignore[misc,valid-type]
    pass


def _construct_mapping(loader, node):
    # Keys written in this mapping may not repeat; keys brought in by a merge ('<<: *anchor')
    # may be overridden by a written key, as YAML intends.
    written = {id(k) for k, _ in node.value if k.tag != "tag:yaml.org,2002:merge"}
    loader.flatten_mapping(node)
    out = LineDict()
    out.line = node.start_mark.line + 1
    out.key_lines = {}
    own: set = set()
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        try:
            hash(key)
        except TypeError:
            raise yaml.constructor.ConstructorError(
                None, None, "mapping key is not hashable", key_node.start_mark) from None
        if id(key_node) in written:
            if key in own:
                raise _DuplicateKey(key, key_node.start_mark.line + 1)
            own.add(key)
        out[key] = loader.construct_object(value_node, deep=True)
        out.key_lines[key] = key_node.start_mark.line + 1
    return out


def _construct_timestamp(loader, node):
    # Keep dates as the text written; validation checks the format.
    value = loader.construct_scalar(node)
    return str(value)


_StrictLoader.add_constructor("tag:yaml.org,2002:map", _construct_mapping)
_StrictLoader.add_constructor("tag:yaml.org,2002:timestamp", _construct_timestamp)


def _yaml_problem(path: str, exc: yaml.YAMLError) -> Problem:
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    line = mark.line + 1 if mark is not None else None
    problem = getattr(exc, "problem", None) or str(exc)
    if "could not determine a constructor for the tag" in str(exc):
        m = re.search(r"tag '([^']+)'", str(exc))
        tag = m.group(1).replace("tag:yaml.org,2002:", "!!") if m else "?"
        return Problem(path, line, None, f"허용되지 않는 YAML 태그 '{tag}'가 있습니다.",
                       "'!'로 시작하는 태그를 지우고 일반 값으로 적으세요")
    ko = _yaml_problem_ko(str(problem))
    return Problem(path, line, None, f"YAML 문법 오류: {ko}",
                   "들여쓰기, 따옴표, ':' 뒤의 공백을 확인하세요 (오류는 표시한 행이나 그 바로 앞 행에 있습니다)")


_YAML_KO = (
    ("did not find expected ',' or ']'", "목록 '[...]'이 닫히지 않았거나 ','가 빠졌습니다"),
    ("did not find expected ',' or '}'", "매핑 '{...}'이 닫히지 않았거나 ','가 빠졌습니다"),
    ("mapping values are not allowed", "여기에는 ':'를 쓸 수 없습니다 — 값 안에 ': '가 있으면 따옴표로 감싸세요"),
    ("tab character", "탭 문자로 들여썼습니다 — 공백으로 들여쓰세요"),
    ("could not find expected ':'", "'키: 값'의 ':'가 없습니다"),
    ("did not find expected key", "키가 와야 할 자리입니다 — 들여쓰기가 어긋났습니다"),
    ("did not find expected '-' indicator", "목록 항목의 '-'가 와야 할 자리입니다 — 들여쓰기가 어긋났습니다"),
    ("did not find expected node content", "값이 와야 할 자리에 값이 없습니다"),
    ("that cannot start any token", "값을 시작할 수 없는 문자가 있습니다 (탭 들여쓰기나 '@', '`' 등 — 공백으로 들여쓰고 값은 따옴표로 감싸세요)"),
    ("found unexpected end of stream", "따옴표나 괄호가 닫히지 않은 채 파일이 끝났습니다"),
    ("found undefined alias", "정의되지 않은 별칭(*이름)을 썼습니다"),
    ("found unknown escape character", "큰따옴표 안에 알 수 없는 '\\' 이스케이프가 있습니다"),
    ("expected <block end>, but found", "들여쓰기가 어긋났습니다 — 같은 수준의 항목은 같은 칸에서 시작해야 합니다"),
    ("block sequence entries are not allowed", "여기에는 목록 항목('- ')을 쓸 수 없습니다 — 들여쓰기를 확인하세요"),
    ("found duplicate anchor", "같은 별칭(&이름)을 두 번 정의했습니다"),
    ("unacceptable character", "YAML에 쓸 수 없는 문자가 있습니다"),
)


def _yaml_problem_ko(problem: str) -> str:
    for en, ko in _YAML_KO:
        if en in problem:
            return ko
    return f"YAML로 읽을 수 없습니다 (파서: {problem})"


def parse_text(text: str, path: str):
    """Parse YAML text strictly; raise DataError naming file and line."""
    try:
        return yaml.load(text, Loader=_StrictLoader)  # noqa: S506 - a safe loader subclass
    except _DuplicateKey as exc:
        raise DataError([Problem(path, exc.line, str(exc.key), f"키 {josa(repr(str(exc.key)), '이/가')} 같은 자리에 두 번 나옵니다.",
                                 "둘 중 하나를 지우거나 합치세요")]) from None
    except yaml.YAMLError as exc:
        raise DataError([_yaml_problem(path, exc)]) from None


def read_yaml(path: Path, display: str | None = None):
    name = display or str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DataError([Problem(name, None, None, "파일이 없습니다.", "경로를 확인하세요")]) from None
    except UnicodeDecodeError:
        raise DataError([Problem(name, None, None, "UTF-8 텍스트가 아닙니다.", "파일을 UTF-8로 저장하세요")]) from None
    except OSError as exc:
        raise DataError([Problem(name, None, None, f"파일을 읽을 수 없습니다 ({exc.strerror}).")]) from None
    return parse_text(text, name)


def read_stdin(display: str = "표준 입력"):
    """Read YAML text from standard input and parse it with the same strict loader.

    At a terminal (nothing piped in) a one-line hint goes to stderr first, so that a
    waiting prompt is not mistaken for a hang."""
    import sys

    stream = sys.stdin
    if stream is None:
        raise DataError([Problem(display, None, None, "표준 입력이 닫혀 있습니다.",
                                 "파일 이름을 주거나 시나리오를 파이프로 넘기세요 (예: cat scene.yaml | flamer simulate -)")])
    try:
        if stream.isatty():
            sys.stderr.write("표준 입력에서 시나리오를 읽습니다 — 다 적었으면 빈 줄에서 Ctrl-D를 누르세요.\n")
            sys.stderr.flush()
    except (AttributeError, ValueError, OSError):
        pass
    try:
        buffer = getattr(stream, "buffer", None)
        data = buffer.read() if buffer is not None else stream.read()
    except OSError as exc:
        raise DataError([Problem(display, None, None, f"표준 입력을 읽을 수 없습니다 ({exc.strerror}).")]) from None
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise DataError([Problem(display, None, None, "UTF-8 텍스트가 아닙니다.",
                                     "시나리오를 UTF-8로 넘기세요")]) from None
    else:
        text = data.lstrip("\ufeff")
    if not text.strip():
        raise DataError([Problem(display, None, None, "비어 있습니다 — 시나리오가 넘어오지 않았습니다.",
                                 "시나리오 YAML을 파이프로 넘기세요 (예: flamer scenario new 전투 | flamer simulate -)")])
    return parse_text(text, display)


def plain(obj):
    """Strip LineDict into plain dicts/lists (for caching)."""
    if isinstance(obj, dict):
        return {k: plain(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [plain(v) for v in obj]
    return obj
