"""Source files parsed once per test process: the house, purity, room and honesty checks read the same
modules with ast (flamer_ref's some 60 and the suite's 180), each check several times. A file is parsed
again only when its size or modification time changed; the trees are shared, so callers only read them."""

from __future__ import annotations

import ast
import functools
import os
from pathlib import Path


@functools.lru_cache(maxsize=None)
def _parsed(path: str, size: int, mtime_ns: int) -> ast.Module:
    return ast.parse(Path(path).read_text(encoding="utf-8"), path)


def parse(path: Path | str) -> ast.Module:
    """ast.parse of a UTF-8 source file (its path as the filename), shared by every caller in this process."""
    st = os.stat(path)
    return _parsed(str(path), st.st_size, st.st_mtime_ns)
