"""The `flamer` command: a thin layer over the library.

Every answering command takes --json (one JSON object on stdout, not
ASCII-escaped); without it the answer is rendered for people, in Korean, from
the Jinja templates in templates/. Domain errors are caught here: one Korean
message on stderr, exit 1. Usage errors exit 2. Never a traceback.
"""

import os
import sys
from typing import List, Optional

import typer

from . import complete, i18n

i18n.install()

app = typer.Typer(
    add_completion=True,
    rich_markup_mode=None,
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},
    help="더 플래머 룰 레퍼런스·판정 도구. 규칙·판정·FAQ·용어·카드를 찾고, 전투를 돌려 봅니다.",
)

def _version(value: bool) -> None:
    """`flamer --version`: the package version and the rules version — the date of the latest ruling in
    force today (rules/rulings.yaml; a withdrawn one does not count)."""
    if not value:
        return
    import datetime

    from . import __version__
    from .errors import FlamerError

    try:
        from .inforce import InForce

        corpus = _corpus()
        on = InForce(corpus.rulings, datetime.date.today().isoformat())
        dates = [r["date"] for rid, r in corpus.rulings.items() if on(rid)]
    except FlamerError as exc:
        sys.stdout.write(f"flamer {__version__}\n")
        from .cleantext import clean

        sys.stderr.write(clean(f"규칙 판을 말할 수 없습니다 — {exc.message.strip()}") + "\n")
        raise typer.Exit(1) from None
    rules = f"{max(dates)} 판정까지" if dates else "유효한 판정 없음"
    sys.stdout.write(f"flamer {__version__} · 규칙 {rules}\n")
    raise typer.Exit(0)


@app.callback()
def _root(version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                       help="패키지 버전과 규칙 판(오늘 유효한 마지막 판정의 날짜)을 보여 주고 끝냅니다.")):
    """더 플래머 룰 레퍼런스·판정 도구. 규칙·판정·FAQ·용어·카드를 찾고, 전투를 돌려 봅니다."""


JSON_OPT = typer.Option(False, "--json", help="사람용 출력 대신 JSON 객체 하나를 출력합니다.")
ASOF_OPT = typer.Option(None, "--as-of", metavar="날짜", help="그 날짜까지의 판정만 적용한 문안을 봅니다 (2026-09-24, 9/24, 9월 24일도 됩니다).")


def _emit(obj: dict, as_json: bool, template: Optional[str] = None, **extra) -> None:
    if as_json:
        from .cleantext import json_text

        sys.stdout.write(json_text(obj))
        return
    from .render import render
    from .cleantext import clean  # no raw control characters from input or data reach a terminal

    sys.stdout.write(clean(render(template, data=obj, **extra)))


def _corpus():
    from .corpus import load

    return load()


def _refs(corpus) -> dict:
    """Every clause, interpretation and ruling as a template cites it (the `clause_label` filter)."""
    from .lookup import cite_refs

    return cite_refs(corpus)


def _lookup_words(corpus) -> dict:
    """What the lookup templates show instead of ids: `refs` (clause_label), `page_names` (a source
    page by its short name: 전투턴 페이지)."""
    return {"refs": _refs(corpus),
            "page_names": {sid: s["title"].split(" — ")[0] + " 페이지" for sid, s in corpus.sources.items()}}


def _error_object(exc) -> dict:
    """What a bot gets on stdout for a domain error under --json: the message and
    its code, plus whatever helps it act (candidates, problems, the rule)."""
    extra: dict = {}
    for attr in ("rule", "ruling"):
        if getattr(exc, attr, None):
            extra[attr] = getattr(exc, attr)
    if hasattr(exc, "candidates"):
        extra["candidates"] = [{"id": cid, "title": title or None} for cid, title in exc.candidates]
    problems = getattr(exc, "problems", None)
    if problems:
        extra["problems"] = [{"file": p.file, "line": p.line, "key": p.key, "message": p.message, "fix": p.fix}
                             for p in problems]
    if getattr(exc, "link", None):  # flamer fight --link: a refused play is a verdict to share too
        extra["link"] = exc.link
    return extra


def _error_inner(exc) -> Optional[dict]:
    """Keys that go inside the --json error object beside message and code: a fight's missing stats
    (`missing`: [{piece, card, label, stat, why}], what the calculator page asks for; `why` says in
    one line what the verdict needs it for, or is null)."""
    missing = getattr(exc, "missing", None)
    if missing is None:
        return None
    from .render import render

    return {"missing": [{**m.to_json(), "why": render("cli/fight_need.txt.j2", why=m.why).strip() or None}
                        for m in missing]}


def _run(fn, as_json: bool = False):
    """Call fn, turning domain errors into one Korean message on stderr and exit 1
    (with --json, also one JSON error object on stdout, see i18n.json_error)."""
    from .errors import FlamerError

    def fail(message: str, code: str, extra: dict, inner: Optional[dict] = None) -> None:
        from .cleantext import clean

        sys.stderr.write(clean(message.rstrip()) + "\n")
        if as_json:
            sys.stdout.write(i18n.json_error(message.rstrip(), code, inner=inner, **extra))
        raise typer.Exit(1) from None

    try:
        return fn()
    except FlamerError as exc:
        from . import render  # noqa: F401 - the edge words coded problems (errors.use_wording)
        from .answerout import cite_numbers

        cite_numbers(exc, _corpus)
        fail(exc.message, getattr(exc, "code", "error"), _error_object(exc), _error_inner(exc))
    except BrokenPipeError:  # e.g. piped into `head`: quietly, and not as a success (terminal.output_failed)
        raise typer.Exit(1) from None
    except (typer.Exit, typer.Abort, SystemExit):
        raise
    except Exception as exc:  # noqa: BLE001 - the user must never see a traceback
        if os.environ.get("FLAMER_DEBUG"):
            raise
        from .errors import internal_message

        fail(internal_message(exc), "internal", {})


def _data_year() -> int:
    """The year of the rules data (of its latest ruling): the year of a date typed without one."""
    try:
        from .searchindex import load_index

        return int(max(load_index()["ruling_dates"].values())[:4])
    except Exception:  # noqa: BLE001 - no data: the command itself will say so
        import datetime

        return datetime.date.today().year


def _usage_date(value: Optional[str], opt: str) -> Optional[str]:
    """A date option as YYYY-MM-DD. Accepts what search accepts (2026-09-24, 9/24,
    9월 24일, 09-24; the year defaults to the rules data's). A malformed date is a
    usage error (exit 2)."""
    if value is None:
        return None
    from .dates import FORMS, missing_day, parse_date

    date = parse_date(value, _data_year)
    if date is None:
        no_such = missing_day(value)
        if no_such:  # the form is right; the month has no such day
            raise typer.BadParameter(f"{no_such}은 없는 날짜입니다.", param_hint=opt)
        from .korean import cut

        raise typer.BadParameter(f"날짜로 읽을 수 없습니다: {cut(value)}. 이렇게 적으세요: {FORMS}.", param_hint=opt)
    return date


#: the Korean names an output format may be given by (--format 텍스트 = --format text)
FORMAT_WORDS = {"텍스트": "text", "마크다운": "md"}


def _usage_format(value: str, allowed: tuple[str, ...]) -> str:
    """--format as the program knows it: text, md, html or pdf, given in English or Korean (텍스트,
    마크다운), in any case. One it does not know, or not among `allowed`, is a usage error (exit 2)."""
    fmt = FORMAT_WORDS.get(value.strip(), value.strip().lower())
    if fmt not in allowed:
        names = {v: k for k, v in FORMAT_WORDS.items()}
        listed = ", ".join(f"{f}({names[f]})" if f in names else f for f in allowed)
        from .korean import cut

        raise typer.BadParameter(f"없는 형식입니다: {cut(value)}. {listed} 중 하나를 고르세요.", param_hint="--format")
    return fmt


# ------------------------------------------------------------------- fight ----
@app.command()
def fight(
    line: List[str] = typer.Argument(..., metavar="'공격자 vs 수비자'",
                                     help="한 셀의 전투. 예: \"거신 vs 별마대, 행성굴착기(정착)\""),
    response: Optional[List[str]] = typer.Option(None, "--response", "-r", metavar="'누가 카드 [대상]'",
                                                 help="대응턴 선언(선언 순서대로 여러 번). 예: --response \"수비자 재부팅 행성굴착기\""),
    battle: Optional[List[str]] = typer.Option(None, "--battle", "-b", metavar="'누가 카드 [대상]'",
                                               help="전투 1단계의 (전투) 특수카드(선언 순서대로 여러 번). 예: --battle \"공격자 피의장막\""),
    cell: Optional[str] = typer.Option(None, "--cell", metavar="셀",
                                       help="전투가 벌어지는 셀 (예: 2,4). 적으면 답에 그 셀 좌표가 나오고, 적지 않으면 "
                                            "나오지 않습니다."),
    save: Optional[str] = typer.Option(None, "--save", metavar="파일",
                                       help="같은 전투를 시나리오 YAML로 저장합니다 (고쳐서 flamer simulate로 다시 풀기). "
                                            "옆의 임시 파일에 다 쓴 뒤 바꿔 넣으므로, 쓰다가 실패하면 원래 파일은 그대로입니다."),
    as_json: bool = JSON_OPT,
    as_of: Optional[str] = typer.Option(None, "--as-of", metavar="날짜", help="이 날짜까지의 판정만 적용합니다."),
    compare: Optional[str] = typer.Option(None, "--compare", metavar="날짜",
                                          help="이 날짜로도 풀어서 결과 차이와 차이를 만든 판정을 보여 줍니다."),
    brief: bool = typer.Option(False, "--brief", help="판정 요약(4줄 이하)만 출력합니다."),
    full: bool = typer.Option(False, "--full",
                              help="판정과 이유만이 아니라 단계별 풀이 전체를 출력합니다: 대응턴 스택, 1~7단계의 공격마다 HP와 "
                                   "포획, 결정마다 근거 조항(번호와 제목)과 판정. flamer simulate의 답과 같은 꼴입니다."),
    fmt: str = typer.Option("text", "--format", metavar="형식", autocompletion=complete.choices(complete.FORMATS), help="사람용 출력 형식: text(텍스트, 기본), md(마크다운), html."),
    stat: Optional[List[str]] = typer.Option(None, "--stat", metavar="'카드이름 스탯 값'",
                                             help="카드 데이터에 없는(미상) 수치를 직접 넣습니다(여러 번). 스탯: 레벨, 체력, 공격력, 비용 "
                                                  "(lv, hp, atk, cost). 그 카드의 기물 가운데 전투 문장에 그 수치를 적지 않은 기물에 "
                                                  "쓰이고, 출력에 '직접 넣은 값'으로 표시됩니다. 예: --stat \"개미 체력 2\""),
    link: bool = typer.Option(False, "--link",
                              help="답 뒤 마지막 줄에 같은 판정을 여는 판정기 링크(사이트의 판정기 페이지)를 출력합니다. "
                                   "--json이면 JSON 객체의 마지막 키로, --format html이면 페이지 안에(불가 판정도 페이지로), "
                                   "--format md면 <링크> 꼴의 자동 링크로 넣습니다. "
                                   "사이트 주소가 필요합니다(--site-url 또는 FLAMER_SITE_URL)."),
    site_url: Optional[str] = typer.Option(None, "--site-url", metavar="주소",
                                           help="--link에 쓸 사이트 주소: flamer site로 만든 사이트를 올린 곳의 웹 주소. "
                                                "없으면 환경 변수 FLAMER_SITE_URL. 영문자·숫자와 - _ . ~ : / @ 말고는 "
                                                "퍼센트 인코딩해서 씁니다."),
):
    """한 줄로 적은 전투를 풉니다: 왼쪽이 공격자(턴 플레이어), 오른쪽이 수비자.

    답은 판정(누가 몇 회차에 점령하고 무엇을 포획했는지)과 그 판정을 가른 이유 몇 줄입니다. 단계별 풀이와
    모든 근거 조항은 --full, 네 줄 요약은 --brief.

    기물은 쉼표로 나누고, 카드 이름 뒤 괄호에 상태·수치를, 뒤에 개수를 적습니다:
    정착/기동, lv5 hp3 atk2 cost4 (레벨5 체력3 공격2 비용4), 구조물, x2 (×2, *2, 2기).
    데이터베이스에 없는 기물은 이름(lv2 hp2 atk1)처럼 적습니다. 진영 코드를 정하려면 "DGM: 수문장 vs BGM: 개미".

    대응·(전투) 선언은 '누가 카드 [능력] [대상] [비용 기물] [셀 x,y]': 누가 = 공격자/수비자(또는 진영 코드),
    대상·비용은 카드 이름(같은 카드의 기물이 둘이면 행성굴착기2처럼 번호까지).

    카드 데이터에 없는 수치(미상)는 판정이 실제로 그 값에 달려 있을 때만 묻습니다(한 번 맞고 포획되는 정착 기물,
    비용으로 치운 기물은 묻지 않음). 터미널이면 하나씩 묻고, 아니면 필요한 값을 적은 오류로 끝납니다(종료 코드 1):
    전투 문장의 카드 이름 뒤 괄호에 적거나(개미(체력2)) --stat "개미 체력 2"로 넣으세요. 넣은 값에 따라 다른 값이
    더 필요할 수 있습니다.

    \b
    예: flamer fight "수문장 x2 vs 개미(lv1 hp2 atk1), 증폭기(정착 atk0)"
        flamer fight "거신, 장인 vs 개미(정착 lv1 hp2 atk1)" -r "수비자 진내폭격 비용 개미" --compare 2026-09-23
        flamer fight "수문장 vs 개미" --stat "개미 hp 2" --stat "개미 atk 1"
    """
    fmt = _usage_format(fmt, _FORMATS)
    if brief and full:
        raise typer.BadParameter("--brief와 --full은 함께 쓸 수 없습니다. 요약만이면 --brief, 풀이 전체면 --full.",
                                 param_hint="--full")
    if save is not None and not save.strip():
        raise typer.BadParameter("빈 경로입니다. 저장할 파일 이름을 주세요.", param_hint="--save")
    as_of = _usage_date(as_of, "--as-of")
    compare = _usage_date(compare, "--compare")
    site = _site_url(link, site_url)

    def go():
        _fight(" ".join(line), response, battle, cell, save, as_json, as_of, compare, brief, full, fmt, stat, site)

    _run(go, as_json=as_json)


def _fight(text: str, response, battle, cell, save, as_json: bool, as_of, compare, brief: bool, full: bool, fmt: str,
           stat, site) -> None:
    """`flamer fight` once its options are checked: the line built into a scenario (data), resolved once
    (dispute.settle, asking at a terminal for what the verdict needs), saved with --save, printed."""
    from dataclasses import replace

    from . import dispute, oneliner
    from .answerout import refused_link, write
    from .errors import FlamerError, Forbidden
    from .render import render

    corpus = _corpus()
    built = oneliner.build(corpus, text, responses=response, battles=battle,
                           cell=oneliner.DEFAULT_CELL if cell is None else cell, as_of=as_of)
    oneliner.apply_stats(corpus, built, stat)
    for n in built.notices:
        sys.stderr.write(render("cli/fight_notice.txt.j2", n=n))
    display = save or "flamer fight"

    def url() -> Optional[str]:  # the calculator link of the fight as given so far (prompted values too)
        if site is None:
            return None
        from .links import build as build_link

        given = [s.strip() for s in stat or ()]
        return build_link(site, text, response or (), battle or (), next(iter(built.doc["cells"])),
                          given + [r["spec"] for r in built.player if r["prompted"]], as_of)

    def refused(exc):
        """An error of the fight, pointed at the line; a refused play (불가) is a verdict and keeps the link."""
        err = oneliner.relocate(exc, built, display)
        if site is not None and isinstance(err, Forbidden):
            err.link = url()
            if not as_json:
                refused_link(err, fmt, _corpus)
        return err

    # what the player wrote, for the words of the answer (never the JSON): the sides the cards could not
    # tell apart are 공격자 / 수비자, and a cell the player did not name is not shown
    people = {"roles": built.roles, "cell": None if cell is not None else next(iter(built.doc["cells"])),
              "fight": True}
    try:
        settled = dispute.settle(corpus, built, display=display, as_of=as_of, compare=compare, people=people,
                                 ask=lambda missing: _ask_missing(missing, as_json))
    except FlamerError as exc:
        raise refused(exc) from None
    if save:
        from .outfile import write_text

        command = "flamer fight " + " ".join(_shell_quote(a) for a in sys.argv[2:]) if len(sys.argv) > 2 else None
        write_text(save, dispute.saved_yaml(built, command), "--save")
        sys.stderr.write(render("cli/fight_saved.txt.j2", path=save))
    if settled.refused is not None:
        raise refused(settled.refused) from None
    try:
        write(replace(settled.answer, link=url()), corpus, as_json=as_json, fmt=fmt, brief=brief, full=full,
              short=not (full or brief))
    except FlamerError as exc:
        raise refused(exc) from None


def _site_url(link: bool, site_url: Optional[str]) -> Optional[str]:
    """The site address --link builds on (--site-url, else FLAMER_SITE_URL), or None without --link.
    A missing or malformed address is a usage error (exit 2)."""
    if not link:
        if site_url is not None:
            raise typer.BadParameter("--site-url은 --link와 함께 씁니다.", param_hint="--site-url")
        return None
    hint = "--site-url"
    url = site_url
    if url is None:
        url, hint = os.environ.get("FLAMER_SITE_URL") or None, "FLAMER_SITE_URL"
    if url is None or not url.strip():
        raise typer.BadParameter("판정기 링크를 만들 사이트 주소가 없습니다. --site-url URL 또는 환경 변수 "
                                 "FLAMER_SITE_URL로 주세요 (flamer site로 만든 사이트를 올린 곳, "
                                 "예: --site-url https://example.org/flamer).", param_hint="--link")
    import re

    url = url.strip()
    if not re.match(r"^(?i:https?|file)://\S", url) or any(ch in url for ch in "#?") or any(
            ch.isspace() or ord(ch) < 0x20 or 0x7F <= ord(ch) < 0xA0 for ch in url):
        from .cleantext import clean

        raise typer.BadParameter(f"사이트 주소로 쓸 수 없습니다: {clean(url[:80])}. https://example.org/flamer처럼 "
                                 "https://, http:// 또는 file://로 시작하고 공백·#·?가 없는 주소를 주세요.", param_hint=hint)
    return url


def _shell_quote(arg: str) -> str:
    """An argument as a shell would take it back: shlex quoting, or bash's $'…' with escapes when it holds
    a line break or another control character (which a quoted word would carry raw)."""
    import shlex

    from .yamltext import comment_text

    if comment_text(arg) == arg:
        return shlex.quote(arg)
    return "$'" + "".join(comment_text(ch) if ch not in "\\'" else "\\" + ch for ch in arg) + "'"


def _ask_missing(missing, as_json: bool) -> dict:
    """Ask a person at a terminal for the unknown stats the verdict needs, once per card (or piece named
    in the line only) and stat: the answer is that card's value for every piece of it, as --stat gives
    it. Elsewhere one error listing them (--json: the interface's `missing` list, piece by piece).
    Returns (piece id, stat) → value for every piece asked about."""
    from .engine.types import stat_in_range
    from .errors import MissingStats
    from .oneliner import stat_rule
    from .render import render

    if as_json or not (sys.stdin.isatty() and sys.stderr.isatty()):
        raise MissingStats(missing, render("cli/fight_missing.txt.j2", missing=missing).rstrip())
    values = {}
    groups: dict = {}
    for m in missing:
        groups.setdefault((m.card or m.label, m.stat), []).append(m)
    for group in groups.values():
        m = group[0]
        while True:
            sys.stderr.write(render("cli/fight_prompt.txt.j2", m=m, pieces=[g.piece for g in group]))
            sys.stderr.flush()
            try:
                answer = input()
            except (EOFError, KeyboardInterrupt):
                from .errors import FlamerError

                raise FlamerError("\n중단했습니다.") from None
            try:
                value = int(answer.strip())
            except ValueError:
                sys.stderr.write(render("cli/fight_prompt_retry.txt.j2", answer=answer.strip(), rule=None))
                continue
            if stat_in_range(m.stat, value):  # the rule of the line and of scenario files (engine.types.STAT_MIN)
                values.update({(g.piece, g.stat): value for g in group})
                break
            sys.stderr.write(render("cli/fight_prompt_retry.txt.j2", answer=answer.strip(), rule=stat_rule(m.stat)))
    return values


# ------------------------------------------------------------------ search ----
#: the longest query `search` accepts (characters, words); the same cap holds for the name or id that
#: `term`, `timing`, `card`, `rule`, `example` and `faq` look up. README states them
SEARCH_MAX_CHARS = 500
SEARCH_MAX_WORDS = 30


def check_length(text: str, what: str, fix: str) -> None:
    """Refuse (BadInput, exit 1) an argument longer than a search query may be, before any lookup: a name
    of 100 KB took 15-20 s of fuzzy matching and came back whole in the error. The message repeats
    none of it."""
    words = len(text.split())
    if len(text) > SEARCH_MAX_CHARS or words > SEARCH_MAX_WORDS:
        from .errors import BadInput
        from .korean import josa

        raise BadInput(f"{josa(what, '이/가')} 너무 깁니다 ({len(text):,}자, {words:,}단어; 한도 {SEARCH_MAX_CHARS}자·"
                       f"{SEARCH_MAX_WORDS}단어). 고치는 법: {fix}")


#: the Korean names of the kinds `search --kind` takes
SEARCH_KIND_WORDS = {"조항": "clause", "판정": "ruling", "질문": "faq", "예시": "example", "카드": "card", "용어": "term"}


@app.command()
def search(
    query: List[str] = typer.Argument(..., metavar="검색어...", help="찾을 말. 띄어쓰기·오타·조사·초성·영문 자판 입력도 됩니다."),
    limit: int = typer.Option(10, "--limit", "-n", min=1, metavar="개수", help="보여 줄 결과 수 (기본 10)."),
    kind: Optional[str] = typer.Option(None, "--kind", "-k", metavar="종류", autocompletion=complete.choices(complete.SEARCH_KINDS),
                                       help="종류만: 조항(clause), 판정(ruling), 질문(faq), 예시(example), 카드(card), 용어(term)."),
    as_of: Optional[str] = ASOF_OPT,
    explain: bool = typer.Option(False, "--explain", help="상위 결과마다 검색어의 각 말이 무엇과 어떻게(원형·유의어·오타·초성) 맞았는지, 그 가중치와 질문 예와 닮은 정도를 보여 줍니다."),
    as_json: bool = JSON_OPT,
):
    """규칙·판정·FAQ·예시·용어·카드를 한꺼번에 찾습니다. 문장으로 물어도 됩니다.

    예: flamer search 대응 스택 / flamer search ㄷㅇㅅㅌ / flamer search 돈 얼마 들어와
    """
    if not " ".join(query).strip():
        raise typer.BadParameter("찾을 말이 비어 있습니다 (예: flamer search 대응 스택).", param_hint="검색어")
    as_of = _usage_date(as_of, "--as-of")
    k = kind
    if k is not None:  # a kind the search does not know is a usage error (exit 2)
        from .korean import quoted
        from .search import KINDS

        k = SEARCH_KIND_WORDS.get(k.strip(), k.strip().lower())
        if k not in KINDS:
            raise typer.BadParameter(f"종류 {quoted(kind, '을/를')} 모릅니다. 다음 중 하나를 고르세요: "
                                     f"{', '.join(f'{ko}({en})' for ko, en in SEARCH_KIND_WORDS.items())}.",
                                     param_hint="--kind")

    def go():
        from .search import search_report, shown_matches

        q = " ".join(query)
        check_length(q, "검색어", "찾을 말의 핵심 낱말 몇 개만 적으세요 (예: flamer search 대응 스택).")
        from .searchindex import load_index

        index = load_index()
        obj = search_report(index, q, kind=k, limit=min(limit, 5) if explain else limit, as_of=as_of,
                            explain=explain or not as_json)
        if as_json:
            _emit(obj, True)
        elif explain:
            _emit(obj, False, "cli/search_explain.txt.j2")
        else:
            for r in obj["results"]:  # why it came up, in the words the player typed
                r.update(shown_matches(index, r))
                r.pop("explain", None)
            _emit(obj, False, "cli/search.txt.j2")

    _run(go, as_json=as_json)


# -------------------------------------------------------------------- rule ----
@app.command()
def rule(
    rule_words: List[str] = typer.Argument(..., metavar="조항", autocompletion=complete.rule_ids,
                                           help="조항 번호 (예: 6.26, 1.10.1, 해석 6.14-1) 또는 판정 날짜 (9/4; 그날 판정이 "
                                                "여럿이면 9/24-2처럼 번호까지). 조항·해석·판정 id도 됩니다. 전각 숫자(６.２６)도 됩니다."),
    as_of: Optional[str] = ASOF_OPT,
    as_json: bool = JSON_OPT,
):
    """조항 하나를 봅니다: 번호와 문안, 출처 페이지, 관련 판정, 함께 볼 조항.

    조항은 번호(6.26)로 찾습니다. 번호는 한 규칙 판 안에서 바뀌지 않습니다. 판정은 날짜(9/4)로 찾고, 그날
    판정이 여럿이면 rules/rulings.yaml에 적힌 차례대로 번호를 붙입니다(9/24-1, 9/24-2).

    --as-of 날짜를 주면 그날 유효했던 문안과 그 뒤에 바뀐 판정을 보여 줍니다.
    """
    as_of = _usage_date(as_of, "--as-of")
    rule_id = " ".join(rule_words)

    def go():
        from .lookup import rule as do_rule

        check_length(rule_id, "조항 번호", "조항 번호나 판정 날짜 하나를 적으세요 (예: flamer rule 6.26, flamer rule 9/24-2).")
        corpus = _corpus()
        obj = do_rule(corpus, rule_id, as_of)
        from .handles import example_number, faq_number

        _emit(obj, as_json, "cli/rule.txt.j2", **_lookup_words(corpus),
              faq_questions={f: corpus.faq[f]["question"] for f in obj.get("faq", ())},
              example_titles={e: corpus.examples[e]["title"] for e in obj.get("examples", ())},
              faq_numbers={f: faq_number(corpus, f) for f in obj.get("faq", ())},
              example_numbers={e: example_number(corpus, e) for e in obj.get("examples", ())})

    _run(go, as_json=as_json)


@app.command()
def rulings(
    since: Optional[str] = typer.Option(None, "--since", metavar="날짜", help="이 날짜 이후(포함)."),
    until: Optional[str] = typer.Option(None, "--until", metavar="날짜", help="이 날짜 이전(포함)."),
    as_json: bool = JSON_OPT,
):
    """날짜가 붙은 판정(확정·정정·개정·폐지·도입…)을 오래된 순으로 봅니다. 판정 하나는 flamer rule 날짜로
    봅니다(9/4; 그날 판정이 여럿이면 9/24-2)."""
    since, until = _usage_date(since, "--since"), _usage_date(until, "--until")

    def go():
        from .lookup import rulings as do_rulings

        corpus = _corpus()
        _emit(do_rulings(corpus, since, until), as_json, "cli/rulings.txt.j2", **_lookup_words(corpus))

    _run(go, as_json=as_json)


# ------------------------------------------------------------------- cards ----
@app.command()
def card(
    name: List[str] = typer.Argument(..., metavar="카드이름", autocompletion=complete.card_names,
                              help="카드 이름. 오타·초성·띄어쓰기 차이도 됩니다."),
    as_json: bool = JSON_OPT,
):
    """카드 한 장: 진영, 등급, Lv·HP·ATK·cost, 능력과 타이밍. 룰북에 없는 값은 '미상'."""

    def go():
        from .lookup import card as do_card

        text = " ".join(name)
        check_length(text, "카드 이름", "카드 이름 하나를 적으세요 (예: flamer card 별마대).")
        corpus = _corpus()
        _emit(do_card(corpus, text), as_json, "cli/card.txt.j2", **_lookup_words(corpus))

    _run(go, as_json=as_json)


@app.command()
def cards(
    faction: Optional[str] = typer.Option(None, "--faction", "-f", metavar="진영", autocompletion=complete.choices(complete.FACTIONS),
                                           help="진영: 대광명연방(DGM), 밤결무리(BGM), 미상."),
    grade: Optional[str] = typer.Option(None, "--grade", "-g", metavar="등급", autocompletion=complete.choices(complete.GRADES),
                                         help="등급: 초급, 중급, 고급, 미상."),
    timing: Optional[str] = typer.Option(None, "--timing", "-t", metavar="타이밍", autocompletion=complete.choices(complete.CARD_TIMINGS),
                                          help="타이밍 태그: 전투, 대응, 이동, 등장."),
    structure: Optional[bool] = typer.Option(None, "--structure/--no-structure", help="구조물만 / 구조물 빼고."),
    type_: Optional[str] = typer.Option(None, "--type", metavar="종류", autocompletion=complete.choices(complete.CARD_TYPES),
                                         help="종류: 기물카드(piece) 또는 특수카드(special)."),
    as_json: bool = JSON_OPT,
):
    """카드 목록 (필터: 진영, 등급, 타이밍 태그, 구조물, 종류)."""
    from .lookup import BadFilter, card_filters

    try:  # a filter value the tool does not know is a usage error (exit 2), before any data is read
        card_filters(faction, grade, timing, type_)
    except BadFilter as exc:
        raise typer.BadParameter(exc.message, param_hint=exc.option) from None

    def go():
        from .lookup import cards as do_cards

        _emit(do_cards(_corpus(), faction, grade, timing, structure, type_), as_json, "cli/cards.txt.j2")

    _run(go, as_json=as_json)


# ------------------------------------------------------- glossary / faq ----
@app.command()
def term(
    word: Optional[List[str]] = typer.Argument(None, metavar="[용어]", autocompletion=complete.term_names,
                                                help="찾을 용어. 없으면 용어집 전체."),
    as_json: bool = JSON_OPT,
):
    """용어집: 기동, 정착, 확보, 조우, 맞대응 … 뜻과 관련 조항. 용어 없이 치면 전체를 가나다순으로."""

    def go():
        from .lookup import term as do_term, terms as do_terms

        if word:
            text = " ".join(word)
            check_length(text, "용어", "용어 하나를 적으세요 (예: flamer term 확보).")
            corpus = _corpus()
            _emit(do_term(corpus, text), as_json, "cli/term.txt.j2", **_lookup_words(corpus))
        else:
            from .korean import collation_key

            data = do_terms(_corpus())
            data["terms"].sort(key=lambda t: collation_key(t["term"]))  # 가나다 order, as in the book and the site
            _emit(data, as_json, "cli/terms.txt.j2")

    _run(go, as_json=as_json)


@app.command()
def faq(
    faq_id: Optional[str] = typer.Argument(None, metavar="[번호|낱말]", autocompletion=complete.faq_ids,
                                           help="FAQ 번호(3)나 질문에 든 낱말(주사위). 없으면 전체."),
    fmt: str = typer.Option("text", "--format", metavar="형식",
                            autocompletion=complete.choices(complete.FORMATS + ("pdf",)),
                            help="text(텍스트: 터미널), md(마크다운), html(인쇄용 페이지: flamer book의 FAQ 부분과 같은 모양), pdf."),
    output: Optional[str] = typer.Option(None, "--output", "-o", metavar="파일",
                                         help="출력 파일. 없으면 표준 출력(pdf는 파이프로 받을 때만). 옆의 임시 파일에 다 쓴 뒤 "
                                              "바꿔 넣으므로, 쓰다가 실패하면 원래 파일은 그대로입니다."),
    as_of: Optional[str] = ASOF_OPT,
    as_json: bool = JSON_OPT,
):
    """'자주 하는 실수 · 질문' 항목을 봅니다. 항목은 번호(flamer faq 3)나 질문에 든 낱말(flamer faq 주사위)로
    고릅니다. 번호는 rules/faq.yaml의 순서이고, 새 항목은 끝에 붙어 번호가 바뀌지 않습니다.

    --format html|md|pdf는 인쇄용 FAQ 페이지입니다: 페이지별 FAQ 전부와 대응턴의 판정 사례, 시나리오가 붙은
    항목은 계산한 결과, 끝에 답이 인용한 조항. --as-of 날짜를 주면 그날의 규칙으로 풉니다.
    """
    fmt = _usage_format(fmt, ("text", "md", "html", "pdf"))
    _check_pdf_target(fmt, output)
    as_of = _usage_date(as_of, "--as-of")

    def go():
        from .lookup import faq as do_faq

        if faq_id is not None:
            check_length(faq_id, "FAQ 번호나 낱말", "FAQ 번호나 질문의 낱말 하나를 적으세요 (예: flamer faq 3, "
                                                   "flamer faq 주사위; 목록은 그냥 flamer faq).")
        corpus = _corpus()
        data = do_faq(corpus, faq_id)
        if as_json or fmt == "text":
            if output:
                from .errors import BadInput

                raise BadInput("-o는 --format md, html, pdf에서만 씁니다.")
            _emit(data, as_json, "cli/faq.txt.j2", **_lookup_words(corpus))
            return
        from .book import build_faq, render_html, render_md
        from .pageout import PageReport, write_page

        report = PageReport("faq", fmt, {"faq": len(corpus.faq)})
        with report.progress:
            report.step("solve")
            page = build_faq(corpus, as_of, data["faq"][0]["id"] if faq_id is not None else None)
            report.step("render")
            text = render_md(page) if fmt == "md" else render_html(page)
            pages, size = write_page(text, fmt, output, progress=report.pdf_step)
        report.done(output, pages, size)

    _run(go, as_json=as_json)


def _check_pdf_target(fmt: str, output: Optional[str]) -> None:
    """A PDF goes to -o FILE, or to standard output only when that is not a terminal (a pipe or a file).
    An empty -o is a usage error (for every format)."""
    if output is not None and not output.strip():
        raise typer.BadParameter("빈 경로입니다. 쓸 파일 이름을 주세요.", param_hint="-o")
    if fmt == "pdf" and not output and sys.stdout.isatty():
        raise typer.BadParameter("PDF는 터미널에 출력할 수 없습니다. -o 파일.pdf로 저장하거나 파이프로 받으세요.",
                                 param_hint="-o")


# -------------------------------------------------------------------- book ----
@app.command()
def book(
    as_of: Optional[str] = typer.Option(None, "--as-of", metavar="날짜",
                                        help="그날의 규칙으로 만든 책: 그날 유효했던 조항 문안, 그날까지의 판정, "
                                             "그날 기준으로 푼 예시 (2026-09-24, 9/24, 9월 24일도 됩니다)."),
    fmt: str = typer.Option("html", "--format", metavar="형식", autocompletion=complete.choices(("html", "pdf")),
                            help="html(기본: 스타일과 그림이 든 파일 하나) 또는 pdf(인쇄용)."),
    output: Optional[str] = typer.Option(None, "--output", "-o", metavar="파일",
                                         help="출력 파일. 없으면 표준 출력(pdf는 파이프로 받을 때만). 옆의 임시 파일에 다 쓴 뒤 "
                                              "바꿔 넣으므로, 쓰다가 실패하면 원래 파일은 그대로입니다."),
    as_json: bool = JSON_OPT,
):
    """룰 핸드북 한 권: 표지, 차례, 규칙(페이지별 조항), 판정 연표, FAQ, 예시(그림·계산표), 카드 표, 용어집,
    찾아보기(그 말이 실제로 나오는 쪽만), 끝에 데이터 판과 명령줄 안내. 보드 그림 옆에는 번호마다 카드 이름과 진영을 적습니다.

    HTML은 스타일과 그림이 든 파일 하나로, 네트워크 없이 열리고 휴대폰에서도 읽히며 브라우저에서 그대로 인쇄됩니다.
    PDF는 -o 파일로 저장합니다(-o 없이 파이프로 받으면 표준 출력으로).
    --json은 책의 요약(기준일, 데이터 판, 항목 수, 예시 검사, 판정마다 결과가 바뀌는 예시)을 출력합니다.

    \b
    예: flamer book -o 핸드북.html
        flamer book --format pdf -o 핸드북.pdf
        flamer book --as-of 9/23 -o 0923.html
    """
    fmt = _usage_format(fmt, ("html", "pdf"))
    if not as_json:
        _check_pdf_target(fmt, output)
    as_of = _usage_date(as_of, "--as-of")

    def go():
        from .book import build_book, render_html, summary
        from .pageout import PageReport, write_page

        corpus = _corpus()
        if as_json:
            _emit(summary(build_book(corpus, as_of)), True)
            return
        report = PageReport("book", fmt, {"clauses": len(corpus.clauses),
                                           "examples": sum(1 for e in corpus.examples.values() if e["type"] != "reasoned")})
        with report.progress:
            report.step("solve")
            model = build_book(corpus, as_of)
            report.step("render")
            html = render_html(model)
            report.figures(html)
            pages, size = write_page(html, fmt, output, progress=report.pdf_step)
        report.done(output, pages, size)

    _run(go, as_json=as_json)


# -------------------------------------------------------------------- site ----
_PYODIDE = "314.0.8"  # flamer_ref.pyodidefetch.PYODIDE_VERSION (said in --help without importing the builder)


@app.command()
def site(
    directory: str = typer.Argument(..., metavar="폴더", help="사이트를 쓸 폴더 (없으면 만듭니다)."),
    as_of: Optional[str] = typer.Option(None, "--as-of", metavar="날짜",
                                        help="그날의 규칙으로 만든 사이트: 그날 유효했던 조항 문안, 그날까지의 판정 "
                                             "(2026-09-24, 9/24, 9월 24일도 됩니다)."),
    port: Optional[str] = typer.Argument(None, metavar="[포트]",
                                         help="--serve의 포트 (기본 8000; 쓰는 중이면 다음 빈 포트)."),
    pyodide: Optional[str] = typer.Option(None, "--pyodide", metavar="경로",
                                          help=f"판정기 엔진의 Pyodide {_PYODIDE}: npm 패키지 파일이 든 폴더나 그 압축 파일 "
                                               "(없으면 환경 변수 FLAMER_PYODIDE, 사용자 캐시, npm 레지스트리 순으로 구함)."),
    no_engine: bool = typer.Option(False, "--no-engine",
                                   help="판정기 엔진 없이 만듭니다: 읽기와 검색만 되고 사이트가 약 17메가바이트 작아집니다 "
                                        "(환경 변수 FLAMER_PYODIDE=0도 같음)."),
    serve: bool = typer.Option(False, "--serve",
                               help="만든 폴더를 이 컴퓨터(127.0.0.1)의 웹 서버로 엽니다 (판정기는 웹 서버로 연 사이트에서만 "
                                    "동작합니다). 폴더 안의 일반 파일만 보내고(심볼릭 링크는 따라가지 않고 폴더 목록은 보이지 "
                                    "않음), 이 컴퓨터의 이름으로 온 요청에만 답합니다. 터미널에서 중단하면 끝납니다."),
    as_json: bool = JSON_OPT,
):
    """정적 레퍼런스 사이트를 폴더에 씁니다: 목차와 검색, 규칙 페이지(조항마다 고정 링크), 카드 페이지,
    판정 연표, FAQ, 그림이 든 예시, 용어집, 그리고 판정기(전투·시나리오를 브라우저 안에서 푸는 페이지).

    웹 서버 없이 폴더의 index.html을 브라우저로 바로 열어도 읽기와 검색은 동작하고, 검색은 미리 만든 색인으로 오프라인에서 됩니다(초성·오타도).
    조항 링크는 rules/섹션id.html#조항id 꼴로 고정됩니다 (예: rules/combat.html#combat.step7.sweep).

    판정기는 이 패키지의 파이썬 코드를 브라우저에서 Pyodide로 돌립니다. Pyodide는 --pyodide 경로, 환경 변수
    FLAMER_PYODIDE, 사용자 캐시, npm 레지스트리(내려받아 코드에 고정한 해시로 확인; 5분 안에 다 받지 못하면 그만둠) 순으로
    구하고, 어디서도 못 구하면 엔진 없이 만들고 그렇다고 알립니다. 웹 서버(아무 정적 호스팅)로 연 사이트에서 돌고, 한 번 연 뒤에는 오프라인에서도 됩니다.

    빈 폴더, 없는 폴더, 또는 전에 flamer site가 만든 폴더에만 씁니다. 다시 만들 때는 전에 쓴 파일만 바꾸거나
    지우고(목록: .flamer-site.json), 그 밖의 파일은 건드리지 않습니다. 목록을 먼저 써 두므로, 쓰다가 실패한
    폴더에도 고친 뒤 다시 만들 수 있습니다.

    \b
    예: flamer site 사이트/
        flamer site 사이트/ --serve            (이 컴퓨터에서 판정기 열기)
        flamer site 사이트/ --pyodide pyodide-314.0.8.tgz
        flamer site 0923/ --as-of 9/23 --no-engine
    """
    if not directory.strip():
        raise typer.BadParameter("빈 경로입니다. 사이트를 쓸 폴더 이름을 주세요.", param_hint="DIR")
    as_of = _usage_date(as_of, "--as-of")
    from .digits import fold
    from .korean import cut

    port = None if port is None else fold(port).strip()  # ８０８０ as a Korean IME types it is 8080
    if port is not None and not serve:
        raise typer.BadParameter(f"포트({cut(port)})는 --serve와 함께 적습니다 (예: flamer site 사이트/ --serve 8080).",
                                 param_hint="포트")
    if port is not None and not (port.isascii() and port.isdigit() and 0 < int(port) < 65536):
        raise typer.BadParameter(f"포트는 1~65535의 정수입니다 (지금: {cut(port)}).", param_hint="포트")
    if pyodide is not None and not pyodide.strip():
        raise typer.BadParameter("빈 경로입니다. Pyodide 폴더나 .tgz 파일을 주세요.", param_hint="--pyodide")
    if no_engine and pyodide is not None:
        raise typer.BadParameter("--no-engine과 --pyodide는 함께 쓸 수 없습니다.", param_hint="--no-engine")

    def go():
        from .render import render
        from .site import make_site

        report = make_site(_corpus(), directory, as_of, engine=not no_engine, pyodide=pyodide)
        engine = report["engine"]
        if not engine["included"] and engine["reason"] != "off":  # say it, once, with what to do
            sys.stderr.write(render("site/engine_missing.txt.j2", engine=engine))
        _emit(report, as_json, "site/summary.txt.j2")
        if serve:
            _serve(directory, port, as_json)

    _run(go, as_json=as_json)


def _serve(directory: str, port: Optional[str], as_json: bool) -> None:
    """`flamer site DIR --serve [PORT]`: serve the folder on 127.0.0.1 until Ctrl-C. Without a port,
    8000 or the next free one of the twenty after it."""
    from urllib.parse import quote

    from .errors import BadInput, os_reason
    from .render import render
    from .siteserve import make_server

    tries = [int(port)] if port is not None else list(range(8000, 8021))
    server, last = None, None
    for p in tries:
        try:
            server = make_server(directory, p)
            break
        except OSError as exc:
            last = exc
    if server is None:
        raise BadInput(render("site/serve_failed.txt.j2", port=port, first=tries[0], last=tries[-1],
                              reason=os_reason(last)).rstrip())
    host, bound = server.server_address[:2]
    page = "판정기.html" if os.path.isfile(os.path.join(directory, "판정기.html")) else "index.html"
    url = f"http://{host}:{bound}/{quote(page)}"
    stream = sys.stderr if as_json else sys.stdout
    stream.write(render("site/serving.txt.j2", url=url, page=page, host=host, port=bound))
    stream.flush()
    import signal

    def stop(*_args):  # a terminal's Ctrl-C, and a plain `kill` as well
        raise KeyboardInterrupt

    try:
        signal.signal(signal.SIGTERM, stop)
    except (ValueError, OSError):  # not the main thread: Ctrl-C only
        pass
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        stream.write(render("site/serve_stopped.txt.j2"))
    finally:
        server.server_close()


@app.command()
def example(
    example_id: Optional[str] = typer.Argument(None, metavar="[예시]", autocompletion=complete.example_ids,
                                               help="예시 번호(3)나 제목(장면5, '증폭기 결속'). 없으면 목록."),
    show_scenario: bool = typer.Option(False, "--scenario",
                                       help="예시의 시나리오 YAML을 출력합니다 (flamer simulate -로 그대로 다시 풉니다). "
                                            "시나리오가 여럿인 예시는 8#2처럼 번호로 고릅니다."),
    as_json: bool = JSON_OPT,
):
    """룰북의 예시(룰북 예시·보드 상황 상세 예시·그림보드 예시)를 봅니다. 번호나 제목으로 고릅니다.

    예: flamer example 장면5 / flamer example 2 --scenario | flamer simulate -
    """
    if show_scenario and not example_id:
        raise typer.BadParameter("--scenario에는 예시 번호나 제목이 필요합니다 (예: flamer example 장면5 --scenario).",
                                 param_hint="--scenario")

    def go():
        from .lookup import example as do_example, examples_list

        if example_id is not None:
            check_length(example_id, "예시", "예시 번호나 제목 하나를 적으세요 (예: flamer example 장면5, 목록은 그냥 "
                                             "flamer example).")
        if show_scenario:
            from .handles import example_number, faq_number
            from .lookup import resolve_example
            from .render import render
            from .scenario_files import example_scenario

            corpus = _corpus()
            base, hash_, num = example_id.partition("#")
            eid = resolve_example(corpus, base)
            handle = (f"FAQ{faq_number(corpus, eid)}" if eid in corpus.faq else str(example_number(corpus, eid))
                      if eid in corpus.examples else eid)
            out = example_scenario(corpus, eid + hash_ + num, handle=handle)
            if as_json:
                _emit({k: out[k] for k in ("id", "title", "index", "count", "scenario")}, True)
                return
            if out["count"] > 1 and out["picked_by"] == "default":
                sys.stderr.write(render("scenario/example_note.txt.j2", **out))
            sys.stdout.write(out["yaml"])
            return
        if example_id is not None:  # '' is an empty id (an error), not 'list them all'
            corpus = _corpus()
            _emit(do_example(corpus, example_id), as_json, "cli/example.txt.j2", **_lookup_words(corpus))
        else:
            _emit(examples_list(_corpus()), as_json, "cli/examples.txt.j2")

    _run(go, as_json=as_json)


@app.command()
def timing(
    name: List[str] = typer.Argument(..., metavar="이름", autocompletion=complete.timing_names,
                              help="카드, 능력, 타이밍 태그((대응), (전투), (이동), 등장효과, 구조물) 또는 용어(맞대응 …)."),
    as_json: bool = JSON_OPT,
):
    """언제 쓸 수 있나: 누구의 라운드, 어느 턴·단계, 손패/필드, 기물 상태, 맞대응, 조우 필요, 그 뒤.

    이름의 작은 오타는 고쳐 읽고 알려 줍니다(맞대웅 → 맞대응). 어느 이름과도 가깝지 않으면 짐작하지 않고 비슷한
    이름을 보여 주며 끝납니다(종료 코드 1).

    예: flamer timing 진내폭격 / flamer timing 비행 / flamer timing "(대응)" / flamer timing 구조물
    """

    def go():
        from .lookup import timing as do_timing

        text = " ".join(name)
        check_length(text, "이름", "카드·능력·타이밍 태그·용어 이름 하나를 적으세요 (예: flamer timing 진내폭격).")
        corpus = _corpus()
        _emit(do_timing(corpus, text), as_json, "cli/timing.txt.j2", **_lookup_words(corpus))

    _run(go, as_json=as_json)


# ---------------------------------------------------------------- validate ----
@app.command()
def validate(
    data: Optional[str] = typer.Option(None, "--data", metavar="폴더", help="검사할 데이터 폴더 (rules/, cards/가 있는 곳)."),
    write_numbers: bool = typer.Option(False, "--write-numbers",
                                       help="조항 번호 기록(rules/numbers.lock.yaml)을 지금 데이터의 번호로 씁니다. "
                                            "같은 규칙 판에서 번호가 바뀌었으면 쓰지 않습니다. rules/가 심볼릭 링크이거나 "
                                            "기록 자리에 일반 파일이 아닌 것(이름 있는 파이프 등)이 있어도 쓰지 않습니다."),
    as_json: bool = JSON_OPT,
):
    """rules/와 cards/ 전체를 엄격하게 검사합니다. 문제가 하나라도 있으면 종료 코드 1.

    조항 번호가 번호 기록과 같은지, 사람이 읽는 칸에 데이터 편집자에게 남긴 말(출처 페이지 id 등)이 없는지도
    봅니다 (docs/DATA.md).
    """
    if data is not None and not data.strip():
        raise typer.BadParameter("빈 경로입니다. 검사할 데이터 폴더를 적으세요.", param_hint="--data")

    def go():
        from . import render  # the edge words coded problems (errors.use_wording)
        from .checks import validate_tree
        from .errors import DataError

        from .corpus import citing

        got = validate_tree(data, write_numbers=write_numbers)
        with citing(got.corpus):  # a problem cites the clause numbers of the tree it was found in
            for p in got.problems:
                p.message  # noqa: B018 - worded now, from that tree's data (a problem keeps its words)
        if got.numbers_written is not None:
            sys.stderr.write(render.render("cli/numbers_written.txt.j2", data=got.numbers_written))
        if got.problems:  # every problem of validate: {"ok": false, "problems": […]} under --json
            if as_json:
                from .cleantext import clean, json_text

                sys.stderr.write(clean(DataError(got.problems).message.rstrip()) + "\n")  # Korean on stderr
                sys.stdout.write(json_text({"ok": False, "problems": [
                    {"file": p.file, "line": p.line, "key": p.key, "message": p.message, "fix": p.fix}
                    for p in got.problems]}))
                raise typer.Exit(1) from None
            raise DataError(got.problems)
        from .numbering import LOCK

        _emit({"ok": True, "root": str(got.root), "counts": got.counts, "problems": []}, as_json, "cli/validate.txt.j2",
              numbers={"compared": got.numbers_compared, "version": got.corpus.rules_version, "lock": LOCK})

    _run(go, as_json=as_json)


# ---------------------------------------------------------------- simulate ----
# (issue 3: the combat and response engine)
_FORMATS = ("text", "md", "html")


@app.command()
def simulate(
    file: str = typer.Argument(..., metavar="파일",
                               help="시나리오 YAML 파일 (종류: 전투, 이동, 승리확인, 필드, 라운드, 게임). -이면 표준 입력에서 읽습니다. "
                                    "형식: docs/SCENARIOS.md, 틀: flamer scenario new 전투"),
    as_json: bool = JSON_OPT,
    as_of: Optional[str] = typer.Option(None, "--as-of", metavar="날짜",
                                        help="파일에 적은 기준일 대신 이 날짜까지의 판정만 적용합니다."),
    fmt: str = typer.Option("text", "--format", metavar="형식", autocompletion=complete.choices(complete.FORMATS), help="사람용 출력 형식: text(텍스트, 기본), md(마크다운), html."),
    compare: Optional[str] = typer.Option(None, "--compare", metavar="날짜",
                                          help="이 날짜로도 풀어서 결과 차이와 차이를 만든 판정을 보여 줍니다."),
    all_branches: bool = typer.Option(False, "--all-branches",
                                      help="시나리오에 전투 순서를 적지 않았을 때, 공격자가 고를 수 있는 모든 전투 순서를 풀어 서로 다른 결과를 보여 줍니다."),
    brief: bool = typer.Option(False, "--brief",
                               help="판정(최대 4줄)만 출력합니다: 셀마다 누가 점령했는지, 누가 누구를 포획했는지, 결정한 조항."),
    link: bool = typer.Option(False, "--link",
                              help="답 뒤 마지막 줄에 이 시나리오를 여는 판정기 링크(사이트의 판정기 페이지)를 출력합니다. "
                                   "시나리오는 압축해서 링크에 담습니다(flamer scenario new 라운드의 틀이 2,000자 안쪽). "
                                   "--json이면 JSON 객체의 마지막 키로, --format html이면 페이지 안에, --format md면 <링크> "
                                   "꼴의 자동 링크로 넣습니다. 링크는 파일에 적은 그대로의 시나리오를 담습니다(--as-of는 담지 "
                                   "않음). 사이트 주소가 필요합니다(--site-url 또는 FLAMER_SITE_URL)."),
    site_url: Optional[str] = typer.Option(None, "--site-url", metavar="주소",
                                           help="--link에 쓸 사이트 주소: flamer site로 만든 사이트를 올린 곳의 웹 주소. "
                                                "없으면 환경 변수 FLAMER_SITE_URL."),
):
    """시나리오 하나를 풀어 한국어로 설명합니다: 전투(대응턴 스택 → 1~7단계), 이동, 승리확인, 필드, 라운드(일곱 턴), 게임(라운드를 번갈아).

    카드 데이터에도 파일에도 없는(미상) 수치 하나가 판정을 가르면, 갈림이 세 가지 이하일 때 값의 범위마다 답합니다
    (예: 개미의 HP가 3 이하면 …, 4 이상이면 …). 그 밖에는 어느 기물의 어느 수치를 적어야 하는지 알립니다.

    게임 기록은 기록 전체가 계산 한도 하나를 나눠 씁니다: 모든 라운드의 전투를 합쳐 5,000회차, 결과 8메가바이트. 넘으면 몇
    라운드에서 무엇을 줄일지 알리고 멈춥니다(종료 코드 1).

    종료 코드: 0 풀림(미해결 항목이 있어도), 1 잘못된 시나리오(파일 없음 포함, 계산 한도를 넘는 게임 기록), 2 명령어 사용 오류.
    """
    fmt = _usage_format(fmt, _FORMATS)
    as_of = _usage_date(as_of, "--as-of")
    compare = _usage_date(compare, "--compare")
    if compare and all_branches:
        raise typer.BadParameter("--compare와 --all-branches는 함께 쓸 수 없습니다.", param_hint="--compare")
    site = _site_url(link, site_url)
    # a missing or unreadable file is bad input (exit 1, like any invalid scenario), not a usage error

    def go():
        from .runner import gc_paused
        from .scenario_files import load_any

        corpus = _corpus()
        stdin = _keep_stdin() if site is not None and file == "-" else None
        with gc_paused():  # a scenario of 1,000 cells is millions of small objects, none in a cycle
            scn = load_any(file, corpus, display=file)  # "-": standard input
            from .render import notice_lines

            for note in notice_lines(scn):  # card names read as another name: never silently (stderr only)
                sys.stderr.write(note + "\n")
            link = None if site is None else _scenario_link(site, file, stdin)
            present_scenario(scn, corpus, file=file, as_json=as_json, fmt=fmt, as_of=as_of, compare=compare,
                             all_branches=all_branches, brief=brief, link=link)

    _run(go, as_json=as_json)


def present_scenario(scn, corpus, *, file: str, as_json: bool, fmt: str = "text", as_of: Optional[str] = None,
                     compare: Optional[str] = None, all_branches: bool = False, brief: bool = False,
                     player: Optional[list] = None, link: Optional[str] = None, people: Optional[dict] = None,
                     full: bool = True, short: bool = False) -> None:
    """Resolve a parsed scenario and print it, as `flamer simulate` does: the one path of an answer — resolved
    once into an answer.Answer (each course of the rules in force once), then walked by answerout.write for
    JSON, text, Markdown, HTML or --brief (its words made there, once). The options are answerout.write's;
    player, link and people go with the answer (answer.Answer)."""
    from .answer import answer
    from .answerout import write

    write(answer(scn, corpus, file=file, as_of=as_of, compare_with=compare, all_branches=all_branches,
                 player=player or (), link=link, people=people),
          corpus, as_json=as_json, fmt=fmt, brief=brief, full=full, short=short)


def _keep_stdin() -> bytes:
    """Standard input read whole (as much as a scenario may be, and one byte more), put back as a fresh
    stream for the scenario reader: `simulate - --link` links the very text it read."""
    import io

    from .yamlio import SCENARIO_MAX_BYTES

    stream = sys.stdin
    buffer = getattr(stream, "buffer", None) if stream is not None else None
    try:
        data = buffer.read(SCENARIO_MAX_BYTES + 1) if buffer is not None else (
            stream.read(SCENARIO_MAX_BYTES + 1).encode("utf-8", "surrogateescape") if stream is not None else b"")
    except (OSError, ValueError):
        return b""
    sys.stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", errors="surrogateescape")
    return data


def _scenario_link(site: str, file: str, stdin: Optional[bytes]) -> str:
    """The calculator link of the scenario `file` (read and parsed already): its text as written, compressed
    (links.build_scenario)."""
    from .links import build_scenario
    from .yamlio import SCENARIO_MAX_BYTES

    if stdin is None:
        with open(file, "rb") as fh:
            stdin = fh.read(SCENARIO_MAX_BYTES + 1)
    return build_scenario(site, stdin.decode("utf-8-sig"))


@app.command()
def examples(as_json: bool = JSON_OPT):
    """룰북 예시 가운데 시나리오가 붙은 것을 모두 풀어 기대 결과와 비교합니다. 하나라도 다르면 종료 코드 1.

    시나리오가 없는 예시(페이지가 결과를 시나리오로 옮길 만큼 말하지 않는 것)는 목록에 나오지 않습니다.
    """

    def go():
        from . import runner

        out = runner.check_examples(_corpus())
        _emit(out, as_json, "simulate/examples.txt.j2")
        if not out["ok"]:
            raise typer.Exit(1)

    _run(go, as_json=as_json)


# ------------------------------------------------------------ impact, diff ----
# (issue 27: rulings decided by data — docs/DATA.md 「판정 팀의 페이지」)
def _usage_data(data: Optional[str]) -> Optional[str]:
    if data is not None and not data.strip():
        raise typer.BadParameter("빈 경로입니다. 데이터 폴더를 적으세요.", param_hint="--data")
    return data


@app.command()
def impact(
    draft: str = typer.Argument(..., metavar="초안",
                                help="판정 초안 YAML: rules/rulings.yaml과 같은 형식의 판정 목록 — 새 판정, 앞선 판정의 "
                                     "철회, 데이터에 있는 id면 그 판정의 정정."),
    data: Optional[str] = typer.Option(None, "--data", metavar="폴더", help="초안을 얹을 데이터 폴더 (기본: 지금 데이터)."),
    as_of: Optional[str] = typer.Option(None, "--as-of", metavar="날짜",
                                        help="초안의 가장 늦은 날짜 대신 이 날짜로 두 번 풉니다."),
    generated: str = typer.Option("10000", "--generated", metavar="개수",
                                  help="생성해 푸는 작은 분쟁의 수 (기본 10000; 0이면 예시·FAQ만)."),
    save: Optional[str] = typer.Option(None, "--save", metavar="폴더",
                                       help="판정이 바뀐 장면마다 시나리오 YAML을 이 폴더에 씁니다 (flamer simulate로 그대로 풂)."),
    as_json: bool = JSON_OPT,
):
    """판정 초안을 내기 전에, 내면 무엇이 바뀌는지 봅니다: 모든 예시·FAQ 시나리오와 생성한 작은 분쟁(전투·필드)을
    지금 데이터로 한 번, 초안을 더해 한 번 풀어 판정이 바뀐 것을 보여 줍니다 — 예시·FAQ 먼저, 생성 분쟁은 작은 것부터.

    생성 분쟁은 늘 같은 씨앗으로 만들어 같은 초안이면 같은 목록입니다. 초안이 바꾸는 결정을 묻지 않은 전투는 두 번째로
    풀지 않습니다(결과가 같을 수밖에 없음). 초안이 잘못되면 flamer validate와 같은 오류로 종료 코드 1.

    예: flamer impact 초안.yaml / flamer impact 초안.yaml --json / flamer impact 초안.yaml --save 바뀐장면/
    """
    data = _usage_data(data)
    as_of = _usage_date(as_of, "--as-of")
    from .impact import MAX_GENERATED

    count = generated.strip()
    if not count.isdigit() or int(count) > MAX_GENERATED:
        raise typer.BadParameter(f"0부터 {MAX_GENERATED:,}까지의 정수를 적으세요 (지금: {generated}).",
                                 param_hint="--generated")

    def go():
        from . import render  # noqa: F401 - the edge words coded problems (errors.use_wording)
        from .impact import impact as do_impact
        from .verdicts import changed_line

        out = do_impact(draft, root=data, as_of=as_of, generated=int(count), display=draft)
        if save:
            _save_scenarios(save, out["changed"])
        if as_json:
            _emit(out, True)
            return
        lines = [changed_line(c["before"].splitlines(), c["after"].splitlines()) for c in out["changed"]]
        _emit(out, False, "cli/impact.txt.j2", lines=lines, saved=save)

    _run(go, as_json=as_json)


@app.command()
def diff(
    a: str = typer.Argument(..., metavar="이전", help="날짜(2026-09-23, 9/23: 그날까지의 판정) 또는 데이터 폴더."),
    b: str = typer.Argument(..., metavar="이후", help="날짜 또는 데이터 폴더 (이전 쪽과 견줄 쪽)."),
    data: Optional[str] = typer.Option(None, "--data", metavar="폴더", help="날짜로 적은 쪽이 읽는 데이터 폴더 (기본: 지금 데이터)."),
    fmt: str = typer.Option("text", "--format", metavar="형식", autocompletion=complete.choices(complete.FORMATS),
                            help="text(기본), md(마크다운 소식지), html(한 장짜리 소식지 페이지)."),
    as_json: bool = JSON_OPT,
):
    """두 날짜, 또는 두 데이터 폴더 사이에 무엇이 바뀌었는지: 조항(더함·뺌·문안·번호), 판정(새 판정·철회), 카드,
    그리고 판정이 바뀐 예시·FAQ. --format md|html은 새 핸드북과 함께 올리는 업데이트 소식지입니다.

    조항은 id로 맞추므로 자리만 옮긴 조항은 '번호가 바뀐 조항'입니다. 폴더는 그 데이터의 가장 늦은 판정 날짜로 읽습니다.

    예: flamer diff 2026-09-23 2026-09-25 / flamer diff 지난판/ . --format md > 소식지.md
    """
    fmt = _usage_format(fmt, _FORMATS)
    data = _usage_data(data)

    def go():
        from .diff import bulletin_view, diff as do_diff, public

        out = do_diff(a, b, root=data)
        view = bulletin_view(out)
        if as_json:
            _emit(public(out), True)
            return
        from .render import render
        from .cleantext import clean

        template = {"text": "cli/diff.txt.j2", "md": "diff/bulletin.md.j2", "html": "diff/bulletin.html.j2"}[fmt]
        sys.stdout.write(clean(render(template, data=public(out), view=view), html=fmt == "html"))

    _run(go, as_json=as_json)


def _save_scenarios(folder: str, rows: list) -> None:
    """Each changed case's scenario as FOLDER/<id>.yaml (flamer simulate runs it as it stands)."""
    import yaml

    from .errors import BadInput, os_reason
    from .outfile import write_text

    if not folder.strip():
        raise BadInput("--save: 빈 경로입니다. 시나리오를 쓸 폴더를 적으세요.")
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as exc:
        raise BadInput(f"--save {folder}: 폴더를 만들 수 없습니다 ({os_reason(exc)}).") from None
    for row in rows:
        name = row["id"].replace("#", "-") + ".yaml"
        text = f"# {row['source']} {row['id']}\n" + yaml.safe_dump(row["scenario"], allow_unicode=True, sort_keys=False)
        write_text(os.path.join(folder, name), text, option="--save")


# ---------------------------------------------------------------- scenario ----
scenario_app = typer.Typer(
    rich_markup_mode=None,
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},
    help="시나리오 파일 도우미. 형식 설명: docs/SCENARIOS.md",
)
app.add_typer(scenario_app, name="scenario")


@scenario_app.command("new")
def scenario_new(
    kind: str = typer.Argument(..., metavar="종류", help="전투(combat), 이동(move), 승리확인(victory), 필드(field), 라운드(round), 게임(game).",
                               autocompletion=lambda incomplete: [k for k in ("전투", "이동", "승리확인", "필드", "라운드", "게임",
                                                                              "combat", "move", "victory", "field", "round",
                                                                              "game")
                                                                  if k.startswith(incomplete)]),
):
    """주석이 달린 한국어 시나리오 틀을 출력합니다. 그대로 풀리므로 고쳐 쓰면 됩니다.

    예: flamer scenario new 전투 > 내전투.yaml / flamer scenario new 이동 | flamer simulate -
    """
    from .scenario_files import UnknownKind, kinds_text, template_text

    try:
        text = template_text(kind)
    except UnknownKind as exc:
        from .korean import josa, quoted

        why = "아직 틀이 없는 종류입니다" if exc.planned else "모르는 종류입니다"
        shown = repr(kind) if len(kind) <= 40 else quoted(kind)  # a long word is cut, as every echo of input
        raise typer.BadParameter(f"{josa(shown, '은/는')} {why}. 다음 중 하나를 고르세요: {kinds_text(exc.available)}.",
                                 param_hint="종류") from None
    sys.stdout.write(text)


def run(argv: list[str]) -> int:
    """Run the app on sys.argv (argv: its arguments after the program name) with the streams made safe,
    and return the exit code: click's usage errors in Korean (2), a closed or full stdout (1). Shared by
    main() and the site's engine (web.run), which set up the process each its own way."""
    from . import terminal

    terminal.setup(json_mode=i18n.wants_json(argv))  # any locale; control characters made visible
    try:
        try:
            i18n.run(app)
        finally:
            terminal.finish()  # a closed or full stdout: one line on stderr, exit 1
    except SystemExit as exc:
        code = exc.code
    else:
        code = 0
    if code is None:
        return 0
    if not isinstance(code, int):
        sys.stderr.write(f"{code}\n")
        return 1
    return code


def main() -> None:
    """Entry point: run the app, turning click's usage errors into Korean (exit 2). It ends the process.
    A command-line process keeps the templates it compiles in the cache folder (templatecache.py)."""
    from . import templatecache

    templatecache.ENABLED = True
    code = run(sys.argv[1:])
    try:
        sys.stderr.flush()
    except (OSError, ValueError):
        pass
    # everything is written and flushed: leave without tearing the interpreter down, which frees a
    # loaded search index object by object (measured: ~25 ms of a 150 ms cold search on the ten-fold corpus)
    os._exit(code)


if __name__ == "__main__":  # pragma: no cover
    main()
