"""Rule numbers (docs/DATA.md, 「조항 번호」).

Every clause gets a number a judge can say aloud: the chapter is its section's place in the order of
the sections (`order`: the smallest is 1), then its place among the section's clauses in file order
(6.26). A clause whose id extends the id of another clause of the same section (field.entry-effect →
field.entry-effect.duration) is numbered under it, in file order among its siblings (1.10 → 1.10.1).
An interpretation is numbered after its clause (the second one of clause 6.14 is 6.14-2; people read it
as 해석 6.14-2). A clause added at the end of its section (or at the end of its parent's sub-clauses)
changes no other number.

No number changes silently: rules/numbers.lock.yaml records every number with the rules version
(rules/sources.yaml `rules_version`). `flamer validate` compares the data with it: within one rules
version a number must not change or disappear, and a new number must be recorded
(`flamer validate --write-numbers`); renumbering takes a new rules version.
"""

from __future__ import annotations

import re
from pathlib import Path

from .digits import fold
from .errors import DataError, Problem
from .korean import josa

LOCK = "rules/numbers.lock.yaml"
#: a clause number (6.26, 1.10.1) or an interpretation number (6.14-1), as typed or printed
NUMBER_RE = re.compile(r"[1-9][0-9]*(?:\.[1-9][0-9]*)+(?:-[1-9][0-9]*)?")


def _parent(cid: str, ids: set) -> str | None:
    """The clause of the same section whose id this id extends (the longest such prefix), or None."""
    parts = cid.split(".")
    for n in range(len(parts) - 1, 0, -1):
        p = ".".join(parts[:n])
        if p in ids:
            return p
    return None


def assign_numbers(corpus) -> None:
    """Put `number` on every clause and interpretation record of a parsed corpus (sections in order)."""
    chapters = {sid: n for n, sid in enumerate(corpus.sections, 1)}
    by_section: dict[str, list[str]] = {}
    for cid, rec in corpus.clauses.items():
        by_section.setdefault(rec["section"], []).append(cid)
    for sid, ids in by_section.items():
        members = set(ids)
        parent = {cid: _parent(cid, members) for cid in ids}
        place: dict[str, int] = {}
        count: dict = {}
        for cid in ids:  # file order, among the clauses of the same parent
            count[parent[cid]] = count.get(parent[cid], 0) + 1
            place[cid] = count[parent[cid]]
        memo: dict[str, str] = {}

        def number(cid: str) -> str:
            if cid not in memo:
                p = parent[cid]
                memo[cid] = f"{chapters[sid]}.{place[cid]}" if p is None else f"{number(p)}.{place[cid]}"
            return memo[cid]

        for cid in ids:
            rec = corpus.clauses[cid]
            rec["number"] = number(cid)
            for k, iid in enumerate(rec["interpretations"], 1):
                corpus.interpretations[iid]["number"] = f"{rec['number']}-{k}"
    corpus.__dict__.pop("_by_number", None)


def sort_key(number: str) -> tuple:
    """A number's place in reading order: 6.9 before 6.10, 1.10 before 1.10.1, 6.14 before 6.14-1."""
    head, _, interp = number.partition("-")
    return (*(int(p) for p in head.split(".")), -1, int(interp) if interp else 0)


def numbers(corpus) -> dict[str, str]:
    """Every clause and interpretation id → its number, in number order."""
    pairs = [(rec["number"], key) for table in (corpus.clauses, corpus.interpretations)
             for key, rec in table.items()]
    return {key: num for num, key in sorted(pairs, key=lambda p: sort_key(p[0]))}


def find_number(corpus, text: str) -> str | None:
    """The clause or interpretation id a typed number names (6.26, 해석 6.14-1, 해석6.14-1), or None
    when the text is not a number of this data. Full-width and other digits read as ASCII (６.２６ is 6.26)."""
    t = "".join(fold(str(text)).split())
    if t.startswith("해석"):
        t = t[2:]
    t = t.rstrip(".")  # 6.26. as a sentence ends
    if not NUMBER_RE.fullmatch(t):
        return None
    return corpus.by_number().get(t)


def looks_like_number(text: str) -> bool:
    t = "".join(fold(str(text)).split())
    t = t[2:] if t.startswith("해석") else t
    return bool(NUMBER_RE.fullmatch(t.rstrip(".")))


# ----------------------------------------------------------------- the lock ----
def _where(corpus, key: str) -> tuple[str, int | None]:
    rec = corpus.clauses.get(key) or corpus.interpretations.get(key) or {}
    return rec.get("file") or "rules/clauses/", rec.get("line")


def _what(key: str) -> str:
    return "해석" if key.startswith("interp.") else "조항"


def read_lock(root: Path) -> tuple[object, list[Problem]]:
    """The lock file's content ({"rules_version", "numbers": {id: number}}) or None when there is none,
    and the problems of its shape."""
    from .yamlio import read_yaml

    try:  # (not corpus.present: corpus imports this module)
        there = (root / LOCK).exists()
    except OSError:
        there = True  # read_yaml says what keeps it from being read
    if not there:
        return None, []
    try:
        doc = read_yaml(root / LOCK, LOCK)
    except DataError as exc:
        return None, list(exc.problems)
    fix = f"`flamer validate --write-numbers`로 {LOCK}을 다시 쓰세요"
    if not isinstance(doc, dict) or set(doc) - {"rules_version", "numbers"} or not isinstance(doc.get("numbers"), dict):
        return None, [Problem(LOCK, 1, None, "조항 번호 기록의 형식이 잘못되었습니다: 'rules_version'과 "
                              "'numbers'(조항 id: 번호) 두 키만 씁니다.", fix)]
    version = doc.get("rules_version")
    bad = [k for k, v in doc["numbers"].items() if not (isinstance(k, str) and isinstance(v, str)
                                                         and NUMBER_RE.fullmatch(v))]
    if (version is not None and not isinstance(version, str)) or bad:
        return None, [Problem(LOCK, _line(doc["numbers"], bad[0]) if bad else 1, bad[0] if bad else "rules_version",
                              "조항 번호 기록의 값이 잘못되었습니다: 번호는 '6.26'처럼 따옴표 안에 적습니다.", fix)]
    return doc, []


def _line(obj, key):
    from .errors import line_of

    return line_of(obj, key)


def check_lock(corpus, root: Path) -> list[Problem]:
    """The numbers of the data against rules/numbers.lock.yaml (none when there is no lock file)."""
    doc, problems = read_lock(root)
    if doc is None:
        return problems
    changed, added = _compare(corpus, doc)
    return changed + added


_RENUMBER = ("다른 번호를 바꾸지 않으려면 새 조항을 섹션의 끝(하위 조항은 부모 조항의 하위 조항들 끝)에 더하세요. "
             "번호를 바꿔야 한다면 rules/sources.yaml의 rules_version을 올리고 flamer validate --write-numbers로 "
             "기록을 다시 쓰세요")


def _compare(corpus, doc: dict) -> tuple[list[Problem], list[Problem]]:
    """(numbers changed or gone — or the whole record of another rules version —, numbers not recorded yet)."""
    have = numbers(corpus)
    recorded = doc["numbers"]
    data_version, lock_version = corpus.rules_version, doc.get("rules_version")
    if data_version != lock_version:
        return [Problem(LOCK, _line(doc, "rules_version"), "rules_version",
                        f"조항 번호 기록은 규칙 판 {_v(lock_version)}의 것인데 데이터(rules/sources.yaml의 "
                        f"rules_version)는 규칙 판 {_v(data_version)}입니다.",
                        "새 판의 번호로 기록을 다시 쓰세요: flamer validate --write-numbers")], []
    changed, added = [], []
    for key, old in recorded.items():
        if key not in have:
            gone = f"{_what(key)} '{key}'(번호 {old})"
            changed.append(Problem(LOCK, _line(recorded, key), key,
                                   f"번호 기록에 있는 {josa(gone, '이/가')} 데이터에 "
                                   f"없습니다. 같은 규칙 판({_v(data_version)}) 안에서는 번호가 사라지면 안 됩니다.",
                                   f"{josa(_what(key), '을/를')} 되살리세요. {_RENUMBER}"))
        elif have[key] != old:
            file, line = _where(corpus, key)
            changed.append(Problem(file, line, "id",
                                   f"{_what(key)} '{key}'의 번호가 {old}에서 {josa(have[key], '으로/로')} 바뀌었습니다 "
                                   f"(규칙 판 {_v(data_version)} 그대로). 판정과 책이 인용한 번호가 다른 조항을 "
                                   "가리키게 됩니다.", _RENUMBER))
    for key, num in have.items():
        if key not in recorded:
            file, line = _where(corpus, key)
            added.append(Problem(file, line, "id", f"{_what(key)} '{key}'의 {josa('번호 ' + num, '이/가')} "
                                 f"번호 기록({LOCK})에 없습니다.",
                                 "flamer validate --write-numbers로 기록에 더하세요 (다른 번호는 바뀌지 않습니다)"))
    return changed, added


def _v(version) -> str:
    return f"'{version}'" if version else "(없음)"


def lock_text(corpus) -> str:
    """The lock file for the corpus's numbers (deterministic: number order)."""
    import json

    lines = ["# yaml-language-server: $schema=../schemas/numbers.schema.json",
             "# 조항 번호 기록: flamer validate가 데이터의 번호와 견줍니다. 손으로 고치지 말고",
             "# `flamer validate --write-numbers`로 씁니다 (docs/DATA.md 「조항 번호」).",
             f"rules_version: {json.dumps(corpus.rules_version, ensure_ascii=False) if corpus.rules_version else 'null'}",
             "numbers:"]
    lines += [f"  {key}: \"{num}\"" for key, num in numbers(corpus).items()]
    return "\n".join(lines) + "\n"


def _lock_target(root: Path):
    """May the lock be written at root/LOCK? Its stat when a file is there, None when none is. BadInput
    (in Korean) when rules/ is a symbolic link or not a folder (the record would land outside the data
    tree: `flamer site` refuses a link on its way the same), or when what is at the lock's name is not
    a regular file (a FIFO, which reading would wait on for ever; a device; a folder; a link)."""
    import os
    import stat

    from .errors import BadInput, os_reason

    rules = root / "rules"
    try:
        st = os.lstat(rules)
    except OSError as exc:
        raise BadInput(f"rules/: 조항 번호 기록을 쓸 폴더를 볼 수 없습니다 ({os_reason(exc)}).") from None
    if stat.S_ISLNK(st.st_mode) or not stat.S_ISDIR(st.st_mode):
        what = "심볼릭 링크" if stat.S_ISLNK(st.st_mode) else "폴더가 아닌 것"
        raise BadInput(f"rules/: 데이터 폴더의 rules/가 {what}입니다. 데이터 폴더 밖에 쓰지 않도록 조항 번호 "
                       f"기록({LOCK})을 쓰지 않습니다. 링크 대신 실제 폴더를 두고 다시 실행하세요.")
    try:
        st = os.lstat(root / LOCK)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise BadInput(f"{LOCK}을 쓸 수 없습니다 ({os_reason(exc)}).") from None
    if not stat.S_ISREG(st.st_mode):
        what = ("심볼릭 링크" if stat.S_ISLNK(st.st_mode) else "폴더" if stat.S_ISDIR(st.st_mode)
                else "FIFO(이름 있는 파이프)" if stat.S_ISFIFO(st.st_mode) else "장치 파일이나 소켓")
        raise BadInput(f"{LOCK}: 일반 파일이 아니라 {what}입니다. 읽지도 바꾸지도 않습니다. 지우거나 옮긴 뒤 "
                       "다시 실행하세요 (flamer validate --write-numbers가 새로 씁니다).")
    return st


def write_lock(corpus, root: Path) -> dict:
    """Write rules/numbers.lock.yaml for the corpus. Refused (DataError) when the lock is of the same
    rules version and a recorded number would change or disappear: that takes a new rules version.
    Refused too (BadInput) when rules/ is a symbolic link or the lock's name holds something other than a
    regular file (_lock_target). Written whole or not at all (outfile.write_atomic).
    Returns {"path", "written": bool, "added": n, "version", "clauses": n, "interpretations": n}."""
    from .errors import BadInput, os_reason
    from .outfile import write_atomic

    there = _lock_target(root)  # before anything is read: refused at once
    doc, _problems = read_lock(root)  # a lock of a broken shape is simply written anew
    added = 0  # a record written anew (none yet, or of another rules version) adds nothing to one
    if doc is not None and doc.get("rules_version") == corpus.rules_version:
        changed, new = _compare(corpus, doc)
        if changed:
            raise DataError(changed)
        added = len(new)
    text = lock_text(corpus)
    path = root / LOCK
    old = None
    if there is not None:
        from .yamlio import read_bytes

        try:  # the data files' gate: a regular file only, never a wait on a FIFO
            old = read_bytes(path, LOCK).decode("utf-8")
        except (DataError, UnicodeDecodeError):
            old = None
    if old != text:
        try:
            write_atomic(path, text.encode("utf-8"), like=there, check=lambda: _lock_target(root))
        except OSError as exc:
            kept = " 원래 기록은 그대로입니다." if there is not None else ""
            raise BadInput(f"{LOCK}을 쓰지 못했습니다 ({os_reason(exc)}).{kept}") from None
    return {"path": LOCK, "written": old != text, "added": added if old != text else 0,
            "version": corpus.rules_version, "clauses": len(corpus.clauses),
            "interpretations": len(corpus.interpretations)}
