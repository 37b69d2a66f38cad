"""The data's checks that need the engine: every example and FAQ scenario of a data tree resolves as
its page says it will (`flamer validate`; `flamer examples` compares the results), and the engine's data
files (cards/effects.yaml, rules/boards/example.yaml) read by the data room and checked by the engine.

The one-way doors: this module reads the corpus (flamer_ref.corpus) and runs the engine
(flamer_ref.engine); neither of them reads this.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .corpus import Corpus, read_effects, read_example_board
from .errors import FlamerError, Problem
from .korean import josa
from .paths import data_root


def load_effects(corpus: Corpus, path: Path | str | None = None) -> dict:
    """cards/effects.yaml (default: in the corpus's data tree) validated against the card database
    (engine.effects.parse_effects): {(card, ability): EffectDef}. A missing file means no effect is
    known. Raises DataError."""
    from .engine.effects import parse_effects

    doc, display = read_effects(corpus, path)
    return {} if doc is None else parse_effects(doc, corpus, display)


def load_example_board(root: Path | str | None = None) -> dict:
    """The example board of the data tree `root` (default: the data root) as plain data, checked as the
    engine will use it (engine.board.check_example_board). Raises DataError naming the file, line and key."""
    from .engine.board import check_example_board

    return check_example_board(*read_example_board(root))


def check_scenarios(corpus: Corpus) -> list[Problem]:
    """`flamer validate`: every example and FAQ scenario of the data tree, parsed against its card
    database and resolved, as `flamer examples` and `flamer example ID --scenario | flamer simulate -`
    will later do. A card name the parser had to correct (a typo such as 수문쟝) is a problem too:
    data names cards exactly. Whether a result matches the page's `expected` is `flamer examples`'s
    question, not validity. Problems name the data file and the line of the scenario."""
    from . import render  # noqa: F401 - words the engine's coded problems quoted below (errors.use_wording)
    from .engine.turns import parse_any, run_any
    from .yamlio import read_yaml

    root = Path(corpus.root or data_root())
    problems: list[Problem] = []
    files = sorted((root / "rules" / "examples").glob("*.yaml")) + [root / "rules" / "faq.yaml"]
    for path in files:
        if not path.is_file():
            continue
        rel = path.relative_to(root).as_posix()
        doc = read_yaml(path, rel)
        items = doc.get("faq" if path.name == "faq.yaml" else "examples") if isinstance(doc, dict) else None
        for item in items if isinstance(items, list) else []:
            if not isinstance(item, dict) or not item.get("scenario"):
                continue
            many = isinstance(item["scenario"], list)
            line = item.line_of("scenario") if hasattr(item, "line_of") else None
            for i, scn_obj in enumerate(item["scenario"] if many else [item["scenario"]]):
                label = f"{item.get('id')}#{i + 1}" if many else str(item.get("id"))
                at = getattr(scn_obj, "line", None) or line
                try:
                    scn = parse_any(scn_obj, rel, corpus)
                    for n in getattr(scn, "notices", None) or ():
                        written, card = f"'{n.get('written')}'", f"'{n.get('card')}'"
                        problems.append(Problem(rel, n.get("line") or at, "scenario",
                                                f"{label}의 시나리오: 카드 {josa(written, '은/는')} 카드 데이터베이스에 "
                                                f"없는 이름입니다 ({josa(card, '으로/로')} 고쳐 읽어야 풀립니다).",
                                                f"정확한 카드 이름 {josa(card, '을/를')} 적으세요"))
                    run_any(scn, corpus, None)
                except FlamerError as exc:
                    sub = getattr(exc, "problems", None)
                    if sub:
                        problems.extend(Problem(rel, p.line or at, p.key, f"{label}의 시나리오: {p.message}", p.fix)
                                        for p in sub)
                    else:
                        problems.append(Problem(rel, at, "scenario", f"{label}의 시나리오: {exc.message}",
                                                "docs/SCENARIOS.md의 형식과 카드 데이터에 맞게 고치세요"))
    return problems


def draft_problems(corpus: Corpus) -> list[Problem]:
    """What `flamer validate` finds in the rulings of a corpus beyond the loader: the decisions they set
    are ones the engine names, with values it takes, and each ruling lists its decisions' clauses
    (`flamer impact` checks a draft's corpus with these)."""
    from .engine.decisions import check_clauses, check_sets

    return check_sets(corpus) + check_clauses(corpus)


def without_ruling(corpus: Corpus, rid: str) -> Corpus:
    """The corpus as if ruling `rid` had never been published (its withdrawals with it): what the rules were
    without it. Shares the checked card effects (they do not depend on rulings)."""
    from .engine.effects import effects_of

    effects_of(corpus)
    plain = corpus.to_plain()
    plain["rulings"] = {k: v for k, v in corpus.rulings.items() if k != rid}
    other = Corpus.from_plain(plain)
    other.__dict__["_effects"] = corpus.__dict__["_effects"]
    return other


def check_rulings_shown(corpus: Corpus) -> list[Problem]:
    """The ruling linter's question that needs the engine: every ruling that changes a decision (sets a value
    other than the one that held without it, on its date) is shown by at least one example or FAQ scenario
    whose verdict it changes on that date — the handbook prints the before and after. A ruling that only
    confirms a decision's value (a codification) needs none. Problems name the ruling's `sets:` line."""
    from .engine.decisions import rules_at
    from .verdicts import cases, parse_case, quick_key

    parsed = [(case, scn) for case in cases(corpus) if (scn := parse_case(corpus, case)) is not None]
    problems: list[Problem] = []
    on_day: dict[str, list] = {}  # date → each case's (verdict key, decisions asked) with every ruling
    for rid, r in corpus.rulings.items():
        if not r.get("sets"):
            continue
        without = without_ruling(corpus, rid)
        on, off = rules_at(corpus, r["date"]), rules_at(without, r["date"])
        moved = [d for d in r["sets"] if (on.peek(d).value, on.peek(d).applied) != (off.peek(d).value, off.peek(d).applied)]
        if not moved:
            continue
        if r["date"] not in on_day:
            on_day[r["date"]] = [quick_key(corpus, scn, r["date"]) for _, scn in parsed]
        # a case that asked none of the decisions the ruling moves resolves alike without it
        if any(asked.intersection(moved) and quick_key(without, scn, r["date"])[0] != key
               for (key, asked), (_, scn) in zip(on_day[r["date"]], parsed)):
            continue
        at = r.get("at") or {}
        problems.append(Problem(at.get("file", "rules/rulings.yaml"), at.get("sets") or at.get("line"), "sets",
                                f"판정 {rid}: 결정 {', '.join(moved)}의 값을 바꾸는데, 그 때문에 판정이 바뀌는 예시·FAQ가 "
                                "없습니다 — 핸드북이 판정 전후를 보여 줄 장면이 없습니다.",
                                "이 판정으로 결과가 바뀌는 장면을 예시(rules/examples/)나 FAQ의 scenario로 더하세요 — "
                                "flamer impact로 찾은 장면을 쓸 수 있습니다 (docs/DATA.md 「판정 팀의 페이지」)"))
    return problems


@dataclass(frozen=True)
class Validation:
    """What `flamer validate` found in a data tree. corpus is None when the tree did not load."""

    root: Path
    corpus: Corpus | None
    problems: list
    counts: dict
    numbers_compared: bool
    numbers_written: dict | None


def validate_tree(root: Path | str | None = None, write_numbers: bool = False) -> Validation:
    """`flamer validate`: the strict load (schema, references), then what only a whole tree shows — a data
    tree's templates/ (never read: templates are code), cards/effects.yaml and the example board as the
    engine reads them, the editors' words in printed fields, rule numbers against rules/numbers.lock.yaml
    (written first with write_numbers), and, when all that is clean, every example and FAQ scenario."""
    from . import datawords, numbering
    from .corpus import EXAMPLE_BOARD, load, present
    from .errors import DataError
    from .paths import templates_dir

    root = Path(root) if root is not None else data_root()
    try:
        c = load(root, use_cache=False)
    except DataError as exc:
        return Validation(root, None, list(exc.problems), {}, False, None)
    problems: list[Problem] = []
    if (root / "templates").exists() and (root / "templates").resolve() != templates_dir().resolve():
        # a data tree carries data only: its templates would be code, and are never read
        problems.append(Problem("templates/", None, None, "데이터 폴더에 templates/ 폴더가 있습니다. 데이터 폴더의 "
                                "템플릿은 읽지 않습니다 (템플릿은 코드라 패키지의 것만 씁니다).",
                                "templates/ 폴더를 지우세요 (docs/DATA.md의 「데이터 폴더」)"))
    effects = {}
    try:
        effects = load_effects(c, root / "cards" / "effects.yaml")  # none when there is no file
    except DataError as exc:
        problems += exc.problems
    try:
        if present(root, EXAMPLE_BOARD):
            load_example_board(root)
    except DataError as exc:
        problems += exc.problems
    problems += draft_problems(c)  # the decisions the rulings set, as the engine names them
    wrote = numbering.write_lock(c, root) if write_numbers else None  # before the check, which then finds it
    problems += datawords.check(c)  # the editors' words in what a person reads
    problems += numbering.check_lock(c, root)  # no rule number changes silently
    if not problems:  # every example and FAQ scenario, parsed against the cards and resolved
        problems = check_scenarios(c)
    if not problems:  # and every ruling that changes a decision shown by one of them
        problems = check_rulings_shown(c)
    counts = {"clauses": len(c.clauses), "interpretations": len(c.interpretations), "rulings": len(c.rulings),
              "faq": len(c.faq), "terms": len(c.terms), "examples": len(c.examples), "cards": len(c.cards),
              "effects": len(effects), "timings": len(c.timings)}
    return Validation(root, c, problems, counts, present(root, numbering.LOCK), wrote)
