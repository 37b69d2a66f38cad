/* The calculator page (판정기.html): a fight in one line or a scenario YAML, computed by the project's
 * own engine running in the browser (FlamerEngine from assets/engine.js: the CLI's argv in, its
 * exit code, stdout and stderr out). No rule, parser or sentence lives here: the page passes what the
 * player typed to the engine exactly as `flamer fight` / `flamer simulate -` would get it and shows
 * the answer:
 *   - the engine's own HTML page (--format html) in a sandboxed frame (srcdoc, no scripts), its
 *     verdict copied above it as text;
 *   - the --json answer as text (the JSON toggle);
 *   - a failure as the CLI's Korean stderr message, as text.
 * Nothing derived from the input or from the engine's text becomes markup in this page: every node
 * is built with createElement and textContent (the srcdoc frame is the one place engine HTML goes).
 *
 * The input lives in the URL hash (the calculator link of `flamer fight --link`):
 *   #q=<line>&r=<decl>…&b=<decl>…&cell=<x,y>&stat=<card stat value>…&as_of=<date>   or   #y=<yaml>
 * and is rewritten with history.replaceState as the player edits. A damaged link (cut by a chat client,
 * edited by hand) is read whole or not at all: the page says what is wrong, computes nothing and leaves
 * the address as it is (FlamerLink below; the rules are flamer_ref/links.py's). */

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
  var DEBOUNCE_MS = 300;
  // a computation a newer input replaces may finish this long before the engine is stopped for the
  // newer one (a fight takes a fraction of it; stopping means restarting the engine: FlamerEngine.run)
  var SUPERSEDE_MS = 400;
  var HASH_MAX = 100000;            // a longer scenario is not put into the link (some browsers refuse it)
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
    q: $("calc-q"), rows: {r: $("calc-r"), b: $("calc-b")}, boxes: {r: $("calc-r-box"), b: $("calc-b-box")}, cell: $("calc-cell"), asOf: $("calc-asof"),
    stats: $("calc-stats"), statRows: $("calc-stat-rows"),
    y: $("calc-y"), file: $("calc-file"), fileName: $("calc-file-name"), undo: $("calc-undo"),
    answer: $("calc-answer"), copy: $("calc-copy"), linkStatus: $("calc-link-status"), state: $("calc-state"), notices: $("calc-notices"),
    verdict: $("calc-verdict"), error: $("calc-error"), mine: $("calc-mine"),
    frameBox: $("calc-frame-box"), frame: $("calc-frame"), frameNote: $("calc-frame-note"),
    json: $("calc-json"), jsonOut: $("calc-json-out"), jsonNote: $("calc-json-note")
  };
  if (!el.q || !el.frame) return;

  var TEMPLATES = {};
  try { TEMPLATES = JSON.parse($("calc-templates").textContent); } catch (e) { TEMPLATES = {}; }

  var mode = "fight";
  var statRows = [];          // {key, card, label, stat, node, input}: values the player gives for 미상 stats
  var rawStats = [];          // stat= values of a link the page cannot read: passed on as they are (the
                              // engine says what is wrong) until the player edits something
  var seq = 0;                // the number of the latest computation: an older answer is dropped
  var timer = null;
  var engine = {state: "loading", ready: false, pending: false};
  var shown = null;           // the job whose answer the page shows (for the JSON toggle)
  var jsonCache = {};         // job key → the --json answer
  var jsonKeys = [];
  var writtenHash = null;     // the hash this page wrote last (a hashchange to another one is a new link)
  var damaged = null;         // the damage of the link opened last (FlamerLink.read), until the player acts
  var running = [];           // the engine runs of the latest computation: cancelled when a newer one starts
  var under = null;           // the computation whose answer is on its way: {key, seq}
  var siteAsOf = null;        // the date a site built with --as-of stands at (FlamerEngine.asOf): the default

  // ------------------------------------------------------------------ helpers ----
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }
  function text(tag, value, cls) {
    var n = document.createElement(tag);
    if (cls) n.className = cls;
    n.textContent = value;
    return n;
  }
  function show(node, on) { node.hidden = !on; }
  // where the answer stands (idle, waiting for the engine, busy, done, error, ask for stats), for
  // the page's look and for tests: data-hash is the link of the input the answer is for
  function answerState(state, job) {
    el.answer.setAttribute("data-state", state);
    el.answer.setAttribute("data-hash", writtenHash || "");
    if (job) el.answer.setAttribute("data-key", job.key); else el.answer.removeAttribute("data-key");
  }
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
    if (focus) input.focus();
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
  function activeStats(words) {
    var out = [];
    statRows.forEach(function (row) {
      var on = mentioned(row, words);
      row.node.hidden = !on;
      var v = statValue(row);
      row.node.classList.toggle("filled", v !== null);
      // the stat as the link named it (체력, hp …), so that a link comes back unchanged
      if (on && v !== null) out.push({row: row, spec: (row.card || row.label) + " " + (row.word || row.stat) + " " + v, value: v});
    });
    show(el.stats, statRows.some(function (r) { return !r.node.hidden; }));
    return out;
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
    lab.appendChild(text("span", card || label, "calc-stat-card"));
    lab.appendChild(text("span", STAT_KO[stat] || stat, "calc-stat-name"));
    if (card && label && label !== card) lab.appendChild(text("span", "(‘" + label + "’)", "calc-hint"));
    var input = document.createElement("input");
    input.type = "number";
    input.id = id;
    input.className = "calc-stat-value";
    input.setAttribute("inputmode", "numeric");
    input.step = "1";
    input.value = value == null ? "" : String(value);
    var tag = text("span", "내가 넣은 값", "badge mine");
    var row = {key: key, card: card, label: label, stat: stat, node: li, input: input};
    input.addEventListener("input", function () {
      var v = statValue(row);
      if (v !== null) storeSet(key, v);
      else if (!input.value.trim()) storeSet(key, null);
      edited();
    });
    li.appendChild(lab);
    li.appendChild(input);
    li.appendChild(tag);
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
  function hashOf() {
    if (mode === "scenario") {
      var y = el.y.value;
      if (!y.trim()) return "";
      var h = "y=" + enc(y);
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
    return parts.join("&");
  }
  function writeHash() {
    var h = hashOf();
    el.linkStatus.textContent = h === null ? "시나리오가 길어 링크에 담지 않았습니다. 파일로 나눠 주세요." : "";
    if (h === null) h = "";
    writtenHash = h;
    try {
      history.replaceState(null, "", h ? "#" + h : window.location.pathname + window.location.search);
    } catch (e) { /* some browsers refuse it for file:// */ }
  }
  // The link in the address (FlamerLink.read): filled into the inputs, or, damaged, nothing at all —
  // the inputs emptied, the damage said (compute), the address left as it is. False: no link.
  function openLink() {
    var raw = window.location.hash.replace(/^#/, "");
    var link = FlamerLink.read(raw);
    if (link.kind === "none") return false;
    damaged = link.kind === "damaged" ? link : null;
    if (damaged) {
      writtenHash = raw;
      el.y.value = "";
      fillFrom({kind: damaged.key === "y" ? "scenario" : "fight", y: "", q: "", r: [], b: [], cell: DEFAULT_CELL,
                stat: [], as_of: null});
      return true;
    }
    fillFrom(link);
    return true;
  }
  function fillFrom(link) {
    if (link.kind === "scenario") {
      setMode("scenario");
      el.y.value = link.y;
      return;
    }
    setMode("fight");
    // a link is the whole input: the stats it gives and no others
    statRows.forEach(function (row) { row.node.parentNode.removeChild(row.node); });
    statRows = [];
    rawStats = [];
    el.q.value = link.q;
    setRows("r", link.r);
    setRows("b", link.b);
    el.cell.value = link.cell;
    el.asOf.value = link.as_of || "";
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
  function startEngine() {
    if (window.location.protocol === "file:") {
      setEngine("unavailable", "파일로 연 페이지(file://)에서는 브라우저가 판정기 엔진을 막아 판정할 수 없습니다.", SERVE_HELP);
      stateLine();
      if (!damaged) answerState("unavailable", null);
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
                "flamer site 폴더 --pyodide pyodide-" + (el.status.getAttribute("data-pyodide") || "버전") +
                ".tgz 로(또는 네트워크에 연결해) 다시 만들면 엔진이 함께 " +
                "들어갑니다. 그동안은 명령줄의 flamer fight, flamer simulate로 같은 판정을 봅니다.");
      stateLine();
      if (!damaged) answerState("unavailable", null);
      throw null;
    }).then(function () {
      engine.ready = true;
      setEngine("ready", "판정기 준비됨 — 이 기기 안에서 판정합니다.");
      compute();
    }, function (err) {
      if (err === null) return;
      var msg = err && err.message ? err.message : String(err);
      setEngine("failed", "판정기 엔진을 시작하지 못했습니다: " + msg,
                "페이지를 새로 고쳐 보세요. 계속되면 " + SERVE_HELP);
      stateLine();
      if (!damaged) answerState("unavailable", null);
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
        "셀·기물 수를 줄이거나 여러 시나리오로 나눠서 다시 넣어 보세요. 명령줄의 flamer simulate로도 풀 수 있습니다."
      : "판정이 " + s + "초 안에 끝나지 않아 멈췄습니다. 기물이나 선언을 줄여서 다시 넣어 보세요. " +
        "명령줄의 flamer fight로도 풀 수 있습니다.";
  }
  function isTimeout(e) { return !!(e && e.reason === "timeout"); }

  // ------------------------------------------------------------------ answers ----
  function stateLine(message) {
    if (message === undefined) {
      if (engine.state === "unavailable" || engine.state === "failed") message = "판정기 엔진이 없어 판정하지 못합니다 (위 안내를 보세요).";
      else if (!engine.ready) message = "판정기가 준비되면 바로 판정합니다.";
      else message = "";
    }
    el.state.textContent = message;
    show(el.state, !!message);
  }
  // a damaged link: what is wrong, and nothing else (no verdict, no frame, the address as it was)
  function showDamaged() {
    showNothing();
    stateLine("");
    el.linkStatus.textContent = "";
    el.error.textContent = FlamerLink.message(damaged);
    el.error.setAttribute("data-code", "damaged-link");
    el.error.removeAttribute("data-key");
    show(el.error, true);
    answerState("damaged", null);
  }
  function showNothing() {
    show(el.verdict, false); show(el.error, false); show(el.frameBox, false); show(el.notices, false); show(el.mine, false);
    el.jsonOut.textContent = "";
    shown = null;
    el.verdict.removeAttribute("data-key");
  }
  function showNotices(stderr) {
    clear(el.notices);
    var lines = (stderr || "").replace(/\s+$/, "").split("\n").filter(function (l) { return l.trim(); });
    lines.forEach(function (l) { el.notices.appendChild(text("p", l)); });
    show(el.notices, lines.length > 0);
  }
  function showMine(job) {
    clear(el.mine);
    if (!job.stats.length) { show(el.mine, false); return; }
    el.mine.appendChild(text("span", "내가 넣은 값", "badge mine"));
    el.mine.appendChild(document.createTextNode(" " + job.stats.map(function (s) {
      return (s.row.card || s.row.label) + " " + (STAT_KO[s.row.stat] || s.row.stat) + " " + s.value;
    }).join(" · ") + " — 카드 데이터가 아니라 이 기기에서 넣은 값으로 판정했습니다."));
    show(el.mine, true);
  }
  function showPage(job, res) {
    shown = job;
    show(el.error, false);
    el.error.removeAttribute("data-code");
    showNotices(res.stderr);
    showMine(job);
    el.frameNote.textContent = job.kind === "fight" ? "풀이 — flamer fight --format html과 같은 페이지"
                                                    : "풀이 — flamer simulate --format html과 같은 페이지";
    show(el.frameBox, true);
    el.frame.setAttribute("data-key", job.key);
    el.frame.srcdoc = res.stdout;   // sandboxed: the engine's autoescaped page, no scripts
  }
  function showError(job, res, code) {
    shown = job;
    show(el.frameBox, false); show(el.verdict, false); show(el.notices, false);
    el.verdict.removeAttribute("data-key");
    showMine(job);
    el.error.textContent = (res.stderr || res.stdout || "").replace(/\s+$/, "");
    el.error.setAttribute("data-code", code || "error");
    el.error.setAttribute("data-key", job.key);
    show(el.error, true);
  }
  // the frame loaded: its verdict, as text, above it; the frame as tall as its page
  function framed() {
    var doc = el.frame.contentDocument;
    if (!doc || !doc.body) return;
    clear(el.verdict);
    var v = doc.querySelector(".verdict");
    if (v) {
      var items = v.querySelectorAll("p, li");
      (items.length ? Array.prototype.slice.call(items) : [v]).forEach(function (n) {
        el.verdict.appendChild(text("p", n.textContent.trim()));
      });
    }
    el.verdict.setAttribute("data-key", el.frame.getAttribute("data-key") || "");
    el.verdict.classList.remove("stale");
    show(el.verdict, !!v);
    fit();
  }
  function fit() {
    var doc = el.frame.contentDocument;
    if (!doc || !doc.body || el.frameBox.hidden) return;
    var main = doc.querySelector("main") || doc.body;
    var bottom = 0;
    Array.prototype.forEach.call(main.children, function (c) {
      var r = c.getBoundingClientRect();
      var mb2 = parseFloat(doc.defaultView.getComputedStyle(c).marginBottom) || 0;
      bottom = Math.max(bottom, r.bottom + mb2);
    });
    var cs = doc.defaultView.getComputedStyle(main);
    var h = bottom + (parseFloat(cs.paddingBottom) || 0) + (parseFloat(cs.borderBottomWidth) || 0) +
            (doc.defaultView.pageYOffset || 0) + 2;
    el.frame.style.height = Math.ceil(h) + "px";
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
    var passed = {};
    job.stats.forEach(function (s) { passed[s.row.key] = true; });
    missing.forEach(function (m) {
      if (!m || !m.stat) return;
      var before = statRows.length;
      var row = addStatRow(m.card || null, m.label || m.card || "", m.stat, null);
      if (statRows.length > before && saved[row.key] != null) row.input.value = saved[row.key];
      if (statValue(row) !== null && !passed[row.key]) gained = true;
    });
    var f = fightInput();
    activeStats([f.q].concat(f.r, f.b).join("\n"));
    if (!gained) {
      var first = statRows.filter(function (r) { return !r.node.hidden && statValue(r) === null; })[0];
      if (first && document.activeElement === document.body) first.input.focus({preventScroll: true});
    }
    return gained;
  }

  function compute() {
    clearTimeout(timer);
    var my = ++seq;
    if (damaged) { cancelRunning(); showDamaged(); return; }
    var job = currentJob();
    writeHash();
    if (!job) {
      cancelRunning();
      showNothing();
      stateLine(mode === "fight" ? "전투를 적으면 판정합니다." : "시나리오를 붙여 넣거나 파일을 열면 판정합니다.");
      answerState("idle", null);
      return;
    }
    if (!engine.ready) { stateLine(); answerState(engine.state === "loading" ? "waiting" : "unavailable", job); return; }
    if (under && under.key === job.key) {   // the same input again (a tab, Enter): its answer is on its way
      under.seq = my;
      answerState("busy", job);
      return;
    }
    cancelRunning();
    var ticket = under = {key: job.key, seq: my};
    function latest() { return ticket.seq === seq; }   // no newer input since
    function over() { if (under === ticket) under = null; }
    stateLine("판정 중…");
    answerState("busy", job);
    el.verdict.classList.add("stale");
    run(job.argv.concat(["--format", "html"]), job.stdin).then(function (res) {
      if (!latest()) return null;
      if (res.code === 0) {
        over();
        stateLine("");
        showPage(job, res);   // the verdict box stays dimmed until the frame has loaded (framed)
        answerState("done", job);
        loadJson(seq);
        return null;
      }
      // a failure: its code (and the stats it lacks) from the --json answer
      return run(job.argv.concat(["--json"]), job.stdin).then(function (js) {
        if (!latest()) return;
        over();
        rememberJson(job, js);
        var obj = null;
        try { obj = JSON.parse(js.stdout); } catch (e) { obj = null; }
        var err = obj && obj.error ? obj.error : null;
        if (err && err.code === "missing-stats" && Array.isArray(err.missing) && askStats(err.missing, job)) {
          compute();
          return;
        }
        stateLine("");
        el.verdict.classList.remove("stale");
        showError(job, res, err && err.code);
        answerState(err && err.code === "missing-stats" && statRows.some(function (r) { return !r.node.hidden; })
                    ? "ask" : "error", job);
        if (el.json.open) showJson(job, js);
      });
    }).catch(function (e) {
      if (!latest()) return;
      over();
      stateLine("");
      el.verdict.classList.remove("stale");
      if (isTimeout(e)) showError(job, {stderr: tooLong(job, e)}, "timeout");
      else showError(job, {stderr: "판정기 엔진이 답하지 못했습니다: " + (e && e.message ? e.message : String(e)) +
                                   "\n페이지를 새로 고쳐 보세요."}, "engine");
      answerState("error", job);
    });
  }
  function edited() {
    damaged = null;
    rawStats = [];
    writeHash();
    clearTimeout(timer);
    timer = setTimeout(compute, DEBOUNCE_MS);
  }

  // -------------------------------------------------------------------- modes ----
  function setMode(m) {
    mode = m;
    el.tabFight.setAttribute("aria-selected", String(m === "fight"));
    el.tabScenario.setAttribute("aria-selected", String(m === "scenario"));
    show(el.fight, m === "fight");
    show(el.scenario, m === "scenario");
    el.jsonNote.textContent = m === "fight" ? "(flamer fight --json과 같은 출력)" : "(flamer simulate --json과 같은 출력)";
  }

  // ------------------------------------------------------------------- wiring ----
  el.tabFight.addEventListener("click", function () { damaged = null; setMode("fight"); compute(); });
  el.tabScenario.addEventListener("click", function () { damaged = null; setMode("scenario"); compute(); });
  [el.q, el.cell, el.asOf, el.y].forEach(function (i) { i.addEventListener("input", edited); });
  el.q.addEventListener("keydown", function (ev) { if (ev.key === "Enter") { ev.preventDefault(); compute(); } });
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
      compute();
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
      compute();
    });
  });
  el.undo.addEventListener("click", function () {
    if (undoText === null) return;
    damaged = null;
    el.y.value = undoText;
    undoText = null;
    show(el.undo, false);
    compute();
  });
  el.file.addEventListener("change", function () {
    var f = el.file.files && el.file.files[0];
    if (!f) return;
    el.fileName.textContent = f.name;
    if (f.size > FILE_MAX) {
      showError({kind: "scenario", key: "file", stats: []},
                {stderr: f.name + ": 파일이 너무 큽니다 (" + mb(f.size) + " MB). 시나리오 파일은 2 MB까지 받습니다."}, "file");
      return;
    }
    var reader = new FileReader();
    reader.onload = function () {
      var t;
      try { t = new TextDecoder("utf-8", {fatal: true}).decode(reader.result); } catch (e) {
        showError({kind: "scenario", key: "file", stats: []},
                  {stderr: f.name + ": UTF-8 글자로 읽을 수 없는 파일입니다. 시나리오는 UTF-8 텍스트(YAML)여야 합니다."}, "file");
        return;
      }
      damaged = null;
      setMode("scenario");
      el.y.value = t.replace(/^\ufeff/, "");
      compute();
    };
    reader.readAsArrayBuffer(f);
  });
  el.json.addEventListener("toggle", function () { loadJson(seq); });
  el.copy.addEventListener("click", function () {
    if (damaged) {   // the address is the damaged link as received: nothing of it to share
      el.linkStatus.textContent = "받은 링크가 손상되어 복사하지 않았습니다. 보낸 사람에게 링크 전체를 다시 받아 주세요.";
      return;
    }
    writeHash();
    if (hashOf() === null) {   // too long for a link: the message writeHash left stands
      el.linkStatus.textContent = "시나리오가 길어 링크로 보낼 수 없습니다. 파일로 보내 주세요.";
      return;
    }
    var url = window.location.href;
    function done(ok) {
      el.linkStatus.textContent = ok ? "링크를 복사했습니다. 채팅에 붙여 넣으면 같은 판정이 열립니다."
                                     : "복사하지 못했습니다. 주소창의 주소를 복사하세요.";
    }
    function fallback() {
      var t = document.createElement("textarea");
      t.value = url;
      t.setAttribute("readonly", "");
      t.className = "calc-offscreen";
      document.body.appendChild(t);
      t.select();
      var ok = false;
      try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
      document.body.removeChild(t);
      done(ok);
    }
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(url).then(function () { done(true); }, fallback);
    else fallback();
  });
  el.frame.addEventListener("load", framed);
  var resizeTimer = null;
  window.addEventListener("resize", function () { clearTimeout(resizeTimer); resizeTimer = setTimeout(fit, 100); });
  window.addEventListener("hashchange", function () {
    if (window.location.hash.replace(/^#/, "") === writtenHash) return;
    if (openLink()) compute();
  });

  // ------------------------------------------------------------------- start ----
  setMode("fight");
  openLink();
  stateLine();
  compute();
  startEngine();
})();
