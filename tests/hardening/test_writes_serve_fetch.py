"""Issue 25, what the tool writes, serves and fetches (faults 1, 4, 5, 10, 12, 13, 14, 17 and the smaller
ones of the same pass). Each test is the fault's reproduction.

1. `-o FILE` / `--save FILE` wrote in place: a write that failed part-way (disk full, quota, file-size
   limit) left the old file truncated (820,160 → 65,536 bytes). Now a temp file beside it is renamed
   over it: the old file stays whole and the message says so. Reproduced with a real file-size limit
   (RLIMIT_FSIZE, SIGXFSZ ignored) in a process of its own.
4. `validate --write-numbers` followed a symbolic link at rules/ and wrote the lock outside the tree.
5. `--serve` followed links inside the site folder, listed folders and answered any Host header.
10. A FIFO at rules/numbers.lock.yaml kept `validate --write-numbers` waiting for ever.
12. The registry download had a timeout per read only: a byte now and then kept `flamer site` waiting.
13. `--serve` printed a traceback for GET /%00 and for every client that reset its connection.
14. A folder name of 300 bytes ended in the catch-all 내부 오류.
17. A card name too long for a file name (89 syllables) stopped `flamer site` half-way, and the folder it
    left had no file list, so the next build into it was refused.
Smaller: a local .tgz failing its check was called a download; untranslated OS errors; `flamer book |
head -1` said "핸드북을 썼습니다" and exited 0.
"""

from __future__ import annotations

import errno
import json
import os
import re
import resource
import shutil
import signal
import socket
import stat
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import quote

import pytest

import flamer_fork
from datatree import write_minimal_corpus
from inprocess import clean_error, isolated as invoke

from flamer_ref import pyodidefetch
from flamer_ref import siteserve
from flamer_ref.errors import os_reason
from flamer_ref.site import MARKER, card_slug

ROOT = Path(__file__).resolve().parent.parent.parent
#: a bound that only catches a hang (the tests themselves take a second or two)
HANG = 60
needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")


def limited_run(args, limit: int, env: dict | None = None, cwd=None) -> subprocess.CompletedProcess:
    """`python -m flamer_ref ARGS` in a process whose files may not grow past `limit` bytes (RLIMIT_FSIZE;
    SIGXFSZ ignored, so a write past it fails with EFBIG as a full disk fails with ENOSPC). No cache."""

    def limit_files():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    full_env = {**os.environ, "FLAMER_CACHE_DIR": "", "PYTHONIOENCODING": "utf-8", **(env or {})}
    full_env.pop("FLAMER_DEBUG", None)
    return subprocess.run([sys.executable, "-m", "flamer_ref", *args], capture_output=True, text=True,
                          env=full_env, cwd=cwd or ROOT, preexec_fn=limit_files, timeout=HANG)


def temp_files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp") or p.name.startswith(".flamer-"))


# ------------------------------------------------------- 1: -o and --save ----
def test_o_that_fails_part_way_leaves_the_old_file_whole(tmp_path):
    out = tmp_path / "existing.md"
    old = ("지난번 FAQ 페이지\n" * 12000).encode("utf-8")  # 300 KB: the new page (11 KB) is not near it
    out.write_bytes(old)
    p = limited_run(["faq", "--format", "md", "-o", str(out)], limit=4096)
    assert p.returncode == 1, p.stderr
    assert out.read_bytes() == old  # was: 4,096 bytes of the new page, the rest of the old one lost
    assert "쓰지 못했습니다 (파일 크기 한도를 넘었습니다)" in p.stderr and "원래 파일은 그대로입니다" in p.stderr, p.stderr
    assert "Traceback" not in p.stderr and "내부 오류" not in p.stderr and "썼습니다:" not in p.stderr
    assert temp_files(tmp_path) == []


def test_save_that_fails_part_way_leaves_the_old_scenario_whole(tmp_path):
    saved = tmp_path / "fight.yaml"
    old = b"# my scenario\n" + b"kind: combat\n" * 150
    saved.write_bytes(old)
    p = limited_run(["fight", "수문장 vs 개미(lv1 hp2 atk1)", "--save", str(saved)], limit=100)
    assert p.returncode == 1, p.stderr
    assert saved.read_bytes() == old  # was: truncated (0 bytes on a full disk)
    assert "--save" in p.stderr and "원래 파일은 그대로입니다" in p.stderr, p.stderr
    assert "저장했습니다" not in p.stderr and "Traceback" not in p.stderr
    assert temp_files(tmp_path) == []


def test_a_new_file_that_cannot_be_written_is_not_left_half_written(tmp_path):
    out = tmp_path / "new.md"
    p = limited_run(["faq", "--format", "md", "-o", str(out)], limit=4096)
    assert p.returncode == 1 and "파일을 만들지 않았습니다" in p.stderr, p.stderr
    assert not out.exists() and temp_files(tmp_path) == []


def test_replacing_keeps_the_permission_bits_and_a_long_name_fits(tmp_path):
    out = tmp_path / "faq.md"
    out.write_text("old", encoding="utf-8")
    out.chmod(0o640)
    r = invoke("faq", "--format", "md", "-o", str(out))
    assert r.exit_code == 0, r.stderr
    assert out.read_text(encoding="utf-8").startswith("# ") and stat.S_IMODE(out.stat().st_mode) == 0o640
    # a target whose name is near the 255-byte limit: the temp file beside it gets a name that fits too
    long = tmp_path / ("가" * 80 + ".md")  # 243 bytes
    r = invoke("faq", "--format", "md", "-o", str(long))
    assert r.exit_code == 0, r.stderr
    assert long.read_text(encoding="utf-8").startswith("# ") and temp_files(tmp_path) == []


# -------------------------------------------------- 4, 10: the number lock ----
def test_write_numbers_refuses_a_symlinked_rules_folder(tmp_path):
    outside = tmp_path / "outside"
    write_minimal_corpus(outside)
    tree = tmp_path / "T"
    tree.mkdir()
    (tree / "rules").symlink_to(Path("..") / "outside" / "rules")  # T/rules -> ../outside/rules
    shutil.copytree(outside / "cards", tree / "cards")
    before = sorted(os.listdir(outside / "rules"))
    r = invoke("validate", "--data", str(tree), "--write-numbers")
    clean_error(r, "rules/", "심볼릭 링크")
    assert sorted(os.listdir(outside / "rules")) == before  # no lock, no temp file written outside the tree
    assert not (outside / "rules" / "numbers.lock.yaml").exists()


@needs_fifo
@pytest.mark.parametrize("write", [True, False])
def test_a_fifo_at_the_number_lock_is_refused_never_waited_on(tmp_path, write):
    tree = write_minimal_corpus(tmp_path / "data")
    lock = tree.root / "rules" / "numbers.lock.yaml"
    os.mkfifo(lock)
    args = ["validate", "--data", str(tree.root)] + (["--write-numbers"] if write else [])
    env = {**os.environ, "FLAMER_CACHE_DIR": "", "PYTHONIOENCODING": "utf-8"}
    p = flamer_fork.run(*args, env=env, timeout=HANG)  # was: waited for ever (with --write-numbers)
    assert p.returncode == 1, p.stderr
    assert "numbers.lock.yaml" in p.stderr and "FIFO" in p.stderr and "Traceback" not in p.stderr, p.stderr
    assert stat.S_ISFIFO(os.lstat(lock).st_mode)  # neither read nor replaced
    assert temp_files(lock.parent) == []


# ----------------------------------------------------------- 5, 13: serve ----
def http(port: int, path: str, host: str | None = "127.0.0.1", extra: str = "") -> tuple[int, dict, bytes]:
    """One raw request (HTTP/1.0, `extra` header lines); (status, headers, body)."""
    head = f"GET {path} HTTP/1.0\r\n" + (f"Host: {host}\r\n" if host is not None else "") + extra + "\r\n"
    with socket.create_connection(("127.0.0.1", port), timeout=HANG) as s:
        s.sendall(head.encode("latin-1"))
        data = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    top, _, body = data.partition(b"\r\n\r\n")
    lines = top.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:] if ": " in line)
    return int(lines[0].split()[1]), headers, body


def _handlers_done(before: set[threading.Thread]) -> bool:
    """No request handler started since `before` is still running. Handlers of earlier tests' servers are not
    waited for: a browser's unused preconnection keeps one of those blocked until the browser quits."""
    return not any("process_request" in t.name for t in set(threading.enumerate()) - before)


@pytest.fixture
def served(tmp_path):
    site, outside = tmp_path / "site", tmp_path / "outside"
    (site / "cards").mkdir(parents=True)
    (site / "assets").mkdir()
    outside.mkdir()
    (site / "index.html").write_text("<p>목차</p>", encoding="utf-8")
    (site / "cards" / "index.html").write_text("<p>카드</p>", encoding="utf-8")
    (site / "assets" / "site.css").write_text("body{}", encoding="utf-8")
    (site / "big.bin").write_bytes(b"\0" * (16 * 1024 * 1024))
    (outside / "hostname").write_text("SECRET-HOST", encoding="utf-8")
    (site / "leak").symlink_to(outside)  # site/leak -> a folder outside (as site/leak -> /etc)
    (site / "page.html").symlink_to(outside / "hostname")
    server = siteserve.make_server(str(site), 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield {"port": server.server_address[1], "site": site}
    server.shutdown()
    server.server_close()


def test_serve_keeps_to_regular_files_inside_the_folder(served):
    port = served["port"]
    for path in ("/leak/hostname", "/page.html", "/leak/", "/leak"):
        status, _, body = http(port, path)
        assert status == 404 and b"SECRET-HOST" not in body, (path, status)
    status, _, body = http(port, "/assets/")  # a folder without index.html: no listing
    assert status == 404 and b"site.css" not in body and b"Directory listing" not in body
    assert http(port, "/cards/")[:1] == (200,) and "카드".encode() in http(port, "/cards/")[2]
    status, headers, _ = http(port, "/cards")
    assert status == 301 and headers["Location"] == "/cards/"
    status, headers, _ = http(port, "//cards")  # never a redirect to another host (//cards/)
    assert status == 301 and headers["Location"] == "/cards/"
    assert http(port, "/index.html")[0] == 200 and http(port, "/")[0] == 200
    assert http(port, "/index.html/")[0] == 404
    # a browser's copy still current is not sent again (what SimpleHTTPRequestHandler did)
    assert http(port, "/index.html", extra="If-Modified-Since: Fri, 01 Jan 2100 00:00:00 GMT\r\n")[0] == 304
    assert http(port, "/index.html", extra="If-Modified-Since: Mon, 01 Jan 1990 00:00:00 GMT\r\n")[0] == 200


def test_serve_answers_only_this_computers_names(served):
    port = served["port"]
    for host in (f"127.0.0.1:{port}", "127.0.0.1", f"localhost:{port}", "LOCALHOST"):
        assert http(port, "/index.html", host)[0] == 200, host
    for host in ("evil.example", f"evil.example:{port}", "127.0.0.1.nip.io", "localhost.evil.example", ""):
        status, _, body = http(port, "/index.html", host)
        assert status == 421 and "목차".encode() not in body, host  # a DNS-rebound page reads nothing
    assert http(port, "/index.html", None)[0] == 421  # no Host at all


def test_serve_never_prints_a_traceback(served, capfd):
    port = served["port"]
    before = set(threading.enumerate())
    status, _, _ = http(port, "/%00")
    assert status == 400
    assert http(port, "/a%00b.html")[0] == 400
    for _ in range(3):  # clients that reset their connection mid-download
        s = socket.create_connection(("127.0.0.1", port), timeout=HANG)
        s.sendall(b"GET /big.bin HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
        assert s.recv(1024).startswith(b"HTTP/1.0 200")
        s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        s.close()
    end = time.monotonic() + HANG
    while not _handlers_done(before) and time.monotonic() < end:
        time.sleep(0.02)
    assert http(port, "/index.html")[0] == 200  # still serving
    err = capfd.readouterr().err
    assert "Traceback" not in err and "Exception" not in err and "Error" not in err, err


# ------------------------------------------------------- 12: the registry ----
class Drip:
    """An npm registry on loopback that answers 200 with a 6.5 MB body and then sends one byte every
    `every` seconds: no single read ever waits long, the download never ends."""

    def __init__(self, every: float):
        self.every = every
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen()
        self.sent = 0
        self.gone = threading.Event()
        self.closed = False
        threading.Thread(target=self._serve, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.sock.getsockname()[1]}/"

    def _serve(self) -> None:
        try:
            conn, _ = self.sock.accept()
        except OSError:
            return
        with conn:
            try:
                conn.recv(65536)
                conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n"
                             b"Content-Length: 6500000\r\n\r\n")
                while not self.closed:
                    time.sleep(self.every)
                    conn.sendall(b"x")
                    self.sent += 1
            except OSError:
                self.gone.set()  # the client hung up

    def close(self) -> None:
        self.closed = True
        self.sock.close()


def test_a_registry_that_sends_a_byte_now_and_then_is_given_up_on(tree, tmp_path, monkeypatch):
    monkeypatch.setattr(pyodidefetch, "DOWNLOAD_DEADLINE", 0.5)  # the default is 300 s
    drip = Drip(every=0.1)
    out = tmp_path / "site"
    env = {"FLAMER_PYODIDE": "", "FLAMER_DATA": str(tree.root), "FLAMER_CACHE_DIR": str(tmp_path / "cache"),
           "npm_config_registry": drip.url}
    got = {}
    worker = threading.Thread(target=lambda: got.setdefault("r", invoke("site", str(out), env=env)), daemon=True)
    try:
        worker.start()
        worker.join(HANG)
        assert not worker.is_alive(), "flamer site still waiting on the registry"  # was: > 240 s
        r = got["r"]
        assert r.exit_code == 0, r.stderr
        assert "판정기 엔진 없이 만들었습니다" in r.stderr and "너무 오래 걸려" in r.stderr, r.stderr
        assert "--pyodide" in r.stderr and "다시 실행" in r.stderr
        assert (out / "index.html").is_file() and not (out / "engine").exists()
        assert drip.gone.wait(HANG)  # the abandoned download hung up, it does not read on in the background
        assert drip.sent < 100
    finally:
        drip.close()


def test_a_given_tgz_that_fails_its_check_is_not_called_a_download(tmp_path):
    bad = tmp_path / "pyodide-314.0.8.tgz"
    bad.write_bytes(b"\x1f\x8b not the pinned tarball")
    r = invoke("site", str(tmp_path / "out"), "--pyodide", str(bad))
    clean_error(r, "--pyodide", "이 .tgz 파일의 무결성")
    assert "내려받은" not in r.stderr


# -------------------------------------------------------- 14: a long name ----
@pytest.mark.parametrize("under", ["", "missing/"])
def test_a_300_byte_folder_name_is_said_plainly(tmp_path, under):
    r = invoke("site", str(tmp_path) + "/" + under + "a" * 300, "--no-engine")
    clean_error(r, "이름이 너무 깁니다")  # was: 내부 오류가 났습니다 (OSError: …)
    assert "a" * 100 not in r.stderr  # the name is shown cut, not 300 characters of it


# ---------------------------------------------- 17: card names, a half site ----
LONG = "가나다라마바사아자차카타파하" * 6 + "거너더라머"  # 89 syllables: 267 bytes, 272 with .html


def test_a_card_name_too_long_for_a_file_name_gets_a_safe_page(tmp_path):
    tree = write_minimal_corpus(tmp_path / "data")
    text = tree.read("cards/cards.yaml")
    tree.append("cards/cards.yaml", text[text.index("- name: 수문장"):].replace("- name: 수문장", f"- name: {LONG}"))
    assert len(LONG) == 89
    r = invoke("validate", "--data", str(tree.root))
    assert r.exit_code == 0, r.stderr  # data the tool calls valid …
    out = tmp_path / "site"
    r = invoke("site", str(out), "--no-engine", env={"FLAMER_DATA": str(tree.root)})
    assert r.exit_code == 0, r.stderr  # … becomes a site (was: 이름이 너무 깁니다, half a site)
    slug = card_slug(LONG)
    page = out / "cards" / f"{slug}.html"
    assert page.is_file() and len(page.name.encode("utf-8")) <= 255 and LONG[:30] in slug
    assert f"<h1>{LONG}</h1>" in page.read_text(encoding="utf-8")  # the page reads as the card
    href = "cards/" + quote(slug) + ".html"
    cards = (out / "cards.html").read_text(encoding="utf-8")
    assert re.search(rf'<a href="{re.escape(href)}"[^>]*>{LONG}</a>', cards), "the link text is the card's name"
    index = json.loads((out / "search-index.js").read_text(encoding="utf-8").split("=", 1)[1].rstrip().rstrip(";"))
    assert [d[3] for d in index["docs"] if d[0] == "card" and d[2].startswith(LONG)] == [href]
    listed = json.loads((out / MARKER).read_text(encoding="utf-8"))["files"]
    assert f"cards/{slug}.html" in listed


def test_a_site_build_that_fails_half_way_leaves_a_folder_the_next_build_takes(tree, tmp_path):
    out = tmp_path / "site"
    env = {"FLAMER_DATA": str(tree.root)}
    p = limited_run(["site", str(out), "--no-engine"], limit=20000, env=env)  # calculator.js is 31 KB
    assert p.returncode == 1 and "Traceback" not in p.stderr, p.stderr
    assert (out / "index.html").is_file()  # half a site …
    assert (out / MARKER).is_file()  # … with its list (was: none, and the next build refused the folder)
    r = invoke("site", str(out), "--no-engine", env=env)
    assert r.exit_code == 0, r.stderr
    assert "사이트를 다 쓰지 못했습니다 (파일 크기 한도를 넘었습니다)" in p.stderr and MARKER in p.stderr, p.stderr
    listed = json.loads((out / MARKER).read_text(encoding="utf-8"))["files"]
    assert "assets/calculator.js" in listed and (out / "assets" / "calculator.js").stat().st_size > 20000
    assert not [p for p in out.rglob("*") if p.name.endswith(".tmp")]


# ---------------------------------------------------------- smaller ones ----
@pytest.mark.parametrize("name", ["ELOOP", "EFBIG", "EIO", "ENOSPC", "EDQUOT", "ENAMETOOLONG"])
def test_os_errors_are_said_in_korean(name):
    if not hasattr(errno, name):
        pytest.skip(f"no {name} on this system")
    said = os_reason(OSError(getattr(errno, name), "English strerror"))
    assert re.search("[가-힣]", said) and "운영체제 오류" not in said and name not in said, said


@pytest.mark.parametrize("unbuffered", ["1", None])
def test_a_page_cut_short_by_the_reader_is_not_called_written(unbuffered):
    """`flamer faq --format html | head -c 100` (the page is 99 KB, more than a pipe holds): the reader
    closes the pipe while the page is being written. Was: "FAQ 페이지를 썼습니다", exit 0 (under
    PYTHONUNBUFFERED the rest of the write was dropped without a word)."""
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "FLAMER_CACHE_DIR": ""}
    env.pop("PYTHONUNBUFFERED", None)
    if unbuffered:
        env["PYTHONUNBUFFERED"] = unbuffered
    p = subprocess.Popen([sys.executable, "-m", "flamer_ref", "faq", "--format", "html"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, env=env, cwd=ROOT)
    try:
        assert p.stdout.read(100).startswith(b"<!doctype html>")
        p.stdout.close()
        err = p.stderr.read().decode("utf-8")
        code = p.wait(HANG)
    finally:
        if p.poll() is None:
            p.kill()
    assert code != 0 and "썼습니다" not in err and "Traceback" not in err, (code, err)
    # one Korean line, as every command ends when its reader stops reading (test_hardening_terminal)
    assert len(err.splitlines()) == 1 and "파이프" in err, err


@pytest.mark.parametrize("argv", [
    ("fight", "거신 vs 별마대", "--save", "/nonexistent-folder/" + "가" * 4000 + ".yaml"),
    ("book", "-o", "/nonexistent-folder/" + "b" * 40000 + ".html"),
    ("site", "/nonexistent-folder/" + "c" * 40000, "--no-engine"),
    ("site", "out-never-made", "--pyodide", "/nonexistent-folder/" + "d" * 40000 + ".tgz"),
])
def test_a_long_path_is_echoed_cut(argv, tmp_path, monkeypatch):
    """Issue 25 (smaller): an output path or --pyodide path of 40,000 characters is repeated cut (its start,
    '…' and its end), as every other echoed value is, in one short Korean line."""
    from inprocess import clean_error, isolated as invoke

    monkeypatch.chdir(tmp_path)
    r = invoke(*argv)
    clean_error(r)
    assert len(r.stderr) < 400 and "…" in r.stderr, r.stderr[:500]
