/* Every page of `flamer site` loads this (assets/pwa.js): over http(s) it registers the site's service
 * worker (sw.js at the site's root), which keeps the pages read, the search and the calculator's engine
 * for use with the network off. A page opened from a file (file://) registers nothing and reads and
 * searches as always. */
(function () {
  "use strict";
  if (!("serviceWorker" in navigator) || !/^https?:$/.test(window.location.protocol)) return;
  var script = document.currentScript && document.currentScript.src;
  if (!script) return;
  var sw = new URL("../sw.js", script);   // this file is assets/pwa.js
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
