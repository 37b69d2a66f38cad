"""Korean for the parts of the command line that come from typer/click:
help headings, the help option, and usage errors (exit 2)."""

from __future__ import annotations

import re
import sys

_HEADINGS = {"Options": "옵션", "Arguments": "인자", "Commands": "명령"}

_MESSAGES = [
    (re.compile(r"Missing argument '?([^'.]+)'?\.?"), "필요한 인자 {0}가 빠졌습니다."),
    (re.compile(r"Missing option '?([^'.]+)'?\.?"), "필요한 옵션 {0}가 빠졌습니다."),
    (re.compile(r"No such option: (\S+)(?: Did you mean (\S+)\?)?"), "그런 옵션이 없습니다: {0}"),
    (re.compile(r"No such command '([^']+)'\.?"), "그런 명령이 없습니다: {0}"),
    (re.compile(r"Got unexpected extra arguments? \((.*)\)"), "필요 없는 인자가 더 있습니다: {0}"),
    (re.compile(r"Option '([^']+)' requires an argument\.?"), "옵션 {0}에는 값이 필요합니다."),
    (re.compile(r"Invalid value for '([^']+)'(?: / '[^']+')*: '?(.+?)'? is not a valid int(?:eger)?(?: range)?\.?$"),
     "{0}에는 정수를 적어야 합니다 (지금: {1})."),
    (re.compile(r"Invalid value for '([^']+)'(?: / '[^']+')*: (.+) is not in the range (.+)\."),
     "{0} 값 {1}이(가) 범위({2}) 밖입니다."),
    (re.compile(r"Invalid value for '([^']+)'(?: / '[^']+')*: (.+)"), "{0} 값이 올바르지 않습니다: {1}"),
    (re.compile(r"Invalid value for ([^:']+): (.+)"), "{0}: {1}"),
]


def translate(message: str) -> str:
    for pattern, ko in _MESSAGES:
        m = pattern.search(message)
        if m:
            out = ko.format(*[g or "" for g in m.groups()])
            if "Did you mean" in message:
                hint = re.search(r"Did you mean (\S+)\?", message)
                if hint:
                    out += f" 혹시 {hint.group(1)}?"
            return out
    return message


def install() -> None:
    """Patch typer's help output to Korean. Falls back silently to English
    if typer's internals differ from the version we pinned."""
    try:
        import typer.core as tcore
        from typer._click import formatting
        from typer._click.core import Command
    except ImportError:  # pragma: no cover
        return
    tcore._ = lambda s: _HEADINGS.get(s, s)  # type: ignore[attr-defined]
    original_usage = formatting.HelpFormatter.write_usage

    def write_usage(self, prog, args="", prefix=None):
        return original_usage(self, prog, args, "사용법: " if prefix is None else prefix)

    formatting.HelpFormatter.write_usage = write_usage
    original_help_option = Command.get_help_option

    def get_help_option(self, ctx):
        opt = original_help_option(self, ctx)
        if opt is not None:
            opt.help = "이 도움말을 보여 주고 끝냅니다."
        return opt

    Command.get_help_option = get_help_option


def run(app) -> None:
    """Run a Typer app: usage errors in Korean on stderr with exit 2, domain
    errors already handled by the commands (exit 1)."""
    from typer._click import exceptions as cexc

    try:
        rv = app(standalone_mode=False)
    except cexc.NoArgsIsHelpError as exc:  # bare `flamer` or a group without a command
        sys.stdout.write(exc.ctx.get_help() + "\n")
        sys.exit(0)
    except cexc.UsageError as exc:
        cmd = exc.ctx.command_path if exc.ctx is not None else "flamer"
        sys.stderr.write(f"사용법 오류: {translate(exc.format_message())}\n도움말: {cmd} --help\n")
        sys.exit(2)
    except cexc.ClickException as exc:
        sys.stderr.write(f"오류: {translate(exc.format_message())}\n")
        sys.exit(1)
    except cexc.Abort:
        sys.stderr.write("중단했습니다.\n")
        sys.exit(1)
    sys.exit(rv if isinstance(rv, int) else 0)
