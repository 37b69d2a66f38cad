/* The search box of a `flamer site` folder: offline, no dependencies, no network.
 *
 * The index (search-index.js, written by `flamer site`) assigns the global FLAMER_INDEX:
 *   {docs: [[kind, id, title, url, snippet], ...],        the searchable entries
 *    words: ["word", ...], post: [[doc*4+field, ...], ...] a prebuilt vocabulary with postings: the words of
 *                                                         the entries, then (from `singles` on) pairs of adjacent
 *                                                         words of titles and keywords; field 0 title,
 *                                                         1 keywords/names, 2 text
 *    names: [[doc, "name"], ...]                          titles and other names (a query equal to one wins)
 *    endings: {all, after_vowel, after_final}, stop: [...] particles and question words (flamer_ref/korean.py)}
 *
 * Matching happens on jamo (키 단위: 과 → ㄱㅗㅏ): exact word, prefix, 초성 (ㄷㅇㅅㅌ → 대응스택),
 * particles/endings stripped when what remains is a word (스택을 → 스택), a typo or two by edit distance
 * on jamo (스텍 → 스택, 졍착 → 정착), words typed apart that are one word (대응 턴), and text typed with
 * the keyboard in English mode (eodmdtmxor → 대응스택).
 *
 * Runs in a browser (a classic <script>: the global FlamerSearch) and in Node (module.exports).
 */
var FlamerSearch = (function () {
  "use strict";

  var SBASE = 0xac00, SLAST = 0xd7a3;
  var CHO = "ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ";
  var JUNG = ["ㅏ", "ㅐ", "ㅑ", "ㅒ", "ㅓ", "ㅔ", "ㅕ", "ㅖ", "ㅗ", "ㅗㅏ", "ㅗㅐ", "ㅗㅣ", "ㅛ", "ㅜ", "ㅜㅓ", "ㅜㅔ",
    "ㅜㅣ", "ㅠ", "ㅡ", "ㅡㅣ", "ㅣ"];
  var JONG = ["", "ㄱ", "ㄲ", "ㄱㅅ", "ㄴ", "ㄴㅈ", "ㄴㅎ", "ㄷ", "ㄹ", "ㄹㄱ", "ㄹㅁ", "ㄹㅂ", "ㄹㅅ", "ㄹㅌ", "ㄹㅍ",
    "ㄹㅎ", "ㅁ", "ㅂ", "ㅂㅅ", "ㅅ", "ㅆ", "ㅇ", "ㅈ", "ㅊ", "ㅋ", "ㅌ", "ㅍ", "ㅎ"];
  // compatibility jamo typed as one key pair (ㅘ = ㅗ + ㅏ, ㄳ = ㄱ + ㅅ)
  var KEYS = {"ㅘ": "ㅗㅏ", "ㅙ": "ㅗㅐ", "ㅚ": "ㅗㅣ", "ㅝ": "ㅜㅓ", "ㅞ": "ㅜㅔ", "ㅟ": "ㅜㅣ", "ㅢ": "ㅡㅣ",
    "ㄳ": "ㄱㅅ", "ㄵ": "ㄴㅈ", "ㄶ": "ㄴㅎ", "ㄺ": "ㄹㄱ", "ㄻ": "ㄹㅁ", "ㄼ": "ㄹㅂ", "ㄽ": "ㄹㅅ", "ㄾ": "ㄹㅌ",
    "ㄿ": "ㄹㅍ", "ㅀ": "ㄹㅎ", "ㅄ": "ㅂㅅ"};
  // 두벌식: the jamo each key gives with the keyboard in English mode
  var QWERTY = {q: "ㅂ", w: "ㅈ", e: "ㄷ", r: "ㄱ", t: "ㅅ", y: "ㅛ", u: "ㅕ", i: "ㅑ", o: "ㅐ", p: "ㅔ", a: "ㅁ",
    s: "ㄴ", d: "ㅇ", f: "ㄹ", g: "ㅎ", h: "ㅗ", j: "ㅓ", k: "ㅏ", l: "ㅣ", z: "ㅋ", x: "ㅌ", c: "ㅊ", v: "ㅍ",
    b: "ㅠ", n: "ㅜ", m: "ㅡ", Q: "ㅃ", W: "ㅉ", E: "ㄸ", R: "ㄲ", T: "ㅆ", O: "ㅒ", P: "ㅖ"};
  var VOWELS = "ㅏㅐㅑㅒㅓㅔㅕㅖㅗㅛㅜㅠㅡㅣ";
  var CONSONANTS = "ㄱㄲㄳㄴㄵㄶㄷㄸㄹㄺㄻㄼㄽㄾㄿㅀㅁㅂㅃㅄㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ";
  var FIELD_WEIGHT = [1.0, 0.95, 0.85];
  var KIND_RANK = {clause: 0, faq: 1, term: 2, card: 3, ruling: 4, example: 5};
  // words that name a kind of entry: they match every entry of that kind (증폭기 예시, 확보 뜻)
  var KIND_WORDS = {"예시": "example", "판정": "ruling", "용어": "term", "뜻": "term", "카드": "card", "조항": "clause"};
  var WORD_RE = /[0-9A-Za-z\uac00-\ud7a3\u3131-\u318e]+/g;

  function jamo(text) {
    var out = "";
    for (var i = 0; i < text.length; i++) {
      var ch = text.charAt(i), code = text.charCodeAt(i);
      if (code >= SBASE && code <= SLAST) {
        var idx = code - SBASE;
        out += CHO.charAt(Math.floor(idx / 588)) + JUNG[Math.floor((idx % 588) / 28)] + JONG[idx % 28];
      } else if (KEYS[ch]) {
        out += KEYS[ch];
      } else {
        out += ch.toLowerCase();
      }
    }
    return out;
  }

  function choseong(text) {
    var out = "";
    for (var i = 0; i < text.length; i++) {
      var code = text.charCodeAt(i);
      if (code >= SBASE && code <= SLAST) out += CHO.charAt(Math.floor((code - SBASE) / 588));
      else if (CONSONANTS.indexOf(text.charAt(i)) >= 0) out += text.charAt(i);
    }
    return out;
  }

  function isChoseong(token) {
    if (token.length < 2) return false;
    for (var i = 0; i < token.length; i++) if (CONSONANTS.indexOf(token.charAt(i)) < 0) return false;
    return true;
  }

  function qwertyJamo(token) {
    var out = "";
    for (var i = 0; i < token.length; i++) {
      var ch = token.charAt(i);
      out += QWERTY[ch] || QWERTY[ch.toLowerCase()] || ch;
    }
    return out;
  }

  function norm(w) {  // numbers lose leading zeros (09-24 and 9월 24일 meet), as in flamer_ref/search.py
    return /^[0-9]+$/.test(w) ? (w.replace(/^0+/, "") || "0") : w.toLowerCase();
  }

  function words(text) {
    var s = String(text);
    if (s.normalize) s = s.normalize("NFC");
    return (s.match(WORD_RE) || []).map(function (w) {
      return norm(w.replace(/^([0-9]+)(년|월|일)$/, "$1"));  // 9월 24일 = 09-24 = 9/24
    });
  }

  // Levenshtein distance, giving up (returning max + 1) once it cannot stay within max
  function distance(a, b, max) {
    if (Math.abs(a.length - b.length) > max) return max + 1;
    var prev = [], cur = [], i, j;
    for (j = 0; j <= b.length; j++) prev[j] = j;
    for (i = 1; i <= a.length; i++) {
      cur = [i];
      var best = i;
      for (j = 1; j <= b.length; j++) {
        var c = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a.charAt(i - 1) === b.charAt(j - 1) ? 0 : 1));
        cur[j] = c;
        if (c < best) best = c;
      }
      if (best > max) return max + 1;
      prev = cur;
    }
    return prev[b.length];
  }

  function allowedTypos(j) {  // jamo length → edit distance allowed
    return j.length >= 10 ? 2 : (j.length >= 4 ? 1 : 0);
  }

  // ------------------------------------------------------------ the index ----
  function Index(raw) {
    this.raw = raw;
    this.docs = raw.docs;
    this.post = raw.post;
    this.words = raw.words;
    this.singles = raw.singles === undefined ? raw.words.length : raw.singles;
    this.byJamo = {};
    this.jamos = [];
    this.chos = [];
    for (var i = 0; i < raw.words.length; i++) {
      var w = raw.words[i], j = jamo(w);
      this.jamos.push(j);
      (this.byJamo[j] = this.byJamo[j] || []).push(i);
      // 초성 of words written in Hangul syllables only (a mixed word like 장면5 has none)
      this.chos.push(/^[\uac00-\ud7a3]+$/.test(w) ? choseong(w) : "");
    }
    var e = raw.endings || {all: [], after_vowel: [], after_final: []};
    this.endings = toSet(e.all.map(jamo));
    this.afterVowel = toSet(e.after_vowel.map(jamo));
    this.afterFinal = toSet(e.after_final.map(jamo));
    this.longestEnding = 0;
    for (var k in this.endings) this.longestEnding = Math.max(this.longestEnding, 2 * k.length);
    this.stop = toSet(raw.stop || []);
    this.names = {};
    for (i = 0; i < (raw.names || []).length; i++) {
      var n = jamo(words(raw.names[i][1]).join(""));
      (this.names[n] = this.names[n] || []).push(raw.names[i][0]);
      var c = choseong(raw.names[i][1]);
      if (c.length >= 2) (this.names[c] = this.names[c] || []).push(raw.names[i][0]);
    }
  }

  function toSet(list) {
    var s = {};
    for (var i = 0; i < list.length; i++) s[list[i]] = true;
    return s;
  }

  Index.prototype.isEnding = function (tail) {
    if (this.endings[tail]) return true;
    for (var k = 1; k < tail.length; k++) if (this.endings[tail.slice(0, k)] && this.endings[tail.slice(k)]) return true;
    return false;
  };

  // May this ending follow this head (jamo), by the head's last sound? (장면이 = 장면 + 이, not 장 + 면이)
  Index.prototype.fits = function (head, ending) {
    var last = head.charAt(head.length - 1);
    if (VOWELS.indexOf(last) >= 0) return !this.afterFinal[ending];
    if (!this.afterVowel[ending]) return true;
    return last === "ㄹ" && ending.indexOf("ㄹㅗ") === 0;  // ㄹ takes 로
  };

  // heads of the jamo string j that are words of the index and are followed only by endings (longest first)
  Index.prototype.heads = function (j) {
    var out = [];
    for (var k = j.length - 1; k > 1; k--) {
      var head = j.slice(0, k), tail = j.slice(k);
      if (tail.length > this.longestEnding || !this.byJamo[head]) continue;
      var ok = this.endings[tail] && this.fits(head, tail);
      for (var m = 1; !ok && m < tail.length; m++) {
        ok = this.endings[tail.slice(0, m)] && this.endings[tail.slice(m)] && this.fits(head, tail.slice(0, m));
      }
      if (ok) out.push(head);
    }
    return out;
  };

  // the jamo string without the longest ending (or two) it ends with, keeping at least two jamo
  Index.prototype.unending = function (j) {
    for (var k = 2; k < j.length; k++) {
      if (j.length - k <= this.longestEnding && this.isEnding(j.slice(k))) return j.slice(0, k);
    }
    return null;
  };

  // the jamo forms a token stands for: itself (or its English-mode reading) and its heads without endings
  Index.prototype.forms = function (token) {
    var base = jamo(token);
    if (/^[A-Za-z]+$/.test(token) && token.length >= 2 && !this.byJamo[base]) base = qwertyJamo(token);
    return [base].concat(this.heads(base));
  };

  // word index → match quality (0..1) for one query token
  Index.prototype.matchToken = function (token) {
    var hits = {}, self = this;
    function hit(i, q) { if (!(hits[i] >= q)) hits[i] = q; }
    var n = this.words.length, i;
    if (isChoseong(token)) {
      for (i = 0; i < n; i++) {
        var c = this.chos[i];
        if (!c) continue;
        if (c === token) hit(i, 1.0);
        else if (c.indexOf(token) === 0) hit(i, 0.8 * token.length / c.length + 0.1);
      }
      return hits;
    }
    var all = this.forms(token), base = all[0], heads = all.slice(1), stem = this.unending(base);
    var forms = [[base, base === jamo(token) ? 1.0 : 0.97]];  // 0.97: read as typed in English mode
    for (i = 0; i < heads.length; i++) forms.push([heads[i], 0.97 - 0.01 * i]);
    // a verb stem without its ending, for words that start with it (없으면 → 없음, 뒤집으면 → 뒤집기)
    if (stem && !heads.length && stem.length >= 2) forms.push([stem, 0.9]);
    var exact = false;
    forms.forEach(function (f) {
      var list = self.byJamo[f[0]];
      if (list) { exact = true; list.forEach(function (wi) { hit(wi, f[1]); }); }
    });
    // prefix: the token starts a longer word (정착 → 정착한, 뒤집 → 뒤집기); on syllable boundaries for Hangul
    var syll = /^[\uac00-\ud7a3]+$/.test(token);
    forms.forEach(function (f) {
      if (f[0].length < 2) return;
      for (var k = 0; k < n; k++) {
        var w = self.jamos[k];
        if (w.length <= f[0].length || w.indexOf(f[0]) !== 0) continue;
        if (syll && f[1] === 1.0 && self.words[k].indexOf(token) !== 0) continue;
        hit(k, f[1] * (0.78 + 0.17 * f[0].length / w.length));
      }
    });
    if (exact) return hits;
    // typos: edit distance on jamo, on the token and on it without its ending
    var fuzzy = [base];
    if (stem && stem.length >= 4) fuzzy.push(stem);
    fuzzy.forEach(function (f, fi) {
      var max = allowedTypos(f);
      if (!max) return;
      for (var k = 0; k < n; k++) {
        var w = self.jamos[k];
        var d = distance(f, w, max);
        if (d <= max) hit(k, (0.8 - 0.12 * (d - 1)) * (fi ? 0.95 : 1));
        else if (w.length > f.length + 1) {  // a typo in the first part of a longer word (구조믈 → 구조물은)
          var d2 = distance(f, w.slice(0, f.length), max);
          if (d2 <= max) hit(k, (0.7 - 0.12 * (d2 - 1)) * (fi ? 0.95 : 1));
        }
      }
    });
    return hits;
  };

  Index.prototype.isSingle = function (j) {
    var list = this.byJamo[j];
    if (!list) return false;
    for (var i = 0; i < list.length; i++) if (list[i] < this.singles) return true;
    return false;
  };

  // query → tokens, joining words typed apart that are one word of the index (대응 턴, 승 리 확 인 턴)
  Index.prototype.tokens = function (query) {
    var ws = words(query), out = [], i = 0, self = this;
    while (i < ws.length) {
      var joined = null, upto = i;
      for (var k = ws.length; k > i + 1; k--) {
        var j = jamo(ws.slice(i, k).join(""));
        if (this.isSingle(j) || this.heads(j).some(function (h) { return self.isSingle(h); })) {
          joined = ws.slice(i, k).join(""); upto = k; break;
        }
      }
      if (joined !== null) { out.push(joined); i = upto; } else { out.push(ws[i]); i++; }
    }
    return out;
  };

  Index.prototype.search = function (query, limit) {
    limit = limit || 20;
    var tokens = this.tokens(query), self = this;
    if (!tokens.length) return [];
    var content = tokens.filter(function (t) { return !self.stop[t]; });
    if (!content.length) content = tokens;
    var scores = {}, totalWeight = 0, titleHits = {};
    content.forEach(function (t) {
      var weight = Math.max(1, isChoseong(t) ? t.length : jamo(t).length / 2.5);
      totalWeight += weight;
      var hits = self.matchToken(t), best = {};
      for (var wi in hits) {
        var plist = self.post[wi];
        for (var p = 0; p < plist.length; p++) {
          var doc = plist[p] >> 2, field = plist[p] & 3, s = hits[wi] * FIELD_WEIGHT[field];
          if (!(best[doc] >= s)) best[doc] = s;
          if (field < 2 && hits[wi] >= 0.9) titleHits[doc] = (titleHits[doc] || 0) + 1;
        }
      }
      if (KIND_WORDS[t]) {
        for (var k = 0; k < self.docs.length; k++) if (self.docs[k][0] === KIND_WORDS[t]) best[k] = Math.max(best[k] || 0, 0.9);
      }
      for (var d in best) scores[d] = (scores[d] || 0) + weight * best[d];
    });
    // words side by side in a title or keyword (은퇴를 해제 → 은퇴 해제): +5
    var near = {};
    for (var ti = 0; ti + 1 < content.length; ti++) {
      var fa = this.forms(content[ti]), fb = this.forms(content[ti + 1]);
      fa.forEach(function (a) {
        fb.forEach(function (b) {
          (self.byJamo[a + b] || []).forEach(function (wi) {
            self.post[wi].forEach(function (p) { if ((p & 3) < 2) near[p >> 2] = true; });
          });
        });
      });
    }
    var flat = jamo(words(query).join("")), named = {};
    (this.names[flat] || this.names[choseong(query.replace(/\s+/g, ""))] || []).forEach(function (d) { named[d] = true; });
    var out = [];
    for (var d in scores) {
      var doc = this.docs[d];
      var score = 100 * scores[d] / totalWeight + Math.min(3, titleHits[d] || 0) + (near[d] ? 5 : 0) + (named[d] ? 20 : 0);
      out.push({kind: doc[0], id: doc[1], title: doc[2], url: doc[3], snippet: doc[4], score: Math.round(score * 10) / 10});
    }
    out.sort(function (a, b) {
      return b.score - a.score || KIND_RANK[a.kind] - KIND_RANK[b.kind] || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
    });
    return out.slice(0, limit);
  };

  return {Index: Index, jamo: jamo, choseong: choseong, distance: distance, words: words, qwertyJamo: qwertyJamo};
})();

if (typeof module === "object" && module.exports) module.exports = FlamerSearch;
