"""`flamer` in-process for the hostile-input tests (tests/hardening/test_audit_cases.py,
tests/hardening/test_limits_inside.py): Typer's CliRunner with no cache folder and a fresh corpus memo, and
the one check those tests make of a refusal."""

from __future__ import annotations

import re

from typer.testing import CliRunner

from flamer_ref import cachefile
from flamer_ref import corpus as corpus_mod
from flamer_ref.cli import app

HANGUL = re.compile("[가-힣]")


def invoke(*args, input=None, env=None):
    cachefile.MEMO.clear()
    r = CliRunner().invoke(app, list(args), input=input, env={"FLAMER_CACHE_DIR": "", **(env or {})})
    cachefile.MEMO.clear()
    return r


def clean_error(r, *needles):
    """A refusal as a person should get it: exit 1, Korean on stderr naming each of `needles`, no traceback."""
    assert r.exit_code == 1, (r.exit_code, r.stdout[-800:], r.stderr[-800:])
    assert "내부 오류" not in r.stderr + r.stdout and "Traceback" not in r.stderr, r.stderr
    assert HANGUL.search(r.stderr), r.stderr
    for n in needles:
        assert n in r.stderr, (n, r.stderr)
