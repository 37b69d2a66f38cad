"""Jinja rendering of answers and explanations. Templates live in templates/;
the engine and the library never build sentences themselves."""

from __future__ import annotations

from functools import lru_cache

from .korean import display_width, josa, wrap


def _unknown(value, unknown="미상"):
    return unknown if value is None else value


def _clip(text, width):
    """Cut text to a display width (Korean syllables count two), adding '…'."""
    text = " ".join(str(text).split())
    if display_width(text) <= width:
        return text
    out, w = [], 0
    for ch in text:
        cw = display_width(ch)
        if w + cw > width - 1:
            break
        out.append(ch)
        w += cw
    return "".join(out) + "…"


def _pad(text, width):
    text = str(text)
    return text + " " * max(0, width - display_width(text))


@lru_cache(maxsize=1)
def environment():
    import jinja2

    from .paths import templates_dir

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates_dir())),
        autoescape=jinja2.select_autoescape(enabled_extensions=("html", "html.j2"), default_for_string=False),
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
    )
    env.filters["wrap"] = lambda s, indent="", width=78, hang=None: wrap(s, width=width, indent=indent,
                                                                          subsequent=hang)
    env.filters["clip"] = _clip
    env.filters["unknown"] = _unknown
    env.filters["pad"] = _pad
    env.filters["josa"] = josa
    return env


def render(template: str, **context) -> str:
    return environment().get_template(template).render(**context)
