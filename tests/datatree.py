"""A minimal data tree (rules/ and cards/) for tests that change data: MINIMAL, CorpusTree, write_minimal_corpus.
Imported by tests/conftest.py (the `tree` fixture) and by tests that write trees of their own."""

from __future__ import annotations

from pathlib import Path


MINIMAL: dict[str, str] = {
    "rules/sources.yaml": """\
# yaml-language-server: $schema=../schemas/sources.schema.json
sources:
- id: page.combat
  title: 전투턴
  header: 더 플래머 룰 상세
  seed: 000_test.txt
  version: null
""",
    "rules/clauses/a.yaml": """\
# yaml-language-server: $schema=../../schemas/clauses.schema.json
section: {id: a, title: 가 섹션, order: 10}
clauses:
- id: a.first
  title: 첫 조항
  source: page.combat
  text: 첫 조항의 본문.
  see_also: [a.second]
  keywords: [첫째]
- id: a.second
  title: 둘째 조항
  source: [page.combat]
  text: 둘째 조항의 본문.
""",
    "rules/rulings.yaml": """\
# yaml-language-server: $schema=../schemas/rulings.schema.json
rulings:
- id: ruling.2026-09-24.first
  date: 2026-09-24
  status: confirmed
  label: 확정
  title: 첫 판정
  summary: 첫 판정의 요약.
  clauses: [a.first]
  supersedes: null
  earlier_rule: null
  source: [page.combat]
""",
    "rules/faq.yaml": """\
# yaml-language-server: $schema=../schemas/faq.schema.json
faq:
- id: faq.a.first
  question: 첫 질문인가요?
  answer: 네, 첫 질문입니다.
  clauses: [a.first]
  source: page.combat
  keywords: [질문]
""",
    "rules/glossary.yaml": """\
# yaml-language-server: $schema=../schemas/glossary.schema.json
terms:
- id: term.first
  term: 첫째
  aliases: [하나]
  definition: 맨 앞의 것.
  clauses: [a.first]
  source: page.combat
""",
    "rules/examples/a.yaml": """\
# yaml-language-server: $schema=../../schemas/examples.schema.json
examples:
- id: ex.a.first
  title: 첫 예시
  type: board
  source: page.combat
  situation: 상황.
  steps: [첫 단계, 둘째 단계]
  result: 결과.
  clauses: [a.second]
  rulings: [ruling.2026-09-24.first]
  scenario: {kind: combat, attacker: DGM, cells: {"1,1": {DGM: [{id: a, card: 수문장}], BGM: [{id: b, name: 적, lv: 1, hp: 1, atk: 1}]}}}
""",
    "cards/cards.yaml": """\
# yaml-language-server: $schema=../schemas/cards.schema.json
cards:
- name: 수문장
  aliases: []
  type: piece
  faction: DGM
  grade: null
  lv: 3
  hp: 3
  atk: 1
  cost: null
  structure: false
  abilities:
  - name: 수호방패
    timing: 전투
    kind: sp
    text: 수비자일 때만 발동한다.
    source: page.combat
    effect: null
  stat_sources:
    lv: {source: page.combat, quote: "수문장 Lv3"}
    hp: {source: page.combat, quote: "HP3"}
    atk: {source: page.combat, quote: "ATK1"}
  notes: null
  sources: [page.combat]
""",
}


class CorpusTree:
    """A data root on disk (rules/, cards/) with small editing helpers."""

    def __init__(self, root: Path):
        self.root = root

    def write(self, rel: str, text: str) -> Path:
        path = self.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return path

    def read(self, rel: str) -> str:
        return (self.root / rel).read_text(encoding="utf-8")

    def replace(self, rel: str, old: str, new: str) -> None:
        text = self.read(rel)
        assert text.count(old) == 1, f"{old!r} must occur exactly once in {rel}"
        self.write(rel, text.replace(old, new))

    def append(self, rel: str, text: str) -> None:
        self.write(rel, self.read(rel) + text)

    def line_of(self, rel: str, snippet: str, nth: int = 1) -> int:
        """1-based line number of the nth line containing snippet."""
        hits = [i for i, line in enumerate(self.read(rel).splitlines(), 1) if snippet in line]
        assert len(hits) >= nth, f"{snippet!r} not found {nth} time(s) in {rel}"
        return hits[nth - 1]


def write_minimal_corpus(root: Path) -> CorpusTree:
    tree = CorpusTree(root)
    for rel, text in MINIMAL.items():
        tree.write(rel, text)
    return tree
