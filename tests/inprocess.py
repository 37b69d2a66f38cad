"""`flamer` in-process: Typer's CliRunner on the app, for the tests that read what a command answers (exit
code, stdout, stderr) and need no process of their own (tests/flamer_fork.py runs a real one); and the one
check the hostile-input tests make of a refusal."""

from __future__ import annotations

import functools
import re
import sys

from typer.testing import CliRunner

from flamer_ref import cachefile
from flamer_ref.cli import app as flamer_app

HANGUL = re.compile("[가-힣]")


def invoke(*args, input=None, env=None, data=None, cache=None, fresh=False, app=None, **kw):
    """`flamer ARGS` in this process → click's Result: exit_code, stdout, stderr, output (both, as a
    terminal shows them), exception.

    input: standard input (str or bytes). env: variables set for this call only (a value None unsets one).
    data: FLAMER_DATA for this call (a data tree). cache: FLAMER_CACHE_DIR for this call ("": no cache
    folder); None keeps this process's. A variable named in env wins over data and cache. fresh: the
    corpus memo is cleared before and after the call (a data tree changed or swapped between calls is
    read again, and leaves nothing behind). app: another Typer app than flamer's. kw: the rest of
    CliRunner.invoke (standalone_mode, prog_name, catch_exceptions).
    sys.argv is ["flamer", *ARGS] during the call, as a shell sets it (fight prints it in its header)."""
    env = {**({"FLAMER_DATA": str(data)} if data is not None else {}),
           **({"FLAMER_CACHE_DIR": str(cache)} if cache is not None else {}), **(env or {})}
    argv = [str(a) for a in args]
    saved = sys.argv
    sys.argv = ["flamer", *argv]
    if fresh:
        cachefile.MEMO.clear()
    try:
        return CliRunner().invoke(app or flamer_app, argv, input=input, env=env or None, **kw)
    finally:
        sys.argv = saved
        if fresh:
            cachefile.MEMO.clear()


#: `invoke` with no cache folder and a fresh corpus memo: each call reads its data tree anew and writes
#: nothing (the hostile-input tests, and those that change or swap a data tree between calls)
isolated = functools.partial(invoke, cache="", fresh=True)


def clean_error(r, *needles):
    """A refusal as a person should get it: exit 1, Korean on stderr naming each of `needles`, no traceback."""
    assert r.exit_code == 1, (r.exit_code, r.stdout[-800:], r.stderr[-800:])
    assert "내부 오류" not in r.stderr + r.stdout and "Traceback" not in r.stderr, r.stderr
    assert HANGUL.search(r.stderr), r.stderr
    for n in needles:
        assert n in r.stderr, (n, r.stderr)
