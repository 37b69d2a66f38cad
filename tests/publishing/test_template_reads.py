"""`x.name` in our templates reads as plain Jinja reads it (render.environment's quicker dict read): a key,
a dict's own method where the name is one, the undefined error for a missing key, and the same for the
engine's frozen results (MappingProxyType) and for other objects."""

from __future__ import annotations

from types import MappingProxyType, SimpleNamespace

import jinja2
import pytest

from flamer_ref import render

CASES = [
    ("{{ d.name }}", {"d": {"name": "거신"}}),
    ("{{ d.items() | list }}", {"d": {"items": 1, "b": 2}}),  # the method, not the key
    ("{{ d.get('a') }}/{{ d.keys() | list }}", {"d": MappingProxyType({"a": 1, "keys": 2})}),
    ("{{ d.hp }}", {"d": MappingProxyType({"hp": None})}),
    ("{{ n.card }}", {"n": SimpleNamespace(card="별마대")}),
    ("{% for x in xs %}{{ loop.index }}{{ x.a }}{% endfor %}", {"xs": [{"a": "가"}, {"a": "나"}]}),
    ("{{ d[1] }}", {"d": {1: "하나"}}),
]


def _plain_env():
    return jinja2.Environment(autoescape=False, undefined=jinja2.StrictUndefined)


@pytest.mark.parametrize("source,values", CASES)
def test_reads_as_jinja_reads(source, values):
    ours = render.environment().from_string(source).render(**values)
    assert ours == _plain_env().from_string(source).render(**values)


@pytest.mark.parametrize("values", [{"d": {"name": 1}}, {"d": MappingProxyType({})}])
def test_a_missing_key_is_the_same_undefined_error(values):
    with pytest.raises(jinja2.UndefinedError) as ours:
        render.environment().from_string("{{ d.missing }}").render(**values)
    with pytest.raises(jinja2.UndefinedError) as plain:
        _plain_env().from_string("{{ d.missing }}").render(**values)
    assert str(ours.value) == str(plain.value)


def test_the_quick_read_is_used():
    env = render.environment()
    assert type(env).getattr is not jinja2.Environment.getattr
    d = {"x": 1, "items": 2}
    assert env.getattr(d, "x") == 1 and env.getattr(d, "items") == d.items
