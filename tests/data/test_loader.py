"""The strict loader and the editor schemas.

(a) every data file validates against its JSON Schema, and the schemas mirror corpus.SCHEMAS;
(b) the real corpus loads;
(c) one broken fixture per loader error: the problem names the file, the line, the key, in Korean;
(d) `flamer validate` on a broken tree: exit 1, Korean on stderr, no traceback; --json on stdout.
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path

import flamer_fork
import jsonschema
import pytest

from flamer_ref import corpus as corpus_mod
from flamer_ref.corpus import SCHEMAS, load, parse
from flamer_ref.errors import DataError, Problem
from flamer_ref.yamlio import parse_text, plain

from datatree import MINIMAL, CorpusTree

ROOT = Path(__file__).resolve().parent.parent.parent
SCHEMA_DIR = ROOT / "schemas"
HANGUL = re.compile(r"[가-힣]")

SCHEMA_FOR = {"sources.yaml": "sources", "rulings.yaml": "rulings", "faq.yaml": "faq",
              "glossary.yaml": "glossary", "cards.yaml": "cards", "timing.yaml": "timing",
              "effects.yaml": "effects", "synonyms.yaml": "synonyms",
              "phrasings.yaml": "phrasings", "numbers.lock.yaml": "numbers"}


def schema_name(rel: Path) -> str:
    if rel.parent.name in ("clauses", "examples"):
        return rel.parent.name
    if rel.parent.name == "boards":
        return "board"
    return SCHEMA_FOR[rel.name]


def data_files(root: Path) -> list[Path]:
    return sorted(p.relative_to(root) for p in [*root.glob("rules/**/*.yaml"), *root.glob("cards/*.yaml")])


def load_schema(name: str) -> dict:
    return json.loads((SCHEMA_DIR / f"{name}.schema.json").read_text(encoding="utf-8"))


def validator(name: str) -> jsonschema.Draft202012Validator:
    cls = jsonschema.Draft202012Validator
    return cls(load_schema(name), format_checker=cls.FORMAT_CHECKER)


def yaml_doc(path: Path):
    # parse_text keeps dates as the text written, as the loader does
    return plain(parse_text(path.read_text(encoding="utf-8"), str(path)))


# ------------------------------------------------------------- (a) schemas ----
REAL_FILES = data_files(ROOT)


def test_real_data_files_found():
    names = {schema_name(p) for p in REAL_FILES}
    assert names == {"sources", "clauses", "rulings", "faq", "glossary", "examples", "cards", "timing", "effects",
                     "board", "synonyms", "phrasings", "numbers"}


@pytest.mark.parametrize("name", ["sources", "clauses", "rulings", "faq", "glossary", "examples", "cards", "timing",
                                  "effects", "board", "synonyms", "numbers"])
def test_schema_is_valid_draft_2020_12(name):
    schema = load_schema(name)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema)


@pytest.mark.parametrize("rel", REAL_FILES, ids=str)
def test_real_file_validates_against_schema(rel):
    errors = sorted(validator(schema_name(rel)).iter_errors(yaml_doc(ROOT / rel)), key=lambda e: list(e.path))
    assert not errors, "\n".join(f"{list(e.path)}: {e.message}" for e in errors[:10])


@pytest.mark.parametrize("rel", REAL_FILES, ids=str)
def test_schema_comment_points_at_schema(rel):
    first = (ROOT / rel).read_text(encoding="utf-8").splitlines()[0]
    m = re.fullmatch(r"# yaml-language-server: \$schema=(\S+)", first)
    assert m, f"{rel}: first line is {first!r}"
    target = ((ROOT / rel).parent / m.group(1)).resolve()
    assert target == (SCHEMA_DIR / f"{schema_name(rel)}.schema.json").resolve()


@pytest.mark.parametrize("rel", list(MINIMAL), ids=str)
def test_minimal_fixture_comment_and_schema(tree, rel):
    """The fixture's $schema comments resolve the same way as the real files', and it validates."""
    first = tree.read(rel).splitlines()[0]
    assert first.startswith("# yaml-language-server: $schema=")
    name = schema_name(Path(rel))
    assert first.endswith(f"schemas/{name}.schema.json")
    assert not list(validator(name).iter_errors(yaml_doc(tree.root / rel)))


_JT = {str: "string", int: "integer", float: "number", bool: "boolean", list: "array", dict: "object", type(None): "null"}
_DEFS = {"source": "sources", "clause": "clauses", "section": "clauses", "earlier": "clauses",
         "interpretation": "clauses", "ruling": "rulings", "faq": "faq", "term": "glossary",
         "example": "examples", "card": "cards", "ability": "cards", "stat_source": "cards",
         "timing": "timing", "timing_match": "timing", "timing_row": "timing", "synonym": "synonyms",
         "phrasing": "phrasings"}


@pytest.mark.parametrize("record", list(SCHEMAS))
def test_schema_mirrors_loader(record):
    """Same keys, same required keys, same types, no extra keys, a Korean description for each."""
    spec = SCHEMAS[record]
    js = load_schema(_DEFS[record])["$defs"][record]
    assert js["additionalProperties"] is False
    assert set(js["properties"]) == set(spec)
    assert set(js["required"]) == {k for k, (_, req) in spec.items() if req}
    assert HANGUL.search(js["description"])
    for key, (types, _) in spec.items():
        prop = js["properties"][key]
        want = {_JT[t] for t in types}
        got = prop["type"] if isinstance(prop["type"], list) else [prop["type"]]
        assert set(got) == want, (record, key)
        assert HANGUL.search(prop.get("description", "")), (record, key)


def test_schema_enums_match_loader():
    cards = load_schema("cards")["$defs"]
    assert cards["card"]["properties"]["type"]["enum"] == list(corpus_mod.CARD_TYPES)
    assert cards["card"]["properties"]["faction"]["enum"] == [*corpus_mod.FACTIONS, None]
    assert cards["card"]["properties"]["grade"]["enum"] == [*corpus_mod.GRADES, None]
    assert cards["card"]["properties"]["timing"]["enum"] == [*corpus_mod.TIMINGS, None]
    assert cards["ability"]["properties"]["timing"]["enum"] == [*corpus_mod.TIMINGS, None]
    assert cards["ability"]["properties"]["kind"]["enum"] == list(corpus_mod.ABILITY_KINDS)
    ruling = load_schema("rulings")["$defs"]["ruling"]["properties"]
    assert ruling["status"]["enum"] == list(corpus_mod.RULING_STATUS)
    assert ruling["date"]["pattern"] == r"^\d{4}-\d{2}-\d{2}$"
    example = load_schema("examples")["$defs"]["example"]["properties"]
    assert example["type"]["enum"] == list(corpus_mod.EXAMPLE_TYPES)


@pytest.mark.parametrize("rel, old, new", [
    ("rules/clauses/a.yaml", "  title: 첫 조항", "  tittle: 첫 조항"),
    ("rules/clauses/a.yaml", "  text: 첫 조항의 본문.\n", ""),
    ("rules/clauses/a.yaml", "  text: 첫 조항의 본문.", "  text: 123"),
    ("rules/rulings.yaml", "  date: 2026-09-24", "  date: 2026-9-4"),
    ("rules/rulings.yaml", "  status: confirmed", "  status: confirm"),
    ("rules/examples/a.yaml", "  type: board", "  type: diagram"),
    ("cards/cards.yaml", "  lv: 3", '  lv: "3"'),
    ("cards/cards.yaml", "    timing: 전투", "    timing: 공격"),
    ("cards/cards.yaml", '    atk: {source: page.combat, quote: "ATK1"}\n', ""),
    ("cards/cards.yaml", "  notes: null", '  notes: null\n  rarity: 2'),
])
def test_schema_and_loader_both_reject(tree, rel, old, new):
    tree.replace(rel, old, new)
    assert list(validator(schema_name(Path(rel))).iter_errors(yaml_doc(tree.root / rel)))
    with pytest.raises(DataError):
        parse(tree.root)


# ---------------------------------------------------------- (b) real data ----
def test_real_corpus_parses():
    c = parse(ROOT)
    for table in ("sources", "sections", "clauses", "rulings", "faq", "terms", "examples", "cards"):
        assert len(getattr(c, table)) > 0, table


def test_real_corpus_loads_without_cache():
    c = load(ROOT, use_cache=False)
    assert c.clauses and c.cards and c.sources
    # by date; one day's rulings in the order of rules/rulings.yaml (they are numbered so: 9/24-1, 9/24-2)
    assert list(c.rulings) == sorted(c.rulings, key=lambda r: c.rulings[r]["date"])
    assert [r for r in c.rulings if "2026-09-24" in r] == ["ruling.2026-09-24.vacated-combat",
                                                          "ruling.2026-09-24.structures-immovable"]


def test_minimal_corpus_loads(tree):
    c = load(tree.root, use_cache=False)
    assert set(c.clauses) == {"a.first", "a.second"}
    assert set(c.rulings) == {"ruling.2026-09-24.first"}
    assert c.rulings["ruling.2026-09-24.first"]["date"] == "2026-09-24"
    assert set(c.faq) == {"faq.a.first"} and set(c.terms) == {"term.first"}
    assert set(c.examples) == {"ex.a.first"}
    assert c.cards["수문장"]["lv"] == 3 and c.cards["수문장"]["stat_sources"]["lv"]["source"] == "page.combat"


# ------------------------------------------------------ (c) broken fixtures ----
def problems_of(tree: CorpusTree) -> list[Problem]:
    with pytest.raises(DataError) as info:
        parse(tree.root)
    probs = info.value.problems
    assert probs
    for p in probs:  # every message (and fix) is Korean
        assert HANGUL.search(p.message), p
        assert p.fix is None or HANGUL.search(p.fix), p
    assert HANGUL.search(info.value.message)
    return probs


def find(probs: list[Problem], file: str, key, line=None, contains: str = "") -> Problem:
    hits = [p for p in probs
            if Path(p.file) == Path(file) and p.key == key and (line is None or p.line == line)
            and contains in p.message]
    assert hits, f"no problem for {file}:{line} [{key}] {contains!r} in:\n" + "\n".join(map(repr, probs))
    return hits[0]


def test_unknown_key_suggests_near_miss(tree):
    rel = "rules/clauses/a.yaml"
    tree.replace(rel, "  title: 첫 조항", "  tittle: 첫 조항")
    p = find(problems_of(tree), rel, "tittle", tree.line_of(rel, "tittle"), "알 수 없는 키 'tittle'")
    assert "'title'" in p.fix


def test_unknown_key_without_near_miss(tree):
    rel = "cards/cards.yaml"
    tree.replace(rel, "  notes: null", "  notes: null\n  xyzzy: 1")
    p = find(problems_of(tree), rel, "xyzzy", tree.line_of(rel, "xyzzy"), "알 수 없는 키")
    assert "지우세요" in p.fix and "name" in p.fix


def test_unknown_top_level_key(tree):
    rel = "rules/faq.yaml"
    tree.append(rel, "questions: []\n")
    find(problems_of(tree), rel, "questions", tree.line_of(rel, "questions:"), "최상위 키")


def test_missing_required_key(tree):
    rel = "rules/clauses/a.yaml"
    tree.replace(rel, "  text: 첫 조항의 본문.\n", "")
    p = find(problems_of(tree), rel, "text", tree.line_of(rel, "- id: a.first"), "필수 키 'text'")
    assert "'text'" in p.fix


def test_missing_section(tree):
    rel = "rules/clauses/a.yaml"
    tree.replace(rel, "section: {id: a, title: 가 섹션, order: 10}\n", "")
    find(problems_of(tree), rel, "section", None, "매핑")


def test_duplicate_yaml_key(tree):
    rel = "rules/faq.yaml"
    tree.replace(rel, "  keywords: [질문]", "  keywords: [질문]\n  source: page.combat")
    p = find(problems_of(tree), rel, "source", tree.line_of(rel, "source:", nth=2), "두 번")
    assert p.line == 9


def test_merge_key_override_is_not_a_duplicate(tree):
    rel = "rules/sources.yaml"
    tree.append(rel, "- <<: *page\n  id: page.second\n  title: 둘째 페이지\n")
    tree.replace(rel, "- id: page.combat", "- &page\n  id: page.combat")
    c = parse(tree.root)
    assert c.sources["page.second"]["title"] == "둘째 페이지"
    assert c.sources["page.second"]["seed"] == "000_test.txt"


def test_duplicate_id_across_two_files(tree):
    rel = "rules/clauses/b.yaml"
    tree.write(rel, "section: {id: b, title: 나 섹션, order: 20}\nclauses:\n"
                    "- id: a.first\n  title: 겹치는 조항\n  source: page.combat\n  text: 본문.\n")
    p = find(problems_of(tree), rel, "id", 3, "'a.first'가 중복")
    assert "rules/clauses/a.yaml" in p.message.replace("\\", "/")


def test_duplicate_section_id(tree):
    rel = "rules/clauses/b.yaml"
    tree.write(rel, "section: {id: a, title: 또 가 섹션, order: 20}\nclauses: []\n")
    find(problems_of(tree), rel, "id", 1, "섹션 id 'a'")


@pytest.mark.parametrize("bad", ["2026-13-40", "2026-9-4", "'2026-09-31'", "2026-09-24T10:00:00"])
def test_bad_ruling_date(tree, bad):
    rel = "rules/rulings.yaml"
    tree.replace(rel, "  date: 2026-09-24", f"  date: {bad}")
    p = find(problems_of(tree), rel, "date", tree.line_of(rel, "  date:"), "날짜")
    assert bad.strip("'") in p.message
    assert "YYYY-MM-DD" in p.fix


def test_unknown_ruling_status(tree):
    rel = "rules/rulings.yaml"
    tree.replace(rel, "  status: confirmed", "  status: confirm")
    p = find(problems_of(tree), rel, "status", tree.line_of(rel, "status:"), "'confirm'")
    assert "confirmed" in p.fix


def test_unknown_example_type(tree):
    rel = "rules/examples/a.yaml"
    tree.replace(rel, "  type: board", "  type: diagram")
    p = find(problems_of(tree), rel, "type", tree.line_of(rel, "type:"), "'diagram'")
    assert "board" in p.fix


def test_wrong_type_text_number(tree):
    rel = "rules/clauses/a.yaml"
    tree.replace(rel, "  text: 첫 조항의 본문.", "  text: 123")
    p = find(problems_of(tree), rel, "text", tree.line_of(rel, "text: 123"), "문자열")
    assert "123" in p.message


def test_wrong_type_lv_string(tree):
    rel = "cards/cards.yaml"
    tree.replace(rel, "  lv: 3", '  lv: "3"')
    p = find(problems_of(tree), rel, "lv", tree.line_of(rel, "lv: \"3\""), "정수")
    assert "'3'" in p.message


def test_wrong_type_bool_is_not_int(tree):
    rel = "cards/cards.yaml"
    tree.replace(rel, "  hp: 3", "  hp: true")
    find(problems_of(tree), rel, "hp", tree.line_of(rel, "hp: true"), "정수")


def test_wrong_item_type_in_id_list(tree):
    rel = "rules/faq.yaml"
    tree.replace(rel, "  keywords: [질문]", "  keywords: [질문, 7]")
    find(problems_of(tree), rel, "keywords", tree.line_of(rel, "keywords:"), "문자열")


def test_see_also_to_missing_clause_suggests_nearest(tree):
    rel = "rules/clauses/a.yaml"
    tree.replace(rel, "  see_also: [a.second]", "  see_also: [a.secnd]")
    p = find(problems_of(tree), rel, "see_also", tree.line_of(rel, "see_also:"), "조항 'a.secnd'")
    assert "'a.second'" in p.fix


def test_ruling_to_missing_clause(tree):
    rel = "rules/rulings.yaml"
    tree.replace(rel, "  clauses: [a.first]", "  clauses: [a.frist]")
    p = find(problems_of(tree), rel, "clauses", tree.line_of(rel, "clauses:"), "조항 'a.frist'")
    assert "'a.first'" in p.fix


def test_faq_to_missing_clause(tree):
    rel = "rules/faq.yaml"
    tree.replace(rel, "  clauses: [a.first]", "  clauses: [a.first, zzz.unknown]")
    p = find(problems_of(tree), rel, "clauses", tree.line_of(rel, "clauses:"), "조항 'zzz.unknown'")
    assert "있는 조항 id" in p.fix


def test_glossary_to_missing_clause(tree):
    rel = "rules/glossary.yaml"
    tree.replace(rel, "  clauses: [a.first]", "  clauses: [a.firsts]")
    find(problems_of(tree), rel, "clauses", tree.line_of(rel, "clauses:"), "조항 'a.firsts'")


def test_example_to_missing_ruling(tree):
    rel = "rules/examples/a.yaml"
    tree.replace(rel, "  rulings: [ruling.2026-09-24.first]", "  rulings: [ruling.2026-09-25.first]")
    p = find(problems_of(tree), rel, "rulings", tree.line_of(rel, "rulings:"), "판정 'ruling.2026-09-25.first'")
    assert "'ruling.2026-09-24.first'" in p.fix


def test_earlier_to_missing_ruling(tree):
    rel = "rules/clauses/a.yaml"
    tree.append(rel, "  earlier:\n  - ruling: ruling.2026-01-01.none\n    text: 예전 문안.\n")
    find(problems_of(tree), rel, "ruling", tree.line_of(rel, "- ruling:"), "판정 'ruling.2026-01-01.none'")


def test_missing_source_page(tree):
    rel = "rules/clauses/a.yaml"
    tree.replace(rel, "  source: [page.combat]", "  source: [page.combta]")
    p = find(problems_of(tree), rel, "source", tree.line_of(rel, "page.combta"), "출처 페이지 'page.combta'")
    assert "'page.combat'" in p.fix


def test_missing_source_page_in_stat_source(tree):
    rel = "cards/cards.yaml"
    tree.replace(rel, '    hp: {source: page.combat, quote: "HP3"}', '    hp: {source: page.nowhere, quote: "HP3"}')
    find(problems_of(tree), rel, "source", tree.line_of(rel, "page.nowhere"), "출처 페이지 'page.nowhere'")


def test_card_ability_unknown_timing(tree):
    rel = "cards/cards.yaml"
    tree.replace(rel, "    timing: 전투", "    timing: 공격")
    p = find(problems_of(tree), rel, "timing", tree.line_of(rel, "timing: 공격"), "타이밍 '공격'")
    assert "abilities[0]" in p.message and "전투" in p.fix


def test_card_unknown_faction(tree):
    rel = "cards/cards.yaml"
    tree.replace(rel, "  faction: DGM", "  faction: XYZ")
    find(problems_of(tree), rel, "faction", tree.line_of(rel, "faction:"), "진영 'XYZ'")


def test_card_stat_without_stat_source(tree):
    rel = "cards/cards.yaml"
    tree.replace(rel, '    atk: {source: page.combat, quote: "ATK1"}\n', "")
    p = find(problems_of(tree), rel, "atk", tree.line_of(rel, "  atk: 1"), "atk=1의 출처")
    assert "stat_sources.atk" in p.fix


def test_card_stat_source_for_null_stat(tree):
    rel = "cards/cards.yaml"
    tree.replace(rel, '    atk: {source: page.combat, quote: "ATK1"}',
                 '    atk: {source: page.combat, quote: "ATK1"}\n    cost: {source: page.combat, quote: "비용"}')
    find(problems_of(tree), rel, "cost", tree.line_of(rel, "    cost: {"), "cost는 null")


def test_card_stat_source_unknown_stat(tree):
    rel = "cards/cards.yaml"
    tree.replace(rel, '    atk: {source: page.combat, quote: "ATK1"}',
                 '    atk: {source: page.combat, quote: "ATK1"}\n    mov: {source: page.combat, quote: "MOV"}')
    find(problems_of(tree), rel, "mov", tree.line_of(rel, "    mov: {"), "'mov'")


SECOND_CARD = """\
- name: {name}
  type: piece
  faction: BGM
  grade: null
  lv: null
  hp: null
  atk: null
  cost: null
  structure: false
  abilities: []
  sources: [page.combat]
"""


def test_duplicate_card_name(tree):
    rel = "cards/cards.yaml"
    tree.append(rel, SECOND_CARD.format(name="수문장"))
    p = find(problems_of(tree), rel, "name", tree.line_of(rel, "- name: 수문장", nth=2), "카드 이름 '수문장'")
    assert "cards[1]" in p.message


def test_second_card_loads(tree):
    tree.append("cards/cards.yaml", SECOND_CARD.format(name="개미"))
    assert set(parse(tree.root).cards) == {"수문장", "개미"}


def test_duplicate_ability_name(tree):
    rel = "cards/cards.yaml"
    tree.replace(rel, "    effect: null\n", "    effect: null\n  - name: 수호방패\n    timing: null\n    kind: other\n"
                                              "    text: 또 적었다.\n    source: page.combat\n")
    p = find(problems_of(tree), rel, "name", tree.line_of(rel, "- name: 수호방패", nth=2), "능력 이름 '수호방패'")
    assert "abilities[1]" in p.message


def test_yaml_syntax_error_has_line(tree):
    rel = "rules/faq.yaml"
    tree.replace(rel, "  clauses: [a.first]", "   clauses: [a.first]")  # one space too many
    probs = problems_of(tree)
    p = find(probs, rel, None, tree.line_of(rel, "   clauses:"), "YAML 문법 오류")
    assert "들여쓰기" in p.fix
    assert len([q for q in probs if Path(q.file) == Path(rel)]) == 1


def test_yaml_unclosed_flow_sequence(tree):
    rel = "rules/glossary.yaml"
    tree.replace(rel, "  aliases: [하나]", "  aliases: [하나")
    find(problems_of(tree), rel, None, tree.line_of(rel, "definition:"), "YAML 문법 오류")


@pytest.mark.parametrize("tag", ["!!python/object:os.system", "!!python/object/apply:os.system", "!custom"])
def test_forbidden_yaml_tag(tree, tag):
    rel = "rules/faq.yaml"
    tree.replace(rel, "  answer: 네, 첫 질문입니다.", f"  answer: {tag} [ls]")
    p = find(problems_of(tree), rel, None, tree.line_of(rel, "answer:"), "허용되지 않는 YAML 태그")
    assert tag in p.message


def test_top_level_not_a_mapping(tree):
    rel = "rules/faq.yaml"
    tree.write(rel, "- id: faq.a.first\n")
    find(problems_of(tree), rel, None, None, "최상위는 매핑")


def test_top_level_items_not_a_list(tree):
    rel = "rules/faq.yaml"
    tree.write(rel, "faq:\n  id: faq.a.first\n")
    find(problems_of(tree), rel, "faq", 1, "목록")


def test_not_utf8(tree):
    rel = "rules/glossary.yaml"
    (tree.root / rel).write_bytes("terms: []\n# 용어\n".encode("euc-kr"))
    find(problems_of(tree), rel, None, None, "UTF-8")


def test_empty_file_is_allowed(tree):
    tree.write("rules/glossary.yaml", "# 비어 있음\n")
    assert parse(tree.root).terms == {}


def test_no_rules_dir(tmp_path):
    (tmp_path / "cards").mkdir()
    with pytest.raises(DataError) as info:
        load(tmp_path, use_cache=False)
    [p] = info.value.problems
    assert p.file == str(tmp_path) and p.line is None
    assert "rules/" in p.message and HANGUL.search(p.message) and HANGUL.search(p.fix)


def test_several_problems_reported_together(tree):
    tree.replace("rules/clauses/a.yaml", "  title: 첫 조항", "  tittle: 첫 조항")
    tree.replace("rules/rulings.yaml", "  status: confirmed", "  status: confirm")
    tree.replace("cards/cards.yaml", "  lv: 3", '  lv: "3"')
    with pytest.raises(DataError) as info:
        parse(tree.root)
    files = {Path(p.file) for p in info.value.problems}
    assert {Path("rules/clauses/a.yaml"), Path("rules/rulings.yaml"), Path("cards/cards.yaml")} <= files
    assert info.value.message.startswith("데이터 오류 ")
    assert len(info.value.problems) == len(set(info.value.problems))


# ---------------------------------------------------------------- (d) CLI ----
# `flamer validate --data ROOT …` as a real process (tests/flamer_fork.py), no cache folder
run_validate = functools.partial(flamer_fork.run, "validate", "--data", cache="", timeout=60,
                                 env={"PYTHONIOENCODING": "utf-8", "FLAMER_DEBUG": None, "FLAMER_DATA": None})


def test_cli_validate_broken_tree(tree):
    tree.replace("rules/rulings.yaml", "  status: confirmed", "  status: confirm")
    r = run_validate(tree.root)
    assert r.returncode == 1, r
    assert "Traceback" not in r.stderr and "Traceback" not in r.stdout
    assert "데이터 오류" in r.stderr
    assert "rules/rulings.yaml" in r.stderr.replace("\\", "/")
    assert "알 수 없는 status 'confirm'" in r.stderr
    assert "고치는 법" in r.stderr


def test_cli_validate_broken_tree_json(tree):
    tree.replace("rules/rulings.yaml", "  status: confirmed", "  status: confirm")
    r = run_validate(tree.root, "--json")
    assert r.returncode == 1, r
    assert "Traceback" not in r.stderr
    out = json.loads(r.stdout)
    assert out["ok"] is False
    [p] = [p for p in out["problems"] if p["key"] == "status"]
    assert p["file"].replace("\\", "/") == "rules/rulings.yaml"
    assert p["line"] == tree.line_of("rules/rulings.yaml", "status:")
    assert "confirm" in p["message"] and HANGUL.search(p["message"])
    assert set(p) == {"file", "line", "key", "message", "fix"}


# ------------------------------------------------------ the same text parsed once ----
def test_the_same_text_is_parsed_once_and_each_reader_gets_its_own_document(monkeypatch):
    """yamlio.parse_text keeps what it parsed by the text: the same text again is a copy of that document
    (equal, with its lines and its shared aliases), never the same object — a change one reader makes is
    not another's — and another text is parsed."""
    from flamer_ref import yamlio

    parses = []
    real = yamlio._parse
    monkeypatch.setattr(yamlio, "_parse", lambda text, path: parses.append(path) or real(text, path))
    monkeypatch.setattr(yamlio, "_PARSED", {})
    text = "a: &x [1, 2]\nb: *x\nc:\n  d: 3\n  e: 날짜\n"
    first = yamlio.parse_text(text, "t.yaml")
    second = yamlio.parse_text(text, "other-name.yaml")
    assert parses == ["t.yaml"] and first == second and first is not second
    assert second["a"] is second["b"] and second["a"] is not first["a"]  # the alias still one list, its own
    assert (second.line_of("c"), second["c"].line, second["c"].line_of("e")) == (first.line_of("c"), 4, 5)
    first["a"].append(9)
    first["c"].key_lines["d"] = 99
    third = yamlio.parse_text(text, "t.yaml")
    assert third == {"a": [1, 2], "b": [1, 2], "c": {"d": 3, "e": "날짜"}} and third["c"].line_of("d") == 4
    assert yamlio.parse_text(text + "f: 1\n", "t.yaml")["f"] == 1 and len(parses) == 2


def test_a_document_holding_other_values_is_not_kept(monkeypatch):
    """A value that is not text, a number, a truth value or null (a YAML set or binary) could be changed in
    place: such a document is parsed every time."""
    from flamer_ref import yamlio

    monkeypatch.setattr(yamlio, "_PARSED", {})
    text = "s: !!set {a, b}\n"
    one, two = yamlio.parse_text(text, "s.yaml"), yamlio.parse_text(text, "s.yaml")
    assert one == two == {"s": {"a", "b"}} and one["s"] is not two["s"] and not yamlio._PARSED


def test_the_kept_texts_are_bounded(monkeypatch):
    from flamer_ref import yamlio

    monkeypatch.setattr(yamlio, "_PARSED", {})
    monkeypatch.setattr(yamlio, "PARSED_KEPT_CHARS", 100)
    for n in range(10):
        yamlio.parse_text(f"k: {'가' * 30}{n}\n", "k.yaml")
    assert 0 < sum(map(len, yamlio._PARSED)) <= 100 and f"k: {'가' * 30}9\n" in yamlio._PARSED
