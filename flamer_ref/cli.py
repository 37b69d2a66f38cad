"""The `flamer` command: a thin layer over the library.

Every answering command takes --json (one JSON object on stdout, not
ASCII-escaped); without it the answer is rendered for people, in Korean, from
the Jinja templates in templates/. Domain errors are caught here: one Korean
message on stderr, exit 1. Usage errors exit 2. Never a traceback.
"""

import json
import os
import sys
from typing import List, Optional

import typer

from . import i18n

i18n.install()

app = typer.Typer(
    add_completion=False,
    rich_markup_mode=None,
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},
    help="더 플래머 룰 레퍼런스·판정 도구. 규칙·판정·FAQ·용어·카드를 찾고, 전투를 돌려 봅니다.",
)

JSON_OPT = typer.Option(False, "--json", help="사람용 출력 대신 JSON 객체 하나를 출력합니다.")
ASOF_OPT = typer.Option(None, "--as-of", metavar="YYYY-MM-DD", help="그 날짜까지의 판정만 적용한 문안을 봅니다.")


def _emit(obj: dict, as_json: bool, template: Optional[str] = None, **extra) -> None:
    if as_json:
        sys.stdout.write(json.dumps(obj, ensure_ascii=False, indent=2) + "\n")
        return
    from .render import render

    sys.stdout.write(render(template, data=obj, **extra))


def _corpus():
    from .corpus import load

    return load()


def _run(fn):
    """Call fn, turning domain errors into one Korean line on stderr and exit 1."""
    from .errors import FlamerError

    try:
        return fn()
    except FlamerError as exc:
        sys.stderr.write(exc.message.rstrip() + "\n")
        raise typer.Exit(1) from None
    except BrokenPipeError:  # e.g. piped into `head`
        raise typer.Exit(0) from None
    except (typer.Exit, typer.Abort, SystemExit):
        raise
    except Exception as exc:  # noqa: BLE001 - the user must never see a traceback
        if os.environ.get("FLAMER_DEBUG"):
            raise
        sys.stderr.write(f"내부 오류가 났습니다 ({type(exc).__name__}: {exc}). FLAMER_DEBUG=1로 다시 실행하면 자세히 볼 수 있습니다.\n")
        raise typer.Exit(1) from None


def _usage_date(value: Optional[str], opt: str) -> Optional[str]:
    """A malformed date on the command line is a usage error (exit 2)."""
    if value is None:
        return None
    from .dates import is_date

    if not is_date(value):
        raise typer.BadParameter(f"날짜 '{value}'를 읽을 수 없습니다. YYYY-MM-DD 형식으로 적으세요 (예: 2026-09-24).",
                                 param_hint=opt)
    return value


# ------------------------------------------------------------------ search ----
@app.command()
def search(
    query: List[str] = typer.Argument(..., metavar="검색어...", help="찾을 말. 띄어쓰기·오타·조사·초성·영문 자판 입력도 됩니다."),
    limit: int = typer.Option(10, "--limit", "-n", min=1, help="결과 수 (기본 10)."),
    kind: Optional[str] = typer.Option(None, "--kind", "-k",
                                       help="종류만: clause(조항), ruling(판정), faq, example(예시), card(카드), term(용어)."),
    as_of: Optional[str] = ASOF_OPT,
    as_json: bool = JSON_OPT,
):
    """규칙·판정·FAQ·예시·용어·카드를 한꺼번에 찾습니다.

    예: flamer search 대응 스택 / flamer search ㄷㅇㅅㅌ / flamer search 졍착 기물이 공격
    """
    as_of = _usage_date(as_of, "--as-of")

    def go():
        from .errors import BadInput
        from .search import KINDS, search as do_search

        k = kind
        if k is not None:
            aliases = {"조항": "clause", "판정": "ruling", "예시": "example", "카드": "card", "용어": "term"}
            k = aliases.get(k, k)
            if k not in KINDS:
                raise BadInput(f"--kind '{kind}'를 모릅니다. 다음 중 하나: {', '.join(KINDS)}.")
        q = " ".join(query)
        from .corpus import load_index

        results = do_search(load_index(), q, kind=k, limit=limit, as_of=as_of)
        obj = {"query": q, "results": results}
        if as_json:
            _emit(obj, True)
        else:
            from .search import matched_words

            for r in results:
                r["matched"] = matched_words(q, r["title"] + " " + r["text"])
            _emit(obj, False, "cli/search.txt.j2")

    _run(go)


# -------------------------------------------------------------------- rule ----
@app.command()
def rule(
    rule_id: str = typer.Argument(..., metavar="ID", help="조항 id (예: combat.step7.sweep) 또는 해석 id (interp.…)."),
    as_of: Optional[str] = ASOF_OPT,
    as_json: bool = JSON_OPT,
):
    """조항 하나를 봅니다: 문안, 출처 페이지, 관련 판정, 함께 볼 조항.

    --as-of 날짜를 주면 그날 유효했던 문안과 그 뒤에 바뀐 판정을 보여 줍니다.
    """
    as_of = _usage_date(as_of, "--as-of")

    def go():
        from .lookup import rule as do_rule

        _emit(do_rule(_corpus(), rule_id, as_of), as_json, "cli/rule.txt.j2")

    _run(go)


@app.command()
def rulings(
    since: Optional[str] = typer.Option(None, "--since", metavar="YYYY-MM-DD", help="이 날짜 이후(포함)."),
    until: Optional[str] = typer.Option(None, "--until", metavar="YYYY-MM-DD", help="이 날짜 이전(포함)."),
    as_json: bool = JSON_OPT,
):
    """날짜가 붙은 판정(확정·정정·개정·폐지·도입…)을 오래된 순으로 봅니다."""
    since, until = _usage_date(since, "--since"), _usage_date(until, "--until")

    def go():
        from .lookup import rulings as do_rulings

        _emit(do_rulings(_corpus(), since, until), as_json, "cli/rulings.txt.j2")

    _run(go)


# ------------------------------------------------------------------- cards ----
@app.command()
def card(
    name: List[str] = typer.Argument(..., metavar="카드이름", help="카드 이름. 오타·초성·띄어쓰기 차이도 됩니다."),
    as_json: bool = JSON_OPT,
):
    """카드 한 장: 진영, 등급, Lv·HP·ATK·cost, 능력과 타이밍. 룰북에 없는 값은 '미상'."""

    def go():
        from .lookup import card as do_card

        _emit(do_card(_corpus(), " ".join(name)), as_json, "cli/card.txt.j2")

    _run(go)


@app.command()
def cards(
    faction: Optional[str] = typer.Option(None, "--faction", "-f", help="진영: DGM(대광명연방), BGM(밤결무리), 미상."),
    grade: Optional[str] = typer.Option(None, "--grade", "-g", help="등급: 초급, 중급, 고급, 미상."),
    timing: Optional[str] = typer.Option(None, "--timing", "-t", help="타이밍 태그: 전투, 대응, 이동, 등장."),
    structure: Optional[bool] = typer.Option(None, "--structure/--no-structure", help="구조물만 / 구조물 빼고."),
    type_: Optional[str] = typer.Option(None, "--type", help="piece(기물 카드) 또는 special(특수카드)."),
    as_json: bool = JSON_OPT,
):
    """카드 목록 (필터: 진영, 등급, 타이밍 태그, 구조물, 종류)."""

    def go():
        from .lookup import cards as do_cards

        _emit(do_cards(_corpus(), faction, grade, timing, structure, type_), as_json, "cli/cards.txt.j2")

    _run(go)


# ------------------------------------------------------- glossary / faq ----
@app.command()
def term(
    word: Optional[List[str]] = typer.Argument(None, metavar="[용어]", help="찾을 용어. 없으면 용어집 전체."),
    as_json: bool = JSON_OPT,
):
    """용어집: 기동, 정착, 확보, 조우, 맞대응 … 뜻과 관련 조항."""

    def go():
        from .lookup import term as do_term, terms as do_terms

        if word:
            _emit(do_term(_corpus(), " ".join(word)), as_json, "cli/term.txt.j2")
        else:
            _emit(do_terms(_corpus()), as_json, "cli/terms.txt.j2")

    _run(go)


@app.command()
def faq(
    faq_id: Optional[str] = typer.Argument(None, metavar="[ID]", help="FAQ id. 없으면 전체."),
    fmt: str = typer.Option("text", "--format", metavar="text|md|html",
                            help="text(터미널), md, html(인쇄용 페이지, 페이지별로 묶음)."),
    as_json: bool = JSON_OPT,
):
    """'자주 하는 실수 · 질문' 항목을 봅니다. --format html은 인쇄용 FAQ 페이지입니다."""
    if fmt not in ("text", "md", "html"):
        raise typer.BadParameter(f"'{fmt}'는 없는 형식입니다. text, md, html 중 하나를 고르세요.", param_hint="--format")

    def go():
        from .lookup import faq as do_faq

        data = do_faq(_corpus(), faq_id)
        if as_json or fmt == "text":
            _emit(data, as_json, "cli/faq.txt.j2")
            return
        from .render import render

        groups: list[dict] = []
        for f in data["faq"]:
            if not groups or groups[-1]["source"] != f["source"]:
                groups.append({"source": f["source"], "faq": []})
            groups[-1]["faq"].append(f)
        sys.stdout.write(render(f"faq/faq.{fmt}.j2", groups=groups))

    _run(go)


@app.command()
def example(
    example_id: Optional[str] = typer.Argument(None, metavar="[ID]", help="예시 id. 없으면 목록."),
    as_json: bool = JSON_OPT,
):
    """룰북의 예시(룰북 예시·보드 상황 상세 예시·그림보드 예시)를 봅니다."""

    def go():
        from .lookup import example as do_example, examples_list

        if example_id:
            _emit(do_example(_corpus(), example_id), as_json, "cli/example.txt.j2")
        else:
            _emit(examples_list(_corpus()), as_json, "cli/examples.txt.j2")

    _run(go)


@app.command()
def timing(
    name: List[str] = typer.Argument(..., metavar="이름", help="카드, 능력, 또는 타이밍 태그((대응), (전투), (이동), 등장효과, 구조물)."),
    as_json: bool = JSON_OPT,
):
    """언제 쓸 수 있나: 누구의 라운드, 어느 턴·단계, 손패/필드, 기물 상태, 맞대응, 조우 필요, 그 뒤.

    예: flamer timing 진내폭격 / flamer timing 비행 / flamer timing "(대응)" / flamer timing 구조물
    """

    def go():
        from .lookup import timing as do_timing

        _emit(do_timing(_corpus(), " ".join(name)), as_json, "cli/timing.txt.j2")

    _run(go)


# ---------------------------------------------------------------- validate ----
@app.command()
def validate(
    data: Optional[str] = typer.Option(None, "--data", metavar="DIR", help="검사할 데이터 폴더 (rules/, cards/가 있는 곳)."),
    as_json: bool = JSON_OPT,
):
    """rules/와 cards/ 전체를 엄격하게 검사합니다. 문제가 하나라도 있으면 종료 코드 1."""

    def go():
        from pathlib import Path

        from .corpus import load
        from .errors import DataError
        from .paths import data_root

        root = Path(data) if data else data_root()
        try:
            c = load(root, use_cache=False)
        except DataError as exc:
            if as_json:
                sys.stdout.write(json.dumps({"ok": False, "problems": [
                    {"file": p.file, "line": p.line, "key": p.key, "message": p.message, "fix": p.fix}
                    for p in exc.problems]}, ensure_ascii=False, indent=2) + "\n")
                raise typer.Exit(1) from None
            raise
        # card effects (cards/effects.yaml): every card and ability named must exist in cards.yaml
        from .engine.effects import load_effects

        effects_file = root / "cards" / "effects.yaml"
        effects = load_effects(c, effects_file) if effects_file.is_file() else {}
        counts = {"clauses": len(c.clauses), "interpretations": len(c.interpretations), "rulings": len(c.rulings),
                  "faq": len(c.faq), "terms": len(c.terms), "examples": len(c.examples), "cards": len(c.cards),
                  "effects": len(effects), "timings": len(c.timings)}
        _emit({"ok": True, "root": str(root), "counts": counts, "problems": []}, as_json, "cli/validate.txt.j2")

    _run(go)


# ---------------------------------------------------------------- simulate ----
# (issue 3: the combat and response engine)
_FORMATS = ("text", "md", "html")
_SIM_TEMPLATES = {"text": "simulate/combat.txt.j2", "md": "simulate/combat.md.j2", "html": "simulate/combat.html.j2"}


def present_scenario(scn, corpus, *, file: str, as_json: bool, fmt: str = "text", as_of: Optional[str] = None,
                     compare: Optional[str] = None, all_branches: bool = False) -> None:
    """Resolve a parsed scenario and print it: shared by `simulate` and `fight`."""
    from .engine import runner
    from .engine.turns import run_any

    turn = isinstance(scn, dict)  # move / victory / field
    if compare:
        if turn:
            out = runner.compare_turn(scn, corpus, as_of or scn["as_of"] or corpus.latest_date(), compare)
        else:
            base = as_of or scn.as_of or corpus.latest_date()
            out = runner.compare(scn, corpus, base, compare)
        if all(v is None for v in out["results"].values()):
            from .errors import FlamerError

            raise FlamerError(next(iter(out["errors"].values())))
        if as_json:
            _emit(out, True)
        else:
            _emit(out, False, "simulate/compare.txt.j2", refs=runner.refs(corpus, out))
        return
    if all_branches:
        if turn:
            res = run_any(scn, corpus, as_of)
            out = {"kind": "branches", "file": file, "fixed_by_file": True, "orders_tried": 1, "distinct": 1,
                   "branches": [{"orders": [], "outcome": res, "error": None, "as_of": res["as_of"]}],
                   "note": "no-choices"}
            _emit(out, as_json, "simulate/branches.txt.j2")
            return
        out = runner.branches(scn, corpus, as_of)
        if out["branches"] and all(b["error"] for b in out["branches"]):
            from .errors import FlamerError

            raise FlamerError(out["branches"][0]["error"])
        _emit(out, as_json, "simulate/branches.txt.j2")
        return
    data = run_any(scn, corpus, as_of)
    if as_json:
        _emit(data, True)
    elif turn:
        from .render import render

        text = render(f"simulate/{data['kind']}.txt.j2", data=data, refs=runner.refs(corpus, data))
        if fmt == "md":
            text = f"```text\n{text.rstrip()}\n```\n"
        elif fmt == "html":
            from html import escape

            text = f"<!doctype html><meta charset=\"utf-8\"><pre>{escape(text)}</pre>\n"
        sys.stdout.write(text)
    else:
        _emit(data, False, _SIM_TEMPLATES[fmt], refs=runner.refs(corpus, data))


@app.command()
def simulate(
    file: str = typer.Argument(..., metavar="FILE", help="시나리오 YAML 파일 (kind: combat, move, victory, field)."),
    as_json: bool = JSON_OPT,
    as_of: Optional[str] = typer.Option(None, "--as-of", metavar="YYYY-MM-DD",
                                        help="파일의 as_of 대신 이 날짜까지의 판정만 적용합니다."),
    fmt: str = typer.Option("text", "--format", metavar="text|md|html", help="사람용 출력 형식 (기본 text)."),
    compare: Optional[str] = typer.Option(None, "--compare", metavar="YYYY-MM-DD",
                                          help="이 날짜로도 풀어서 결과 차이와 차이를 만든 판정을 보여 줍니다."),
    all_branches: bool = typer.Option(False, "--all-branches",
                                      help="combat_order가 없을 때 공격자가 고를 수 있는 모든 전투 순서를 풀어 서로 다른 결과를 보여 줍니다."),
):
    """시나리오 하나를 풀어 한국어로 설명합니다: 전투(대응턴 스택 → 1~7단계), 이동, 승리확인, 필드.

    종료 코드: 0 풀림(미해결 항목이 있어도), 1 잘못된 시나리오(파일 없음 포함), 2 명령어 사용 오류.
    """
    if fmt not in _FORMATS:
        raise typer.BadParameter(f"'{fmt}'는 없는 형식입니다. text, md, html 중 하나를 고르세요.", param_hint="--format")
    as_of = _usage_date(as_of, "--as-of")
    compare = _usage_date(compare, "--compare")
    if compare and all_branches:
        raise typer.BadParameter("--compare와 --all-branches는 함께 쓸 수 없습니다.", param_hint="--compare")
    # a missing or unreadable file is bad input (exit 1, like any invalid scenario), not a usage error

    def go():
        from .engine.turns import load_any

        corpus = _corpus()
        scn = load_any(file, corpus, display=file)
        present_scenario(scn, corpus, file=file, as_json=as_json, fmt=fmt, as_of=as_of, compare=compare,
                         all_branches=all_branches)

    _run(go)


@app.command()
def examples(as_json: bool = JSON_OPT):
    """룰북 예시 가운데 시나리오가 붙은 것을 모두 풀어 기대 결과와 비교합니다. 하나라도 다르면 종료 코드 1.

    시나리오가 없는 예시(페이지가 결과를 시나리오로 옮길 만큼 말하지 않는 것)는 목록에 나오지 않습니다.
    """

    def go():
        from .engine import runner

        out = runner.check_examples(_corpus())
        _emit(out, as_json, "simulate/examples.txt.j2")
        if not out["ok"]:
            raise typer.Exit(1)

    _run(go)


def main() -> None:
    """Entry point: run the app, turning click's usage errors into Korean (exit 2)."""
    i18n.run(app)


if __name__ == "__main__":  # pragma: no cover
    main()
