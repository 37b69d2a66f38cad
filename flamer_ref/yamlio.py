"""Strict YAML reading: safe types only, duplicate keys rejected, and the line
of every mapping and key remembered so that errors can name them."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from .errors import DataError, FileError, Problem, os_reason
from .korean import josa
from .yamltext import LINE_BREAKS, comment_header, comment_text, needs_quotes  # noqa: F401 - writers use them here


class _PureBase(yaml.SafeLoader):
    """PyYAML's pure-Python loader with libyaml's rule for tabs between tokens (yaml_parser_scan_to_
    next_token: a tab separates tokens inside [ ] and { }, and after a token on a line) and its limit on
    nesting (MAX_NESTING_LEVEL: flow collections and block indentation together). Where there is no
    libyaml (the site's engine in the browser; some installs) a file reads as on the command line."""

    #: libyaml's MAX_NESTING_LEVEL (libyaml 0.2.6, in PyYAML's wheels): the scanner refuses to nest deeper,
    #: and as its look-ahead for a simple key runs up to 1,024 characters ahead of the parser, a deep
    #: '[[[[…' on one line is refused there before the input gate (MAX_DEPTH) sees its 65th level
    _MAX_NESTING = 1000

    def _nesting_refused(self, context: str) -> None:
        mark = self.get_mark()
        raise yaml.scanner.ScannerError(context, mark, "exceeded maximum nesting depth", mark)

    def fetch_flow_collection_start(self, TokenClass):
        # PyYAML's, with libyaml's check (yaml_parser_increase_flow_level: STACK_LIMIT(indents,
        # MAX_NESTING_LEVEL - flow_level)) between saving the simple key and entering the level
        self.save_possible_simple_key()
        if len(self.indents) >= self._MAX_NESTING - self.flow_level:
            self._nesting_refused("while increasing flow level")
        self.flow_level += 1
        self.allow_simple_key = True
        start_mark = self.get_mark()
        self.forward()
        end_mark = self.get_mark()
        self.tokens.append(TokenClass(start_mark, end_mark))

    def add_indent(self, column):
        # libyaml's yaml_parser_roll_indent: the indentation pushed, then the same limit
        if self.indent < column:
            self.indents.append(self.indent)
            if len(self.indents) >= self._MAX_NESTING - self.flow_level:
                self._nesting_refused("while increasing block level")
            self.indent = column
            return True
        return False

    def scan_to_next_token(self):
        if self.index == 0 and self.peek() == "\ufeff":
            self.forward()
        found = False
        while not found:
            while self.peek() == " " or (self.peek() == "\t" and (self.flow_level or not self.allow_simple_key)):
                self.forward()
            if self.peek() == "#":
                while self.peek() not in "\0\r\n\x85\u2028\u2029":
                    self.forward()
            if self.scan_line_break():
                if not self.flow_level:
                    self.allow_simple_key = True
            else:
                found = True


try:  # the C parser is several times faster than the pure-Python one
    from yaml import CSafeLoader as _Base
except ImportError:  # no libyaml (the site's engine in the browser; some installs)
    _Base = _PureBase  # type: ignore[assignment,misc]


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
#: the largest data file (bytes): rules/, cards/, boards, effects; and the most all the data files of
#: a tree (rules/, cards/) may hold together. Issue 20: the first command after a data change parses,
#: validates and indexes the whole tree, and the first search also learns the likeness model: a 6 MB
#: file took 30–65 s, a 2 MB tree still 5–11 s here, 1.5 MB about 5 s with the other core busy
#: (benchmarks/data_cold.py; the bundled tree is 0.6 MB)
DATA_MAX_BYTES = 3 * 512 * 1024
DATA_TREE_MAX_BYTES = 3 * 512 * 1024
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


class _Fallback(Exception):
    """Something the one-pass reader leaves to the full loader (which then answers as it always has)."""


_FAST_TAGS = ("tag:yaml.org,2002:str", "tag:yaml.org,2002:null", "tag:yaml.org,2002:bool",
              "tag:yaml.org,2002:int", "tag:yaml.org,2002:float", "tag:yaml.org,2002:timestamp")


def _plain_scalar(value: str, mark, ctor):
    """A plain (unquoted) scalar as _StrictLoader makes it: the tag its implicit resolvers give, then
    that tag's constructor (ints through the same bound check); any other tag → _Fallback."""
    table = _StrictLoader.yaml_implicit_resolvers
    tag = "tag:yaml.org,2002:str"
    for t, regexp in table.get(value[0] if value else "", []) + table.get(None, []):
        if regexp.match(value):
            tag = t
            break
    if tag == "tag:yaml.org,2002:str" or tag == "tag:yaml.org,2002:timestamp":
        return value  # a date stays the text written (_construct_timestamp)
    if tag == "tag:yaml.org,2002:null":
        return None
    if tag == "tag:yaml.org,2002:bool":
        return yaml.constructor.SafeConstructor.bool_values[value.lower()]
    node = yaml.nodes.ScalarNode(tag, value, mark, mark)
    if tag == "tag:yaml.org,2002:int":
        return _construct_int(ctor, node)
    if tag == "tag:yaml.org,2002:float":
        return yaml.constructor.SafeConstructor.construct_yaml_float(ctor, node)
    raise _Fallback  # merge '<<', value '=' …


def _read_fast(text: str):
    """The document of `text` in one walk of the C parser's events, built as `yaml.load(text,
    Loader=_StrictLoader)` builds it (LineDict with lines, the same scalars) while the gate's limits
    are counted: the common case read once instead of three times (gate events, parse + compose
    again, construct node by node). Anything else — an anchor, alias or tag, a merge key, a
    collection as a key, a repeated key, two documents, a limit or a number refused, a syntax error —
    raises _Fallback, and the full gate and loader read the text as before (same value, same error)."""
    from yaml import events as ev

    scalar_ev, map_ev, seq_ev = ev.ScalarEvent, ev.MappingStartEvent, ev.SequenceStartEvent
    end_evs = (ev.MappingEndEvent, ev.SequenceEndEvent)
    ctor = yaml.constructor.SafeConstructor()
    plain: dict = {}  # plain scalar text → its value (the same text always resolves the same way)
    # frames: [container, is_mapping, items, pending key, its line, keys written]
    stack: list[list] = []
    root = None
    documents = 0
    for event in yaml.parse(text, Loader=_Base):
        cls = type(event)
        if cls is scalar_ev:
            if event.anchor is not None or event.tag is not None:
                raise _Fallback
            if event.implicit[0]:
                raw = event.value
                value = plain.get(raw, plain)
                if value is plain:
                    value = plain[raw] = _plain_scalar(raw, event.start_mark, ctor)
            else:
                value = event.value
            container = None
        elif cls is map_ev or cls is seq_ev:
            if event.anchor is not None or event.tag is not None or len(stack) >= MAX_DEPTH:
                raise _Fallback
            if cls is map_ev:
                value = LineDict()
                value.line = event.start_mark.line + 1
                value.key_lines = {}
            else:
                value = []
            container = [value, cls is map_ev, 0, None, None, set()]
        elif cls in end_evs:
            stack.pop()
            continue
        elif cls is ev.DocumentStartEvent:
            documents += 1
            if documents > 1:
                raise _Fallback
            continue
        elif cls is ev.AliasEvent:
            raise _Fallback
        else:  # stream start / end, document end
            continue
        if not stack:
            root = value
        else:
            top = stack[-1]
            top[2] += 1
            if top[1]:
                if top[2] % 2:  # a key
                    if container is not None or top[2] > 2 * MAX_ITEMS or value in top[5]:
                        raise _Fallback  # unhashable, too many items, written twice
                    top[5].add(value)
                    top[3] = value
                    top[4] = event.start_mark.line + 1
                else:
                    key = top[3]
                    top[0][key] = value
                    top[0].key_lines[key] = top[4]
            else:
                if top[2] > MAX_ITEMS:
                    raise _Fallback
                top[0].append(value)
        if container is not None:
            stack.append(container)
    return root


def _yaml_problem(path: str, exc: yaml.YAMLError) -> Problem:
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    line = mark.line + 1 if mark is not None else None
    problem = getattr(exc, "problem", None) or str(exc)
    if "could not determine a constructor for the tag" in str(exc):
        m = re.search(r"tag '([^']+)'", str(exc))
        tag = m.group(1).replace("tag:yaml.org,2002:", "!!") if m else "?"
        return Problem(path, line, None, f"허용되지 않는 YAML 태그 '{tag}'가 있습니다.",
                       "'!'로 시작하는 태그를 지우고 일반 값으로 적으세요")
    ko = _yaml_problem_ko(str(problem), str(getattr(exc, "context", None) or ""))
    return Problem(path, line, None, f"YAML 문법 오류: {ko}",
                   "들여쓰기, 따옴표, ':' 뒤의 공백을 확인하세요 (오류는 표시한 행이나 그 바로 앞 행에 있습니다)")


# Each problem in the words of libyaml (the C parser the command line uses) and of PyYAML's pure-Python
# parser (the one the site's engine runs in the browser, where there is no libyaml): the same mistake
# reads the same in Korean whichever parser found it (the calculator answers as the command line does).
_BLOCK_END = "expected <block end>, but found"
_YAML_KO = (
    ("did not find expected ',' or ']'", "목록 '[...]'이 닫히지 않았거나 ','가 빠졌습니다"),
    ("expected ',' or ']', but got", "목록 '[...]'이 닫히지 않았거나 ','가 빠졌습니다"),
    ("did not find expected ',' or '}'", "매핑 '{...}'이 닫히지 않았거나 ','가 빠졌습니다"),
    ("expected ',' or '}', but got", "매핑 '{...}'이 닫히지 않았거나 ','가 빠졌습니다"),
    ("mapping values are not allowed", "여기에는 ':'를 쓸 수 없습니다 — 값 안에 ': '가 있으면 따옴표로 감싸세요"),
    ("tab character", "탭 문자로 들여썼습니다 — 공백으로 들여쓰세요"),
    ("could not find expected ':'", "'키: 값'의 ':'가 없습니다"),
    ("did not find expected key", "키가 와야 할 자리입니다 — 들여쓰기가 어긋났습니다"),
    ("did not find expected '-' indicator", "목록 항목의 '-'가 와야 할 자리입니다 — 들여쓰기가 어긋났습니다"),
    ("did not find expected node content", "값이 와야 할 자리에 값이 없습니다"),
    ("expected the node content, but found", "값이 와야 할 자리에 값이 없습니다"),
    ("did not find expected <document start>", "문서가 끝난 뒤에 내용이 더 있습니다 — 들여쓰기를 확인하세요"),
    ("expected '<document start>', but found", "문서가 끝난 뒤에 내용이 더 있습니다 — 들여쓰기를 확인하세요"),
    ("did not find expected comment or line break", "값 뒤에 줄바꿈이나 주석(#)이 와야 합니다 — 값에 특수 문자가 있으면 따옴표로 감싸세요"),
    ("expected a comment or a line break, but found", "값 뒤에 줄바꿈이나 주석(#)이 와야 합니다 — 값에 특수 문자가 있으면 따옴표로 감싸세요"),
    ("did not find expected alphabetic or numeric character", "별칭·앵커(&이름, *이름)나 지시문의 이름에 쓸 수 없는 문자가 있습니다"),
    ("expected alphabetic or numeric character, but found", "별칭·앵커(&이름, *이름)나 지시문의 이름에 쓸 수 없는 문자가 있습니다"),
    ("found duplicate %YAML directive", "%YAML 지시문이 두 번 있습니다"),
    ("found duplicate YAML directive", "%YAML 지시문이 두 번 있습니다"),
    ("that cannot start any token", "값을 시작할 수 없는 문자가 있습니다 (탭 들여쓰기나 '@', '`' 등 — 공백으로 들여쓰고 값은 따옴표로 감싸세요)"),
    ("found unexpected end of stream", "따옴표나 괄호가 닫히지 않은 채 파일이 끝났습니다"),
    ("found undefined alias", "정의되지 않은 별칭(*이름)을 썼습니다"),
    ("found unknown escape character", "큰따옴표 안에 알 수 없는 '\\' 이스케이프가 있습니다"),
    ("expected <block end>, but found", "들여쓰기가 어긋났습니다 — 같은 수준의 항목은 같은 칸에서 시작해야 합니다"),
    ("block sequence entries are not allowed", "여기에는 목록 항목('- ')을 쓸 수 없습니다 — 들여쓰기를 확인하세요"),
    ("sequence entries are not allowed here", "여기에는 목록 항목('- ')을 쓸 수 없습니다 — 들여쓰기를 확인하세요"),
    ("found duplicate anchor", "같은 별칭(&이름)을 두 번 정의했습니다"),
    ("second occurrence", "같은 별칭(&이름)을 두 번 정의했습니다"),  # (both parsers: "found duplicate anchor" is the context)
    ("unacceptable character", "YAML에 쓸 수 없는 문자가 있습니다"),
    ("exceeded maximum nesting depth", f"목록·매핑이 너무 깊게 중첩되었습니다 ({MAX_DEPTH}단계까지 받습니다)"),
)


def _yaml_problem_ko(problem: str, context: str = "") -> str:
    if _BLOCK_END in problem:  # PyYAML's words for what libyaml says by the block it was in
        if "block mapping" in context:
            problem = "did not find expected key"
        elif "block collection" in context:
            problem = "did not find expected '-' indicator"
    for en, ko in _YAML_KO:
        if en in problem:
            return ko
    return f"YAML로 읽을 수 없습니다 (파서: {problem})"


#: the documents this process parsed, by their text (the last PARSED_KEPT_CHARS characters' worth): a process
#: that reads the same text again — a data tree and a copy of it, `validate` reading what the loader read, a
#: scenario typed again in the calculator — parses it once. A document is mutable, so each reader gets a copy
#: of its own (about a tenth of a parse); keyed by the whole text, it can only answer for that text.
_PARSED: dict[str, object] = {}
PARSED_KEPT_CHARS = 8 * 1024 * 1024
_IMMUTABLE = (str, int, float, bool, type(None))


def _copy_doc(obj, seen: dict):
    """A copy of a parsed document: its mappings (LineDict, with their lines) and lists new, shared parts
    (YAML aliases) still shared; None when it holds a value of another type (then it is not kept)."""
    kind = type(obj)
    if kind in _IMMUTABLE:
        return obj
    done = seen.get(id(obj))
    if done is not None:
        return done
    if kind is LineDict:
        out = seen[id(obj)] = LineDict()
        for k, v in obj.items():
            if type(k) not in _IMMUTABLE:
                return None
            c = _copy_doc(v, seen)
            if c is None and v is not None:
                return None
            out[k] = c
        out.__dict__.update(obj.__dict__)
        if "key_lines" in obj.__dict__:
            out.key_lines = dict(obj.key_lines)
        return out
    if kind is list:
        out = seen[id(obj)] = []
        for v in obj:
            c = _copy_doc(v, seen)
            if c is None and v is not None:
                return None
            out.append(c)
        return out
    return None


def parse_text(text: str, path: str, max_bytes: int = DATA_MAX_BYTES):
    """Parse YAML text strictly through the input gate; raise DataError naming file and line. The same text
    parsed again in this process is a copy of the first parse's document (_PARSED)."""
    if len(text) > max_bytes:
        raise DataError([_too_big(path, len(text.encode("utf-8", "surrogatepass")), max_bytes)])
    kept = _PARSED.get(text)
    if kept is not None:
        return _copy_doc(kept, {})
    doc = _parse(text, path)
    if doc is not None and len(text) <= PARSED_KEPT_CHARS:
        copy = _copy_doc(doc, {})
        if copy is not None:
            while _PARSED and sum(map(len, _PARSED)) + len(text) > PARSED_KEPT_CHARS:
                del _PARSED[next(iter(_PARSED))]
            _PARSED[text] = doc
            return copy
    return doc


def _parse(text: str, path: str):
    try:
        try:
            return _read_fast(text)
        except Exception:  # noqa: BLE001 - whatever it is, the full reader below answers it as always
            pass
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


def tree_too_big(name: str, size: int, limit: int = DATA_TREE_MAX_BYTES) -> Problem:
    """The problem of a data tree whose files hold more than `limit` bytes together."""
    return Problem(name, None, None, f"데이터 파일이 모두 합쳐 너무 큽니다 ({_mb(size)}, 한도 {_mb(limit)}).",
                   f"rules/와 cards/의 YAML을 합쳐 {_mb(limit)} 이하로 줄이세요")


def _not_regular(name: str, mode: int) -> Problem:
    import stat

    if stat.S_ISDIR(mode):
        return Problem(name, None, None, "파일이 아니라 폴더입니다.", "폴더 안의 YAML 파일 경로를 주세요")
    what = ("FIFO(이름 있는 파이프)" if stat.S_ISFIFO(mode) else
            "장치 파일" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else
            "소켓" if stat.S_ISSOCK(mode) else "특수 파일")
    return Problem(name, None, None, f"일반 파일이 아니라 {what}입니다 — 읽지 않습니다.",
                   "일반 YAML 파일의 경로를 주거나, 파이프로 넘길 때는 '-'(표준 입력)를 쓰세요")


def read_bytes(path: Path, display: str | None = None, max_bytes: int = DATA_MAX_BYTES) -> bytes:
    """The bytes of one file through the input gate: regular files only (checked before opening, so a
    FIFO or device never blocks), at most `max_bytes`. Every failure is a DataError naming the file,
    its reason in Korean (errors.os_reason)."""
    import os
    import stat

    name = display or str(path)
    try:
        st = os.stat(path)
        if stat.S_ISDIR(st.st_mode):
            raise FileError(name, "파일이 아니라 폴더입니다", "폴더 안의 YAML 파일 경로를 주세요")
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
    except FileNotFoundError:
        raise FileError(name, "파일을 찾을 수 없습니다") from None
    except OSError as exc:
        raise DataError([unreadable(name, exc)]) from None
    if len(data) > max_bytes:
        raise DataError([_too_big(name, None, max_bytes)])
    return data


def unreadable(name: str, exc: OSError, folder: bool = False) -> Problem:
    """A file (or folder) the system would not let us read, said in Korean."""
    if folder:
        return Problem(name, None, None, f"폴더를 읽을 수 없습니다 ({os_reason(exc)}).",
                       "폴더와 그 안의 파일을 읽을 수 있게 권한을 고치세요 (예: chmod -R u+rX)")
    return Problem(name, None, None, f"파일을 읽을 수 없습니다 ({os_reason(exc)}).",
                   "파일과 그 폴더를 읽을 수 있게 권한을 고치세요")


def read_yaml(path: Path, display: str | None = None, max_bytes: int = DATA_MAX_BYTES):
    """Read one YAML file through the input gate (read_bytes), then the parse limits of `parse_text`."""
    name = display or str(path)
    data = read_bytes(path, name, max_bytes)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise DataError([Problem(name, None, None, "UTF-8 텍스트가 아닙니다.", "파일을 UTF-8로 저장하세요")]) from None
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
        raise DataError([Problem(display, None, None, f"표준 입력을 읽을 수 없습니다 ({os_reason(exc)}).")]) from None
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


# ------------------------------------------------------------- writing ----
# Scenario files this tool writes (`fight --save`, `example --scenario`) are built as data and
# serialised here; the header's comment text goes through yamltext (comment_text, comment_header).


class SafeDumper(yaml.SafeDumper):
    """yaml.SafeDumper whose strings with a line break other than a plain `\\n` (or any character YAML
    cannot carry raw) are written double-quoted, so every string reads back unchanged."""


def _represent_str(dumper, data):
    if needs_quotes(data):
        return dumper.represent_scalar("tag:yaml.org,2002:str", data, style='"')
    return yaml.SafeDumper.represent_str(dumper, data)


SafeDumper.add_representer(str, _represent_str)


def dump(obj, dumper=SafeDumper, **options) -> str:
    """`obj` as YAML text (UTF-8 characters as they are, keys in order), through a SafeDumper."""
    return yaml.dump(obj, Dumper=dumper, allow_unicode=True, sort_keys=False, **options)
