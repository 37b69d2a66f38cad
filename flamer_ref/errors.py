"""Narrow, user-facing exceptions. Every message is Korean and complete; the CLI
prints it on stderr and exits 1 without a traceback."""

from __future__ import annotations


def line_of(obj, key=None) -> int | None:
    """The YAML line of a parsed mapping (or of one of its keys), if known."""
    fn = getattr(obj, "line_of", None)
    if fn is None:
        return None
    return fn(key) if key is not None else getattr(obj, "line", None)


#: How a coded problem and a forbidden play are worded: given by the presentation layer
#: (flamer_ref.render registers its catalogue when it is imported; the edges that print, such as the CLI,
#: import it). This module imports no renderer: a problem carries its code and data until then.
_WORDING: dict = {}


def use_wording(problem, forbidden) -> None:
    """Register the words: `problem(code, params) -> (message, fix)` and `forbidden(error, refs) ->
    (message, why)` (flamer_ref.render.problem_words and forbidden_words)."""
    _WORDING.update(problem=problem, forbidden=forbidden)


def _wording(kind: str):
    try:
        return _WORDING[kind]
    except KeyError:
        raise LookupError("a coded problem is read before its words are known: import flamer_ref.render "
                          "(the presentation layer) first") from None


class FlamerError(Exception):
    """Base for every error the CLI reports to a person. `code` names the kind
    of error in the --json error object (`{"error": {"message", "code"}}`)."""

    code = "error"

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class Problem:
    """One problem found while loading or validating data or a scenario (immutable).

    Either worded at once (`message`, `fix`: sentences, outside the engine) or, as the engine makes
    them, a `code` (kebab-case) with its data `params`: then `message` and `fix` are worded the first
    time they are read, by the presentation layer (`render.problem_words`, registered by use_wording, from the one catalogue
    templates/problems/scenario.txt.j2), so making one renders nothing and reads no file."""

    __slots__ = ("file", "line", "key", "code", "params", "_message", "_fix", "_worded")

    def __init__(self, file: str, line: int | None, key: str | None, message: str | None = None,
                 fix: str | None = None, *, code: str | None = None, params: dict | None = None):
        if (message is None) == (code is None):
            raise TypeError("Problem needs either a message or a code")
        for name, value in (("file", file), ("line", line), ("key", key), ("code", code),
                            ("params", dict(params or {})), ("_message", message), ("_fix", fix),
                            ("_worded", code is None)):
            object.__setattr__(self, name, value)

    def __setattr__(self, name, value):
        raise AttributeError("Problem is immutable")

    def _word(self) -> None:
        if not self._worded:
            message, fix = _wording("problem")(self.code, self.params)
            object.__setattr__(self, "_message", message)
            object.__setattr__(self, "_fix", fix)
            object.__setattr__(self, "_worded", True)

    @property
    def message(self) -> str:
        self._word()
        return self._message

    @property
    def fix(self) -> str | None:
        self._word()
        return self._fix

    def at(self, file: str | None = None, line: int | None = None, key: str | None = None) -> "Problem":
        """The same problem (its code and data, or its words) pointed elsewhere; None keeps a field."""
        file = self.file if file is None else file
        line = self.line if line is None else line
        key = self.key if key is None else key
        if self.code is not None:
            return Problem(file, line, key, code=self.code, params=self.params)
        return Problem(file, line, key, self._message, self._fix)

    def _ident(self):
        return (self.file, self.line, self.key, self.code, tuple(sorted(self.params.items(), key=repr)),
                self._message if self.code is None else None, self._fix if self.code is None else None)

    def __eq__(self, other):
        if not isinstance(other, Problem):
            return NotImplemented
        return self._ident() == other._ident() if (self.code is None) == (other.code is None) else (
            (self.file, self.line, self.key, self.message, self.fix)
            == (other.file, other.line, other.key, other.message, other.fix))

    def __hash__(self):
        return hash((self.file, self.line, self.key, self.code))

    def __reduce__(self):  # pickling and copying rebuild it (slots, immutable): code and data, or words
        if self.code is not None:
            return (_coded_problem, (self.file, self.line, self.key, self.code, self.params))
        return (Problem, (self.file, self.line, self.key, self._message, self._fix))

    def __repr__(self) -> str:
        if self.code is not None:
            return f"Problem({self.file!r}, {self.line!r}, {self.key!r}, code={self.code!r}, params={self.params!r})"
        return f"Problem({self.file!r}, {self.line!r}, {self.key!r}, {self._message!r}, {self._fix!r})"

    def render(self) -> str:
        from .korean import cut_path  # a 40,000-character path given is not said back whole

        where = cut_path(self.file)
        if self.line:
            where += f" {self.line}행"
        key = f" [{self.key}]" if self.key else ""
        fix = f" → 고치는 법: {self.fix}" if self.fix else ""
        return f"{where}{key}: {self.message}{fix}"


def _coded_problem(file, line, key, code, params) -> Problem:
    return Problem(file, line, key, code=code, params=params)


class DataError(FlamerError):
    """The rules or card data (or a scenario file) is broken."""

    code = "data-error"

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        self._text: str | None = None  # worded on first read (a coded Problem words itself then)
        Exception.__init__(self, self.problems)

    @property
    def message(self) -> str:  # type: ignore[override]
        if self._text is None:
            head = f"데이터 오류 {len(self.problems)}건:" if len(self.problems) > 1 else "데이터 오류:"
            self._text = f"{head}\n{render_problems(self.problems)}"
            self.args = (self._text,)
        return self._text

    def __str__(self) -> str:
        return self.message

    def __reduce__(self):
        return (type(self), (self.problems,))


class WorkLimit(DataError):
    """A scenario inside the input limits whose resolution would pass a budget of work (a game record's
    combat rounds or result size, engine/budget.py): stopped with a coded problem saying what to shorten,
    never a partial answer. A DataError (exit 1, its problems) with a code of its own for --json."""

    code = "work-limit"


class FileError(DataError):
    """A file a command was given that cannot be read at all (missing, a folder): said as a person says it,
    what is wrong first and then the file — `파일을 찾을 수 없습니다: nofile.yaml` — not as a data problem.
    Still a DataError (the same `--json` code and problem list)."""

    def __init__(self, name: str, message: str, fix: str | None = None):
        super().__init__([Problem(name, None, None, message, fix)])

    def __reduce__(self):
        p = self.problems[0]
        return (type(self), (p.file, p.message, p.fix))

    @property
    def message(self) -> str:  # type: ignore[override]
        if self._text is None:
            from .korean import cut_path

            p = self.problems[0]
            self._text = f"{p.message.rstrip('.')}: {cut_path(p.file)}" + (f"\n고치는 법: {p.fix}" if p.fix else "")
            self.args = (self._text,)
        return self._text


def unique(problems) -> list[Problem]:
    """The problems without repeats, in their order. Keyed by their words (not by Problem's hash, which
    is the same for every problem of one line: a list of 400 broken ids on one line would make a set
    compare them pairwise)."""
    seen: set = set()
    out = []
    for p in problems:
        ident = (p.file, p.line, p.key, p.message, p.fix)
        if ident not in seen:
            seen.add(ident)
            out.append(p)
    return out


#: how much of a long problem list a person is shown (`flamer validate --json` lists every problem)
SHOWN_PER_FILE = 10
SHOWN_IN_ALL = 40
SAME_PLACES = 5
SHOWN_FILES = 10


def _cut_path(path: str) -> str:
    from .korean import cut_path

    return cut_path(path)


def render_problems(problems) -> str:
    """The problem list for people, bounded: a problem said in the same words at many places (one
    typo in an id that many entries cite) is one line plus where else, with a count ("… 외 N건");
    at most SHOWN_PER_FILE entries per file and SHOWN_IN_ALL in all, the rest counted."""
    groups: dict[tuple, list[Problem]] = {}
    for p in problems:
        groups.setdefault((p.message, p.fix), []).append(p)
    lines: list[str] = []
    per_file: dict[str, int] = {}
    hidden: dict[str, int] = {}  # file -> problems not shown
    shown = 0
    for same in groups.values():
        first = same[0]
        if shown >= SHOWN_IN_ALL or per_file.get(first.file, 0) >= SHOWN_PER_FILE:
            hidden[first.file] = hidden.get(first.file, 0) + len(same)
            continue
        shown += 1
        per_file[first.file] = per_file.get(first.file, 0) + 1
        lines.append("  " + first.render())
        if len(same) > 1:
            places, last_file = [], None
            for q in same[1:SAME_PLACES + 1]:
                where = _cut_path(q.file) if q.file != last_file else ""
                if q.line:
                    where = f"{where} {q.line}행".strip()
                places.append(where or _cut_path(q.file))
                last_file = q.file
            more = len(same) - 1 - len(places)
            tail = f" … 외 {more}건" if more > 0 else ""
            lines.append(f"    같은 문제 {len(same) - 1}건 더: {', '.join(places)}{tail}")
    if hidden:
        files = list(hidden.items())
        for file, n in files[:SHOWN_FILES]:
            lines.append(f"  {_cut_path(file)}: … 외 {n}건")
        if len(files) > SHOWN_FILES:
            rest = files[SHOWN_FILES:]
            lines.append(f"  그 밖의 파일 {len(rest)}개: … 외 {sum(n for _f, n in rest)}건")
        lines.append("  (전체 목록: flamer validate --json)")
    return "\n".join(lines)


def _candidate_lines(candidates: list[tuple[str, str]], shown: list[str] | None) -> str:
    """The candidates as a person reads them: `shown` (one line each, e.g. "3. 전투에 주사위 운이 있나요?"),
    else each candidate's id and title. The --json error keeps ids and titles (`candidates`)."""
    if shown is not None:
        return "\n".join(f"  - {s}" for s in shown)
    return "\n".join(f"  - {cid}  {title}".rstrip() for cid, title in candidates)


class NotFound(FlamerError):
    """An id or name that does not exist; carries the nearest candidates."""

    code = "not-found"

    def __init__(self, message: str, candidates: list[tuple[str, str]] | None = None,
                 shown: list[str] | None = None):
        self.candidates = candidates or []
        if self.candidates:
            message = f"{message}\n비슷한 항목:\n{_candidate_lines(self.candidates, shown)}"
        super().__init__(message)


class Ambiguous(FlamerError):
    """A name that fits several entries equally well: list them, do not guess."""

    code = "ambiguous"

    def __init__(self, message: str, candidates: list[tuple[str, str]], shown: list[str] | None = None):
        self.candidates = candidates
        super().__init__(f"{message}\n후보:\n{_candidate_lines(candidates, shown)}")


class BadInput(FlamerError):
    """A command-line value that is well-formed for the shell but wrong for us."""

    code = "bad-input"


class MissingStats(FlamerError):
    """Stats a one-line fight needs that neither the card database nor the line gives."""

    code = "missing-stats"

    def __init__(self, missing, message: str):
        self.missing = list(missing)
        super().__init__(message)


class Forbidden(FlamerError):
    """A play the rules forbid (not malformed input): answered as a ruling, "불가 — <why>", with the
    clause (and ruling) that forbids it. `reason` is a code, `detail` its data; the Korean text comes
    from templates/simulate/forbidden.txt.j2, keyed by `reason` (its macro `why`: the reason alone).
    `where` is {file, line, key}; `problems` mirrors DataError's for callers that list problems.

    The engine raises it with codes and data only: the words (`message`, `why`, `problems`) are made
    by the template the first time they are read, by the presentation layer (so raising one renders
    nothing and reads no file)."""

    code = "forbidden"

    def __init__(self, reason: str, rule: str, *, ruling: str | None = None, file: str | None = None,
                 line: int | None = None, key: str | None = None, detail: dict | None = None,
                 refs: dict | None = None):
        self.reason = reason
        self.rule = rule
        self.ruling = ruling
        self.where = {"file": file, "line": line, "key": key}
        self.detail = dict(detail or {})
        self._refs = dict(refs or {})
        self._words: tuple[str, str] | None = None  # (message, why), made on first use
        Exception.__init__(self, reason)

    def _worded(self) -> tuple[str, str]:
        if self._words is None:
            self._words = _wording("forbidden")(self, self._refs)
            self.args = (self._words[0],)
        return self._words

    @property
    def message(self) -> str:  # type: ignore[override]
        return self._worded()[0]

    @property
    def why(self) -> str:
        return self._worded()[1]

    @property
    def problems(self) -> list[Problem]:
        w = self.where
        return [Problem(w["file"] or "", w["line"], w["key"], self.why)]

    def __str__(self) -> str:
        return self.message

    def cited(self, refs: dict) -> "Forbidden":
        """The same ruling, its clause and ruling cited from `refs` ({id: {kind, title, number | date,
        label}}, runner.refs): by number and title, a ruling by its date, never by id (the CLI does this
        before printing; the engine knows titles only)."""
        self._refs = {**self._refs, **refs}
        self._words = None
        return self

    def relocated(self, file: str | None, line: int | None, key: str | None) -> "Forbidden":
        """The same ruling pointed elsewhere (e.g. at a command-line option instead of a file line)."""
        self.where = {"file": file, "line": line, "key": key}
        self._words = None
        return self


_OS_REASONS = {
    "ENOENT": "그런 파일이나 폴더가 없습니다", "EACCES": "권한이 없습니다", "EPERM": "권한이 없습니다",
    "EISDIR": "폴더입니다", "ENOTDIR": "경로 중간에 폴더가 아닌 것이 있습니다", "ENOSPC": "디스크에 빈 공간이 없습니다",
    "EROFS": "읽기 전용 파일 시스템입니다", "EEXIST": "이미 있습니다", "ENAMETOOLONG": "이름이 너무 깁니다",
    "EDQUOT": "디스크 사용 한도(쿼터)를 넘었습니다", "EFBIG": "파일 크기 한도를 넘었습니다",
    "EIO": "입출력 오류입니다 (디스크나 장치를 확인하세요)",
    "ELOOP": "심볼릭 링크가 너무 많이 이어지거나, 링크를 따라가지 않는 자리에 링크가 있습니다",
    "EMFILE": "열린 파일이 너무 많습니다", "ENFILE": "시스템에 열린 파일이 너무 많습니다",
    "EBUSY": "다른 프로그램이 쓰고 있습니다", "ETXTBSY": "실행 중인 파일입니다",
    "EXDEV": "다른 파일 시스템으로는 옮길 수 없습니다", "ENOTEMPTY": "폴더가 비어 있지 않습니다",
    "ENXIO": "장치나 주소가 없습니다", "EAGAIN": "지금은 쓸 수 없습니다 (잠시 뒤 다시 하세요)",
    "ECONNREFUSED": "연결을 거부당했습니다", "ECONNRESET": "상대가 연결을 끊었습니다",
    "ETIMEDOUT": "시간 안에 답이 없습니다", "EHOSTUNREACH": "호스트에 닿지 않습니다",
    "ENETUNREACH": "네트워크에 닿지 않습니다", "EADDRINUSE": "이미 쓰는 주소(포트)입니다",
}


def os_reason(exc: OSError) -> str:
    """A file-system error in Korean (never the C library's English strerror)."""
    import errno

    name = errno.errorcode.get(exc.errno or 0, "")
    return _OS_REASONS.get(name, f"운영체제 오류 {name or exc.errno}")


def internal_message(exc: BaseException) -> str:
    """What a person is told of an exception no error path caught (a bug): its kind and, for a
    file-system error, the Korean reason and the file (never the C library's English strerror)."""
    if isinstance(exc, OSError):
        detail = os_reason(exc) + (f": {exc.filename}" if getattr(exc, "filename", None) else "")
    else:
        detail = str(exc)
    return (f"내부 오류가 났습니다 ({type(exc).__name__}: {detail}). "
            "FLAMER_DEBUG=1로 다시 실행하면 자세히 볼 수 있습니다.")
