/* The search box of index.html: runs FlamerSearch (assets/search.js) over FLAMER_INDEX
 * (search-index.js) as the reader types, and for index.html?q=… (the form of every page).
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

  function show(query) {
    while (list.firstChild) list.removeChild(list.firstChild);
    query = query.trim();
    list.setAttribute("data-query", query);
    if (!query) { status.textContent = ""; list.setAttribute("data-count", "0"); return; }
    var results = index.search(query, 15);
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
  if (q) { input.value = q; show(q); }
})();
