"""Obtaining the calculator's Pyodide for `flamer site DIR` (flamer_ref/sitepack.py packs it into the site):
the pinned files of its npm package, each checked, from a path given, the user cache or the npm registry.

Where the build gets Pyodide, first that works (obtain_pyodide):
  1. `--pyodide PATH`: a folder holding the npm package's files (node_modules/pyodide, or the tarball
     unpacked: PATH/package/…), or the npm tarball (.tgz) itself;
  2. the environment variable FLAMER_PYODIDE (the same; `off` builds without the engine);
  3. the user cache: paths.cache_dir()/pyodide-<version>/;
  4. the npm registry (`npm_config_registry`, default https://registry.npmjs.org/): the tarball,
     checked against the pinned sha512 integrity, only the needed files read out of it (never a link,
     never a path of its own making), then kept in the cache.
Every file taken is checked against its pinned SHA-256 (PYODIDE_FILES), whatever the source. A source
named (1, 2) that does not hold the pinned files is an error; when the cache and the registry fail
too, the site is built without the engine (EngineUnavailable, said in one Korean line).

Heavy modules (tarfile, urllib, hashlib) are imported inside the functions that need them: only a build
with the engine loads them. `python -m flamer_ref.pyodidefetch --fetch` fills the cache (CI does it once).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from .errors import BadInput, FlamerError, os_reason


PYODIDE_VERSION = "314.0.8"
#: the npm registry's dist.integrity of pyodide-<PYODIDE_VERSION>.tgz
PYODIDE_INTEGRITY = "sha512-74Wq1kXOC+CCEzAfxuRAO701nAcCMLjf8NrwvWpu8S41dVMXwXmLQ05dYB+F4e46AdnGo0oq7YHSVUpHsoarLQ=="
#: the files of the npm package the site needs → (size, SHA-256), taken from that verified tarball
PYODIDE_FILES = {
    "pyodide.mjs": (17758, "1bb8cc14f9405aaa7cd4e00c12edd0a8539de9cc026618d6ee5a9663f367dc70"),
    "pyodide.asm.mjs": (1250259, "22514b8be6980e28a02c8b1d6387ce8dfe666fc4edf8d547cff5dce29ff4d972"),
    "pyodide.asm.wasm": (9597892, "e14d49ceca9b4a0e274ea918f3a898de2d3880b6e5573a6cfe1a2267ecc70329"),
    "python_stdlib.zip": (2545550, "2bd3394a145bfbbe5bbc9d9d6ab9136abbb986c6fef6c142b3a2962227aa5c28"),
    "pyodide-lock.json": (119077, "5dc2fc119108bc148c7457dc86e7675b5c87e1cafd420b9c34c1eaef7b36c010"),
}
DEFAULT_REGISTRY = "https://registry.npmjs.org/"
#: the largest tarball read (the pinned one is 6.5 MB)
TARBALL_MAX_BYTES = 64 * 1024 * 1024
#: seconds each read from the registry may wait
DOWNLOAD_TIMEOUT = 60
#: seconds the whole download may take (6.5 MB: at least some 22 KB/s); then the site is built without
#: the engine and the message says to give the file (--pyodide) or try again
DOWNLOAD_DEADLINE = 300
#: the values of FLAMER_PYODIDE (and of FLAMER_NODE, for the bytecode) that turn that part off
OFF_WORDS = ("off", "none", "no", "0", "false")


class EngineUnavailable(FlamerError):
    """No source gave the pinned Pyodide files: the site is built without the engine."""

    code = "engine-unavailable"


class _Refused(Exception):
    """A source that is not the pinned Pyodide (the Korean reason in args[0])."""


def sha256_hex(data: bytes) -> str:
    import hashlib

    return hashlib.sha256(data).hexdigest()


def check_files(files: dict[str, bytes]) -> None:
    """Raise _Refused unless files are exactly the pinned Pyodide files (size and SHA-256)."""
    for name, (size, digest) in PYODIDE_FILES.items():
        data = files.get(name)
        if data is None:
            raise _Refused(f"파일이 없습니다: {name}")
        if len(data) != size or sha256_hex(data) != digest:
            raise _Refused(f"Pyodide {PYODIDE_VERSION}의 파일과 내용이 다릅니다: {name}")


def _read_regular(path: Path, limit: int) -> bytes:
    """A regular file's bytes (never through a symbolic link at its name, never a FIFO or device)."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
                 | getattr(os, "O_BINARY", 0))
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise _Refused(f"{path.name}: 일반 파일이 아닙니다")
        if st.st_size > limit:
            raise _Refused(f"{path.name}: 파일이 너무 큽니다")
        with os.fdopen(fd, "rb", closefd=False) as fh:
            return fh.read(limit + 1)
    finally:
        os.close(fd)


def _from_folder(folder: Path) -> dict[str, bytes]:
    """The pinned files from a folder holding the npm package (itself, its package/ or
    node_modules/pyodide/)."""
    for cand in (folder, folder / "package", folder / "node_modules" / "pyodide"):
        if (cand / "pyodide.asm.wasm").is_file():
            folder = cand
            break
    files = {}
    for name in PYODIDE_FILES:
        try:
            files[name] = _read_regular(folder / name, TARBALL_MAX_BYTES)
        except FileNotFoundError:
            raise _Refused(f"파일이 없습니다: {name}") from None
        except OSError as exc:
            raise _Refused(f"{name}: {os_reason(exc)}") from None
    check_files(files)
    return files


def check_integrity(data: bytes, integrity: str = PYODIDE_INTEGRITY, what: str = "내려받은 파일") -> None:
    """Raise _Refused unless data has the npm integrity given (sha512-<base64>); `what` names the data
    in the reason (내려받은 파일, or the .tgz the user gave)."""
    import base64
    import hashlib

    algo, _, want = integrity.partition("-")
    got = base64.b64encode(hashlib.new(algo, data).digest()).decode("ascii")
    if got != want:
        raise _Refused(f"{what}의 무결성({algo})이 npm의 pyodide@{PYODIDE_VERSION} 압축 파일에 고정된 값과 다릅니다")


def files_from_tarball(data: bytes) -> dict[str, bytes]:
    """The needed files (PYODIDE_FILES) read out of an npm tarball's bytes, in memory: nothing is
    extracted to disk. A tarball with a member that is not a plain file or folder (a link, a device), or
    whose name is absolute or climbs out (..), is refused whole, as is one that lacks a needed file or
    holds it twice."""
    import io
    import tarfile

    found: dict[str, bytes] = {}
    try:
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:*") as tar:
            for m in tar:
                name = m.name.replace("\\", "/")
                parts = name.split("/")
                if name.startswith("/") or ".." in parts or (len(name) > 1 and name[1] == ":"):
                    raise _Refused(f"압축 파일에 폴더 밖을 가리키는 이름이 있습니다: {m.name[:80]}")
                if not (m.isreg() or m.isdir()):
                    raise _Refused(f"압축 파일에 일반 파일이 아닌 것(링크 등)이 있습니다: {m.name[:80]}")
                if m.isdir() or len(parts) != 2 or parts[0] != "package" or parts[1] not in PYODIDE_FILES:
                    continue
                if parts[1] in found:
                    raise _Refused(f"압축 파일에 같은 파일이 두 번 있습니다: {parts[1]}")
                if m.size > TARBALL_MAX_BYTES:
                    raise _Refused(f"{parts[1]}: 파일이 너무 큽니다")
                fh = tar.extractfile(m)
                found[parts[1]] = fh.read() if fh is not None else b""
    except (tarfile.TarError, EOFError, OSError, ValueError) as exc:
        if isinstance(exc, _Refused):
            raise
        raise _Refused("npm 패키지 압축 파일(.tgz)로 읽을 수 없습니다") from None
    check_files(found)
    return found


def _from_tarball_file(path: Path) -> dict[str, bytes]:
    try:
        data = _read_regular(path, TARBALL_MAX_BYTES)
    except FileNotFoundError:
        raise _Refused("파일이 없습니다") from None
    except OSError as exc:
        raise _Refused(os_reason(exc)) from None
    if len(data) > TARBALL_MAX_BYTES:
        raise _Refused("파일이 너무 큽니다")
    check_integrity(data, what="이 .tgz 파일")
    return files_from_tarball(data)


def from_path(text: str, option: str) -> dict[str, bytes]:
    """Files from a source the user named (--pyodide, FLAMER_PYODIDE): BadInput when it is not the
    pinned Pyodide."""
    from .korean import cut_path

    path = Path(os.path.expanduser(text))
    try:
        if path.is_dir():
            return _from_folder(path)
        if path.exists():
            return _from_tarball_file(path)
        raise _Refused("그런 파일이나 폴더가 없습니다")
    except _Refused as exc:
        raise BadInput(f"{option} {cut_path(text)}: Pyodide {PYODIDE_VERSION}을 읽을 수 없습니다 ({exc.args[0]}). npm 패키지 "
                       f"pyodide@{PYODIDE_VERSION}의 파일이 든 폴더나 그 .tgz를 주세요 (예: npm pack pyodide@{PYODIDE_VERSION}).") from None
    except OSError as exc:
        raise BadInput(f"{option} {cut_path(text)}: 읽을 수 없습니다 ({os_reason(exc)}).") from None


def cache_folder() -> Path | None:
    from .paths import cache_dir

    base = cache_dir()
    return base / f"pyodide-{PYODIDE_VERSION}" if base is not None else None


def _from_cache() -> dict[str, bytes] | None:
    folder = cache_folder()
    if folder is None:
        return None
    try:
        if not stat.S_ISDIR(os.lstat(folder).st_mode):  # a link there is not followed
            return None
        return _from_folder_exact(folder)
    except (OSError, _Refused):
        return None


def _from_folder_exact(folder: Path) -> dict[str, bytes]:
    files = {name: _read_regular(folder / name, TARBALL_MAX_BYTES) for name in PYODIDE_FILES}
    check_files(files)
    return files


def store_in_cache(files: dict[str, bytes]) -> bool:
    """Keep the files in the user cache (write_atomic: never through a link). False when not kept."""
    from .outfile import write_atomic

    folder = cache_folder()
    if folder is None:
        return False
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.mkdir(folder)
        except FileExistsError:
            pass
        if not stat.S_ISDIR(os.lstat(folder).st_mode) or not stat.S_ISDIR(os.lstat(folder.parent).st_mode):
            return False
        for name, data in sorted(files.items()):
            write_atomic(folder / name, data)
        return True
    except OSError:
        return False


def registry_url() -> str:
    base = os.environ.get("npm_config_registry") or os.environ.get("NPM_CONFIG_REGISTRY") or DEFAULT_REGISTRY
    return base.rstrip("/") + f"/pyodide/-/pyodide-{PYODIDE_VERSION}.tgz"


def download(url: str | None = None) -> dict[str, bytes]:
    """The pinned tarball from the npm registry, checked (integrity) and read (files_from_tarball).
    Raises _Refused with the Korean reason. The whole download (name lookup, connection, headers,
    body) has DOWNLOAD_DEADLINE seconds, not only each read its DOWNLOAD_TIMEOUT: a registry that
    sends a byte now and then would otherwise keep `flamer site` waiting for ever. It runs in a
    thread of its own, given up (told to stop at its next read) when the deadline passes."""
    import threading
    import urllib.error
    import urllib.request

    url = url or registry_url()
    if not url.startswith(("https://", "http://")):
        raise _Refused(f"npm 레지스트리 주소가 http(s)가 아닙니다: {url[:80]}")
    req = urllib.request.Request(url, headers={"User-Agent": "flamer_ref (flamer site)", "Accept": "application/octet-stream"})
    deadline = DOWNLOAD_DEADLINE
    stop = threading.Event()
    got: dict = {}

    def fetch() -> None:
        try:
            got["data"] = _fetch(req, min(DOWNLOAD_TIMEOUT, deadline), stop)
        except BaseException as exc:  # noqa: BLE001 - handed to the caller's thread, said there
            got["error"] = exc

    worker = threading.Thread(target=fetch, name="flamer-download", daemon=True)
    worker.start()
    worker.join(deadline)
    if worker.is_alive():
        stop.set()  # the thread ends at its next read; nothing waits for it
        raise _Refused(f"npm 레지스트리에서 내려받는 데 너무 오래 걸려 {_seconds(deadline)} 만에 그만두었습니다")
    exc = got.get("error")
    if isinstance(exc, urllib.error.HTTPError):
        raise _Refused(f"npm 레지스트리가 HTTP {exc.code}로 답했습니다")
    if isinstance(exc, (urllib.error.URLError, OSError, ValueError)):
        reason = getattr(exc, "reason", exc)
        why = os_reason(reason) if isinstance(reason, OSError) and reason.errno else "네트워크에 닿지 않음"
        raise _Refused(f"npm 레지스트리에서 내려받지 못했습니다 ({why})")
    if exc is not None:
        raise exc
    data = got["data"]
    if len(data) > TARBALL_MAX_BYTES:
        raise _Refused("내려받은 파일이 너무 큽니다")
    check_integrity(data, what="내려받은 파일")
    return files_from_tarball(data)


def _fetch(req, timeout: float, stop) -> bytes:
    """The body of req, read a piece at a time (each read at most `timeout` seconds; read1: one receive,
    not a wait for a full buffer), at most TARBALL_MAX_BYTES + 1 bytes; stops when `stop` is set."""
    import urllib.request

    parts, size = [], 0
    with urllib.request.urlopen(req, timeout=timeout) as res:  # noqa: S310 - http(s) only, checked by download
        while size <= TARBALL_MAX_BYTES and not stop.is_set():
            chunk = res.read1(min(1 << 16, TARBALL_MAX_BYTES + 1 - size))
            if not chunk:
                break
            parts.append(chunk)
            size += len(chunk)
    if stop.is_set():
        raise TimeoutError("download given up")
    return b"".join(parts)


def _seconds(n: float) -> str:
    """A duration as a person says it: 300 → 5분, 90 → 90초, 1.5 → 1.5초."""
    if n >= 120 and n % 60 == 0:
        return f"{int(n // 60)}분"
    return f"{n:g}초"


def engine_off(option: str | None = None) -> bool:
    """Is the engine turned off by FLAMER_PYODIDE=off (and no --pyodide given)?"""
    env = os.environ.get("FLAMER_PYODIDE")
    return option is None and env is not None and env.strip().lower() in OFF_WORDS


def obtain_pyodide(option: str | None = None, *, network: bool = True) -> tuple[dict[str, bytes], str]:
    """The pinned Pyodide files and where they came from ("option", "env", "cache", "download").
    BadInput for a named source that is wrong; EngineUnavailable when nothing gave them."""
    if option is not None:
        return from_path(option, "--pyodide"), "option"
    env = os.environ.get("FLAMER_PYODIDE")
    if env and env.strip().lower() not in OFF_WORDS:
        return from_path(env, "FLAMER_PYODIDE"), "env"
    files = _from_cache()
    if files is not None:
        return files, "cache"
    why = "네트워크를 쓰지 않음"
    if network:
        try:
            files = download()
        except _Refused as exc:
            why = exc.args[0]
        else:
            store_in_cache(files)
            return files, "download"
    raise EngineUnavailable(why)


if __name__ == "__main__":  # `python -m flamer_ref.pyodidefetch --fetch`: fill the cache (CI prefetch), quietly
    import sys

    if sys.argv[1:] != ["--fetch"]:
        sys.exit(2)
    try:
        obtain_pyodide()
    except FlamerError:
        sys.exit(1)
