/* FlamerEngine (assets/engine.js, written by `flamer site` when the site carries the engine): the
 * page's client of engine/worker.js, which runs the project's own Python package in the browser.
 *
 *   FlamerEngine.start(onProgress?)  → Promise<void>: starts the worker once (idempotent); every
 *                                      caller's onProgress gets {phase, loaded, total}
 *   FlamerEngine.run(argv, stdin?)   → Promise<{code, stdout, stderr, ms}>: `flamer <argv>`'s answer
 *                                      (starts the engine if needed)
 *   FlamerEngine.ready               → true once the engine answers
 *   FlamerEngine.version, .asOf      → Pyodide's version; the site's --as-of date (null: the latest)
 *   FlamerEngine.starting            → start()'s promise once started (null before)
 *   FlamerEngine.readyMs, .restored  → how long the start took; whether it came from the snapshot kept
 *                                      by an earlier visit (engine/worker.js)
 *   FlamerEngine.timings             → when each step of the start ended, in ms on this page's clock
 *                                      (worker, zip, module, python, unpack, import)
 *
 * A failure to start (a page opened from file://, a missing file, an old browser) rejects with a
 * Korean message; run() calls waiting for it are rejected with the same message. */
var FlamerEngine = window.FlamerEngine || (function () {   // loaded twice: the first one stays
  "use strict";
  var CONFIG = /*CONFIG*/{};
  var script = document.currentScript && document.currentScript.src;
  var root = new URL("..", script || window.location.href);   // this file is assets/engine.js
  var worker = null, starting = null, nextId = 1, failure = null;
  var pending = {}, listeners = [];
  var api = {ready: false, version: CONFIG.version, asOf: CONFIG.asOf || null, readyMs: null, restored: false, timings: {},
             starting: null, start: start, run: run};

  function fail(message) {
    failure = message;
    Object.keys(pending).forEach(function (id) { pending[id].reject(new Error(message)); delete pending[id]; });
  }

  function start(onProgress) {
    if (typeof onProgress === "function") listeners.push(onProgress);
    if (starting) return starting;
    starting = new Promise(function (resolve, reject) {
      if (window.location.protocol === "file:") {
        fail("판정기 엔진은 웹 서버로 연 사이트에서만 돕니다 (지금은 파일로 열었음). flamer site 폴더 --serve 로 열거나 사이트를 웹에 올리세요.");
        reject(new Error(failure));
        return;
      }
      try {
        api.timings.worker = Math.round(performance.now());
        worker = new Worker(new URL(CONFIG.worker, root), {type: "module"});
      } catch (e) {
        fail("이 브라우저에서는 판정기 엔진을 시작할 수 없습니다 (" + (e && e.message ? e.message : e) + ").");
        reject(new Error(failure));
        return;
      }
      worker.onmessage = function (ev) {
        var m = ev.data || {};
        if (m.type === "progress") {
          listeners.forEach(function (f) { try { f({phase: m.phase, loaded: m.loaded, total: m.total}); } catch (e) { /* a listener's error */ } });
        } else if (m.type === "ready") {
          api.ready = true;
          api.readyMs = m.ms;
          api.restored = !!m.restored;
          // the worker's steps on this page's clock (ms since navigation): for benchmarks/calculator_bench.py
          Object.keys(m.marks || {}).forEach(function (k) {
            api.timings[k] = Math.round(m.marks[k] + (m.origin || performance.timeOrigin) - performance.timeOrigin);
          });
          resolve();
        } else if (m.type === "failed") {
          fail(m.message);
          reject(new Error(m.message));
        } else if (m.type === "result" && pending[m.id]) {
          pending[m.id].resolve({code: m.code, stdout: m.stdout, stderr: m.stderr, ms: m.ms});
          delete pending[m.id];
        }
      };
      worker.onerror = function (ev) {
        if (ev && ev.preventDefault) ev.preventDefault();
        var msg = "판정기 엔진 파일(engine/worker.js)을 불러오지 못했습니다" + (ev && ev.message ? " (" + ev.message + ")" : "") + ".";
        fail(msg);
        reject(new Error(msg));
      };
    });
    starting.catch(function () { /* reported to whoever awaits start() or run() */ });
    api.starting = starting;
    return starting;
  }

  function run(argv, stdin) {
    start();
    if (failure) return Promise.reject(new Error(failure));
    return new Promise(function (resolve, reject) {
      var id = nextId++;
      pending[id] = {resolve: resolve, reject: reject};
      var msg = {id: id, argv: (argv || []).map(String)};
      if (stdin != null) msg.stdin = String(stdin);
      worker.postMessage(msg);
    });
  }

  return api;
})();
