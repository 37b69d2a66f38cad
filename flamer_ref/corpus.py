"""Loading, validating and caching the rules corpus and card database.

The loader is strict: an unknown key, a duplicate key or id, a bad date, a
wrong type or a reference that does not resolve is reported with the file, the
line, the key and how to fix it. A validated corpus is cached (marshal) keyed
by a checksum of the files' bytes, so a lookup does not parse YAML; a cache file
is checked (header, checksum, shape) and rebuilt whenever it cannot be trusted.
"""

from __future__ import annotations

import marshal
import re
import zlib
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

from . import __version__
from .constants import FACTIONS  # noqa: F401  (re-exported: corpus.FACTIONS)
from .errors import DataError, Problem
from .errors import line_of as _line
from .korean import josa
from .paths import cache_dir, data_root

CACHE_FORMAT = 6
# citable ids (docs/DATA.md): lowercase ASCII words joined by dots or hyphens, at most 120 characters
_ID_RE = re.compile(r"(?=.{1,120}\Z)[a-z0-9]+(?:[.-][a-z0-9]+)*")

GRADES = ("초급", "중급", "고급")
TIMINGS = ("전투", "대응", "이동", "등장")
CARD_TYPES = ("piece", "special")
ABILITY_KINDS = ("sp", "entry", "effect", "other")
STATS = ("lv", "hp", "atk", "cost")
RULING_STATUS = {
    "confirmed": "확정", "corrected": "정정", "revised": "개정", "abolished": "폐지",
    "introduced": "도입", "codified": "명문화", "followup": "후속",
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
               "earlier": ((_L,), False), "interpretations": ((_L,), False)},
    "earlier": {"ruling": ((_S,), True), "text": ((_S,), True)},
    "interpretation": {"id": ((_S,), True), "title": ((_S,), True), "text": ((_S,), True),
                       "basis": ((_S,), True)},
    "ruling": {"id": ((_S,), True), "date": ((_S,), True), "status": ((_S,), True),
               "label": ((_S,), True), "title": ((_S,), True), "summary": ((_S,), True),
               "clauses": ((_L,), True), "supersedes": ((_S, _N), False),
               "earlier_rule": ((_S, _N), False), "source": ((_L, _S), True)},
    "faq": {"id": ((_S,), True), "question": ((_S,), True), "answer": ((_S,), True),
            "clauses": ((_L,), True), "source": ((_S,), True), "keywords": ((_L,), False),
            "scenario": ((_D, _L), False), "expected": ((_D, _L), False)},
    "term": {"id": ((_S,), True), "term": ((_S,), True), "aliases": ((_L,), False),
             "definition": ((_S,), True), "clauses": ((_L,), False), "source": ((_S, _L), True)},
    "example": {"id": ((_S,), True), "title": ((_S,), True), "type": ((_S,), True),
                "source": ((_S,), True), "situation": ((_S,), True), "steps": ((_L,), True),
                "result": ((_S,), True), "point": ((_S,), False), "reason": ((_S,), False),
                "clauses": ((_L,), True), "rulings": ((_L,), False),
                "scenario": ((_D, _L), False), "expected": ((_D, _L), False)},
    "card": {"name": ((_S,), True), "aliases": ((_L,), False), "type": ((_S,), True),
             "faction": ((_S, _N), True), "grade": ((_S, _N), True), "lv": ((_I, _N), True),
             "hp": ((_I, _N), True), "atk": ((_I, _N), True), "cost": ((_I, _N), True),
             "structure": ((_B,), True), "timing": ((_S, _N), False), "abilities": ((_L,), True),
             "stat_sources": ((_D,), False), "notes": ((_S, _N), False), "sources": ((_L,), True)},
    "ability": {"name": ((_S,), True), "timing": ((_S, _N), True), "kind": ((_S,), True),
                "text": ((_S,), True), "source": ((_S, _L), True), "effect": ((_D, _N), False),
                "optional": ((_B, _N), False)},
    "stat_source": {"source": ((_S,), True), "quote": ((_S,), True)},
    "timing": {"id": ((_S,), True), "title": ((_S,), True), "match": ((_D,), True), "rows": ((_L,), True)},
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


class _Checker:
    """Collects problems for one file."""

    def __init__(self, file: str):
        self.file = file
        self.problems: list[Problem] = []

    def add(self, obj, key, message, fix=None):
        self.problems.append(Problem(self.file, _line(obj, key), key, message, fix))

    def record(self, obj, schema: str, where: str) -> bool:
        if not isinstance(obj, dict):
            self.problems.append(Problem(self.file, None, where, f"{where}: 매핑이어야 합니다.",
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
                    self.problems.append(Problem(self.file, _line(obj), key, f"{where}: 필수 키 '{key}'가 없습니다.",
                                                 f"'{key}'를 추가하세요"))
                    ok = False
                continue
            value = obj[key]
            if isinstance(value, bool) and bool not in types:
                good = False
            else:
                good = isinstance(value, types)
            if not good:
                want = " 또는 ".join(_TYPE_KO[t] for t in types)
                self.add(obj, key, f"{where}: '{key}'의 값은 {want}이어야 합니다 (지금: {value!r}).",
                         f"'{key}'의 값을 {want} 값으로 고치세요")
                ok = False
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


def _nearest(word: str, options: list[str]) -> str | None:
    from difflib import get_close_matches

    hits = get_close_matches(word, options, n=1, cutoff=0.6)
    return hits[0] if hits else None


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

    def to_plain(self) -> dict:
        return {k: getattr(self, k) for k in
                ("sources", "sections", "clauses", "interpretations", "rulings", "faq", "terms",
                 "examples", "cards", "timings", "synonyms", "phrasings", "root")}

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

    # ----- engine data, read here once (the engine reads no files; docs/ENGINE.md)
    @property
    def effects(self) -> dict:
        """cards/effects.yaml, validated against the cards: {(card, ability): EffectDef}."""
        got = self.__dict__.get("_effects")
        if got is None:
            got = self.__dict__["_effects"] = load_effects(self)
        return got

    @property
    def example_board(self) -> dict:
        """rules/boards/example.yaml (the labelled example board, not the official map) as plain data."""
        got = self.__dict__.get("_example_board")
        if got is None:
            got = self.__dict__["_example_board"] = load_example_board(self.root or None)
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


def load_effects(corpus: "Corpus", path: Path | str | None = None) -> dict:
    """Read cards/effects.yaml (default: under the data root) and validate it against the card
    database (engine.effects.parse_effects). A missing file means no effect is known. Raises DataError."""
    from .engine.effects import parse_effects
    from .yamlio import read_yaml

    # the data tree this corpus was read from (validate --data, FLAMER_DATA), else the default one
    path = Path(path) if path is not None else Path(corpus.root or data_root()) / "cards" / "effects.yaml"
    if not path.is_file():
        return {}
    try:
        display = str(path.relative_to(Path(corpus.root))) if corpus.root else str(path)
    except ValueError:
        display = str(path)
    return parse_effects(read_yaml(path, display), corpus, display)


EXAMPLE_BOARD = "rules/boards/example.yaml"


def load_example_board(root: Path | str | None = None) -> dict:
    """The example board (rules/boards/example.yaml of the data tree `root`, default the data root)
    as plain data, checked as the engine will use it: a broken board is a DataError naming the file,
    line and key (never an internal error in a later move simulation)."""
    from .engine.board import BoardError, board_from_spec
    from .yamlio import plain, read_yaml

    doc = read_yaml(Path(root or data_root()) / EXAMPLE_BOARD, EXAMPLE_BOARD)
    spec = plain(doc)
    if not isinstance(spec, dict):
        raise DataError([Problem(EXAMPLE_BOARD, getattr(doc, "line", None) or 1, None,
                                 "예시 보드는 매핑이어야 합니다.",
                                 "{label, width, height, adjacency} 형식으로 적으세요 (docs/DATA.md)")])
    try:
        board_from_spec(spec)
    except BoardError as exc:
        top = exc.key.split(".")[1] if exc.key.count(".") else None
        line = doc.line_of(top) if top is not None and hasattr(doc, "line_of") else getattr(doc, "line", None)
        raise DataError([Problem(EXAMPLE_BOARD, line, exc.key, exc.message, exc.fix)]) from None
    return spec


def check_scenarios(corpus: "Corpus") -> list[Problem]:
    """`flamer validate`: every example and FAQ scenario of the data tree, parsed against its card
    database and resolved, as `flamer examples` and `flamer example ID --scenario | flamer simulate -`
    will later do. A card name the parser had to correct (a typo such as 수문쟝) is a problem too:
    data names cards exactly. Whether a result matches the page's `expected` is `flamer examples`'s
    question, not validity. Problems name the data file and the line of the scenario."""
    from .engine.turns import parse_any, run_any
    from .errors import FlamerError
    from .korean import josa
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


def _data_files(root: Path) -> list[Path]:
    files: list[Path] = []
    for sub in ("rules", "rules/clauses", "rules/examples", "cards"):
        d = root / sub
        if d.is_dir():
            files.extend(sorted(p for p in d.iterdir() if p.suffix in (".yaml", ".yml") and p.is_file()
                                # cards/effects.yaml is engine data, validated by flamer_ref.engine.effects
                                and not (sub == "cards" and p.name == "effects.yaml")))
    return files


def _signature(root: Path, files: list[Path]) -> str:
    """The cache key: a checksum of every data file's path and bytes (not its size or
    modification time, which archive extraction and sync tools restore), of the code
    that shapes the cache, and of the versions involved."""
    crc, adl = 0, 1
    head = f"{CACHE_FORMAT}|{__version__}|{sys.version_info[:2]}|{root.resolve()}".encode()
    crc, adl = zlib.crc32(head, crc), zlib.adler32(head, adl)
    for p in files:
        name = f"|{p.relative_to(root).as_posix()}|".encode()
        try:
            data = p.read_bytes()
        except OSError:
            data = b"\x00unreadable"  # parse() reports it; the key just has to differ
        for chunk in (name, len(data).to_bytes(8, "little"), data):
            crc, adl = zlib.crc32(chunk, crc), zlib.adler32(chunk, adl)
    # the cache layout depends on the code that builds it
    here = Path(__file__).parent
    for name in ("corpus.py", "search.py", "korean.py", "similar.py"):
        st = (here / name).stat()
        part = f"|{name}|{st.st_size}|{st.st_mtime_ns}".encode()
        crc, adl = zlib.crc32(part, crc), zlib.adler32(part, adl)
    # two independent 32-bit checksums: zlib imports in well under a millisecond, hashlib in ~3 ms
    return f"{crc:08x}{adl:08x}"


_MEMO: dict[str, object] = {}


def _paths(root: Path | str | None) -> tuple[Path, list[Path], Path | None]:
    root = Path(root) if root is not None else data_root()
    if not (root / "rules").is_dir():
        raise DataError([Problem(str(root), None, None, "rules/ 폴더가 없습니다.",
                                 "FLAMER_DATA가 가리키는 경로나 설치 상태를 확인하세요")])
    files = _data_files(root)
    cdir = cache_dir()
    return root, files, (cdir / _signature(root, files)) if cdir is not None else None


# A cache file: magic, format, kind, length and checksum of the payload, then the marshal payload.
_MAGIC = b"FLMRC"
_HEAD = len(_MAGIC) + 1 + 1 + 8 + 4
_MAX_CACHE_BYTES = 256 * 1024 * 1024


def _frame(kind: bytes, payload: bytes) -> bytes:
    return (_MAGIC + bytes([CACHE_FORMAT]) + kind + len(payload).to_bytes(8, "little")
            + zlib.crc32(payload).to_bytes(4, "little") + payload)


def _read_cache(path: Path | None, kind: bytes = b"C"):
    """The object stored in a cache file, or None when there is none or it cannot be
    trusted (not a regular file, wrong header, length or checksum, unreadable)."""
    if path is None:
        return None
    import stat as _stat

    try:
        # O_NONBLOCK: a FIFO with no writer must not hang the open; fstat then refuses it
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except (OSError, ValueError):
        return None
    try:
        st = os.fstat(fd)
        if not _stat.S_ISREG(st.st_mode) or not _HEAD <= st.st_size <= _MAX_CACHE_BYTES:
            return None
        with os.fdopen(fd, "rb") as fh:
            fd = -1
            blob = fh.read(st.st_size + 1)
    except (OSError, ValueError, MemoryError):
        return None
    finally:
        if fd >= 0:
            os.close(fd)
    if blob[:len(_MAGIC)] != _MAGIC or blob[len(_MAGIC)] != CACHE_FORMAT or blob[len(_MAGIC) + 1:len(_MAGIC) + 2] != kind:
        return None
    at = len(_MAGIC) + 2
    size = int.from_bytes(blob[at:at + 8], "little")
    crc = int.from_bytes(blob[at + 8:at + 12], "little")
    payload = memoryview(blob)[_HEAD:]
    if len(payload) != size or zlib.crc32(payload) != crc:
        return None
    try:
        return marshal.loads(payload)
    except (EOFError, ValueError, TypeError):
        return None


_CORPUS_TABLES = ("sources", "sections", "clauses", "interpretations", "rulings", "faq", "terms",
                  "examples", "cards", "timings", "synonyms", "phrasings")


def _valid_corpus(data, root: Path) -> bool:
    """A cached corpus has exactly the corpus's tables, each a mapping of id → record."""
    if not isinstance(data, dict) or set(data) != set(_CORPUS_TABLES) | {"root"}:
        return False
    if data["root"] != str(root):
        return False
    for name in _CORPUS_TABLES:
        table = data[name]
        if not isinstance(table, dict) or not all(isinstance(k, str) and isinstance(v, dict) for k, v in table.items()):
            return False
    return bool(data["clauses"])


def _valid_index(packed) -> bool:
    """A cached (packed) search index has every part a search reads, with consistent sizes: every
    vocabulary table but those the cache keeps apart (LAZY_TABLES), which are checked when present."""
    from .search import _TABLES, LAZY_TABLES

    if not isinstance(packed, dict):
        return False
    if not all(isinstance(packed.get(k), str) for k in ("ids", "kinds", "raw_words", "lemmas")):
        return False
    if not isinstance(packed.get("ruling_dates"), dict) or not isinstance(packed.get("synonyms"), dict):
        return False
    n = packed["ids"].count("\x00") + 1
    if packed["kinds"].count("\x00") + 1 != n:
        return False
    for name in ("titles", "texts", "heads", "names"):
        col = packed.get(name)
        if not (isinstance(col, tuple) and len(col) == 2 and all(isinstance(x, bytes) for x in col)):
            return False
        if len(col[1]) != 4 * (n + 1):
            return False
        # the offsets must stay inside the blob (checked at the ends; the writer makes them monotone)
        if int.from_bytes(col[1][-4:], "little") != len(col[0]) or col[1][:4] != b"\x00\x00\x00\x00":
            return False
    if any(t not in packed for t in _TABLES if t not in LAZY_TABLES):
        return False
    return _valid_tables(packed, [t for t in _TABLES if t in packed])


def _valid_tables(packed, names) -> bool:
    """The packed vocabulary tables named are there, with consistent sizes."""
    if not isinstance(packed, dict):
        return False
    for name in names:
        t = packed.get(name)
        if not isinstance(t, dict):
            return False
        if not all(isinstance(t.get(k), bytes) for k in ("keys", "lex_keys", "lex_idx", "lens", "post", "offs")):
            return False
        if len(t["post"]) % 4 or len(t["offs"]) % 4 or len(t["lex_idx"]) % 4 or len(t["lens"]) % 2:
            return False
    return True


def load(root: Path | str | None = None, *, use_cache: bool = True) -> Corpus:
    """Load the corpus (validated), from the cache when it is fresh and sound."""
    root, files, stem = _paths(root)
    key = ("corpus", str(root), stem.name if stem else None)
    if use_cache and key in _MEMO:
        return _MEMO[key]  # type: ignore[return-value]
    data = _read_cache(stem.with_name(stem.name + ".corpus") if (use_cache and stem) else None, b"C")
    if data is not None and _valid_corpus(data, root):
        corpus = Corpus.from_plain(data)
    else:
        corpus = parse(root, files)
        if use_cache and stem is not None:
            _write_caches(stem, corpus)
    if use_cache:
        _MEMO[key] = corpus
    return corpus


def load_index(root: Path | str | None = None) -> dict:
    """The search index alone (what a search needs), from its own cache file so
    that a search does not unmarshal the whole corpus."""
    from .search import unpack_index

    root, files, stem = _paths(root)
    key = ("index", str(root), stem.name if stem else None)
    if key in _MEMO:
        return _MEMO[key]  # type: ignore[return-value]
    path = stem.with_name(stem.name + ".index") if stem else None
    packed = _read_cache(path, b"I")
    index = None
    if packed is not None and _valid_index(packed):
        try:
            index = unpack_index(packed)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
            index = None
    if index is None:
        packed = _write_index(stem, load(root))  # retried here when an earlier write failed
        index = unpack_index(packed)
    # read on first need: the tables the cache keeps apart, and the likeness model
    index["_more"] = lambda: _read_more(root, stem)
    index["_similar_loader"] = lambda: load_similar(root, stem)
    _MEMO[key] = index
    return index


def _write_index(stem: Path | None, corpus: Corpus) -> dict:
    """Build the packed index and cache it as two files: `.index` (what every query reads) and
    `.pairs` (LAZY_TABLES: read only by a query that needs one). Returns the whole packed index."""
    from .search import LAZY_TABLES, build_index, pack_index

    packed = pack_index(build_index(corpus))
    if stem is not None:
        # the rarely read part first: an `.index` is never there without its `.pairs`
        if _write_cache(stem.with_name(stem.name + ".pairs"), b"P", {t: packed[t] for t in LAZY_TABLES}):
            _write_cache(stem.with_name(stem.name + ".index"), b"I",
                         {k: v for k, v in packed.items() if k not in LAZY_TABLES})
    return packed


def _read_more(root: Path, stem: Path | None) -> dict:
    """The tables the index cache keeps apart (`.pairs`); when that file is missing or cannot be
    trusted, the index is built again from the corpus (and both files written again)."""
    from .search import LAZY_TABLES

    more = _read_cache(stem.with_name(stem.name + ".pairs") if stem else None, b"P")
    if isinstance(more, dict) and set(more) == set(LAZY_TABLES) and _valid_tables(more, LAZY_TABLES):
        return more
    packed = _write_index(stem, load(root))
    return {t: packed[t] for t in LAZY_TABLES}


def _valid_similar(packed) -> bool:
    """A cached likeness model (similar.pack) has its five parts with consistent sizes."""
    if not isinstance(packed, dict) or set(packed) != {"keys", "idf", "offs", "ents", "wts"}:
        return False
    if not all(isinstance(v, bytes) for v in packed.values()):
        return False
    n = packed["keys"].count(b"\x00") + 1 if packed["keys"] else 0
    offs, ents, wts = packed["offs"], packed["ents"], packed["wts"]
    count = len(wts) // 2  # 16-bit weights; entry numbers of 16 or 32 bits
    return (len(packed["idf"]) == 4 * n and len(offs) == 4 * (n + 1) and len(wts) % 2 == 0
            and len(ents) in (2 * count, 4 * count) and offs[:4] == b"\x00\x00\x00\x00"
            and int.from_bytes(offs[-4:], "little") == count)


def load_similar(root: Path | str | None = None, stem: Path | None = None):
    """The likeness model of a data tree (flamer_ref/similar.py), from its own cache file next to the
    index's; trained from the corpus when there is none (a search of one word never needs it)."""
    from .similar import Model, pack, train

    if stem is None:
        root, _files, stem = _paths(root)
    key = ("similar", str(root), stem.name if stem else None)
    if key in _MEMO:
        return _MEMO[key]
    path = stem.with_name(stem.name + ".similar") if stem else None
    packed = _read_cache(path, b"S")
    if packed is None or not _valid_similar(packed):
        from .search import similar_docs

        packed = pack(train(similar_docs(load(root))))
        if path is not None:
            _write_cache(path, b"S", packed)
    model = Model(packed)
    _MEMO[key] = model
    return model


def _write_cache(path: Path, kind: bytes, obj) -> bool:
    """Write one cache file atomically (temp file + os.replace); never raise, never leave
    the temp file behind."""
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        blob = _frame(kind, marshal.dumps(obj))
        with open(tmp, "wb") as fh:
            fh.write(blob)
        os.replace(tmp, path)
        return True
    except (OSError, ValueError):
        # a read-only home or a full disk is fine: we just parse every time
        try:
            tmp.unlink()
        except OSError:
            pass
        return False


def _write_caches(stem: Path, corpus: Corpus) -> None:
    if not _write_cache(stem.with_name(stem.name + ".corpus"), b"C", corpus.to_plain()):
        return
    try:
        _write_index(stem, corpus)
        for old in stem.parent.glob("*.corpus"):
            if old.name != stem.name + ".corpus":
                for sfx in (".corpus", ".index", ".pairs", ".similar"):
                    try:
                        old.with_suffix(sfx).unlink()
                    except OSError:
                        pass
    except OSError:
        pass


def parse(root: Path, files: list[Path] | None = None) -> Corpus:
    """Parse and validate every data file; raise DataError listing all problems."""
    from .dates import is_date
    from .yamlio import plain, read_yaml

    files = files if files is not None else _data_files(root)
    # the two files everything else refers to: when one is missing, say so once (not one
    # "cannot find" line per reference)
    for rel_path, is_there in (("rules/sources.yaml", (root / "rules" / "sources.yaml").is_file()),
                               ("rules/clauses/", any(p.parent == root / "rules" / "clauses" for p in files)),
                               ("cards/cards.yaml", (root / "cards" / "cards.yaml").is_file())):
        if not is_there:
            raise DataError([Problem(rel_path, None, None, f"{rel_path} 파일이 없습니다."
                                     if rel_path.endswith(".yaml") else f"{rel_path} 폴더가 없거나 조항 파일이 없습니다.",
                                     "데이터 폴더 구조는 docs/DATA.md를 보세요")])
    corpus = Corpus(root=str(root))
    problems: list[Problem] = []
    seen_ids: dict[str, str] = {}  # id -> file
    pending_refs: list[tuple[_Checker, object, str, str, list[str]]] = []

    def rel(p: Path) -> str:
        try:
            return str(p.relative_to(root))
        except ValueError:
            return str(p)

    def claim_id(chk: _Checker, obj, key: str, value: str, what: str):
        if not _ID_RE.fullmatch(value):
            # reported, but still claimed: a bad id should not also cascade into "not found" lines
            suggestion = re.sub(r"[^a-z0-9]+", "-", value.lower()).strip("-")[:80]
            chk.add(obj, key, f"{what} id '{value}'의 형식이 잘못되었습니다: 영문 소문자, 숫자와 '.', '-'만 씁니다"
                    " (docs/DATA.md).",
                    f"예: '{suggestion}'" if _ID_RE.fullmatch(suggestion or "-") else "예: 'combat.step7.sweep'")
        if value in seen_ids:
            chk.add(obj, key, f"{what} id '{value}'가 중복됩니다 (먼저 나온 곳: {seen_ids[value]}).",
                    "id를 다른 이름으로 바꾸세요")
            return False
        seen_ids[value] = chk.file
        return True

    def ref(chk, obj, key, kind, ids):
        pending_refs.append((chk, obj, key, kind, ids))

    parsed: list[tuple[Path, object]] = []
    for path in files:
        try:
            parsed.append((path, read_yaml(path, rel(path))))
        except DataError as exc:
            problems.extend(exc.problems)

    top_keys = {"sources": "source", "rulings": "ruling", "faq": "faq", "terms": "term",
                "examples": "example", "cards": "card", "timings": "timing", "synonyms": "synonym",
                "phrasings": "phrasing"}
    for path, doc in parsed:
        chk = _Checker(rel(path))
        if doc is None:
            continue  # an empty file contributes nothing
        if not isinstance(doc, dict):
            chk.add(doc, None, "최상위는 매핑이어야 합니다.", "'clauses:' 같은 최상위 키 아래에 목록을 적으세요")
            problems.extend(chk.problems)
            continue
        allowed = {"section", "clauses"} if path.parent.name == "clauses" else set(top_keys)
        for key in doc:
            if key not in allowed:
                chk.add(doc, key, f"알 수 없는 최상위 키 '{key}'.", f"허용: {', '.join(sorted(allowed))}")
        if path.parent.name == "clauses":
            sec = doc.get("section")
            if not chk.record(sec, "section", "section"):
                problems.extend(chk.problems)
                continue
            if sec["id"] in corpus.sections:
                chk.add(sec, "id", f"섹션 id '{sec['id']}'가 중복됩니다.", "섹션 id를 바꾸세요")
            corpus.sections[sec["id"]] = {"id": sec["id"], "title": sec["title"], "order": sec["order"],
                                          "file": rel(path)}
            for i, c in enumerate(doc.get("clauses") or []):
                where = f"clauses[{i}]"
                if not chk.record(c, "clause", where):
                    continue
                if not claim_id(chk, c, "id", c["id"], "조항"):
                    continue
                rec = plain(c)
                rec["section"] = sec["id"]
                rec["file"] = rel(path)
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
                        if claim_id(chk, it, "id", it["id"], "해석"):
                            irec = plain(it)
                            irec["clause"] = c["id"]
                            corpus.interpretations[it["id"]] = irec
                            interps.append(it["id"])
                rec["interpretations"] = interps
                corpus.clauses[c["id"]] = rec
            problems.extend(chk.problems)
            continue

        for top, schema in top_keys.items():
            items = doc.get(top)
            if items is None:
                continue
            if not isinstance(items, list):
                chk.add(doc, top, f"'{top}'는 목록이어야 합니다.", "각 항목을 '- '로 시작하세요")
                continue
            for i, item in enumerate(items):
                where = f"{top}[{i}]"
                if not chk.record(item, schema, where):
                    continue
                _load_item(corpus, chk, schema, item, where, claim_id, ref, is_date, plain)
        problems.extend(chk.problems)

    if corpus.synonyms:
        _check_synonym_terms(corpus, problems)
    answerable = (corpus.clauses, corpus.faq, corpus.interpretations, corpus.terms, corpus.rulings,
                  corpus.examples, corpus.cards)
    for rec in corpus.phrasings.values():  # questions only for entries that can answer them
        if not any(rec["id"] in table for table in answerable):
            near = _nearest(rec["id"], [k for table in answerable for k in table])
            problems.append(Problem(rec["file"], rec["line"], "id",
                                    f"질문 예의 항목 {josa(repr(rec['id']), '을/를')} 찾을 수 없습니다.",
                                    f"{josa(repr(near), '으로/로')} 고치세요" if near
                                    else "있는 조항·FAQ·해석·용어·판정·예시 id나 카드 이름을 적으세요"))
    # references, now that every id is known
    tables = {"clause": corpus.clauses, "ruling": corpus.rulings, "source": corpus.sources,
              "example": corpus.examples}
    kind_ko = {"clause": "조항", "ruling": "판정", "source": "출처 페이지", "example": "예시"}
    for chk, obj, key, kind, ids in pending_refs:
        for target in ids:
            if target not in tables[kind]:
                near = _nearest(target, list(tables[kind]))
                chk.problems.append(Problem(chk.file, _line(obj, key), key,
                                            f"{kind_ko[kind]} {josa(repr(target), '을/를')} 찾을 수 없습니다.",
                                            f"{josa(repr(near), '으로/로')} 고치세요" if near else f"있는 {kind_ko[kind]} id를 적으세요"))
        problems.extend(p for p in chk.problems if p not in problems)
    if problems:
        # de-duplicate while keeping order
        seen = set()
        uniq = []
        for p in problems:
            if p not in seen:
                seen.add(p)
                uniq.append(p)
        raise DataError(uniq)
    corpus.__dict__.pop("_card_names", None)
    if not corpus.clauses:
        raise DataError([Problem(str(root / "rules" / "clauses"), None, None, "조항이 하나도 없습니다.",
                                 "rules/clauses/에 조항 파일을 두세요")])
    corpus.rulings = dict(sorted(corpus.rulings.items(), key=lambda kv: (kv[1]["date"], kv[0])))
    corpus.sections = dict(sorted(corpus.sections.items(), key=lambda kv: kv[1]["order"]))
    return corpus


def _load_item(corpus: Corpus, chk: _Checker, schema: str, item, where, claim_id, ref, is_date, plain):
    if schema == "source":
        if claim_id(chk, item, "id", item["id"], "출처"):
            corpus.sources[item["id"]] = plain(item)
    elif schema == "ruling":
        if not is_date(item["date"]):
            chk.add(item, "date", f"{where}: 날짜 '{item['date']}'가 올바르지 않습니다.",
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
            ref(chk, item, "clauses", "clause", rec["clauses"])
            ref(chk, item, "source", "source", rec["source"])
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
    from .search import entries_of

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
