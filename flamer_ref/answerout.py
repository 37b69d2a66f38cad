"""Printing an answer (issue 29): the renderers that walk an `Answer` (flamer_ref/answer.py) — its JSON, its text,
Markdown and HTML pages, its four-line brief — for `flamer simulate` and `flamer fight`, and the calculator link
that goes out with it (`--link`), also beside a refused play.

The answer's Korean words are made here, once, by the templates (render.word_result, then the page's
template); the runner and the engine make none on a dispute's way.
"""

from __future__ import annotations

import sys
from typing import Optional

from .answer import Answer


def shown(answer: Answer) -> dict:
    """The answer's JSON with the player's own values for unknown stats (`player_stats`, after the answer's
    own keys)."""
    data = answer.data
    if answer.player and answer.one:
        data["player_stats"] = list(answer.player)
    return data


def worded(answer: Answer) -> dict:
    """shown(), with its words (made in place: render.word_result; a page's template makes them as it
    renders: render.render_result)."""
    from .render import word_result

    return word_result(shown(answer))


def write(answer: Answer, corpus, *, as_json: bool, fmt: str = "text", brief: bool = False, full: bool = True,
          short: bool = False) -> None:
    """Print the answer: JSON, or templates/simulate/<kind>.<txt|md|html>.j2; with `brief` only the verdict (at most
    four lines; with as_json, {"verdict": …, "lines": […]}).

    full: cite clauses by id (a judge asked for citations); short (fight at the table): the verdict and the
    reasons that decided it, the story folded away (render.render_result). Neither changes the JSON."""
    words = {"people": answer.people, "full": full and not brief, "short": short}
    if brief:
        _brief(worded(answer), answer.link, corpus, as_json=as_json, fmt=fmt, words=words)
        return
    if as_json:
        data = worded(answer)
        _json(dict(data, link=answer.link) if answer.link else data)
        return
    from .render import render_result
    from .runner import refs
    from .cleantext import clean  # also in HTML: autoescape does not remove ESC

    data, link = shown(answer), answer.link
    out = clean(render_result(dict(data, link=link) if link and fmt == "html" else data, fmt, refs=refs(corpus, data),
                              **words), html=fmt == "html")
    sys.stdout.write(out)
    link_line(link, fmt, out)


def _brief(data: dict, link: Optional[str], corpus, *, as_json: bool, fmt: str, words: dict) -> None:
    from .render import render
    from .runner import refs as cite

    refs = cite(corpus, data)
    text = render("simulate/_verdict.txt.j2", data=data, refs=refs, brief=True, fmt=fmt, **words)
    if as_json:
        from .verdict import build

        _json({"verdict": build(data), "lines": text.splitlines(), **({"link": link} if link else {})})
    elif fmt == "html":
        sys.stdout.write(render("simulate/brief.html.j2", data=dict(data, link=link) if link else data, refs=refs,
                                **words))
    else:
        sys.stdout.write(text)
        link_line(link, fmt, text)


def _json(obj: dict) -> None:
    from .cleantext import json_text

    sys.stdout.write(json_text(obj))


# -------------------------------------------------------------------- links ----
def link_line(link: Optional[str], fmt: str, before: str) -> None:
    """The calculator link alone on the last line of a text or Markdown answer, after a blank line
    (in Markdown its own paragraph, not a line of the verdict's quote). In HTML it is inside the page
    (a line after </html> would not be part of it); in JSON the last key."""
    if link and fmt != "html":
        sys.stdout.write(("\n" if before.endswith("\n") else "\n\n") + link_text(link, fmt) + "\n")


def link_text(link: str, fmt: str) -> str:
    """The link as a text or Markdown answer writes it: in Markdown an autolink <…>, whose inside is
    never read as markup (a '_' or '~' of an escaped value stays a letter of the address; the address
    holds no space, < or >: links.page_url)."""
    return f"<{link}>" if fmt == "md" else link


def refused_link(err, fmt: str, corpus) -> None:
    """A refused play (불가) of `fight --link` on stdout, while its message goes to stderr: the link
    alone (text, Markdown), or in HTML a page holding the refusal and the link, as a verdict's page
    holds it (a bare line would be no HTML)."""
    if fmt != "html":
        sys.stdout.write(link_text(err.link, fmt) + "\n")
        return
    from .render import render
    from .cleantext import clean

    cite_numbers(err, corpus)
    lines = [ln.strip() for ln in err.message.splitlines() if ln.strip()]
    sys.stdout.write(clean(render("simulate/forbidden.html.j2", data={"lines": lines, "link": err.link}), html=True))


def cite_numbers(exc, corpus) -> None:
    """A refusal (불가 — …) of fight / simulate cites its clause by number and title and its ruling by
    date, as every answer does (the JSON keeps the ids in `rule` / `ruling`). `corpus` loads the corpus
    (a refusal is still said, with the titles the engine gave, when it cannot be loaded)."""
    from .errors import Forbidden

    if not isinstance(exc, Forbidden):
        return
    from .runner import refs

    try:
        cited = refs(corpus(), {"rule": exc.rule, "ruling": exc.ruling})
    except Exception:  # noqa: BLE001 - a refusal is still said with the titles the engine gave
        return
    exc.cited({i: r for i, r in cited.items() if r.get("kind") != "unknown"})
