"""Start-up work a lookup skips (issue 9's cold-start budget): only the command named on the command line
is built, and the answers are the same as with the whole app."""

from __future__ import annotations

import json

from typer.main import get_command_name
from inprocess import invoke

from flamer_ref import i18n
from flamer_ref.cli import app


def _names(a) -> list[str]:
    return [c.name or get_command_name(c.callback.__name__) for c in a.registered_commands]


def test_only_the_named_command_is_built():
    narrow = i18n._narrowed(app, ["search", "정착", "기물", "--json"])
    assert _names(narrow) == ["search"] and narrow.registered_groups == app.registered_groups
    assert len(_names(app)) > 5  # the app itself is untouched
    for argv in ([], ["--help"], ["serch", "x"], ["scenario", "new", "move"]):
        assert i18n._narrowed(app, argv) is app, argv


def test_narrowed_and_whole_app_answer_alike(monkeypatch):
    for argv in (["search", "돈", "얼마", "들어와", "--json"], ["rule", "combat.attack", "--json"],
                 ["search", "--limit", "x", "정착"], ["search", "--help"]):
        narrow = invoke(*argv, app=i18n._narrowed(app, argv), prog_name="flamer")
        whole = invoke(*argv, prog_name="flamer")
        assert narrow.exit_code == whole.exit_code, argv
        assert narrow.output == whole.output, argv
    out = json.loads(invoke("search", "돈", "--json", app=i18n._narrowed(app, ["search", "돈", "--json"])).output)
    assert out["results"]
