"""Shared fixtures: a minimal valid corpus that a test can break one thing in."""

from __future__ import annotations

import contextlib
import gc
import os
from pathlib import Path

import pytest

# the presentation layer words the engine's coded problems (errors.use_wording), as every edge that prints
# does (the CLI, the site): tests that read a problem's message straight from the engine need it too
import flamer_ref.render  # noqa: E402,F401

# `flamer site` puts the calculator's engine (Pyodide, 14 MB, from the cache or the npm registry) into every
# site it builds; the tests that build sites for other reasons do without it (no download, no copying).
# tests/web/test_site_engine.py builds with the engine on purpose (--pyodide, or FLAMER_PYODIDE set there).
os.environ.setdefault("FLAMER_PYODIDE", "off")

# pytest-xdist (the suite runs on every core: pyproject's addopts): each worker keeps its own cache folder, so
# that one worker's stale-cache sweep (a test's own data tree has its own key) never removes the files another
# worker is reading, and the cache of the bundled data is built once per worker, not per test
_WORKER = os.environ.get("PYTEST_XDIST_WORKER")
if _WORKER and os.environ.get("FLAMER_CACHE_DIR") != "":
    import tempfile

    _base = os.environ.get("FLAMER_CACHE_DIR") or os.path.join(tempfile.gettempdir(), f"flamer_ref-tests-{os.getuid()}")
    os.environ["FLAMER_CACHE_DIR"] = os.path.join(os.path.expanduser(_base), f"xdist-{_WORKER}")

def _memo_get_command():
    """typer's CliRunner.invoke builds the click command from the Typer app on every call (signatures,
    type hints and parameters of all commands: some 10 ms, thousands of times a run). A click command
    is meant to be built once and invoked many times (each invocation parses into a new Context), so
    the tests build each app's once. The app itself is untouched: what runs is what `flamer` runs."""
    import typer.testing

    build = typer.testing._get_command
    built: dict[int, tuple] = {}

    def get_command(app):
        hit = built.get(id(app))
        if hit is None or hit[0] is not app:
            hit = built[id(app)] = (app, build(app))
        return hit[1]

    typer.testing._get_command = get_command


_memo_get_command()

# Jinja's compiling of a template kept per process (tests/templatememo.py: only the compiling; cache folders
# are read and written as before)
import templatememo  # noqa: E402  (tests/templatememo.py)

templatememo.install()

# ------------------------------------------------------- compiled templates, once a run ----
# Jinja compiles a template the first time a process uses it (40 ms each, a hundred templates): each worker's
# own renders and each worker's cache folder (its forked `flamer` commands) did it again, some 25 CPU-seconds
# of a run on a fresh machine. Under pytest-xdist the controller compiles every template once, in a process of
# its own started before the workers (it runs while they collect), into a folder of ours; each worker copies
# those cache files into its cache folder — as a user's folder holds them after a first command
# (flamer_ref/templatecache.py) — and gives its own in-process environment that folder's template cache. A
# test that needs a folder without compiled templates uses a folder of its own, as before.
PRECOMPILE = r"""
import sys
from pathlib import Path
from flamer_ref import render, templatecache
try:
    env = render.environment()
    env.bytecode_cache = templatecache.bytecode_cache(Path(sys.argv[1]))
    for name in env.list_templates():
        env.get_template(name)
finally:  # whatever happened, the workers stop waiting (and compile what is missing themselves)
    (Path(sys.argv[1]) / "done").write_text("done")
"""
_PRECOMPILED = "FLAMER_TEST_TEMPLATES"


def _compile_package() -> None:
    """The package's bytecode written beside its source (flamer_ref/__pycache__, ignored by git and by the
    wheel) before the workers start. Where PYTHONDONTWRITEBYTECODE is set (as on the CI machine), no
    process writes it, so every `flamer` of the run that is not a fork of a warm interpreter — the real
    processes the suite starts, and each fork for the modules its server had not imported — compiled
    the package's 28,000 lines again: 6–9 CPU-seconds a run, against 0.6 s for this. Python checks each
    file against its source (time and size), so an edited module is compiled again as always."""
    import compileall

    import flamer_ref

    compileall.compile_dir(str(Path(flamer_ref.__file__).resolve().parent), quiet=2, workers=1)


# pytest rewrites the asserts of every test module and conftest when it imports it (to explain a failing
# assert), and keeps the rewritten module in __pycache__ only where bytecode may be written: where
# PYTHONDONTWRITEBYTECODE is set (as on the CI machine) each worker rewrote all of them (over 100) again, 7
# of a worker's 10 seconds of collecting (py-spy). The controller has them rewritten once, by pytest's own
# functions, into the files pytest reads back (each checked against its source's time and size, as always),
# before the workers start: two processes, one per core; only the modules the run collects, and only those
# whose rewritten file is not current already (a second run rewrites nothing). A module that cannot be
# rewritten so is left to its worker, which rewrites it (or fails) as before.
REWRITE = r"""
import sys
from pathlib import Path
from _pytest.assertion.rewrite import PYC_TAIL, _read_pyc, _rewrite_test, _write_pyc, get_cache_dir

class State:  # what _write_pyc reports to: nothing to say
    trace = staticmethod(lambda *args: None)

for name in sys.argv[1:]:
    fn = Path(name)
    try:
        cache = get_cache_dir(fn)
        pyc = cache / (fn.name[:-3] + PYC_TAIL)
        if _read_pyc(fn, pyc) is not None:  # current (pytest's own check): rewritten by an earlier run
            continue
        cache.mkdir(exist_ok=True)
        stat, code = _rewrite_test(fn, None)
        _write_pyc(State(), code, stat, pyc)
    except Exception:
        pass
"""


def _rewrite_test_modules(config) -> None:
    """The test modules' asserts rewritten once a run, for every worker (REWRITE above)."""
    import subprocess
    import sys

    if config.getini("enable_assertion_pass_hook") or config.getoption("assertmode", "rewrite") != "rewrite":
        return  # rewritten otherwise: the workers do it themselves
    here = Path(__file__).resolve().parent
    # the modules this run collects (the paths it was given; the whole suite by default) and the conftests
    given = [g for g in (Path(str(a).split("::")[0]).resolve() for a in config.args) if g.exists()] or [here]
    files = sorted((p for p in here.rglob("*.py") if p.name == "conftest.py" or (
        p.name.startswith("test_") and any(p == g or g in p.parents for g in given))), key=lambda p: -p.stat().st_size)
    procs = [subprocess.Popen([sys.executable, "-c", REWRITE, *map(str, files[k::2])], cwd=str(here.parent),
                              stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
             for k in range(2)]
    for proc in procs:
        proc.wait()


def pytest_configure(config):
    """The controller of an xdist run compiles the package (_compile_package), starts compiling the
    templates (PRECOMPILE) and has the test modules' asserts rewritten (_rewrite_test_modules) before its
    workers start."""
    if _WORKER or not getattr(config.option, "numprocesses", None) or os.environ.get(_PRECOMPILED):
        return
    import atexit
    import shutil
    import subprocess
    import sys
    import tempfile

    _compile_package()
    folder = tempfile.mkdtemp(prefix="flamer_ref-templates-")
    proc = subprocess.Popen([sys.executable, "-c", PRECOMPILE, folder], cwd=str(Path(__file__).resolve().parent.parent),
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.environ[_PRECOMPILED] = folder  # the workers inherit it
    _rewrite_test_modules(config)

    def cleanup():
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        shutil.rmtree(folder, ignore_errors=True)

    atexit.register(cleanup)


def pytest_sessionstart(session):
    """A worker takes the compiled templates into its cache folder and renders in-process from there."""
    folder = os.environ.get(_PRECOMPILED)
    target = os.environ.get("FLAMER_CACHE_DIR")
    if not (_WORKER and folder and target):
        return
    import shutil
    import time

    from flamer_ref import render, templatecache

    deadline = time.monotonic() + 60
    while not os.path.exists(os.path.join(folder, "done")) and time.monotonic() < deadline:
        time.sleep(0.05)
    os.makedirs(target, exist_ok=True)
    for name in os.listdir(folder):
        if name.endswith("." + templatecache.SUFFIX) and not os.path.exists(os.path.join(target, name)):
            shutil.copyfile(os.path.join(folder, name), os.path.join(target, name))
    render.environment().bytecode_cache = templatecache.bytecode_cache(Path(target))


#: tests that must share one process (pytest-xdist's --dist loadgroup): the browser's (one Chromium and one
#: built site per run) and the PDF's (one book PDF per run), each group on a single worker, the two groups on
#: different workers when there are two
#: test_site_engine.py and test_calculator.py carry their own group ("engine-site": one engine build, one
#: browser), so the three long groups spread over the workers instead of one worker running them all
XDIST_GROUPS = {"test_browser.py": "browser", "test_site.py": "browser", "test_pdf.py": "pdf", "test_book.py": "pdf",
               "test_handbook_trust.py": "pdf",
               "test_phone.py": "engine-site",  # (issue 26: the calculator on a phone, on the engine site's browser)
               # files whose module fixtures are costly (a data tree's answers and warm cache; every scenario's
               # answer in every format; every reference command's output): built on one worker, not on each
               "test_fuzz_data.py": "fuzz-data", "test_player_words.py": "player-words",
               "test_reference_words.py": "reference-words",
               # the checks that read the source with ast (tests/sourcetree.py parses each file once a process):
               # on one worker, the package's and the suite's files are parsed once a run, not once a worker
               "test_house_rooms.py": "source", "test_engine_rooms.py": "source", "test_suite_honesty.py": "source",
               "test_purity.py": "source"}


def pytest_xdist_auto_num_workers(config):
    """`-n auto` (pyproject.toml's addopts): one worker per core, at most 8. The suite once waited much — on
    Chromium, on real processes started cold — and a second worker per core ran meanwhile (4 workers took
    this 2-core machine from 487 s to 388 s). Now that a `flamer` process is a fork of a warm interpreter and
    the browser and the PDF are shared, the run keeps both cores busy from start to end, and each worker
    more only repeats the fixed costs (collecting and rewriting every test module, warming a fork server,
    filling a cache folder): on a fresh machine 4 workers took 287 s and 569 CPU-seconds, 3 workers 268 s
    and 530, 2 workers 247 s and 475."""
    return min(8, os.cpu_count() or 1)


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist's own hook, which reads the groups to schedule them
def pytest_collection_modifyitems(config, items):
    for item in items:
        group = XDIST_GROUPS.get(item.path.name)
        if group is not None:
            item.add_marker(pytest.mark.xdist_group(group))


# ------------------------------------------------------- the collector's work, once ----
# A worker holds some 900,000 objects at the end of a run (every test module, the parsed data, the search
# index, Hypothesis's strategies, the template and YAML caches), and Python's cyclic collector walks them
# all at every full collection: 50–70 collections a worker, 8–14 s of CPU, and pytest's own five at its
# exit (gc_collect_harder: another 6 s a worker). What is alive once the tests are collected lives to the
# end, so each worker moves it out of the collector's way (gc.freeze, as Python's documentation advises
# for long-lived processes), and does the same at its end, when pytest's last collections look for
# unraisable exceptions that no test would hear of any more. Garbage made by the tests is collected as
# before: the collector still runs on everything made after the freeze, its full collections after 1,000
# of the middle generation's instead of 10 (what the tests leave behind is mostly freed by reference
# counting; measured over both workers: 120 full collections, 16.6 CPU-s -> 6, 0.3 CPU-s; the larger
# worker's peak 480 -> 930 MB, on a machine of 24 GB).
@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session):
    if _WORKER:
        gc.freeze()


def pytest_collection_finish(session):
    """A group that pytest-xdist did not take is a silent cost (each worker then builds the PDF, the site
    and a browser of its own): pytest-xdist 3.8 names a group in the item's nodeid, which pytest 9 no
    longer reads. Say so instead of running twice as long."""
    if _WORKER:  # what lives now lives to the end: out of the collector's way (above)
        gc.collect()
        gc.freeze()
        gen0, gen1, _ = gc.get_threshold()
        gc.set_threshold(gen0, gen1, 1000)
    if not session.config.getoption("loadgroup", default=False):
        return
    lost = [i.nodeid for i in session.items if i.get_closest_marker("xdist_group") and "@" not in i.nodeid]
    if lost:
        raise pytest.UsageError(f"pytest-xdist did not group {len(lost)} tests (e.g. {lost[0]}): this pytest "
                                "and pytest-xdist do not work together; install the versions pyproject.toml's "
                                "test extra asks for")

from datatree import MINIMAL, CorpusTree, write_minimal_corpus  # noqa: E402  (tests/datatree.py)


@pytest.fixture
def tree(tmp_path) -> CorpusTree:
    """A minimal valid corpus in tmp_path/data."""
    return write_minimal_corpus(tmp_path / "data")


# ------------------------------------------------- the site with its engine ----
# tests/web/test_site_engine.py and tests/web/test_calculator.py share ONE site built with the engine (Pyodide and,
# where node is, the bytecode: the slow part of a build), ONE local server and ONE headless Chromium:
# the engine the first of them starts cold in the browser leaves its memory snapshot on that origin,
# and the other's pages start warm from it. Under pytest-xdist both files' tests are one group
# (their `pytestmark`, xdist_group "engine-site": with --dist loadgroup one worker runs them, with one
# browser), and the build is shared by the workers in any case (engine_site: under a lock).

def _tree_files(root: Path) -> dict[str, int]:
    out = {}
    for top, _dirs, names in os.walk(root):
        for n in names:
            p = Path(top) / n
            out[str(p.relative_to(root))] = p.stat().st_mtime_ns
    return out


@pytest.fixture(scope="session")
def pyodide_dir(tmp_path_factory) -> Path:
    """The pinned Pyodide files in a folder: from FLAMER_TEST_PYODIDE (a folder or the npm .tgz), the
    user cache, or the npm registry (once; then cached). Without any, the tests that need it skip."""
    from flamer_ref import pyodidefetch

    given = os.environ.get("FLAMER_TEST_PYODIDE")
    saved = os.environ.pop("FLAMER_PYODIDE", None)  # turned off above for everyone else
    try:
        files = pyodidefetch.from_path(given, "FLAMER_TEST_PYODIDE") if given else pyodidefetch.obtain_pyodide()[0]
    except (pyodidefetch.EngineUnavailable, pyodidefetch.BadInput) as exc:
        pytest.skip(f"no Pyodide {pyodidefetch.PYODIDE_VERSION} here (network, cache or FLAMER_TEST_PYODIDE): {exc.message}")
    finally:
        if saved is not None:
            os.environ["FLAMER_PYODIDE"] = saved
    folder = tmp_path_factory.mktemp("pyodide")
    for name, data in files.items():
        (folder / name).write_bytes(data)
    return folder


@pytest.fixture(scope="session")
def engine_cache(tmp_path_factory) -> Path:
    """A cache folder for the engine site's build (the data's parsed corpus, index and model)."""
    return tmp_path_factory.mktemp("cache")


@contextlib.contextmanager
def _locked(path: Path):
    """An exclusive lock on `path` between processes (pytest-xdist's workers): flock, held while inside."""
    import fcntl

    with open(path, "a+b") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


@pytest.fixture(scope="session")
def engine_site(pyodide_dir, engine_cache, tmp_path_factory) -> dict:
    """The site with its engine, built once a session, with a HOME of its own and its cache elsewhere:
    what it wrote next to its folder is recorded (`outside`). {"dir", "summary", "outside"}.
    Under pytest-xdist the workers share one build: the first builds it in the run's shared temporary
    folder under a lock, the others wait for it and read what it recorded."""
    import json

    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = tmp_path_factory.getbasetemp().parent
        done = shared / "engine-site.json"
        with _locked(shared / "engine-site.lock"):
            if not done.exists():
                got = _build_engine_site(shared / "engine-site", pyodide_dir, engine_cache)
                done.write_text(json.dumps({**got, "dir": str(got["dir"])}, ensure_ascii=False), encoding="utf-8")
        got = json.loads(done.read_text(encoding="utf-8"))
        return {**got, "dir": Path(got["dir"])}
    return _build_engine_site(tmp_path_factory.mktemp("engine-site"), pyodide_dir, engine_cache)


def _build_engine_site(base: Path, pyodide_dir: Path, engine_cache: Path) -> dict:
    from flamer_ref import corpus
    from flamer_ref.site import make_site

    base.mkdir(exist_ok=True)
    (base / "home").mkdir()
    out = base / "site"
    before = _tree_files(base)
    saved = {k: os.environ.get(k) for k in ("FLAMER_CACHE_DIR", "HOME", "XDG_CACHE_HOME")}
    os.environ.update(FLAMER_CACHE_DIR=str(engine_cache), HOME=str(base / "home"))
    os.environ.pop("XDG_CACHE_HOME", None)
    try:
        summary = make_site(corpus.load(), str(out), pyodide=str(pyodide_dir))
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    after = _tree_files(base)
    outside = sorted(p for p, t in after.items() if not p.startswith("site" + os.sep) and before.get(p) != t)
    return {"dir": out, "summary": summary, "outside": outside}


@pytest.fixture(scope="session")
def engine_server(engine_site):
    """engine_site served on 127.0.0.1 by the server of `flamer site --serve` (siteserve.make_server),
    with two things for tests: /no-engine/… is the site as if built without the engine (its
    assets/engine.js is not there), and `down` (a threading.Event) set makes it answer nothing but 503,
    as if it were gone. {"url" (with a trailing /), "server", "down"}."""
    import functools
    import threading

    from flamer_ref import siteserve

    server = siteserve.make_server(str(engine_site["dir"]), 0)
    down = threading.Event()
    base = server.RequestHandlerClass.func

    class Handler(base):
        def translate_path(self, path):
            if path.startswith("/no-engine/"):
                path = path[len("/no-engine"):]
                if path.split("?")[0] == "/assets/engine.js":
                    return os.path.join(self.directory, "does-not-exist")
            return super().translate_path(path)

        def send_head(self):
            if down.is_set():
                self.send_error(503)
                return None
            return super().send_head()

    server.RequestHandlerClass = functools.partial(Handler, directory=str(engine_site["dir"]))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield {"url": f"http://127.0.0.1:{server.server_address[1]}/", "server": server, "down": down}
    server.shutdown()
    server.server_close()


# ------------------------------------------------------------ the PDF book ----
@pytest.fixture(scope="session")
def pdf_book(tmp_path_factory):
    """`flamer book --format html` and `flamer book --format pdf` of the bundled data, made by the real
    command (a process of its own: tests/flamer_fork.py; stderr no terminal) ONCE per test session: the PDF takes 40–80 s on the
    2-core machine, so every test that reads the PDF (tests/publishing/test_pdf.py, tests/publishing/test_book.py) shares
    this one. {"html": text, "pdf": path, "html_path", "stderr": the PDF run's stderr, "html_stderr"}.
    Skipped, saying why, where the PDF engine, a Korean font or poppler-utils is missing."""
    import functools
    import shutil

    import flamer_fork
    from flamer_ref import pdf

    try:
        pdf.korean_font()
        pdf._load_weasyprint()
    except pdf.PdfError as exc:
        pytest.skip(f"PDF engine not usable here: {exc.message.splitlines()[0]}")
    missing = [t for t in ("pdftotext", "pdfinfo", "pdffonts", "pdftoppm") if not shutil.which(t)]
    if missing:
        pytest.skip(f"poppler-utils missing ({', '.join(missing)}): apt-get install poppler-utils")
    d = tmp_path_factory.mktemp("book")
    html_path, pdf_path = d / "rules.html", d / "rules.pdf"
    flamer = functools.partial(flamer_fork.run, timeout=900, env={"PYTHONIOENCODING": "utf-8"},
                               cwd=Path(__file__).resolve().parent.parent)

    h = flamer("book", "--format", "html", "-o", str(html_path))
    assert h.returncode == 0, h.stderr
    p = flamer("book", "--format", "pdf", "-o", str(pdf_path))
    assert p.returncode == 0, p.stderr
    return {"html": html_path.read_text(encoding="utf-8"), "html_path": html_path, "pdf": pdf_path,
            "stderr": p.stderr, "html_stderr": h.stderr}
