/* Every page of `flamer site` loads this (assets/pwa.js): over http(s) it registers the site's service
 * worker (sw.js at the site's root), which keeps the whole site — every page, the search and the
 * calculator's engine — for use with the network off, and shows how far that copy has got on the first
 * visit (the worker's {type: "precache", done, total, bytes} messages; window.FlamerOffline holds the
 * last one). A page opened from a file (file://) registers nothing and reads and searches as always. */
(function () {
  "use strict";
  if (!("serviceWorker" in navigator) || !/^https?:$/.test(window.location.protocol)) return;
  var script = document.currentScript && document.currentScript.src;
  if (!script) return;
  var sw = new URL("../sw.js", script);   // this file is assets/pwa.js
  var box = null, bar = null, words = null, hideTimer = null;
  window.FlamerOffline = {done: 0, total: 0, bytes: 0, ready: false};

  function mb(n) { return (n / 1048576).toFixed(1); }
  function ui() {
    if (box) return;
    box = document.createElement("div");
    box.className = "offline-progress";
    box.setAttribute("role", "status");
    words = document.createElement("span");
    bar = document.createElement("progress");
    box.appendChild(words);
    box.appendChild(bar);
    document.body.appendChild(box);
  }
  navigator.serviceWorker.addEventListener("message", function (ev) {
    var m = ev.data || {};
    if (m.type !== "precache" || !m.total) return;
    window.FlamerOffline = {done: m.done, total: m.total, bytes: m.bytes, ready: !!m.ready};
    if (m.ready && !box) return;   // (everything was there already: nothing to say)
    ui();
    clearTimeout(hideTimer);
    bar.max = m.total;
    bar.value = m.done;
    if (m.ready) {
      words.textContent = "오프라인 준비 끝 — 이제 인터넷 없이도 사이트 전체와 판정기가 열립니다.";
      bar.hidden = true;
      hideTimer = setTimeout(function () { if (box) { box.remove(); box = null; } }, 4000);
    } else {
      words.textContent = "오프라인에서도 쓰도록 저장하는 중… " + m.done + " / " + m.total + " (" + mb(m.bytes) + " MB)";
    }
  });
  try { navigator.serviceWorker.startMessages(); } catch (e) { /* older browsers start them on load */ }
  function register() {
    navigator.serviceWorker.register(sw.href).catch(function () { /* no offline copy: pages still work online */ });
  }
  function soon() {
    // while the calculator's engine is downloading, wait for it: the service worker then copies the
    // engine's files from the browser's cache instead of downloading them a second time
    var E = window.FlamerEngine;
    if (E && E.starting && !E.ready) E.starting.then(register, register);
    else register();
  }
  if (document.readyState === "complete") setTimeout(soon, 0);
  else window.addEventListener("load", function () { setTimeout(soon, 0); });
})();
