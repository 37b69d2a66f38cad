"""A data tree's cache files (issue 20): the key they are named by, the frame around each, reading and
writing them safely, telling our files from others in the cache folder; and the process's memo of what was
loaded. The corpus (flamer_ref/corpus.py) caches itself here; the search's room (flamer_ref/searchindex.py)
caches the index and the likeness model beside it, under the same key.

A cache file: magic, format, kind, length and checksum of the payload, then the payload (marshal). The key
is a digest of the data files' paths and bytes, of the code that shapes the cache and of the versions
involved: a cache answers only for the very data and code it was made from.
"""

from __future__ import annotations

import marshal
import os
import re
import sys
import zlib
from pathlib import Path

from . import __version__

#: the format of every cache file (and of the prebuilt data): a file of another format is not read
CACHE_FORMAT = 7
KEY_BYTES = 32  # the cache key: 64 hex digits

#: what this process loaded, by (what, data root, key): the corpus, the search index, the likeness model
MEMO: dict[tuple, object] = {}


#: the last keys this process computed, by the data files' identity (see _settled_stats): a process that
#: loads again and again (the calculator's worker, the test suite) reads and hashes unchanged files once
_SIGNED: dict[tuple, str] = {}
#: a file changed less than this long ago may change again within the same tick of the file system's clock
#: without its change time moving ("racy" files, as git calls them): its key is not remembered
SETTLED_NS = 2_000_000_000


def _settled_stats(files: list[Path]) -> tuple | None:
    """Each file's device, inode, size, modification and change time — or None when one cannot be read
    or changed too recently to be trusted. Any write, rename over, or utime moves a file's change time
    (ctime), which no tool sets back; so while these agree, the bytes are the ones hashed before."""
    import time

    limit = time.time_ns() - SETTLED_NS
    out = []
    for p in files:
        try:
            st = os.stat(p)
        except OSError:
            return None
        if st.st_ctime_ns > limit or st.st_mtime_ns > limit:
            return None
        out.append((st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns))
    return tuple(out)


def signature(root: Path, files: list[Path]) -> str:
    """The cache key: a cryptographic digest (BLAKE2b, 256 bits) of every data file's path and
    bytes (not its size or modification time, which archive extraction and sync tools restore), of
    the code that shapes the cache, and of the versions involved. A checksum would not do: an edit
    can be made to keep crc32 and adler32 both (issue 20), and the cache would answer from old data.
    Within one process, a key is remembered for files whose identity and change time are unchanged and
    settled (_settled_stats): the bytes are read and hashed again only when a file may have changed."""
    stats = _settled_stats(files)
    memo_key = (str(root), tuple(map(str, files)), stats, code_stamp()) if stats is not None else None
    if memo_key is not None and memo_key in _SIGNED:
        return _SIGNED[memo_key]
    key = _digest(root, files)
    if memo_key is not None:
        if len(_SIGNED) >= 64:
            _SIGNED.clear()
        _SIGNED[memo_key] = key
    return key


def digest_of(parts) -> str:
    """A BLAKE2b digest (KEY_BYTES) of byte strings, each fed with its length first: no two different
    sequences of parts feed the same bytes. The key of every cache file (this module's, templatecache's)."""
    try:
        from _blake2 import blake2b  # ~0.5 ms to import; hashlib pulls in OpenSSL (~4 ms)
    except ImportError:  # pragma: no cover - a Python built without the _blake2 module
        from hashlib import blake2b
    digest = blake2b(digest_size=KEY_BYTES)
    for part in parts:
        digest.update(len(part).to_bytes(8, "little"))
        digest.update(part)
    return digest.hexdigest()


def _digest(root: Path, files: list[Path]) -> str:
    return digest_of(_key_parts(root, files))


def _key_parts(root: Path, files: list[Path]):
    yield f"{CACHE_FORMAT}|{__version__}|{sys.version_info[:2]}|{root.resolve()}".encode()
    for p in files:
        yield p.relative_to(root).as_posix().encode("utf-8", "surrogateescape")
        try:
            data = p.read_bytes()
        except OSError:
            data = None  # parse() reports it; the key just has to differ
        yield b"\x00unreadable" if data is None else b"\x01" + data
    # the cache's content depends on the code that builds it: parse() reaches numbering, constants,
    # the engine's effect parser and its cards and primitives …, so every module of the package counts
    yield code_stamp()


_CODE_STAMP: list[bytes] = []


def code_stamp(*, fresh: bool = False) -> bytes:
    """Every module of the package, by path, size and modification time: the code part of the cache key.
    Read once per process (the code a process runs is the code it imported; a stat of some 80 files,
    globbed and sorted, cost more than hashing the data itself in a process that loads many times, as
    the calculator's worker and the test suite do); `fresh` reads it again."""
    if _CODE_STAMP and not fresh:
        return _CODE_STAMP[0]
    here = Path(__file__).parent
    parts = []
    for path in sorted([*here.glob("*.py"), *here.glob("engine/*.py"), *here.glob("engine/*/*.py")]):
        st = path.stat()
        parts.append(f"{path.relative_to(here).as_posix()}|{st.st_size}|{st.st_mtime_ns}")
    stamp = "\n".join(parts).encode()
    _CODE_STAMP[:] = [stamp]
    return stamp


# A cache file: magic, format, kind, length and checksum of the payload, then the marshal payload.
MAGIC = b"FLMRC"
HEAD = len(MAGIC) + 1 + 1 + 8 + 4
MAX_CACHE_BYTES = 256 * 1024 * 1024


def frame(kind: bytes, payload: bytes) -> bytes:
    return (MAGIC + bytes([CACHE_FORMAT]) + kind + len(payload).to_bytes(8, "little")
            + zlib.crc32(payload).to_bytes(4, "little") + payload)


def read_cache(path: Path | None, kind: bytes = b"C"):
    """The object stored in a cache file, or None when there is none or it cannot be
    trusted (not a regular file, wrong header, length or checksum, unreadable)."""
    if path is None:
        return None
    import stat as _stat

    try:
        # O_NONBLOCK: a FIFO with no writer must not hang the open; fstat then refuses it
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except (OSError, ValueError):
        return None
    try:
        st = os.fstat(fd)
        if not _stat.S_ISREG(st.st_mode) or not HEAD <= st.st_size <= MAX_CACHE_BYTES:
            return None
        with os.fdopen(fd, "rb") as fh:
            fd = -1
            blob = fh.read(st.st_size + 1)
    except (OSError, ValueError, MemoryError):
        return None
    finally:
        if fd >= 0:
            os.close(fd)
    return unframe(blob, kind)


def unframe(blob: bytes, kind: bytes):
    """The object framed by frame in blob, or None when the header, length or checksum is wrong."""
    if len(blob) < HEAD:
        return None
    if blob[:len(MAGIC)] != MAGIC or blob[len(MAGIC)] != CACHE_FORMAT or blob[len(MAGIC) + 1:len(MAGIC) + 2] != kind:
        return None
    at = len(MAGIC) + 2
    size = int.from_bytes(blob[at:at + 8], "little")
    crc = int.from_bytes(blob[at + 8:at + 12], "little")
    payload = memoryview(blob)[HEAD:]
    if len(payload) != size or zlib.crc32(payload) != crc:
        return None
    try:
        return marshal.loads(payload)
    except (EOFError, ValueError, TypeError):
        return None


def write_cache(path: Path, kind: bytes, obj) -> bool:
    """Write one cache file atomically (outfile.write_atomic: a temp file made exclusively in the
    cache folder, never through a link, then os.replace); never raise, never leave the temp file."""
    from .outfile import write_atomic

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, frame(kind, marshal.dumps(obj)))
        return True
    except (OSError, ValueError):
        # a read-only home or a full disk is fine: we just parse every time
        return False


#: the names of the files this tool writes into the cache folder: the key (64 hex digits; 16 before
#: issue 20) and one of its suffixes, each with the kind its frame carries (a compiled template's: see
#: flamer_ref/templatecache.py)
CACHE_KINDS = {"corpus": b"C", "index": b"I", "pairs": b"P", "similar": b"S", "template": b"T"}
CACHE_NAME = re.compile(r"([0-9a-f]{64}|[0-9a-f]{16})\.(corpus|index|pairs|similar|template)")


def own_cache_file(folder: Path, name: str) -> bool:
    """Is folder/name a cache file this tool wrote? Its name has the key's pattern and one of our
    suffixes, it is a regular file (not a link, a folder or a device; the link is not followed) and it
    starts with our frame header (magic, then the kind that suffix holds; any format number)."""
    import stat as _stat

    m = CACHE_NAME.fullmatch(name)
    if m is None:
        return False
    path = os.path.join(folder, name)
    try:
        st = os.lstat(path)
        if not _stat.S_ISREG(st.st_mode) or st.st_size < HEAD:
            return False
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
                     | getattr(os, "O_BINARY", 0))
    except (OSError, ValueError):
        return False
    try:
        fst = os.fstat(fd)
        if not _stat.S_ISREG(fst.st_mode) or (fst.st_dev, fst.st_ino) != (st.st_dev, st.st_ino):
            return False
        head = os.read(fd, len(MAGIC) + 2)
    except OSError:
        return False
    finally:
        os.close(fd)
    return head[:len(MAGIC)] == MAGIC and head[len(MAGIC) + 1:] == CACHE_KINDS[m.group(2)]


#: how many data trees keep their cache files in one cache folder: the one just written and the others most
#: recently used (a judge who looks a draft tree up between lookups in the bundled one rebuilds neither)
KEEP_TREES = 4


def touch(path: Path) -> None:
    """Mark a cache file as used now (its modification time), so that remove_stale counts its data tree as
    recently used; silently nothing where the folder is read-only or the file is gone."""
    try:
        os.utime(path)
    except OSError:
        pass


def remove_stale(stem: Path) -> list[str]:
    """Remove the data caches no one is likely to read again from the cache folder: only files this tool
    wrote (own_cache_file), never another file, a link or a folder (FLAMER_CACHE_DIR may point at a folder
    that holds other files; they are left alone). A data tree's files (`.corpus`, `.index`, `.pairs`,
    `.similar`, one key) stay when the key is `stem`'s or one of the KEEP_TREES - 1 others most recently
    used (the newest modification time among its files: corpus.load touches the `.corpus` it reads); a
    key of 16 digits (before issue 20) never stays. Compiled templates do not depend on the data and are
    left to their own sweep (templatecache.py). Returns the names removed."""
    folder = str(stem.parent)
    try:
        with os.scandir(folder) as entries:
            names = [e.name for e in entries if not e.name.startswith(stem.name + ".")]
    except OSError:
        return []
    trees: dict[str, int] = {}
    ours = []
    for name in names:
        key, _, suffix = name.partition(".")
        if suffix == "template" or not own_cache_file(folder, name):
            continue
        ours.append((name, key))
        if len(key) == 2 * KEY_BYTES:
            try:
                trees[key] = max(trees.get(key, 0), os.lstat(os.path.join(folder, name)).st_mtime_ns)
            except OSError:
                pass
    recent = set(sorted(trees, key=lambda k: (-trees[k], k))[:KEEP_TREES - 1])
    return remove_files(Path(folder), [name for name, key in ours if key not in recent])


def remove_files(folder: Path, names) -> list[str]:
    """Remove those of `names` in `folder` that are cache files this tool wrote (own_cache_file, checked
    again right before each is removed); the names removed."""
    removed = []
    for name in names:
        if own_cache_file(str(folder), name):
            try:
                os.unlink(os.path.join(folder, name))
                removed.append(name)
            except OSError:
                pass
    return removed
