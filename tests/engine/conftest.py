"""Helpers for the engine tests: build scenarios as dicts or YAML text and run them."""

from __future__ import annotations

import textwrap

import pytest

from flamer_ref.corpus import load
from flamer_ref.engine import parse_scenario, parse_scenario_text, simulate
from flamer_ref.errors import DataError, Forbidden


@pytest.fixture(scope="session")
def corpus():
    return load()


def P(pid, lv=3, hp=3, atk=1, **kw):
    """An ad-hoc piece (not in the card database)."""
    return {"id": pid, "name": kw.pop("name", pid), "lv": lv, "hp": hp, "atk": atk, **kw}


def C(pid, card, **kw):
    """A piece of a database card."""
    return {"id": pid, "card": card, **kw}


def scenario(cells, attacker="A", **extra):
    return {"kind": "combat", "attacker": attacker, "cells": cells, **extra}


class Runner:
    def __init__(self, corpus):
        self.corpus = corpus

    def parse(self, obj, file="test.yaml"):
        if isinstance(obj, str):
            return parse_scenario_text(textwrap.dedent(obj), file, self.corpus)
        return parse_scenario(obj, file, self.corpus)

    def result(self, obj, as_of=None, **kw):
        return simulate(self.parse(obj), self.corpus, as_of=as_of, **kw)

    def __call__(self, obj, as_of=None, **kw) -> dict:
        from flamer_ref.render import word_result  # the engine emits no sentences: messages are added here

        return word_result(self.result(obj, as_of=as_of, **kw).to_json())

    def invalid(self, obj, as_of=None, **kw) -> DataError:
        """A scenario that does not resolve: malformed (DataError) or a play the rules forbid (Forbidden)."""
        with pytest.raises((DataError, Forbidden)) as info:
            self.result(obj, as_of=as_of, **kw)
        return info.value


@pytest.fixture(scope="session")
def run(corpus):
    return Runner(corpus)


def events(res, type_=None, **match):
    out = []
    for e in res["events"]:
        if type_ is not None and e["type"] != type_:
            continue
        if all(e.get(k) == v for k, v in match.items()):
            out.append(e)
    return out


def attacks(res):
    return [(e["actor"], e["target"], e["hp_before"], e["hp_after"]) for e in events(res, "attack")]
