"""Narrow, user-facing exceptions. Every message is Korean and complete; the CLI
prints it on stderr and exits 1 without a traceback."""

from __future__ import annotations

from dataclasses import dataclass


def line_of(obj, key=None) -> int | None:
    """The YAML line of a parsed mapping (or of one of its keys), if known."""
    fn = getattr(obj, "line_of", None)
    if fn is None:
        return None
    return fn(key) if key is not None else getattr(obj, "line", None)


class FlamerError(Exception):
    """Base for every error the CLI reports to a person. `code` names the kind
    of error in the --json error object (`{"error": {"message", "code"}}`)."""

    code = "error"

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class Problem:
    """One problem found while loading or validating data or a scenario."""

    file: str
    line: int | None
    key: str | None
    message: str
    fix: str | None = None

    def render(self) -> str:
        where = self.file
        if self.line:
            where += f" {self.line}행"
        key = f" [{self.key}]" if self.key else ""
        fix = f" → 고치는 법: {self.fix}" if self.fix else ""
        return f"{where}{key}: {self.message}{fix}"


class DataError(FlamerError):
    """The rules or card data (or a scenario file) is broken."""

    code = "data-error"

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        head = f"데이터 오류 {len(self.problems)}건:" if len(self.problems) > 1 else "데이터 오류:"
        body = "\n".join("  " + p.render() for p in self.problems)
        super().__init__(f"{head}\n{body}")


class NotFound(FlamerError):
    """An id or name that does not exist; carries the nearest candidates."""

    code = "not-found"

    def __init__(self, message: str, candidates: list[tuple[str, str]] | None = None):
        self.candidates = candidates or []
        if self.candidates:
            lines = "\n".join(f"  - {cid}  {title}".rstrip() for cid, title in self.candidates)
            message = f"{message}\n비슷한 항목:\n{lines}"
        super().__init__(message)


class Ambiguous(FlamerError):
    """A name that fits several entries equally well: list them, do not guess."""

    code = "ambiguous"

    def __init__(self, message: str, candidates: list[tuple[str, str]]):
        self.candidates = candidates
        lines = "\n".join(f"  - {cid}  {title}".rstrip() for cid, title in candidates)
        super().__init__(f"{message}\n후보:\n{lines}")


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
    from templates/simulate/forbidden.txt.j2. `where` is {file, line, key}; `problems` mirrors
    DataError's for callers that list problems."""

    code = "forbidden"

    def __init__(self, reason: str, rule: str, *, ruling: str | None = None, file: str | None = None,
                 line: int | None = None, key: str | None = None, detail: dict | None = None,
                 refs: dict | None = None):
        self.reason = reason
        self.rule = rule
        self.ruling = ruling
        self.where = {"file": file, "line": line, "key": key}
        self.detail = dict(detail or {})
        from .render import environment

        tpl = environment().get_template("simulate/forbidden.txt.j2")
        module = tpl.make_module(vars={"e": self, "refs": dict(refs or {})})
        self.why = " ".join(str(module.why(self)).split())
        message = str(module).strip()
        self.problems = [Problem(file or "", line, key, self.why)]
        super().__init__(message)
