/* The site's service worker (sw.js at the site's root, written by `flamer site`): after the first
 * visit the calculator, its engine, the search and every page read before work with the network off.
 *   - install: the engine's files, the calculator page, index.html, the assets and the search index
 *     go into a cache named after this build's content hash (the engine's big files from the
 *     browser's HTTP cache when it has them, the rest revalidated with the server);
 *   - fetch: same-origin GET requests are answered from that cache first; anything else fetched is
 *     put there as it is visited (so a page read once reads offline);
 *   - activate: this site's caches of other builds are deleted (another site on the same origin
 *     keeps its own: cache names carry this worker's scope).
 * A new build changes this file (its hash), which makes the browser install the new cache. */
var CONFIG = /*CONFIG*/{};
var SCOPE = self.registration.scope;
var PREFIX = "flamer-site " + SCOPE + " ";
var CACHE = PREFIX + CONFIG.version;

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) {
    return cache.addAll(CONFIG.precache.map(function (rel) {
      // the pinned Pyodide files and the content-named zips never change under their name: a
      // copy in the HTTP cache will do; anything else is revalidated with the server
      var fixed = /^engine\/(pyodide\/|(flamer|stdlib)-[0-9a-f]+\.zip$)/.test(rel);
      return new Request(new URL(rel, SCOPE).href, {cache: fixed ? "default" : "no-cache"});
    }));
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
      return fetch(req).then(function (res) {
        if (res.status === 200 && res.type === "basic" && !res.redirected) {
          cache.put(req, res.clone()).catch(function () { /* a full disk: served, not kept */ });
        }
        return res;
      });
    });
  }));
});
