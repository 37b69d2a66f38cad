"""The suite's memo of Jinja's compiling (tests/templatememo.py) answers what Jinja answers: the same code for
every template of the package, another key wherever the code would differ, and a forked `flamer` (whose
server starts with the memo filled) keeps in its cache folder the very code a real process compiles."""

from __future__ import annotations

import jinja2
import pytest

import flamer_fork
import templatememo
from flamer_ref import cachefile, render


def _jinja_compile(env, source, name, filename, raw=False):
    return jinja2.Environment.compile.__wrapped__(env, source, name, filename, raw)


def test_the_memo_is_in_place_and_answers_what_jinja_compiles():
    assert getattr(jinja2.Environment.compile, "__wrapped__", None) is not None  # conftest installed it
    env = render.environment.__wrapped__()
    names = env.list_templates()
    assert len(names) > 50
    # a sample of every kind (Jinja's own compiling of all of them takes seconds): the largest, and every
    # eighth by name — text, Markdown and HTML, pages, macros and the words' templates
    size = {n: len(env.loader.get_source(env, n)[0]) for n in names}
    sample = sorted(set(sorted(names, key=size.get)[-4:]) | set(names[::8]))
    assert any(n.endswith(".html.j2") for n in sample) and any(n.endswith(".txt.j2") for n in sample)
    for name in sample:
        source, filename, _ = env.loader.get_source(env, name)
        once, again = env.compile(source, name, filename), env.compile(source, name, filename)
        assert once is again  # kept
        assert once == _jinja_compile(env, source, name, filename), name  # and Jinja's own code
    source, filename, _ = env.loader.get_source(env, sample[0])
    # another environment of the product (its filters made anew) meets the same code: the forks' case
    other = render.environment.__wrapped__()
    assert templatememo.key(other, source, sample[0], filename, False, False) == \
        templatememo.key(env, source, sample[0], filename, False, False)
    assert other.compile(source, sample[0], filename) is env.compile(source, sample[0], filename)
    assert env.compile(source, sample[0], filename, raw=True) == _jinja_compile(env, source, sample[0], filename, raw=True)


def test_what_shapes_the_code_is_in_the_key():
    source = "{{ '사과' | josa('을/를') }}{{ x }}"

    def env(**kw):
        e = jinja2.Environment(**kw)
        e.filters["josa"] = render.josa
        return e

    base = templatememo.key(env(), source, "t.txt", "t.txt", False, False)
    assert templatememo.key(env(), source, "t.txt", "t.txt", False, False) == base  # another environment, same code
    other_filter = env()
    other_filter.filters["josa"] = lambda word, particle: word  # folded at compile time: other code
    assert templatememo.key(other_filter, source, "t.txt", "t.txt", False, False) != base
    def closing_over(particle):
        e = env()
        e.filters["josa"] = lambda word, pair: render.josa(word, particle)
        return e

    # the same code closing over other values: other folded constants
    assert templatememo.key(closing_over("을/를"), source, "t.txt", "t.txt", False, False) != \
        templatememo.key(closing_over("이/가"), source, "t.txt", "t.txt", False, False)
    assert templatememo.key(env(autoescape=True), source, "t.txt", "t.txt", False, False) != base
    assert templatememo.key(env(trim_blocks=True), source, "t.txt", "t.txt", False, False) != base
    assert templatememo.key(env(), source + " ", "t.txt", "t.txt", False, False) != base
    assert templatememo.key(env(), source, "u.txt", "t.txt", False, False) != base
    assert templatememo.key(env(), source, "t.txt", "t.txt", True, False) != base
    # and the code differs indeed where the filter was folded
    assert other_filter.from_string(source).render(x=1) == "사과1" != env().from_string(source).render(x=1)


def test_a_template_that_does_not_compile_raises_every_time():
    env = render.environment.__wrapped__()
    for _ in range(2):
        with pytest.raises(jinja2.TemplateSyntaxError):
            env.compile("{% if %}", "broken.txt", "broken.txt")


def test_a_forked_flamer_keeps_the_code_a_real_process_compiles(tmp_path):
    line = ("fight", "거신 vs 별마대, 행성굴착기(정착)")
    forked = flamer_fork.run(*line, cache=tmp_path / "fork")
    # another PYTHONHASHSEED: a fresh interpreter (tests/flamer_fork.py STARTUP_VARS), no memo
    real = flamer_fork.run(*line, cache=tmp_path / "real", env={"PYTHONHASHSEED": "12345"})
    assert forked.returncode == real.returncode == 0, (forked.stderr, real.stderr)
    assert forked.stdout == real.stdout
    kept = {p.name: p for p in (tmp_path / "fork").glob("*.template")}
    made = {p.name: p for p in (tmp_path / "real").glob("*.template")}
    assert len(kept) >= 3 and kept.keys() == made.keys()
    for name in kept:
        assert cachefile.read_cache(kept[name], b"T") == cachefile.read_cache(made[name], b"T"), name
