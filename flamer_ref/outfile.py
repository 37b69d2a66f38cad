"""Writing a file the user named (-o FILE, --save FILE): one check and one error wording for all.

The target must be missing (in a folder that exists) or an ordinary file. Anything else is
refused before a byte is written, in Korean: a folder, a device, a FIFO, a socket, and a
symbolic link (never followed, never replaced). OS errors are said in Korean (errors.os_reason).
"""

from __future__ import annotations

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
