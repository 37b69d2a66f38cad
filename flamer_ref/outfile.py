"""Writing a file the user named (-o FILE, --save FILE): one check and one error wording for all.

The target must be missing (in a folder that exists) or an ordinary file. Anything else is
refused before a byte is written, in Korean: a folder, a device, a FIFO, a socket, and a
symbolic link (never followed, never replaced). OS errors are said in Korean (errors.os_reason).

Writing a file into a folder the tool owns (the cache, a `flamer site` folder): write_atomic, one
way for both, through a temp file made exclusively there and never through a link.
"""

from __future__ import annotations

import errno
import os
import stat

from .errors import BadInput, os_reason


def _refuse(option: str, path: str, what: str, reason: str) -> BadInput:
    return BadInput(f"{option} {path}: {what}을 쓸 수 없습니다 ({reason}).")


def check_target(path, option: str = "-o", what: str = "파일") -> str:
    """Raise BadInput unless `path` may be written as a file: missing in an existing folder, or a
    regular file (not a symbolic link). Returns the path as a string."""
    text = os.fspath(path)
    if not text:
        raise BadInput(f"{option}: 빈 경로입니다. 쓸 파일 이름을 주세요.")
    try:
        st = os.lstat(text)
    except FileNotFoundError:
        parent = os.path.dirname(text) or "."
        try:
            pst = os.stat(parent)
        except FileNotFoundError:
            raise _refuse(option, text, what, "폴더가 없습니다") from None
        except OSError as exc:
            raise _refuse(option, text, what, os_reason(exc)) from None
        if not stat.S_ISDIR(pst.st_mode):
            raise _refuse(option, text, what, "경로 중간에 폴더가 아닌 것이 있습니다") from None
        return text
    except OSError as exc:
        raise _refuse(option, text, what, os_reason(exc)) from None
    mode = st.st_mode
    if stat.S_ISLNK(mode):
        raise _refuse(option, text, what, "심볼릭 링크입니다. 링크를 따라가 덮어쓰지 않으니 가리키는 파일의 경로를 직접 주세요")
    if stat.S_ISDIR(mode):
        raise _refuse(option, text, what, "폴더입니다")
    if not stat.S_ISREG(mode):
        raise _refuse(option, text, what, "일반 파일이 아니라 장치, FIFO 또는 소켓입니다")
    return text


def write_text(path, text: str, option: str = "-o", what: str = "파일") -> None:
    """Write text (UTF-8) to path after check_target; never follows a symbolic link, never
    blocks on a FIFO put there in the meantime."""
    target = check_target(path, option, what)
    flags = os.O_WRONLY | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(target, flags, 0o666)
    except OSError as exc:
        raise _refuse(option, target, what, os_reason(exc)) from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise _refuse(option, target, what, "일반 파일이 아니라 장치, FIFO 또는 소켓입니다")
        os.ftruncate(fd, 0)
        with os.fdopen(fd, "w", encoding="utf-8", closefd=False) as fh:
            fh.write(text)
    except OSError as exc:
        raise _refuse(option, target, what, os_reason(exc)) from None
    finally:
        os.close(fd)


#: how many fresh names write_atomic tries when each is taken (by a file or a link planted there)
_TEMP_TRIES = 32


def write_atomic(path, data: bytes) -> None:
    """Replace the file at `path` with `data` atomically, never following a link (the cache files and
    the `flamer site` pages and list). The bytes go to a temp file created exclusively in path's own
    folder (O_CREAT|O_EXCL|O_NOFOLLOW, named `.<name>.<pid>.<random>.tmp`): a file or a symbolic link
    planted at that name is never opened, another name is tried. os.replace then puts the temp file at
    path, replacing a link there rather than writing through it, so the result is always a regular file.
    Raises OSError (the temp file removed). No tempfile module: it imports random, too slow for the
    cold search path that writes the cache."""
    path = os.fspath(path)
    folder, name = os.path.split(path)
    flags = (os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
             | getattr(os, "O_CLOEXEC", 0))
    for _ in range(_TEMP_TRIES):
        tmp = os.path.join(folder, f".{name}.{os.getpid()}.{os.urandom(6).hex()}.tmp")
        try:
            fd = os.open(tmp, flags, 0o666)
            break
        except FileExistsError:
            continue
    else:
        raise FileExistsError(errno.EEXIST, "no free temporary file name", folder or ".")
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)  # the name this call created (unlink removes a name; it follows nothing)
        except OSError:
            pass
        raise
