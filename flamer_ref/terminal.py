"""The CLI's standard streams, safe for people and for odd terminals.

- setup(json_mode): run once at startup by the `flamer` entry point. Standard
  output and error that cannot encode Korean (LC_ALL=C with an ASCII stream,
  PYTHONIOENCODING=ascii or latin-1) switch to UTF-8; nothing is ever written
  with errors='strict'. Both streams are wrapped so that every write is
  cleaned (flamer_ref/cleantext.py: clean, or json_clean under --json), and a
  closed, broken or full standard output ends the command with one Korean line
  on stderr and exit 1 (finish() covers the flush at exit).

Stdlib only, imported on every run: keep it light.
"""

from __future__ import annotations

import errno
import os
import sys

from .cleantext import clean, json_clean


# ------------------------------------------------------------------ streams ----
_MESSAGES = {
    errno.EPIPE: "출력을 받는 쪽(파이프)이 먼저 닫혀서 결과를 끝까지 쓰지 못했습니다.",
    errno.ENOSPC: "표준 출력에 쓸 공간이 없어서(디스크가 가득 참) 결과를 쓰지 못했습니다.",
    errno.EBADF: "표준 출력이 닫혀 있어서 결과를 쓰지 못했습니다.",
}

_failed = False


def _message(exc: BaseException | None) -> str:
    code = getattr(exc, "errno", None)
    if code in _MESSAGES:
        return _MESSAGES[code]
    if exc is None:
        return _MESSAGES[errno.EBADF]
    if isinstance(exc, OSError) and exc.errno:
        from .errors import os_reason  # (light: errors imports nothing at load)

        detail = os_reason(exc)
    else:
        detail = type(exc).__name__
    return f"표준 출력에 결과를 쓰지 못했습니다 ({detail})."


def _silence_stdout() -> None:
    """Point standard output's file descriptor at /dev/null so that nothing
    buffered fails again at exit (the Python docs' advice for SIGPIPE)."""
    stream = getattr(sys.stdout, "_stream", sys.stdout)
    try:
        target = stream.fileno() if stream is not None else None
    except (OSError, ValueError, AttributeError):
        target = None
    if target is None:
        return  # stdout was closed from the start: fd 1 may now be one of our own files
    try:
        fd = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(fd, target)
        finally:
            os.close(fd)
    except OSError:
        pass


def reset() -> None:
    """Standard output sound again, for the next command run in the same process (the browser's engine:
    flamer_ref/web.py), whatever became of the last one's."""
    global _failed
    _failed = False


def output_failed(exc: BaseException | None) -> None:
    """Standard output is closed, broken or full: one line on stderr, then exit 1 (once). A reader that
    closed the pipe (`flamer book | head -1`) gets the same one line (the pipe closed before the answer
    was written whole), never a success message and never exit 0: nothing may claim the output whole."""
    global _failed
    if not _failed:
        _failed = True
        _silence_stdout()
        try:
            sys.stderr.write(_message(exc) + "\n")
            sys.stderr.flush()
        except Exception:  # noqa: BLE001 - stderr broken too: nothing more to say
            pass
    raise SystemExit(1)


class _Guarded:
    """A text (or binary) stream whose writes are transformed, and whose
    failures end the command cleanly (standard output) or are dropped (stderr)."""

    def __init__(self, stream, transform=None, *, is_stdout: bool):
        self._stream = stream
        self._transform = transform
        self._is_stdout = is_stdout

    def _fail(self, exc: BaseException | None) -> None:
        if self._is_stdout:
            output_failed(exc)
        # a broken stderr: nothing to report to; drop the text

    def write(self, text):
        if self._is_stdout and _failed:
            return len(text)
        if self._transform is not None and isinstance(text, str):
            text = self._transform(text)
        if self._stream is None:
            self._fail(None)
            return len(text)
        try:
            return self._stream.write(text)
        except OSError as exc:
            self._fail(exc)
            return len(text)

    def writelines(self, lines) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        if self._stream is None or (self._is_stdout and _failed):
            return
        try:
            self._stream.flush()
        except OSError as exc:
            self._fail(exc)

    @property
    def buffer(self):
        raw = getattr(self._stream, "buffer", None)
        if raw is None:
            raise AttributeError("buffer")
        return _Guarded(raw, None, is_stdout=self._is_stdout)

    def isatty(self) -> bool:
        try:
            return bool(self._stream is not None and self._stream.isatty())
        except (OSError, ValueError):
            return False

    def fileno(self) -> int:
        if self._stream is None:
            raise OSError(errno.EBADF, "standard stream is closed")
        return self._stream.fileno()

    def __getattr__(self, name):
        if self._stream is None:
            raise AttributeError(name)
        return getattr(self._stream, name)


def _can_encode_korean(stream) -> bool:
    enc = getattr(stream, "encoding", None)
    if not enc:
        return False
    try:
        "한글 ␛".encode(enc)
        return True
    except (LookupError, UnicodeError):
        return False


def _reconfigure(stream) -> None:
    """UTF-8 when the stream cannot encode Korean; never errors='strict'."""
    if stream is None or not hasattr(stream, "reconfigure"):
        return
    try:
        if _can_encode_korean(stream):
            stream.reconfigure(errors="backslashreplace")
        else:
            stream.reconfigure(encoding="utf-8", errors="backslashreplace")
    except Exception:  # noqa: BLE001 - a stream we cannot change: keep it, writes are still guarded
        pass


def setup(json_mode: bool = False) -> None:
    """Make standard output and error safe for this run (see the module docstring)."""
    if isinstance(sys.stdout, _Guarded):
        return
    _reconfigure(sys.stdout)
    _reconfigure(sys.stderr)
    sys.stdout = _Guarded(sys.stdout, json_clean if json_mode else clean, is_stdout=True)
    sys.stderr = _Guarded(sys.stderr, clean, is_stdout=False)


def finish() -> None:
    """Flush standard output before the interpreter does, so that a full or
    broken output is reported (one line, exit 1) instead of Python's
    'Exception ignored' message."""
    if _failed:
        raise SystemExit(1)
    out = sys.stdout
    if out is None:
        return
    try:
        out.flush()
    except OSError as exc:
        output_failed(exc)
