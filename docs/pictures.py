"""The README's picture, made from the real tool: the calculator on a phone beside a page of the handbook.

    python docs/pictures.py            # writes docs/picture.png

What it does, with this checkout's own code:
1. `flamer site` into a temporary folder (with the calculator's engine: Pyodide from the user cache, or the
   npm registry once), served on 127.0.0.1 by the server of `flamer site --serve`;
2. headless Chromium (Debian: apt-get install chromium) opens 판정기.html at 390×844 on the README's first
   fight and photographs the verdict once the engine has answered;
3. `flamer book --format pdf` (pip install ".[pdf]", poppler-utils) and pdftoppm draw the page of the
   handbook that shows 장면 3's board;
4. Pillow (it comes with the [pdf] extra) puts the two side by side.

Nothing here is a test: it is how the picture is regenerated after the pages change.
"""

from __future__ import annotations

import base64
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))  # the DevTools driver the browser tests use (tests/test_browser.py)

OUT = ROOT / "docs" / "picture.png"
FIGHT = "거신 vs 별마대, 행성굴착기(정착)"
PHONE = {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True}
BOOK_PAGE_WORDS = "장면 3"  # the handbook page drawn: the first that shows this example's board


def flamer(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "flamer_ref", *args], capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, "PYTHONIOENCODING": "utf-8"}, timeout=900)


def phone_shot(work: Path) -> bytes:
    from flamer_ref import links, siteengine
    from test_browser import CHROMIUM, Chromium

    if CHROMIUM is None:
        sys.exit("Chromium이 없습니다: sudo apt-get install chromium")
    site = work / "site"
    r = flamer("site", str(site))
    if r.returncode != 0:
        sys.exit(r.stderr)
    server = siteengine.make_server(str(site), 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    browser = Chromium(work)
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/{quote(links.PAGE)}#{links.fragment(links.FightLink(FIGHT))}"
        browser.open(url, PHONE)
        for _ in range(1200):  # the engine starts (seconds), then answers
            if browser.evaluate("document.getElementById('calc-bar').getAttribute('data-state')") == "done":
                break
            time.sleep(0.1)
        else:
            sys.exit("판정기가 답하지 않았습니다")
        browser.evaluate("document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0)")
        time.sleep(6)  # the site's "오프라인 준비 끝" notice goes after 4 s (assets/pwa.js)
        return browser.screenshot()
    finally:
        browser.close()
        server.shutdown()


def book_page(work: Path) -> bytes:
    pdf = work / "book.pdf"
    r = flamer("book", "--format", "pdf", "-o", str(pdf))
    if r.returncode != 0:
        sys.exit(r.stderr)
    text = subprocess.run(["pdftotext", "-enc", "UTF-8", str(pdf), "-"], capture_output=True, text=True).stdout
    pages = text.split("\f")
    # the example's own page with its board (the board's legend is on it), not a rule that links to it
    n = next(i + 1 for i, p in enumerate(pages) if BOOK_PAGE_WORDS in p and "앞면 = 기동" in p)
    stem = work / "page"
    subprocess.run(["pdftoppm", "-r", "110", "-f", str(n), "-l", str(n), "-png", "-singlefile", str(pdf), str(stem)],
                   check=True)
    return (work / "page.png").read_bytes()


def compose(phone: bytes, page: bytes) -> bytes:
    from PIL import Image

    a = Image.open(io.BytesIO(phone)).convert("RGB")
    b = Image.open(io.BytesIO(page)).convert("RGB")
    h = 900
    a = a.resize((round(a.width * h / a.height), h), Image.LANCZOS)
    b = b.resize((round(b.width * h / b.height), h), Image.LANCZOS)
    gap = 40
    out = Image.new("RGB", (a.width + b.width + gap * 3, h + gap * 2), "#eef1f4")
    out.paste(a, (gap, gap))
    out.paste(b, (a.width + gap * 2, gap))
    buf = io.BytesIO()
    out.quantize(colors=128, method=Image.Quantize.MEDIANCUT).save(buf, format="PNG", optimize=True)
    return buf.getvalue()


def main() -> None:
    for tool in ("pdftotext", "pdftoppm"):
        if not shutil.which(tool):
            sys.exit(f"{tool}이 없습니다: sudo apt-get install poppler-utils")
    with tempfile.TemporaryDirectory(prefix="flamer-pictures-") as tmp:
        work = Path(tmp)
        picture = compose(phone_shot(work), book_page(work))
    OUT.write_bytes(picture)
    print(json.dumps({"picture": str(OUT.relative_to(ROOT)), "bytes": len(picture)}, ensure_ascii=False))


if __name__ == "__main__":
    main()
