"""The engine in the site (issue 16, flamer_ref/sitepack.py and flamer_ref/web.py): how `flamer site`
obtains the pinned Pyodide (integrity, safe extraction, the cache, building without it), the engine zip
(deterministic, everything the browser needs, and — unpacked and run by CPython without libyaml, C
speedups or a cache — the CLI's answers byte for byte), web.run against the real command line, the
service worker, manifest and icons, and one real browser: headless Chromium over the DevTools pipe
(tests/web/test_browser.py) on the built site served from 127.0.0.1 — the engine gets ready, answers a
fight as the CLI does, re-ranks the search box to `flamer search`'s top 3, and, with the network cut
after the first visit, still answers from the service worker's cache.

Pyodide comes from FLAMER_TEST_PYODIDE (a folder or the npm .tgz), the user cache, or the npm registry
(once per run; then cached); without any, the tests that need it skip, saying why."""

from __future__ import annotations

import functools
import io
import json
import os
import socket
import subprocess
import sys
import tarfile
import threading
import time
import zipfile
from pathlib import Path

import flamer_fork
import pytest
import yaml

from flamer_ref import pyodidefetch, sitepack
from flamer_ref import web

pytestmark = pytest.mark.xdist_group("engine-site")  # with test_calculator.py: one build, one browser (conftest.py)

ROOT = Path(__file__).resolve().parents[2]
PAGE = "%ED%8C%90%EC%A0%95%EA%B8%B0.html"  # 판정기.html
FIGHT = "거신 vs 별마대, 행성굴착기(정착)"
SCENARIO = (ROOT / "scenarios" / "combat-scene5.yaml").read_text(encoding="utf-8")
BROKEN_YAML = "종류: 전투\n셀: [\n"  # an unclosed list: libyaml and PyYAML word it differently


#: the real command line, as a user runs it (a process of its own: tests/flamer_fork.py), output as bytes
UTF8 = {"PYTHONIOENCODING": "utf-8"}
cli = functools.partial(flamer_fork.run, cwd=ROOT, timeout=300, text=False, env=UTF8)


@functools.lru_cache(maxsize=1)
def all_questions() -> tuple[str, ...]:
    """The questions of tests/search/search_questions.yaml (libyaml's reader where there is one: PyYAML's own
    took 0.7 s a read)."""
    text = (ROOT / "tests" / "search" / "search_questions.yaml").read_text(encoding="utf-8")
    return tuple(q["q"] for q in yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))["questions"])  # noqa: S506


def questions(n: int) -> list[str]:
    """n questions of tests/search/search_questions.yaml spread over the whole file."""
    qs = all_questions()
    return list(qs[:: max(1, len(qs) // n)][:n])


# ------------------------------------------------------------- fixtures ----
# pyodide_dir, engine_cache, engine_site (the site with its engine, built once a session), engine_server
# and chromium are tests/conftest.py's, shared with tests/web/test_calculator.py
@pytest.fixture(scope="session")
def cache(engine_cache) -> Path:
    return engine_cache


# --------------------------------------------------------- obtaining it ----
def _tgz(members: list[tuple[tarfile.TarInfo, bytes | None]]) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz", compresslevel=1) as tar:  # (the level changes nothing checked)
        for info, data in members:
            tar.addfile(info, io.BytesIO(data) if data is not None else None)
    return buf.getvalue()


def _file(name: str, data: bytes) -> tuple[tarfile.TarInfo, bytes]:
    info = tarfile.TarInfo(name)
    info.size = len(data)
    return info, data


def test_a_tampered_tarball_is_refused_before_anything_is_written(tmp_path):
    """--pyodide with an npm tarball that is not the pinned one (its sha512 differs): exit 1, one Korean
    message naming the integrity check, and the site folder is not even made."""
    from inprocess import invoke

    bad = tmp_path / "pyodide-314.0.8.tgz"
    bad.write_bytes(_tgz([_file(f"package/{n}", b"not pyodide") for n in pyodidefetch.PYODIDE_FILES]))
    with pytest.raises(pyodidefetch._Refused, match="무결성"):
        pyodidefetch.check_integrity(bad.read_bytes())
    res = invoke("site", str(tmp_path / "out"), "--pyodide", str(bad))
    assert res.exit_code == 1, res.output
    assert "무결성" in res.output and "--pyodide" in res.output and "Traceback" not in res.output
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("member", ["symlink", "hardlink", "climbing", "absolute", "device"])
def test_a_tarball_with_a_link_or_a_path_out_is_refused_whole(tmp_path, member):
    """Reading the needed files out of a tarball never follows a link nor takes a name of its own making:
    a member that is a link or device, or whose name is absolute or climbs out, refuses the tarball (even
    when every needed file is there and right), and nothing is written anywhere."""
    good = [_file(f"package/{n}", b"x") for n in pyodidefetch.PYODIDE_FILES]
    info = tarfile.TarInfo({"climbing": "package/../../evil.js", "absolute": "/tmp/evil.js"}.get(member, "package/extra"))
    if member == "symlink":
        info.type, info.linkname = tarfile.SYMTYPE, "/etc/passwd"
    elif member == "hardlink":
        info.type, info.linkname = tarfile.LNKTYPE, "package/pyodide.mjs"
    elif member == "device":
        info.type = tarfile.CHRTYPE
    data = b"evil" if member in ("climbing", "absolute") else None
    if data is not None:
        info.size = len(data)
    blob = _tgz([(info, data), *good])
    os.chdir(tmp_path)
    try:
        with pytest.raises(pyodidefetch._Refused, match="압축 파일에"):
            pyodidefetch.files_from_tarball(blob)
    finally:
        os.chdir(ROOT)
    assert list(tmp_path.iterdir()) == [] and not Path("/tmp/evil.js").exists()


def test_a_tarball_with_the_right_names_but_other_bytes_is_refused():
    """Every file taken is checked against its pinned SHA-256, whatever the source."""
    blob = _tgz([_file(f"package/{n}", b"x") for n in pyodidefetch.PYODIDE_FILES])
    with pytest.raises(pyodidefetch._Refused, match="내용이 다릅니다"):
        pyodidefetch.files_from_tarball(blob)


def test_a_folder_source_is_checked_file_by_file(pyodide_dir, tmp_path):
    """A folder given with --pyodide (or its package/ or node_modules/pyodide/) is the pinned Pyodide only
    when every file is: a changed file, or a symbolic link in place of one, is a Korean BadInput."""
    nested = tmp_path / "node_modules" / "pyodide"
    nested.mkdir(parents=True)
    for n in pyodidefetch.PYODIDE_FILES:
        (nested / n).write_bytes((pyodide_dir / n).read_bytes())
    assert set(pyodidefetch.from_path(str(tmp_path), "--pyodide")) == set(pyodidefetch.PYODIDE_FILES)
    (nested / "pyodide-lock.json").write_bytes(b"{}")
    with pytest.raises(pyodidefetch.BadInput, match="pyodide-lock.json"):
        pyodidefetch.from_path(str(tmp_path), "--pyodide")
    (nested / "pyodide-lock.json").unlink()
    (nested / "pyodide-lock.json").symlink_to(pyodide_dir / "pyodide-lock.json")
    with pytest.raises(pyodidefetch.BadInput):
        pyodidefetch.from_path(str(nested), "--pyodide")


def test_download_checks_integrity_and_keeps_the_files_in_the_cache(pyodide_dir, tmp_path, monkeypatch):
    """The registry path, against a local registry (npm_config_registry): a tarball that is not the pinned
    one is refused (the site is then built without the engine); nothing is cached."""
    import functools
    import http.server

    (tmp_path / "reg" / "pyodide" / "-").mkdir(parents=True)
    (tmp_path / "reg" / "pyodide" / "-" / f"pyodide-{pyodidefetch.PYODIDE_VERSION}.tgz").write_bytes(
        _tgz([_file(f"package/{n}", (pyodide_dir / n).read_bytes()) for n in pyodidefetch.PYODIDE_FILES]))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(
        type("Q", (http.server.SimpleHTTPRequestHandler,), {"log_message": lambda *a: None}), directory=str(tmp_path / "reg")))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        monkeypatch.setenv("npm_config_registry", f"http://127.0.0.1:{server.server_address[1]}/")
        monkeypatch.setenv("FLAMER_CACHE_DIR", str(tmp_path / "cache"))
        monkeypatch.delenv("FLAMER_PYODIDE", raising=False)
        assert pyodidefetch.registry_url().startswith("http://127.0.0.1:")
        with pytest.raises(pyodidefetch.EngineUnavailable, match="무결성"):  # the same files, but not npm's tarball
            pyodidefetch.obtain_pyodide()
        assert not (tmp_path / "cache" / f"pyodide-{pyodidefetch.PYODIDE_VERSION}").exists()
        # what the registry path keeps, the cache path gives back (checked file by file)
        assert pyodidefetch.store_in_cache({n: (pyodide_dir / n).read_bytes() for n in pyodidefetch.PYODIDE_FILES})
        files, source = pyodidefetch.obtain_pyodide()
        assert source == "cache" and set(files) == set(pyodidefetch.PYODIDE_FILES)
    finally:
        server.shutdown()
        server.server_close()


def test_without_pyodide_the_site_is_built_without_the_engine_and_says_so(tree, tmp_path):
    """No --pyodide, no FLAMER_PYODIDE, an empty cache and a registry that does not answer: the site is
    still built (exit 0), without engine/ and assets/engine.js, and stderr carries one Korean line saying
    what to do (--pyodide or the network); the JSON summary says why."""
    out = tmp_path / "site"
    env = {**UTF8, "FLAMER_PYODIDE": "", "FLAMER_DATA": str(tree.root), "FLAMER_CACHE_DIR": str(tmp_path / "cache"),
           "npm_config_registry": f"http://127.0.0.1:{_closed_port()}/"}
    p = cli("site", str(out), "--json", env=env)
    assert p.returncode == 0, p.stderr.decode()
    err = p.stderr.decode("utf-8").strip().splitlines()
    assert len(err) == 1 and "판정기 엔진 없이 만들었습니다" in err[0] and "--pyodide" in err[0] and "네트워크" in err[0], err
    summary = json.loads(p.stdout)
    assert summary["engine"]["included"] is False and summary["engine"]["reason"]
    assert not (out / "engine").exists() and not (out / "assets" / "engine.js").exists()
    assert (out / "sw.js").is_file() and (out / "manifest.webmanifest").is_file()  # reading offline still works
    # --no-engine: on purpose, and silently
    p = cli("site", str(out), "--no-engine", env=env)
    assert p.returncode == 0 and p.stderr == b"", p.stderr.decode()
    assert "넣지 않음" in p.stdout.decode("utf-8")


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_site_options_usage_errors():
    from inprocess import invoke

    for args, hint in ((["site", "x", "8080"], "--serve"), (["site", "x", "--serve", "http"], "포트"),
                       (["site", "x", "--no-engine", "--pyodide", "p"], "함께")):
        res = invoke(*args)
        assert res.exit_code == 2 and hint in res.output, res.output


# ------------------------------------------------------------ the build ----
def test_the_build_writes_nothing_outside_its_folder(engine_site):
    assert engine_site["summary"]["engine"]["included"], engine_site["summary"]
    assert engine_site["outside"] == []


@pytest.fixture(scope="module")
def source_zip(cache, tmp_path_factory) -> bytes:
    """The engine zip with its .py (sitepack.engine_zip: what the bytecode is compiled from), built again
    in another process with another hash seed."""
    path = tmp_path_factory.mktemp("source-zip") / "engine.zip"
    again = subprocess.run([sys.executable, "-c", "import sys; from flamer_ref import sitepack, corpus; "
                            "open(sys.argv[1], 'wb').write(sitepack.engine_zip(corpus.load()))", str(path)],
                           capture_output=True, text=True, cwd=ROOT, timeout=300,
                           env={**os.environ, "PYTHONHASHSEED": "12345", "FLAMER_CACHE_DIR": str(cache)})
    assert again.returncode == 0, again.stderr
    return path.read_bytes()


def _pyc_only(blob: bytes) -> bytes:
    """A zip of the .pyc entries of blob (what the build's node step hands back)."""
    buf = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(blob)) as zin, zipfile.ZipFile(buf, "w") as zout:
        for n in zin.namelist():
            if n.endswith(".pyc"):
                zout.writestr(n, zin.read(n))
    return buf.getvalue()


def test_the_engine_zip_is_deterministic_and_holds_what_the_page_needs(engine_site, source_zip):
    """The zip's name is its content hash; the source zip built again in another process (another hash
    seed) gives the same bytes — with the bytecode put in (sitepack.with_bytecode, which checks each
    .pyc against its source), the very zip shipped; entries are sorted with a fixed date; no compiled
    extension is inside, and with bytecode every .py is a .pyc."""
    out = engine_site["dir"]
    (zpath,) = (out / "engine").glob("flamer-*.zip")
    blob = zpath.read_bytes()
    assert zpath.name == f"flamer-{pyodidefetch.sha256_hex(blob)[:16]}.zip"
    compiled = engine_site["summary"]["engine"]["bytecode"]["compiled"]
    assert blob == (sitepack.with_bytecode(source_zip, _pyc_only(blob), every=True) if compiled else source_zip)
    with zipfile.ZipFile(io.BytesIO(blob)) as zf:
        infos = zf.infolist()
    names = [i.filename for i in infos]
    assert names == sorted(names) and {i.date_time for i in infos} == {sitepack.ZIP_DATE}
    assert not [n for n in names if n.endswith((".so", ".pyd"))]
    assert not [n for n in names if n.endswith(".py" if compiled else ".pyc")]
    for need in ("flamer_ref/web.py", "flamer_ref/engine/api.py", sitepack.PREBUILT_NAME, "yaml/__init__.py",
                 "jinja2/__init__.py", "markupsafe/_native.py", "rapidfuzz/fuzz_py.py", "typer/main.py",
                 "shellingham/__init__.py", "annotated_doc/__init__.py", "flamer_ref/_data/cards/effects.yaml",
                 "flamer_ref/_data/rules/boards/example.yaml", "flamer_ref/_data/templates/simulate/combat.html.j2"):
        assert (need + "c" if compiled and need.endswith(".py") else need) in names, need
    assert any(n.startswith(sitepack.COMPILED_TEMPLATES + "/tmpl_") for n in names)
    assert not any(n.startswith(("_yaml/", "flamer_ref/_data/templates/site/")) for n in names)


def test_with_node_the_engine_goes_as_pyodides_bytecode(engine_site, pyodide_dir):
    """With node (18 or later) the build runs the pinned Pyodide under Node to compile the engine and the
    standard library's modules it imports: the engine zip carries .pyc (above), and the standard library
    goes as engine/stdlib-<hash>.zip — Pyodide's python_stdlib.zip with those modules as .pyc of its
    Python (magic, unchecked hash, the hash of the very source), everything else as it was — which the
    worker loads instead (its CONFIG.stdlib); the summary says so. The browser tests below run it."""
    try:
        sitepack.find_node()
    except sitepack.NoBytecode as exc:
        pytest.skip(f"no node here to compile with: {exc.args[0]}")
    report = engine_site["summary"]["engine"]["bytecode"]
    assert report["compiled"] and report["node"].startswith("v") and report["reason"] is None, report
    out = engine_site["dir"]
    (std,) = (out / "engine").glob("stdlib-*.zip")
    assert std.name == f"stdlib-{pyodidefetch.sha256_hex(std.read_bytes())[:16]}.zip"
    assert not (out / "engine" / "pyodide" / sitepack.STDLIB_ZIP).exists()
    pinned = (pyodide_dir / sitepack.STDLIB_ZIP).read_bytes()
    assert std.read_bytes() == sitepack.with_bytecode(pinned, _pyc_only(std.read_bytes()), every=False)
    with zipfile.ZipFile(std) as zf:
        pycs = [n for n in zf.namelist() if n.endswith(".pyc")]
    assert {"asyncio/__init__.pyc", "json/decoder.pyc", "zipfile/__init__.pyc"} <= set(pycs) and 80 < len(pycs) < 400
    config = json.loads((out / "engine" / "worker.js").read_text(encoding="utf-8").split("const CONFIG = ", 1)[1].split(";\n", 1)[0])
    assert config["stdlib"] == std.name and std.name in config["sizes"]
    from flamer_ref.render import render

    assert f"바이트코드로 미리 컴파일함(node {report['node']})" in render("site/summary.txt.j2", data=engine_site["summary"])


def test_a_pyc_that_is_not_its_sources_is_refused():
    """check_pyc: bytecode of another Python (magic), a timestamp-based .pyc, or one made from other source
    bytes is refused, so a build never ships bytecode that does not match the code it replaces."""
    import _imp

    src = b"x = 1\n"
    good = sitepack.PYC_MAGIC + (1).to_bytes(4, "little") + _imp.source_hash(int.from_bytes(sitepack.PYC_MAGIC, "little"), src) + b"code"
    sitepack.check_pyc(good, src, "m.py")
    for bad in (b"\x00\x00\r\n" + good[4:], good[:4] + (0).to_bytes(4, "little") + good[8:], good[:8] + b"\x00" * 8 + good[16:]):
        with pytest.raises(sitepack.NoBytecode, match="m.pyc"):
            sitepack.check_pyc(bad, src, "m.py")
    with pytest.raises(sitepack.NoBytecode, match="m.pyc"):
        sitepack.check_pyc(good, b"x = 2\n", "m.py")
    # with_bytecode: a .pyc with no .py beside it, or a .py left without its .pyc where every one must have it
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("m.py", src)
        z.writestr("d.txt", b"data")
    only = io.BytesIO()
    with zipfile.ZipFile(only, "w") as z:
        z.writestr("other.pyc", good)
    with pytest.raises(sitepack.NoBytecode, match="other.pyc"):
        sitepack.with_bytecode(buf.getvalue(), only.getvalue(), every=False)
    with pytest.raises(sitepack.NoBytecode, match="m.py"):
        sitepack.with_bytecode(buf.getvalue(), _pyc_only(buf.getvalue()), every=True)
    ok = io.BytesIO()
    with zipfile.ZipFile(ok, "w") as z:
        z.writestr("m.pyc", good)
    with zipfile.ZipFile(io.BytesIO(sitepack.with_bytecode(buf.getvalue(), ok.getvalue(), every=True))) as z:
        assert z.namelist() == ["m.pyc", "d.txt"] and z.read("m.pyc") == good and z.read("d.txt") == b"data"


def test_without_node_the_engine_goes_as_py_and_the_summary_says_why(pyodide_dir, source_zip, tmp_path, monkeypatch):
    """No node (FLAMER_NODE=off, a node too old, one that fails while compiling): the build goes on with
    the .py as they are and Pyodide's own python_stdlib.zip, and the summary says why, in Korean."""
    from flamer_ref import corpus
    from flamer_ref.render import render

    files = {n: (pyodide_dir / n).read_bytes() for n in pyodidefetch.PYODIDE_FILES}
    old = tmp_path / "old-node"
    old.write_text("#!/bin/sh\necho v16.20.0\n", encoding="utf-8")
    broken = tmp_path / "broken-node"
    broken.write_text('#!/bin/sh\n[ "$1" = --version ] && { echo v20.1.0; exit 0; }\necho "Error: boom" >&2\nexit 3\n',
                      encoding="utf-8")
    for p in (old, broken):
        p.chmod(0o755)
    blob = source_zip
    for node, why in (("off", "FLAMER_NODE=off"), (str(old), "너무 오래됨"), (str(broken), "boom"),
                      (str(tmp_path / "none"), "실행할 수 없음")):
        monkeypatch.setenv("FLAMER_NODE", node)
        with sitepack.Bytecode(files, blob) as job:
            with pytest.raises(sitepack.NoBytecode, match=why):
                job.start().result()
            tmp = job.tmp
        assert tmp is None or not tmp.exists()  # its temporary folder is gone
    monkeypatch.setenv("FLAMER_NODE", "off")
    part, report = sitepack.engine_files(files, corpus.load(), None)
    assert report == {"compiled": False, "node": None, "reason": "FLAMER_NODE=off"}
    assert f"engine/pyodide/{sitepack.STDLIB_ZIP}" in part and not [p for p in part if "stdlib-" in p]
    (name,) = [p for p in part if p.startswith("engine/flamer-")]
    assert part[name] == blob
    text = render("site/summary.txt.j2", data={"dir": "s", "as_of": "2026-09-25", "pages": 1, "removed": [],
                                               "counts": {k: 0 for k in ("rules_pages", "card_pages", "example_pages", "engine_pages",
                                                                         "clauses", "interpretations", "rulings", "rulings_later", "faq", "examples", "cards", "terms")},
                                               "engine": sitepack.engine_report(part, True, "option", None, report)})
    assert ".py 그대로(FLAMER_NODE=off)" in text


def test_the_summary_reports_the_engine(engine_site):
    s = engine_site["summary"]["engine"]
    out = engine_site["dir"]
    raw = sum(p.stat().st_size for p in (out / "engine").rglob("*") if p.is_file()) + (out / "assets" / "engine.js").stat().st_size
    assert s["version"] == pyodidefetch.PYODIDE_VERSION and s["source"] == "option" and s["bytes"] == raw
    assert 0 < s["gzip_bytes"] < raw < 20 * 1024 * 1024
    from flamer_ref.render import render

    text = render("site/summary.txt.j2", data=engine_site["summary"])
    assert f"판정기 엔진: Pyodide {pyodidefetch.PYODIDE_VERSION}(--pyodide에서)" in text and "--serve" in text


def test_manifest_icons_and_service_worker(engine_site):
    """Installable: a manifest (the calculator as start page, standalone, PNG icons of 192 and 512 px and
    an SVG, all made by the build), linked from every page with the script that registers sw.js; the
    service worker precaches the engine, the calculator, index and assets under the build's hash."""
    from test_browser import png_size

    out = engine_site["dir"]
    m = json.loads((out / "manifest.webmanifest").read_text(encoding="utf-8"))
    assert (m["name"], m["short_name"], m["display"], m["start_url"]) == ("더 플래머 룰 레퍼런스", "플래머", "standalone", PAGE)
    for icon in m["icons"]:
        assert (out / icon["src"]).is_file()
        if icon["type"] == "image/png":
            n = int(icon["sizes"].split("x")[0])
            assert png_size((out / icon["src"]).read_bytes()) == (n, n)
    assert {i["sizes"] for i in m["icons"]} == {"192x192", "512x512", "any"}
    for page in [*out.glob("*.html"), *out.glob("rules/*.html"), *out.glob("cards/*.html")]:
        html = page.read_text(encoding="utf-8")
        assert 'manifest.webmanifest"' in html and 'assets/pwa.js"' in html, page
    sw = (out / "sw.js").read_text(encoding="utf-8")
    config = json.loads(sw.split("var CONFIG = ", 1)[1].split(";\n", 1)[0])
    pre = set(config["precache"])
    assert {PAGE, "index.html", "assets/engine.js", "engine/worker.js", "engine/pyodide/pyodide.asm.wasm",
            "search-index.js"} <= pre
    assert any(p.startswith("engine/flamer-") for p in pre) and all((out / _unquote(p)).is_file() for p in pre)
    assert len(config["version"]) == 16


def _unquote(p: str) -> str:
    from urllib.parse import unquote

    return unquote(p)


# -------------------------------------------------------- CLI's answers ----
PARITY = [
    (["fight", FIGHT, "--json"], None),
    (["fight", FIGHT, "--format", "html"], None),
    (["simulate", "-", "--json"], SCENARIO),
    (["search", "정착한 애 한대 맞으면 바로 잡힘?", "--json", "-n", "15"], None),
    (["fight", "개미 vs 수문장", "--json"], None),                 # unknown stats: exit 1, error object
    (["fight", "거신 vs"], None),                                   # bad line: exit 1, Korean on stderr
    (["simulate", "-"], BROKEN_YAML),                               # a YAML mistake: the same Korean
    (["fight", FIGHT, "--format", "pdf"], None),                    # usage error: exit 2
    (["search", "--bogus"], None),
]


@pytest.fixture(scope="module")
def cli_answers():
    """The command line's answers (one process each, a few at a time)."""
    from concurrent.futures import ThreadPoolExecutor

    def one(case):
        p = cli(*case[0], input=case[1])
        return {"code": p.returncode, "stdout": p.stdout.decode("utf-8"), "stderr": p.stderr.decode("utf-8")}

    with ThreadPoolExecutor(4) as pool:
        return list(pool.map(one, PARITY))


def test_web_run_answers_as_the_command_line(cli_answers):
    codes = set()
    for (argv, stdin), want in zip(PARITY, cli_answers):
        got = web.run(argv, stdin)
        assert got == want, (argv, got["stderr"], want["stderr"])
        codes.add(got["code"])
    assert codes == {0, 1, 2}


def test_the_unpacked_engine_answers_as_the_command_line(source_zip, cli_answers, tmp_path):
    """The engine zip (as its .py: the bytecode is Pyodide's Python's, not this one's; the shipped zip is
    this one with it, as tested above) unpacked and run by CPython as Pyodide will run it: only its own
    files on the path (PyYAML without libyaml, MarkupSafe without its C speedups, rapidfuzz's Python
    implementation), no cache folder, the prebuilt data and the compiled templates: every answer is the
    CLI's, byte for byte."""
    with zipfile.ZipFile(io.BytesIO(source_zip)) as zf:
        zf.extractall(tmp_path / "site-packages")
    code = ("import json, sys, yaml, markupsafe, rapidfuzz.fuzz as f\n"
            "from flamer_ref import web, corpus, yamlio\n"
            "assert not yaml.__with_libyaml__ and yamlio._Base is yamlio._PureBase\n"
            "assert f.ratio.__module__.endswith('_py'), f.ratio.__module__\n"
            "assert markupsafe.__file__.startswith(sys.path[0]) and not hasattr(markupsafe, '_speedups')\n"
            "assert web.setup() and corpus._PREBUILT\n"
            "sys.stdout.write(json.dumps([web.run(a, s) for a, s in json.load(sys.stdin)]))\n")
    p = subprocess.run([sys.executable, "-S", "-c", f"import sys; sys.path.insert(0, {str(tmp_path / 'site-packages')!r}); " + code],
                       input=json.dumps(PARITY), capture_output=True, text=True, cwd=tmp_path, timeout=300,
                       env={"PATH": os.environ.get("PATH", ""), "RAPIDFUZZ_IMPLEMENTATION": "python",
                            "FLAMER_CACHE_DIR": "", "HOME": str(tmp_path), "PYTHONIOENCODING": "utf-8"})
    assert p.returncode == 0, p.stderr[-3000:]
    for (argv, _), got, want in zip(PARITY, json.loads(p.stdout), cli_answers):
        assert got == want, (argv, got["stderr"], want["stderr"])


def test_the_search_fast_path_gives_the_commands_stdout(monkeypatch):
    """What the search box sends (search Q --json -n 15) answered from the library equals the whole
    command path, for a sample of the everyday questions; any other shape goes the whole way."""
    qs = questions(60)
    fast = [web.search_fast(["search", q, "--json", "-n", "15"]) for q in qs]
    monkeypatch.setattr(web, "search_fast", lambda argv: None)
    slow = [web.run(["search", q, "--json", "-n", "15"]) for q in qs]
    assert fast == slow
    monkeypatch.undo()
    assert web.search_fast(["search", qs[0], "--json", "--kind", "faq"]) is None
    assert web.search_fast(["search", "x" * 600, "--json"]) is None  # too long: the command's own error
    assert web.search_fast(["search", qs[0]]) is None


def test_search_answers_the_same_whatever_the_hash_seed():
    """`flamer search` gave one of two answers for '스텍 칸마다 따로임?' depending on the process's string
    hashing (PYTHONHASHSEED 1: 스텝 → 단계 first; 3: 스텟 → 능력치): a set's order chose between equally
    close everyday words. The browser's engine and the command line could then disagree."""
    outs = {cli("search", "스텍 칸마다 따로임?", "--json", env={**UTF8, "PYTHONHASHSEED": seed}).stdout for seed in ("1", "3")}
    assert len(outs) == 1


def test_the_browsers_fuzzy_scores_are_rapidfuzzs_own():
    """flamer_ref.fastfuzz (what the search scores with where rapidfuzz runs as pure Python: the browser)
    gives rapidfuzz.fuzz_py's scores exactly, value and type, at every cut-off the search uses; and the
    search's pre-filter (_reachable) keeps every word that reaches the cut-off."""
    import random

    from rapidfuzz import fuzz, fuzz_py

    from flamer_ref import fastfuzz, searchwords
    from flamer_ref.searchindex import load_index

    table = load_index()["jamo"]
    keys = table["keys"]
    rnd = random.Random(16)

    def typo(word):
        w = list(word)
        for _ in range(rnd.randint(0, 2)):
            if w:
                w[rnd.randrange(len(w))] = rnd.choice("ㄱㄴㄷㅇㅏㅓㅗㅜ")
        return "".join(w)

    pairs = [(typo(rnd.choice(keys)), rnd.choice(keys)) for _ in range(3000)] + [(k[1:5], k) for k in keys[::40]]
    pairs += [("", "ㄱ"), ("", ""), ("ㄱㅏ", "ㄱㅏ"), ("ㄱㅏ", "ㅏㄱ")]
    for a, b in pairs:
        for cut in (None, 68, 80, 85):
            for slow, fast in ((fuzz_py.partial_ratio, fastfuzz.partial_ratio), (fuzz_py.ratio, fastfuzz.ratio)):
                x, y = slow(a, b, score_cutoff=cut), fast(a, b, score_cutoff=cut)
                assert (x, type(x)) == (y, type(y)), (slow.__name__, a, b, cut, x, y)
    for token in {typo(rnd.choice(keys)) for _ in range(40)}:
        kept = set(searchwords.reachable(token, table, 0, len(keys), 68.0))
        for scorer in (fuzz.ratio, fuzz.partial_ratio):
            reach = {i for i, k in enumerate(keys) if scorer(token, k, score_cutoff=68.0) >= 68.0}
            assert reach <= kept, (token, scorer.__name__, sorted(reach - kept)[:5])
        assert len(kept) < len(keys)  # it does leave words out


def test_the_search_with_pure_python_rapidfuzz_is_the_commands(tmp_path):
    """The browser's rapidfuzz is its Python implementation; the command line's is compiled: a sample of
    the everyday questions gets the same report from both, scores and all."""
    from flamer_ref.searchindex import load_index
    from flamer_ref.search import search_report

    qs = questions(60)
    code = ("import json, sys; from flamer_ref.searchindex import load_index; from flamer_ref.search import search_report;"
            "import rapidfuzz.fuzz as f; assert f.ratio.__module__.endswith('_py');"
            "idx = load_index(); sys.stdout.write(json.dumps([search_report(idx, q, limit=15) for q in json.load(sys.stdin)]))")
    p = subprocess.run([sys.executable, "-c", code], input=json.dumps(qs), capture_output=True, text=True, cwd=ROOT,
                       timeout=300, env={**os.environ, "RAPIDFUZZ_IMPLEMENTATION": "python"})
    assert p.returncode == 0, p.stderr[-2000:]
    idx = load_index()
    assert json.loads(p.stdout) == [search_report(idx, q, limit=15) for q in qs]


YAML_MISTAKES = [
    BROKEN_YAML, "a: [1, 2\n", "a: {b: 1\n", "a: b: c\n", "a:\n  b: 1\n c: 2\n", "- a\nb: 1\n", "a: *x\n",
    'a: "\\q"\n', "a: 'x\n", "a: @x\n", "a: &x 1\nb: &x 2\n", "a:\n  - 1\n  b: 2\n", "a: 1\n- b\n",
    "a: [b, c]]\n", "a: }\n", "a: - b\n", "a:\n  - b\n - c\n", "a: b\n  c: d\n",
    "종류: 전투\n셀: {1,1: [수문장, }\n", "kind: combat\ncells:\n  '1,1':\n    DGM: [{id: a, card: 수문장}\n",
]


def test_yaml_mistakes_read_the_same_with_libyaml_and_without():
    """The browser has no libyaml: the pure-Python loader (yamlio._PureBase) must find the same mistakes
    on the same lines and word them in the same Korean as the C loader the command line uses."""
    from flamer_ref import yamlio

    if not hasattr(yaml, "CSafeLoader"):
        pytest.skip("this PyYAML has no libyaml")

    def problem(text, loader):
        try:
            yaml.load(text, Loader=loader)  # noqa: S506 - safe loaders
        except yaml.YAMLError as exc:
            p = yamlio._yaml_problem("f.yaml", exc)
            return p.line, p.message
        return None

    for text in YAML_MISTAKES:
        c, pure = problem(text, yaml.CSafeLoader), problem(text, yamlio._PureBase)
        assert c is not None and c == pure, (text, c, pure)
        assert "파서:" not in c[1], c  # worded in Korean, not the parser's English
    # tabs between tokens, which libyaml takes and PyYAML's own scanner refused
    for text in ("셀:\n  - {id:\tgk, card: 수문장}\n", "state\t: settled\n", "a: [1, 2]\t\nb: 3\n"):
        assert yaml.load(text, Loader=yamlio._PureBase) == yaml.load(text, Loader=yaml.CSafeLoader)  # noqa: S506


# ------------------------------------------------------------ --serve ----
def test_serve_opens_the_site_on_localhost(tree, tmp_path):
    """`flamer site DIR --serve PORT`: the address (Korean line) on stdout, the site served on 127.0.0.1
    with the types a module worker and WebAssembly need, and a plain kill ends it cleanly."""
    import signal
    import urllib.request

    port = _closed_port()
    env = {**os.environ, "FLAMER_DATA": str(tree.root), "FLAMER_PYODIDE": "off", "PYTHONIOENCODING": "utf-8",
           "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "flamer_ref", "site", str(tmp_path / "s"), "--serve", str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, env=env)
    try:
        line = b""
        deadline = time.monotonic() + 120
        while b"127.0.0.1" not in line and time.monotonic() < deadline:
            line = proc.stdout.readline()
            assert line or proc.poll() is None, proc.stderr.read().decode()
        text = line.decode("utf-8")
        assert f"http://127.0.0.1:{port}/{PAGE}" in text and "엽니다" in text, text
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/manifest.webmanifest", timeout=30) as res:
            assert res.headers["Content-Type"] == "application/manifest+json"
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/assets/pwa.js", timeout=30) as res:
            assert res.headers["Content-Type"].startswith("text/javascript")
    finally:
        proc.send_signal(signal.SIGTERM)
        rest, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err.decode()
    assert "끝냈습니다" in rest.decode("utf-8")


# ------------------------------------------------------------ the browser ----
@pytest.fixture
def served(engine_server):
    return engine_server


@pytest.fixture
def browser(chromium):
    return chromium


def js(browser, expression: str, timeout: float = 240):
    res = browser.call("Runtime.evaluate", session=True, expression=expression, awaitPromise=True,
                       returnByValue=True, timeout=timeout)
    if "exceptionDetails" in res:
        raise AssertionError(res["exceptionDetails"])
    return res["result"].get("value")


START = """(async () => {
  if (!window.FlamerEngine) await new Promise((ok, no) => { const s = document.createElement('script');
    s.src = 'assets/engine.js'; s.onload = ok; s.onerror = no; document.head.appendChild(s); });
  const phases = new Set();
  await FlamerEngine.start(p => phases.add(p.phase));
  return {ready: FlamerEngine.ready, restored: FlamerEngine.restored, phases: [...phases]};
})()"""


def run_in_page(browser, argv) -> dict:
    return js(browser, f"FlamerEngine.run({json.dumps(argv, ensure_ascii=False)})")


def open_page(browser, url: str) -> None:
    browser.events.clear()
    browser.call("Page.navigate", session=True, url=url)
    browser.wait_event("Page.loadEventFired", timeout=120)


def test_in_the_browser_the_engine_answers_as_the_cli_and_offline(browser, served, cli_answers):
    """One visit: the engine gets ready (download, unpack, import), a fight's JSON and HTML are the CLI's,
    the search box re-ranks to `flamer search`'s top 3 (a sample of the everyday questions, and one typed
    into the box); then, with the server gone and the network cut, a reload answers again from the
    service worker's cache."""
    open_page(browser, served["url"] + "index.html")
    state = js(browser, START)
    assert state["ready"] and {"download", "unpack", "import"} <= set(state["phases"]), state
    for i in (0, 1, 2, 4, 6):  # fight --json and --format html, simulate - --json, missing stats, a YAML mistake
        argv, stdin = PARITY[i]
        got = js(browser, f"FlamerEngine.run({json.dumps(argv, ensure_ascii=False)}, {json.dumps(stdin, ensure_ascii=False)})")
        assert {k: got[k] for k in ("code", "stdout", "stderr")} == cli_answers[i], argv

    # the search box: the engine's ranking, the same top 3 as the command line's
    sample = questions(60)
    want = [[r["id"] for r in json.loads(web.run(["search", q, "--json", "-n", "15"])["stdout"])["results"][:3]] for q in sample]
    got = js(browser, f"""(async () => {{ const out = [];
      for (const q of {json.dumps(sample, ensure_ascii=False)}) {{
        const r = await FlamerEngine.run(['search', q, '--json', '-n', '15']);
        out.push(JSON.parse(r.stdout).results.slice(0, 3).map(x => x.id)); }}
      return out; }})()""")
    assert got == want
    typed = sample[5]
    js(browser, f"(() => {{ const i = document.getElementById('q'); i.focus(); i.value = {json.dumps(typed, ensure_ascii=False)};"
                " i.dispatchEvent(new Event('input')); })()")
    top = js(browser, """new Promise(ok => { const t0 = Date.now(); (function poll() {
        const l = document.getElementById('results');
        if (l.getAttribute('data-source') === 'engine' || Date.now() - t0 > 30000)
          ok({source: l.getAttribute('data-source'), ids: [...l.children].slice(0, 3).map(li => li.getAttribute('data-id'))});
        else setTimeout(poll, 50); })(); })""")
    assert top == {"source": "engine", "ids": want[5]}

    # offline: wait for the service worker to control the page (and for the engine's snapshot), read a
    # rules page once, then take the server away, cut the network, and come back
    assert js(browser, """(async () => { await navigator.serviceWorker.ready;
        for (let i = 0; i < 300 && !navigator.serviceWorker.controller; i++) await new Promise(r => setTimeout(r, 100));
        return !!navigator.serviceWorker.controller; })()""")
    snapshot = js(browser, """(async () => { for (let i = 0; i < 300; i++) {
        const names = await caches.keys();
        const snap = names.find(n => n.startsWith('flamer-engine-snapshot'));
        if (snap && (await (await caches.open(snap)).keys()).length) return true;
        await new Promise(r => setTimeout(r, 100)); } return false; })()""")
    open_page(browser, served["url"] + "rules/combat.html")
    title = js(browser, "document.title")
    served["down"].set()  # the server answers nothing any more (503), as if it were gone
    browser.call("Network.enable", session=True)
    browser.call("Network.emulateNetworkConditions", session=True, offline=True, latency=0, downloadThroughput=-1,
                 uploadThroughput=-1)
    try:
        open_page(browser, served["url"] + "rules/combat.html")  # read once: kept as it was visited
        assert js(browser, "document.title") == title
        open_page(browser, served["url"] + "index.html")
        state = js(browser, START)
        assert state["ready"] and state["restored"] == snapshot, state
        got = run_in_page(browser, PARITY[0][0])
        assert {k: got[k] for k in ("code", "stdout", "stderr")} == cli_answers[0]
    finally:
        browser.call("Network.emulateNetworkConditions", session=True, offline=False, latency=0,
                     downloadThroughput=-1, uploadThroughput=-1)
        served["down"].clear()


def test_gzip_size_is_what_a_server_sends_and_kept_by_content():
    import gzip
    import zlib

    from flamer_ref.sitepack import _GZIP_SIZES, gzip_size

    data = "판정기 엔진 ".encode() * 5000 + bytes(range(256))
    assert gzip_size(data) == len(gzip.compress(data, 6)) == len(zlib.compress(data, 6)) - 6 + 18
    kept = dict(_GZIP_SIZES)
    assert gzip_size(bytes(data)) == gzip_size(data) and _GZIP_SIZES == kept  # the same bytes: no new entry
    gzip_size(data + b"!")
    assert len(_GZIP_SIZES) == len(kept) + 1  # other bytes: measured, not taken from the kept ones
