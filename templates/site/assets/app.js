/* The search box of index.html: runs FlamerSearch (assets/search.js) over FLAMER_INDEX
 * (search-index.js) as the reader types, and for index.html?q=… (the form of every page).
 * When the site carries the engine (assets/engine.js) and is served over http(s), each query is asked of
 * `flamer search` itself in the browser, and a list never changes under the reader's finger (issue 26):
 *   - once the engine is up, the list is the engine's from its first paint (the list shown stays until
 *     the engine's answer replaces it);
 *   - on a later visit the engine comes back from its memory snapshot in a second or two, so it is started
 *     with the page and a query waits for it (up to WAIT_MS) instead of showing a list that would change;
 *   - on a first visit the instant list of the index is shown at once, marked 빠른 결과 (provisional),
 *     and re-ranked by the engine once it is up — never while a finger is on the list (then once it
 *     lets go).
 * Results are built with DOM nodes and textContent: no markup from the index reaches the page. */
(function () {
  "use strict";
  var KIND_KO = {clause: "조항", ruling: "판정", faq: "FAQ", example: "예시", card: "카드", term: "용어"};
  var input = document.getElementById("q");
  var list = document.getElementById("results");
  var status = document.getElementById("search-status");
  var form = document.getElementById("search-form");
  if (!input || !list) return;
  if (typeof FLAMER_INDEX === "undefined" || typeof FlamerSearch === "undefined") {
    status.textContent = "검색 색인(search-index.js)을 읽지 못했습니다. 사이트 폴더를 통째로 두었는지 확인하세요.";
    return;
  }
  var index = new FlamerSearch.Index(FLAMER_INDEX);
  var LIMIT = 15;
  var WAIT_MS = 4000;       // how long a query waits for an engine coming back from its snapshot
  var HOLD_MS = 600;        // after the finger leaves the list, this long before a provisional list is re-ranked
  var docOf = {};
  FLAMER_INDEX.docs.forEach(function (d) { docOf[d[0] + "\u0000" + d[1]] = d; });
  var shown = "";           // the query the list shows (or is about to)
  var asked = 0;            // the number of the latest question
  var engine = {state: "off", api: null, warm: false, up: null};   // off | starting | ready | none; up: settles then
  var touching = false, touchedAt = 0, pending = null;

  function render(query, results, source) {
    while (list.firstChild) list.removeChild(list.firstChild);
    list.setAttribute("data-query", query);
    list.setAttribute("data-source", source);
    list.setAttribute("data-count", String(results.length));
    var provisional = source === "index" && engine.state === "starting";
    if (provisional) list.setAttribute("data-provisional", ""); else list.removeAttribute("data-provisional");
    status.textContent = results.length ? "‘" + query + "’ 검색 결과 " + results.length + "건" : "‘" + query + "’에 맞는 항목이 없습니다.";
    if (provisional && results.length) {
      var tag = document.createElement("span");
      tag.className = "provisional";
      tag.textContent = "빠른 결과 — 정확한 순위를 준비 중";
      status.appendChild(tag);
    }
    results.forEach(function (r) {
      var li = document.createElement("li");
      li.setAttribute("data-id", r.id);
      li.setAttribute("data-kind", r.kind);
      var kind = document.createElement("span");
      kind.className = "r-kind";
      kind.textContent = KIND_KO[r.kind] || r.kind;
      var a = document.createElement("a");
      a.className = "r-title";
      a.href = r.url;
      a.textContent = r.title;
      var id = document.createElement("span");
      id.className = "r-id";
      id.textContent = r.kind === "card" ? "" : r.id;
      var snip = document.createElement("span");
      snip.className = "r-snippet";
      snip.textContent = r.snippet;
      li.appendChild(kind); li.appendChild(a); li.appendChild(id); li.appendChild(snip);
      list.appendChild(li);
    });
  }
  function empty() {
    while (list.firstChild) list.removeChild(list.firstChild);
    list.setAttribute("data-query", ""); list.setAttribute("data-count", "0");
    list.removeAttribute("data-source"); list.removeAttribute("data-provisional");
    status.textContent = "";
  }

  function show(query) {
    query = query.trim();
    shown = query;
    var n = ++asked;
    if (!query) { empty(); return; }
    if (engine.state === "ready") { fromEngine(query, n); return; }
    if (engine.state === "starting" && engine.warm) {   // back in a moment: wait rather than show a list that changes
      status.textContent = "검색 준비 중…";
      waitFor(n, query);
      return;
    }
    render(query, index.search(query, LIMIT), "index");
  }
  function waitFor(n, query) {
    var done = false;
    function go() {
      if (done || n !== asked) return;
      done = true;
      if (engine.state === "ready") fromEngine(query, n);
      else render(query, index.search(query, LIMIT), "index");
    }
    engine.up.then(go, go);
    setTimeout(go, WAIT_MS);
  }
  function fromEngine(query, n) {
    var api = engine.api;
    var argv = ["search", query, "--json", "-n", String(LIMIT)];
    if (api.asOf) argv.push("--as-of", api.asOf);
    api.run(argv).then(function (res) {
      if (n !== asked || query !== shown) return;   // the reader typed on meanwhile
      var out = null;
      try { out = res.code === 0 ? JSON.parse(res.stdout) : null; } catch (e) { out = null; }
      if (!out) { if (list.getAttribute("data-query") !== query) render(query, index.search(query, LIMIT), "index"); return; }
      var results = [];
      (out.results || []).forEach(function (r) {
        var d = docOf[r.kind + "\u0000" + r.id];
        if (d) results.push({kind: d[0], id: d[1], title: d[2], url: d[3], snippet: d[4]});
      });
      var was = list.getAttribute("data-source") === "index" && list.getAttribute("data-query") === query;
      render(query, results, "engine");
      list.setAttribute("data-ms", String(res.ms));
      if (was) status.appendChild(document.createTextNode(" — 정확한 순위로 다시 정렬했습니다"));
    }, function () {
      if (n === asked && list.getAttribute("data-query") !== query) render(query, index.search(query, LIMIT), "index");
    });
  }
  // the engine is up: a provisional list is re-ranked, unless a finger is on it (then once it lets go)
  function rerankShown() {
    if (!shown || list.getAttribute("data-source") !== "index") return;
    if (touching || Date.now() - touchedAt < HOLD_MS || list.contains(document.activeElement)) {
      clearTimeout(pending);
      pending = setTimeout(rerankShown, HOLD_MS);
      return;
    }
    fromEngine(shown, asked);
  }
  list.addEventListener("pointerdown", function () { touching = true; touchedAt = Date.now(); });
  ["pointerup", "pointercancel", "pointerleave"].forEach(function (t) {
    list.addEventListener(t, function () { touching = false; touchedAt = Date.now(); });
  });

  // ------------------------------------------------------------ the engine ----
  function startEngine() {
    if (engine.state !== "off" || !/^https?:$/.test(window.location.protocol)) return;
    engine.state = "starting";
    var settle;
    engine.up = new Promise(function (resolve) { settle = resolve; });
    function none() { engine.state = "none"; settle(); }   // no engine: the index answers alone
    function go() {
      var E = window.FlamerEngine;
      if (!E) { none(); return; }
      engine.api = E;
      E.start().then(function () {
        engine.state = "ready";
        settle();
        rerankShown();
      }, none);
    }
    if (window.FlamerEngine) { go(); return; }
    var s = document.createElement("script");
    s.src = "assets/engine.js";
    s.onload = go;
    s.onerror = none;   // built without the engine
    document.head.appendChild(s);
  }
  // a later visit: the engine's memory snapshot is in this browser (engine/worker.js keeps it), so the
  // engine is back in a second or two — start it now, with the page
  function warmStart() {
    if (!window.caches || !/^https?:$/.test(window.location.protocol)) return Promise.resolve(false);
    var name = "flamer-engine-snapshot " + new URL(".", window.location.href).href;
    return caches.has(name).then(function (has) {
      return has ? caches.open(name).then(function (c) { return c.keys(); }).then(function (k) { return k.length > 0; }) : false;
    }).catch(function () { return false; });
  }
  input.addEventListener("focus", startEngine);

  function fromUrl() {
    var m = /[?&]q=([^&#]*)/.exec(window.location.search);
    if (!m) return "";
    try { return decodeURIComponent(m[1].replace(/\+/g, " ")); } catch (e) { return ""; }
  }

  var timer = null;
  input.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(function () { show(input.value); }, 120);
  });
  form.addEventListener("submit", function (ev) {
    ev.preventDefault();
    show(input.value);
    try { history.replaceState(null, "", "?q=" + encodeURIComponent(input.value.trim())); } catch (e) { /* file:// may refuse */ }
  });
  var q = fromUrl();
  warmStart().then(function (warm) {
    if (warm) { engine.warm = true; startEngine(); }
    if (q) { input.value = q; startEngine(); show(q); }
  });
  window.FlamerSearchBox = {engine: engine};   // (for tests and the benchmark: where the engine stands)
})();
