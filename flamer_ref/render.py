"""Jinja rendering of answers and explanations. Templates live in templates/;
the engine and the library never build sentences themselves."""

from __future__ import annotations

from functools import lru_cache

from .korean import clip as _clip, display_width, josa, wrap


def _unknown(value, unknown="미상"):
    return unknown if value is None else value



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


EXPLAIN_CELLS = 50


def md_fence(text) -> str:
    """A Markdown code fence that the text inside cannot close: more backticks than its longest run."""
    import re

    return "`" * max(3, 1 + max((len(r) for r in re.findall(r"`+", str(text or ""))), default=0))


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
    env.filters["pyrepr"] = repr  # a value as the problem messages have always shown it ('x', 3, None)
    env.filters["md"] = md_escape
    env.filters["fence"] = md_fence
    env.globals["diagram"] = _diagram
    env.globals["verdict"] = _verdict
    # a combat of more cells than this is explained event by event for its first cells only (people's
    # formats; --json has everything): 1,000 cells of wording took ten seconds and nobody reads it
    env.globals["EXPLAIN_CELLS"] = EXPLAIN_CELLS
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
    word_result(data)
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


# ------------------------------------------------------------ messages ----
# The engine emits structured errors and gaps only; their Korean `message` is made here, from the
# templates, by the presentation layer (the runner, the CLI, the pages) before a result is shown or
# emitted as JSON. Idempotent: an item that already has a message keeps it.
def _fill(item: dict, template: str, **context) -> None:
    if "message" not in item:
        item["message"] = render(template, item=item, **context).strip()


def _combat_gap(u: dict, result: dict) -> None:
    """The spec wants a Korean `message` on each gap of a combat result."""
    if "message" in u:
        return
    try:
        u["message"] = render("simulate/unresolved.txt.j2", u=u, pieces=result.get("pieces") or {},
                              as_of=result.get("as_of")).strip()
    except Exception:  # noqa: BLE001 - a missing template must not break the JSON
        u["message"] = u["reason"]


def _same(item: dict, source: dict) -> bool:
    """Is `item` (a round's copy of a turn's gap, with `turn`) the copy of `source`?"""
    return {k: v for k, v in item.items() if k not in ("turn", "message")} == \
        {k: v for k, v in source.items() if k not in ("turn", "message")}


def word_result(data: dict | None) -> dict | None:
    """Fill the Korean `message` of every error and gap of a simulate result (any kind, and the
    compare / branches answers that hold results), in place; returns it."""
    if not isinstance(data, dict):
        return data
    kind = data.get("kind", "combat")
    if kind == "combat":
        for u in data.get("unresolved", []):
            _combat_gap(u, data)
    elif kind in ("move", "victory", "field"):
        for item in data.get("errors", []) + data.get("unresolved", []):  # (re)worded, as always
            item["message"] = render("simulate/turn_message.txt.j2", kind=kind, item=item, data=data).strip()
    elif kind == "round":
        _word_round(data)
    elif kind == "compare":
        for res in data.get("results", {}).values():
            word_result(res)
        for ch in data.get("changes", []):
            if ch.get("what") != "unresolved":
                continue
            for date, items in ch.items():
                res = data.get("results", {}).get(date)
                if not isinstance(items, list) or not res:
                    continue
                by_key = {(u["reason"], u.get("cell")): u for u in res.get("unresolved", [])}
                for it in items:
                    src = by_key.get((it["reason"], it.get("cell")))
                    if src is not None and "message" not in it:
                        it["message"] = src.get("message")
    elif kind == "branches":
        for b in data.get("branches", []):
            if isinstance(b.get("outcome"), dict) and "kind" in b["outcome"]:
                word_result(b["outcome"])
    return data


def forbidden_words(e, refs: dict | None = None) -> tuple[str, str]:
    """The words of a play the rules forbid (errors.Forbidden or the same fields: reason, rule,
    ruling, where, detail), from templates/simulate/forbidden.txt.j2: (the whole answer, the reason
    sentence alone — its macro `why`)."""
    module = environment().get_template("simulate/forbidden.txt.j2").make_module(vars={"e": e, "refs": refs or {}})
    return str(module).strip(), " ".join(str(module.why(e)).split())


def problem_words(code: str, params: dict) -> tuple[str, str | None]:
    """The words of a coded errors.Problem: (message, fix or None), from the one catalogue
    templates/problems/scenario.txt.j2 — its macro named after the code (kebab-case → snake_case)
    gives the message, `<macro>__fix` the fix. An unknown code fails loudly (never a blank message)."""
    module = environment().get_template("problems/scenario.txt.j2").module
    name = code.replace("-", "_")
    macro = getattr(module, name, None)
    if macro is None:
        raise KeyError(f"no template for problem code {code!r} in templates/problems/scenario.txt.j2")
    fix = getattr(module, name + "__fix", None)
    message = str(macro(params)).strip()
    fixed = str(fix(params)).strip() if fix is not None else ""
    return message, fixed or None


def _word_round(out: dict) -> None:
    sources: dict[str, list] = {}
    for t in out.get("turns", []):
        res = t["result"]
        if t["turn"] in ("victory", "move"):  # the single-turn engines' results, worded as their kinds
            word_result(res)
            sources[t["turn"]] = res.get("unresolved", [])
        elif t["turn"] == "combat" and "unresolved" in res:
            for u in res["unresolved"]:
                _combat_gap(u, res)
            sources["combat"] = res["unresolved"]
        for item in res.get("errors", []):
            if "forbidden" in item:  # a declaration the rules forbid, dropped from the turn: the
                # exception's own reason sentence (errors.Forbidden.why)
                from types import SimpleNamespace

                e = SimpleNamespace(reason=item["reason"], rule=item["rule"], ruling=item.get("ruling"),
                                    detail=item.pop("forbidden"), where={"file": None, "line": None, "key": item["item"]})
                item.setdefault("message", forbidden_words(e)[1])
            _fill(item, "simulate/round_message.txt.j2", turn=t["turn"], data=out)
    for u in out.get("unresolved", []):
        if "message" in u:
            continue
        src = next((s for s in sources.get(u.get("turn"), []) if _same(u, s)), None)
        if src is not None:
            u["message"] = src["message"]
        else:
            _fill(u, "simulate/round_message.txt.j2", turn=u.get("turn"), data=out)
    # items listed twice (the round's gaps also under the turn that met them, the supply turn's
    # field-action errors also per side): the copy is worded as its original
    def copy_messages(items, originals):
        for u in items:
            if "message" not in u:
                src = next((o for o in originals if {k: v for k, v in o.items() if k != "message"} == u), None)
                if src is not None:
                    u["message"] = src.get("message")

    for t in out.get("turns", []):
        if t["turn"] in ("supply", "production", "blackout"):
            copy_messages(t["result"].get("unresolved", []), out.get("unresolved", []))
        for per_side in (t["result"].get("field_actions") or {}).values():
            copy_messages(per_side.get("errors", []), t["result"].get("errors", []))


def notice_lines(scn) -> list[str]:
    """One Korean line per card-name correction of a parsed scenario (any kind), for stderr."""
    return [render("scenario/notice.txt.j2", n=n).strip() for n in scn.notices]
