/* The search box of index.html: runs FlamerSearch (assets/search.js) over FLAMER_INDEX
 * (search-index.js) as the reader types, and for index.html?q=… (the form of every page).
 * When the site carries the engine (assets/engine.js) and is served over http(s), the box's focus (or a
 * ?q= search) starts it, and once it is up each query is asked of `flamer search` itself in the browser
 * and the list re-ranked in its order (the index's answer comes first and stays if the engine is absent).
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
  // the engine (assets/engine.js, when the site carries it) re-ranks with `flamer search` itself once it
  // is up; the first answer always comes from the index above, at once
  var docOf = {};
  FLAMER_INDEX.docs.forEach(function (d) { docOf[d[0] + "\u0000" + d[1]] = d; });
  var shown = "";      // the query the list shows
  var asked = 0;       // the number of the latest question put to the engine

  function render(query, results, source) {
    while (list.firstChild) list.removeChild(list.firstChild);
    list.setAttribute("data-query", query);
    list.setAttribute("data-source", source);
    list.setAttribute("data-count", String(results.length));
    status.textContent = results.length ? "‘" + query + "’ 검색 결과 " + results.length + "건" : "‘" + query + "’에 맞는 항목이 없습니다.";
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

  function show(query) {
    query = query.trim();
    shown = query;
    if (!query) {
      while (list.firstChild) list.removeChild(list.firstChild);
      list.setAttribute("data-query", ""); list.setAttribute("data-count", "0");
      status.textContent = "";
      return;
    }
    render(query, index.search(query, LIMIT), "index");
    rerank(query);
  }

  // ------------------------------------------------------------ the engine ----
  var engine = null;   // FlamerEngine once its script is loaded and started
  function startEngine() {
    if (engine !== null || !/^https?:$/.test(window.location.protocol)) return;
    engine = false;
    function go() {
      if (!window.FlamerEngine) return;
      window.FlamerEngine.start().then(function () {
        engine = window.FlamerEngine;
        if (shown) rerank(shown);
      }, function () { /* no engine: the index answers alone */ });
    }
    if (window.FlamerEngine) { go(); return; }
    var s = document.createElement("script");
    s.src = "assets/engine.js";
    s.onload = go;
    document.head.appendChild(s);   // absent when the site was built without the engine: nothing happens
  }

  function rerank(query) {
    if (!engine || !engine.ready) return;
    var n = ++asked;
    var argv = ["search", query, "--json", "-n", String(LIMIT)];
    if (engine.asOf) argv.push("--as-of", engine.asOf);
    engine.run(argv).then(function (res) {
      if (n !== asked || query !== shown || res.code !== 0) return;   // the reader typed on meanwhile
      var out;
      try { out = JSON.parse(res.stdout); } catch (e) { return; }
      var results = [];
      (out.results || []).forEach(function (r) {
        var d = docOf[r.kind + "\u0000" + r.id];
        if (d) results.push({kind: d[0], id: d[1], title: d[2], url: d[3], snippet: d[4]});
      });
      render(query, results, "engine");
      list.setAttribute("data-ms", String(res.ms));
    }, function () { /* keep the index's answer */ });
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
  if (q) { input.value = q; show(q); startEngine(); }
})();
