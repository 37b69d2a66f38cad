"""Book benchmark: how long `flamer book` takes, as a user runs it (a fresh process each time).

    python benchmarks/book_bench.py              # HTML 3 times, PDF 2 times, then the PDF's parts
    python benchmarks/book_bench.py --runs 5 2   # other counts (HTML, PDF)
    python benchmarks/book_bench.py --quick      # HTML 1, PDF 1, no breakdown

Targets on this machine (2 cores): HTML book ≤ 3 s, PDF book ≤ 30 s. Prints, for each format, the
best and median wall time of the whole command, its CPU time (less sensitive to other work on the
machine), and the ratio to the target; then where the PDF's time goes (building the book's data and
HTML, the word-joiner pass for Korean line breaking, WeasyPrint's layout, writing the file) and what
the word-joiner pass costs WeasyPrint (the same HTML laid out with and without it). The tests assert
nothing about time; this is for people.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

TARGETS = {"html": 3.0, "pdf": 30.0}


def run_cli(fmt: str, out: Path) -> tuple[float, float]:
    """Wall and CPU seconds of one `flamer book --format FMT -o OUT` in a fresh process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run([sys.executable, "-m", "flamer_ref", "book", "--format", fmt, "-o", str(out)],
                       capture_output=True, text=True, cwd=ROOT)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        sys.exit(f"flamer book --format {fmt} failed:\n{p.stderr}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def measure(fmt: str, runs: int, tmp: Path) -> None:
    walls, cpus = [], []
    for i in range(runs):
        wall, cpu = run_cli(fmt, tmp / f"book{i}.{fmt}")
        walls.append(wall)
        cpus.append(cpu)
    target = TARGETS[fmt]
    best = min(walls)
    verdict = "ok" if best <= target else "OVER TARGET"
    size = (tmp / f"book0.{fmt}").stat().st_size
    extra = ""
    if fmt == "pdf":
        try:
            info = subprocess.run(["pdfinfo", str(tmp / "book0.pdf")], capture_output=True, text=True).stdout
            extra = ", " + next(ln.split()[-1] for ln in info.splitlines() if ln.startswith("Pages:")) + " pages"
        except (OSError, StopIteration):
            pass
    print(f"{fmt:4s}  best {best:6.2f} s  median {statistics.median(walls):6.2f} s  cpu {min(cpus):6.2f} s  "
          f"target {target:4.0f} s  ratio {best / target:4.2f}  {verdict}   ({runs} runs, {size / 1e6:.2f} MB{extra})")


def breakdown() -> None:
    """Where the PDF's time goes, in this process (so WeasyPrint's import is counted once)."""
    from flamer_ref import pdf
    from flamer_ref.book import build_book, render_html
    from flamer_ref.corpus import load

    t = time.perf_counter()
    html = render_html(build_book(load()))
    t_html = time.perf_counter() - t
    t = time.perf_counter()
    weasyprint = pdf._load_weasyprint()
    t_import = time.perf_counter() - t
    font = pdf.korean_font()
    facts = pdf.scan(html)
    t = time.perf_counter()
    joined = pdf.svg_fonts(pdf.keep_words(html), font)
    t_join = time.perf_counter() - t
    css = weasyprint.CSS(string=pdf.pdf_stylesheet(facts, font))

    def layout(source: str):
        c0, t0 = time.process_time(), time.perf_counter()
        doc = weasyprint.HTML(string=source).render(stylesheets=[css])
        return doc, time.perf_counter() - t0, time.process_time() - c0

    doc, t_layout, c_layout = layout(joined)
    with tempfile.TemporaryDirectory() as d:
        t = time.perf_counter()
        doc.write_pdf(Path(d) / "b.pdf")
        t_write = time.perf_counter() - t
    _, t_plain, c_plain = layout(pdf.svg_fonts(html, font))
    print(f"\nPDF parts: book data + HTML {t_html:.2f} s · import WeasyPrint {t_import:.2f} s · "
          f"word joiners {t_join * 1000:.0f} ms · layout {t_layout:.2f} s ({len(doc.pages)} pages) · write {t_write:.2f} s")
    print(f"word-joiner pass: layout with {t_layout:.2f} s (cpu {c_layout:.2f}) vs without {t_plain:.2f} s "
          f"(cpu {c_plain:.2f}): {100 * (c_layout - c_plain) / c_plain:+.0f}% cpu, plus {t_join * 1000:.0f} ms for the pass")


def main(argv: list[str]) -> None:
    runs = (3, 2)
    quick = "--quick" in argv
    if quick:
        runs = (1, 1)
    if "--runs" in argv:
        i = argv.index("--runs")
        runs = (int(argv[i + 1]), int(argv[i + 2]))
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0
    print(f"flamer book, {os.cpu_count()} cores, load average {load:.2f}"
          + ("  (busy machine: times will be high)" if load > 0.8 * (os.cpu_count() or 1) else ""))
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        measure("html", runs[0], tmp)
        measure("pdf", runs[1], tmp)
    if not quick:
        breakdown()


if __name__ == "__main__":
    main(sys.argv[1:])
