"""Compiled templates kept in the cache folder, for the command line's processes.

Jinja turns a template's source into Python code the first time a process uses it, and that was most of a
short command's time (`flamer fight`: five templates, about 0.5 s of 0.8 s). A process started by `flamer`
(cli.main) keeps what it compiled in the cache folder (paths.cache_dir), beside the data's cache, and the
next process reads it back instead. A library user (the tests' in-process runs, the site builder, the
calculator's engine in the browser) compiles in memory as before.

Each compiled template is one cache file of our frame (cachefile.frame: magic, kind b"T", length, CRC-32,
then the marshalled code), read and written as the data's cache files are: a link, a FIFO, a wrong header,
length or checksum is no cache (the template is compiled again and the file rewritten), a write goes
through a temp file and a rename. A compiled template is code, so a cache folder that others may write into
keeps none (_ours_alone). The file's name is a digest of the template's name, path and source, of
the package's code (cachefile.code_stamp: the environment's settings live there), of Jinja's version and of
Python's: an edited template, another install or another Jinja gets other files. The sweep of stale cache
files (cachefile.remove_stale, when the data's cache is rewritten) takes old ones away.
"""

from __future__ import annotations

import sys
import types
from pathlib import Path

from . import cachefile

KIND = b"T"
SUFFIX = "template"
#: whether this process keeps its compiled templates (render.environment reads it when it makes the
#: environment): set by cli.main, the command line's processes
ENABLED = False


def key(fingerprint: bytes, template_key: str, source_checksum: str) -> str:
    """The 64-hex-digit name of a compiled template's cache file (Jinja's key names the template and its path)."""
    return cachefile.digest_of((fingerprint, template_key.encode(), source_checksum.encode()))


def _ours_alone(folder: Path) -> bool:
    """Whether only this user can put files into `folder` (or it does not exist yet: then we make it). A
    compiled template is code this process runs: a cache folder others may write into (FLAMER_CACHE_DIR
    pointing at a shared folder) keeps no compiled templates, and they are compiled in memory instead."""
    import os
    import stat

    if not hasattr(os, "getuid"):  # pragma: no cover - not a POSIX system: no owners to compare
        return True
    try:
        st = os.stat(folder)
    except FileNotFoundError:
        return True
    except OSError:
        return False
    return stat.S_ISDIR(st.st_mode) and st.st_uid == os.getuid() and not st.st_mode & 0o022


def bytecode_cache(folder: Path | None = None):
    """A Jinja bytecode cache over the cache folder (default: paths.cache_dir()), or None without one."""
    import jinja2
    from jinja2.bccache import BytecodeCache

    from .paths import cache_dir

    folder = folder if folder is not None else cache_dir()
    if folder is None or not _ours_alone(folder):
        return None
    fingerprint = b"|".join([jinja2.__version__.encode(), repr(sys.version_info[:3]).encode(),
                             bytes([cachefile.CACHE_FORMAT]), cachefile.code_stamp()])

    class TemplateCache(BytecodeCache):
        """Jinja's two hooks over our cache files (the bucket's key and source checksum name the file)."""

        def _path(self, bucket) -> Path:
            return folder / f"{key(fingerprint, bucket.key, bucket.checksum)}.{SUFFIX}"

        def load_bytecode(self, bucket) -> None:
            code = cachefile.read_cache(self._path(bucket), KIND)
            if isinstance(code, types.CodeType):
                bucket.code = code

        def dump_bytecode(self, bucket) -> None:
            if bucket.code is not None:
                cachefile.write_cache(self._path(bucket), KIND, bucket.code)

    return TemplateCache()
