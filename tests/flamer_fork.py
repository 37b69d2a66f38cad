"""`flamer` as a real process, without paying for a fresh interpreter each time.

A warm interpreter (started once per test process, with flamer_ref and its libraries imported, no data
loaded) forks one child per call; the child takes the call's environment, working folder and standard
streams (real files: fd 0, 1, 2) and runs `cli.main()` as the console script and `python -m flamer_ref`
do (terminal setup, os._exit with the exit code). So a call has a process of its own — exit code, stdout
and stderr apart, its own memo and cache reads — and what it saves is the interpreter's start and the
imports (most of a short command's time).

What a fork cannot give, a real `python -m flamer_ref` still does (run() falls back to it): another
locale or stream encoding (LANG, LC_*, PYTHONIOENCODING, PYTHONUTF8 other than this process's), another
PYTHONPATH, an argument that is bytes. A caller that needs a pipe read or closed while the command runs,
a terminal, or a limit set in the child calls subprocess itself (the few such tests are listed, with
their reason, in tests/cli/test_suite_honesty.py).
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SERVER = r"""
import json, os, sys
req_fd, resp_fd = os.dup(0), os.dup(1)
# warm: every module of the package but the PDF's (it imports WeasyPrint, which few commands need), and so
# the libraries they import at the top; then the libraries the package imports inside its functions, where
# a command first needs them (Jinja when it renders: 25 ms and more of a child's time, a third of a short
# command's; rapidfuzz when it looks a name up; hashlib, difflib, zipfile). A child imports nothing a
# command loads lazily. No data is read here: each child reads its data and caches itself.
import importlib, pkgutil, flamer_ref  # noqa: E401
for _m in pkgutil.walk_packages(flamer_ref.__path__, "flamer_ref."):
    if _m.name not in ("flamer_ref.__main__", "flamer_ref.pdf"):
        importlib.import_module(_m.name)
for _m in ("jinja2", "jinja2.bccache", "rapidfuzz.fuzz", "rapidfuzz.process", "rapidfuzz.distance", "hashlib",
           "difflib", "zipfile"):
    importlib.import_module(_m)
from flamer_ref import cli
# Jinja's compiling of each template done once here (tests/templatememo.py): a child still reads, writes and
# checks its cache folder's compiled templates as any process does; only the compiling itself is not redone
sys.path.insert(0, os.path.join(os.getcwd(), "tests"))
import templatememo  # noqa: E402
templatememo.prefill(os.environ.get("FLAMER_TEST_TEMPLATES"))
del sys.path[0]
# what the warm-up made is moved out of the collector's reach (gc.freeze, as Python's documentation advises
# before fork): a child's collections no longer walk — and so write to, and copy — the pages it shares with
# this process (a short command 43 -> 33 ms). The child's own objects are collected as in any process.
import gc  # noqa: E402
gc.freeze()
buf = b""
os.write(resp_fd, b"ready\n")
while True:
    while b"\n" not in buf:
        chunk = os.read(req_fd, 65536)
        if not chunk:
            os._exit(0)
        buf += chunk
    line, buf = buf.split(b"\n", 1)
    req = json.loads(line)
    sys.stdout.flush(); sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(req_fd); os.close(resp_fd)
            os.environ.clear(); os.environ.update(req["env"])
            os.chdir(req["cwd"])
            for n, (p, flags) in enumerate(zip(req["paths"], (os.O_RDONLY, os.O_WRONLY | os.O_CREAT | os.O_TRUNC,
                                                               os.O_WRONLY | os.O_CREAT | os.O_TRUNC))):
                fd = os.open(p, flags, 0o600)
                os.dup2(fd, n)
                os.close(fd)
            sys.argv = [os.path.join(os.path.dirname(cli.__file__), "__main__.py"), *req["argv"]]
            cli.main()
        finally:
            os._exit(99)
    os.write(resp_fd, (json.dumps({"pid": pid}) + "\n").encode())
    _, status = os.waitpid(pid, 0)
    os.write(resp_fd, (json.dumps({"code": os.waitstatus_to_exitcode(status)}) + "\n").encode())
"""

#: environment variables fixed when an interpreter starts (stream encodings, the import path): a call that
#: sets them otherwise than this process runs a fresh interpreter
STARTUP_VARS = ("LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "PYTHONIOENCODING", "PYTHONUTF8", "PYTHONPATH",
                "PYTHONHASHSEED", "PYTHONWARNINGS", "PYTHONDONTWRITEBYTECODE", "PYTHONSAFEPATH")


class _Server:
    def __init__(self):
        self.proc = None
        self.buf = b""
        self.lock = threading.Lock()  # one call at a time: callers on several threads wait their turn

    def start(self) -> None:
        self.proc = subprocess.Popen([sys.executable, "-c", SERVER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     cwd=ROOT, env=dict(os.environ))
        assert self._line(120) == b"ready"
        atexit.register(self.stop)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.stdin.close()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()

    def _line(self, timeout: float | None) -> bytes | None:
        fd = self.proc.stdout.fileno()
        while b"\n" not in self.buf:
            ready, _, _ = select.select([fd], [], [], timeout)
            if not ready:
                return None
            chunk = os.read(fd, 65536)
            if not chunk:
                raise RuntimeError("the flamer fork server ended")
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return line

    def call(self, argv, env, cwd, paths, timeout) -> int | None:
        with self.lock:
            return self._call(argv, env, cwd, paths, timeout)

    def _call(self, argv, env, cwd, paths, timeout) -> int | None:
        if self.proc is None or self.proc.poll() is not None:
            self.start()
        req = {"argv": list(argv), "env": env, "cwd": str(cwd), "paths": paths}
        self.proc.stdin.write((json.dumps(req) + "\n").encode())
        self.proc.stdin.flush()
        pid = json.loads(self._line(60))["pid"]
        line = self._line(timeout)
        if line is None:  # the hang guard: the child is stopped, as subprocess.run's timeout does
            os.kill(pid, signal.SIGKILL)
            self._line(60)
            return None
        return json.loads(line)["code"]


_SERVER = _Server()
_STARTED_ENV = dict(os.environ)


def _same_at_startup(key: str, value: str | None) -> bool:
    """Whether an interpreter started with key=value would be this one. PYTHONIOENCODING=utf-8 is, where
    this interpreter's standard streams are UTF-8 already: flamer reads standard input as bytes, and
    terminal.setup sets the output streams' error handler itself, so the variable changes nothing."""
    if value == _STARTED_ENV.get(key):
        return True
    if key == "PYTHONIOENCODING" and value is not None and value.lower().replace("_", "-") in ("utf-8", "utf8"):
        import locale

        return _STARTED_ENV.get(key) is None and locale.getpreferredencoding(False).lower().replace("_", "-") in (
            "utf-8", "utf8")
    return False


def _forkable(env: dict, args) -> bool:
    return (sys.platform != "win32" and all(isinstance(a, str) for a in args)
            and all(_same_at_startup(k, env.get(k)) for k in STARTUP_VARS))


def run(*args, env: dict | None = None, full_env: dict | None = None, data=None, cache=None,
        input: str | bytes | None = None, stdin=None, stdout=None, cwd=None, timeout: float | None = 120,
        text: bool = True, encoding: str = "utf-8") -> subprocess.CompletedProcess:
    """`python -m flamer_ref ARGS` with its output captured, as subprocess.run(..., capture_output=True)
    returns it (stdout and stderr as text unless text=False; subprocess.TimeoutExpired past `timeout`).

    env: variables set for this call over this process's environment (a value None removes one);
    full_env: the whole environment instead of this process's (env still applies on top). data:
    FLAMER_DATA (a data tree); cache: FLAMER_CACHE_DIR ("": no cache folder); a variable named in env
    wins over both.
    input: standard input (str or bytes; empty when not given); stdin: a file to read it from instead
    (e.g. os.devnull or /dev/zero). stdout: a file to write standard output to (then not captured:
    the result's stdout is None). ARGS may be paths, or bytes (an argument that is no text); a call with
    bytes, and one whose environment differs in what an interpreter fixes at start (STARTUP_VARS), runs
    a fresh `python -m flamer_ref` instead of a fork."""
    args = tuple(os.fspath(a) if isinstance(a, os.PathLike) else a for a in args)
    merged = dict(os.environ if full_env is None else full_env)
    given = {**({"FLAMER_DATA": str(data)} if data is not None else {}),
             **({"FLAMER_CACHE_DIR": str(cache)} if cache is not None else {}), **(env or {})}
    for k, v in given.items():
        if v is None:
            merged.pop(k, None)
        else:
            merged[k] = v
    env = merged
    cwd = Path(cwd) if cwd is not None else Path.cwd()
    argv = [sys.executable, "-m", "flamer_ref", *args]
    data = input.encode(encoding) if isinstance(input, str) else (input or b"")
    if not _forkable(env, args):
        with contextlib.ExitStack() as files:
            given = ({"stdin": files.enter_context(open(stdin, "rb"))} if stdin is not None else {"input": data})
            target = files.enter_context(open(stdout, "wb")) if stdout is not None else subprocess.PIPE
            p = subprocess.run(argv, stdout=target, stderr=subprocess.PIPE, env=env, cwd=cwd, timeout=timeout,
                               **given)
        code, out, err = p.returncode, p.stdout, p.stderr
    else:
        folder = tempfile.mkdtemp(prefix="flamer-fork-")
        try:
            paths = [os.path.join(folder, n) for n in ("in", "out", "err")]
            if stdin is not None:
                paths[0] = os.path.abspath(stdin)
            else:
                Path(paths[0]).write_bytes(data)
            if stdout is not None:
                paths[1] = os.path.abspath(stdout)
            code = _SERVER.call(args, env, cwd, paths, timeout)
            if code is None:
                raise subprocess.TimeoutExpired(argv, timeout)
            out = Path(paths[1]).read_bytes() if stdout is None else None
            err = Path(paths[2]).read_bytes()
        finally:
            shutil.rmtree(folder, ignore_errors=True)
    if text:
        # as subprocess.run(text=True) reads a pipe: universal newlines
        out = out.decode(encoding).replace("\r\n", "\n").replace("\r", "\n") if out is not None else None
        err = err.decode(encoding).replace("\r\n", "\n").replace("\r", "\n")
    return subprocess.CompletedProcess(argv, code, out, err)
