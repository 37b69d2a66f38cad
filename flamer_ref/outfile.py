"""Writing a file the user named (-o FILE, --save FILE): one check and one error wording for all.

The target must be missing (in a folder that exists) or an ordinary file. Anything else is
refused before a byte is written, in Korean: a folder, a device, a FIFO, a socket, and a
symbolic link (never followed, never replaced). OS errors are said in Korean (errors.os_reason).

Every file is written whole or not at all (write_atomic): the bytes go to a temp file made
exclusively beside the target (never through a link) and are renamed over it, so a write that fails
part-way (disk full, quota, file-size limit) leaves the file that was there as it was, and the message
says so. One way for what the user names (-o, --save: write_text), for the folders the tool owns (the
cache, a `flamer site` folder) and for the rule-number record.
"""

from __future__ import annotations

import errno
import os
import stat

from .errors import BadInput, os_reason


def _refuse(option: str, path: str, what: str, reason: str) -> BadInput:
    from .korean import cut_path

    return BadInput(f"{option} {cut_path(path)}: {what}을 쓸 수 없습니다 ({reason}).")


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


def _failed(option: str, path: str, what: str, exc: OSError, existed: bool) -> BadInput:
    """A write that started and did not finish: what went wrong, and that nothing was lost."""
    from .korean import cut_path, josa

    kept = "원래 파일은 그대로입니다" if existed else "파일을 만들지 않았습니다"
    return BadInput(f"{option} {cut_path(path)}: {josa(what, '을/를')} 쓰지 못했습니다 ({os_reason(exc)}). {kept}.")


def write_text(path, text: str, option: str = "-o", what: str = "파일") -> None:
    """Write text (UTF-8) to path after check_target, as a whole or not at all: the bytes go to a temp
    file beside it (write_atomic's, made exclusively, never through a link), flushed to the disk, then
    renamed over path. A write that fails part-way (disk full, quota, file-size limit) leaves the file
    that was there whole and says so. The new file keeps the old one's permission bits (and, where the
    system allows, its owner); a file we may not write is refused, as writing into it would be. Never
    follows a symbolic link, never opens a FIFO or device (the target is checked again just before the
    rename: it may have changed meanwhile)."""
    target = check_target(path, option, what)
    data = text.encode("utf-8")
    try:
        old = os.lstat(target)
    except FileNotFoundError:
        old = None
    except OSError as exc:
        raise _refuse(option, target, what, os_reason(exc)) from None
    if old is not None and not os.access(target, os.W_OK):
        raise _refuse(option, target, what, os_reason(PermissionError(errno.EACCES, "read-only")))
    try:
        write_atomic(target, data, like=old, durable=True, check=lambda: check_target(target, option, what))
    except OSError as exc:
        raise _failed(option, target, what, exc, old is not None) from None


#: how many fresh names write_atomic tries when each is taken (by a file or a link planted there)
_TEMP_TRIES = 32
#: the longest file name (bytes) most file systems take: a temp name is cut to fit it
NAME_MAX = 255


def _temp_name(folder: str, name: str) -> str:
    """`.<name>.<pid>.<random>.tmp` in folder, the name cut (at a byte, never past NAME_MAX) so that a
    target whose own name is near the limit still gets a temp name that fits."""
    tail = f".{os.getpid()}.{os.urandom(6).hex()}.tmp"
    raw = os.fsencode(name)
    keep = NAME_MAX - 1 - len(tail)
    if len(raw) > keep:
        name = os.fsdecode(raw[:keep])
    return os.path.join(folder, f".{name}{tail}")


def write_atomic(path, data: bytes, *, like: os.stat_result | None = None, durable: bool = False,
                 check=None) -> None:
    """Replace the file at `path` with `data` atomically, never following a link (the cache files, the
    `flamer site` pages and list, the rule-number record, -o and --save through write_text). The bytes go
    to a temp file created exclusively in path's own folder (O_CREAT|O_EXCL|O_NOFOLLOW, named
    `.<name>.<pid>.<random>.tmp`, _temp_name): a file or a symbolic link planted at that name is never
    opened, another name is tried. os.replace then puts the temp file at path, replacing a link there
    rather than writing through it, so the result is always a regular file, and a write that fails
    leaves the file that was at path untouched.

    like: the stat of the file being replaced, whose permission bits (and owner, where allowed) the new
    one takes; durable: fsync the bytes before the rename; check: called just before the rename (it
    raises to stop). Raises OSError (the temp file removed). No tempfile module: it imports random,
    too slow for the cold search path that writes the cache."""
    path = os.fspath(path)
    folder, name = os.path.split(path)
    flags = (os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
             | getattr(os, "O_CLOEXEC", 0))
    for _ in range(_TEMP_TRIES):
        tmp = _temp_name(folder, name)
        try:
            fd = os.open(tmp, flags, 0o666)
            break
        except FileExistsError:
            continue
    else:
        raise FileExistsError(errno.EEXIST, "no free temporary file name", folder or ".")
    try:
        try:
            if like is not None:
                _take_mode(fd, like)
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            if durable:
                os.fsync(fd)
        finally:
            os.close(fd)
        if check is not None:
            check()
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)  # the name this call created (unlink removes a name; it follows nothing)
        except OSError:
            pass
        raise


def _take_mode(fd: int, like: os.stat_result) -> None:
    """The replaced file's owner (best effort: only a privileged user may give a file away) and
    permission bits (rwx for owner, group and others; never set-user-id and the like), on the temp file."""
    if hasattr(os, "fchown") and (like.st_uid, like.st_gid) != (os.geteuid(), os.getegid()):
        try:
            os.fchown(fd, like.st_uid, like.st_gid)
        except OSError:
            pass
    if hasattr(os, "fchmod"):
        os.fchmod(fd, like.st_mode & 0o777)
