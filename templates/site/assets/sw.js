/* The site's service worker (sw.js at the site's root, written by `flamer site`): after the first visit
 * the whole site works with the network off — every page, the search and its index, the calculator and
 * its engine (issue 26; before, only the pages already read).
 *   - install: every file of this build (CONFIG.precache: pages, assets, search index, engine, the
 *     offline page) goes into a cache named after this build's content hash, a few at a time, each
 *     page told how far it got ({type: "precache", done, total, bytes}; assets/pwa.js shows it). The
 *     engine's big files come from the browser's HTTP cache when it has them (the calculator has just
 *     downloaded them); anything else is revalidated with the server. Files already in this build's
 *     cache (an install cut short before) are not fetched again;
 *   - fetch: same-origin GET requests are answered from that cache first; anything else fetched is put
 *     there as it is visited; a page that is neither cached nor reachable (no network, or 502–504
 *     from the server) gets the offline page;
 *   - activate: this site's caches of other builds are deleted (another site on the same origin keeps
 *     its own: cache names carry this worker's scope).
 * A new build changes this file (its hash), which makes the browser install the new cache. */
var CONFIG = /*CONFIG*/{};
var SCOPE = self.registration.scope;
var PREFIX = "flamer-site " + SCOPE + " ";
var CACHE = PREFIX + CONFIG.version;
var OFFLINE = new URL(CONFIG.offline || "offline.html", SCOPE).href;
var AT_ONCE = 6;   // files fetched at the same time

function tell(msg) {
  return self.clients.matchAll({includeUncontrolled: true, type: "window"}).then(function (all) {
    all.forEach(function (c) { c.postMessage(msg); });
  }).catch(function () { /* nobody to tell */ });
}

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) {
    var list = CONFIG.precache.slice(), total = list.length, done = 0, bytes = 0, last = 0;
    function one(rel) {
      var url = new URL(rel, SCOPE).href;
      return cache.match(url).then(function (hit) {
        if (hit) { bytes += +hit.headers.get("content-length") || 0; return null; }
        // the pinned Pyodide files and the content-named zips never change under their name: a copy in
        // the HTTP cache will do; anything else is revalidated with the server
        var fixed = /^engine\/(pyodide\/|(flamer|stdlib)-[0-9a-f]+\.zip$)/.test(rel);
        return fetch(new Request(url, {cache: fixed ? "default" : "no-cache"})).then(function (res) {
          if (!res.ok) throw new Error("HTTP " + res.status + " " + rel);
          return res.clone().arrayBuffer().then(function (b) {
            bytes += b.byteLength;
            return cache.put(url, res);
          });
        });
      }).then(function () {
        done += 1;
        var t = Date.now();
        if (done === total || t - last > 150) { last = t; tell({type: "precache", done: done, total: total, bytes: bytes}); }
      });
    }
    function worker() {
      var rel = list.shift();
      return rel === undefined ? Promise.resolve() : one(rel).then(worker);
    }
    var workers = [];
    for (var i = 0; i < AT_ONCE; i++) workers.push(worker());
    return Promise.all(workers).then(function () {
      return tell({type: "precache", done: total, total: total, bytes: bytes, ready: true});
    });
  }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (n) { return n.indexOf(PREFIX) === 0 && n !== CACHE; })
                            .map(function (n) { return caches.delete(n); }));
  }).then(function () { return self.clients.claim(); }));
});

self.addEventListener("fetch", function (event) {
  var req = event.request;
  if (req.method !== "GET" || req.url.indexOf(SCOPE) !== 0) return;
  var nav = req.mode === "navigate";
  event.respondWith(caches.open(CACHE).then(function (cache) {
    var url = req.url.split("#")[0];
    var alt = nav && /\/(\?.*)?$/.test(url) ? url.replace(/\/(\?.*)?$/, "/index.html") : null;
    return cache.match(req, {ignoreSearch: nav}).then(function (hit) {
      return hit || (alt ? cache.match(alt, {ignoreSearch: true}) : null);
    }).then(function (hit) {
      if (hit) return hit;
      function offline(fallback) {
        return cache.match(OFFLINE).then(function (page) { return page || fallback(); });
      }
      return fetch(req).then(function (res) {
        if (res.status === 200 && res.type === "basic" && !res.redirected) {
          cache.put(req, res.clone()).catch(function () { /* a full disk: served, not kept */ });
        }
        // a server (or a proxy before it) that cannot be reached is the network gone, for a page
        if (nav && res.status >= 502 && res.status <= 504) return offline(function () { return res; });
        return res;
      }, function (err) {
        if (!nav) throw err;
        return offline(function () { throw err; });
      });
    });
  }));
});
