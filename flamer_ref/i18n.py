"""Korean for the parts of the command line that come from typer/click: help
headings and markers, metavars, the help and completion options, shell
completion, usage errors (exit 2) and anything else that would otherwise end
in English or in a traceback.

Everything is patched once, generically, in install(): commands and sub-apps
added later get Korean help without doing anything. Pinned to typer 0.28 (which
vendors click as typer._click); if its internals move, the patches fall back to
English instead of breaking the command.
"""

from __future__ import annotations

import os
import re
import sys

# strings typer passes through its gettext alias `_` (typer/core.py)
_GETTEXT = {
    "Options": "옵션", "Arguments": "인자", "Commands": "명령",
    "default: {default}": "기본값: {default}", "required": "필수", "env var: {var}": "환경 변수: {var}",
    "(dynamic)": "(실행할 때 정함)", "Aborted!": "중단했습니다.", "Missing command.": "명령이 빠졌습니다.",
}  # "No such command {name!r}." stays English here: typer adds its suggestion to it; translate() reads both

# metavars typer makes from a parameter's type (`<int range>`, `<str>` ...)
_TYPE_METAVARS = {"str": "<값>", "text": "<값>", "int": "<정수>", "int range": "<정수>", "integer": "<정수>",
                  "float": "<수>", "float range": "<수>", "boolean": "<예|아니오>", "bool": "<예|아니오>",
                  "filename": "<파일>", "path": "<경로>", "file": "<파일>", "directory": "<폴더>",
                  "datetime": "<날짜>", "uuid": "<UUID>"}

_USAGE_PIECES = (("COMMAND [ARGS]...", "명령 [인자]..."), ("[OPTIONS]", "[옵션]"), ("[ARGS]...", "[인자]..."))

HELP_OPTION_HELP = "이 도움말을 보여 주고 끝냅니다."
INSTALL_HELP = "지금 쓰는 셸(bash, zsh, fish, PowerShell)에 자동 완성을 설치합니다. 셸을 뒤에 적어도 됩니다 (예: --install-completion zsh)."
SHOW_HELP = "자동 완성 스크립트를 보여 줍니다 (직접 설치할 때; 셸을 뒤에 적어도 됩니다)."
_SHELLS = ("bash", "zsh", "fish", "powershell", "pwsh")


# ------------------------------------------------------------ particles ----
#: metavars read as a Korean word rather than letter by letter (FILE 파일: 'FILE이')
_METAVAR_READINGS = {"FILE": "파일", "FILES": "파일"}


def _josa(word: str, pair: str) -> str | None:
    """word + the particle its last sound takes, or None when that cannot be
    told (a word ending in Latin letters or symbols)."""
    from .korean import josa

    reading = _METAVAR_READINGS.get(word.rstrip(".").upper()) if word.rstrip(".").isupper() else None
    if reading is not None:
        return word + josa(reading, pair)[len(reading):]
    out = josa(word, pair)
    return None if out.endswith(")") and "(" in out[len(word):] else out


def _subject(prefix: str, word: str, pair: str, rest: str) -> str:
    """'{prefix} {word}{particle} {rest}', or '{prefix}{particle} {rest}: {word}'
    when the particle after word cannot be told."""
    w = _josa(word, pair)
    if w is not None:
        return f"{prefix} {w} {rest}"
    head = _josa(prefix, pair) or prefix
    return f"{head} {rest}: {word}"


# ------------------------------------------------------ usage messages ----
def _hint(exc) -> str:
    """The parameter an error is about, as typed: the long option name, or the
    argument's metavar without brackets."""
    hint = getattr(exc, "param_hint", None)
    param = getattr(exc, "param", None)
    if hint is None and param is not None:
        opts = [o for o in getattr(param, "opts", []) if o.startswith("-")]
        if opts:
            hint = max(opts, key=len)
        else:
            hint = getattr(param, "human_readable_name", None) or getattr(param, "name", None) or ""
    if isinstance(hint, (list, tuple)):
        hint = max(hint, key=len) if hint else ""
    hint = str(hint or "")
    hint = " / ".join(h.strip("'") for h in hint.split(" / "))
    if " / " in hint:
        hint = max(hint.split(" / "), key=len)
    return hint.strip("[]{}").rstrip(".")


def _value_message(message: str) -> str:
    """A parameter type's complaint about a value (click's English) in Korean; the value repeated is cut as
    every echo of a person's input is (korean.cut: a 40,000-character value is not said back whole)."""
    from .korean import cut

    m = re.fullmatch(r"'?(.*?)'? is not a valid (?:int|integer|int range)\.?", message, re.S)
    if m:
        return f"정수를 적어야 합니다 (지금: {cut(m.group(1))})."
    m = re.fullmatch(r"'?(.*?)'? is not a valid (?:float|float range)\.?", message, re.S)
    if m:
        return f"수를 적어야 합니다 (지금: {cut(m.group(1))})."
    m = re.fullmatch(r"'?(.*?)'? is not a valid boolean\..*", message, re.S)
    if m:
        return f"예/아니오(true/false, yes/no, 1/0) 가운데 하나를 적어야 합니다 (지금: {cut(m.group(1))})."
    m = re.fullmatch(r"(.+?) is not in the range (.+?)\.?", message, re.S)
    if m:
        value = cut(m.group(1))
        lead = _josa(value, "은/는")
        return f"{lead} 허용 범위({m.group(2)}) 밖입니다." if lead else f"허용 범위({m.group(2)}) 밖의 값입니다: {value}"
    m = re.fullmatch(r"'?(.*?)'? is not one of (.+?)\.?", message, re.S)
    if m:
        return f"고를 수 있는 값은 {m.group(2)}입니다 (지금: {cut(m.group(1))})."
    m = re.fullmatch(r"'?(.*?)'? is not a valid (\w+)\.?", message, re.S)
    if m:
        return f"올바른 값이 아닙니다: {cut(m.group(1))}"
    m = re.fullmatch(r"'?(.*?)'? does not match the formats? (.+?)\.?", message, re.S)
    if m:
        return f"형식({m.group(2)})에 맞지 않습니다: {cut(m.group(1))}"
    m = re.fullmatch(r"Takes (\d+) values but (\d+) given\.?", message) or re.fullmatch(
        r"(\d+) values are required, but (\d+) given\.?", message)
    if m:
        return f"값이 {m.group(1)}개 필요한데 {m.group(2)}개를 적었습니다."
    if message.startswith("Value must be an iterable"):
        return "값을 여러 개 적어야 합니다."
    return message


def usage_message(exc) -> str:
    """One Korean sentence for a click usage error (or any ClickException)."""
    from typer._click import exceptions as cexc

    if isinstance(exc, cexc.MissingParameter):
        hint = _hint(exc)
        kind = getattr(exc, "param_type", None) or getattr(getattr(exc, "param", None), "param_type_name", "")
        # '검색어를 적지 않았습니다.' — what a person left out, by its name (never '필요한 인자 검색어가 빠졌습니다')
        if kind == "option" and hint:
            out = f"{hint} 옵션을 적어야 합니다."
        elif hint:
            out = _subject("필요한 값", hint, "을/를", "적지 않았습니다.")
            out = out.replace("필요한 값 ", "", 1) if out.startswith("필요한 값 ") else out
        else:
            out = "필요한 값을 적지 않았습니다."
        choices = getattr(getattr(getattr(exc, "param", None), "type", None), "choices", None)
        if choices:
            out += " 고를 수 있는 값: " + ", ".join(str(getattr(c, "value", c)) for c in choices) + "."
        return out
    if isinstance(exc, cexc.NoSuchOption):
        from .korean import cut

        return _no_such("옵션", cut(exc.option_name), sorted(exc.possibilities or ()))
    if isinstance(exc, cexc.BadParameter):
        hint = _hint(exc)
        msg = _value_message(exc.message)
        return f"{hint}: {msg}" if hint else msg
    return translate(exc.format_message() if isinstance(exc, cexc.ClickException) else str(exc))


def _cut(value: str) -> str:
    from .korean import cut

    return cut(value)


def _cut_path(value: str) -> str:
    from .korean import cut_path

    return cut_path(value)


def _no_such(what: str, name: str, near: list[str]) -> str:
    """"'figth'라는 명령은 없습니다. fight를 찾으셨나요?" — a name the program does not know, and the nearest."""
    from .korean import josa

    said = josa(f"'{name}'", "이라는/라는")
    out = f"{said} {what}은 없습니다."
    near = [n for n in near if n]
    if near:
        listed = near[0] if len(near) == 1 else ", ".join(near[:-2] + [josa(near[-2], "이나/나")]) + " " + near[-1]
        out += f" {josa(listed, '을/를')} 찾으셨나요?"
    return out


#: (pattern, flags, Korean) per click message; compiled on first use (re caches them), not at import:
#: a command that runs without an error never needs them
_MESSAGES = [
    (r"Got unexpected extra arguments?(?:\(s\))? \((.*)\)", re.S,
     lambda m: f"쓰지 않는 인자가 더 있습니다: {_cut(m.group(1))} (값을 받지 않는 옵션 뒤에 값을 적었는지 확인하세요)"),
    (r"No such command '([^']+)'\.?(?: Did you mean (.+)\?)?", 0,
     lambda m: _no_such("명령", _cut(m.group(1)), [x.strip() for x in m.group(2).replace(chr(39), "").split(",")] if m.group(2) else [])),
    (r"Option '([^']+)' requires an argument\.?", 0, lambda m: f"옵션 {m.group(1)}에는 값이 필요합니다."),
    (r"Option '([^']+)' requires (\d+) arguments\.?", 0,
     lambda m: f"옵션 {m.group(1)}에는 값이 {m.group(2)}개 필요합니다."),
    (r"Option '([^']+)' does not take a value\.?", 0, lambda m: f"옵션 {m.group(1)}에는 값을 붙일 수 없습니다."),
    (r"Argument '([^']+)' takes (\d+) values\.?", 0, lambda m: f"인자 {m.group(1)}에는 값이 {m.group(2)}개 필요합니다."),
    (r"No such option: (\S+)(?: Did you mean (\S+)\?)?", 0,
     lambda m: _no_such("옵션", _cut(m.group(1)), [m.group(2)] if m.group(2) else [])),
    (r"Missing command\.?", 0, lambda m: "명령이 빠졌습니다."),
    (r"Could not open file '?(.+?)'?: (.+)", 0, lambda m: f"파일을 열 수 없습니다: {_cut_path(m.group(1))} ({m.group(2)})"),
    (r"Invalid value for '?([^':]+)'?(?: / '[^']+')*: (.+)", re.S,
     lambda m: f"{m.group(1)}: {_value_message(m.group(2))}"),
    (r"Invalid value: (.+)", re.S, lambda m: _value_message(m.group(1))),
]


def translate(message: str) -> str:
    """click's English message text in Korean (unknown text is kept)."""
    for pattern, flags, ko in _MESSAGES:
        m = re.search(pattern, message, flags)
        if m:
            return ko(m)
    return message


# ------------------------------------------------------------ completion ----
def _shell_name() -> str | None:
    try:
        from typer._completion_shared import _get_shell_name

        name = _get_shell_name()
    except Exception:  # noqa: BLE001 - detection is best effort
        name = None
    if not name:
        name = os.path.basename(os.environ.get("SHELL", "")) or None
    return name if name in _SHELLS else None


def _named_shell(option: str) -> str | None:
    """A shell named right after the option on the command line (--install-completion zsh, PowerShell in
    any case). A word there that is no supported shell (tcsh) is a usage error (exit 2), raised before
    anything is detected, written or printed: it was ignored, and the detected shell's completion installed."""
    argv = sys.argv[1:]
    if option in argv:
        i = argv.index(option)
        if i + 1 < len(argv) and not argv[i + 1].startswith("-"):
            name = argv[i + 1].lower()
            if name in _SHELLS:
                return name
            from typer import BadParameter

            from .korean import quoted

            raise BadParameter(f"{quoted(argv[i + 1], '은/는')} 자동 완성을 지원하지 않는 셸입니다. "
                               f"bash, zsh, fish, PowerShell 중 하나를 적으세요 (예: {option} zsh).", param_hint=option)
    return None


def _install_completion(ctx, param, value):
    if not value or ctx.resilient_parsing:
        return value
    shell = value if isinstance(value, str) and value in _SHELLS else (_named_shell("--install-completion")
                                                                       or _shell_name())
    if shell is None:
        sys.stderr.write("지금 쓰는 셸을 알아낼 수 없습니다. 자동 완성은 bash, zsh, fish, PowerShell에서 됩니다.\n")
        sys.exit(1)
    from typer._completion_shared import install

    prog = ctx.find_root().info_name or "flamer"
    try:
        shell, path = install(shell=shell, prog_name=prog)
    except OSError as exc:
        from .errors import os_reason

        sys.stderr.write(f"자동 완성을 설치하지 못했습니다 ({os_reason(exc)}).\n")
        sys.exit(1)
    sys.stdout.write(f"{shell} 자동 완성을 설치했습니다: {path}\n터미널을 새로 열면 적용됩니다.\n")
    sys.exit(0)


def _show_completion(ctx, param, value):
    if not value or ctx.resilient_parsing:
        return value
    shell = value if isinstance(value, str) and value in _SHELLS else (_named_shell("--show-completion")
                                                                       or _shell_name())
    if shell is None:
        sys.stderr.write("지금 쓰는 셸을 알아낼 수 없습니다. 자동 완성은 bash, zsh, fish, PowerShell에서 됩니다.\n")
        sys.exit(1)
    from typer._completion_shared import get_completion_script

    prog = ctx.find_root().info_name or "flamer"
    var = "_{}_COMPLETE".format(prog.replace("-", "_").upper())
    sys.stdout.write(get_completion_script(prog_name=prog, complete_var=var, shell=shell).rstrip("\n") + "\n")
    sys.exit(0)


def _normalise_complete_var(prog: str) -> bool:
    """Accept click's instruction style (bash_source, bash_complete) besides
    typer's (source_bash, complete_bash). Returns False (after a Korean
    message) for an instruction neither knows."""
    var = "_{}_COMPLETE".format(prog.replace("-", "_").upper())
    value = os.environ.get(var)
    if not value:
        return True
    a, _, b = value.partition("_")
    if a in _SHELLS and b in ("source", "complete"):
        a, b = b, a
        os.environ[var] = f"{a}_{b}"
    if a == "complete" and b == "bash" and not ("COMP_WORDS" in os.environ and "COMP_CWORD" in os.environ):
        sys.stderr.write(f"자동 완성 요청에 COMP_WORDS와 COMP_CWORD가 없습니다 (셸이 보내는 값입니다). "
                         f"설치는 {prog} --install-completion\n")
        return False
    if a == "complete" and b == "bash" and not _bash_words_ok():
        sys.stdout.flush()
        sys.exit(0)  # a malformed request from a shell: offer nothing, never an error in the middle of a line
    if a in ("source", "complete") and b in _SHELLS:
        from typer._completion_classes import completion_init

        completion_init()  # register the shells even if the app were built without completion
        return True
    sys.stderr.write(f"모르는 자동 완성 요청입니다: {value} (예: {var}=bash_source {prog})\n")
    return False


def _bash_words_ok() -> bool:
    """COMP_CWORD is the index (ASCII digits) of a word of COMP_WORDS, or one past the last (a new word).
    typer reads it with int() and crashed on 'x' or '1.5'; an index past the words completed something else."""
    cword = os.environ.get("COMP_CWORD", "")
    if not re.fullmatch(r"[0-9]{1,6}", cword):
        return False
    try:
        from typer._click.shell_completion import split_arg_string
    except ImportError:  # pragma: no cover - typer's vendored click moved
        split_arg_string = str.split
    try:
        words = split_arg_string(os.environ.get("COMP_WORDS", ""))
    except Exception:  # noqa: BLE001 - an unreadable line: nothing to offer
        return False
    return int(cword) <= len(words)


def completing(prog: str = "flamer") -> bool:
    """True while the shell asks for completions (the completion variable is set)."""
    return bool(os.environ.get("_{}_COMPLETE".format(prog.replace("-", "_").upper())))


# --------------------------------------------------------------- install ----
def install() -> None:
    """Patch typer's help output to Korean. Falls back silently to English
    if typer's internals differ from the version we pinned."""
    try:
        import typer.core as tcore
        import typer.main as tmain
        from typer._click import core as ccore, formatting, types as ctypes
    except ImportError:  # pragma: no cover
        return
    tcore._ = lambda s: _GETTEXT.get(s, s)  # type: ignore[attr-defined]

    original_usage = formatting.HelpFormatter.write_usage

    def write_usage(self, prog, args="", prefix=None):
        for en, ko in _USAGE_PIECES:
            args = args.replace(en, ko)
        return original_usage(self, prog, args, "사용법: " if prefix is None else prefix)

    formatting.HelpFormatter.write_usage = write_usage

    original_help_option = ccore.Command.get_help_option

    def get_help_option(self, ctx):
        opt = original_help_option(self, ctx)
        if opt is not None:
            opt.help = HELP_OPTION_HELP
        return opt

    ccore.Command.get_help_option = get_help_option

    original_metavar = ccore.Parameter.make_metavar

    def make_metavar(self, ctx, *args, **kwargs):
        mv = original_metavar(self, ctx, *args, **kwargs)
        if self.metavar is None and isinstance(mv, str):
            core, dots = (mv[:-3], "...") if mv.endswith("...") else (mv, "")
            name = core[1:-1] if core.startswith("<") and core.endswith(">") else None
            if name is not None and name in _TYPE_METAVARS:
                return _TYPE_METAVARS[name] + dots
        return mv

    ccore.Parameter.make_metavar = make_metavar

    def describe_range(self) -> str:
        lo, hi = self.min, self.max
        if lo is None and hi is None:
            return ""
        if lo is None:
            return f"{hi} {'미만' if self.max_open else '이하'}"
        if hi is None:
            return f"{lo} {'초과' if self.min_open else '이상'}"
        if not self.min_open and not self.max_open:
            return f"{lo}~{hi}"
        return f"{lo} {'초과' if self.min_open else '이상'} {hi} {'미만' if self.max_open else '이하'}"

    ctypes._NumberRangeBase._describe_range = describe_range

    original_completion_args = tmain.get_install_completion_arguments

    def completion_arguments():
        install_param, show_param = original_completion_args()
        install_param.help, install_param.callback = INSTALL_HELP, _install_completion
        show_param.help, show_param.callback = SHOW_HELP, _show_completion
        return install_param, show_param

    tmain.get_install_completion_arguments = completion_arguments


# ------------------------------------------------------------------- run ----
def json_error(message: str, code: str, inner: dict | None = None, **extra) -> str:
    """The --json form of an error: one object, `error` first (`inner`: more keys inside it)."""
    obj = {"error": {"message": message, "code": code, **(inner or {})}}
    obj.update({k: v for k, v in extra.items() if v is not None})
    from .cleantext import json_text

    return json_text(obj)


def wants_json(argv: list[str]) -> bool:
    args = argv[: argv.index("--")] if "--" in argv else argv
    return "--json" in args


def _command_path(app, argv: list[str], prog_name: str) -> str:
    """The (sub)command the arguments name, for an error raised without a context."""
    path = [prog_name]
    try:
        from typer.main import get_command

        cmd = get_command(app)
        for arg in argv:
            sub = getattr(cmd, "commands", {}).get(arg)
            if arg.startswith("-") or sub is None:
                break
            path.append(arg)
            cmd = sub
    except Exception:  # noqa: BLE001 - only a hint
        pass
    return " ".join(path)


def fix_argv() -> None:
    """Arguments as UTF-8 whatever the locale: under a non-UTF-8 locale (LC_ALL=POSIX with
    PYTHONUTF8=0) Python hands Korean arguments over as surrogate-escaped bytes; each such
    argument is decoded again as UTF-8 (bytes that are not UTF-8 become U+FFFD)."""
    fixed = []
    for a in sys.argv:
        if any("\ud800" <= ch <= "\udfff" for ch in a):
            try:
                a = os.fsencode(a).decode("utf-8", "replace")
            except UnicodeError:  # not bytes in disguise: drop the lone surrogates
                a = a.encode("utf-8", "replace").decode("utf-8")
        fixed.append(a)
    sys.argv[:] = fixed


def _narrowed(app, argv: list[str]):
    """The app with only the command the arguments name (and the sub-groups, which keep it a group):
    click builds every command's options before it parses, a few milliseconds of a lookup's start-up.
    Anything else (no command, a misspelt one, an option first, completion) gets the whole app."""
    if not argv or argv[0].startswith("-") or os.environ.get("_FLAMER_COMPLETE") or not app.registered_groups:
        return app
    import copy

    from typer.main import get_command_name  # how typer names a command from its function

    named = [c for c in app.registered_commands
             if (c.name or (get_command_name(c.callback.__name__) if c.callback else "")) == argv[0]]
    if len(named) != 1:
        return app

    narrow = copy.copy(app)
    narrow.registered_commands = named
    return narrow


def run(app, prog_name: str = "flamer") -> None:
    """Run a Typer app: usage errors in Korean on stderr with exit 2 (and as a
    JSON object on stdout when --json was given), domain errors already handled
    by the commands (exit 1), and never a traceback."""
    fix_argv()
    argv = sys.argv[1:]
    as_json = wants_json(argv)
    if not _normalise_complete_var(prog_name):
        sys.exit(1)
    try:
        from typer import exceptions as texc
        from typer._click import exceptions as cexc
    except ImportError:  # pragma: no cover
        app()
        return

    def fail(message: str, code: str, exit_code: int, tail: str = "", head: str = "") -> None:
        from .cleantext import clean

        sys.stderr.write(clean(head + message) + "\n" + tail)
        if as_json:
            try:
                sys.stdout.write(json_error(message, code))
                sys.stdout.flush()
            except OSError:
                pass
        sys.exit(exit_code)

    try:
        rv = _narrowed(app, argv)(prog_name=prog_name, standalone_mode=False)
    except cexc.NoArgsIsHelpError as exc:  # bare `flamer` or a group without a command
        sys.stdout.write(exc.ctx.get_help() + "\n")
        sys.exit(0)
    except cexc.UsageError as exc:
        cmd = exc.ctx.command_path if exc.ctx is not None else _command_path(app, argv, prog_name)
        fail(usage_message(exc), "usage", 2, f"도움말: {cmd} --help\n", head="사용법 오류: ")
    except cexc.ClickException as exc:
        fail(usage_message(exc), "bad-input", 1, head="오류: ")
    except texc.Abort:
        fail("중단했습니다.", "aborted", 1)
    except KeyboardInterrupt:
        sys.exit(130)
    except BrokenPipeError:  # the reader closed the pipe: quietly, not as a success (terminal.output_failed)
        sys.exit(1)
    except SystemExit:
        raise
    except Exception as exc:  # noqa: BLE001 - the user must never see a traceback
        if os.environ.get("FLAMER_DEBUG"):
            raise
        if completing(prog_name):  # completion must never break the shell: offer nothing
            sys.exit(0)
        from .errors import internal_message

        fail(internal_message(exc), "internal", 1)
    sys.exit(rv if isinstance(rv, int) else 0)
