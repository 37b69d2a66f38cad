"""Issue 11, odd terminals and terminal escaping: every command works under any
locale or output encoding, a closed/broken/full standard output ends with one
Korean line and exit 1 (no traceback, no "내부 오류"), control characters from
input never reach the terminal (or an HTML/Markdown page) raw, and the cache
folder is never created in the current directory nor able to fail a command."""

from __future__ import annotations

import functools
import json
import subprocess
import sys
from pathlib import Path

import flamer_fork
import pytest

from flamer_ref.cleantext import clean, json_clean

RAW = ("\x1b", "\x07", "\x9b", "\x7f")  # ESC, BEL, C1 CSI, DEL


# a real process (tests/flamer_fork.py; another locale or encoding: a fresh `python -m flamer_ref`), output as bytes
run = functools.partial(flamer_fork.run, text=False, timeout=60)


def no_trouble(p) -> None:
    err = p.stderr.decode("utf-8", "replace")
    assert "Traceback" not in err and "내부 오류" not in err and "UnicodeEncodeError" not in err, err


# ------------------------------------------------------------ the sanitizer ----
def test_clean_makes_every_control_character_visible_but_keeps_newline_and_tab():
    text = "a\x1b]0;pwned\x07b\x1b[2Jc\x00\r\x7f\x9b\x85d\n\te한글"
    out = clean(text)
    assert out == "a␛]0;pwned␇b␛[2Jc␀␍␡\\x9b\\x85d\n\te한글"
    assert not any(0 < ord(ch) < 32 and ch not in "\n\t" or 0x7F <= ord(ch) <= 0x9F for ch in out)
    assert clean("보통 글\n") == "보통 글\n"


def test_json_clean_keeps_the_json_value():
    obj = {"q": "x\x7fy\x9bz\x1b"}
    text = json.dumps(obj, ensure_ascii=False)
    safe = json_clean(text)
    assert "\x7f" not in safe and "\x9b" not in safe
    assert json.loads(safe) == obj


# ---------------------------------------------------------- odd encodings ----
@pytest.mark.parametrize("enc", ["ascii", "latin-1"])
@pytest.mark.parametrize("args", [("rule", "combat.step7.sweep"), ("card", "별마데"), ("rule", "combat.step7.sweep", "--json")])
def test_commands_work_under_any_output_encoding(enc, args):
    p = run(*args, env={"LC_ALL": "C", "LANG": "C", "PYTHONIOENCODING": enc})
    no_trouble(p)
    assert p.returncode == 0, p.stderr.decode("utf-8", "replace")
    out = p.stdout.decode("utf-8")  # UTF-8 rather than a crash
    if "--json" in args:
        assert json.loads(out)["id"] == "combat.step7.sweep"
    else:
        assert ("7단계" in out) if args[0] == "rule" else ("별마대" in out)


@pytest.mark.parametrize("enc", ["ascii", "latin-1"])
def test_error_message_is_readable_korean_under_any_encoding(enc):
    p = run("rule", "없는.조항", env={"LC_ALL": "C", "LANG": "C", "PYTHONIOENCODING": enc})
    no_trouble(p)
    assert p.returncode == 1
    err = p.stderr.decode("utf-8")
    assert "없습니다" in err and "\\u" not in err


def test_usage_error_under_ascii_is_korean():
    p = run("cards", "--nope", env={"LC_ALL": "C", "PYTHONIOENCODING": "ascii"})
    no_trouble(p)
    assert p.returncode == 2
    assert "사용법 오류" in p.stderr.decode("utf-8")


# ---------------------------------------------------- broken or full stdout ----
def _one_korean_line(p) -> str:
    no_trouble(p)
    assert p.returncode == 1
    lines = p.stderr.decode("utf-8").splitlines()
    assert len(lines) == 1, lines
    assert any("가" <= ch <= "힣" for ch in lines[0])
    return lines[0]


def test_full_stdout_ends_with_one_line():
    p = run("rule", "combat.step7.sweep", stdout="/dev/full")
    assert "공간" in _one_korean_line(p)


def test_full_stdout_with_a_large_answer():
    p = run("cards", stdout="/dev/full")
    _one_korean_line(p)


def test_closed_stdout_ends_with_one_line():
    # `flamer rule … >&-`: file descriptor 1 is closed in the child
    p = subprocess.run(f"exec {sys.executable} -m flamer_ref rule combat.step7.sweep >&-", shell=True,
                       stderr=subprocess.PIPE, timeout=60)
    assert "닫혀" in _one_korean_line(p)


def test_pipe_closed_early_ends_with_one_line():
    proc = subprocess.Popen([sys.executable, "-m", "flamer_ref", "cards"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    proc.stdout.close()  # the reader went away before the answer was written (like `| head -0`)
    err = proc.stderr.read()
    proc.wait(timeout=60)
    p = subprocess.CompletedProcess(proc.args, proc.returncode, b"", err)
    assert "파이프" in _one_korean_line(p)


# ------------------------------------------------- control characters in input ----
HOSTILE_QUERY = "\x1b]0;pwned\x07정착\x1b[2J"


def _assert_clean(data: bytes) -> None:
    text = data.decode("utf-8")
    for raw in RAW:
        assert raw not in text, (raw, text[:400])


def test_query_with_escape_sequences_is_shown_visibly():
    p = run("search", HOSTILE_QUERY)
    no_trouble(p)
    assert p.returncode == 0
    _assert_clean(p.stdout + p.stderr)
    assert "␛]0;pwned␇정착" in p.stdout.decode("utf-8")


def test_query_with_escape_sequences_under_json_stays_exact():
    p = run("search", HOSTILE_QUERY + "\x9b", "--json")
    no_trouble(p)
    _assert_clean(p.stdout)
    assert json.loads(p.stdout)["query"] == HOSTILE_QUERY + "\x9b"


def test_unknown_id_with_escape_sequences_in_the_error_message():
    p = run("rule", "\x1b[2Jnope\x07")
    no_trouble(p)
    assert p.returncode == 1
    _assert_clean(p.stderr + p.stdout)
    assert "␛[2Jnope␇" in p.stderr.decode("utf-8")


SCENARIO = """\
종류: 전투
제목: "\\e]0;pwned\\a<script>제목\\e[2J\\u009b"
공격자: DGM
셀:
  "2,4":
    DGM:
    - {아이디: "g\\e[31mk1\\a", 카드: 수문장}
    BGM:
    - {아이디: drill, 카드: 행성굴착기, 상태: 정착}
"""


@pytest.mark.parametrize("fmt", ["text", "md", "html"])
def test_scenario_title_and_piece_id_with_escapes(fmt):
    p = run("simulate", "-", "--format", fmt, input=SCENARIO.encode())
    no_trouble(p)
    assert p.returncode == 0, p.stderr.decode()
    _assert_clean(p.stdout + p.stderr)
    out = p.stdout.decode("utf-8").replace("\\[", "[").replace("\\]", "]")  # md escapes brackets
    # the id is never printed for people (issue 17: the card name 수문장 is), the title is, made visible
    assert "␛]0;pwned␇" in out and "31mk1" not in out and "수문장" in out
    if fmt == "html":
        assert "<script>제목" not in out


def test_scenario_with_escapes_brief_and_all_branches():
    for extra in (["--brief"], ["--all-branches"], ["--brief", "--format", "html"]):
        p = run("simulate", "-", *extra, input=SCENARIO.encode())
        no_trouble(p)
        assert p.returncode == 0
        _assert_clean(p.stdout + p.stderr)


def test_scenario_json_keeps_the_exact_title():
    p = run("simulate", "-", "--json", input=SCENARIO.encode())
    no_trouble(p)
    _assert_clean(p.stdout)
    data = json.loads(p.stdout)
    assert data["title"].startswith("\x1b]0;pwned\x07<script>")


def test_html_written_to_a_file_has_no_raw_control_characters(tmp_path):
    out = tmp_path / "faq.html"
    p = run("faq", "--format", "html", "-o", str(out))
    no_trouble(p)
    assert p.returncode == 0
    _assert_clean(out.read_bytes())


# ------------------------------------------------------------------- cache ----
def test_relative_cache_dir_does_not_create_folders_here(tmp_path):
    home = tmp_path / "home"
    work = tmp_path / "work"
    home.mkdir()
    work.mkdir()
    env = {"FLAMER_CACHE_DIR": "relcache", "HOME": str(home), "XDG_CACHE_HOME": "rel-xdg"}
    p = run("rule", "combat.step7.sweep", env=env, cwd=work)
    no_trouble(p)
    assert p.returncode == 0
    assert list(work.iterdir()) == []
    assert (home / ".cache" / "relcache").is_dir()


def test_cache_dir_that_cannot_be_written_never_fails(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    for cdir in (blocker, blocker / "sub", Path("/dev/full") / "x", Path("/proc/flamer-cache")):
        for args in (("rule", "combat.step7.sweep"), ("search", "정착")):
            p = run(*args, env={"FLAMER_CACHE_DIR": str(cdir)})
            no_trouble(p)
            assert p.returncode == 0, (cdir, p.stderr.decode())
            assert p.stdout.strip()


def test_cache_dir_function_is_always_absolute(monkeypatch, tmp_path):
    from flamer_ref.paths import cache_dir

    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setenv("FLAMER_CACHE_DIR", "x/y")
    assert cache_dir() == tmp_path / ".cache" / "x" / "y"
    monkeypatch.setenv("FLAMER_CACHE_DIR", "")
    assert cache_dir() is None
    monkeypatch.delenv("FLAMER_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", "relative")
    assert cache_dir() == tmp_path / ".cache" / "flamer_ref"


def test_bidi_overrides_are_shown_not_obeyed():
    """A title or id with U+202E (right-to-left override) would make the terminal show text reversed."""
    from flamer_ref.cleantext import clean

    assert clean("a\u202eb\u2066c") == "a<U+202E>b<U+2066>c"
    assert clean("평범한 글") == "평범한 글"


def test_invisible_marks_are_shown():
    from flamer_ref.cleantext import clean

    assert clean("a\u200bb\u200fc\ufeff") == "a<U+200B>b<U+200F>c<U+FEFF>"
