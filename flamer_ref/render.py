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


_MD_INLINE = str.maketrans({c: "\\" + c for c in "\\`*_[]|~"})
_MD_HTML = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;"})


def md_escape(value) -> str:
    """Input-derived text made inert in Markdown: no emphasis, links, code, table cells,
    headings or list items, and no raw HTML (``<`` becomes ``&lt;``, which CommonMark shows
    as ``<``). Newlines become spaces (a line break would end a table row or a list item)."""
    import re

    if value is None:
        return ""
    text = " ".join(str(value).splitlines())
    text = text.translate(_MD_HTML).translate(_MD_INLINE)
    # what would start a block at a line start: a heading, a list item, a rule or setext underline
    if re.match(r"#{1,6}(\s|$)|[-+](\s|$)|(=+|-+)\s*$", text):
        text = "\\" + text
    return re.sub(r"^(\d{1,9})([.)])(?=\s|$)", r"\1\\\2", text)


def _diagram(name: str, *args, **kw):
    """Geometry for the HTML pages (flamer_ref/diagram.py), imported only when a page needs it."""
    from . import diagram

    return getattr(diagram, name)(*args, **kw)


def _verdict(data):
    """The structured verdict of a simulate result (flamer_ref/verdict.py), for the _verdict templates."""
    from .verdict import build

    return build(data)


def _plain(value) -> str:
    """A plain str again. A macro imported from a non-HTML template and called from an autoescaped one
    returns Markup (Jinja marks a macro's result safe by the caller's mode), so its text would not be
    escaped; `{{ w.line(e) | plain }}` escapes it like any other value."""
    return "" if value is None else str.__str__(str(value))


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
    env.filters["md"] = md_escape
    env.globals["diagram"] = _diagram
    env.globals["verdict"] = _verdict
    env.filters["plain"] = _plain
    return env


def render(template: str, **context) -> str:
    return environment().get_template(template).render(**context)


_EXT = {"text": "txt", "md": "md", "html": "html"}


def render_result(data: dict, fmt: str, **context) -> str:
    """A `flamer simulate` answer in text, md or html: templates/simulate/<kind>.<ext>.j2.
    A kind with no template of that format (e.g. --all-branches) is its text answer, shown as
    it is in a Markdown code block or inside the HTML page (escaped, never marked safe)."""
    import re

    import jinja2

    env = environment()
    kind = data.get("kind", "combat")
    name = f"simulate/{kind}.{_EXT[fmt]}.j2"
    text = None
    if fmt != "text" and kind in ("compare", "branches"):  # their pages show the text answer as well
        text = env.get_template(f"simulate/{kind}.txt.j2").render(data=data, **context).rstrip("\n")
        context = {**context, "text": text}
    try:
        return env.get_template(name).render(data=data, **context)
    except jinja2.TemplateNotFound as exc:
        if exc.name != name or fmt == "text":
            raise
    if text is None:
        text = env.get_template(f"simulate/{kind}.txt.j2").render(data=data, **context).rstrip("\n")
        context = {**context, "text": text}
    if fmt == "md":
        fence = "`" * max(3, 1 + max((len(r) for r in re.findall(r"`+", text)), default=0))
        return f"{fence}text\n{text}\n{fence}\n"
    return env.get_template("simulate/_text.html.j2").render(data=data, **context)
