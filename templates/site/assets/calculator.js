/* The calculator page (판정기.html): a fight in one line or a scenario YAML, computed by the project's
 * own engine running in the browser (FlamerEngine from assets/engine.js: the CLI's argv in, its exit
 * code, stdout and stderr out), made for a phone held in one hand at a noisy table (issue 26). No rule,
 * parser or verdict sentence lives here: the page passes what the player typed to the engine exactly as
 * `flamer fight` / `flamer simulate -` would get it and shows the answer:
 *   - the verdict in a bar above the line that sticks to the top of the screen (the winner's colour),
 *     updated as the player types; a line that does not read yet keeps the last verdict greyed, and is
 *     called wrong only after a pause (ERROR_PAUSE_MS) or Enter;
 *   - a stat the cards leave unknown asked as a question in that bar (개미의 체력은?), not as an error;
 *     a forbidden play (불가) as a ruling with its clause;
 *   - under the inputs, the reasons, what is uncertain (미해결) and what was assumed (가정), and the whole
 *     explanation: the engine's own page (--format html) read with DOMParser and put into this page in a
 *     shadow root (its style kept apart), citations linked to the site's pages;
 *   - the --json answer as text (the JSON toggle).
 * Nothing derived from the input or from the engine's text becomes markup by way of a string: the
 * engine's page is parsed as a document (no script of it runs; scripts, frames, forms, event handlers
 * and links dropped) and its nodes imported; everything else is built with createElement and textContent.
 * The engine speaks the command line's words; the page says the same in a player's (webWords).
 *
 * The input lives in the URL hash (the calculator link of `flamer fight --link`, docs/LINK.md):
 *   #q=<line>&r=<decl>…&b=<decl>…&cell=<x,y>&stat=<card stat value>…&as_of=<date>   or   #y=~<compressed YAML>
 * and is rewritten with history.replaceState as the player edits (a scenario's link is the engine's own,
 * `simulate - --link`). A damaged or cut link is read whole or not at all: the page says what is wrong,
 * computes nothing and leaves the address as it is (FlamerLink below; the rules are flamer_ref/links.py's). */

/* FlamerLink: the reader of the calculator link, the same rules as flamer_ref/links.py `read` (its
 * docstring is the specification; tests/test_hostile3_links.py runs both readers on the same damaged
 * links). Self-contained, so that node can load this file: module.exports below, and the page's code
 * after it does nothing without a document.
 *   FlamerLink.read(fragment)  → {kind: "none"} (an empty fragment)
 *                                 {kind: "fight", q, r: [], b: [], cell, stat: [], as_of (null: none)}
 *                                 {kind: "scenario", y}   (y: null while a compressed one is unread)
 *                                 {kind: "damaged", code, key (null: none), piece (from 1; 0: no-q),
 *                                  raw (the piece as written), value (decoded, when it could be)}
 *     read() stops at a compressed scenario value (y=~…) it cannot inflate synchronously: the answer is
 *     {kind: "packed", …} — readAsync() is the whole reader.
 *   FlamerLink.readAsync(fragment) → Promise of read()'s answer, compressed values inflated
 *                                 (DecompressionStream('deflate-raw'))
 *   FlamerLink.dictionaries      → {number: text}: the preset dictionaries of compressed scenario links
 *                                 (flamer_ref/linkdict.py; the page fills it from the build)
 *   FlamerLink.message(damaged) → the Korean sentence the page shows
 *   FlamerLink.blank(v), .isDate(v), .enc(v), .crc32(bytes) */
var FlamerLink = (function () {
  "use strict";
  var KEYS = {q: true, r: true, b: true, cell: true, stat: true, as_of: true, y: true};
  var REPEATED = {r: true, b: true, stat: true};
  // the characters String.prototype.trim removes, spelt out (links.BLANK)
  var BLANK = /^[ \t\n\v\f\r\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]*$/;
  var BAD_ESCAPE = /%(?![0-9A-Fa-f]{2})/;
  var LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?:^|[^\uD800-\uDBFF])[\uDC00-\uDFFF]/;
  var SP = "[ \\t\\n\\r\\f\\v]*";
  var ISO = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/;
  var YMD = new RegExp("^([0-9]{4})" + SP + "년" + SP + "([0-9]{1,2})" + SP + "월" + SP + "([0-9]{1,2})" + SP + "일?$");
  var MD = [new RegExp("^([0-9]{1,2})" + SP + "[-/.]" + SP + "([0-9]{1,2})\\.?$"),
            new RegExp("^([0-9]{1,2})" + SP + "월" + SP + "([0-9]{1,2})" + SP + "일?$")];
  var DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  var NAMES = {q: "전투 줄(q)", r: "대응턴 선언(r)", b: "(전투) 선언(b)", cell: "셀(cell)", stat: "수치(stat)",
               as_of: "기준일(as_of)", y: "시나리오(y)"};
  // the compressed scenario value ~<d>~<n>~<crc>~<data> (links.PACKED …)
  var PACKED = /^~([0-9])~([1-9][0-9]{0,8})~([0-9a-f]{8})~([A-Za-z0-9_-]*)$/;
  var PACKED_HEAD = /^~(?:[0-9](?:~(?:[0-9]{0,9}(?:~[0-9a-f]{0,8})?)?)?)?$/;
  var MAX_BYTES = 2 * 1024 * 1024;   // links.SCENARIO_MAX_BYTES
  var dictionaries = {};
  var STOP = {kind: "packed"};   // read(): a compressed value met (readAsync reads it)

  function blank(v) { return BLANK.test(v); }
  // links.is_link_date: the forms --as-of reads, in ASCII digits and spaces; a month and day without
  // the year must exist in that month (29 February too)
  function isDate(v) {
    var t = v.replace(/^[ \t\n\r\f\v]+|[ \t\n\r\f\v]+$/g, "");
    var m = ISO.exec(t) || YMD.exec(t);
    if (m) {
      var y = +m[1], mo = +m[2], d = +m[3];
      var leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
      return y >= 1 && mo >= 1 && mo <= 12 && d >= 1 && d <= (mo === 2 ? (leap ? 29 : 28) : DAYS[mo - 1]);
    }
    for (var i = 0; i < MD.length; i++) {
      m = MD[i].exec(t);
      if (m) return +m[1] >= 1 && +m[1] <= 12 && +m[2] >= 1 && +m[2] <= DAYS[+m[1] - 1];
    }
    return false;
  }
  // the link's percent-encoding: encodeURIComponent, and ! ' ( ) * too (Python's quote(v, safe=""))
  function enc(v) {
    return encodeURIComponent(v).replace(/[!'()*]/g, function (c) {
      return "%" + c.charCodeAt(0).toString(16).toUpperCase();
    });
  }
  var CRC_TABLE = null;
  function crc32(bytes) {
    if (!CRC_TABLE) {
      CRC_TABLE = [];
      for (var n = 0; n < 256; n++) {
        var c = n;
        for (var k = 0; k < 8; k++) c = c & 1 ? 0xEDB88320 ^ (c >>> 1) : c >>> 1;
        CRC_TABLE[n] = c >>> 0;
      }
    }
    var crc = 0xFFFFFFFF;
    for (var i = 0; i < bytes.length; i++) crc = CRC_TABLE[(crc ^ bytes[i]) & 0xFF] ^ (crc >>> 8);
    return (crc ^ 0xFFFFFFFF) >>> 0;
  }
  // A compressed value's head, checked without inflating: {code} (cut / bad-data) or {d, n, crc, data}
  function head(value) {
    var m = PACKED.exec(value);
    if (!m) return {code: PACKED_HEAD.test(value) ? "cut" : "bad-data"};
    var n = +m[2], data = m[4];
    if (data.length < n) return {code: "cut"};
    if (data.length > n || n % 4 === 1 || (+m[1] !== 0 && typeof dictionaries[+m[1]] !== "string")) return {code: "bad-data"};
    return {d: +m[1], n: n, crc: parseInt(m[3], 16), data: data};
  }
  function utf8(text) { return new TextEncoder().encode(text); }
  // the bytes of a base64url text without padding (checked by head: its alphabet and length)
  function unbase64(data) {
    var b = atob(data.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((data.length + 3) % 4));
    var out = new Uint8Array(b.length);
    for (var i = 0; i < b.length; i++) out[i] = b.charCodeAt(i);
    return out;
  }
  // The YAML of a compressed value (its head checked): a Promise of the text, or of null (bad-data).
  // The dictionary goes first into DEFLATE's window as stored blocks (what zlib's zdict does).
  function inflate(h) {
    var dict = h.d ? utf8(dictionaries[h.d]) : new Uint8Array(0);
    var parts = [], at = 0;
    while (at < dict.length) {
      var len = Math.min(65535, dict.length - at);
      parts.push(new Uint8Array([0, len & 255, len >> 8, ~len & 255, (~len >> 8) & 255]), dict.subarray(at, at + len));
      at += len;
    }
    var packed;
    try { packed = unbase64(h.data); } catch (e) { return Promise.resolve(null); }
    return junkFound().then(function (found) {
      if (found || !packed.length) return run(parts.concat([packed]));
      // a DecompressionStream that takes data after the end of the stream (node's) would read what zlib
      // refuses: the stream less its last byte (which holds the end of its last block) must not inflate
      return run(parts.concat([packed.subarray(0, packed.length - 1)])).then(function (short) {
        return short === null ? run(parts.concat([packed])) : null;
      });
    });
    function run(parts) {
      return inflateParts(parts, dict.length, h.crc);
    }
  }
  // whether this browser's DecompressionStream refuses data after the end of a stream (the standard's
  // rule, and zlib's): a final empty block followed by a zero byte
  var junkProbe = null;
  function junkFound() {
    if (!junkProbe) {
      junkProbe = new Response(new Blob([new Uint8Array([3, 0, 0])]).stream().pipeThrough(new DecompressionStream("deflate-raw")))
        .arrayBuffer().then(function () { return false; }, function () { return true; });
    }
    return junkProbe;
  }
  function inflateParts(parts, skip, crc) {
    var chunks = [], got = 0;
    var reader;
    try {
      reader = new Blob(parts).stream().pipeThrough(new DecompressionStream("deflate-raw")).getReader();
    } catch (e) { return Promise.resolve(null); }
    function pump() {
      return reader.read().then(function (r) {
        if (r.done) return true;
        var v = r.value;
        if (skip) { var s = Math.min(skip, v.length); skip -= s; v = v.subarray(s); }
        got += v.length;
        if (got > MAX_BYTES) { reader.cancel().catch(function () {}); return false; }
        if (v.length) chunks.push(v);
        return pump();
      });
    }
    return pump().then(function (whole) {
      if (!whole) return null;
      var raw = new Uint8Array(got), o = 0;
      chunks.forEach(function (c) { raw.set(c, o); o += c.length; });
      if (crc32(raw) !== crc) return null;
      try { return new TextDecoder("utf-8", {fatal: true, ignoreBOM: true}).decode(raw); } catch (e) { return null; }
    }, function () { return null; });
  }

  // One pass over the pieces; unpack(value, n, piece) is given a compressed y value and answers
  // synchronously (read: a "packed" stop) or with a Promise (readAsync)
  function pass(frag, unpack) {
    if (!frag) return {kind: "none"};
    var got = {r: [], b: [], stat: []}, seen = {}, fight = false;
    var pieces = frag.split("&");
    function damaged(code, key, n, piece, value) {
      return {kind: "damaged", code: code, key: key, piece: n, raw: piece, value: value === undefined ? null : value};
    }
    function from(i) {
      for (; i < pieces.length; i++) {
        var piece = pieces[i], n = i + 1;
        if (!piece) return damaged("empty-piece", null, n, piece);
        var at = piece.indexOf("=");
        if (at < 0) return damaged("no-equals", null, n, piece);
        var key = piece.slice(0, at), raw = piece.slice(at + 1), value;
        if (!Object.prototype.hasOwnProperty.call(KEYS, key)) return damaged("unknown-key", key, n, piece);
        if (BAD_ESCAPE.test(raw)) return damaged("bad-escape", key, n, piece);
        if (LONE.test(raw)) return damaged("bad-utf8", key, n, piece);
        try { value = decodeURIComponent(raw); } catch (e) { return damaged("bad-utf8", key, n, piece); }
        if (!REPEATED[key] && seen[key]) return damaged("repeated-key", key, n, piece, value);
        if ((key === "y" && fight) || (key !== "y" && seen.y)) return damaged("mixed", key, n, piece, value);
        if (blank(value)) return damaged("empty-value", key, n, piece, value);
        if (key === "as_of" && !isDate(value)) return damaged("bad-date", key, n, piece, value);
        if (key === "y" && value.charAt(0) === "~") {
          var h = head(value);
          if (h.code) return damaged(h.code, key, n, piece, value);
          var text = unpack(h);
          if (text === STOP) return STOP;
          var next = (function (i, key, n, piece, value) {
            return function (text) {
              if (text === null) return damaged("bad-data", key, n, piece, value);
              if (blank(text)) return damaged("empty-value", key, n, piece, value);
              got.y = text;
              seen.y = true;
              return from(i + 1);
            };
          })(i, key, n, piece, value);
          return text && typeof text.then === "function" ? text.then(next) : next(text);
        }
        if (REPEATED[key]) got[key].push(value); else got[key] = value;
        seen[key] = true;
        if (key !== "y") fight = true;
      }
      if (seen.y) return {kind: "scenario", y: got.y};
      if (!seen.q) return damaged("no-q", null, 0, "");
      return {kind: "fight", q: got.q, r: got.r, b: got.b, cell: seen.cell ? got.cell : "1,1", stat: got.stat,
              as_of: seen.as_of ? got.as_of : null};
    }
    return from(0);
  }
  function read(frag) {
    return pass(frag, function () { return STOP; });
  }
  function readAsync(frag) {
    try { return Promise.resolve(pass(frag, inflate)); } catch (e) { return Promise.reject(e); }
  }
  // a piece as the message shows it: its head and its tail (a cut link is damaged at its end)
  function shown(text) {
    text = String(text);
    return text.length > 60 ? text.slice(0, 28) + "…" + text.slice(-28) : text;
  }
  function message(d) {
    var name = d.key !== null && NAMES[d.key] ? NAMES[d.key] : null, what;
    if (d.code === "cut") {
      return "링크가 잘렸습니다: " + (name || "링크") + "가 중간에서 끊겼습니다. 아무것도 판정하지 않았습니다. " +
             "보낸 사람에게 링크 전체를 다시 받아 주세요(채팅 앱이 긴 링크의 끝을 자르기도 합니다).";
    }
    switch (d.code) {
      case "empty-piece": what = "빈 항목이 있습니다('&'가 겹치거나 링크 끝에 있음)"; break;
      case "no-equals": what = "'='가 없는 항목이 있습니다"; break;
      case "unknown-key": what = "이 판정기가 모르는 항목이 있습니다"; break;
      case "bad-escape": what = name + "의 값에 잘못된 % 표기가 있습니다(링크가 %XX 중간에서 잘림)"; break;
      case "bad-utf8": what = name + "의 값이 글자로 풀리지 않습니다(링크가 글자 중간에서 잘림)"; break;
      case "repeated-key": what = name + " 항목이 두 번 나옵니다"; break;
      case "mixed": what = "시나리오(y)와 전투 항목이 한 링크에 섞여 있습니다"; break;
      case "empty-value": what = name + "의 값이 비어 있습니다"; break;
      case "bad-date": what = "기준일(as_of) ‘" + shown(d.value) + "’: 날짜로 읽을 수 없습니다(이렇게 적습니다: 2026-09-24, 9/24, 09-24, 9월 24일)"; break;
      case "bad-data": what = name + "의 압축된 내용이 풀리지 않거나 검사값이 맞지 않습니다(고쳐 쓴 링크이거나 다른 판정기의 링크)"; break;
      case "no-q": what = "전투 줄(q)이 없습니다"; break;
      default: what = d.code;
    }
    var where = !d.piece || d.code === "bad-data" ? "" : " — " + d.piece + "번째 항목" +
                (d.raw && d.code !== "bad-date" ? " ‘" + shown(d.raw) + "’" : "");
    return "링크가 손상되었습니다: " + what + where + ". 아무것도 판정하지 않았습니다. 링크를 끝까지 복사했는지 " +
           "확인하세요(채팅 앱이 링크 끝을 자르기도 합니다).";
  }
  return {read: read, readAsync: readAsync, message: message, blank: blank, isDate: isDate, enc: enc, crc32: crc32,
          dictionaries: dictionaries};
})();
if (typeof module === "object" && module.exports) module.exports = FlamerLink;

(function () {
  "use strict";
  if (typeof document === "undefined") return;   // loaded by node for FlamerLink alone

  var DEFAULT_CELL = "1,1";
  var DEBOUNCE_MS = 200;            // an edit is computed this long after the last keystroke
  var ERROR_PAUSE_MS = 1000;        // a line that does not read yet is called wrong only after this pause (or Enter)
  // a computation a newer input replaces may finish this long before the engine is stopped for the
  // newer one (a fight takes a fraction of it; stopping means restarting the engine: FlamerEngine.run)
  var SUPERSEDE_MS = 400;
  var BUSY_SHOWN_MS = 250;          // "판정 중…" only for a computation that takes longer than this
  var HASH_MAX = 100000;            // a longer link is not put into the address (some browsers refuse it)
  var FILE_MAX = 8 * 1024 * 1024;   // a larger file is not read at all (the engine takes 2 MB)
  var STORE_KEY = "flamer-calculator-stats";
  var STAT_KO = {lv: "레벨", hp: "체력", atk: "공격력", cost: "비용"};
  var STAT_ALIAS = {lv: "lv", "레벨": "lv", hp: "hp", "체력": "hp", atk: "atk", "공격": "atk", "공격력": "atk",
                    cost: "cost", "비용": "cost"};
  var PHASE_KO = {download: "엔진 내려받는 중", start: "파이썬 시작하는 중", unpack: "규칙 데이터 푸는 중",
                  "import": "판정 코드 불러오는 중"};

  function $(id) { return document.getElementById(id); }
  var el = {
    status: $("engine-status"), statusText: $("engine-text"), progress: $("engine-progress"), help: $("engine-help"),
    tabFight: $("tab-fight"), tabScenario: $("tab-scenario"), fight: $("fight-panel"), scenario: $("scenario-panel"),
    q: $("calc-q"), suggest: $("calc-suggest"), swap: $("calc-swap"),
    rows: {r: $("calc-r"), b: $("calc-b")}, boxes: {r: $("calc-r-box"), b: $("calc-b-box")}, opts: $("calc-opts"),
    optsCount: $("calc-opts-count"), cell: $("calc-cell"), asOf: $("calc-asof"),
    y: $("calc-y"), file: $("calc-file"), fileName: $("calc-file-name"), undo: $("calc-undo"),
    bar: $("calc-bar"), barTop: $("calc-bar-top"), verdict: $("calc-verdict"), error: $("calc-error"), state: $("calc-state"),
    barGap: $("calc-bar-gap"),
    ask: $("calc-ask"), askRows: $("calc-ask-rows"),
    summary: $("calc-summary"), notices: $("calc-notices"), reasons: $("calc-reasons"), gaps: $("calc-gaps"),
    assumed: $("calc-assumed"), mine: $("calc-mine"), statRows: $("calc-stat-rows"),
    copyVerdict: $("calc-copy-verdict"), copy: $("calc-copy"), linkStatus: $("calc-link-status"),
    story: $("calc-story"), storyHost: $("calc-story-host"),
    json: $("calc-json"), jsonOut: $("calc-json-out"), cli: $("calc-cli"), cliLine: $("calc-cli-line")
  };
  if (!el.q || !el.bar) return;

  function readJson(id) {
    try { return JSON.parse($(id).textContent) || {}; } catch (e) { return {}; }
  }
  var TEMPLATES = readJson("calc-templates");
  var DATA = readJson("calc-data");
  var CITES = DATA.cites || {};
  Object.keys(DATA.dictionaries || {}).forEach(function (k) { FlamerLink.dictionaries[k] = DATA.dictionaries[k]; });

  var mode = "fight";
  var statRows = [];          // {key, card, label, stat, node, input, why}: values the player gives for 미상 stats
  var asked = {};             // row key → true: what the last answer asked for (shown as a question in the bar)
  var askShown = false;       // the question is out (not while the player is still typing the line)
  var rawStats = [];          // stat= values of a link the page cannot read: passed on as they are (the
                              // engine says what is wrong) until the player edits something
  var seq = 0;                // the number of the latest computation: an older answer is dropped
  var timer = null;
  var engine = {state: "loading", ready: false};
  var shown = null;           // the job whose answer the page shows (for the JSON toggle)
  var shownPage = null;       // what the page shows of it: {lines, reasons, gaps, assumed, link}
  var jsonCache = {};         // job key → the --json answer
  var jsonKeys = [];
  var writtenHash = null;     // the hash this page wrote last (a hashchange to another one is a new link)
  var damaged = null;         // the damage of the link opened last (FlamerLink), until the player acts
  var opened = null;          // a scenario link opened: {y, frag} — its address stays while the text is its own
  var scenarioLinks = {};     // scenario text → the fragment of its link (from the engine: simulate --link)
  var running = [];           // the engine runs of the latest computation: cancelled when a newer one starts
  var under = null;           // the computation whose answer is on its way: {key, seq}
  var siteAsOf = null;        // the date a site built with --as-of stands at (FlamerEngine.asOf): the default
  var lastEdit = 0;           // when the player last typed (performance.now())
  var submitted = false;      // Enter (or a button, a link) since the last keystroke: say everything at once
  var revealTimer = null, busyTimer = null;

  // ------------------------------------------------------------------ helpers ----
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }
  function text(tag, value, cls) {
    var n = document.createElement(tag);
    if (cls) n.className = cls;
    n.textContent = value;
    return n;
  }
  function show(node, on) { node.hidden = !on; }
  function now() { return performance.now(); }
  var enc = FlamerLink.enc;
  function storeGet() {
    try { return JSON.parse(window.localStorage.getItem(STORE_KEY) || "{}") || {}; } catch (e) { return {}; }
  }
  function storeSet(key, value) {
    try {
      var all = storeGet();
      if (value === null) delete all[key]; else all[key] = value;
      window.localStorage.setItem(STORE_KEY, JSON.stringify(all));
    } catch (e) { /* storage off (private mode): the value lives in the page and the link only */ }
  }
  function mb(n) { return (n / 1048576).toFixed(1); }

  // Hangul as keys typed (jamo) and as initial consonants, for card-name completion (별ㅁ → 별마대, ㅂㅁㄷ → 별마대)
  var CHO = "ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ";
  var JUNG = ["ㅏ", "ㅐ", "ㅑ", "ㅒ", "ㅓ", "ㅔ", "ㅕ", "ㅖ", "ㅗ", "ㅗㅏ", "ㅗㅐ", "ㅗㅣ", "ㅛ", "ㅜ", "ㅜㅓ", "ㅜㅔ", "ㅜㅣ", "ㅠ", "ㅡ", "ㅡㅣ", "ㅣ"];
  var JONG = ["", "ㄱ", "ㄲ", "ㄱㅅ", "ㄴ", "ㄴㅈ", "ㄴㅎ", "ㄷ", "ㄹ", "ㄹㄱ", "ㄹㅁ", "ㄹㅂ", "ㄹㅅ", "ㄹㅌ", "ㄹㅍ", "ㄹㅎ", "ㅁ", "ㅂ", "ㅂㅅ", "ㅅ", "ㅆ", "ㅇ", "ㅈ", "ㅊ", "ㅋ", "ㅌ", "ㅍ", "ㅎ"];
  function jamo(s) {
    var out = "";
    for (var i = 0; i < s.length; i++) {
      var c = s.charCodeAt(i);
      if (c >= 0xac00 && c <= 0xd7a3) {
        var k = c - 0xac00;
        out += CHO.charAt(Math.floor(k / 588)) + JUNG[Math.floor((k % 588) / 28)] + JONG[k % 28];
      } else if (s.charAt(i) !== " ") out += s.charAt(i).toLowerCase();
    }
    return out;
  }
  function initials(s) {
    var out = "";
    for (var i = 0; i < s.length; i++) {
      var c = s.charCodeAt(i);
      if (c >= 0xac00 && c <= 0xd7a3) out += CHO.charAt(Math.floor((c - 0xac00) / 588));
    }
    return out;
  }

  // the cards' names, for completion
  var CARDS = (DATA.cards || []).map(function (c) { return {name: c[0], kind: c[1], faction: c[2], jamo: jamo(c[0]), cho: initials(c[0])}; });

  // The engine answers with the command line's words; the page speaks a player's. The few command-line
  // phrases its messages can carry, said as this page names the same things (the command line itself
  // keeps its words: a collapsed 명령줄에서 note lists the command).
  var WEB_WORDS = [
    // (an example line is written as this page's keys write it: 대, not vs)
    [/예: flamer fight "([^"\n]*)"/g, function (_, line) { return "예: " + line.replace(/ vs /g, " 대 "); }],
    [/기물 vs 수비자 기물/g, "기물 대 수비자 기물"],
    [/\blv(\d+) hp(\d+) atk(\d+)\b/g, "레벨$1 체력$2 공격력$3"],
    [/--response #(\d+)/g, "대응턴 선언 $1번째 줄"], [/--battle #(\d+)/g, "(전투) 선언 $1번째 줄"],
    [/--stat "([^"\n]*)" 또는 /g, ""], [/줄에 적거나 --stat으로 넣어/g, "줄에 적거나 아래 칸에 넣어"],
    [/(^|[\s(])--response\b/g, "$1대응턴 선언"], [/(^|[\s(])--battle\b/g, "$1(전투) 선언"],
    [/(^|[\s(])-r(?=[\s,.)]|$)/gm, "$1대응턴 선언"], [/(^|[\s(])-b(?=[\s,.)]|$)/gm, "$1(전투) 선언"],
    [/(^|[\s(])--cell\b/g, "$1셀"], [/(^|[\s(])--as-of\b/g, "$1기준일"], [/(^|[\s(])--stat\b/g, "$1수치 칸"],
    [/(^|[\s(])--json\b/g, "$1JSON"], [/(^|[\s(])--full\b/g, "$1단계별 풀이"], [/(^|[\s(])--brief 없이/g, "$1단계별 풀이에서"],
    [/flamer scenario new ([^\s,.)]+)/g, "‘$1’ 틀"], [/flamer (fight|simulate|rule|search|card)( [^\n.]*)?/g, "판정기"]
  ];
  function webWords(s) {
    s = String(s);
    WEB_WORDS.forEach(function (w) { s = s.replace(w[0], w[1]); });
    return s;
  }
  function webText(root) {
    var walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT), nodes = [];
    while (walker.nextNode()) nodes.push(walker.currentNode);
    nodes.forEach(function (n) { var t = webWords(n.nodeValue); if (t !== n.nodeValue) n.nodeValue = t; });
  }

  // Citations (6.11 …, 해석 6.14-1 …, 2026-09-24 확정 …) after a 근거 — or anywhere in a list of cited
  // clauses — become links to their pages in this site (CITES: site.cite_links)
  var CITE_RE = /해석 \d+(?:\.\d+)*-\d+|\d{4}-\d{2}-\d{2} [가-힣]+|\d+(?:\.\d+)+/g;
  function linkify(root, everywhere) {
    var walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT), nodes = [];
    while (walker.nextNode()) nodes.push(walker.currentNode);
    nodes.forEach(function (n) {
      if (n.parentNode && n.parentNode.nodeName === "A") return;
      var s = n.nodeValue, from = everywhere || (n.parentNode && n.parentNode.closest && n.parentNode.closest(".refs"))
        ? 0 : s.indexOf("근거");
      if (from < 0) return;
      var out = [], last = 0, m;
      CITE_RE.lastIndex = from;
      while ((m = CITE_RE.exec(s))) {
        var href = Object.prototype.hasOwnProperty.call(CITES, m[0]) ? CITES[m[0]] : null;
        if (!href) continue;
        out.push(document.createTextNode(s.slice(last, m.index)));
        var a = document.createElement("a");
        a.href = href;
        a.className = "cite-link";
        a.textContent = m[0];
        out.push(a);
        last = m.index + m[0].length;
      }
      if (!out.length) return;
      out.push(document.createTextNode(s.slice(last)));
      var frag = document.createDocumentFragment();
      out.forEach(function (x) { frag.appendChild(x); });
      n.parentNode.replaceChild(frag, n);
    });
  }

  // ------------------------------------------------------------------- the bar ----
  // What the page stands at (for its look and for tests): data-state idle | waiting | busy | typing |
  // done | forbidden | ask | error | damaged | unavailable; data-hash the link of the input it is for;
  // data-key the job's key
  function answerState(state, job) {
    el.bar.setAttribute("data-state", state);
    el.bar.setAttribute("data-hash", writtenHash || "");
    if (job) el.bar.setAttribute("data-key", job.key); else el.bar.removeAttribute("data-key");
  }
  function barKind(kind) {
    el.bar.setAttribute("data-kind", kind);
    show(el.barGap, false);
    el.bar.classList.remove("stale");
    clearTimeout(busyTimer);
    if (kind !== "verdict") { el.bar.removeAttribute("data-side"); el.bar.style.removeProperty("--win"); }
  }
  function stateLine(message) {
    el.state.textContent = message || "";
  }
  function stale(message) {
    el.bar.classList.add("stale");
    stateLine(message);
  }
  // the bar with a message and no answer (idle, waiting for the engine, unavailable)
  function barMessage(kind, message) {
    barKind(kind);
    show(el.verdict, false); show(el.error, false); show(el.ask, false);
    clear(el.verdict);
    stateLine(message);
  }
  function barLines(kind, lines, side) {
    barKind(kind);
    clear(el.verdict);
    lines.forEach(function (l, i) {
      var p = text("p", webWords(l));
      if (kind === "forbidden" && i === 0) {
        var m = /^불가 — /.exec(p.textContent);
        p.textContent = m ? p.textContent.slice(m[0].length) : p.textContent;
        p.insertBefore(document.createTextNode(" "), p.firstChild);   // (copied as text: "불가 …")
        p.insertBefore(text("span", "불가", "calc-ruling"), p.firstChild);
      }
      el.verdict.appendChild(p);
    });
    linkify(el.verdict);
    if (side && /^#[0-9a-fA-F]{6}$/.test(side.colour || "")) {
      el.bar.setAttribute("data-side", side.side);
      el.bar.style.setProperty("--win", side.colour);
    }
    show(el.verdict, lines.length > 0); show(el.error, false);
    stateLine("");
  }
  function barError(kind, message, code, job) {
    barKind(kind);
    clear(el.error);
    el.error.textContent = webWords(String(message || "").replace(/\s+$/, ""));
    linkify(el.error);
    el.error.setAttribute("data-code", code || "error");
    if (job) el.error.setAttribute("data-key", job.key); else el.error.removeAttribute("data-key");
    show(el.error, true); show(el.verdict, false); show(el.ask, false);
    stateLine("");
  }

  // --------------------------------------------------------------- the summary ----
  function showNothing() {
    show(el.summary, false);
    [el.reasons, el.gaps, el.assumed, el.notices].forEach(function (n) { show(n, false); });
    clear(el.storyHostRoot());
    el.bar.engine = null;
    el.jsonOut.textContent = "";
    el.jsonOut.removeAttribute("data-key");
    shown = null;
    shownPage = null;
    el.verdict.removeAttribute("data-key");
  }
  el.storyHostRoot = function () {
    if (!el.storyHost.shadowRoot) el.storyHost.attachShadow({mode: "open"});
    return el.storyHost.shadowRoot;
  };
  function listPart(part, items) {
    var ul = part.querySelector("ul");
    clear(ul);
    items.forEach(function (li) {
      var n = document.createElement("li");
      while (li.firstChild) n.appendChild(document.importNode(li.firstChild, true)), li.removeChild(li.firstChild);
      ul.appendChild(n);
    });
    webText(ul);
    linkify(ul);
    show(part, items.length > 0);
  }
  function showNotices(stderr) {
    clear(el.notices);
    var lines = (stderr || "").replace(/\s+$/, "").split("\n").filter(function (l) { return l.trim(); });
    lines.forEach(function (l) { el.notices.appendChild(text("p", webWords(l))); });
    show(el.notices, lines.length > 0);
  }

  // The engine's page (--format html): read with DOMParser (no script of it runs), stripped of what is
  // not plain content, and taken apart — the verdict for the bar, the reasons, what is uncertain and what
  // was assumed for the summary, the rest (pictures, tables, steps, citations) for the explanation
  var DROP = "script, iframe, object, embed, link, meta, base, form, input, button, textarea, select, noscript, template";
  function parsePage(html) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    Array.prototype.forEach.call(doc.querySelectorAll(DROP), function (n) { n.parentNode.removeChild(n); });
    Array.prototype.forEach.call(doc.querySelectorAll("*"), function (n) {
      for (var i = n.attributes.length - 1; i >= 0; i--) {
        var a = n.attributes[i].name.toLowerCase();
        if (a.indexOf("on") === 0 || a === "href" || a === "src" || a === "xlink:href" || a === "srcdoc" || a === "action") {
          n.removeAttribute(n.attributes[i].name);
        }
      }
    });
    var out = {lines: [], side: null, reasons: [], gaps: [], assumed: [], link: null, style: "", main: null};
    var v = doc.querySelector("section.verdict");
    if (v) {
      out.lines = Array.prototype.map.call(v.querySelectorAll("p"), function (p) { return p.textContent.trim(); })
        .filter(function (l) { return l; });
      if (v.getAttribute("data-side")) out.side = {side: v.getAttribute("data-side"), colour: v.getAttribute("data-colour")};
    }
    var linkP = doc.querySelector("p.calc-link");
    var linkA = doc.querySelector("p.calc-link a");
    if (linkP) {
      out.link = linkP.textContent.replace(/^[^:]*:\s*/, "").trim();   // (the href is gone: read from the text)
      linkP.parentNode.removeChild(linkP);
    }
    if (linkA) out.link = linkA.textContent.trim();
    function take(selector) {
      var nodes = Array.prototype.slice.call(doc.querySelectorAll(selector));
      nodes.forEach(function (n) { if (n.parentNode) n.parentNode.removeChild(n); });
      return nodes;
    }
    take("section.reasons").forEach(function (s) { out.reasons = out.reasons.concat(Array.prototype.slice.call(s.querySelectorAll("li"))); });
    take("section.gaps").forEach(function (s) { out.gaps = out.gaps.concat(Array.prototype.slice.call(s.querySelectorAll("li"))); });
    take("section.assumed").forEach(function (s) { out.assumed = out.assumed.concat(Array.prototype.slice.call(s.querySelectorAll("li"))); });
    take(".verdict-slot, section.verdict, footer, header .kind");
    var story = doc.querySelector("details.story");
    if (story) {   // the page's own fold: this page folds the whole explanation itself
      var sum = story.querySelector("summary");
      if (sum) story.removeChild(sum);
      while (story.firstChild) story.parentNode.insertBefore(story.firstChild, story);
      story.parentNode.removeChild(story);
    }
    var style = doc.querySelector("style");
    out.style = style ? style.textContent : "";
    out.main = doc.querySelector("main") || doc.body;
    return out;
  }
  var STORY_CSS = ":host { display: block; } .page { color: var(--ink); line-height: 1.6; background: transparent; }" +
    " main { max-width: none; min-height: 0; margin: 0; padding: .2rem 0 1rem; background: transparent; }" +
    " main > header h1 { font-size: 1.1rem; } h2 { margin-top: 1.3rem; } a.cite-link { color: #1a4f8b; }" +
    " @media (max-width: 40rem) { main { padding: .2rem 0 1rem; } }";
  function showStory(page, job) {
    var root = el.storyHostRoot();
    clear(root);
    var style = document.createElement("style");
    // the engine page's style, for a shadow root: its :root is the host, its body the wrapper
    style.textContent = page.style.replace(/:root\b/g, ":host").replace(/(^|[\s,}])body(\s*[{,])/g, "$1.page$2") + STORY_CSS;
    root.appendChild(style);
    var wrap = document.createElement("div");
    wrap.className = "page";
    wrap.setAttribute("lang", "ko");
    var main = document.importNode(page.main, true);
    if (job.kind === "fight") {   // its title is the line above
      var h1 = main.querySelector("header h1");
      if (h1) h1.parentNode.removeChild(h1);
    }
    wrap.appendChild(main);
    webText(wrap);
    linkify(wrap);
    root.appendChild(wrap);
  }
  function showPage(job, res) {
    shown = job;
    var page = parsePage(res.stdout);
    shownPage = page;
    el.bar.engine = res;   // (what the engine answered, whole: for tests)
    barLines("verdict", page.lines, page.side);
    el.verdict.setAttribute("data-key", job.key);
    showNotices(res.stderr);
    listPart(el.reasons, page.reasons);
    listPart(el.gaps, page.gaps);
    // the first thing the verdict is not sure of, in the bar too: it may change the verdict
    clear(el.barGap);
    if (page.gaps.length) {
      el.barGap.appendChild(text("span", "확실하지 않음", "badge gap"));
      el.barGap.appendChild(document.createTextNode(" " + el.gaps.querySelector("li").textContent.trim() +
        (page.gaps.length > 1 ? " (외 " + (page.gaps.length - 1) + "건은 아래)" : "")));
      show(el.barGap, true);
    }
    listPart(el.assumed, page.assumed);
    showStory(page, job);
    show(el.summary, true);
    if (job.kind === "scenario" && page.link) {
      var frag = page.link.split("#")[1] || "";
      if (frag) scenarioLinks[job.stdin] = frag;
      // into the address — unless another link was put there meanwhile (its hashchange is on its way)
      if (el.y.value === job.stdin && window.location.hash.replace(/^#/, "") === (writtenHash || "")) writeHash();
    }
    cliLine(job);
  }
  function cliLine(job) {
    function q(a) { return /^[A-Za-z0-9_,.:\/=-]+$/.test(a) ? a : "'" + String(a).replace(/'/g, "'\\''") + "'"; }
    var argv = job.argv.slice();
    el.cliLine.textContent = job.kind === "scenario" ? "flamer simulate 시나리오.yaml\n(이 시나리오를 파일로 저장해서)"
                                                     : "flamer " + argv.map(q).join(" ");
  }

  // -------------------------------------------------------------- the inputs ----
  function addRow(kind, value, focus) {
    var li = document.createElement("li");
    li.className = "calc-row";
    var input = document.createElement("input");
    input.type = "text";
    input.className = "calc-decl";
    input.autocomplete = "off";
    input.spellcheck = false;
    input.setAttribute("autocapitalize", "off");
    input.setAttribute("aria-label", kind === "r" ? "대응턴 선언" : "(전투) 선언");
    input.placeholder = kind === "r" ? "수비자 재부팅 행성굴착기" : "공격자 피의장막";
    input.value = value || "";
    input.addEventListener("input", edited);
    var del = document.createElement("button");
    del.type = "button";
    del.className = "calc-del";
    del.textContent = "×";
    del.setAttribute("aria-label", "이 선언 지우기");
    del.addEventListener("click", function () {
      li.parentNode.removeChild(li);
      show(el.boxes[kind], el.rows[kind].children.length > 0);
      edited();
    });
    li.appendChild(input);
    li.appendChild(del);
    el.rows[kind].appendChild(li);
    show(el.boxes[kind], true);
    optsCount();
    if (focus) { el.opts.open = true; input.focus(); }
    return input;
  }
  function rowValues(kind) {
    var out = [];
    el.rows[kind].querySelectorAll("input").forEach(function (i) { if (!FlamerLink.blank(i.value)) out.push(i.value); });
    return out;
  }
  function setRows(kind, values) {
    clear(el.rows[kind]);
    values.forEach(function (v) { addRow(kind, v); });
    show(el.boxes[kind], values.length > 0);
    optsCount();
  }
  function optsCount() {
    var n = el.rows.r.children.length + el.rows.b.children.length;
    var extra = [];
    if (n) extra.push("선언 " + n + "개");
    if (el.cell.value.trim() && el.cell.value.trim() !== DEFAULT_CELL) extra.push("셀 " + el.cell.value.trim());
    if (el.asOf.value.trim()) extra.push("기준일 " + el.asOf.value.trim());
    el.optsCount.textContent = extra.length ? "— " + extra.join(", ") : "";
  }

  // The stats the player gave, for the pieces of cards the line names (a row for a card no longer in
  // the line stays on the page, unused, and comes back when the card does)
  // a name counts as written only as a whole word: 개미 is not in 개미굴, so a value remembered for
  // one card never travels as a --stat to a fight without it
  function named(name, words) {
    if (!name) return false;
    var from = 0, at;
    while ((at = words.indexOf(name, from)) >= 0) {
      var before = at > 0 ? words.charAt(at - 1) : "", after = words.charAt(at + name.length);
      if (!/[가-힣A-Za-z]/.test(before) && !/[가-힣A-Za-z]/.test(after)) return true;
      from = at + 1;
    }
    return false;
  }
  function mentioned(row, words) {
    return named(row.card, words) || named(row.label, words);
  }
  // the value exactly as typed (never through a JavaScript number: 23 digits stay 23 digits, and the
  // engine answers them as the CLI does)
  function statValue(row) {
    var v = row.input.value.trim();
    return /^-?\d+$/.test(v) ? v : null;
  }
  // Which rows are used (the cards the fight names) and where each shows: a question in the bar while
  // it is asked and unanswered, the player's own values in the summary
  function activeStats(words) {
    var out = [];
    statRows.forEach(function (row) {
      var on = mentioned(row, words);
      row.on = on;
      var v = statValue(row);
      row.node.classList.toggle("filled", v !== null);
      // the stat as the link named it (체력, hp …), so that a link comes back unchanged
      if (on && v !== null) out.push({row: row, spec: (row.card || row.label) + " " + (row.word || row.stat) + " " + v, value: v});
    });
    placeStats();
    return out;
  }
  function placeStats() {
    var asking = false, mine = false;
    statRows.forEach(function (row) {
      var question = row.on && asked[row.key] && (askShown || row.input === document.activeElement) &&
                     (statValue(row) === null || row.input === document.activeElement);
      var target = question ? el.askRows : el.statRows;
      row.node.className = "calc-stat" + (question ? " calc-ask-row" : "") + (statValue(row) !== null ? " filled" : "");
      row.label.textContent = question ? (row.card || row.label_) + "의 " + (STAT_KO[row.stat] || row.stat) + "은?"
                                       : (row.card || row.label_) + " " + (STAT_KO[row.stat] || row.stat);
      show(row.whyNode, question && !!row.why);
      if (row.node.parentNode !== target && row.input !== document.activeElement) target.appendChild(row.node);
      row.node.hidden = !row.on;
      if (row.on && row.node.parentNode === el.askRows) asking = true;
      if (row.on && row.node.parentNode === el.statRows) mine = true;
    });
    show(el.ask, asking);
    show(el.ask.querySelector(".calc-ask-note"), statRows.some(function (r) {
      return r.on && r.node.parentNode === el.askRows && statValue(r) === null; }));
    show(el.mine, mine);
    if (mine) show(el.summary, true);
  }
  function addStatRow(card, label, stat, value) {
    var key = (card || label) + "|" + stat;
    for (var i = 0; i < statRows.length; i++) if (statRows[i].key === key) return statRows[i];
    var li = document.createElement("li");
    li.className = "calc-stat";
    li.setAttribute("data-card", card || label);
    li.setAttribute("data-stat", stat);
    var id = "calc-stat-" + statRows.length;
    var lab = document.createElement("label");
    lab.htmlFor = id;
    var input = document.createElement("input");
    input.type = "text";
    input.id = id;
    input.className = "calc-stat-value";
    input.setAttribute("inputmode", "numeric");
    input.setAttribute("autocomplete", "off");
    input.setAttribute("enterkeyhint", "done");
    input.value = value == null ? "" : String(value);
    var why = text("p", "", "calc-ask-why");
    why.hidden = true;
    var row = {key: key, card: card, label_: label, stat: stat, node: li, input: input, label: lab, whyNode: why, on: false};
    input.addEventListener("input", function () {
      var v = statValue(row);
      if (v !== null) storeSet(key, v);
      else if (!input.value.trim()) storeSet(key, null);
      var out = askShown;
      edited();
      submitted = true;   // a number is an answer, not a line half typed: what follows is said at once
      askShown = out;     // (and the other questions stay where they are)
    });
    input.addEventListener("keydown", function (ev) { if (ev.key === "Enter") { ev.preventDefault(); submit(); } });
    input.addEventListener("blur", function () { setTimeout(placeStats, 0); });
    li.appendChild(lab);
    li.appendChild(input);
    li.appendChild(why);
    el.statRows.appendChild(li);
    statRows.push(row);
    return row;
  }
  // "개미 hp 2", "잠식된 석산 체력 3": the card is what comes before the last two words
  function parseStatSpec(spec) {
    var m = /^\s*(.+?)\s+(\S+)\s+(-?\d+)\s*$/.exec(spec);
    if (!m) return null;
    var stat = STAT_ALIAS[m[2].toLowerCase()] || STAT_ALIAS[m[2]];
    return stat ? {card: m[1], stat: stat, word: m[2], value: m[3]} : null;
  }

  function fightInput() {
    return {q: el.q.value, r: rowValues("r"), b: rowValues("b"),
            cell: el.cell.value.trim() || DEFAULT_CELL, asOf: el.asOf.value.trim()};
  }
  function siteRoot() {
    return window.location.href.split("#")[0].split("?")[0].replace(/\/[^\/]*$/, "");
  }

  // What to compute now: {kind, argv (without --format / --json), stdin, key, stats}, or null
  function currentJob() {
    if (mode === "scenario") {
      var y = el.y.value;
      if (!y.trim()) return null;
      return {kind: "scenario", argv: ["simulate", "-"], stdin: y, key: "y\u0000" + y, stats: []};
    }
    var f = fightInput();
    var words = [f.q].concat(f.r, f.b).join("\n");
    var stats = activeStats(words);
    if (FlamerLink.blank(f.q)) return null;
    var opts = [];
    f.r.forEach(function (v) { opts.push("-r", v); });
    f.b.forEach(function (v) { opts.push("-b", v); });
    if (f.cell !== DEFAULT_CELL) opts.push("--cell", f.cell);
    stats.forEach(function (s) { opts.push("--stat", s.spec); });
    rawStats.forEach(function (spec) { opts.push("--stat", spec); });
    if (f.asOf || siteAsOf) opts.push("--as-of", f.asOf || siteAsOf);
    // a line that starts with '-' would be read as an option: after '--' it is the line
    var argv = f.q.charAt(0) === "-" ? ["fight"].concat(opts, ["--", f.q]) : ["fight", f.q].concat(opts);
    return {kind: "fight", argv: argv, stdin: undefined, key: JSON.stringify(argv), stats: stats};
  }

  // ----------------------------------------------------------------- the link ----
  // The fragment of the link of what is in the page: a fight's as FlamerLink writes it; a scenario's as
  // the engine made it (simulate --link: compressed), or the link it was opened from. "" none (yet),
  // null too long for an address.
  function hashOf() {
    if (mode === "scenario") {
      var y = el.y.value;
      if (!y.trim()) return "";
      var h = opened && opened.y === y ? opened.frag : (scenarioLinks[y] || "");
      return h.length > HASH_MAX ? null : h;
    }
    var f = fightInput();
    if (FlamerLink.blank(f.q)) return "";   // no line, no fight: nothing to link (a link without q is damaged)
    var parts = ["q=" + enc(f.q)];
    f.r.forEach(function (v) { parts.push("r=" + enc(v)); });
    f.b.forEach(function (v) { parts.push("b=" + enc(v)); });
    if (f.cell !== DEFAULT_CELL) parts.push("cell=" + enc(f.cell));
    activeStats([f.q].concat(f.r, f.b).join("\n")).forEach(function (s) { parts.push("stat=" + enc(s.spec)); });
    rawStats.forEach(function (spec) { parts.push("stat=" + enc(spec)); });
    if (f.asOf) parts.push("as_of=" + enc(f.asOf));
    var h2 = parts.join("&");
    return h2.length > HASH_MAX ? null : h2;
  }
  function writeHash() {
    var h = hashOf();
    el.linkStatus.textContent = h === null ? "시나리오가 길어 링크에 담지 않았습니다. 파일로 보내 주세요." : "";
    if (h === null) h = "";
    writtenHash = h;
    try {
      history.replaceState(null, "", h ? "#" + h : window.location.pathname + window.location.search);
    } catch (e) { /* some browsers refuse it for file:// */ }
  }
  // The link in the address (FlamerLink.readAsync): filled into the inputs, or, damaged, nothing at all —
  // the inputs emptied, the damage said (compute), the address left as it is. Resolves false: no link.
  function openLink() {
    var raw = window.location.hash.replace(/^#/, "");
    var quick = FlamerLink.read(raw);
    if (quick.kind === "none") return Promise.resolve(false);
    if (quick.kind === "packed") barMessage("loading", "링크를 여는 중…");
    return FlamerLink.readAsync(raw).then(function (link) {
      if (window.location.hash.replace(/^#/, "") !== raw) return false;   // another link meanwhile
      damaged = link.kind === "damaged" ? link : null;
      opened = null;
      submitted = true;
      if (damaged) {
        writtenHash = raw;
        el.y.value = "";
        fillFrom({kind: damaged.key === "y" ? "scenario" : "fight", y: "", q: "", r: [], b: [], cell: DEFAULT_CELL,
                  stat: [], as_of: null});
        return true;
      }
      if (link.kind === "scenario") opened = {y: link.y, frag: raw};
      fillFrom(link);
      return true;
    });
  }
  function fillFrom(link) {
    if (link.kind === "scenario") {
      setMode("scenario");
      el.y.value = link.y;
      return;
    }
    setMode("fight");
    // a link is the whole input: the stats it gives and no others
    statRows.forEach(function (row) { if (row.node.parentNode) row.node.parentNode.removeChild(row.node); });
    statRows = [];
    asked = {};
    rawStats = [];
    el.q.value = link.q;
    setRows("r", link.r);
    setRows("b", link.b);
    el.cell.value = link.cell;
    el.asOf.value = link.as_of || "";
    el.opts.open = link.r.length + link.b.length > 0 || link.cell !== DEFAULT_CELL || !!link.as_of;
    optsCount();
    link.stat.forEach(function (spec) {
      var s = parseStatSpec(spec);
      if (!s) { rawStats.push(spec); return; }
      var row = addStatRow(s.card, s.card, s.stat, s.value);
      row.word = s.word;
      row.input.value = s.value;   // the link's value wins over one remembered on this device
    });
  }

  // ------------------------------------------------------------------- engine ----
  function setEngine(state, message, help) {
    engine.state = state;
    el.status.setAttribute("data-state", state);
    el.statusText.textContent = message;
    show(el.progress, state === "loading");
    el.help.textContent = help || "";
    show(el.help, !!help);
  }
  function onProgress(p) {
    if (!p || engine.ready) return;
    var phase = PHASE_KO[p.phase] || "준비하는 중";
    var amount = "";
    if (p.total > 0) {
      el.progress.max = p.total;
      el.progress.value = Math.min(p.loaded || 0, p.total);
      amount = p.phase === "download" ? " (" + mb(p.loaded || 0) + " / " + mb(p.total) + " MB)"
                                      : " (" + Math.round(100 * (p.loaded || 0) / p.total) + "%)";
    } else {
      el.progress.removeAttribute("value");
    }
    el.statusText.textContent = "판정기 준비 중… " + phase + amount;
  }
  var SERVE_HELP = "사이트를 웹 서버로 열어 주세요: flamer site 폴더 --serve 로 열거나, 폴더를 아무 정적 호스팅에 " +
                   "올리거나, 폴더에서 python3 -m http.server 를 실행하고 http://localhost:8000/판정기.html 을 엽니다. " +
                   "규칙 읽기와 검색은 지금 이대로도 됩니다.";
  function loadEngineScript() {
    return new Promise(function (resolve, reject) {
      if (window.FlamerEngine) { resolve(window.FlamerEngine); return; }
      var s = document.createElement("script");
      s.src = "assets/engine.js";
      s.onload = function () { if (window.FlamerEngine) resolve(window.FlamerEngine); else reject(new Error("absent")); };
      s.onerror = function () { reject(new Error("absent")); };
      document.head.appendChild(s);
    });
  }
  function unavailable() {
    if (!damaged) {
      barMessage("idle", "판정기 엔진이 없어 판정하지 못합니다 (위 안내를 보세요).");
      answerState("unavailable", null);
    }
  }
  function startEngine() {
    if (window.location.protocol === "file:") {
      setEngine("unavailable", "파일로 연 페이지(file://)에서는 브라우저가 판정기 엔진을 막아 판정할 수 없습니다.", SERVE_HELP);
      unavailable();
      return;
    }
    loadEngineScript().then(function (E) {
      if (E.asOf) {
        siteAsOf = String(E.asOf);
        el.asOf.placeholder = siteAsOf;
      }
      return E.start(onProgress);
    }, function () {
      setEngine("unavailable", "이 사이트는 판정기 엔진 없이 만들어졌습니다(assets/engine.js가 없음).",
                "사이트를 만든 사람이 판정기 엔진(Pyodide " + (el.status.getAttribute("data-pyodide") || "") +
                ")을 넣어 다시 만들면 이 페이지에서 판정합니다. 규칙 읽기와 검색은 지금도 됩니다.");
      unavailable();
      throw null;
    }).then(function () {
      engine.ready = true;
      setEngine("ready", "판정기 준비됨 — 이 기기 안에서 판정합니다.");
      compute();
    }, function (err) {
      if (err === null) return;
      var msg = err && err.message ? err.message : String(err);
      setEngine("failed", "판정기 엔진을 시작하지 못했습니다: " + msg, "페이지를 새로 고쳐 보세요. 계속되면 " + SERVE_HELP);
      unavailable();
    });
  }
  // The engine's answer to argv; the run belongs to the latest computation and is cancelled when a newer
  // one starts (FlamerEngine stops a run it is busy with, so a heavy scenario never holds up a fight
  // typed after it). A run longer than FlamerEngine.timeLimitMs is stopped: rejected with reason "timeout".
  function run(argv, stdin) {
    var p = window.FlamerEngine.run(argv, stdin);
    running.push(p);
    return p;
  }
  function cancelRunning() {
    running.forEach(function (p) { if (p.cancel) p.cancel(SUPERSEDE_MS); });
    running = [];
    under = null;
  }
  // what the page says when the engine ran out of time: what to make smaller
  function tooLong(job, e) {
    var s = Math.max(1, Math.round(((e && e.limitMs) || 10000) / 1000));
    return job.kind === "scenario"
      ? "판정이 " + s + "초 안에 끝나지 않아 멈췄습니다. 이 기기에서 풀기에는 시나리오가 너무 큽니다 — 라운드 수나 " +
        "셀·기물 수를 줄이거나 여러 시나리오로 나눠서 다시 넣어 보세요."
      : "판정이 " + s + "초 안에 끝나지 않아 멈췄습니다. 기물이나 선언을 줄여서 다시 넣어 보세요.";
  }
  function isTimeout(e) { return !!(e && e.reason === "timeout"); }

  // ------------------------------------------------------------------ answers ----
  // a damaged link: what is wrong, and nothing else (no verdict, no explanation, the address as it was)
  function showDamaged() {
    showNothing();
    el.linkStatus.textContent = "";
    barError("damaged", FlamerLink.message(damaged), "damaged-link", null);
    answerState("damaged", null);
  }
  function idleLine() {
    return mode === "fight" ? "전투를 적으면 여기에 판정이 나옵니다." : "시나리오를 붙여 넣거나 틀로 시작하면 여기에 판정이 나옵니다.";
  }

  function rememberJson(job, res) {
    jsonCache[job.key] = res;
    jsonKeys.push(job.key);
    if (jsonKeys.length > 20) delete jsonCache[jsonKeys.shift()];
  }
  function showJson(job, res) {
    el.jsonOut.textContent = res.stdout ? res.stdout.replace(/\s+$/, "") : (res.stderr || "").replace(/\s+$/, "");
    el.jsonOut.setAttribute("data-key", job.key);
    el.jsonOut.setAttribute("data-code", String(res.code));
  }
  function loadJson(my) {
    var job = shown;
    if (!job || !el.json.open || el.jsonOut.getAttribute("data-key") === job.key) return;
    if (jsonCache[job.key]) { showJson(job, jsonCache[job.key]); return; }
    el.jsonOut.textContent = "JSON 계산 중…";
    el.jsonOut.removeAttribute("data-key");
    run(job.argv.concat(["--json"]), job.stdin).then(function (res) {
      rememberJson(job, res);
      if (my === seq && shown === job) showJson(job, res);
    }, function (e) {   // (the computation itself reports a broken engine)
      if (my === seq && shown === job && isTimeout(e)) el.jsonOut.textContent = tooLong(job, e);
    });
  }

  // The 미상 stats a fight needs: a row for each (card, stat), filled from this device's memory; true
  // when a value the last run lacked is there now (then the fight is computed again at once)
  function askStats(missing, job) {
    var saved = storeGet(), gained = false;
    asked = {};
    var passed = {};
    job.stats.forEach(function (s) { passed[s.row.key] = true; });
    missing.forEach(function (m) {
      if (!m || !m.stat) return;
      var before = statRows.length;
      var row = addStatRow(m.card || null, m.label || m.card || "", m.stat, null);
      if (statRows.length > before && saved[row.key] != null) row.input.value = saved[row.key];
      row.why = m.why ? String(m.why) + "." : "";
      row.whyNode.textContent = row.why;
      asked[row.key] = true;
      if (statValue(row) !== null && !passed[row.key]) gained = true;
    });
    var f = fightInput();
    activeStats([f.q].concat(f.r, f.b).join("\n"));
    return gained;
  }
  // the first unanswered question takes the focus — after Enter, a link, an example or a button, or when
  // no field of the fight has it; never from the line while the player types in it (Enter in the line
  // then moves there)
  function focusAsk() {
    var first = statRows.filter(function (r) { return r.node.parentNode === el.askRows && !r.node.hidden && statValue(r) === null; })[0];
    if (!first) return false;
    var active = document.activeElement;
    var typing = active === el.q || (active && active.classList && active.classList.contains("calc-decl"));
    if (typing && !submitted) return false;
    first.input.focus({preventScroll: true});
    keepInView();
    return true;
  }

  // A failure the player should see: at once after Enter, a link or a button; after a pause while typing
  // (an unfinished line is not a mistake yet: the last verdict stays, greyed, with a gentle word)
  function reveal(job, fn) {
    clearTimeout(revealTimer);
    var wait = submitted ? 0 : lastEdit + ERROR_PAUSE_MS - now();
    if (wait <= 0) { fn(); return; }
    stale(mode === "fight" ? "입력 중… 줄을 마저 적으면 판정합니다." : "입력 중… 시나리오를 마저 적으면 판정합니다.");
    answerState("typing", job);
    revealTimer = setTimeout(fn, wait);
  }

  function compute() {
    clearTimeout(timer);
    clearTimeout(revealTimer);
    var my = ++seq;
    if (damaged) { cancelRunning(); showDamaged(); return; }
    askShown = el.bar.getAttribute("data-state") === "ask" && askShown;
    var job = currentJob();
    writeHash();
    if (!job) {
      cancelRunning();
      showNothing();
      placeStats();
      barMessage("idle", idleLine());
      answerState("idle", null);
      return;
    }
    if (!engine.ready) {
      if (engine.state === "loading") {
        barMessage("loading", "판정기 준비 중 — 적어 두면 준비되는 대로 판정합니다.");
        answerState("waiting", job);
      } else unavailable();
      return;
    }
    if (under && under.key === job.key) {   // the same input again (a tab, Enter): its answer is on its way
      under.seq = my;
      answerState("busy", job);
      return;
    }
    cancelRunning();
    var ticket = under = {key: job.key, seq: my};
    function latest() { return ticket.seq === seq; }   // no newer input since
    function over() { if (under === ticket) under = null; }
    answerState("busy", job);
    clearTimeout(busyTimer);
    // (greyed and said only when it takes a while: a verdict a moment away does not blink)
    busyTimer = setTimeout(function () { if (latest() && under === ticket) stale("판정 중…"); }, BUSY_SHOWN_MS);
    var argv = job.argv.concat(["--format", "html"]);
    if (job.kind === "scenario") argv.push("--link", "--site-url", siteRoot());
    run(argv, job.stdin).then(function (res) {
      if (!latest()) return null;
      if (res.code === 0) {
        over();
        clearTimeout(busyTimer);
        asked = {};
        showPage(job, res);
        placeStats();
        answerState("done", job);
        loadJson(seq);
        return null;
      }
      // a failure: its code (and the stats it lacks) from the --json answer
      return run(job.argv.concat(["--json"]), job.stdin).then(function (js) {
        if (!latest()) return;
        over();
        clearTimeout(busyTimer);
        rememberJson(job, js);
        var obj = null;
        try { obj = JSON.parse(js.stdout); } catch (e) { obj = null; }
        var err = obj && obj.error ? obj.error : null;
        if (err && err.code === "missing-stats" && Array.isArray(err.missing)) {
          if (askStats(err.missing, job)) { compute(); return; }
          if (statRows.some(function (r) { return r.on && asked[r.key]; })) {
            reveal(job, function () {
              if (!latest()) return;
              shown = job;
              showNothing();
              shown = job;
              el.bar.engine = res;
              askShown = true;
              barKind("ask");
              show(el.verdict, false); show(el.error, false);
              stateLine("");
              placeStats();
              answerState("ask", job);
              focusAsk();
              keepInView();
              if (el.json.open) showJson(job, js);
            });
            return;
          }
        }
        reveal(job, function () {
          if (!latest()) return;
          shown = job;
          showNothing();
          shown = job;
          el.bar.engine = res;
          placeStats();
          if (err && err.code === "forbidden") {
            var lines = (res.stderr || err.message || "").replace(/\s+$/, "").split("\n").map(function (l) { return l.trim(); })
              .filter(function (l) { return l; });
            barLines("forbidden", lines, null);
            el.verdict.setAttribute("data-key", job.key);
            el.error.setAttribute("data-code", "forbidden");
            answerState("forbidden", job);
            cliLine(job);
            show(el.summary, true);
          } else {
            barError("error", res.stderr || res.stdout, err && err.code, job);
            answerState("error", job);
          }
          if (el.json.open) showJson(job, js);
        });
      });
    }).catch(function (e) {
      if (!latest()) return;
      over();
      clearTimeout(busyTimer);
      showNothing();
      if (isTimeout(e)) barError("error", tooLong(job, e), "timeout", job);
      else barError("error", "판정기 엔진이 답하지 못했습니다: " + (e && e.message ? e.message : String(e)) +
                             "\n페이지를 새로 고쳐 보세요.", "engine", job);
      answerState("error", job);
    });
  }
  function edited() {
    damaged = null;
    askShown = false;
    rawStats = [];
    submitted = false;
    lastEdit = now();
    optsCount();
    writeHash();
    clearTimeout(timer);
    timer = setTimeout(compute, DEBOUNCE_MS);
  }
  function submit() {
    submitted = true;
    clearTimeout(timer);
    compute();
  }

  // -------------------------------------------------------------------- modes ----
  function setMode(m) {
    mode = m;
    el.tabFight.setAttribute("aria-selected", String(m === "fight"));
    el.tabScenario.setAttribute("aria-selected", String(m === "scenario"));
    show(el.fight, m === "fight");
    show(el.scenario, m === "scenario");
  }

  // ------------------------------------------------------ keeping the answer in view ----
  // With the keyboard up a phone shows some 500 px: the bar, the line and its keys are kept on screen
  // (the bar's top at the top of the screen) while a field of the fight is focused
  function keepInView() {
    var a = document.activeElement;
    if (!a || !(a === el.q || (a.classList && (a.classList.contains("calc-stat-value") || a.classList.contains("calc-decl"))))) return;
    var top = el.barTop.getBoundingClientRect().top;
    var vv = window.visualViewport, height = vv ? vv.height : window.innerHeight;
    var field = a.getBoundingClientRect(), bar = el.bar.getBoundingClientRect();
    var need = field.bottom + (a === el.q ? 56 : 8) - height;   // (the line's keys under it)
    if (top < -2 && field.top < bar.bottom) window.scrollTo(0, Math.max(0, window.scrollY + top));   // under the bar
    else if (need > 0 && top > 0) window.scrollTo(0, window.scrollY + Math.min(need, top));        // under the keyboard
  }
  var viewTimer = null;
  function keepSoon() { clearTimeout(viewTimer); viewTimer = setTimeout(keepInView, 60); }
  el.q.addEventListener("focus", keepSoon);
  if (window.visualViewport) window.visualViewport.addEventListener("resize", keepSoon);
  window.addEventListener("resize", keepSoon);

  // ------------------------------------------------------------ card completion ----
  // The line's piece being typed (after the last comma, 대/vs, or a side code's colon; not inside
  // brackets): its start and text
  function pieceAt(value, caret) {
    var head = value.slice(0, caret);
    if (/\([^)]*$/.test(head)) return null;   // inside a piece's brackets
    var cut = Math.max(head.lastIndexOf(","), head.lastIndexOf(":"), head.lastIndexOf(")"));
    var vs = /(?:^|\s)(?:vs|VS|대)\s/g, m;
    while ((m = vs.exec(head))) cut = Math.max(cut, m.index + m[0].length - 1);
    var start = cut + 1;
    while (start < caret && /\s/.test(value.charAt(start))) start++;
    var typed = value.slice(start, caret);
    if (!typed || /[×x*]\s*\d|\d\s*기$/.test(typed)) return null;
    return {start: start, typed: typed};
  }
  var sugIndex = -1, sugFor = null;
  function suggestions(typed) {
    var j = jamo(typed), exact = CARDS.filter(function (c) { return c.name === typed.trim(); });
    if (exact.length) return [];
    var out = CARDS.filter(function (c) { return j && c.jamo.indexOf(j) === 0; });
    if (/^[ㄱ-ㅎ]{2,}$/.test(typed)) out = out.concat(CARDS.filter(function (c) { return c.cho.indexOf(typed) === 0 && out.indexOf(c) < 0; }));
    if (j.length >= 4) out = out.concat(CARDS.filter(function (c) { return c.jamo.indexOf(j) > 0 && out.indexOf(c) < 0; }));
    return out.slice(0, 8);
  }
  function closeSuggest() {
    show(el.suggest, false);
    clear(el.suggest);
    el.q.setAttribute("aria-expanded", "false");
    el.q.removeAttribute("aria-activedescendant");
    sugIndex = -1;
    sugFor = null;
  }
  function openSuggest() {
    var at = pieceAt(el.q.value, el.q.selectionStart == null ? el.q.value.length : el.q.selectionStart);
    var list = at && at.typed.length >= 1 ? suggestions(at.typed) : [];
    if (!list.length) { closeSuggest(); return; }
    clear(el.suggest);
    sugFor = at;
    sugIndex = -1;
    list.forEach(function (c, i) {
      var li = document.createElement("li");
      li.setAttribute("role", "option");
      li.id = "calc-sug-" + i;
      li.setAttribute("aria-selected", "false");
      li.setAttribute("data-name", c.name);
      li.appendChild(text("span", c.name, "calc-sug-name"));
      li.appendChild(text("span", c.kind + (c.faction ? " · " + c.faction : ""), "calc-sug-kind"));
      // pointerdown: chosen before the field loses its focus (the keyboard stays up)
      li.addEventListener("pointerdown", function (ev) { ev.preventDefault(); choose(c.name); });
      li.addEventListener("click", function (ev) { ev.preventDefault(); if (sugFor) choose(c.name); });
      el.suggest.appendChild(li);
    });
    show(el.suggest, true);
    el.q.setAttribute("aria-expanded", "true");
  }
  function mark(i) {
    var items = el.suggest.querySelectorAll("[role=option]");
    if (!items.length) return;
    sugIndex = (i + items.length) % items.length;
    items.forEach(function (li, k) { li.setAttribute("aria-selected", String(k === sugIndex)); });
    el.q.setAttribute("aria-activedescendant", items[sugIndex].id);
  }
  function choose(name) {
    if (!sugFor) return;
    var v = el.q.value, caret = sugFor.start + sugFor.typed.length;
    el.q.value = v.slice(0, sugFor.start) + name + v.slice(caret);
    var pos = sugFor.start + name.length;
    closeSuggest();
    el.q.focus();
    el.q.setSelectionRange(pos, pos);
    edited();
  }
  el.q.addEventListener("keydown", function (ev) {
    var open = !el.suggest.hidden;
    if (open && ev.key === "ArrowDown") { ev.preventDefault(); mark(sugIndex + 1); return; }
    if (open && ev.key === "ArrowUp") { ev.preventDefault(); mark(sugIndex - 1); return; }
    if (open && ev.key === "Escape") { ev.preventDefault(); closeSuggest(); return; }
    if (ev.key === "Enter" && !ev.isComposing) {
      ev.preventDefault();
      if (open && sugIndex >= 0) { choose(el.suggest.querySelectorAll("[role=option]")[sugIndex].getAttribute("data-name")); return; }
      closeSuggest();
      if (el.bar.getAttribute("data-state") === "ask" && !el.ask.hidden) { submitted = true; if (focusAsk()) return; }
      submit();
    }
  });
  el.q.addEventListener("blur", function () { setTimeout(closeSuggest, 150); });

  // -------------------------------------------------------------- insert keys ----
  function insertAt(textBefore, textAfter) {
    var v = el.q.value, s = el.q.selectionStart == null ? v.length : el.q.selectionStart,
        e = el.q.selectionEnd == null ? v.length : el.q.selectionEnd;
    el.q.value = v.slice(0, s) + textBefore + textAfter + v.slice(e);
    var pos = s + textBefore.length;
    el.q.focus();
    el.q.setSelectionRange(pos, pos);
    closeSuggest();
    edited();
  }
  function insideBrackets() {
    var head = el.q.value.slice(0, el.q.selectionStart == null ? el.q.value.length : el.q.selectionStart);
    return /\([^)]*$/.test(head);
  }
  function spaced(word) {   // a word with the spaces it needs around it at the caret
    var v = el.q.value, s = el.q.selectionStart == null ? v.length : el.q.selectionStart;
    var before = s > 0 && !/\s/.test(v.charAt(s - 1)) ? " " : "";
    var after = /^\s/.test(v.slice(s)) ? "" : " ";
    return [before + word + after, ""];
  }
  var INSERT = {
    vs: function () { return spaced("대"); },
    settled: function () { return insideBrackets() ? ["정착 ", ""] : ["(정착)", ""]; },
    count: function () { var v = el.q.value, s = el.q.selectionStart == null ? v.length : el.q.selectionStart;
                         return [(s > 0 && !/\s/.test(v.charAt(s - 1)) ? " " : "") + "×2", ""]; },
    hp: function () { return insideBrackets() ? ["체력", " "] : ["(체력", ")"]; },
    atk: function () { return insideBrackets() ? ["공격력", " "] : ["(공격력", ")"]; }
  };
  document.querySelectorAll("[data-insert]").forEach(function (b) {
    // pointerdown: the field keeps its focus (and the keyboard stays up)
    b.addEventListener("pointerdown", function (ev) { if (document.activeElement === el.q) ev.preventDefault(); });
    b.addEventListener("click", function () {
      var what = INSERT[b.getAttribute("data-insert")];
      if (!what) return;
      if (document.activeElement !== el.q) { el.q.focus(); el.q.setSelectionRange(el.q.value.length, el.q.value.length); }
      var t = what();
      insertAt(t[0], t[1]);
    });
  });
  // 공격·수비 바꾸기: the sides of the line change places; a declaration keeps its card's owner
  el.swap.addEventListener("click", function () {
    var v = el.q.value, m = /\s+(vs|VS|대)\s+/.exec(v);
    if (!m) { stateLine("줄에 ‘대’가 없어 바꿀 공격·수비가 없습니다."); return; }
    el.q.value = v.slice(m.index + m[0].length).trim() + " " + m[1] + " " + v.slice(0, m.index).trim();
    ["r", "b"].forEach(function (k) {
      el.rows[k].querySelectorAll("input").forEach(function (i) {
        i.value = i.value.replace(/^(\s*)(공격자|수비자)/, function (_, sp, who) { return sp + (who === "공격자" ? "수비자" : "공격자"); });
      });
    });
    edited();
    submit();
  });

  // ------------------------------------------------------------------ copying ----
  function copyText(value, ok, fail) {
    function fallback() {
      var t = document.createElement("textarea");
      t.value = value;
      t.setAttribute("readonly", "");
      t.className = "calc-offscreen";
      document.body.appendChild(t);
      t.select();
      var done = false;
      try { done = document.execCommand("copy"); } catch (e) { done = false; }
      document.body.removeChild(t);
      (done ? ok : fail)();
    }
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(value).then(ok, fallback);
    else fallback();
  }
  // the verdict and its reasons as plain text, for a chat
  function verdictText() {
    var out = [];
    el.verdict.querySelectorAll("p").forEach(function (p) { out.push(p.textContent.trim()); });
    if (!el.verdict.hidden && !out.length) return "";
    function part(node, title) {
      if (node.hidden) return;
      var items = node.querySelectorAll("li");
      if (!items.length) return;
      out.push(title + ":");
      items.forEach(function (li) {
        var input = li.querySelector("input");
        out.push("- " + (input ? li.querySelector("label").textContent + " " + input.value : li.textContent.trim()));
      });
    }
    part(el.reasons, "이유");
    part(el.gaps, "확실하지 않은 것");
    part(el.assumed, "가정한 것");
    part(el.mine, "내가 넣은 값(카드 데이터 아님)");
    var h = hashOf();
    if (h) out.push(window.location.href.split("#")[0] + "#" + h);
    return out.join("\n");
  }
  el.copyVerdict.addEventListener("click", function () {
    var t = el.bar.getAttribute("data-state") === "done" || el.bar.getAttribute("data-state") === "forbidden" ? verdictText() : "";
    if (!t) { el.linkStatus.textContent = "아직 복사할 판정이 없습니다."; return; }
    copyText(t, function () { el.linkStatus.textContent = "판정과 이유를 복사했습니다. 채팅에 붙여 넣으세요."; },
             function () { el.linkStatus.textContent = "복사하지 못했습니다. 판정을 길게 눌러 복사하세요."; });
  });
  el.copy.addEventListener("click", function () {
    if (damaged) {   // the address is the damaged link as received: nothing of it to share
      el.linkStatus.textContent = "받은 링크가 손상되어 복사하지 않았습니다. 보낸 사람에게 링크 전체를 다시 받아 주세요.";
      return;
    }
    writeHash();
    var h = hashOf();
    if (h === null) { el.linkStatus.textContent = "시나리오가 길어 링크로 보낼 수 없습니다. 파일로 보내 주세요."; return; }
    if (!h) {
      el.linkStatus.textContent = mode === "scenario" ? "시나리오가 판정되면 링크를 만들 수 있습니다." : "전투를 적으면 링크를 만들 수 있습니다.";
      return;
    }
    var url = window.location.href.split("#")[0] + "#" + h;
    copyText(url, function () { el.linkStatus.textContent = "링크를 복사했습니다. 채팅에 붙여 넣으면 같은 판정이 열립니다."; },
             function () { el.linkStatus.textContent = "복사하지 못했습니다. 주소창의 주소를 복사하세요."; });
  });

  // ------------------------------------------------------------------- wiring ----
  el.tabFight.addEventListener("click", function () { damaged = null; setMode("fight"); submit(); });
  el.tabScenario.addEventListener("click", function () { damaged = null; setMode("scenario"); submit(); });
  el.q.addEventListener("input", function () { edited(); openSuggest(); });
  [el.cell, el.asOf, el.y].forEach(function (i) { i.addEventListener("input", edited); });
  [el.cell, el.asOf].forEach(function (i) {
    i.addEventListener("keydown", function (ev) { if (ev.key === "Enter") { ev.preventDefault(); submit(); } });
  });
  el.y.addEventListener("input", function () { opened = opened && opened.y === el.y.value ? opened : null; });
  document.querySelectorAll("[data-add]").forEach(function (b) {
    b.addEventListener("click", function () { addRow(b.getAttribute("data-add"), "", true); });
  });
  document.querySelectorAll("[data-example]").forEach(function (b) {
    b.addEventListener("click", function () {
      var rs = [];
      for (var i = 0; b.hasAttribute("data-r" + i); i++) rs.push(b.getAttribute("data-r" + i));
      damaged = null;
      setMode("fight");
      el.q.value = b.getAttribute("data-q");
      setRows("r", rs);
      setRows("b", []);
      el.cell.value = DEFAULT_CELL;
      el.opts.open = rs.length > 0;
      submit();
    });
  });
  var undoText = null;
  document.querySelectorAll("[data-template]").forEach(function (b) {
    b.addEventListener("click", function () {
      var t = TEMPLATES[b.getAttribute("data-template")];
      if (typeof t !== "string") return;
      damaged = null;
      undoText = el.y.value.trim() && el.y.value !== t ? el.y.value : null;
      show(el.undo, undoText !== null);
      el.y.value = t;
      submit();
    });
  });
  el.undo.addEventListener("click", function () {
    if (undoText === null) return;
    damaged = null;
    el.y.value = undoText;
    undoText = null;
    show(el.undo, false);
    submit();
  });
  el.file.addEventListener("change", function () {
    var f = el.file.files && el.file.files[0];
    if (!f) return;
    el.fileName.textContent = f.name;
    if (f.size > FILE_MAX) {
      showNothing();
      barError("error", f.name + ": 파일이 너무 큽니다 (" + mb(f.size) + " MB). 시나리오 파일은 2 MB까지 받습니다.", "file", null);
      answerState("error", null);
      return;
    }
    var reader = new FileReader();
    reader.onload = function () {
      var t;
      try { t = new TextDecoder("utf-8", {fatal: true}).decode(reader.result); } catch (e) {
        showNothing();
        barError("error", f.name + ": UTF-8 글자로 읽을 수 없는 파일입니다. 시나리오는 UTF-8 텍스트(YAML)여야 합니다.", "file", null);
        answerState("error", null);
        return;
      }
      damaged = null;
      setMode("scenario");
      el.y.value = t.replace(/^\ufeff/, "");
      submit();
    };
    reader.readAsArrayBuffer(f);
  });
  el.json.addEventListener("toggle", function () { loadJson(seq); });
  window.addEventListener("hashchange", function () {
    if (window.location.hash.replace(/^#/, "") === writtenHash) return;
    openLink().then(function (got) { if (got) compute(); });
  });

  // ------------------------------------------------------------------- start ----
  setMode("fight");
  barMessage("idle", idleLine());
  answerState("idle", null);
  startEngine();
  openLink().then(function () { compute(); });
})();
