"""The `flamer` command inside a browser: what the site's engine (engine/worker.js, in Pyodide) calls.

run(argv, stdin) answers exactly as `flamer <argv>` would on a command line — the same code path
(i18n.run over cli.app, terminal.setup's cleaning, the --json error objects), the same exit codes —
returned as {"code", "stdout", "stderr"} instead of written to a process's streams, and without the
CLI's os._exit. Standard input is `stdin` (for `flamer simulate -`), never a terminal, so a fight that
needs unknown stats gets the CLI's missing-stats error. Standard output is what the CLI's UTF-8 stream
would carry (a lone surrogate written backslash-escaped), so `--json` answers are byte-identical.

setup() prepares a Pyodide process once: rapidfuzz's pure-Python implementation, no cache folder
(FLAMER_CACHE_DIR empty: nothing is written), the prebuilt data of the engine zip
(flamer_ref/_data/prebuilt.bin, searchindex.preload) so no YAML is parsed and no model trained, and the
templates compiled at build time (flamer_ref/_data/jinja/, a jinja2.ModuleLoader).
"""

from __future__ import annotations

import io
import json
import os
import sys

PREBUILT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_data", "prebuilt.bin")
COMPILED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_data", "jinja")
_state = {"setup": False}


def setup(prebuilt: bytes | None = None) -> bool:
    """Prepare this process for run() (once). In Pyodide (sys.platform 'emscripten') the environment
    is set for the browser; the prebuilt data (given, or the file beside the package) is preloaded.
    Returns whether prebuilt data is in use."""
    from . import corpus, searchindex

    if sys.platform == "emscripten":
        os.environ["RAPIDFUZZ_IMPLEMENTATION"] = "python"
        os.environ["FLAMER_CACHE_DIR"] = ""  # no cache folder: the browser keeps nothing on disk
        os.environ.pop("FLAMER_DATA", None)
    if prebuilt is None and not _state["setup"] and os.path.isfile(PREBUILT):
        with open(PREBUILT, "rb") as fh:
            prebuilt = fh.read()
    if prebuilt is not None:
        searchindex.preload(prebuilt)
    if not _state["setup"] and os.path.isdir(COMPILED):
        # the templates as the build compiled them (sitepack.compiled_templates): the same
        # environment, without Jinja's lexer and parser at run time
        import jinja2

        from .render import environment

        env = environment()  # (a template left out of the build is read from its file, as always)
        env.loader = jinja2.ChoiceLoader([jinja2.ModuleLoader(COMPILED), env.loader])
    _state["setup"] = True
    return corpus.preloaded()


def warm() -> None:
    """Import what the first answer needs and touch the data (the engine calls this before it says
    it is ready, so the first verdict does not pay for it)."""
    from . import cli, corpus, oneliner, render, runner, searchindex  # noqa: F401
    from .engine import api  # noqa: F401

    corpus.load()
    searchindex.load_index()
    render.environment()


#: what prepare_snapshot answers once: README's first fight, as HTML and JSON, a search of two words, and
#: one with a misspelt word and an everyday word it does not know (the first such search builds the
#: fuzzy look-up's tables: some 0.5 s in the browser, then kept in the snapshot)
WARM_COMMANDS = ((["fight", "거신 vs 별마대, 행성굴착기(정착)", "--format", "html"], None),
                 (["fight", "거신 vs 별마대", "--json"], None),
                 (["search", "정착 기물", "--json"], None),
                 (["search", "졍착 기물 드러와", "--json", "-n", "15"], None))


def prepare_snapshot() -> None:
    """Before the engine keeps a memory snapshot (engine/worker.js): answer a few commands, so that what
    a first answer builds on demand (compiled templates, the likeness model, imports made inside
    functions) is in the snapshot and a later visit's first verdict does not pay for it."""
    for argv, stdin in WARM_COMMANDS:
        run(argv, stdin)


def run(argv, stdin: str | None = None) -> dict:
    """`flamer <argv>` with `stdin` as standard input: {"code": exit status, "stdout", "stderr"}."""
    from . import terminal

    if not _state["setup"]:
        setup()
    argv = [str(a) for a in argv]
    fast = search_fast(argv)
    if fast is not None:
        return fast
    out, err = io.StringIO(), io.StringIO()
    data = (stdin or "").encode("utf-8", "surrogateescape")
    saved = sys.stdin, sys.stdout, sys.stderr, sys.argv
    sys.stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", errors="surrogateescape")
    sys.stdout, sys.stderr, sys.argv = out, err, ["flamer", *argv]
    try:
        from . import cli

        code = cli.run(argv)
    finally:
        sys.stdin, sys.stdout, sys.stderr, sys.argv = saved
        terminal.reset()
    return {"code": code, "stdout": _as_written(out.getvalue()), "stderr": _as_written(err.getvalue())}


def search_fast(argv: list[str]) -> dict | None:
    """`flamer search QUERY --json [-n N] [--as-of YYYY-MM-DD]` answered by the search library directly
    (what the site's search box asks on every keystroke): the command's own steps (cli.search: the
    length check, search_report, the JSON text) without building the command line parser, which costs
    more than the search in Pyodide. Any other shape of arguments, or any error, is None: run() then
    goes the whole way, so stdout, stderr and the exit code are always the command's own."""
    import re

    if len(argv) < 3 or argv[0] != "search" or argv[1].startswith("-") or not argv[1].strip():
        return None
    query, rest, limit, as_of = argv[1], argv[2:], 10, None
    if "--json" not in rest:
        return None
    rest = [a for a in rest if a != "--json"]
    while rest:
        if len(rest) >= 2 and rest[0] in ("-n", "--limit") and re.fullmatch(r"[1-9][0-9]{0,3}", rest[1]):
            limit = int(rest[1])
        elif len(rest) >= 2 and rest[0] == "--as-of" and re.fullmatch(r"\d{4}-\d{2}-\d{2}", rest[1]):
            as_of = rest[1]
        else:
            return None
        rest = rest[2:]
    try:
        from . import cli
        from .searchindex import load_index
        from .dates import parse_date
        from .search import search_report
        from .cleantext import json_clean, json_text

        if as_of is not None and parse_date(as_of, lambda: 2000) != as_of:
            return None
        cli.check_length(query, "검색어", "")
        text = json_text(search_report(load_index(), query, limit=limit, as_of=as_of, explain=False))
    except Exception:  # noqa: BLE001 - the whole command path words every error
        return None
    return {"code": 0, "stdout": _as_written(json_clean(text)), "stderr": ""}


def _as_written(text: str) -> str:
    """Text as the CLI's UTF-8 stream (errors='backslashreplace') would have written it."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def run_json(request: str) -> str:
    """run() with JSON in and out (the worker's call: no proxies cross): {"argv": [...], "stdin": str|null}."""
    req = json.loads(request)
    return json.dumps(run(req.get("argv") or [], req.get("stdin")), ensure_ascii=False)
