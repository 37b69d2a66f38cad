/* The site's engine (engine/worker.js, written by `flamer site`): a module Web Worker that runs the
 * project's own Python package in Pyodide, loaded from engine/pyodide/ beside this file — never from
 * a CDN — and answers the page's commands exactly as `flamer <argv>` would (flamer_ref/web.py).
 *
 * Protocol (client: assets/engine.js):
 *   to the worker:   {id, argv: [...], stdin?: string}
 *   from the worker: {type: "progress", phase: "download"|"start"|"unpack"|"import", loaded, total}
 *                    {type: "ready", ms}
 *                    {type: "failed", message}              (Korean)
 *                    {type: "started", id}                  (the command begins: the page's clock for
 *                                                            its time limit starts; engine.js)
 *                    {type: "result", id, code, stdout, stderr, ms}
 * The page sends one command at a time; to stop one (a time limit, a newer input) it terminates this
 * worker and starts another, which restores the memory snapshot below.
 * Download progress counts the bytes of the engine's fetches as they stream in (a clone of each
 * response is read alongside, so Pyodide still gets the real response: WebAssembly streaming
 * compilation and the browser's code cache keep working). */
const CONFIG = /*CONFIG*/{};
const here = new URL(".", import.meta.url);
const t0 = performance.now();
const queue = [];
let web = null;
// when each step of the start ended (ms since this worker began; reported with "ready" for the benchmark)
const marks = {};
function mark(name) { marks[name] = Math.round(performance.now()); }

function post(msg) { self.postMessage(msg); }

// ----------------------------------------------------------------- progress ----
const expected = CONFIG.sizes || {};
const total = Object.keys(expected).reduce((n, k) => n + expected[k], 0);
const got = {};
let loaded = 0;
let phase = "download";
function progress(p, done, all) { phase = p; post({type: "progress", phase: p, loaded: done, total: all}); }
function countBytes(url, res) {
  const key = Object.keys(expected).find((k) => url.endsWith(k));
  if (!key || !res.ok || !res.body) return;
  const reader = res.clone().body.getReader();
  (function pump() {
    reader.read().then(({done, value}) => {
      if (done) {
        if (phase === "download" && loaded >= total) progress("start", 0, 0);
        return;
      }
      got[key] = (got[key] || 0) + value.byteLength;
      loaded += value.byteLength;
      if (phase === "download") progress("download", Math.min(loaded, total), total);
      pump();
    }, () => {});
  })();
}
const realFetch = self.fetch.bind(self);
self.fetch = function (input, init) {
  return realFetch(input, init).then((res) => {
    try { countBytes(typeof input === "string" ? input : input.url, res); } catch (e) { /* progress only */ }
    return res;
  });
};

// ----------------------------------------------------------------- snapshot ----
// After the first start, the interpreter's memory (Python started, flamer_ref imported, its data
// loaded, templates compiled) is kept in the browser's Cache Storage as a Pyodide memory snapshot, so
// a later visit restores it instead of starting Python again (seconds on a phone). It is named after
// the engine zip and Pyodide's version: a new build or Pyodide never restores an old one. Any failure
// falls back to a normal start.
const SNAP_CACHE = "flamer-engine-snapshot " + new URL("..", here).href;
const SNAP_KEY = new URL("snapshot-" + CONFIG.zip.replace(/\.zip$/, "") + (CONFIG.stdlib ? "-" + CONFIG.stdlib.replace(/\.zip$/, "") : "")
                         + "-" + CONFIG.version + ".bin", here).href;
let needBytes = 0;   // the memory a snapshot needs, grown right after the module is instantiated
for (const name of ["instantiate", "instantiateStreaming"]) {
  const original = WebAssembly[name];
  WebAssembly[name] = async function (...args) {
    const out = await original.apply(this, args);
    const inst = out.instance || out;
    const mem = inst && inst.exports && inst.exports.memory;
    if (needBytes && mem && needBytes > mem.buffer.byteLength) mem.grow(Math.ceil((needBytes - mem.buffer.byteLength) / 65536));
    return out;
  };
}
async function readSnapshot() {
  try {
    if (!self.caches) return null;
    const res = await (await caches.open(SNAP_CACHE)).match(SNAP_KEY);
    return res ? new Uint8Array(await res.arrayBuffer()) : null;
  } catch (e) { return null; }
}
async function dropSnapshots(keep) {
  try {
    const cache = await caches.open(SNAP_CACHE);
    for (const req of await cache.keys()) if (req.url !== keep) await cache.delete(req);
  } catch (e) { /* nothing kept */ }
}
let snapshotDone = false;
function snapshotLater(pyodide) {
  if (snapshotDone || !self.caches) return;
  setTimeout(async () => {
    if (snapshotDone) return;
    if (queue.length || busy) { snapshotLater(pyodide); return; }
    snapshotDone = true;
    try {
      pyodide.runPython("_w.prepare_snapshot()");
      const snap = pyodide.makeMemorySnapshot();
      const cache = await caches.open(SNAP_CACHE);
      await cache.put(SNAP_KEY, new Response(snap, {headers: {"Content-Type": "application/octet-stream"}}));
      await dropSnapshots(SNAP_KEY);
    } catch (e) { /* no snapshot: the next visit starts Python again */ }
  }, 1500);
}

// ------------------------------------------------------------------- unzip ----
// The engine zip's files as [{name, data: Uint8Array}] (stored or deflated entries; directories left out),
// read from its central directory; the inflating runs in the browser's own code, off Python's way.
async function unzipEntries(buf) {
  if (typeof DecompressionStream !== "function") return null;
  const u8 = new Uint8Array(buf), dv = new DataView(buf);
  let end = -1;
  for (let i = u8.length - 22; i >= Math.max(0, u8.length - 22 - 65535); i--) {
    if (dv.getUint32(i, true) === 0x06054b50) { end = i; break; }
  }
  if (end < 0) return null;
  const count = dv.getUint16(end + 10, true), names = new TextDecoder();
  let p = dv.getUint32(end + 16, true);
  const out = [];
  for (let k = 0; k < count; k++) {
    if (dv.getUint32(p, true) !== 0x02014b50) return null;
    const method = dv.getUint16(p + 10, true), size = dv.getUint32(p + 20, true), local = dv.getUint32(p + 42, true);
    const nameLen = dv.getUint16(p + 28, true);
    const name = names.decode(u8.subarray(p + 46, p + 46 + nameLen));
    p += 46 + nameLen + dv.getUint16(p + 30, true) + dv.getUint16(p + 32, true);
    if (name.endsWith("/")) continue;
    if (name.startsWith("/") || name.split("/").includes("..") || dv.getUint32(local, true) !== 0x04034b50) return null;
    const start = local + 30 + dv.getUint16(local + 26, true) + dv.getUint16(local + 28, true);
    const raw = u8.subarray(start, start + size);
    if (method === 0) out.push({name, data: Promise.resolve(raw)});
    else if (method === 8) out.push({name, data: new Response(new Blob([raw]).stream()
      .pipeThrough(new DecompressionStream("deflate-raw"))).arrayBuffer().then((b) => new Uint8Array(b))});
    else return null;
  }
  return Promise.all(out.map(async (f) => ({name: f.name, data: await f.data})));
}

// ------------------------------------------------------------------- start ----
let py = null;
let busy = false;
const ENV = {RAPIDFUZZ_IMPLEMENTATION: "python", FLAMER_CACHE_DIR: "", HOME: "/home/pyodide"};
async function boot() {
  progress("download", 0, total);
  const zipUrl = new URL(CONFIG.zip, here).href;
  const zip = fetch(zipUrl).then((res) => {
    if (!res.ok) throw new Error("HTTP " + res.status + " " + CONFIG.zip);
    return res.arrayBuffer();
  });
  zip.then(() => mark("zip"), () => {});
  // unzipped by the browser (natively, while Python starts) rather than by Python after it has started;
  // null (no DecompressionStream, an entry it cannot read): Pyodide's unpackArchive does it below
  const unzipped = zip.then(unzipEntries).catch(() => null);
  const [snap, mod] = await Promise.all([readSnapshot(), import(new URL(CONFIG.pyodide + "pyodide.mjs", here).href)]);
  mark("module");
  const options = {indexURL: new URL(CONFIG.pyodide, here).href, env: ENV, stdout: () => {}, stderr: () => {}};
  // the standard library compiled to bytecode at build time (flamer_ref/sitepack.py), when the build could
  if (CONFIG.stdlib) options.stdLibURL = new URL(CONFIG.stdlib, here).href;
  let restored = false;
  if (snap) {
    try {
      needBytes = snap.length;
      py = await mod.loadPyodide({...options, _loadSnapshot: snap});
      restored = true;
    } catch (e) {
      needBytes = 0;
      await dropSnapshots(null);
    }
  }
  if (!py) py = await mod.loadPyodide({...options, _makeSnapshot: !!self.caches});
  mark("python");
  progress("unpack", 0, 1);
  const files = await unzipped;
  if (files) {
    for (const f of files) {
      const path = CONFIG.site + "/" + f.name;
      py.FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
      py.FS.writeFile(path, f.data);
    }
  } else {
    py.unpackArchive(await zip, "zip", {extractDir: CONFIG.site});
  }
  mark("unpack");
  progress("import", 0, 1);
  py.runPython(restored ? "import flamer_ref.web as _w" : "import flamer_ref.web as _w; _w.setup(); _w.warm()");
  mark("import");
  web = true;
  post({type: "ready", ms: Math.round(performance.now() - t0), restored: restored, marks: marks,
        origin: performance.timeOrigin});
  while (queue.length) answer(queue.shift());
  if (!restored) snapshotLater(py);
}

function answer(msg) {
  const t = performance.now();
  let out;
  busy = true;
  post({type: "started", id: msg.id});
  try {
    py.globals.set("_req", JSON.stringify({argv: msg.argv || [], stdin: msg.stdin == null ? null : String(msg.stdin)}));
    out = JSON.parse(py.runPython("_w.run_json(_req)"));
  } catch (e) {
    out = {code: 1, stdout: "", stderr: "판정기 엔진 내부 오류: " + (e && e.message ? e.message : String(e)) + "\n"};
  } finally {
    busy = false;
  }
  post({type: "result", id: msg.id, code: out.code, stdout: out.stdout, stderr: out.stderr,
        ms: Math.round(performance.now() - t)});
}

self.onmessage = (ev) => {
  const msg = ev.data || {};
  if (web) answer(msg); else queue.push(msg);
};

boot().catch((e) => {
  const why = e && e.message ? e.message : String(e);
  post({type: "failed", message: "판정기 엔진을 불러오지 못했습니다 (" + why.split("\n")[0].slice(0, 200) + ")."});
});
