"""Compiled templates kept in the cache folder, for the command line's processes.

Jinja turns a template's source into Python code the first time a process uses it, and that was most of a
short command's time (`flamer fight`: five templates, about 0.5 s of 0.8 s). A process started by `flamer`
(cli.main) keeps what it compiled in the cache folder (paths.cache_dir), beside the data's cache, and the
next process reads it back instead. A library user (the site builder, the calculator's engine in the
browser) compiles in memory as before, unless it gives the environment a cache of its own (the test suite
does: tests/conftest.py).

Each compiled template is one cache file of our frame (cachefile.frame: magic, kind b"T", length, CRC-32,
then the marshalled code), read and written as the data's cache files are: a link, a FIFO, a wrong header,
length or checksum is no cache (the template is compiled again and the file rewritten), a write goes
through a temp file and a rename. A compiled template is code, so a cache folder that others may write into
keeps none (_ours_alone). The file's name is a digest of the template's name, path and source, of
the package's code (cachefile.code_stamp: the environment's settings live there), of Jinja's version and of
Python's: an edited template, another install or another Jinja gets other files. The sweep of stale cache
files of a data tree (cachefile.remove_stale) leaves them alone: a compiled template does not depend on
the data. Instead, the first template a process compiles and keeps in a folder sweeps that folder's old
ones: those that are not of this code and these templates (current_names).
"""

from __future__ import annotations

import os
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


def _fingerprint() -> bytes:
    """What every compiled template's file name depends on besides the template: Jinja's and Python's
    versions, the cache format and the package's code (the environment's settings live there)."""
    import jinja2

    return b"|".join([jinja2.__version__.encode(), repr(sys.version_info[:3]).encode(),
                      bytes([cachefile.CACHE_FORMAT]), cachefile.code_stamp()])


def current_names(folder: Path) -> set[str]:
    """The file names, in `folder`, of the compiled templates of this code and of the templates as they are
    now (compiled yet or not): what _sweep_once keeps when it sweeps a folder's old compiled templates. Empty
    where the folder keeps no compiled templates (_ours_alone) or the templates cannot be read."""
    import jinja2

    from .paths import templates_dir

    cache = bytecode_cache(folder)
    if cache is None:
        return set()
    loader = jinja2.FileSystemLoader(str(templates_dir()))  # as render.environment's: the same file names
    env = jinja2.Environment(loader=loader)
    names = set()
    try:
        for name in loader.list_templates():
            source, filename, _ = loader.get_source(env, name)
            names.add(cache.file_name(name, filename, source))
    except (OSError, jinja2.TemplateError, UnicodeDecodeError):
        return set()
    return names


#: the folders whose old compiled templates this process has swept (_sweep_once)
_SWEPT: set[str] = set()


def _sweep_once(folder: Path, written: str) -> None:
    """A template was compiled and kept: the templates or the code changed since this folder was filled, or
    it is new. Once per process and folder, remove the compiled templates that are not of this code and
    these templates (current_names), leaving the one just written."""
    if str(folder) in _SWEPT:
        return
    _SWEPT.add(str(folder))
    try:
        with os.scandir(folder) as entries:
            names = {e.name for e in entries if e.name.endswith("." + SUFFIX)}
    except OSError:
        return
    cachefile.remove_files(folder, sorted(names - current_names(folder) - {written}))


def bytecode_cache(folder: Path | None = None):
    """A Jinja bytecode cache over the cache folder (default: paths.cache_dir()), or None without one."""
    from jinja2.bccache import BytecodeCache

    from .paths import cache_dir

    folder = folder if folder is not None else cache_dir()
    if folder is None or not _ours_alone(folder):
        return None
    fingerprint = _fingerprint()

    class TemplateCache(BytecodeCache):
        """Jinja's two hooks over our cache files (the bucket's key and source checksum name the file)."""

        def _path(self, bucket) -> Path:
            return folder / f"{key(fingerprint, bucket.key, bucket.checksum)}.{SUFFIX}"

        def file_name(self, name: str, filename: str, source: str) -> str:
            """The cache file's name of the template `name` read from `filename` with `source`."""
            return f"{key(fingerprint, self.get_cache_key(name, filename), self.get_source_checksum(source))}.{SUFFIX}"

        def load_bytecode(self, bucket) -> None:
            code = cachefile.read_cache(self._path(bucket), KIND)
            if isinstance(code, types.CodeType):
                bucket.code = code

        def dump_bytecode(self, bucket) -> None:
            if bucket.code is not None:
                path = self._path(bucket)
                if cachefile.write_cache(path, KIND, bucket.code):
                    _sweep_once(folder, path.name)

    return TemplateCache()
