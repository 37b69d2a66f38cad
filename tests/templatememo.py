"""Jinja's compiling of a template, done once per run for the suite's processes.

Jinja turns a template's source into Python code (Environment.compile) whenever an environment meets a
template it has no code for: in the suite, every `flamer` process (a fork: tests/flamer_fork.py) given a
cache folder of its own, and every in-process environment over such a folder, compiled the same hundred
templates again — some 24 CPU-seconds of a run (py-spy over a whole run). What compile returns depends on
its arguments and on the environment's settings that shape the code: the syntax and whitespace settings,
the extensions, the autoescape answer for the template's name, `finalize`, async, and the filters and tests
(the code calls them with the arguments their `pass_` decorators ask for, and the optimizer folds constant
filter calls at compile time: a filter is keyed by its code). So the suite keeps each answer per process
(install), and the fork server starts its children with the code of every template already there
(prefill: from the templates the controller compiled once, tests/conftest.py PRECOMPILE).

Only the compiling is skipped. Everything around it runs as in any process: a template missing from the
cache folder is still written there, a damaged cache file is still refused and written again, old ones are
still swept (tests/hardening/test_cache.py), and a template that does not compile raises as before (an
error is never kept). A test that replaces `compile` on an environment of its own sees its own.
"""

from __future__ import annotations

import os
from pathlib import Path

_MEMO: dict[tuple, object] = {}


def _closure(f) -> tuple | None:
    cells = getattr(f, "__closure__", None)
    return tuple(id(c.cell_contents) for c in cells) if cells else None


def _callables(table) -> tuple:
    """A filter or test table as the code generator and the optimizer see it: each name with its function's
    code and the objects it closes over (a lambda made anew for each environment, closing over nothing, has
    the same code) and its pass_ argument."""
    return tuple(sorted((name, getattr(f, "__code__", f), _closure(f), getattr(f, "jinja_pass_arg", None))
                        for name, f in table.items()))


def key(env, source, name, filename, raw, defer_init) -> tuple:
    autoescape = env.autoescape(name) if callable(env.autoescape) else env.autoescape
    return (type(env), env.code_generator_class, env.block_start_string, env.block_end_string,
            env.variable_start_string, env.variable_end_string, env.comment_start_string, env.comment_end_string,
            env.line_statement_prefix, env.line_comment_prefix, env.trim_blocks, env.lstrip_blocks,
            env.newline_sequence, env.keep_trailing_newline, tuple(sorted(env.extensions)), env.optimized,
            env.finalize, env.is_async, env.sandboxed, autoescape, _callables(env.filters), _callables(env.tests),
            source, name, filename, bool(raw), bool(defer_init))


def install() -> None:
    """Keep what jinja2.Environment.compile answers for a template's source, per process (once)."""
    import jinja2

    if hasattr(jinja2.Environment.compile, "__wrapped__"):
        return
    compile_ = jinja2.Environment.compile

    def compile(self, source, name=None, filename=None, raw=False, defer_init=False):
        if not isinstance(source, str):  # a parsed template (nodes): as Jinja does it
            return compile_(self, source, name, filename, raw, defer_init)
        k = key(self, source, name, filename, raw, defer_init)
        code = _MEMO.get(k)
        if code is None:
            code = _MEMO[k] = compile_(self, source, name, filename, raw, defer_init)
        return code

    compile.__wrapped__ = compile_
    jinja2.Environment.compile = compile


def prefill(folder: str | os.PathLike | None) -> None:
    """Put every template of the package into the memo, as the product's environment compiles it: its code
    read from `folder` (the controller's compiled templates, one cache file each) where it is there, compiled
    here otherwise. The product's environment itself is made apart (render's cached one is left unmade: a
    forked child makes its own, with its own cache folder)."""
    from flamer_ref import render, templatecache

    install()
    env = render.environment.__wrapped__()
    cache = templatecache.bytecode_cache(Path(folder)) if folder else None
    for name in env.list_templates():
        source, filename, _ = env.loader.get_source(env, name)
        code = cache.get_bucket(env, name, filename, source).code if cache is not None else None
        if code is None:
            env.compile(source, name, filename)  # kept by the memo
        else:
            _MEMO[key(env, source, name, filename, False, False)] = code
