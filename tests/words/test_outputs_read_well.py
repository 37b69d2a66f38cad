"""What a player reads: every sample scenario and every example, in text, md and html, through the
real command line (`flamer simulate -`), reads as Korean a person wrote: no hedged particle, no
internal error or traceback, the verdict first; every HTML page parses and draws an SVG."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from inprocess import invoke

from flamer_ref.corpus import load
from flamer_ref.scenario_files import example_scenario

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = sorted((ROOT / "scenarios").glob("*.yaml"))

HEDGED = re.compile(r"이\(가\)|을\(를\)|은\(는\)|와\(과\)|과\(와\)|\(으\)로|\(이\)|가\(이\)|를\(을\)|는\(은\)")
BROKEN = re.compile(r"내부 오류|Traceback|Error:|None\b|StrictUndefined|undefined")
# a particle after a quoted Korean word that contradicts its final consonant ("'정착'가", "'폭약'는")
WRONG_AFTER_QUOTE = re.compile(r"'([가-힣]+)'(이|가|을|를|은|는)(?=[\s,.)])")


def _final(syllable: str) -> bool:
    return (ord(syllable) - 0xAC00) % 28 != 0


def wrong_particles(text: str) -> list[str]:
    bad = []
    for word, particle in WRONG_AFTER_QUOTE.findall(text):
        has = _final(word[-1])
        if (particle in "이을은") != has:
            bad.append(f"'{word}'{particle}")
    return bad


def _cases() -> list[tuple[str, str]]:
    out = [(p.name, p.read_text(encoding="utf-8")) for p in SCENARIOS]
    corpus = load()
    for eid, ex in list(corpus.examples.items()) + list(corpus.faq.items()):
        scn = ex.get("scenario")
        if not scn:
            continue
        n = len(scn) if isinstance(scn, list) else 1
        for i in range(1, n + 1):
            key = eid if n == 1 else f"{eid}#{i}"
            out.append((key, example_scenario(corpus, key)["yaml"]))
    return out


CASES = _cases()


class _Checker(HTMLParser):
    VOID = {"meta", "br", "hr", "img", "input", "link", "col", "wbr", "area", "base", "source"}

    def __init__(self):
        super().__init__()
        self.stack: list[str] = []
        self.errors: list[str] = []
        self.tags: set[str] = set()

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.tags.add(tag)

    def handle_endtag(self, tag):
        if tag in self.VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1] if self.stack else 'nothing'}")
            if tag in self.stack:
                while self.stack and self.stack.pop() != tag:
                    pass
        else:
            self.stack.pop()


def test_cases_cover_samples_and_examples():
    assert len(SCENARIOS) >= 6
    assert len(CASES) >= len(SCENARIOS) + 30


@pytest.mark.parametrize("name,text", CASES, ids=[c[0] for c in CASES])
def test_every_output_reads_well(name, text):
    outs = {}
    for fmt in ("text", "md", "html"):
        r = invoke("simulate", "-", "--format", fmt, input=text)
        assert r.exit_code == 0, (fmt, r.output)
        outs[fmt] = r.stdout
    for fmt, out in outs.items():
        assert not HEDGED.findall(out), (fmt, HEDGED.findall(out))
        assert not BROKEN.findall(out), (fmt, BROKEN.findall(out))
    for fmt in ("text", "md"):
        assert not wrong_particles(outs[fmt]), (fmt, wrong_particles(outs[fmt]))
    # the verdict comes first: the first non-blank line of text is the verdict
    first = next(ln for ln in outs["text"].splitlines() if ln.strip())
    assert first.startswith(("판정", "결론", "이동", "승리", "필드", "불가")), first
    brief = invoke("simulate", "-", "--brief", input=text)
    assert brief.exit_code == 0
    lines = [ln for ln in brief.stdout.splitlines() if ln.strip()]
    assert 1 <= len(lines) <= 4, brief.stdout
    assert outs["text"].startswith(brief.stdout.rstrip("\n").split("\n")[0])
    checker = _Checker()
    checker.feed(outs["html"])
    checker.close()
    assert not checker.errors, checker.errors[:5]
    assert not checker.stack, checker.stack
    assert "svg" in checker.tags and "html" in checker.tags
    assert 'lang="ko"' in outs["html"] and "keep-all" in outs["html"]


def test_wrong_particle_detector_detects():
    assert wrong_particles("조항 '정착'가 없고 '폭약'는 남음") == ["'정착'가", "'폭약'는"]
    assert wrong_particles("'정착'이 '폭약'은 '개미'가") == []
