"""The HTML book and a page of the static site in a real browser (headless Chromium, driven over its
DevTools pipe): at a desktop and a phone width, and in print (A4, print media), nothing is wider than
the page — neither the document (no sideways scrolling) nor any element in it, except inside a box
that scrolls sideways on purpose (a wide table on a phone). Chromium also prints each page to a PDF
and takes a screenshot, as a person would.

Skipped, saying why, where Chromium is absent (.ci/run installs Debian's chromium)."""

from __future__ import annotations

import base64
import functools
import json
import os
import re
import select
import shutil
import subprocess
import time
from pathlib import Path

import flamer_fork
import pytest

CHROMIUM = next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome", "chrome")
                 if shutil.which(n)), None)
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (apt-get install chromium)")

DESKTOP = {"width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": False}
PHONE = {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True}
# print: an A4 page's width less the page margins of the book's @page rule, in CSS pixels (96 per inch)
A4_MM = (210, 297)
PX_PER_MM = 96 / 25.4

# What overflows: the document wider than the viewport, and every element whose right edge passes the
# viewport's, unless it sits inside a box that scrolls or clips sideways (then that box must fit).
OVERFLOW_JS = r"""
(() => {
  const W = document.documentElement.clientWidth;
  const clips = el => { const o = getComputedStyle(el).overflowX; return o === 'auto' || o === 'scroll' || o === 'hidden'; };
  const name = el => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
                     (el.classList.length ? '.' + [...el.classList].join('.') : '');
  const bad = [], scrolled = [];
  for (const el of document.body.querySelectorAll('*')) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    // content wider than its own box (a long line in <pre>) sticks out past the box's right edge
    const right = Math.max(r.right, el instanceof HTMLElement && getComputedStyle(el).overflowX === 'visible'
                                    ? r.left + el.scrollWidth : 0);
    if (right <= W + 1) continue;
    let box = el.parentElement, inside = null;
    while (box && box !== document.body) { if (clips(box)) { inside = box; break; } box = box.parentElement; }
    if (inside) {
      const rb = inside.getBoundingClientRect();
      if (rb.right > W + 1) bad.push(name(inside) + ' (scroller) right=' + Math.round(rb.right));
      else if (!scrolled.includes(name(inside))) scrolled.push(name(inside));
      continue;
    }
    bad.push(name(el) + ' right=' + Math.round(right) + ' text=' + (el.textContent || '').trim().slice(0, 40));
  }
  const kinds = {};
  for (const sel of ['table', 'svg', 'pre', 'img', 'figure']) kinds[sel] = document.querySelectorAll(sel).length;
  return {width: W, scrollWidth: document.documentElement.scrollWidth, bad: bad.slice(0, 30),
          nbad: bad.length, scrolled: scrolled.slice(0, 30), kinds: kinds,
          text: document.body.innerText.length};
})()
"""


class Chromium:
    """Headless Chromium driven over --remote-debugging-pipe (the DevTools protocol as NUL-separated
    JSON on file descriptors 3 and 4): no network port, no extra package."""

    def __init__(self, tmp: Path):
        to_chrome_r, self._to_chrome = os.pipe()
        self._from_chrome, from_chrome_w = os.pipe()

        def fds():  # in the child: the pipe ends at the numbers Chromium reads (3) and writes (4)
            a, b = os.dup(to_chrome_r), os.dup(from_chrome_w)  # first out of the way of 3 and 4
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.proc = subprocess.Popen(
            [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
             "--no-first-run", "--no-default-browser-check", "--hide-scrollbars", "--mute-audio",
             f"--user-data-dir={tmp / 'profile'}", "--remote-debugging-pipe", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            preexec_fn=fds, pass_fds=(3, 4))
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self._buf = b""
        self._id = 0
        self.events: list[dict] = []
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        self.call("Page.enable", session=True)
        self.call("Runtime.enable", session=True)

    def _read(self, deadline: float) -> dict:
        while b"\0" not in self._buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("Chromium did not answer in time")
            ready, _, _ = select.select([self._from_chrome], [], [], left)
            if ready:
                chunk = os.read(self._from_chrome, 1 << 20)
                if not chunk:
                    raise RuntimeError("Chromium closed the DevTools pipe")
                self._buf += chunk
        msg, _, self._buf = self._buf.partition(b"\0")
        return json.loads(msg)

    def call(self, method: str, session: bool = False, timeout: float = 120, **params):
        self._id += 1
        msg = {"id": self._id, "method": method, "params": params}
        if session:
            msg["sessionId"] = self.session
        os.write(self._to_chrome, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            reply = self._read(deadline)
            if reply.get("id") == self._id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def wait_event(self, method: str, timeout: float = 120) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            for i, ev in enumerate(self.events):
                if ev.get("method") == method:
                    return self.events.pop(i)
            self.events.append(self._read(deadline))

    def open(self, url: str, metrics: dict, media: str = "") -> None:
        self.call("Emulation.setDeviceMetricsOverride", session=True, **metrics)
        self.call("Emulation.setEmulatedMedia", session=True, media=media)
        self.events.clear()
        got = self.call("Page.navigate", session=True, url=url)
        if got.get("loaderId"):  # a new document (a change of the #fragment alone loads nothing: no load event)
            self.wait_event("Page.loadEventFired")

    def evaluate(self, expression: str):
        res = self.call("Runtime.evaluate", session=True, expression=expression, returnByValue=True)
        if "exceptionDetails" in res:
            raise RuntimeError(res["exceptionDetails"])
        return res["result"]["value"]

    def screenshot(self) -> bytes:
        return base64.b64decode(self.call("Page.captureScreenshot", session=True, format="png")["data"])

    def print_pdf(self) -> bytes:
        res = self.call("Page.printToPDF", session=True, timeout=300, preferCSSPageSize=True, printBackground=True,
                        paperWidth=A4_MM[0] / 25.4, paperHeight=A4_MM[1] / 25.4)
        return base64.b64decode(res["data"])

    def close(self) -> None:
        try:
            self.call("Browser.close", timeout=10)
        except Exception:  # noqa: BLE001 - it may close the pipe before answering
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for fd in (self._to_chrome, self._from_chrome):
            try:
                os.close(fd)
            except OSError:
                pass


flamer = functools.partial(flamer_fork.run, timeout=600, env={"PYTHONIOENCODING": "utf-8"})  # a real process


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def page_margins_mm(html: str) -> tuple[float, float]:
    """Left and right page margins of the document's first @page rule (CSS shorthand), in mm."""
    m = re.search(r"@page\s*\{[^}]*?margin:\s*([^;]+);", html)
    if not m:
        return 20.0, 20.0
    vals = [float(v[:-2]) if v.endswith("mm") else 20.0 for v in m.group(1).split()]
    right = vals[1] if len(vals) > 1 else vals[0]
    left = vals[3] if len(vals) > 3 else right
    return left, right


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("chromium")
    try:
        b = Chromium(tmp)
    except (OSError, RuntimeError, TimeoutError) as exc:
        pytest.skip(f"Chromium would not start headless here: {exc}")
    yield b
    b.close()


@pytest.fixture(scope="module")
def pages(tmp_path_factory, bundled_site):
    """The HTML book, and one rules page and the index of the static site (the session's `flamer site` of
    the bundled data: tests/web/conftest.py)."""
    d = tmp_path_factory.mktemp("pages")
    book = d / "rules.html"
    p = flamer("book", "-o", str(book))
    assert p.returncode == 0, p.stderr
    site = bundled_site["dir"]
    rules = sorted((site / "rules").glob("*.html"))
    assert rules, "flamer site wrote no rules page"
    return {"book": book, "site-index": site / "index.html", "site-rules": rules[0]}


def check_fits(browser: Chromium, path: Path, metrics: dict, media: str = "") -> dict:
    browser.open(path.as_uri(), metrics, media)
    report = browser.evaluate(OVERFLOW_JS)
    assert report["text"] > 200, f"{path.name}: the page has (almost) no text: {report}"
    assert report["scrollWidth"] <= report["width"], f"{path.name} scrolls sideways at {metrics['width']}px: {report}"
    assert report["nbad"] == 0, f"{path.name} at {metrics['width']}px {media}: {report['nbad']} overflow: {report['bad']}"
    return report


PAGE_NAMES = ["book", "site-rules", "site-index"]


@pytest.mark.parametrize("name", PAGE_NAMES)
@pytest.mark.parametrize("metrics", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_nothing_overflows_the_screen(browser, pages, name, metrics, tmp_path):
    report = check_fits(browser, pages[name], metrics)
    if name == "book":
        assert report["kinds"]["svg"] > 0 and report["kinds"]["table"] > 0  # the pictures and tables were checked
    shot = browser.screenshot()
    w, h = png_size(shot)
    assert (w, h) == (metrics["width"] * metrics["deviceScaleFactor"], metrics["height"] * metrics["deviceScaleFactor"])
    (tmp_path / f"{name}.png").write_bytes(shot)
    from PIL import Image  # in the test extra (through [pdf]): only to see that the screenshot is not blank

    colours = Image.open(tmp_path / f"{name}.png").convert("L").getextrema()
    assert colours[1] - colours[0] > 100, "the screenshot is blank"


@pytest.mark.parametrize("name", PAGE_NAMES)
def test_nothing_overflows_the_printed_page(browser, pages, name, tmp_path):
    """Print media at the width of an A4 page's text area, then Chromium's own print to PDF."""
    html = pages[name].read_text(encoding="utf-8")
    left, right = page_margins_mm(html)
    width = int((A4_MM[0] - left - right) * PX_PER_MM)
    check_fits(browser, pages[name], {"width": width, "height": int(A4_MM[1] * PX_PER_MM),
                                      "deviceScaleFactor": 1, "mobile": False}, media="print")
    browser.call("Emulation.setEmulatedMedia", session=True, media="")
    data = browser.print_pdf()
    assert data[:5] == b"%PDF-"
    out = tmp_path / f"{name}.pdf"
    out.write_bytes(data)
    if shutil.which("pdfinfo"):
        info = subprocess.run(["pdfinfo", str(out)], capture_output=True, text=True, check=True).stdout
        size = re.search(r"Page size:\s+([\d.]+) x ([\d.]+)", info)
        assert abs(float(size.group(1)) - 595.3) < 2 and abs(float(size.group(2)) - 841.9) < 2, info
        pages_n = int(re.search(r"Pages:\s+(\d+)", info).group(1))
        assert pages_n >= (10 if name == "book" else 1)
        if shutil.which("pdftotext"):
            # Chromium shrinks a page that is too wide to fit the paper: then the text runs past the
            # right margin no more, but the body text gets small. Words must stay inside the paper.
            bbox = subprocess.run(["pdftotext", "-bbox", "-f", "1", "-l", "12", str(out), "-"],
                                  capture_output=True, text=True, check=True).stdout
            xs = [float(x) for x in re.findall(r'xMax="([\d.]+)"', bbox)]
            assert xs and max(xs) <= float(size.group(1)) + 0.5
