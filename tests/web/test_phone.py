"""Issue 26: the calculator a player uses one-handed at the table, in a real browser (headless Chromium on
the built site with its engine, the same site, server and browser as tests/web/test_calculator.py: the
"engine-site" group, tests/conftest.py) at 390×844 and with the keyboard up (390×500, the line focused
and edited):

- the verdict's first line stays on screen while the player edits; typing one syllable at a time flashes
  no error (an unfinished line keeps the last verdict, greyed); the error comes after a pause;
- a missing stat is a question on screen, with no error box; a refused play is a ruling;
- the explanation opens whole in the page (no frame shorter than its content), with its pictures, its
  tables and its citations linked to the site's pages; what is uncertain is in the summary;
- no command-line word (a --flag, -r/-b, `flamer command`) in the visible text of any state, nor of any
  page of the site, outside the footer and the collapsed 명령줄에서 notes;
- the round template's link is at most 2,000 characters, opens the same verdict, and cut short says so;
- after one visit, with the network cut, a rules page, a card page and the FAQ still open;
- on a warm profile the first hit of the search results never changes once shown;
- every tap target is at least 44×44 px and every field's text 16 px; typing 별마 offers 별마대; the
  keys insert 대, (정착), ×2, 체력, 공격력; 공격·수비 바꾸기 swaps the sides; 판정 복사 copies the verdict
  and its reasons as plain text.

Screenshots of every state (loading, typing, asking, verdict, explanation open, offline) are written to
the folder in FLAMER_SHOTS, or the test's temporary folder. Expected answers come from flamer_ref.web.run
(the CLI's own answers, byte for byte: tests/web/test_site_engine.py). Skipped, saying why, without Chromium
or Pyodide."""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path
from urllib.parse import quote

import pytest

from test_browser import CHROMIUM, PHONE, png_size

pytestmark = [pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (apt-get install chromium)"),
              pytest.mark.xdist_group("engine-site")]  # one build, one browser with the calculator's tests

ROOT = Path(__file__).resolve().parents[2]
PAGE = "%ED%8C%90%EC%A0%95%EA%B8%B0.html"   # 판정기.html
KEYBOARD = {"width": 390, "height": 500, "deviceScaleFactor": 2, "mobile": True}   # the keyboard up
DISCORD = 2000
CLI_WORDS = re.compile(r"(?<![\w-])--[a-z][a-z-]+|(?<![\w-])-[rb](?=[\s,.)]|$)|"
                       r"\bflamer (?:fight|simulate|rule|search|card|scenario|site|book|examples|faq)\b", re.M)
# the visible text of the page: its body as rendered (closed <details> are not), without the footer, with
# the explanation's (in its shadow root) added
VISIBLE_JS = r"""(() => {
  const foot = document.querySelector('footer');
  let text = document.body.innerText;
  if (foot) text = text.replace(foot.innerText, '');
  const host = document.getElementById('calc-story-host');
  const story = host && host.shadowRoot && document.getElementById('calc-story').open ? host.shadowRoot.querySelector('.page') : null;
  return text + '\n' + (story ? story.innerText : '');
})()"""


def link_hash(line: str, r=(), stats=()) -> str:
    q = lambda v: quote(v, safe="")  # noqa: E731
    return "&".join([f"q={q(line)}", *(f"r={q(v)}" for v in r), *(f"stat={q(s)}" for s in stats)])


def js(browser, expression: str, timeout: float = 120):
    res = browser.call("Runtime.evaluate", session=True, expression=expression, awaitPromise=True,
                       returnByValue=True, timeout=timeout)
    if "exceptionDetails" in res:
        raise RuntimeError(res["exceptionDetails"])
    return res["result"].get("value")


def cli_words(text: str) -> list[str]:
    return CLI_WORDS.findall(text or "")


def verdict_of(argv, stdin=None) -> list[str]:
    """The verdict lines of the CLI's --format html answer (flamer_ref.web.run: the CLI's stdout)."""
    from flamer_ref import web

    from test_calculator import verdict_lines

    got = web.run(argv + ["--format", "html"], stdin)
    assert got["code"] == 0, got["stderr"]
    return verdict_lines(got["stdout"])


# the bar settles on an answer: (state, key) once the bar's answer is for the page's current link
SETTLE_JS = r"""(async (hash, wait) => {
  const bar = document.getElementById('calc-bar');
  if (hash !== null) { if (location.hash.slice(1) === hash) location.hash = ''; location.hash = hash; }
  const t0 = performance.now();
  for (;;) {
    const st = bar.getAttribute('data-state');
    if (['done', 'error', 'ask', 'forbidden', 'damaged', 'unavailable'].includes(st) &&
        (wait === null || bar.getAttribute('data-hash') === wait) &&
        (st !== 'done' || document.getElementById('calc-verdict').getAttribute('data-key') === bar.getAttribute('data-key'))) break;
    if (performance.now() - t0 > 90000) return {state: 'timeout:' + st};
    await new Promise(r => setTimeout(r, 20));
  }
  const v = document.getElementById('calc-verdict'), e = document.getElementById('calc-error');
  return {state: bar.getAttribute('data-state'), hash: bar.getAttribute('data-hash'),
          verdict: v.hidden ? null : [...v.querySelectorAll('p')].map(p => p.textContent),
          error: e.hidden ? null : e.textContent};
})"""


def settle(browser, hash: str | None, wait: str | None = "same") -> dict:
    wait = hash if wait == "same" else wait
    got = js(browser, f"{SETTLE_JS}({json.dumps(hash)}, {json.dumps(wait)})")
    assert not got["state"].startswith("timeout"), got
    return got


@pytest.fixture(scope="module")
def shots(tmp_path_factory) -> Path:
    folder = Path(os.environ["FLAMER_SHOTS"]) if os.environ.get("FLAMER_SHOTS") else tmp_path_factory.mktemp("phone-shots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def shot(browser, shots: Path, name: str) -> None:
    data = browser.screenshot()
    assert png_size(data)[0] == 390 * 2
    (shots / f"{name}.png").write_bytes(data)


@pytest.fixture(scope="module")
def phone(chromium, engine_server, engine_site, shots):
    """The calculator opened on the phone, cold for this page (the engine starts: the loading state is
    photographed), settled on README's first fight. (browser, site URL without the trailing /, site folder)."""
    assert (engine_site["summary"].get("engine") or {}).get("included"), engine_site["summary"]
    url = engine_server["url"].rstrip("/")
    chromium.open(f"{url}/{PAGE}#{link_hash('거신 vs 별마대, 행성굴착기(정착)')}", PHONE)
    if js(chromium, "document.getElementById('engine-status').getAttribute('data-state')") == "loading":
        shot(chromium, shots, "1-loading")
    settle(chromium, None, None)
    return chromium, url, engine_site["dir"]


def metrics(browser, m: dict) -> None:
    browser.call("Emulation.setDeviceMetricsOverride", session=True, **m)


# ------------------------------------------------------------- the keyboard up ----
def test_with_the_keyboard_up_the_verdict_stays_in_view_and_typing_flashes_no_error(phone, shots):
    browser, url, _ = phone
    metrics(browser, KEYBOARD)
    try:
        first = settle(browser, link_hash("거신 vs 별마대"))
        assert first["state"] == "done" and first["verdict"] == verdict_of(["fight", "거신 vs 별마대"])
        js(browser, "(() => { const q = document.getElementById('calc-q'); q.focus(); q.setSelectionRange(q.value.length, q.value.length); })()")
        time.sleep(0.2)
        # one syllable every 350 ms: ", 행성굴착기(정착), 개미(체력2" — states in between, many that do not read
        seen = []
        for piece in [", 행성", "굴착기", "(", "정", "착", ")", ", 개", "미", "(", "체", "력", "2"]:
            browser.call("Input.insertText", session=True, text=piece)
            time.sleep(0.35)
            seen.append(js(browser, """(() => { const bar = document.getElementById('calc-bar').getBoundingClientRect();
                const first = document.querySelector('#calc-verdict p, #calc-state, #calc-error');
                const line = first ? first.getBoundingClientRect() : bar;
                return {error: !document.getElementById('calc-error').hidden, top: bar.top, lineBottom: line.bottom,
                        state: document.getElementById('calc-bar').getAttribute('data-state'),
                        focused: document.activeElement.id, height: innerHeight}; })()"""))
        assert not [s for s in seen if s["error"]], seen             # no red flash while typing
        assert all(s["top"] >= -1 and s["lineBottom"] <= s["height"] for s in seen), seen   # the answer in view
        assert all(s["focused"] == "calc-q" for s in seen)            # nothing took the line's focus
        assert "typing" in {s["state"] for s in seen}                 # (in-between states were met, greyed)
        shot(browser, shots, "2-typing-keyboard-up")
        # a pause: now the unfinished line is called so, in view
        time.sleep(ERROR_PAUSE)
        after = js(browser, """(() => { const e = document.getElementById('calc-error'); const r = e.getBoundingClientRect();
            return {shown: !e.hidden, text: e.textContent, top: r.top, bottom: r.bottom}; })()""")
        assert after["shown"] and after["top"] >= 0 and after["bottom"] <= KEYBOARD["height"], after
        assert "괄호" in after["text"] and not cli_words(after["text"]), after
        shot(browser, shots, "3-error-after-pause")
        # finished: the fight needs a stat the cards lack — a question on screen, no error box; Enter goes there
        browser.call("Input.insertText", session=True, text=")")
        browser.call("Input.dispatchKeyEvent", session=True, type="keyDown", key="Enter", code="Enter",
                     windowsVirtualKeyCode=13, nativeVirtualKeyCode=13)
        browser.call("Input.dispatchKeyEvent", session=True, type="keyUp", key="Enter", code="Enter",
                     windowsVirtualKeyCode=13, nativeVirtualKeyCode=13)
        line = "거신 vs 별마대, 행성굴착기(정착), 개미(체력2)"
        given = []
        for stat, word in (("lv", "레벨"), ("atk", "공격력")):   # the engine asks one decision at a time
            asked = settle(browser, None, link_hash(line, stats=given))
            assert asked["state"] == "ask" and asked["error"] is None, asked
            q = js(browser, ASKED_JS)
            assert q["label"] == f"개미의 {word}은?" and q["why"] and not q["errorBox"], q
            assert 0 <= q["top"] and q["bottom"] <= KEYBOARD["height"], q          # on screen, above the keyboard
            time.sleep(0.3)
            assert js(browser, "document.activeElement.classList.contains('calc-stat-value')")   # focused
            if stat == "lv":
                shot(browser, shots, "4-asking-keyboard-up")
            browser.call("Input.insertText", session=True, text="1")
            given.append(f"개미 {stat} 1")
        done = settle(browser, None, link_hash(line, stats=given))
        assert done["state"] == "done"
        assert done["verdict"] == verdict_of(["fight", line, "--stat", given[0], "--stat", given[1]])
        bar = js(browser, "document.getElementById('calc-verdict').getBoundingClientRect().top")
        assert 0 <= bar < KEYBOARD["height"] - 40
        shot(browser, shots, "5-verdict-keyboard-up")
    finally:
        metrics(browser, PHONE)
        js(browser, "localStorage.clear(); document.activeElement.blur()")


ERROR_PAUSE = 1.4   # the page's ERROR_PAUSE_MS (1 s) and a margin
# the question not answered yet: its words, where it is, why it is asked
ASKED_JS = r"""(() => {
  const li = [...document.querySelectorAll('#calc-ask .calc-stat')].find(li => !li.hidden && !li.querySelector('input').value);
  const r = li.querySelector('input').getBoundingClientRect(), why = li.querySelector('.calc-ask-why');
  return {label: li.querySelector('label').textContent, top: r.top, bottom: r.bottom, why: why && !why.hidden ? why.textContent : null,
          errorBox: !document.getElementById('calc-error').hidden};
})()"""


# ---------------------------------------------------- the explanation in the page ----
def test_the_explanation_opens_whole_and_what_is_uncertain_is_in_the_summary(phone, shots):
    browser, url, site = phone
    line = "수문장 vs 개미(체력2 공격력1)"
    got = settle(browser, link_hash(line))
    assert got["state"] == "done" and got["verdict"] == verdict_of(["fight", line])
    summary = js(browser, """(() => ({gaps: document.getElementById('calc-gaps').hidden ? null : document.getElementById('calc-gaps').innerText,
        reasons: document.getElementById('calc-reasons').innerText,
        side: document.getElementById('calc-bar').getAttribute('data-side'),
        bar: document.getElementById('calc-bar-gap').hidden ? null : document.getElementById('calc-bar-gap').textContent}))()""")
    assert summary["gaps"] and "불사" in summary["gaps"] and "룰북에" in summary["gaps"] and "없어" in summary["gaps"], summary   # 미해결, in words
    assert summary["side"] == "DGM"   # the bar in the winner's colour
    assert summary["bar"] and summary["bar"].startswith("확실하지 않음") and "불사" in summary["bar"]   # and in the bar
    assert not any("--full" in v for v in got["verdict"]) and any("아래 풀이 참고" in v for v in got["verdict"])
    shot(browser, shots, "6-verdict")
    js(browser, "document.getElementById('calc-story').open = true")
    time.sleep(0.3)
    fit = js(browser, """(() => { const host = document.getElementById('calc-story-host'), root = host.shadowRoot;
        const page = root.querySelector('.page');
        return {frames: document.querySelectorAll('iframe').length, host: host.getBoundingClientRect().height,
                content: page.scrollHeight, inner: page.scrollHeight - page.clientHeight,
                svg: root.querySelectorAll('svg').length, tables: root.querySelectorAll('table').length,
                links: [...root.querySelectorAll('a.cite-link')].map(a => a.getAttribute('href')),
                pageHeight: document.documentElement.scrollHeight}; })()""")
    assert fit["frames"] == 0 and fit["host"] >= fit["content"] - 1 and fit["inner"] <= 1, fit   # nothing cut off
    assert fit["svg"] >= 1 and fit["tables"] >= 1 and fit["content"] > 1500, fit                # board, HP table, steps
    assert fit["links"] and all((site / h.split("#")[0]).is_file() for h in fit["links"]), fit["links"]
    assert any(h.startswith("rules/combat.html#") for h in fit["links"])
    text = js(browser, VISIBLE_JS)
    assert not cli_words(text), cli_words(text)
    shot(browser, shots, "7-explanation-open")
    y = js(browser, "document.getElementById('calc-story').getBoundingClientRect().top + scrollY")
    data = browser.call("Page.captureScreenshot", session=True, format="png", captureBeyondViewport=True,
                        clip={"x": 0, "y": y, "width": 390, "height": min(fit["content"] + 60, 6000), "scale": 1})["data"]
    import base64

    (shots / "8-explanation-whole.png").write_bytes(base64.b64decode(data))
    js(browser, "document.getElementById('calc-story').open = false")


def test_no_command_line_words_in_any_state(phone, shots):
    """A verdict, a refused play (a ruling, with its clause linked), an input mistake, a question, a
    damaged link, a scenario: the visible text has no --flag, -r/-b label or `flamer command`."""
    browser, url, site = phone
    cases = [
        (link_hash("거신 vs 별마대, 행성굴착기(정착)"), "done"),
        (link_hash("거신 vs 수문장, 장인(정착)", ["공격자 재부팅 장인"]), "forbidden"),
        (link_hash("거신 vs"), "error"),
        (link_hash("수문장 vs 거신") + "&cell=abc", "error"),
        (link_hash("수문장 vs 개미"), "ask"),
        (link_hash("수문장 vs 거신") + "&as_of=abc", "damaged"),
    ]
    from flamer_ref import links
    from flamer_ref.scenario_files import template_text

    cases.append(("y=" + links.pack(template_text("combat")), "done"))
    for h, state in cases:
        got = settle(browser, h)
        assert got["state"] == state, (h, got)
        text = js(browser, VISIBLE_JS)
        assert not cli_words(text), (state, cli_words(text))
        if state == "forbidden":
            assert got["verdict"][0].startswith("불가")
            assert js(browser, "[...document.querySelectorAll('#calc-verdict a')].map(a => a.getAttribute('href'))") == \
                ["rules/response.html#response.opener"]
            shot(browser, shots, "9-forbidden")
        if state == "error" and "cell" in h:
            assert "셀" in got["error"]


def test_no_page_of_the_site_shows_command_line_words(engine_site):
    """Every page as built (its visible text: no script or style, no footer, no collapsed 명령줄에서 note)."""
    import html as htmllib

    site = engine_site["dir"]
    pages = sorted(site.rglob("*.html"))
    assert len(pages) > 100
    for page in pages:
        text = page.read_text(encoding="utf-8")
        text = re.sub(r"<(script|style|textarea)[^>]*>.*?</\1>", "", text, flags=re.S)
        text = re.sub(r"<footer.*?</footer>", "", text, flags=re.S)
        text = re.sub(r'<details class="(cli-note|calc-cli)".*?</details>', "", text, flags=re.S)
        text = re.sub(r"<noscript>.*?</noscript>", "", text, flags=re.S)
        words = cli_words(htmllib.unescape(re.sub(r"<[^>]+>", " ", text)))
        assert not words, (page.relative_to(site), words)


# ---------------------------------------------------------------- short links ----
def test_the_round_templates_link_is_short_opens_the_verdict_and_cut_says_so(phone, shots):
    from inprocess import invoke

    from flamer_ref.scenario_files import template_text

    browser, url, site = phone
    text = template_text("round")
    path = site.parent / "라운드.yaml"
    path.write_text(text, encoding="utf-8")
    res = invoke("simulate", str(path), "--link", "--site-url", url)
    assert res.exit_code == 0, res.output
    link = res.stdout.rstrip("\n").split("\n")[-1]
    assert len(link) <= DISCORD and link.startswith(f"{url}/{PAGE}#y=~"), len(link)
    frag = link.split("#", 1)[1]
    got = settle(browser, frag)
    assert got["state"] == "done" and got["verdict"] == verdict_of(["simulate", "-"], text)
    shot(browser, shots, "10-round-template")
    # the page's own link of what it shows (판정 링크 복사): as short
    own = js(browser, "location.href")
    assert len(own) <= DISCORD
    # cut short anywhere: it says so, and answers nothing
    for n in (len(frag) // 2, len(frag) - 3, 8):
        got = settle(browser, frag[:n])
        assert got["state"] == "damaged" and got["error"].startswith("링크가 잘렸습니다"), (n, got)
        assert got["verdict"] is None
    shot(browser, shots, "11-cut-link")
    # the 틀 button's scenario (the template without its command-line header) has a link as short
    js(browser, "document.getElementById('tab-scenario').click(); document.querySelector('[data-template=\"round\"]').click()")
    got = settle(browser, None, None)
    assert got["state"] == "done"
    time.sleep(0.2)
    assert len(js(browser, "location.href")) <= DISCORD and "#y=~1~" in js(browser, "location.href")
    js(browser, "document.getElementById('tab-fight').click()")


# ------------------------------------------------------------------- thumbs ----
TARGETS_JS = r"""(() => {
  const out = [];
  const sel = 'button, input, textarea, select, summary, [role=option], [role=tab], label.calc-button, .site-head a, #results a';
  for (const el of document.querySelectorAll(sel)) {
    if (el.classList.contains('calc-offscreen') || el.type === 'file') continue;
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height || !el.offsetParent) continue;
    if (r.width < 43.5 || r.height < 43.5) out.push(el.tagName + '#' + el.id + '.' + el.className + ' ' + (el.textContent || el.placeholder || '').trim().slice(0, 20) + ' ' + Math.round(r.width) + 'x' + Math.round(r.height));
  }
  const small = [...document.querySelectorAll('input, textarea, select')].filter(el => el.offsetParent && el.type !== 'file' &&
    parseFloat(getComputedStyle(el).fontSize) < 16).map(el => el.id || el.className);
  return {small: out, fonts: small};
})()"""


def test_thumbs_completion_keys_swap_and_copy(phone, shots):
    browser, url, site = phone
    settle(browser, link_hash("거신 vs 별마대"))
    # everything open that has targets: the options, the examples
    js(browser, "document.getElementById('calc-opts').open = true; document.querySelector('.calc-more').open = true; "
                "document.querySelector('[data-add=r]').click()")
    # typing 별마 offers 별마대 (an ARIA combobox)
    js(browser, "(() => { const q = document.getElementById('calc-q'); q.value = '거신 대 '; q.focus(); q.setSelectionRange(5, 5); })()")
    browser.call("Input.insertText", session=True, text="별마")
    time.sleep(0.2)
    combo = js(browser, """(() => ({expanded: document.getElementById('calc-q').getAttribute('aria-expanded'),
        role: document.getElementById('calc-q').getAttribute('role'),
        options: [...document.querySelectorAll('#calc-suggest [role=option]')].map(o => o.getAttribute('data-name'))}))()""")
    assert combo["role"] == "combobox" and combo["expanded"] == "true" and "별마대" in combo["options"], combo
    targets = js(browser, TARGETS_JS)
    assert not targets["small"] and not targets["fonts"], targets
    shot(browser, shots, "12-completion")
    for key in ("ArrowDown", "Enter"):
        browser.call("Input.dispatchKeyEvent", session=True, type="keyDown", key=key, code=key,
                     windowsVirtualKeyCode=40 if key == "ArrowDown" else 13)
        browser.call("Input.dispatchKeyEvent", session=True, type="keyUp", key=key, code=key,
                     windowsVirtualKeyCode=40 if key == "ArrowDown" else 13)
    assert js(browser, "document.getElementById('calc-q').value") == "거신 대 별마대"
    # the keys: no English keyboard needed
    js(browser, "document.querySelector('[data-insert=settled]').click(); document.querySelector('[data-insert=count]').click()")
    line = js(browser, "document.getElementById('calc-q').value")
    assert line == "거신 대 별마대(정착) ×2", line
    got = settle(browser, None, link_hash(line))
    assert got["state"] == "done" and got["verdict"] == verdict_of(["fight", line])
    # 공격·수비 바꾸기
    js(browser, "document.getElementById('calc-swap').click()")
    swapped = js(browser, "document.getElementById('calc-q').value")
    assert swapped == "별마대(정착) ×2 대 거신", swapped
    got = settle(browser, None, link_hash(swapped))
    assert got["state"] == "done" and got["verdict"] == verdict_of(["fight", swapped])
    # 판정 복사: the verdict and its reasons, as plain text, with the link
    browser.call("Browser.grantPermissions", permissions=["clipboardReadWrite", "clipboardSanitizedWrite"], origin=url)
    browser.call("Emulation.setFocusEmulationEnabled", session=True, enabled=True)
    copied = js(browser, """(async () => { document.getElementById('calc-copy-verdict').click();
        for (let i = 0; i < 100 && !document.getElementById('calc-link-status').textContent; i++) await new Promise(r => setTimeout(r, 20));
        return await navigator.clipboard.readText(); })()""")
    lines = copied.split("\n")
    assert lines[:len(got["verdict"])] == got["verdict"] and "이유:" in lines and lines[-1].endswith("#" + link_hash(swapped)), copied
    assert "<" not in copied
    # the index page's header and search: the same thumbs
    browser.open(f"{url}/index.html?q={quote('정착 기물')}", PHONE)
    time.sleep(0.5)
    targets = js(browser, TARGETS_JS)
    assert not targets["small"] and not targets["fonts"], targets


# ------------------------------------------------------------------ offline ----
def test_after_one_visit_the_whole_site_opens_offline(phone, engine_server, shots):
    """The service worker keeps every page on the first visit (with progress): with the server gone and the
    network cut, a rules page, a card page and the FAQ open — pages never visited — and an address the
    site does not have gets the offline page."""
    browser, url, site = phone
    browser.open(f"{url}/{PAGE}", PHONE)
    state = js(browser, """(async () => { await navigator.serviceWorker.ready;
        for (let i = 0; i < 1200; i++) {
          // this site's cache (its scope is the site's root; a site at /no-engine/ keeps its own)
          const names = (await caches.keys()).filter(n => n.startsWith('flamer-site ' + location.origin + '/ '));
          if (navigator.serviceWorker.controller && names.length) {
            const c = await caches.open(names[names.length - 1]);
            const keys = await c.keys();
            if (keys.length >= window.__want) return {entries: keys.length, names: names.length};
          }
          await new Promise(r => setTimeout(r, 100));
        }
        return null; })()""".replace("window.__want", str(_precache_count(site))), timeout=300)
    assert state, "the service worker did not keep the whole site"
    engine_server["down"].set()
    browser.call("Network.enable", session=True)
    browser.call("Network.emulateNetworkConditions", session=True, offline=True, latency=0, downloadThroughput=-1,
                 uploadThroughput=-1)
    try:
        for rel, title in (("rules/response.html", None), (f"cards/{quote('거신')}.html", "거신"), ("faq.html", None)):
            browser.open(f"{url}/{rel}", PHONE)
            got = js(browser, "({title: document.title, h1: (document.querySelector('h1') || {}).textContent || ''})")
            assert "인터넷에 연결되어 있지 않습니다" not in got["h1"] and got["title"], (rel, got)
            if title:
                assert title in got["title"], got
        shot(browser, shots, "13-offline-faq")
        browser.open(f"{url}/없는-페이지.html", PHONE)
        assert js(browser, "document.querySelector('h1').textContent") == "인터넷에 연결되어 있지 않습니다"
        shot(browser, shots, "14-offline-fallback")
    finally:
        browser.call("Network.emulateNetworkConditions", session=True, offline=False, latency=0,
                     downloadThroughput=-1, uploadThroughput=-1)
        engine_server["down"].clear()


def _precache_count(site: Path) -> int:
    sw = (site / "sw.js").read_text(encoding="utf-8")
    config = json.loads(sw.split("var CONFIG = ", 1)[1].split(";\n", 1)[0])
    pages = [p for p in config["precache"] if p.endswith(".html")]
    assert len(pages) == len(list(site.rglob("*.html"))) and "offline.html" in config["precache"]
    return len(config["precache"])


# ------------------------------------------------------------------- search ----
def test_on_a_warm_profile_the_first_hit_never_changes(phone):
    """The engine kept its memory snapshot on an earlier visit: the index page starts it with itself, and
    each query's list is the engine's from its first paint — the first hit shown is never replaced."""
    from flamer_ref import web

    browser, url, site = phone
    from test_site_engine import questions

    qs = questions(14) + ["정착한 애 한대 맞으면 바로 잡힘?"]
    # the snapshot is there (the calculator's engine left it)
    assert js(browser, """(async () => { for (let i = 0; i < 300; i++) {
        const n = (await caches.keys()).find(n => n.startsWith('flamer-engine-snapshot'));
        if (n && (await (await caches.open(n)).keys()).length) return true;
        await new Promise(r => setTimeout(r, 100)); } return false; })()""")
    browser.open(f"{url}/index.html", PHONE)
    got = js(browser, f"""(async () => {{
      const input = document.getElementById('q'), list = document.getElementById('results'), out = [];
      for (const q of {json.dumps(qs, ensure_ascii=False)}) {{
        input.focus(); input.value = q; input.dispatchEvent(new Event('input'));
        const firsts = []; const t0 = performance.now();
        for (;;) {{
          await new Promise(r => setTimeout(r, 5));
          if (list.getAttribute('data-query') === q && list.firstChild) {{
            const id = list.firstChild.getAttribute('data-id');
            if (firsts[firsts.length - 1] !== id) firsts.push(id);
            if (list.getAttribute('data-source') === 'engine' && performance.now() - t0 > 300) break;
          }}
          if (performance.now() - t0 > 20000) break;
        }}
        out.push({{q, firsts, source: list.getAttribute('data-source')}});
      }}
      return out; }})()""", timeout=900)
    changed = [g for g in got if len(g["firsts"]) != 1]
    assert not changed, changed
    for g in got:
        want = json.loads(web.run(["search", g["q"], "--json", "-n", "15"])["stdout"])["results"]
        assert g["source"] == "engine" and g["firsts"] == [want[0]["id"]], g


# ------------------------------------------------------------------ install ----
def test_installable_with_a_maskable_icon_starting_on_the_calculator(engine_site):
    site = engine_site["dir"]
    m = json.loads((site / "manifest.webmanifest").read_text(encoding="utf-8"))
    assert m["start_url"] == PAGE and m["theme_color"] and m["display"] == "standalone"
    maskable = [i for i in m["icons"] if i["purpose"] == "maskable"]
    assert {i["sizes"] for i in maskable} == {"192x192", "512x512"} and all((site / i["src"]).is_file() for i in maskable)
    html = (site / "판정기.html").read_text(encoding="utf-8")
    assert 'name="theme-color"' in html and "interactive-widget=resizes-content" in html
