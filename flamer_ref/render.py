"""Jinja rendering of answers and explanations. Templates live in templates/;
the engine and the library never build sentences themselves."""

from __future__ import annotations

from functools import lru_cache

from . import errors as _errors
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
#: a combat longer than EXPLAIN_ROUNDS[0] rounds is explained event by event for its first
#: EXPLAIN_ROUNDS[1] and last EXPLAIN_ROUNDS[2] rounds (as the HTML calculation table shows it)
EXPLAIN_ROUNDS = (24, 10, 5)
#: the most events one explanation words one by one (then one line says the rest are in --json)
EXPLAIN_EVENTS = 2_000


def explain(data: dict, shown) -> dict:
    """The events a people's format (text, md, html) explains one by one: those of the `shown` cells
    (None: every cell); in a combat of more than EXPLAIN_ROUNDS[0] rounds the first and last rounds,
    the rounds between becoming one ``{"type": "elided", cell, from, to, rounds}`` item; at most
    EXPLAIN_EVENTS events, then ``cut`` = how many were left out. Measured: wording 8 cells × 999
    rounds event by event took 11 s (40,000 events); --json has them all."""
    limit, head, tail = EXPLAIN_ROUNDS
    events = data.get("events") or []
    seen: dict = {}
    for e in events:
        r = e.get("round")
        if r is not None and e.get("phase") is None:
            rs = seen.setdefault(e.get("cell"), {})
            rs[r] = None
    skip: dict = {}  # cell → (first elided round, last elided round, how many)
    for cell, rs in seen.items():
        if len(rs) > limit:
            order = sorted(rs)
            skip[cell] = (order[head], order[-tail - 1], len(order) - head - tail)
    out: list = []
    marked: set = set()
    cut = 0
    for e in events:
        cell = e.get("cell")
        if shown is not None and cell is not None and cell not in shown:
            continue
        if cell in skip and e.get("phase") is None and e.get("round") is not None:
            lo, hi, n = skip[cell]
            if lo <= e["round"] <= hi:
                if cell not in marked:
                    marked.add(cell)
                    out.append({"type": "elided", "cell": cell, "from": lo, "to": hi, "rounds": n})
                continue
        if len(out) >= EXPLAIN_EVENTS:
            cut += 1
            continue
        out.append(e)
    return {"events": out, "cut": cut}


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


def _people(name: str):
    """A function of flamer_ref/people.py (names, cells, reasons), imported only when a template calls it."""
    def call(*args, **kw):
        from . import people

        return getattr(people, name)(*args, **kw)

    return call


def _cell(value) -> str:
    from .people import cell_text

    return cell_text(value)


_NAMES: list = [None, None]  # the last result whose piece names were made, and its names


def _names_of(data: dict) -> dict:
    """piece_names(data), made once for the page's result however many messages it words."""
    if _NAMES[0] is not data:
        from .people import piece_names

        _NAMES[:] = [data, piece_names(data)]
    return _NAMES[1]


_SAY = {"combat": "simulate/unresolved.txt.j2", "move": "simulate/turn_message.txt.j2",
        "victory": "simulate/turn_message.txt.j2", "field": "simulate/turn_message.txt.j2",
        "round": "simulate/round_message.txt.j2", "game": "simulate/game_message.txt.j2"}


def _say(ctx, item, kind: str = "combat", turn: str | None = None, result: dict | None = None) -> str:
    """An error's or gap's message as a person reads it on this page: the same catalogue that words the
    JSON's `message` (word_result), rendered again with the page's words — pieces by their cards, cells
    as (2,4), sides as the player wrote them (`people`, `names`, `full` of the page). An item the
    catalogue does not word (a forbidden declaration of a round) keeps its message. `result`: the result
    the item belongs to when the page shows several (--compare)."""
    if not isinstance(item, dict) or "reason" not in item or (kind == "round" and "item" in item):
        return item.get("message", "") if isinstance(item, dict) else str(item)
    data = result if result is not None else (ctx.get("data") or {})  # result: the item's own (--compare)
    words = {"people": ctx.get("people") or {}, "full": ctx.get("full", True), "refs": ctx.get("refs") or {},
             "names": ctx.get("names") or _names_of(ctx.get("data") or data)}
    try:
        if kind == "combat":
            return render(_SAY[kind], u=item, pieces=data.get("pieces") or {}, as_of=data.get("as_of"), data=data,
                          **words).strip()
        if kind == "round" and item.get("reason") in GAME_GAPS:  # a game's own gap, listed with its round's
            kind = "game"
        if kind == "round":
            turn = turn if turn is not None else item.get("turn")
            if turn in ("victory", "move"):  # a turn's own gap, listed again by the round: worded as its kind
                return render(_SAY[turn], item=item, kind=turn, data=data, **words).strip()
            if turn == "combat":
                return render(_SAY["combat"], u=item, pieces=data.get("pieces") or {}, as_of=data.get("as_of"),
                              data=data, **words).strip()
            return render(_SAY[kind], item=item, turn=turn, data=data, **words).strip()
        return render(_SAY[kind], item=item, kind=kind, data=data, **words).strip()
    except Exception:  # noqa: BLE001 - the JSON's words are always there to fall back on
        return item.get("message") or item.get("reason", "")


def _plain(value) -> str:
    """A plain str again. A macro imported from a non-HTML template and called from an autoescaped one
    returns Markup (Jinja marks a macro's result safe by the caller's mode), so its text would not be
    escaped; `{{ w.line(e) | plain }}` escapes it like any other value."""
    return "" if value is None else str.__str__(str(value))


def _yaml_comment(value) -> str:
    """Text for a `# …` comment line of a YAML file (yamltext.comment_text: no line break YAML knows)."""
    from .yamltext import comment_text

    return comment_text(value)


def _cited(value, refs=None) -> tuple[str, dict | None]:
    """(id, what is cited) for a clause_label argument: an id looked up in refs, or a dict itself."""
    if isinstance(value, dict):
        return str(value.get("id") or ""), value
    key = "" if value is None else str(value)
    return key, (refs.get(key) if isinstance(refs, dict) else None)


def _kind(key: str, rec: dict) -> str:
    if rec.get("kind"):
        return rec["kind"]
    return "interpretation" if key.startswith("interp.") else "ruling" if key.startswith("ruling.") else "clause"


def clause_number(value, refs=None) -> str:
    """How a cited clause is numbered: '6.26', '해석 6.14-1', a ruling '2026-09-24 확정' ('' if unknown)."""
    key, rec = _cited(value, refs)
    if not rec:
        return ""
    kind = _kind(key, rec)
    if kind == "ruling":
        return f"{rec.get('date', '')} {rec.get('label', '')}".strip()
    number = rec.get("number") or ""
    return f"해석 {number}" if kind == "interpretation" and number else number


def clause_label(value, refs=None) -> str:
    """THE way every output cites a clause (one place: templates/ call this filter): its number and
    title ('6.26 7단계 정리 — 남은 정착 기물 일괄 포획'), an interpretation '해석 6.14-1 동률 판정의 …',
    a ruling by its date ('2026-09-25 확정 — 정착만 있는 셀 진입도 전투'). `value` is an id looked up in
    `refs` (runner.refs / lookup.cite_refs) or a dict with id, title and number; an id not there is shown
    as it is."""
    key, rec = _cited(value, refs)
    if not rec:
        return key
    title = rec.get("title") or key
    number = clause_number(value, refs)
    if _kind(key, rec) == "ruling":
        return f"{number} — {title}" if number else title
    return f"{number} {title}" if number else title


def _pad(text, width):
    text = str(text)
    return text + " " * max(0, width - display_width(text))


def _corpus_in_use():
    """The corpus the answer came from: the one `corpus.citing` names (validate --data), else the default
    data tree's (FLAMER_DATA, the bundled data, the calculator's prebuilt data); None when no data can be
    loaded (wording then falls back to the plain form: 조항 <id>, 파괴)."""
    from .corpus import in_use, load
    from .errors import DataError

    got = in_use()
    if got is None:
        try:
            got = load()
        except (DataError, OSError):
            return None
    return got


def rule_no(cid: str) -> str:
    """'조항 4.8' for a clause id, numbered by the loaded data itself (a message that names a rule without
    a corpus at hand: a problem, a refused one-line fight) — the number `flamer rule` gives, whatever
    rules/numbers.lock.yaml says; '조항 move.limit' only when the data has no such clause."""
    corpus = _corpus_in_use()
    rec = corpus.clauses.get(cid) if corpus is not None else None
    return f"조항 {(rec or {}).get('number') or cid}"


def ruling_date(rid) -> str:
    """A ruling's date as the data says it (the loaded data: a message names the day from rules/rulings.yaml,
    never from the ruling's id); '날짜 미상' when the data has no such ruling."""
    corpus = _corpus_in_use()
    rec = corpus.rulings.get(rid) if corpus is not None and isinstance(rid, str) else None
    return rec["date"] if rec else "날짜 미상"


def ruling_label(rid) -> str:
    """A ruling's label as the data says it (확정, 명문화, 개정 …), '' when the data has no such ruling."""
    corpus = _corpus_in_use()
    rec = corpus.rulings.get(rid) if corpus is not None and isinstance(rid, str) else None
    return rec["label"] if rec else ""


def decision_ruling(name: str, as_of: str):
    """The ruling an explanation cites for decision `name` on `as_of` (engine/decisions.py), from the loaded
    data: for words about a decision whose event names no ruling (a retirement under '영구 적용')."""
    from .engine.decisions import rules_at
    from .errors import DataError

    corpus = _corpus_in_use()
    try:
        return rules_at(corpus, as_of).peek(name).cite if corpus is not None and as_of else None
    except (DataError, KeyError):
        return None


def _cost_verbs(corpus) -> dict:
    """Card → how the rulebook words paying its cost: 헌납 where the card's cost is worded so in
    cards/effects.yaml (`choose: {cost: 헌납할 …}` — 진내폭격, 피 땀 눈물; the pages say '진내폭격의 헌납'),
    else 파괴 (기폭의 개미 파괴, 폭약 파괴). Read once per corpus, through the data layer's gate."""
    got = corpus.__dict__.get("_cost_verbs")
    if got is not None:
        return got
    from .errors import DataError

    try:
        doc, _name = corpus.effects_document()
    except (DataError, OSError):
        doc = None
    got = {}
    for item in (doc.get("effects") if isinstance(doc, dict) else None) or []:
        choose = item.get("choose") if isinstance(item, dict) else None
        phrase = choose.get("cost") if isinstance(choose, dict) else None
        if isinstance(phrase, str) and phrase.startswith("헌납") and isinstance(item.get("card"), str):
            got[item["card"]] = "헌납"
    corpus.__dict__["_cost_verbs"] = got
    return got


def cost_verb(card) -> str:
    """'헌납' or '파괴': the rulebook's word for paying `card`'s cost (a piece destroyed as the cost)."""
    corpus = _corpus_in_use() if isinstance(card, str) else None
    return _cost_verbs(corpus).get(card, "파괴") if corpus is not None else "파괴"


def cost_cards(data) -> dict:
    """Piece → the card whose cost it paid: each `cost` event of a combat result matched with the
    `declare` event it belongs to (the same `index`, both in the response turn or both at step 1), so a
    cost is worded with its card's word (cost_verb: 진내폭격의 헌납, 기폭의 파괴)."""
    events = data.get("events") if isinstance(data, dict) else None
    if not isinstance(events, list):
        return {}
    declared: dict = {}
    for e in events:
        if isinstance(e, dict) and e.get("type") == "declare":
            declared[(e.get("phase") == "response", e.get("index"))] = e.get("card")
    out: dict = {}
    for e in events:
        if isinstance(e, dict) and e.get("type") == "cost":
            out[e.get("piece")] = declared.get((e.get("phase") == "response", e.get("index")))
    return out


@lru_cache(maxsize=1)
def _environment_class(jinja2):
    """jinja2.Environment whose `x.name` reads a plain dict's (or a frozen result's) key at once. Jinja
    first tries the attribute and, when that raises AttributeError, the key; our templates read dicts
    (the engine's JSON, the corpus's records: 69,000 reads in the handbook alone), so nearly every
    read raised and caught an exception first. A name that is no attribute of dict (or of
    MappingProxyType) can only be a key, so the answer is Jinja's own, the undefined one included."""
    from types import MappingProxyType

    dict_names, proxy_names = frozenset(dir(dict)), frozenset(dir(MappingProxyType))
    base_getattr = jinja2.Environment.getattr

    class Environment(jinja2.Environment):
        def getattr(self, obj, attribute):
            kind = type(obj)
            if (kind is dict and attribute not in dict_names) or (kind is MappingProxyType and attribute not in proxy_names):
                try:
                    return obj[attribute]
                except KeyError:
                    return self.undefined(obj=obj, name=attribute)
            return base_getattr(self, obj, attribute)

    return Environment


@lru_cache(maxsize=1)
def environment():
    """The one Jinja environment of the process (cached: Jinja compiles each template once; web.setup
    points this same object at the site's precompiled templates). In a command-line process
    (templatecache.ENABLED) the compiled templates are also kept in the cache folder for the next process."""
    import jinja2

    from . import templatecache
    from .paths import templates_dir

    cache = templatecache.bytecode_cache() if templatecache.ENABLED else None
    env = _environment_class(jinja2)(
        loader=jinja2.FileSystemLoader(str(templates_dir())),
        bytecode_cache=cache,
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
    env.filters["yaml_comment"] = _yaml_comment  # every value written into a YAML comment goes through it
    env.globals["cost_verb"] = cost_verb  # 진내폭격의 헌납, 기폭의 개미 파괴
    env.globals["cost_cards"] = cost_cards  # piece paid as a cost → its declaration's card
    env.globals["rule_no"] = rule_no  # '조항 4.8' for an id (the loaded data's number), in messages made without a corpus
    env.globals["ruling_date"] = ruling_date  # a ruling's date from the loaded data
    env.globals["ruling_label"] = ruling_label
    env.globals["decision_ruling"] = decision_ruling
    env.globals["diagram"] = _diagram
    env.globals["verdict"] = _verdict
    env.globals["game_round"] = game_round_view  # one round of a game in kind round's shape
    env.globals["first_illegal_item"] = first_illegal_item  # the game's first refused play, as its round's error
    # a combat of more cells than this is explained event by event for its first cells only (people's
    # formats; --json has everything): 1,000 cells of wording took ten seconds and nobody reads it
    env.globals["EXPLAIN_CELLS"] = EXPLAIN_CELLS
    env.globals["explain"] = explain  # and long combats' middle rounds, and past EXPLAIN_EVENTS events
    env.filters["plain"] = _plain
    # what a person reads instead of codes: card names for piece ids, (2,4) for cells, the reasons that
    # decided a combat and what changed between two dates (flamer_ref/people.py; words: _people.j2)
    env.filters["cell"] = _cell
    env.globals["piece_names"] = _people("piece_names")
    env.globals["combat_reasons"] = _people("combat_reasons")
    env.globals["compare_outcomes"] = _people("compare_outcomes")
    env.globals["say"] = jinja2.pass_context(_say)
    env.filters["clause_label"] = clause_label  # the one way a clause is cited: '6.26 7단계 정리 — …'
    env.filters["clause_number"] = clause_number
    return env


def render(template: str, **context) -> str:
    return environment().get_template(template).render(**context)


_EXT = {"text": "txt", "md": "md", "html": "html"}


def render_result(data: dict, fmt: str, **context) -> str:
    """A `flamer simulate` answer in text, md or html: templates/simulate/<kind>.<ext>.j2.
    A kind with no template of that format (e.g. --all-branches) is its text answer, shown as
    it is in a Markdown code block or inside the HTML page (escaped, never marked safe).

    context: refs (clause titles); people (what the player wrote: see templates/simulate/_people.j2);
    full (cite clauses by id: a judge asked for citations); short (flamer fight at the table: the
    verdict and the reasons that decided it — short.<ext>.j2; in html, the story folded under them)."""
    import re

    import jinja2

    env = environment()
    word_result(data)
    kind = data.get("kind", "combat")
    name = f"simulate/{kind}.{_EXT[fmt]}.j2"
    if context.get("short") and fmt != "html" and kind in ("combat", "compare"):
        # flamer fight at the table: the verdict and the reasons that decided it (--full: the story)
        return env.get_template(f"simulate/short.{_EXT[fmt]}.j2").render(data=data, **context)
    if kind == "by-value":  # each range's own answer, as that kind's text, under the verdict per range
        context = {**context, "parts": [render_result(r["result"], "text", **context) for r in data["ranges"]]}
    text = None
    if fmt != "text" and kind in ("compare", "branches", "by-value"):  # their pages show the text answer as well
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
    elif kind == "game":
        _word_game(data)
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
        for item in res.get("field_errors", []):  # field actions in the move / combat turn
            _fill(item, "simulate/round_message.txt.j2", turn=t["turn"], data=out)
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
            copy_messages(per_side.get("errors", []), t["result"].get("errors", []) + t["result"].get("field_errors", []))


def game_round_view(data: dict, entry: dict) -> dict:
    """One round of a game result in kind round's shape (the same turn results, not copies): what
    the round templates and _word_round read."""
    return {"kind": "round", "title": None, "as_of": data.get("as_of"), "player": entry.get("player"),
            "opponent": entry.get("opponent"), "turns": entry.get("turns", []), "ended": entry.get("ended"),
            "final": entry.get("final", {}), "events": entry.get("events", []),
            "unresolved": entry.get("unresolved", []), "assumed": entry.get("assumed", []),
            "pieces": data.get("pieces", {}), "board": data.get("board", {}),
            "vp_before": entry.get("vp_before", {}), "dor_before": entry.get("dor_before", {}),
            "game_round": entry.get("round")}


#: gaps a game adds to its rounds (worded by game_message.txt.j2)
GAME_GAPS = frozenset({"home-win-contested"})


def _word_game(data: dict) -> None:
    """A game: each round worded as a round, the plays refused before a round ran (a piece no longer on
    the board), the game-level copies of the rounds' gaps, and `first_illegal` as its error."""
    for entry in data.get("rounds", []):
        for u in entry.get("unresolved", []):  # the game's own gaps (engine/game.py), before the round's words
            if u.get("reason") in GAME_GAPS:
                _fill(u, "simulate/game_message.txt.j2", data=data)
        view = game_round_view(data, entry)
        _word_round(view)
        for item in entry.get("errors", []):
            _fill(item, "simulate/game_message.txt.j2", data=data)
    by_round = {e.get("round"): e for e in data.get("rounds", [])}
    for u in data.get("unresolved", []):
        if "message" in u:
            continue
        entry = by_round.get(u.get("round")) or {}
        src = next((s for s in entry.get("unresolved", [])
                    if {k: v for k, v in s.items() if k != "message"} == {k: v for k, v in u.items()
                                                                         if k not in ("message", "round")}), None)
        u["message"] = src.get("message") if src is not None and src.get("message") else u.get("reason")
    fi = data.get("first_illegal")
    if isinstance(fi, dict) and "message" not in fi:
        item, _ = first_illegal_item(data)
        fi["message"] = (item or {}).get("message") or fi.get("reason")


def first_illegal_item(data: dict) -> tuple[dict | None, str | None]:
    """The error item a game's `first_illegal` points at (its `source`), and the turn it belongs to
    (None: a play refused before its round ran, worded by game_message.txt.j2): what people's pages
    word again with say() instead of the JSON's message. (None, None) when there is none."""
    fi = data.get("first_illegal") if isinstance(data, dict) else None
    if not isinstance(fi, dict):
        return None, None
    entry = next((e for e in data.get("rounds") or () if e.get("round") == fi.get("round")), None) or {}
    src = fi.get("source") or []
    try:
        if src and src[0] == "errors":
            return entry["errors"][src[1]], None
        if src and src[0] == "turns":
            t = next(t for t in entry["turns"] if t["turn"] == src[1])
            return t["result"]["errors"][src[2]], src[1]
    except (KeyError, IndexError, StopIteration, TypeError):
        pass
    return None, None


def notice_lines(scn) -> list[str]:
    """One Korean line per card-name correction of a parsed scenario (any kind), for stderr."""
    return [render("scenario/notice.txt.j2", n=n).strip() for n in scn.notices]


# the words of coded problems and forbidden plays, for errors.Problem and errors.Forbidden (which import
# no renderer): registered when the presentation layer is imported
_errors.use_wording(problem_words, forbidden_words)
