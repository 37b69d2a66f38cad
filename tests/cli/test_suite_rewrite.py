"""The controller's rewriting of the test modules' asserts (tests/conftest.py REWRITE) writes what pytest itself
would: the file pytest reads back holds the code pytest's own rewrite makes, a second run leaves a current file
alone, and an edited module is rewritten again."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import types
from pathlib import Path

import sourcetree
from _pytest.assertion.rewrite import PYC_TAIL, _read_pyc, _rewrite_test, get_cache_dir

#: the script tests/conftest.py runs (read from the file: several conftest modules share that name)
REWRITE = next(node.value.value for node in sourcetree.parse(Path(__file__).resolve().parent.parent / "conftest.py").body
               if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["REWRITE"])

MODULE = '''def test_sum():
    total = sum([1, 2])
    assert total == 3, "a sum"
'''


def _rewrite(*files):
    subprocess.run([sys.executable, "-c", REWRITE, *map(str, files)], check=True, timeout=120)


def test_the_rewritten_module_is_pytests_own_and_kept_while_current(tmp_path):
    fn = tmp_path / "test_sample.py"
    fn.write_text(MODULE, encoding="utf-8")
    pyc = get_cache_dir(fn) / (fn.name[:-3] + PYC_TAIL)
    _rewrite(fn)
    code = _read_pyc(fn, pyc)  # pytest's reader: current (magic, flags, the source's time and size)
    assert code is not None and code == _rewrite_test(fn, None)[1]
    func = next(c for c in code.co_consts if isinstance(c, types.CodeType) and c.co_name == "test_sum")
    assert any(name.startswith("@py_assert") for name in func.co_varnames)  # the assert was rewritten
    written = pyc.stat().st_mtime_ns
    os.utime(pyc, ns=(written - 10**9, written - 10**9))
    _rewrite(fn)
    assert pyc.stat().st_mtime_ns == written - 10**9  # current: not written again
    fn.write_text(MODULE.replace("[1, 2]", "[1, 2, 0]"), encoding="utf-8")
    st = fn.stat()
    os.utime(fn, ns=(st.st_atime_ns, st.st_mtime_ns + 2 * 10**9))  # past the file system clock's second
    _rewrite(fn)
    code = _read_pyc(fn, pyc)
    assert code is not None and code == _rewrite_test(fn, None)[1]


def test_a_module_that_cannot_be_rewritten_is_left_to_its_worker(tmp_path):
    broken = tmp_path / "test_broken.py"
    broken.write_text("def test_x(:\n", encoding="utf-8")
    fine = tmp_path / "test_fine.py"
    fine.write_text(MODULE, encoding="utf-8")
    _rewrite(broken, fine)  # no stop at the broken one
    assert not (get_cache_dir(broken) / (broken.name[:-3] + PYC_TAIL)).exists()
    assert _read_pyc(fine, get_cache_dir(fine) / (fine.name[:-3] + PYC_TAIL)) is not None
