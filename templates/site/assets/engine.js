/* FlamerEngine (assets/engine.js, written by `flamer site` when the site carries the engine): the
 * page's client of engine/worker.js, which runs the project's own Python package in the browser.
 *
 *   FlamerEngine.start(onProgress?)  → Promise<void>: starts the worker once (idempotent); every
 *                                      caller's onProgress gets {phase, loaded, total}
 *   FlamerEngine.run(argv, stdin?)   → Promise<{code, stdout, stderr, ms}>: `flamer <argv>`'s answer
 *                                      (starts the engine if needed). The promise has cancel(graceMs?):
 *                                      a run still waiting is dropped; the run the engine is busy with
 *                                      is stopped after graceMs (default 0) unless it ends first.
 *                                      Either way the promise rejects with an Error whose `reason` is
 *                                      "cancelled". A run longer than timeLimitMs is stopped the same
 *                                      way and rejects with reason "timeout" (and `limitMs`).
 *   FlamerEngine.timeLimitMs         → the longest run (CONFIG.timeLimitMs, 10 s: sitepack.py's
 *                                      ENGINE_TIME_LIMIT_MS); a page or a test may set it
 *   FlamerEngine.restarts            → how many times a run was stopped (the worker replaced)
 *   FlamerEngine.restart             → the last replacement: {ms (from the stop to the new worker's
 *                                      ready), restored (from the memory snapshot)}, null before one
 *   FlamerEngine.busy                → true while the worker runs a command (begun, not answered)
 *   FlamerEngine.ready               → true once the engine answers
 *   FlamerEngine.version, .asOf      → Pyodide's version; the site's --as-of date (null: the latest)
 *   FlamerEngine.starting            → start()'s promise once started (null before)
 *   FlamerEngine.readyMs, .restored  → how long the start took; whether it came from the snapshot kept
 *                                      by an earlier visit (engine/worker.js)
 *   FlamerEngine.timings             → when each step of the start ended, in ms on this page's clock
 *                                      (worker, zip, module, python, unpack, import)
 *
 * Python in a worker cannot be interrupted from outside (that needs SharedArrayBuffer, which a static
 * host does not enable), so stopping a run terminates the worker and starts a new one; the new one
 * restores the memory snapshot the first start left in the browser's cache (engine/worker.js), which
 * takes a fraction of a cold start. Runs are sent to the worker one at a time, so the one it is busy
 * with is always known; runs given meanwhile wait here, and go to the new worker after a restart.
 *
 * A failure to start (a page opened from file://, a missing file, an old browser) rejects with a
 * Korean message; run() calls waiting for it are rejected with the same message. */
var FlamerEngine = window.FlamerEngine || (function () {   // loaded twice: the first one stays
  "use strict";
  var CONFIG = /*CONFIG*/{};
  var script = document.currentScript && document.currentScript.src;
  var root = new URL("..", script || window.location.href);   // this file is assets/engine.js
  var worker = null, starting = null, nextId = 1, failure = null;
  var live = false;        // the current worker said "ready"
  var waiting = [];        // runs not yet sent: {id, msg, resolve, reject}
  var current = null;      // the run the worker is busy with (sent, not answered)
  var listeners = [];
  var stoppedAt = null;    // when the last run was stopped (the worker replaced)
  var api = {ready: false, version: CONFIG.version, asOf: CONFIG.asOf || null, readyMs: null, restored: false, timings: {},
             timeLimitMs: CONFIG.timeLimitMs || 10000, restarts: 0, restart: null, busy: false, starting: null, start: start, run: run};

  function fail(message) {
    failure = message;
    var all = waiting.concat(current ? [current] : []);
    waiting = [];
    if (current) clearTimeout(current.timer);
    current = null;
    api.busy = false;
    all.forEach(function (job) { job.reject(new Error(message)); });
  }
  function stopped(reason, limitMs) {
    var e = new Error(reason === "timeout" ? "time limit" : "cancelled");
    e.reason = reason;
    if (limitMs) e.limitMs = limitMs;
    return e;
  }

  // the next waiting run to the worker, once it is ready and idle
  function pump() {
    if (!live || current || failure || !waiting.length) return;
    current = waiting.shift();
    current.limitMs = api.timeLimitMs;
    worker.postMessage(current.msg);
  }
  // the worker began the run (it may have been busy with its own start-up work before): the clock starts
  function began(job) {
    job.began = performance.now();
    api.busy = true;
    job.timer = setTimeout(function () { halt(job, "timeout"); }, job.limitMs);
    if (job.graceMs != null) cut(job, job.began + job.graceMs);
  }
  function cut(job, at) {
    clearTimeout(job.graceTimer);
    job.graceTimer = setTimeout(function () { halt(job, "cancelled"); }, Math.max(0, at - performance.now()));
  }
  // stop the run the worker is busy with: the worker goes, a new one starts (from the snapshot)
  function halt(job, reason) {
    if (current !== job) return;
    clearTimeout(job.timer);
    clearTimeout(job.graceTimer);
    current = null;
    api.busy = false;
    api.restarts += 1;
    live = false;
    worker.onmessage = worker.onerror = null;
    worker.terminate();
    stoppedAt = performance.now();
    job.reject(stopped(reason, reason === "timeout" ? job.limitMs : 0));
    spawn(function () {}, function () {});
  }
  function cancel(job, graceMs) {
    var i = waiting.indexOf(job);
    if (i >= 0) {
      waiting.splice(i, 1);
      job.reject(stopped("cancelled"));
    } else if (current === job) {
      job.graceMs = Math.max(0, graceMs || 0);
      if (job.began != null) cut(job, performance.now() + job.graceMs);   // (not begun: from its beginning)
    }
  }

  function spawn(resolve, reject) {
    try {
      api.timings.worker = api.timings.worker || Math.round(performance.now());
      worker = new Worker(new URL(CONFIG.worker, root), {type: "module"});
    } catch (e) {
      fail("이 브라우저에서는 판정기 엔진을 시작할 수 없습니다 (" + (e && e.message ? e.message : e) + ").");
      reject(new Error(failure));
      return;
    }
    var mine = worker;
    worker.onmessage = function (ev) {
      if (worker !== mine) return;
      var m = ev.data || {};
      if (m.type === "progress") {
        if (api.ready) return;   // a restart: the page is past its start
        listeners.forEach(function (f) { try { f({phase: m.phase, loaded: m.loaded, total: m.total}); } catch (e) { /* a listener's error */ } });
      } else if (m.type === "ready") {
        if (!api.ready) {
          api.ready = true;
          api.readyMs = m.ms;
          api.restored = !!m.restored;
          // the worker's steps on this page's clock (ms since navigation): for benchmarks/calculator_bench.py
          Object.keys(m.marks || {}).forEach(function (k) {
            api.timings[k] = Math.round(m.marks[k] + (m.origin || performance.timeOrigin) - performance.timeOrigin);
          });
        }
        if (stoppedAt !== null) {
          api.restart = {ms: Math.round(performance.now() - stoppedAt), restored: !!m.restored};
          stoppedAt = null;
        }
        live = true;
        resolve();
        pump();
      } else if (m.type === "failed") {
        fail(m.message);
        reject(new Error(m.message));
      } else if (m.type === "started" && current && current.id === m.id) {
        began(current);
      } else if (m.type === "result" && current && current.id === m.id) {
        var job = current;
        clearTimeout(job.timer);
        clearTimeout(job.graceTimer);
        current = null;
        api.busy = false;
        job.resolve({code: m.code, stdout: m.stdout, stderr: m.stderr, ms: m.ms});
        pump();
      }
    };
    worker.onerror = function (ev) {
      if (worker !== mine) return;
      if (ev && ev.preventDefault) ev.preventDefault();
      var msg = "판정기 엔진 파일(engine/worker.js)을 불러오지 못했습니다" + (ev && ev.message ? " (" + ev.message + ")" : "") + ".";
      fail(msg);
      reject(new Error(msg));
    };
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
      spawn(resolve, reject);
    });
    starting.catch(function () { /* reported to whoever awaits start() or run() */ });
    api.starting = starting;
    return starting;
  }

  function run(argv, stdin) {
    start();
    var job = {id: nextId++, msg: null};
    var p = failure ? Promise.reject(new Error(failure)) : new Promise(function (resolve, reject) {
      job.resolve = resolve;
      job.reject = reject;
      job.msg = {id: job.id, argv: (argv || []).map(String)};
      if (stdin != null) job.msg.stdin = String(stdin);
      waiting.push(job);
      pump();
    });
    p.cancel = function (graceMs) { if (job.resolve) cancel(job, graceMs); };
    return p;
  }

  return api;
})();
