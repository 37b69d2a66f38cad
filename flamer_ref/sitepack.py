"""Packing the calculator's engine into the site (`flamer site DIR`, issue 16; named for what it does in
issue 29 — it packs, it is no engine): the project's own Python code, run in the browser by Pyodide, so
that the calculator page answers as `flamer fight` / `flamer simulate` do. The local web server of
`flamer site DIR --serve` is flamer_ref/siteserve.py.

What a site with the engine holds (docs: README «판정기»):

    engine/pyodide/            the pinned Pyodide files (PYODIDE_VERSION), copied from its npm package
    engine/flamer-<hash>.zip   flamer_ref (.py and templates), the pure-Python parts of its dependencies
                               (DEPENDENCIES) and the prebuilt data (searchindex.prebuilt: corpus, search
                               index, likeness model), so the browser parses no YAML and trains nothing
    engine/worker.js           the Web Worker running Pyodide (templates/site/assets/worker.js)
    assets/engine.js           the page's client, FlamerEngine (templates/site/assets/engine.js)

and with or without it: sw.js (the service worker: offline), manifest.webmanifest and the icons (made
here: PNG by zlib, and an SVG).

Pyodide itself comes from flamer_ref/pyodidefetch.py (a path given, FLAMER_PYODIDE, the user cache or the
npm registry; every file checked against its pinned SHA-256).

Heavy modules (zipfile, zlib, hashlib, subprocess) are imported inside the functions that need them:
only a build with the engine loads them.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from .errors import FlamerError, os_reason
from .pyodidefetch import OFF_WORDS, PYODIDE_VERSION, sha256_hex

#: the standard library in Pyodide's files (.py only: engine_files may ship a compiled copy instead)
STDLIB_ZIP = "python_stdlib.zip"
#: Pyodide's Python (pyodide-lock.json info.python 3.14.2): where the engine zip is unpacked
PYTHON_SITE = "/lib/python3.14/site-packages"
#: import names of the runtime dependencies whose .py files go into the engine zip (from their
#: installed distributions' file lists, so a wheel install works as a checkout does); `_yaml` (PyYAML's
#: C shim) stays out: yaml falls back to its pure-Python loader
DEPENDENCIES = ("yaml", "jinja2", "markupsafe", "rapidfuzz", "typer", "shellingham", "annotated_doc")
#: the longest the calculator lets one command run in the browser (assets/engine.js stops it, says what to
#: shorten, and the next input gets a fresh engine from the memory snapshot): FlamerEngine.timeLimitMs
ENGINE_TIME_LIMIT_MS = 10_000
#: the prebuilt data inside the zip (searchindex.prebuilt), read by flamer_ref.web
PREBUILT_NAME = "flamer_ref/_data/prebuilt.bin"
#: the templates compiled to Python modules (compiled_templates), read by flamer_ref.web
COMPILED_TEMPLATES = "flamer_ref/_data/jinja"
#: data files the engine reads at run time besides the prebuilt data (corpus.effects, example_board)
RUNTIME_DATA = ("cards/effects.yaml", "rules/boards/example.yaml")
ZIP_DATE = (1980, 1, 1, 0, 0, 0)
ICON_SIZES = (192, 512)
APP_NAME = "더 플래머 룰 레퍼런스"
APP_SHORT = "플래머"
#: the page the service worker answers with for a page it has not kept and cannot fetch (site.py writes it)
OFFLINE_PAGE = "offline.html"
THEME = "#262421"  # the site's header (templates/site/site.css.j2)
FLAME = "#e0a64a"
FLAME_CORE = "#f4f1e8"


# ------------------------------------------------------------ engine zip ----
def _package_files() -> dict[str, bytes]:
    """flamer_ref's .py files (from wherever it is imported: a checkout or a wheel)."""
    from .paths import PKG_DIR

    out = {}
    for path in sorted(PKG_DIR.rglob("*.py")):
        rel = path.relative_to(PKG_DIR).as_posix()
        if "__pycache__" in rel or rel.startswith("_data/"):
            continue
        out["flamer_ref/" + rel] = path.read_bytes()
    return out


def _template_files() -> dict[str, bytes]:
    """The templates (but the site's own, which the browser never renders)."""
    from .paths import templates_dir

    root = templates_dir()
    out = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if path.is_file() and not rel.startswith("site/") and "__pycache__" not in rel:
            out["flamer_ref/_data/templates/" + rel] = path.read_bytes()
    return out


def compiled_templates() -> dict[str, bytes]:
    """(Compiled once per process: the package's templates do not change while it runs.)"""
    if not _COMPILED:
        _COMPILED.update(_compile_templates())
    return dict(_COMPILED)


_COMPILED: dict[str, bytes] = {}


def _compile_templates() -> dict[str, bytes]:
    """Every Jinja template (but the site's and the book's) compiled to Python source by the very environment
    that renders them (render.environment: the same autoescape, filters and globals), named as
    jinja2.ModuleLoader looks them up. In the browser, web.setup points that environment at them: a
    first answer then skips Jinja's lexer and parser (about 1.5 s of the first HTML verdict in Pyodide)."""
    from jinja2 import ModuleLoader

    from .render import environment

    env = environment()
    out = {}
    # the book's templates (flamer book, faq --format html) stay as files: the calculator never uses them
    for name in env.list_templates(filter_func=lambda n: n.endswith(".j2") and not n.startswith(("site/", "book/"))):
        source = env.loader.get_source(env, name)[0]
        code = env.compile(source, name, name, raw=True, defer_init=True)
        out[f"{COMPILED_TEMPLATES}/{ModuleLoader.get_module_filename(name)}"] = code.encode("utf-8")
    return out


def dependency_files(names=DEPENDENCIES) -> dict[str, bytes]:
    """The .py files of the runtime dependencies, from their installed distributions' file lists
    (importlib.metadata): the same from a wheel install as from a checkout. Compiled parts (.so) stay
    out; each of these packages runs without them (rapidfuzz with RAPIDFUZZ_IMPLEMENTATION=python)."""
    import importlib.metadata as md

    owners = md.packages_distributions()
    out: dict[str, bytes] = {}
    for name in names:
        dists = owners.get(name)
        if not dists:
            raise FlamerError(f"판정기 엔진을 만들 수 없습니다: 파이썬 패키지 {name}가 설치되어 있지 않습니다.")
        dist = md.distribution(dists[0])
        for f in dist.files or ():
            rel = f.as_posix() if hasattr(f, "as_posix") else str(f)
            if not rel.endswith(".py") or not (rel.startswith(name + "/") or rel == name + ".py"):
                continue
            if "/__pycache__/" in rel or "/__pyinstaller/" in rel or "/tests/" in rel:
                continue
            out[rel] = Path(f.locate()).read_bytes()
    return out


def engine_zip(corpus) -> bytes:
    """The engine zip: flamer_ref, its templates, the data files the engine reads, the prebuilt data
    of the corpus's data tree, and the dependencies. Deterministic: entries sorted, a fixed date and
    mode, so the same code and data give the same bytes."""
    import io
    import zipfile

    from .searchindex import prebuilt
    from .paths import data_root

    entries = {**dependency_files(), **_package_files(), **_template_files(), **compiled_templates()}
    root = Path(corpus.root or data_root())
    for rel in RUNTIME_DATA:
        path = root / rel
        if path.is_file():
            entries["flamer_ref/_data/" + rel] = path.read_bytes()
    entries[PREBUILT_NAME] = prebuilt(corpus.root or None)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name in sorted(entries):
            info = zipfile.ZipInfo(name, ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            info.create_system = 3
            zf.writestr(info, entries[name], compresslevel=9)
    return buf.getvalue()


# -------------------------------------------------------------- bytecode ----
# Python compiles every module it imports. Pyodide's npm package carries its standard library as .py
# only, so a first visit compiled a hundred and more standard modules, then flamer_ref, jinja2, typer…
# in the phone's WebAssembly interpreter: most of the calculator's first start. When `node` is there,
# the build runs Pyodide itself under Node (the very files it ships: the same Python 3.14, the same
# bytecode magic) and
#   1. compiles every .py of the engine zip to a sourceless .pyc (unchecked-hash: nothing to stat);
#   2. installs that compiled engine and has it answer what the browser's engine answers first (the
#      worker's start, the snapshot's commands, every kind of scenario template, BYTECODE_RUN), which
#      also proves that the compiled engine runs in Pyodide;
#   3. compiles the standard library's modules those imported, into a copy of Pyodide's
#      python_stdlib.zip (the others stay .py: compiled in the browser if ever imported).
# Python (here) then writes both zips, each .pyc checked (check_pyc) to be Pyodide's bytecode of the
# very source it replaces. Without node (or with FLAMER_NODE=off) the site ships the .py as they are.

#: the bytecode magic of Pyodide's Python (3.14): every .pyc made is checked to carry it
PYC_MAGIC = bytes.fromhex("2b0e0d0a")
NODE_MIN_MAJOR = 18  # pyodide's package.json: engines.node >= 18
NODE_TIMEOUT = 600   # a hang guard; the whole run takes some 10 s on a small machine

# inside Pyodide, under Node (_PYC_MJS calls main)
_PYC_PY = r"""
import importlib._bootstrap_external as _be
import importlib.util
import json
import sys
import zipfile


# dst: a stored zip holding NAME.pyc for each NAME.py of the zip src (those in `only`, if given), each
# code object named as Pyodide names it when it compiles the source itself (prefix + NAME.py)
def compile_entries(src, dst, prefix, only=None):
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w", zipfile.ZIP_STORED) as zout:
        for info in zin.infolist():
            name = info.filename
            if name.endswith(".py") and (only is None or name in only):
                data = zin.read(info)
                code = compile(data, prefix + name, "exec", dont_inherit=True, optimize=0)
                zout.writestr(name + "c", bytes(_be._code_to_hash_pyc(code, importlib.util.source_hash(data), False)))


# the compiled engine answers what the browser's asks first (engine/worker.js: setup and warm; the
# snapshot's commands; then the calculator's): a command that does not give the exit status it must
# stops the compiling (the site then goes with .py, and the summary says why)
def exercise(commands):
    import flamer_ref.web as w

    w.setup()
    w.warm()
    w.prepare_snapshot()
    from flamer_ref.scenario_files import available_kinds, template_text

    for kind in available_kinds():
        for fmt in (["--json"], ["--format", "html"]):
            r = w.run(["simulate", "-", *fmt], template_text(kind))
            if r["code"] != 0:
                raise RuntimeError(f"simulate {kind} {fmt}: {r['stderr'][:300]}")
    for argv, code in commands:
        r = w.run(argv)
        if r["code"] != code:
            raise RuntimeError(f"{argv}: exit {r['code']}: {r['stderr'][:300]}")


def main(engine_in, engine_pyc, site, stdlib, stdlib_pyc, commands):
    compile_entries(engine_in, engine_pyc, site + "/")
    for z in (engine_in, engine_pyc):  # the engine as the browser unpacks it: data files and .pyc
        with zipfile.ZipFile(z) as zf:
            zf.extractall(site, [n for n in zf.namelist() if not n.endswith(".py")])
    exercise(json.loads(commands))
    used = {m.__file__[len(stdlib) + 1:] for m in list(sys.modules.values())
            if isinstance(getattr(m, "__file__", None), str) and m.__file__.startswith(stdlib + "/")}
    compile_entries(stdlib, stdlib_pyc, stdlib + "/", used)
"""

# the Node side: node compile.mjs PYODIDE_DIR WORK_DIR (WORK_DIR holds compile.py, engine.zip and
# commands.json; engine-pyc.zip and stdlib-pyc.zip are written there)
_PYC_MJS = r"""
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
const [dir, work] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(path.join(dir, "pyodide.mjs")).href);
const py = await loadPyodide({indexURL: dir + path.sep, stdout: () => {}, stderr: (s) => process.stderr.write(s + "\n"),
  env: {HOME: "/home/pyodide", PYTHONHASHSEED: "0", RAPIDFUZZ_IMPLEMENTATION: "python", FLAMER_CACHE_DIR: ""}});
const read = (n) => fs.readFileSync(path.join(work, n));
py.FS.writeFile("/tmp/engine.zip", new Uint8Array(read("engine.zip")));
py.runPython(read("compile.py").toString("utf8"));
const [site, stdlib] = py.runPython("import sys, site; [site.getsitepackages()[0], [p for p in sys.path if p.endswith('.zip')][0]]").toJs();
py.globals.get("main")("/tmp/engine.zip", "/tmp/engine-pyc.zip", site, stdlib, "/tmp/stdlib-pyc.zip",
                       read("commands.json").toString("utf8"));
fs.writeFileSync(path.join(work, "engine-pyc.zip"), py.FS.readFile("/tmp/engine-pyc.zip"));
fs.writeFileSync(path.join(work, "stdlib-pyc.zip"), py.FS.readFile("/tmp/stdlib-pyc.zip"));
"""

#: commands the compiled engine answers at build time besides those of _PYC_PY's exercise, with the exit
#: status each must give (what the calculator and the search box also meet)
BYTECODE_RUN = ((["fight", "거신 vs"], 1), (["fight", "거신 vs 별마대", "--format", "pdf"], 2),
                (["fight", "수문장 x2 vs 개미(lv1 hp2 atk1), 증폭기(정착 atk0)", "--format", "html"], 0),
                (["fight", "개미 vs 수문장", "--json"], 1),
                (["search", "정착한 애 한대 맞으면 바로 잡힘?", "--json", "-n", "15"], 0))


class NoBytecode(Exception):
    """The build cannot compile bytecode (no node, an old one, FLAMER_NODE=off, node failed): the .py
    go as they are. args[0]: the Korean reason."""


def find_node() -> tuple[str, str]:
    """(path, version) of the `node` to compile with: FLAMER_NODE (a path, or `off`), else `node` on
    PATH. NoBytecode when there is none fit to run Pyodide."""
    import shutil
    import subprocess

    env = os.environ.get("FLAMER_NODE")
    if env is not None and env.strip().lower() in OFF_WORDS:
        raise NoBytecode("FLAMER_NODE=off")
    node = os.path.expanduser(env.strip()) if env and env.strip() else shutil.which("node")
    if not node:
        raise NoBytecode("node가 없음")
    try:
        p = subprocess.run([node, "--version"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        raise NoBytecode(f"node를 실행할 수 없음: {node}") from None
    version = p.stdout.strip()
    try:
        major = int(version.lstrip("v").split(".")[0])
    except ValueError:
        major = 0
    if p.returncode != 0 or major < NODE_MIN_MAJOR:
        raise NoBytecode(f"node {version or '?'}가 너무 오래됨 ({NODE_MIN_MAJOR} 이상 필요)")
    return node, version


def check_pyc(pyc: bytes, source: bytes, name: str) -> None:
    """Raise NoBytecode unless pyc is bytecode of Pyodide's Python (PYC_MAGIC), unchecked-hash, made
    from this very source (the source hash in its header)."""
    import _imp

    if pyc[:8] != PYC_MAGIC + (1).to_bytes(4, "little") or \
            pyc[8:16] != _imp.source_hash(int.from_bytes(PYC_MAGIC, "little"), source):
        raise NoBytecode(f"{name}c가 {name}의 Pyodide 바이트코드가 아님")


def with_bytecode(source: bytes, compiled: bytes, *, every: bool) -> bytes:
    """The zip `source` with each NAME.py that `compiled` (a zip of NAME.pyc) holds replaced by its .pyc,
    checked (check_pyc); every other entry as it was, in the same order, with the same date and mode.
    `every`: each .py must have its .pyc. Deflated at level 9: the same input gives the same bytes."""
    import io
    import zipfile

    buf = io.BytesIO()
    try:
        with zipfile.ZipFile(io.BytesIO(source)) as a, zipfile.ZipFile(io.BytesIO(compiled)) as b, \
                zipfile.ZipFile(buf, "w") as out:
            pycs = {i.filename: i for i in b.infolist()}
            for info in a.infolist():
                name, data = info.filename, a.read(info)
                if name.endswith(".py") and name + "c" in pycs:
                    pyc = b.read(pycs.pop(name + "c"))
                    check_pyc(pyc, data, name)
                    name, data = name + "c", pyc
                elif every and name.endswith(".py"):
                    raise NoBytecode(f"{name}의 바이트코드가 없음")
                entry = zipfile.ZipInfo(name, info.date_time)
                entry.external_attr, entry.create_system = info.external_attr, info.create_system
                entry.compress_type = zipfile.ZIP_STORED if info.is_dir() else zipfile.ZIP_DEFLATED
                out.writestr(entry, data, compresslevel=9)
            if pycs:
                raise NoBytecode(f"원본에 없는 바이트코드가 있음: {sorted(pycs)[0]}")
    except (zipfile.BadZipFile, OSError, KeyError, ValueError, EOFError) as exc:
        raise NoBytecode(f"컴파일한 zip을 읽을 수 없음 ({exc.__class__.__name__})") from None
    return buf.getvalue()


class Bytecode:
    """Compiling the engine's Python in the background (see above): start() launches node on the engine
    zip; result() waits for it and gives (compiled engine zip, compiled standard library zip, node's
    version), or raises NoBytecode with the reason. close() ends node (if still running) and removes its
    temporary folder: use it as a context manager."""

    def __init__(self, pyodide: dict[str, bytes], engine: bytes):
        self.pyodide, self.engine = pyodide, engine
        self.proc = self.tmp = self.version = None
        self.failed: str | None = None

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def start(self) -> "Bytecode":
        import subprocess
        import tempfile

        try:
            node, self.version = find_node()
            self.tmp = Path(tempfile.mkdtemp(prefix="flamer-pyc-"))
            (self.tmp / "pyodide").mkdir()
            for name, data in self.pyodide.items():
                (self.tmp / "pyodide" / name).write_bytes(data)
            (self.tmp / "compile.mjs").write_text(_PYC_MJS, encoding="utf-8")
            (self.tmp / "compile.py").write_text(_PYC_PY, encoding="utf-8")
            (self.tmp / "commands.json").write_text(json.dumps(BYTECODE_RUN, ensure_ascii=False), encoding="utf-8")
            (self.tmp / "engine.zip").write_bytes(self.engine)
            with open(self.tmp / "node.err", "wb") as err:
                self.proc = subprocess.Popen([node, str(self.tmp / "compile.mjs"), str(self.tmp / "pyodide"), str(self.tmp)],
                                             stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err, cwd=self.tmp)
        except NoBytecode as exc:
            self.failed = exc.args[0]
        except OSError as exc:
            self.failed = f"node를 시작하지 못함 ({os_reason(exc)})"
        return self

    def result(self) -> tuple[bytes, bytes, str]:
        import subprocess

        if self.failed is not None or self.proc is None:
            raise NoBytecode(self.failed or "시작하지 않음")
        try:
            code = self.proc.wait(timeout=NODE_TIMEOUT)
        except subprocess.TimeoutExpired:
            raise NoBytecode(f"node가 {NODE_TIMEOUT}초 안에 끝나지 않음") from None
        if code != 0:
            err = (self.tmp / "node.err").read_bytes().decode("utf-8", "replace").strip().splitlines()
            last = next((ln.strip() for ln in reversed(err) if ln.strip() and not ln.startswith(" ")), "?")[:200]
            raise NoBytecode(f"Pyodide(node)에서 엔진을 컴파일하지 못함: {last}")
        try:
            engine_pyc, stdlib_pyc = ((self.tmp / n).read_bytes() for n in ("engine-pyc.zip", "stdlib-pyc.zip"))
        except OSError:
            raise NoBytecode("컴파일한 zip이 없음") from None
        return (with_bytecode(self.engine, engine_pyc, every=True),
                with_bytecode(self.pyodide[STDLIB_ZIP], stdlib_pyc, every=False), self.version)

    def close(self) -> None:
        import shutil

        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        if self.tmp is not None:
            shutil.rmtree(self.tmp, ignore_errors=True)
            self.tmp = None


# ----------------------------------------------------------- site files ----
def _asset(name: str) -> str:
    from .paths import templates_dir

    return (templates_dir() / "site" / "assets" / name).read_text(encoding="utf-8")


def _configured(name: str, config: dict) -> str:
    """A script of templates/site/assets with its CONFIG placeholder filled (JSON, < escaped)."""
    text = _asset(name)
    blob = json.dumps(config, ensure_ascii=False, sort_keys=True).replace("<", "\\u003c")
    assert "/*CONFIG*/{}" in text, name
    return text.replace("/*CONFIG*/{}", blob, 1)


class EngineBuild:
    """The engine's files of the site, built alongside the pages: creating it makes the engine zip and
    starts compiling it (Bytecode, in the background, when `bytecode`); files() gives the files
    (relative path → content) and what became of the bytecode ({"compiled", "node", "reason"}): with
    it, the engine zip carries .pyc instead of .py and the standard library goes as a compiled copy,
    engine/stdlib-<hash>.zip, in place of engine/pyodide/python_stdlib.zip. A context manager (close)."""

    def __init__(self, pyodide: dict[str, bytes], corpus, as_of: str | None, *, bytecode: bool = True):
        self.pyodide, self.as_of = pyodide, as_of
        self.blob = engine_zip(corpus)
        self.bytecode = Bytecode(pyodide, self.blob).start() if bytecode else None

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        if self.bytecode is not None:
            self.bytecode.close()

    def files(self) -> tuple[dict[str, bytes | str], dict]:
        pyodide, blob, stdlib = self.pyodide, self.blob, None
        report: dict = {"compiled": False, "node": None, "reason": "off"}
        if self.bytecode is not None:
            try:
                blob, stdlib, report["node"] = self.bytecode.result()
            except NoBytecode as exc:
                report["node"], report["reason"] = self.bytecode.version, exc.args[0]
            else:
                report["compiled"], report["reason"] = True, None
            finally:
                self.bytecode.close()
        zip_name = f"flamer-{sha256_hex(blob)[:16]}.zip"
        files: dict[str, bytes | str] = {f"engine/pyodide/{n}": d for n, d in sorted(pyodide.items())
                                         if not (stdlib is not None and n == STDLIB_ZIP)}
        files[f"engine/{zip_name}"] = blob
        config = {"pyodide": "pyodide/", "zip": zip_name, "site": PYTHON_SITE, "version": PYODIDE_VERSION}
        std_key = f"pyodide/{STDLIB_ZIP}"
        if stdlib is not None:
            config["stdlib"] = std_key = f"stdlib-{sha256_hex(stdlib)[:16]}.zip"
            files[f"engine/{std_key}"] = stdlib
        config["sizes"] = {"pyodide/pyodide.asm.wasm": len(pyodide["pyodide.asm.wasm"]),
                           std_key: len(stdlib if stdlib is not None else pyodide[STDLIB_ZIP]),
                           "pyodide/pyodide-lock.json": len(pyodide["pyodide-lock.json"]), zip_name: len(blob)}
        files["engine/worker.js"] = _configured("worker.js", config)
        files["assets/engine.js"] = _configured("engine.js", {
            "worker": "engine/worker.js", "version": PYODIDE_VERSION, "asOf": self.as_of,
            "timeLimitMs": ENGINE_TIME_LIMIT_MS})
        return files, report


def engine_files(pyodide: dict[str, bytes], corpus, as_of: str | None, *,
                 bytecode: bool = True) -> tuple[dict[str, bytes | str], dict]:
    """EngineBuild's files, built at once."""
    with EngineBuild(pyodide, corpus, as_of, bytecode=bytecode) as build:
        return build.files()


def engine_report(files: dict, included: bool, source: str | None, reason: str | None,
                  bytecode: dict | None = None) -> dict:
    """What the summary says of the engine: Pyodide's version, where it came from, the bytes the
    engine adds to the site (raw and gzip-compressed, as a server sending gzip would), and whether its
    Python went as bytecode (engine_files)."""
    if not included:
        return {"included": False, "version": PYODIDE_VERSION, "reason": reason}
    raw = gz = 0
    for rel, data in files.items():
        if rel.startswith("engine/") or rel == "assets/engine.js":
            b = data.encode("utf-8") if isinstance(data, str) else data
            raw += len(b)
            gz += gzip_size(b)
    return {"included": True, "version": PYODIDE_VERSION, "source": source, "bytes": raw, "gzip_bytes": gz,
            "bytecode": bytecode}


_GZIP_SIZES: dict[bytes, int] = {}


def gzip_size(data: bytes) -> int:
    """The bytes of `data` gzip-compressed at level 6, as a server sends it (gzip's 18 bytes of header and
    trailer around the deflate stream; before, zlib's own 6 were counted too). Kept per process by the
    content's SHA-256: Pyodide's 13 MB are the same in every build, and deflating them is most of a
    report (0.6 s of CPU)."""
    import gzip
    import hashlib

    key = hashlib.sha256(data).digest()
    size = _GZIP_SIZES.get(key)
    if size is None:
        size = _GZIP_SIZES[key] = len(gzip.compress(data, compresslevel=6, mtime=0))
    return size


def _content_hash(files: dict) -> str:
    import hashlib

    h = hashlib.sha256()
    for rel in sorted(files):
        data = files[rel]
        b = data.encode("utf-8") if isinstance(data, str) else data
        h.update(len(rel.encode()).to_bytes(4, "little") + rel.encode() + len(b).to_bytes(8, "little"))
        h.update(b)
    return h.hexdigest()[:16]


def pwa_files(files: dict, calculator: str | None) -> dict[str, bytes | str]:
    """sw.js, manifest.webmanifest, the icons and assets/pwa.js (which registers the service worker
    from a page served over http(s)). The service worker's cache is named after the content hash of
    every other file of the site, so any change gives a new cache and the old one is dropped."""
    from urllib.parse import quote

    out: dict[str, bytes | str] = {"assets/icon.svg": icon_svg(), "assets/pwa.js": _asset("pwa.js")}
    for n in ICON_SIZES:
        out[f"assets/icon-{n}.png"] = icon_png(n)
    start = quote(calculator) if calculator else "index.html"
    out["manifest.webmanifest"] = json.dumps({
        "id": start, "name": APP_NAME, "short_name": APP_SHORT, "lang": "ko", "dir": "ltr",
        "description": "더 플래머 규칙 찾기와 전투 판정기 — 설치 없이, 오프라인에서도.",
        "start_url": start, "scope": "./", "display": "standalone", "orientation": "portrait",
        "background_color": "#fbf8ef", "theme_color": THEME,
        # the PNGs are full bleed with the flame inside the middle 80 %: maskable as they are
        "icons": [*({"src": f"assets/icon-{n}.png", "sizes": f"{n}x{n}", "type": "image/png", "purpose": purpose}
                    for purpose in ("any", "maskable") for n in ICON_SIZES),
                  {"src": "assets/icon.svg", "sizes": "any", "type": "image/svg+xml", "purpose": "any"}],
        "shortcuts": [{"name": "판정기", "url": start}, {"name": "규칙 검색", "url": "index.html"}],
    }, ensure_ascii=False, indent=1) + "\n"
    everything = {**files, **out}
    # the whole site, so that after one visit every page opens offline (issue 26): pages, assets, the
    # search index, the engine, the manifest and the offline page (sw.js itself is the browser's to keep)
    precache = sorted(quote(p) for p in everything if p != "sw.js")
    out["sw.js"] = _configured("sw.js", {"version": _content_hash(everything), "precache": precache,
                                         "offline": OFFLINE_PAGE})
    return out


# ------------------------------------------------------------------ icons ----
def _flame_rows(n: int):
    """Per pixel row of an n×n icon: the spans (start, end, colour) painted over the background, with
    fractional ends (anti-aliased sideways). The flame is a teardrop leaning right, with a light core."""
    import math

    def drop(v, tip, cy, r, lean):
        if v < tip or v > cy + r:
            return None
        if v >= cy:
            hw = math.sqrt(max(r * r - (v - cy) ** 2, 0.0))
            cx = 0.5
        else:
            t = (v - tip) / (cy - tip)
            hw = r * math.sin(t * math.pi / 2) ** 1.35
            cx = 0.5 + lean * (1 - t) ** 2
        return cx - hw, cx + hw

    for y in range(n):
        v = (y + 0.5) / n
        spans = []
        for shape, colour in (((0.12, 0.62, 0.25, 0.07), FLAME), ((0.42, 0.71, 0.12, 0.04), FLAME_CORE)):
            s = drop(v, *shape)
            if s:
                spans.append((s[0] * n, s[1] * n, colour))
        yield spans


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    return tuple(int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))  # type: ignore[return-value]


def icon_png(n: int) -> bytes:
    """An n×n PNG icon (RGB, no external asset): the flame on the site's dark square (full bleed, so
    it also serves as a maskable icon)."""
    import struct
    import zlib

    import math

    bg = bytes(_rgb(THEME))
    raw = bytearray()
    for spans in _flame_rows(n):
        row = bytearray(bg * n)
        for a, b, colour in spans:
            c = bytes(_rgb(colour))
            lo, hi = max(math.ceil(a), 0), min(math.floor(b), n)
            if hi > lo:  # pixels the shape covers whole
                row[3 * lo:3 * hi] = c * (hi - lo)
            for x in {math.floor(a), math.floor(b)}:  # the two edge pixels, blended by the part covered
                if 0 <= x < n:
                    cover = max(0.0, min(b, x + 1) - max(a, x))
                    if 0 < cover < 1:
                        row[3 * x:3 * x + 3] = bytes(round(row[3 * x + k] * (1 - cover) + c[k] * cover) for k in range(3))
        raw.append(0)
        raw += row

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", n, n, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(bytes(raw), 9)) + chunk(b"IEND", b""))


def icon_svg() -> str:
    """The same icon as SVG: the flame's outline traced from the shapes of _flame_rows."""
    n = 96
    rows = list(_flame_rows(n))

    def outline(k: int) -> str:
        left, right = [], []
        for y, spans in enumerate(rows):
            if len(spans) > k:
                a, b, _ = spans[k]
                left.append((a, y + 0.5))
                right.append((b, y + 0.5))
        pts = left + right[::-1]
        return "M" + " L".join(f"{x:.1f} {y:.1f}" for x, y in pts) + " Z"

    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {n} {n}" width="{n}" height="{n}">'
            f'<title>{APP_NAME}</title><rect width="{n}" height="{n}" rx="14" fill="{THEME}"/>'
            f'<path d="{outline(0)}" fill="{FLAME}"/><path d="{outline(1)}" fill="{FLAME_CORE}"/></svg>\n')
