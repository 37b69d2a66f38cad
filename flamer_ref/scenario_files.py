"""Scenario YAML for people to start from: the commented templates of
`flamer scenario new KIND` (templates/scenario/new/KIND.yaml, plain YAML text)
and the scenario of a worked example, `flamer example ID --scenario`.

Both print YAML that `flamer simulate -` resolves as printed. An example that
holds several scenarios (a list, checked by `flamer examples` as ID#1, ID#2 …)
prints one of them: `ID#n` picks the n-th; plain `ID` prints the first and says
on stderr (and in the YAML's header comment) that there are more."""

from __future__ import annotations

import re
from pathlib import Path

from .engine.aliases import KIND_KO, kind_value
from .errors import DataError, FlamerError, NotFound, Problem

#: the kinds `flamer scenario new` knows, canonical; a kind whose template file is missing is not offered
NEW_KINDS = ("combat", "move", "victory", "field", "round", "game")


class UnknownKind(ValueError):
    """A kind name `scenario new` does not know (a usage error)."""

    def __init__(self, kind: str, available: list[str], planned: bool = False):
        super().__init__(kind)
        self.kind, self.available, self.planned = kind, available, planned


def _template_dir() -> Path:
    from .paths import templates_dir

    return templates_dir() / "scenario" / "new"


def available_kinds() -> list[str]:
    d = _template_dir()
    return [k for k in NEW_KINDS if (d / f"{k}.yaml").is_file()]


def template_text(kind: str) -> str:
    """The commented Korean template for `kind` (Korean or English name). Raises UnknownKind."""
    canon = kind_value(kind.strip()) if isinstance(kind, str) else kind
    have = available_kinds()
    if canon not in have:
        raise UnknownKind(kind, have, planned=canon in NEW_KINDS)
    return (_template_dir() / f"{canon}.yaml").read_text(encoding="utf-8")


def kinds_text(kinds: list[str]) -> str:
    """'전투(combat), 이동(move), …' for messages."""
    return ", ".join(f"{KIND_KO.get(k, k)}({k})" for k in kinds)


# -------------------------------------------------------------- examples ----
def _entries(corpus) -> dict[str, dict]:
    out = {eid: {"id": eid, "title": e["title"], "scenario": e.get("scenario")} for eid, e in corpus.examples.items()}
    for fid, f in corpus.faq.items():
        if f.get("scenario"):
            out[fid] = {"id": fid, "title": f["question"], "scenario": f["scenario"]}
    return out


def example_scenario(corpus, example_id: str, handle: str | None = None) -> dict:
    """{id, title, index, count, scenario, yaml} for `ID` or `ID#n` (an example or an FAQ entry).
    `handle`: what a person types for the example (its number, FAQ4), said in the YAML's header and the
    note instead of the id.

    Raises NotFound for an unknown id (with the nearest ids) and FlamerError for an example
    without a scenario or an `#n` out of range."""
    base, _, num = example_id.partition("#")
    entries = _entries(corpus)
    entry = entries.get(base)
    if entry is None:
        from difflib import get_close_matches

        near = get_close_matches(base, list(entries), n=5, cutoff=0.4)
        from .korean import josa

        raise NotFound(f"예시 {josa(repr(base), '이/가')} 없습니다.", [(n, entries[n]["title"]) for n in near])
    scn = entry["scenario"]
    if not scn:
        raise FlamerError(f"예시 '{base}'에는 시나리오가 없습니다 — 페이지가 결과를 시나리오로 옮길 만큼 말하지 않는 "
                          "예시입니다. 시나리오가 있는 예시는 flamer examples로 봅니다.")
    scenarios = scn if isinstance(scn, list) else [scn]
    if num:
        from .digits import fold

        num = fold(num).strip()  # #２ is #2; a digit that is no decimal digit (#²) is no number
        if not (num.isascii() and num.isdigit()) or not 1 <= int(num) <= len(scenarios):
            if len(scenarios) == 1:
                raise FlamerError(f"예시 '{base}'의 시나리오는 하나뿐입니다 — 번호 없이 '{base}'로 적으세요.")
            raise FlamerError(f"예시 '{base}'의 시나리오는 {len(scenarios)}개입니다 — "
                              f"'{base}#1'부터 '{base}#{len(scenarios)}'까지 중에서 고르세요.")
        index = int(num)
    else:
        index = 1
    chosen = scenarios[index - 1]
    shown = handle or base
    return {"id": base, "handle": shown, "title": entry["title"], "index": index, "count": len(scenarios),
            "picked_by": "id" if num else "default", "scenario": chosen,
            "yaml": to_yaml(_empty_slots(chosen), header=_header(shown, entry["title"], index, len(scenarios)))}


#: how an empty field slot is written in a scenario people read (the loader takes it, and null, as empty)
EMPTY_SLOT = "빈자리"


def _empty_slots(scenario):
    """The scenario with each empty field slot (null) written as 빈자리, the rulebook's word."""
    if not isinstance(scenario, dict) or "field" not in scenario:
        return scenario

    def row(slots):
        return [EMPTY_SLOT if x is None else x for x in slots] if isinstance(slots, list) else slots

    field = scenario["field"]
    field = row(field) if isinstance(field, list) else (
        {k: row(v) for k, v in field.items()} if isinstance(field, dict) else field)
    return {**scenario, "field": field}


def _header(eid: str, title: str, index: int, count: int) -> str:
    """The `#` comment lines on top of an example's scenario; the id (or the number a person types) and the
    title come from a data tree and go through the `yaml_comment` filter (yamltext.comment_text): they can
    never end a comment."""
    from .render import render

    return render("scenario/example_header.txt.j2", id=eid, title=title, index=index, count=count)


def to_yaml(scenario: dict, header: str = "") -> str:
    """A scenario object as YAML that the strict loader reads back to the same object, laid out
    as people write scenarios: pieces, moves, short maps and lists of cells on one line each."""
    import re

    from .yamlio import SafeDumper, comment_header, dump, needs_quotes

    cell = re.compile(r"^-?\d+,-?\d+$")

    def scalar(v) -> bool:
        return v is None or isinstance(v, (str, int, float, bool))

    def flat(v, depth: int = 0) -> bool:  # fits inline: scalars, a list of scalars, a small map of those
        if scalar(v):
            return True
        if isinstance(v, list):
            return all(scalar(x) for x in v)
        return isinstance(v, dict) and depth == 0 and len(v) <= 3 and all(flat(x, 1) for x in v.values())

    class _Dumper(SafeDumper):
        pass

    def _str(dumper, data):
        # text that a block or plain style would not carry back unchanged: double-quoted; cells "x,y" quoted
        style = '"' if needs_quotes(data) or cell.match(data) else ("|" if "\n" in data else None)
        return dumper.represent_scalar("tag:yaml.org,2002:str", data, style=style)

    def _list(dumper, data):
        inline = all(scalar(x) or (isinstance(x, dict) and len(x) == 1 and all(scalar(v) for v in x.values()))
                     for x in data)
        return dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=inline)

    def _dict(dumper, data):
        inline = data is not doc and bool(data) and len(data) <= 8 and all(flat(v) for v in data.values())
        return dumper.represent_mapping("tag:yaml.org,2002:map", data.items(), flow_style=inline)

    _Dumper.add_representer(str, _str)
    _Dumper.add_representer(list, _list)
    _Dumper.add_representer(dict, _dict)
    doc = _plain(scenario)
    body = dump(doc, _Dumper, width=110)
    return comment_header(header) + body


def _plain(obj):
    if isinstance(obj, dict):
        return {k: _plain(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_plain(v) for v in obj]
    return obj


# ------------------------------------------------------------- reading ----
# Scenario files are read here (the data layer); the engine parses objects it is given.
#: how standard input is named in messages
STDIN_NAME = "표준 입력"


def load_any(path: str | Path, corpus, display: str | None = None):
    """Read and parse a scenario file of any kind (engine.turns.parse_any); "-" reads standard input."""
    from .engine.turns import parse_any
    from .yamlio import read_scenario, read_stdin

    if str(path) == "-":
        name = STDIN_NAME if display in (None, "-") else display
        doc = read_stdin(name)
    else:
        name = display or str(path)
        doc = read_scenario(Path(path), name)
    return _in_writers_words(parse_any, doc, name, corpus)


def load_scenario(path: str | Path, corpus, display: str | None = None):
    """Read and parse a combat scenario file (engine.scenario.parse)."""
    from .engine.scenario import parse
    from .yamlio import read_scenario

    name = display or str(path)
    return _in_writers_words(parse, read_scenario(Path(path), name), name, corpus)


def korean_keys(doc) -> bool:
    """Whether a scenario is written with Korean keys (one Hangul key on its top level is enough)."""
    return isinstance(doc, dict) and any(
        isinstance(k, str) and any("\uac00" <= ch <= "\ud7a3" for ch in k) for k in doc)


#: a canonical key → the Korean key a message names it by (the first alias of aliases.KEYS)
def _korean_key_names() -> dict[str, str]:
    from .engine.aliases import KEYS

    out: dict[str, str] = {}
    for table in KEYS.values():
        for alias, canon in table.items():
            if not alias.isascii():
                out.setdefault(canon, alias)
    return out


_LISTED = re.compile(r"\b[a-z_]+\(([^/)]+)[^)]*\)")


def _in_writers_words(parse, doc, name, corpus):
    """Parse; the problems of a scenario written with Korean keys name the keys in Korean: a key the
    file does not have (`[attacker]`: 필수 키 'attacker'(공격자)) is named `[공격자]`: 필수 키 '공격자', and the
    lists of allowed keys give the Korean ones. The problems' codes and places do not change."""
    try:
        return parse(doc, name, corpus)
    except DataError as exc:
        if not korean_keys(doc) or type(exc) is not DataError:
            raise
        names = _korean_key_names()
        out = []
        for p in exc.problems:
            key = p.key
            if key:
                head, dot, rest = key.partition(".")
                key = names.get(head, head) + dot + rest
            if p.code is not None:
                params = dict(p.params, ko=True)
                if isinstance(params.get("listing"), str):
                    params["listing"] = _LISTED.sub(r"\1", params["listing"])
                out.append(Problem(p.file, p.line, key, code=p.code, params=params))
            else:
                out.append(Problem(p.file, p.line, key, p.message, p.fix))
        raise DataError(out) from None
