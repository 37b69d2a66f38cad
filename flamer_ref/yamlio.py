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
        try:
            out[key] = loader.construct_object(value_node, deep=True)
        except _GateRefusal as exc:
            if exc.key is None:
                exc.key = key
            raise
        out.key_lines[key] = key_node.start_mark.line + 1
    return out


def _construct_timestamp(loader, node):
    # Keep dates as the text written; validation checks the format.
    value = loader.construct_scalar(node)
    return str(value)


def _construct_int(loader, node):
    # Refuse an absurd number before int() works on it (a 5,000-digit literal exceeds Python's
    # conversion limit; a merely huge one would make the engine loop for hours).
    text = loader.construct_scalar(node)
    digits = sum(ch.isdigit() for ch in str(text))
    if digits > _INT_DIGITS:
        raise _GateRefusal(node.start_mark.line + 1, "number", len(str(text)))
    value = yaml.constructor.SafeConstructor.construct_yaml_int(loader, node)
    if abs(value) > MAX_INT:
        raise _GateRefusal(node.start_mark.line + 1, "number", len(str(text)))
    return value


_StrictLoader.add_constructor("tag:yaml.org,2002:map", _construct_mapping)
_StrictLoader.add_constructor("tag:yaml.org,2002:timestamp", _construct_timestamp)
_StrictLoader.add_constructor("tag:yaml.org,2002:int", _construct_int)


# ------------------------------------------------------------- the gate ----
# Every YAML file the tool reads (scenarios incl. standard input, data files, boards, effects)
# passes these limits before it is built into objects; docs/SCENARIOS.md and docs/DATA.md state them.
#: the largest scenario file (bytes), also for standard input
SCENARIO_MAX_BYTES = 2 * 1024 * 1024
#: the largest data file (bytes): rules/, cards/, boards, effects
DATA_MAX_BYTES = 8 * 1024 * 1024
#: the deepest nesting of lists and mappings
MAX_DEPTH = 64
#: the most items in one list or mapping
MAX_ITEMS = 10_000
#: the most alias uses (*이름) in one file, and the most nodes they may bring in altogether
MAX_ALIASES = 1_000
MAX_ALIAS_NODES = 10_000
#: the largest integer (in absolute value)
MAX_INT = 10**9
_INT_DIGITS = 40  # digits (incl. leading zeros, '_' excluded) worth converting before the bound check


class _GateRefusal(Exception):
    def __init__(self, line, what, amount=None, key=None):
        self.line = line
        self.what = what
        self.amount = amount
        self.key = key


def _gate_problem(path: str, exc: _GateRefusal) -> Problem:
    key = None if exc.key is None else str(exc.key)
    if exc.what == "depth":
        return Problem(path, exc.line, key, f"목록·매핑이 {MAX_DEPTH}단계보다 깊게 중첩되었습니다.",
                       f"중첩을 {MAX_DEPTH}단계 이하로 줄이세요 (시나리오는 보통 5단계면 충분합니다)")
    if exc.what == "items":
        return Problem(path, exc.line, key, f"한 목록이나 매핑의 항목이 {MAX_ITEMS:,}개를 넘습니다.",
                       f"항목을 {MAX_ITEMS:,}개 이하로 줄이거나 파일을 나누세요")
    if exc.what == "aliases":
        return Problem(path, exc.line, key,
                       f"별칭(*이름)이 너무 많거나 너무 많이 펼쳐집니다 (별칭 {MAX_ALIASES:,}번, "
                       f"펼친 항목 {MAX_ALIAS_NODES:,}개까지).",
                       "별칭(&이름/*이름) 대신 값을 직접 적으세요")
    if exc.what == "number":
        return Problem(path, exc.line, key, f"수가 너무 큽니다 ({exc.amount}자리; 절댓값 {MAX_INT:,} 이하만 받습니다).",
                       f"{MAX_INT:,} 이하의 수를 적으세요 (글자로 쓰려면 따옴표로 감싸세요)")
    raise AssertionError(exc.what)  # pragma: no cover


def _gate_events(text: str) -> None:
    """Walk the parser's events once (C parser: fast, no recursion) and refuse nesting, collection
    sizes and alias expansion beyond the limits before anything is composed or constructed."""
    from yaml import events as ev

    stack: list[list] = []  # [is_mapping, items, current key, anchor, alias_nodes_at_start]
    sizes: dict = {}  # anchor → number of nodes it stands for (aliases expanded)
    alias_uses = 0
    alias_nodes = 0
    nodes = 0

    def child(line, scalar_value=None, is_scalar=False):
        if not stack:
            return
        top = stack[-1]
        top[1] += 1
        if top[0]:
            if top[1] % 2 == 1:  # a key
                top[2] = scalar_value if is_scalar else None
            if top[1] > 2 * MAX_ITEMS:
                raise _GateRefusal(line, "items", key=top[2])
        elif top[1] > MAX_ITEMS:
            raise _GateRefusal(line, "items", key=_outer_key())

    def _outer_key():
        for frame in reversed(stack):
            if frame[0] and frame[2] is not None:
                return frame[2]
        return None

    for event in yaml.parse(text, Loader=_Base):
        cls = type(event)
        if cls is ev.ScalarEvent:
            line = event.start_mark.line + 1
            child(line, event.value, True)
            nodes += 1
            if event.anchor is not None:
                sizes[event.anchor] = 1
        elif cls is ev.MappingStartEvent or cls is ev.SequenceStartEvent:
            line = event.start_mark.line + 1
            child(line)
            nodes += 1
            if len(stack) >= MAX_DEPTH:
                raise _GateRefusal(line, "depth", key=_outer_key())
            stack.append([cls is ev.MappingStartEvent, 0, None, event.anchor, nodes])
        elif cls is ev.MappingEndEvent or cls is ev.SequenceEndEvent:
            frame = stack.pop()
            if frame[3] is not None:
                sizes[frame[3]] = nodes - frame[4] + 1
        elif cls is ev.AliasEvent:
            line = event.start_mark.line + 1
            child(line)
            size = sizes.get(event.anchor, 1)
            alias_uses += 1
            alias_nodes += size
            nodes += size
            if alias_uses > MAX_ALIASES or alias_nodes > MAX_ALIAS_NODES:
                raise _GateRefusal(line, "aliases", key=_outer_key())


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


def parse_text(text: str, path: str, max_bytes: int = DATA_MAX_BYTES):
    """Parse YAML text strictly through the input gate; raise DataError naming file and line."""
    if len(text) > max_bytes:
        raise DataError([_too_big(path, len(text.encode("utf-8", "surrogatepass")), max_bytes)])
    try:
        _gate_events(text)
        return yaml.load(text, Loader=_StrictLoader)  # noqa: S506 - a safe loader subclass
    except _GateRefusal as exc:
        raise DataError([_gate_problem(path, exc)]) from None
    except RecursionError:  # pragma: no cover - the depth limit comes first
        raise DataError([_gate_problem(path, _GateRefusal(None, "depth"))]) from None
    except _DuplicateKey as exc:
        raise DataError([Problem(path, exc.line, str(exc.key), f"키 {josa(repr(str(exc.key)), '이/가')} 같은 자리에 두 번 나옵니다.",
                                 "둘 중 하나를 지우거나 합치세요")]) from None
    except yaml.YAMLError as exc:
        raise DataError([_yaml_problem(path, exc)]) from None


def _mb(n: int) -> str:
    return f"{n / (1024 * 1024):.1f} MB" if n >= 1024 * 1024 else f"{n:,} 바이트"


def _too_big(name: str, size: int | None, limit: int) -> Problem:
    shown = f"{_mb(size)}, " if size is not None else ""
    return Problem(name, None, None, f"파일이 너무 큽니다 ({shown}한도 {_mb(limit)}).",
                   f"{_mb(limit)} 이하로 줄이거나 여러 파일로 나누세요")


def _not_regular(name: str, mode: int) -> Problem:
    import stat

    if stat.S_ISDIR(mode):
        return Problem(name, None, None, "파일이 아니라 디렉터리입니다.", "디렉터리 안의 YAML 파일 경로를 주세요")
    what = ("FIFO(이름 있는 파이프)" if stat.S_ISFIFO(mode) else
            "장치 파일" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else
            "소켓" if stat.S_ISSOCK(mode) else "특수 파일")
    return Problem(name, None, None, f"일반 파일이 아니라 {what}입니다 — 읽지 않습니다.",
                   "일반 YAML 파일의 경로를 주거나, 파이프로 넘길 때는 '-'(표준 입력)를 쓰세요")


def read_yaml(path: Path, display: str | None = None, max_bytes: int = DATA_MAX_BYTES):
    """Read one YAML file through the input gate: regular files only (checked before opening, so a
    FIFO or device never blocks), at most `max_bytes`, then the parse limits of `parse_text`."""
    import os
    import stat

    name = display or str(path)
    try:
        st = os.stat(path)
        if not stat.S_ISREG(st.st_mode):
            raise DataError([_not_regular(name, st.st_mode)])
        if st.st_size > max_bytes:
            raise DataError([_too_big(name, st.st_size, max_bytes)])
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
        try:
            st = os.fstat(fd)  # the file may have been swapped since the stat above
            if not stat.S_ISREG(st.st_mode):
                raise DataError([_not_regular(name, st.st_mode)])
            with os.fdopen(fd, "rb") as fh:
                fd = -1
                data = fh.read(max_bytes + 1)
        finally:
            if fd >= 0:
                os.close(fd)
        if len(data) > max_bytes:
            raise DataError([_too_big(name, None, max_bytes)])
        text = data.decode("utf-8")
    except FileNotFoundError:
        raise DataError([Problem(name, None, None, "파일이 없습니다.", "경로를 확인하세요")]) from None
    except UnicodeDecodeError:
        raise DataError([Problem(name, None, None, "UTF-8 텍스트가 아닙니다.", "파일을 UTF-8로 저장하세요")]) from None
    except OSError as exc:
        raise DataError([Problem(name, None, None, f"파일을 읽을 수 없습니다 ({exc.strerror}).")]) from None
    return parse_text(text, name, max_bytes)


def read_scenario(path: Path, display: str | None = None):
    """A scenario file: the gate with the scenario size limit."""
    return read_yaml(path, display, SCENARIO_MAX_BYTES)


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
        data = (buffer.read(SCENARIO_MAX_BYTES + 1) if buffer is not None
                else stream.read(SCENARIO_MAX_BYTES + 1))
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
    if len(data) > SCENARIO_MAX_BYTES:
        raise DataError([Problem(display, None, None, f"입력이 너무 큽니다 (한도 {_mb(SCENARIO_MAX_BYTES)}).",
                                 f"시나리오를 {_mb(SCENARIO_MAX_BYTES)} 이하로 줄이세요")])
    if not text.strip():
        raise DataError([Problem(display, None, None, "비어 있습니다 — 시나리오가 넘어오지 않았습니다.",
                                 "시나리오 YAML을 파이프로 넘기세요 (예: flamer scenario new 전투 | flamer simulate -)")])
    return parse_text(text, display, SCENARIO_MAX_BYTES)


def plain(obj):
    """Strip LineDict into plain dicts/lists (for caching)."""
    if isinstance(obj, dict):
        return {k: plain(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [plain(v) for v in obj]
    return obj
