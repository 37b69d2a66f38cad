"""Loading, validating and caching the rules corpus and card database.

The loader is strict: an unknown key, a duplicate key or id, a bad date, a
wrong type or a reference that does not resolve is reported with the file, the
line, the key and how to fix it. A validated corpus is cached (flamer_ref/cachefile.py:
marshal, keyed by a digest of the files' bytes), so a lookup does not parse YAML; a cache
file is checked (header, checksum, shape) and rebuilt whenever it cannot be trusted.
"""

from __future__ import annotations

import re
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path

from .cachefile import MEMO, read_cache, remove_stale, signature, touch, write_cache
from .constants import FACTIONS, STAT_MIN, stat_in_range  # noqa: F401  (re-exported: corpus.FACTIONS)
from .errors import DataError, Problem, unique
from .errors import line_of as _line
from .korean import josa
from .paths import cache_dir, data_root

# citable ids (docs/DATA.md): lowercase ASCII words joined by dots or hyphens, at most 120 characters
_ID_RE = re.compile(r"(?=.{1,120}\Z)[a-z0-9]+(?:[.-][a-z0-9]+)*")

GRADES = ("초급", "중급", "고급")
TIMINGS = ("전투", "대응", "이동", "등장")
CARD_TYPES = ("piece", "special")
ABILITY_KINDS = ("sp", "entry", "effect", "other")
STATS = ("lv", "hp", "atk", "cost")
RULING_STATUS = {
    "confirmed": "확정", "corrected": "정정", "revised": "개정", "abolished": "폐지",
    "introduced": "도입", "codified": "명문화", "followup": "후속", "withdrawn": "철회",
}
EXAMPLE_TYPES = {"rulebook": "룰북 예시", "board": "보드 상황 상세 예시", "figure": "그림보드 예시",
                 "reasoned": "규칙에서 따라 나오는 판정 (룰북 예시 아님)"}

# ---------------------------------------------------------------- schema ----
# key -> (allowed types, required). "strs" = list of strings, "ids" = list of ids.
_S, _I, _F, _B, _L, _D, _N = str, int, float, bool, list, dict, type(None)

SCHEMAS: dict[str, dict[str, tuple[tuple, bool]]] = {
    "source": {"id": ((_S,), True), "title": ((_S,), True), "header": ((_S, _N), False),
               "seed": ((_S, _N), False), "version": ((_S, _N), False)},
    "section": {"id": ((_S,), True), "title": ((_S,), True), "order": ((_I,), True)},
    "clause": {"id": ((_S,), True), "title": ((_S,), True), "source": ((_S, _L), True),
               "text": ((_S,), True), "see_also": ((_L,), False), "keywords": ((_L,), False),
               "earlier": ((_L,), False), "interpretations": ((_L,), False), "editor_note": ((_S, _N), False)},
    "earlier": {"ruling": ((_S,), True), "text": ((_S,), True)},
    "interpretation": {"id": ((_S,), True), "title": ((_S,), True), "text": ((_S,), True),
                       "basis": ((_S,), True), "editor_note": ((_S, _N), False)},
    "ruling": {"id": ((_S,), True), "date": ((_S,), True), "status": ((_S,), True),
               "label": ((_S,), True), "title": ((_S,), True), "summary": ((_S,), True),
               "clauses": ((_L,), True), "supersedes": ((_S, _N), False),
               "earlier_rule": ((_S, _N), False), "source": ((_L, _S), True),
               "sets": ((_D,), False), "withdraws": ((_L,), False),
               "editor_note": ((_S, _N), False)},
    "faq": {"id": ((_S,), True), "question": ((_S,), True), "answer": ((_S,), True),
            "clauses": ((_L,), True), "source": ((_S,), True), "keywords": ((_L,), False),
            "scenario": ((_D, _L), False), "expected": ((_D, _L), False), "editor_note": ((_S, _N), False)},
    "term": {"id": ((_S,), True), "term": ((_S,), True), "aliases": ((_L,), False),
             "definition": ((_S,), True), "clauses": ((_L,), False), "source": ((_S, _L), True),
             "editor_note": ((_S, _N), False)},
    "example": {"id": ((_S,), True), "title": ((_S,), True), "type": ((_S,), True),
                "source": ((_S,), True), "situation": ((_S,), True), "steps": ((_L,), True),
                "result": ((_S,), True), "point": ((_S,), False), "reason": ((_S,), False),
                "clauses": ((_L,), True), "rulings": ((_L,), False),
                "scenario": ((_D, _L), False), "expected": ((_D, _L), False), "editor_note": ((_S, _N), False)},
    "card": {"name": ((_S,), True), "aliases": ((_L,), False), "type": ((_S,), True),
             "faction": ((_S, _N), True), "grade": ((_S, _N), True), "lv": ((_I, _N), True),
             "hp": ((_I, _N), True), "atk": ((_I, _N), True), "cost": ((_I, _N), True),
             "structure": ((_B,), True), "timing": ((_S, _N), False), "abilities": ((_L,), True),
             "stat_sources": ((_D,), False), "notes": ((_S, _N), False), "sources": ((_L,), True),
             "editor_note": ((_S, _N), False)},
    "ability": {"name": ((_S,), True), "timing": ((_S, _N), True), "kind": ((_S,), True),
                "text": ((_S,), True), "source": ((_S, _L), True), "effect": ((_D, _N), False),
                "optional": ((_B, _N), False), "editor_note": ((_S, _N), False)},
    "stat_source": {"source": ((_S,), True), "quote": ((_S,), True)},
    "timing": {"id": ((_S,), True), "title": ((_S,), True), "match": ((_D,), True), "rows": ((_L,), True),
               "editor_note": ((_S, _N), False)},
    "timing_match": {"type": ((_S,), False), "timing": ((_S,), False), "tag": ((_S,), False),
                     "card": ((_S,), False), "ability": ((_S,), False)},
    "timing_row": {"key": ((_S,), True), "value": ((_S,), True), "clauses": ((_L,), True)},
    "synonym": {"word": ((_S,), True), "terms": ((_L,), True), "pos": ((_S,), False),
                "weight": ((_F, _I), False), "note": ((_S,), False)},
    "phrasing": {"id": ((_S,), True), "asked": ((_L,), True)},
}
SYNONYM_POS = ("noun", "verb")

TIMING_ROWS = {"round": "누구의 라운드", "when": "턴·단계", "from": "어디서", "state": "기물 상태",
               "counter": "맞대응", "encounter": "조우 필요", "after": "그 뒤", "duration": "효과 지속"}

_TYPE_KO = {str: "문자열", int: "정수", float: "실수", bool: "참/거짓", list: "목록", dict: "매핑", type(None): "null"}


def _shown(value) -> str:
    """A value as a problem quotes it: its kind, and a scalar itself (shortened)."""
    if isinstance(value, (dict, list)):  # (LineDict, LineList: the loader's own subclasses)
        return _TYPE_KO[dict if isinstance(value, dict) else list]
    if isinstance(value, bool) or value is None:
        return {True: "true", False: "false", None: "null"}[value]
    text = repr(value)
    return f"{_TYPE_KO.get(type(value), type(value).__name__)} {text if len(text) <= 40 else text[:39] + '…'}"


#: the fields of each record that a person reads (printed by some output); `flamer validate` rejects
#: the data editors' words in them (flamer_ref/datawords.py). `editor_note` is never printed.
PRINTED = {
    "source": ("title", "header", "version"), "section": ("title",),
    "clause": ("title", "text", "keywords"), "earlier": ("text",), "interpretation": ("title", "text", "basis"),
    "ruling": ("label", "title", "summary", "supersedes", "earlier_rule"), "faq": ("question", "answer", "keywords"),
    "term": ("term", "aliases", "definition"),
    "example": ("title", "situation", "steps", "result", "point", "reason"),
    "card": ("name", "aliases", "notes"), "ability": ("name", "text"), "stat_source": ("quote",),
    "timing": ("title",), "timing_row": ("value",),
}


class _Checker:
    """Collects problems for one file (and, when `printed` is a list, where the printed text is)."""

    def __init__(self, file: str, printed: list | None = None):
        self.file = file
        self.problems: list[Problem] = []
        self.printed = printed

    def add(self, obj, key, message, fix=None):
        self.problems.append(Problem(self.file, _line(obj, key), key, message, fix))

    def record(self, obj, schema: str, where: str) -> bool:
        if not isinstance(obj, dict):
            self.problems.append(Problem(self.file, _line(obj), where, f"{where}: 매핑이어야 합니다 (지금: {_shown(obj)}).",
                                         "'키: 값' 형식으로 적으세요"))
            return False
        spec = SCHEMAS[schema]
        ok = True
        for key in obj:
            if key not in spec:
                near = _nearest(str(key), list(spec))
                self.add(obj, key, f"{where}: 알 수 없는 키 '{key}'.",
                         f"'{near}'의 오타라면 고치고, 아니면 지우세요 (허용: {', '.join(spec)})" if near
                         else f"지우세요 (허용: {', '.join(spec)})")
                ok = False
        for key, (types, required) in spec.items():
            if key not in obj:
                if required:  # the line of the mapping that lacks it; the key that is missing
                    self.problems.append(Problem(self.file, _line(obj), key, f"{where}: 필수 키 {josa(repr(str(key)), '이/가')} 없습니다.",
                                                 f"{josa(repr(str(key)), '을/를')} 추가하세요"))
                    ok = False
                continue
            value = obj[key]
            if isinstance(value, bool) and bool not in types:
                good = False
            else:
                good = isinstance(value, types)
            if not good:
                want = " 또는 ".join(_TYPE_KO[t] for t in types)
                self.add(obj, key, f"{where}: '{key}'의 값은 {want}{'이어야' if josa(want, '이/가').endswith('이') else '여야'} 합니다 (지금: {value!r}).",
                         f"'{key}'의 값을 {want} 값으로 고치세요")
                ok = False
        if ok and self.printed is not None and schema in PRINTED:
            for key in PRINTED[schema]:
                value = obj.get(key)
                for text in (value if isinstance(value, list) else [value]):
                    if isinstance(text, str):
                        self.printed.append((self.file, _line(obj, key), f"{where}.{key}", text))
        return ok

    def str_list(self, obj, key, where) -> list[str]:
        value = obj.get(key)
        if value is None:
            return []
        if isinstance(value, str):
            return [value]
        out = []
        for item in value:
            if not isinstance(item, str):
                self.add(obj, key, f"{where}: '{key}'의 항목은 문자열이어야 합니다 (지금: {item!r}).")
            else:
                out.append(item)
        return out


NEAREST_CUTOFF = 0.6


def _nearest(word: str, options: list[str]) -> str | None:
    """difflib.get_close_matches(word, options, n=1, cutoff=0.6)'s answer, sooner: difflib's ratio counts
    the characters of the matching blocks it finds, never more than a longest common subsequence, so an
    option whose LCS ratio (rapidfuzz's Indel similarity, 2·LCS / both lengths, the same formula) is
    below the cutoff cannot pass it; only the others go to difflib, whose answer is therefore the same."""
    from difflib import get_close_matches

    from rapidfuzz.distance import Indel

    bound = NEAREST_CUTOFF - 1e-9  # float rounding: never drop an option difflib would keep
    near = [o for o in options if Indel.normalized_similarity(word, o) >= bound]
    hits = get_close_matches(word, near, n=1, cutoff=NEAREST_CUTOFF)
    return hits[0] if hits else None


class _Suggester:
    """The nearest id for a broken reference ("did you mean"), memoised per (kind, word), within a
    budget of word comparisons for one load: each search compares the word with every id of its kind,
    so a tree with thousands of broken references (or of ids) must not make millions of comparisons
    (past the budget a problem just says which ids are valid). `work` counts the comparisons made."""

    def __init__(self, budget: int = 50_000):
        self.budget = budget
        self.work = 0
        self._memo: dict[tuple[str, str], str | None] = {}

    def __call__(self, kind: str, word: str, options) -> str | None:
        key = (kind, word)
        if key not in self._memo:
            if self.work >= self.budget:
                return None
            choices = options()
            if self.work + len(choices) > self.budget:
                self.work = self.budget
                return None
            self.work += len(choices)
            self._memo[key] = _nearest(word, choices)
        return self._memo[key]


# ---------------------------------------------------------------- corpus ----
@dataclass
class Corpus:
    sources: dict = field(default_factory=dict)
    sections: dict = field(default_factory=dict)
    clauses: dict = field(default_factory=dict)
    interpretations: dict = field(default_factory=dict)
    rulings: dict = field(default_factory=dict)
    faq: dict = field(default_factory=dict)
    terms: dict = field(default_factory=dict)
    examples: dict = field(default_factory=dict)
    cards: dict = field(default_factory=dict)
    timings: dict = field(default_factory=dict)
    synonyms: dict = field(default_factory=dict)
    phrasings: dict = field(default_factory=dict)  # entry id -> {"id", "asked": [everyday questions]}
    root: str = ""
    # the rules version (rules/sources.yaml `rules_version`): clause numbers are stable within it
    rules_version: str | None = None

    def to_plain(self) -> dict:
        return {k: getattr(self, k) for k in
                ("sources", "sections", "clauses", "interpretations", "rulings", "faq", "terms",
                 "examples", "cards", "timings", "synonyms", "phrasings", "root", "rules_version")}

    @classmethod
    def from_plain(cls, data: dict) -> "Corpus":
        return cls(**data)

    # ----- lookups
    def latest_date(self) -> str:
        return max((r["date"] for r in self.rulings.values()), default="2026-09-19")

    def rulings_for(self, clause_id: str) -> list[dict]:
        return [r for r in self.rulings.values() if clause_id in r["clauses"]]

    def source_title(self, sid) -> str:
        ids = sid if isinstance(sid, list) else [sid]
        return " · ".join(self.sources[s]["title"] for s in ids if s in self.sources)

    # ----- the engine's data files, read here (the engine reads no files and this room runs no engine:
    # flamer_ref.engine.effects.effects_of and engine.board.example_board_of check them, once per corpus)
    def effects_document(self) -> tuple[object, str]:
        """cards/effects.yaml of this corpus's data tree as read: (document or None, its name)."""
        return read_effects(self)

    def example_board_document(self) -> tuple[object, object, str]:
        """rules/boards/example.yaml of this corpus's data tree: (document, plain data, its name)."""
        return read_example_board(self.root or None)

    def by_number(self) -> dict[str, str]:
        """Every clause number (6.26, 1.10.1) and interpretation number (6.14-1) → its id."""
        got = self.__dict__.get("_by_number")
        if got is None:
            got = {rec["number"]: key for table in (self.clauses, self.interpretations)
                   for key, rec in table.items() if rec.get("number")}
            self.__dict__["_by_number"] = got
        return got

    def all_ids(self) -> dict[str, str]:
        """Every citable id → its kind."""
        out = {}
        for kind, table in (("clause", self.clauses), ("interpretation", self.interpretations),
                            ("ruling", self.rulings), ("faq", self.faq), ("term", self.terms),
                            ("example", self.examples)):
            for key in table:
                out[key] = kind
        return out


EFFECTS = "cards/effects.yaml"
EXAMPLE_BOARD = "rules/boards/example.yaml"


def read_effects(corpus: "Corpus", path: Path | str | None = None) -> tuple[object, str]:
    """Read cards/effects.yaml (default: in the corpus's data tree, else under the data root): (its
    document, or None when there is no file, and the name problems cite). Checked against the cards by
    the engine (engine.effects.parse_effects), not here. Raises DataError when it cannot be read."""
    from .yamlio import read_yaml

    # the data tree this corpus was read from (validate --data, FLAMER_DATA), else the default one
    path = Path(path) if path is not None else Path(corpus.root or data_root()) / EFFECTS
    try:
        display = str(path.relative_to(Path(corpus.root))) if corpus.root else str(path)
    except ValueError:
        display = str(path)
    base, rel = (Path(corpus.root), display) if display != str(path) else (path.parent, path.name)
    if not present(base, rel):
        return None, display
    return read_yaml(path, display), display


def read_example_board(root: Path | str | None = None) -> tuple[object, object, str]:
    """Read the example board (rules/boards/example.yaml of the data tree `root`, default the data
    root): (its document with lines, the same as plain data, the name problems cite). Checked as the
    engine will use it by engine.board.check_example_board."""
    from .yamlio import plain, read_yaml

    doc = read_yaml(Path(root or data_root()) / EXAMPLE_BOARD, EXAMPLE_BOARD)
    return doc, plain(doc), EXAMPLE_BOARD


def data_files(root: Path) -> list[Path]:
    """The data tree's YAML files. A folder the system will not let us list (chmod 000, or a file on
    the way that is not readable) is a DataError naming that folder."""
    files: list[Path] = []
    for sub in ("rules", "rules/clauses", "rules/examples", "cards"):
        d = root / sub
        try:
            if d.is_dir():
                files.extend(sorted(p for p in d.iterdir() if p.suffix in (".yaml", ".yml") and p.is_file()
                                    # cards/effects.yaml is engine data, validated by flamer_ref.engine.effects;
                                    # rules/numbers.lock.yaml the record of the rule numbers (numbering.py)
                                    and not (sub == "cards" and p.name == "effects.yaml")
                                    and not (sub == "rules" and p.name == "numbers.lock.yaml")))
        except OSError as exc:
            raise _folder_error(root, d, exc) from None
    return files


def _folder_error(root: Path, folder: Path, exc: OSError) -> DataError:
    """An unreadable folder of the data tree: one problem naming it (relative to the data root)."""
    from .yamlio import unreadable

    try:
        name = folder.relative_to(root).as_posix() + "/"
    except ValueError:
        name = str(folder)
    return DataError([unreadable(name if name != "./" else str(root), exc, folder=True)])


def present(root: Path | str, rel: str) -> bool:
    """Is there a file at `rel` (a path inside the data tree `root`)? False when there is none; an error
    other than absence (a folder on the way that cannot be read) is a DataError naming that folder,
    never an exception of the operating system."""
    import errno

    root = Path(root)
    path = root / rel
    try:
        return path.is_file()
    except OSError as exc:
        if exc.errno in (errno.ENOENT, errno.ENOTDIR):
            return False
        raise _folder_error(root, path.parent, exc) from None


def locate(root: Path | str | None) -> tuple[Path, list[Path], Path | None]:
    """A data tree (default: the data root): its folder, its data files, and the stem its cache files are
    named by (cachefile.signature: the key of those files and this code), or None without a cache folder."""
    root = Path(root) if root is not None else data_root()
    try:
        there = (root / "rules").is_dir()
    except OSError as exc:  # the data folder itself cannot be read
        raise _folder_error(root, root, exc) from None
    if not there:
        raise DataError([Problem(str(root), None, None, "rules/ 폴더가 없습니다.",
                                 "FLAMER_DATA가 가리키는 경로나 설치 상태를 확인하세요")])
    files = data_files(root)
    cdir = cache_dir()
    return root, files, (cdir / signature(root, files)) if cdir is not None else None


_CORPUS_TABLES = ("sources", "sections", "clauses", "interpretations", "rulings", "faq", "terms",
                  "examples", "cards", "timings", "synonyms", "phrasings")


def valid_plain(data, root: Path) -> bool:
    """A corpus as its cache (or the prebuilt data) holds it (Corpus.to_plain) has exactly the corpus's
    tables, each a mapping of id → record."""
    if not isinstance(data, dict) or set(data) != set(_CORPUS_TABLES) | {"root", "rules_version"}:
        return False
    if data["root"] != str(root) or not isinstance(data["rules_version"], (str, type(None))):
        return False
    for name in _CORPUS_TABLES:
        table = data[name]
        if not isinstance(table, dict) or not all(isinstance(k, str) and isinstance(v, dict) for k, v in table.items()):
            return False
    return bool(data["clauses"])


#: the corpus a message made without a corpus at hand cites from (render.rule_no's clause number,
#: render.cost_verb's word) while `citing` is in effect; otherwise the default data tree's (load()). So a
#: cited number always agrees with the data the answer came from — never with rules/numbers.lock.yaml,
#: which only `flamer validate` compares against.
_CITING: "ContextVar[Corpus | None]" = ContextVar("flamer_citing", default=None)


@contextmanager
def citing(corpus: "Corpus | None"):
    """Within this block, messages cite from `corpus` (`flamer validate --data`: that tree's numbers)."""
    token = _CITING.set(corpus)
    try:
        yield corpus
    finally:
        _CITING.reset(token)


def in_use() -> "Corpus | None":
    """The corpus `citing` names, or None (then the default data tree's)."""
    return _CITING.get()


def load(root: Path | str | None = None, *, use_cache: bool = True) -> Corpus:
    """Load the corpus (validated), from the cache when it is fresh and sound (or, for the default data
    tree, from the prebuilt data given to preload)."""
    if root is None and use_cache and _PREBUILT:
        return _PREBUILT["corpus"]
    root, files, stem = locate(root)
    key = ("corpus", str(root), stem.name if stem else None)
    if use_cache and key in MEMO:
        return MEMO[key]  # type: ignore[return-value]
    data = read_cache(stem.with_name(stem.name + ".corpus") if (use_cache and stem) else None, b"C")
    if data is not None and valid_plain(data, root):
        corpus = Corpus.from_plain(data)
        touch(stem.with_name(stem.name + ".corpus"))  # used now: kept by the next sweep (remove_stale)
    else:
        corpus = parse(root, files)
        if use_cache and stem is not None:
            _write_caches(stem, corpus)
    if use_cache:
        MEMO[key] = corpus
    return corpus


def _write_caches(stem: Path, corpus: Corpus) -> None:
    """Cache the corpus (`.corpus`) and remove the caches of data trees not used lately (remove_stale). The
    search index and the likeness model are cached beside it, under the same key, by their own room
    (flamer_ref.searchindex)."""
    if not write_cache(stem.with_name(stem.name + ".corpus"), b"C", corpus.to_plain()):
        return
    try:
        remove_stale(stem)
    except OSError:
        pass


def parse(root: Path, files: list[Path] | None = None) -> Corpus:
    """Parse and validate every data file; raise DataError listing all problems. In order: the tree is
    there and not too big; every file is read; each document's records are checked and kept (ids claimed,
    references noted); then what needs every record known (the thesaurus's words, the players' questions,
    the references); then the records are ordered and numbered."""
    files = files if files is not None else data_files(root)
    _check_tree(root, files)
    load = _Loading(root)
    for path, doc in _read_files(load, files):
        load.document(path, doc)
    load.check_across()
    return load.finish()


def parse_with_draft(root: Path | str | None, draft: Path | str, display: str | None = None) -> tuple["Corpus", list, list]:
    """The data tree `root` as if the draft's rulings were published: a draft is a YAML file with a `rulings:`
    list in the format of rules/rulings.yaml (new rulings, withdrawals; a ruling with the id of one in the
    data replaces it — a correction). Checked as strictly as the data (problems name the draft file and its
    lines). Returns (corpus, the draft's ruling ids in order, the ids it corrects). Never cached."""
    from .yamlio import read_yaml

    root, files, _stem = locate(root)
    display = display or str(draft)
    _check_tree(root, files)
    load = _Loading(root)
    for path, doc in _read_files(load, files):
        load.document(path, doc)
    doc = read_yaml(Path(draft), display)
    chk = _Checker(display, load.printed)
    ids: list[str] = []
    corrected: list[str] = []
    items = doc.get("rulings") if isinstance(doc, dict) else None
    if not isinstance(doc, dict) or set(doc) - {"rulings"} or not isinstance(items, list):
        chk.add(doc if isinstance(doc, dict) else None, None, "판정 초안은 'rulings:' 목록 하나만 담은 YAML이어야 "
                "합니다 (rules/rulings.yaml과 같은 형식).", "rulings:\n- id: ruling.YYYY-MM-DD.이름 … 형식으로 적으세요")
    else:
        for item in items:
            rid = item.get("id") if isinstance(item, dict) else None
            if isinstance(rid, str):
                ids.append(rid)
                if rid in load.corpus.rulings and rid not in corrected:  # a correction: the draft's replaces it
                    corrected.append(rid)
                    del load.corpus.rulings[rid]
                    load.seen_ids.pop(rid, None)
        if not items:
            chk.add(doc, "rulings", "판정 초안에 판정이 하나도 없습니다.", "새 판정이나 철회를 적으세요")
        load._records(chk, {"rulings": items})
    load.problems.extend(chk.problems)
    load.check_across()
    return load.finish(), ids, corrected


_TOP_KEYS = {"sources": "source", "rulings": "ruling", "faq": "faq", "terms": "term", "examples": "example",
             "cards": "card", "timings": "timing", "synonyms": "synonym", "phrasings": "phrasing"}


def _check_tree(root: Path, files: list[Path]) -> None:
    """Step 1: the two files everything else refers to are there (when one is missing, say so once, not one
    "cannot find" line per reference), and the whole tree is within its size limit before any of it is read
    (each file has its own limit too)."""
    from .yamlio import DATA_TREE_MAX_BYTES, tree_too_big

    for rel_path, is_there in (("rules/sources.yaml", present(root, "rules/sources.yaml")),
                               ("rules/clauses/", any(p.parent == root / "rules" / "clauses" for p in files)),
                               ("cards/cards.yaml", present(root, "cards/cards.yaml"))):
        if not is_there:
            raise DataError([Problem(rel_path, None, None, f"{rel_path} 파일이 없습니다."
                                     if rel_path.endswith(".yaml") else f"{rel_path} 폴더가 없거나 조항 파일이 없습니다.",
                                     "데이터 폴더 구조는 docs/DATA.md를 보세요")])
    total = 0
    for p in files:
        try:
            total += p.stat().st_size
        except OSError:
            pass  # read_yaml reports it
    if total > DATA_TREE_MAX_BYTES:
        raise DataError([tree_too_big(str(root), total)])


def _read_files(load: "_Loading", files: list[Path]) -> list[tuple[Path, object]]:
    """Step 2: every file read (YAML with lines); a file that cannot be read is a problem, not a stop."""
    from .yamlio import read_yaml

    parsed: list[tuple[Path, object]] = []
    for path in files:
        try:
            parsed.append((path, read_yaml(path, load.rel(path))))
        except DataError as exc:
            load.problems.extend(exc.problems)
    return parsed


class _Loading:
    """One parse of a data tree: the corpus being filled, the problems found, the ids claimed so far and
    the references to check once every id is known."""

    def __init__(self, root: Path):
        self.root = root
        self.corpus = Corpus(root=str(root))
        self.problems: list[Problem] = []
        self.seen_ids: dict[str, str] = {}  # id -> file
        self.pending_refs: list[tuple[_Checker, object, str, str, list[str]]] = []
        self.printed: list = []  # (file, line, where, text) of every field a person reads: datawords.check
        self.suggest = _Suggester()  # "did you mean": a bounded number of (memoised) close-match searches

    def rel(self, p: Path) -> str:
        try:
            return str(p.relative_to(self.root))
        except ValueError:
            return str(p)

    def claim_id(self, chk: _Checker, obj, key: str, value: str, what: str) -> bool:
        if not _ID_RE.fullmatch(value):
            # reported, but still claimed: a bad id should not also cascade into "not found" lines
            suggestion = re.sub(r"[^a-z0-9]+", "-", value.lower()).strip("-")[:80]
            chk.add(obj, key, f"{what} id '{value}'의 형식이 잘못되었습니다: 영문 소문자, 숫자와 '.', '-'만 씁니다"
                    " (docs/DATA.md).",
                    f"예: '{suggestion}'" if _ID_RE.fullmatch(suggestion or "-") else "예: 'combat.step7.sweep'")
        if value in self.seen_ids:
            chk.add(obj, key, f"{what} id {josa(repr(str(value)), '이/가')} 중복됩니다 (먼저 나온 곳: {self.seen_ids[value]}).",
                    "id를 다른 이름으로 바꾸세요")
            return False
        self.seen_ids[value] = chk.file
        return True

    def ref(self, chk, obj, key, kind, ids) -> None:
        self.pending_refs.append((chk, obj, key, kind, ids))

    # ----- step 3: each document
    def document(self, path: Path, doc) -> None:
        """One file's records checked and kept (its problems collected)."""
        chk = _Checker(self.rel(path), self.printed)
        if doc is None:
            return  # an empty file contributes nothing
        if not isinstance(doc, dict):
            chk.add(doc, None, "최상위는 매핑이어야 합니다.", "'clauses:' 같은 최상위 키 아래에 목록을 적으세요")
            self.problems.extend(chk.problems)
            return
        clauses_file = path.parent.name == "clauses"
        self._top_keys(chk, path, doc, {"section", "clauses"} if clauses_file else set(_TOP_KEYS))
        if clauses_file:
            self._clause_file(chk, path, doc)
        else:
            self._records(chk, doc)
        self.problems.extend(chk.problems)

    def _top_keys(self, chk: _Checker, path: Path, doc: dict, allowed: set) -> None:
        if self.rel(path) == "rules/sources.yaml":  # the rules version the clause numbers belong to
            allowed.add("rules_version")
            version = doc.get("rules_version")
            if version is not None and not (isinstance(version, str) and version.strip()):
                chk.add(doc, "rules_version", f"'rules_version'의 값은 비어 있지 않은 문자열이어야 합니다 "
                        f"(지금: {_shown(version)}).", "규칙 판을 따옴표 안에 적으세요 (예: \"2026-09-25\")")
            elif version is not None:
                self.corpus.rules_version = version.strip()
        for key in doc:
            if key not in allowed:
                near = _nearest(str(key), sorted(allowed))
                chk.add(doc, key, f"알 수 없는 최상위 키 '{key}'.",
                        f"'{near}'의 오타라면 고치고, 아니면 지우세요 (허용: {', '.join(sorted(allowed))})" if near
                        else f"허용: {', '.join(sorted(allowed))}")

    def _clause_file(self, chk: _Checker, path: Path, doc: dict) -> None:
        """A file of rules/clauses/: its section, then its clauses (with their earlier wordings and
        interpretations)."""
        sec = self._section(chk, path, doc)
        if sec is None:
            return
        clauses = doc.get("clauses")
        if clauses is not None and not isinstance(clauses, list):
            chk.add(doc, "clauses", f"'clauses'의 값은 목록이어야 합니다 (지금: {_shown(clauses)}).",
                    "각 조항을 '- '로 시작하세요")
            clauses = None
        for i, c in enumerate(clauses or []):
            self._clause(chk, path, sec, c, f"clauses[{i}]")

    def _section(self, chk: _Checker, path: Path, doc: dict):
        corpus = self.corpus
        sec = doc.get("section")
        if not isinstance(sec, dict):  # the line of the key (a scalar carries none of its own)
            chk.add(doc, "section", f"section: 매핑이어야 합니다 (지금: {_shown(sec)}).",
                    "section: {id: …, title: …, order: …} 형식으로 적으세요")
            return None
        if not chk.record(sec, "section", "section"):
            return None
        if sec["id"] in corpus.sections:
            chk.add(sec, "id", f"섹션 id {josa(repr(str(sec['id'])), '이/가')} 중복됩니다.", "섹션 id를 바꾸세요")
        else:
            same = next((o for o in corpus.sections.values() if o["order"] == sec["order"]), None)
            if same is not None:  # the chapter number of a clause comes from its section's order
                chk.add(sec, "order", f"섹션 '{sec['id']}'의 {josa('order ' + str(sec['order']), '이/가')} 섹션 "
                        f"'{same['id']}'({same['file']})의 것과 같습니다. 조항 번호의 장 번호가 섹션 순서에서 나오므로 섹션마다 "
                        "달라야 합니다.", "다른 섹션과 겹치지 않는 정수로 고치세요")
        corpus.sections[sec["id"]] = {"id": sec["id"], "title": sec["title"], "order": sec["order"],
                                      "file": self.rel(path)}
        return sec

    def _clause(self, chk: _Checker, path: Path, sec, c, where: str) -> None:
        from .yamlio import plain

        if not chk.record(c, "clause", where):
            return
        if not self.claim_id(chk, c, "id", c["id"], "조항"):
            return
        ref = self.ref
        rec = plain(c)
        rec["section"] = sec["id"]
        rec["file"] = self.rel(path)
        rec["line"] = c.line
        rec["source"] = chk.str_list(c, "source", where)
        rec["see_also"] = chk.str_list(c, "see_also", where)
        rec["keywords"] = chk.str_list(c, "keywords", where)
        ref(chk, c, "source", "source", rec["source"])
        ref(chk, c, "see_also", "clause", rec["see_also"])
        earlier = []
        for j, e in enumerate(c.get("earlier") or []):
            if chk.record(e, "earlier", f"{where}.earlier[{j}]"):
                ref(chk, e, "ruling", "ruling", [e["ruling"]])
                earlier.append(plain(e))
        rec["earlier"] = earlier
        interps = []
        for j, it in enumerate(c.get("interpretations") or []):
            if chk.record(it, "interpretation", f"{where}.interpretations[{j}]"):
                if self.claim_id(chk, it, "id", it["id"], "해석"):
                    irec = plain(it)
                    irec["clause"] = c["id"]
                    irec["file"], irec["line"] = self.rel(path), it.line
                    self.corpus.interpretations[it["id"]] = irec
                    interps.append(it["id"])
        rec["interpretations"] = interps
        self.corpus.clauses[c["id"]] = rec

    def _records(self, chk: _Checker, doc: dict) -> None:
        """A file of records under top-level keys (sources, rulings, faq, terms, examples, cards, …)."""
        from .dates import is_date
        from .yamlio import plain

        for top, schema in _TOP_KEYS.items():
            items = doc.get(top)
            if items is None:
                continue
            if not isinstance(items, list):
                chk.add(doc, top, f"'{top}'의 값은 목록이어야 합니다 (지금: {_shown(items)}).",
                        "각 항목을 '- '로 시작하세요")
                continue
            for i, item in enumerate(items):
                where = f"{top}[{i}]"
                if not chk.record(item, schema, where):
                    continue
                _load_item(self.corpus, chk, schema, item, where, self.claim_id, self.ref, is_date, plain)

    # ----- step 4: what needs every record known
    def check_across(self) -> None:
        corpus, problems = self.corpus, self.problems
        if corpus.synonyms:
            _check_synonym_terms(corpus, problems)
        self._check_phrasings()
        self._check_references()
        _check_ruling_history(corpus, problems)

    def _check_phrasings(self) -> None:
        """Players' questions only for entries that can answer them."""
        corpus = self.corpus
        answerable = (corpus.clauses, corpus.faq, corpus.interpretations, corpus.terms, corpus.rulings,
                      corpus.examples, corpus.cards)
        for rec in corpus.phrasings.values():
            if not any(rec["id"] in table for table in answerable):
                near = self.suggest("answerable", rec["id"], lambda: [k for table in answerable for k in table])
                self.problems.append(Problem(rec["file"], rec["line"], "id",
                                             f"질문 예의 항목 {josa(repr(rec['id']), '을/를')} 찾을 수 없습니다.",
                                             f"{josa(repr(near), '으로/로')} 고치세요" if near
                                             else "있는 조항·FAQ·해석·용어·판정·예시 id나 카드 이름을 적으세요"))

    def _check_references(self) -> None:
        """Every reference to a clause, ruling, source or example, now that every id is known."""
        corpus = self.corpus
        tables = {"clause": corpus.clauses, "ruling": corpus.rulings, "source": corpus.sources,
                  "example": corpus.examples}
        kind_ko = {"clause": "조항", "ruling": "판정", "source": "출처 페이지", "example": "예시"}
        # (each broken reference is one problem, in the order the references were read; a target
        # cited many times is worded once, and said once with a count by errors.render_problems)
        words: dict[tuple[str, str], tuple[str, str]] = {}
        for chk, obj, key, kind, ids in self.pending_refs:
            for target in ids:
                if target not in tables[kind]:
                    said = words.get((kind, target))
                    if said is None:
                        near = self.suggest(kind, target, lambda: list(tables[kind]))
                        said = words[(kind, target)] = (
                            f"{kind_ko[kind]} {josa(repr(target), '을/를')} 찾을 수 없습니다.",
                            f"{josa(repr(near), '으로/로')} 고치세요" if near else f"있는 {kind_ko[kind]} id를 적으세요")
                    self.problems.append(Problem(chk.file, _line(obj, key), key, *said))

    # ----- step 5: the corpus, ordered and numbered
    def finish(self) -> Corpus:
        from .numbering import assign_numbers

        corpus = self.corpus
        if self.problems:
            raise DataError(unique(self.problems))  # without repeats, in order: linear (a set of their words)
        corpus.__dict__.pop("_card_names", None)
        if not corpus.clauses:
            raise DataError([Problem(str(self.root / "rules" / "clauses"), None, None, "조항이 하나도 없습니다.",
                                     "rules/clauses/에 조항 파일을 두세요")])
        # by date; one day's rulings in the order of the file (a day's rulings are numbered so: 9/24-2)
        corpus.rulings = dict(sorted(corpus.rulings.items(), key=lambda kv: kv[1]["date"]))
        corpus.sections = dict(sorted(corpus.sections.items(), key=lambda kv: kv[1]["order"]))
        assign_numbers(corpus)
        corpus.__dict__["_printed"] = self.printed  # (not cached: `flamer validate` parses afresh)
        return corpus


def _load_item(corpus: Corpus, chk: _Checker, schema: str, item, where, claim_id, ref, is_date, plain):
    if schema == "source":
        if claim_id(chk, item, "id", item["id"], "출처"):
            corpus.sources[item["id"]] = plain(item)
    elif schema == "ruling":
        if not is_date(item["date"]):
            chk.add(item, "date", f"{where}: 날짜 {josa(repr(str(item['date'])), '이/가')} 올바르지 않습니다.",
                    "YYYY-MM-DD 형식의 실제 날짜로 적으세요 (예: 2026-09-24)")
            return
        if item["status"] not in RULING_STATUS:
            chk.add(item, "status", f"{where}: 알 수 없는 status '{item['status']}'.",
                    f"다음 중 하나: {', '.join(RULING_STATUS)}")
            return
        if claim_id(chk, item, "id", item["id"], "판정"):
            rec = plain(item)
            rec["clauses"] = chk.str_list(item, "clauses", where)
            rec["source"] = chk.str_list(item, "source", where)
            rec.setdefault("supersedes", None)
            rec.setdefault("earlier_rule", None)
            rec["sets"] = _ruling_sets(chk, item, where)
            rec["withdraws"] = chk.str_list(item, "withdraws", where)
            # where the record and its keys are (the checks of decisions and withdrawals cite them)
            rec["at"] = {"file": chk.file, "line": item.line,
                         **{k: _line(item, k) for k in ("date", "sets", "withdraws", "clauses") if k in item}}
            ref(chk, item, "clauses", "clause", rec["clauses"])
            ref(chk, item, "source", "source", rec["source"])
            ref(chk, item, "withdraws", "ruling", rec["withdraws"])
            corpus.rulings[item["id"]] = rec
    elif schema == "faq":
        if claim_id(chk, item, "id", item["id"], "FAQ"):
            rec = plain(item)
            rec["clauses"] = chk.str_list(item, "clauses", where)
            rec["keywords"] = chk.str_list(item, "keywords", where)
            ref(chk, item, "clauses", "clause", rec["clauses"])
            ref(chk, item, "source", "source", [item["source"]])
            corpus.faq[item["id"]] = rec
    elif schema == "term":
        if claim_id(chk, item, "id", item["id"], "용어"):
            rec = plain(item)
            rec["aliases"] = chk.str_list(item, "aliases", where)
            rec["clauses"] = chk.str_list(item, "clauses", where)
            rec["source"] = chk.str_list(item, "source", where)
            ref(chk, item, "clauses", "clause", rec["clauses"])
            ref(chk, item, "source", "source", rec["source"])
            corpus.terms[item["id"]] = rec
    elif schema == "example":
        if item["type"] not in EXAMPLE_TYPES:
            chk.add(item, "type", f"{where}: 알 수 없는 예시 종류 '{item['type']}'.",
                    f"다음 중 하나: {', '.join(EXAMPLE_TYPES)}")
            return
        if claim_id(chk, item, "id", item["id"], "예시"):
            rec = plain(item)
            rec["clauses"] = chk.str_list(item, "clauses", where)
            rec["rulings"] = chk.str_list(item, "rulings", where)
            rec["steps"] = [str(s) for s in item["steps"]]
            ref(chk, item, "clauses", "clause", rec["clauses"])
            ref(chk, item, "rulings", "ruling", rec["rulings"])
            ref(chk, item, "source", "source", [item["source"]])
            corpus.examples[item["id"]] = rec
    elif schema == "card":
        _load_card(corpus, chk, item, where, ref, plain)
    elif schema == "synonym":
        _load_synonym(corpus, chk, item, where, plain)
    elif schema == "phrasing":
        asked = [" ".join(q.split()) for q in chk.str_list(item, "asked", where) if q.strip()]
        if item["id"] in corpus.phrasings:
            chk.add(item, "id", f"{where}: 질문 예의 항목 {josa(repr(item['id']), '이/가')} 두 번 나옵니다.", "한 항목으로 합치세요")
        elif not asked:
            chk.add(item, "asked", f"{where}: '{item['id']}'의 asked 목록이 비어 있습니다.", "질문을 하나 이상 적으세요")
        else:
            corpus.phrasings[item["id"]] = {"id": item["id"], "asked": asked, "file": chk.file, "line": item.line}
    elif schema == "timing":
        ok = chk.record(item["match"], "timing_match", f"{where}.match")
        m = item["match"]
        if ok and m.get("type") is not None and m["type"] not in CARD_TYPES:
            chk.add(m, "type", f"{where}.match: 알 수 없는 카드 종류 '{m['type']}'.", "piece 또는 special")
            ok = False
        if ok and m.get("timing") is not None and m["timing"] not in TIMINGS:
            chk.add(m, "timing", f"{where}.match: 알 수 없는 타이밍 '{m['timing']}'.", f"{', '.join(TIMINGS)}")
            ok = False
        rows = []
        for j, row in enumerate(item["rows"]):
            if not chk.record(row, "timing_row", f"{where}.rows[{j}]"):
                ok = False
                continue
            if row["key"] not in TIMING_ROWS:
                chk.add(row, "key", f"{where}.rows[{j}]: 알 수 없는 행 '{row['key']}'.", f"{', '.join(TIMING_ROWS)}")
                ok = False
            ref(chk, row, "clauses", "clause", chk.str_list(row, "clauses", where))
            rows.append(plain(row))
        if ok and claim_id(chk, item, "id", item["id"], "타이밍"):
            corpus.timings[item["id"]] = {"id": item["id"], "title": item["title"], "match": plain(m), "rows": rows}


#: a decision's name in a ruling's `sets:` (the engine's catalogue names them: engine/decisions.py)
_DECISION_RE = re.compile(r"(?=.{1,80}\Z)[a-z0-9]+(?:-[a-z0-9]+)*")


def _ruling_sets(chk: _Checker, item, where: str) -> dict:
    """A ruling's `sets:` — {decision: value}: kebab-case names, each a true/false or an integer. Whether the
    engine names such a decision and takes that value is the engine's check (engine.decisions.check)."""
    value = item.get("sets")
    if value is None:
        return {}
    out = {}
    for name, v in value.items():
        if not isinstance(name, str) or not _DECISION_RE.fullmatch(name):
            chk.add(value, name, f"{where}.sets: 결정 이름 {josa(repr(name), '이/가')} 올바르지 않습니다: 영문 소문자, "
                    "숫자와 '-'만 씁니다.", "docs/ENGINE.md의 결정 목록에 있는 이름을 적으세요 (예: step7-sweeps-settled)")
        elif v is None or not isinstance(v, (bool, int)):
            chk.add(value, name, f"{where}.sets.{name}: 값은 true/false나 정수여야 합니다 (지금: {_shown(v)}).",
                    "그 결정이 받는 값을 적으세요 (docs/ENGINE.md의 결정 목록)")
        else:
            out[name] = v
    return out


def _check_ruling_history(corpus: Corpus, problems: list) -> None:
    """What only the whole rulings table shows: a withdrawal dated before the ruling it withdraws, a ruling
    that withdraws itself or a cycle of withdrawals, and two rulings that set one decision on one day to
    different values (neither withdrawing the other) — which of them holds that day could not be said."""
    from .inforce import withdrawal_cycle

    rulings = corpus.rulings
    before = len(problems)
    for wid, w in rulings.items():
        at = w.get("at") or {}
        for rid in w.get("withdraws") or ():
            r = rulings.get(rid)
            if r is None:
                continue  # an unknown id: reported with the references
            if rid == wid:
                problems.append(Problem(at.get("file", ""), at.get("withdraws"), "withdraws",
                                        f"판정 {josa(repr(wid), '이/가')} 자기 자신을 철회합니다.",
                                        "withdraws에서 자기 id를 지우세요"))
            elif w["date"] < r["date"]:
                problems.append(Problem(at.get("file", ""), at.get("withdraws"), "withdraws",
                                        f"판정 {josa(repr(wid), '은/는')} {w['date']}의 판정인데, 철회하는 판정 "
                                        f"{josa(repr(rid), '은/는')} 그보다 늦은 {r['date']}의 판정입니다 — 아직 나오지 않은 "
                                        "판정은 철회할 수 없습니다.",
                                        f"철회하는 판정의 date를 {r['date']} 이후로 고치거나, withdraws에서 "
                                        f"{josa(repr(rid), '을/를')} 지우세요"))
    if len(problems) == before:
        cycle = withdrawal_cycle(rulings)
        if cycle:
            first = rulings[cycle[0]].get("at") or {}
            problems.append(Problem(first.get("file", ""), first.get("withdraws"), "withdraws",
                                    f"판정들이 서로를 철회합니다: {' → '.join(cycle)}.",
                                    "철회는 앞선 판정 하나를 뒤의 판정이 거두는 것입니다 — 한쪽의 withdraws를 지우세요"))
    by_day: dict[tuple[str, str], list[tuple[str, object]]] = {}
    for rid, r in rulings.items():
        for name, v in (r.get("sets") or {}).items():
            by_day.setdefault((r["date"], name), []).append((rid, v))
    for (date, name), setters in by_day.items():
        for (a, va), (b, vb) in zip(setters, setters[1:]):
            if va == vb and type(va) is type(vb):
                continue
            if b in (rulings[a].get("withdraws") or ()) or a in (rulings[b].get("withdraws") or ()):
                continue
            at = rulings[b].get("at") or {}
            problems.append(Problem(at.get("file", ""), at.get("sets"), f"sets.{name}",
                                    f"{date}의 두 판정이 결정 '{name}'을 서로 다른 값으로 정합니다: {a} → {va!r}, "
                                    f"{b} → {vb!r}. 그날 어느 쪽이 적용되는지 정할 수 없습니다.",
                                    "한 판정으로 합치거나, 정정이면 앞의 판정을 고치세요 (또는 뒤의 판정이 withdraws로 "
                                    "앞의 판정을 철회하게 하세요)"))


def _load_card(corpus: Corpus, chk: _Checker, item, where, ref, plain):
    name = item["name"]
    where = f"{where} ({name})"
    seen = corpus.__dict__.setdefault("_card_names", set())
    if name in seen:
        chk.add(item, "name", f"{where}: 카드 이름 {josa(repr(str(name)), '이/가')} 중복됩니다.", "하나로 합치세요")
        return
    seen.add(name)
    ok = True
    if item["type"] not in CARD_TYPES:
        chk.add(item, "type", f"{where}: 알 수 없는 카드 종류 '{item['type']}'.", "piece 또는 special")
        ok = False
    if item["faction"] is not None and item["faction"] not in FACTIONS:
        chk.add(item, "faction", f"{where}: 알 수 없는 진영 '{item['faction']}'.",
                f"{', '.join(FACTIONS)} 또는 null(미상)")
        ok = False
    if item["grade"] is not None and item["grade"] not in GRADES:
        chk.add(item, "grade", f"{where}: 알 수 없는 등급 '{item['grade']}'.", "초급, 중급, 고급 또는 null(미상)")
        ok = False
    if item.get("timing") is not None and item["timing"] not in TIMINGS:
        chk.add(item, "timing", f"{where}: 알 수 없는 타이밍 '{item['timing']}'.", f"{', '.join(TIMINGS)} 또는 null")
        ok = False
    sources = item.get("stat_sources") or {}
    for stat in STATS:
        if isinstance(item[stat], int) and not stat_in_range(stat, item[stat]):
            label = {"lv": "레벨", "hp": "체력", "atk": "공격력", "cost": "비용"}[stat]
            chk.add(item, stat, f"{where}: 수치 {stat}={item[stat]}: 기물이 가질 수 없는 값입니다 "
                                f"({label}은 {STAT_MIN[stat]} 이상).", "룰북에 적힌 값을 옮기거나, 없다면 null로 두세요")
            ok = False
        if item[stat] is not None and stat not in sources:
            chk.add(item, stat, f"{where}: 수치 {stat}={item[stat]}의 출처가 없습니다.",
                    f"stat_sources.{stat}에 페이지와 인용구를 적거나, 룰북에 없다면 null로 두세요")
            ok = False
    for stat, src in sources.items():
        if stat not in STATS:
            chk.add(sources, stat, f"{where}: stat_sources에 알 수 없는 수치 '{stat}'.", f"허용: {', '.join(STATS)}")
            ok = False
            continue
        if item[stat] is None:
            chk.add(sources, stat, f"{where}: {stat}는 null인데 출처가 적혀 있습니다.", "수치를 적거나 출처를 지우세요")
            ok = False
        if chk.record(src, "stat_source", f"{where}.stat_sources.{stat}"):
            ref(chk, src, "source", "source", [src["source"]])
    abil_names = set()
    for j, ab in enumerate(item["abilities"]):
        aw = f"{where}.abilities[{j}]"
        if not chk.record(ab, "ability", aw):
            ok = False
            continue
        if ab["name"] in abil_names:
            chk.add(ab, "name", f"{aw}: 능력 이름 {josa(repr(str(ab['name'])), '이/가')} 중복됩니다.", "하나로 합치세요")
            ok = False
        abil_names.add(ab["name"])
        if ab["timing"] is not None and ab["timing"] not in TIMINGS:
            chk.add(ab, "timing", f"{aw}: 알 수 없는 타이밍 '{ab['timing']}'.", f"{', '.join(TIMINGS)} 또는 null(미상)")
            ok = False
        if ab["kind"] not in ABILITY_KINDS:
            chk.add(ab, "kind", f"{aw}: 알 수 없는 능력 종류 '{ab['kind']}'.", f"{', '.join(ABILITY_KINDS)}")
            ok = False
        ref(chk, ab, "source", "source", chk.str_list(ab, "source", aw))
    ref(chk, item, "sources", "source", chk.str_list(item, "sources", where))
    if ok:
        rec = plain(item)
        rec["aliases"] = chk.str_list(item, "aliases", where)
        rec.setdefault("timing", None)
        rec.setdefault("notes", None)
        rec.setdefault("stat_sources", {})
        for ab in rec["abilities"]:
            ab["source"] = ab["source"] if isinstance(ab["source"], list) else [ab["source"]]
            ab.setdefault("effect", None)
        corpus.cards[name] = rec


def _load_synonym(corpus: Corpus, chk: _Checker, item, where, plain):
    """One thesaurus entry: an everyday word (a verb as '~다') and the rulebook terms it stands for."""
    word = item["word"].strip()
    pos = item.get("pos", "noun")
    ok = True
    if pos not in SYNONYM_POS:
        chk.add(item, "pos", f"{where}: 알 수 없는 품사 '{pos}'.", "noun(명사) 또는 verb(동사·형용사)")
        ok = False
    elif pos == "verb" and (not word.endswith("다") or len(word) < 2 or " " in word):
        chk.add(item, "word", f"{where}: 동사 {josa(repr(word), '은/는')} 띄어쓰기 없이 '~다' 꼴로 적어야 합니다.", "예: 때리다, 들어오다")
        ok = False
    weight = item.get("weight", 1)
    if not isinstance(weight, bool) and isinstance(weight, (int, float)) and not 0 < weight <= 1:
        chk.add(item, "weight", f"{where}: weight 값 {weight}{josa(str(weight), '은/는')[len(str(weight)):]} 0보다 크고 1 이하여야 합니다.", "0.5, 0.8, 1 같은 값을 적으세요")
        ok = False
    terms = chk.str_list(item, "terms", where)
    if not terms:
        chk.add(item, "terms", f"{where}: '{word}'의 terms 목록이 비어 있습니다.", "룰북 용어를 하나 이상 적으세요")
        ok = False
    if word in corpus.synonyms:
        chk.add(item, "word", f"{where}: 말 {josa(repr(word), '이/가')} 중복됩니다.", "한 항목으로 합치세요")
        ok = False
    if ok:
        rec = plain(item)
        rec.update(word=word, pos=pos, weight=float(weight), terms=terms, file=chk.file, line=item.line)
        rec.setdefault("note", None)
        corpus.synonyms[word] = rec


def _check_synonym_terms(corpus: Corpus, problems: list) -> None:
    """Every word of a synonym's terms must occur in the rules (a word, or the start of one)."""
    from bisect import bisect_left

    from .korean import words
    from .entries import entries_of

    vocab = sorted({w.lower() for e in entries_of(corpus) for text in (e[2], e[4], e[5]) for w in words(text)})
    for rec in corpus.synonyms.values():
        for term in rec["terms"]:
            for w in words(term):
                w = w.lower()
                i = bisect_left(vocab, w)
                if i >= len(vocab) or not vocab[i].startswith(w):
                    problems.append(Problem(rec["file"], rec["line"], "terms",
                                            f"유의어 '{rec['word']}'의 용어 {josa(repr(term), '이/가')} 룰 데이터에 나오지 않습니다.",
                                            "조항·용어집에 실제로 쓰인 말로 고치세요"))
                    break


# -------------------------------------------------------------- prebuilt ----
# A corpus given in advance (flamer_ref.searchindex.preload: the prebuilt data `flamer site` ships to the
# browser): load() answers the default data tree from it, parsing no YAML.
_PREBUILT: dict = {}


def preloaded() -> bool:
    """Is the default data tree's corpus the prebuilt data given to preload_corpus (the browser's engine)?"""
    return bool(_PREBUILT)


def preload_corpus(corpus: Corpus | None) -> None:
    """Answer load() for the default data tree (no root given) with `corpus`; None forgets it."""
    _PREBUILT.clear()
    if corpus is not None:
        _PREBUILT["corpus"] = corpus
