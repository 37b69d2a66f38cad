"""Writing a book or FAQ page (`flamer book`, `flamer faq --format md|html|pdf`): the page as HTML,
Markdown or the PDF made from the HTML, to -o FILE or standard output, with the progress line on a
terminal and the done line on standard error (PageReport)."""

from __future__ import annotations

import sys
from typing import Optional


class PageReport:
    """The progress line (on a terminal's stderr only, flamer_ref/progress.py) and the done line (on
    stderr always) of `flamer book` and `flamer faq --format md|html|pdf`. Words:
    templates/cli/page_progress.txt.j2, templates/cli/page_written.txt.j2."""

    def __init__(self, what: str, fmt: str, counts: dict):
        from .progress import Progress

        self.what, self.counts = what, dict(counts)
        self.steps = ("solve", "layout", "write") if fmt == "pdf" else ("solve", "write")
        self.progress = Progress()
        self.current = "solve"

    def step(self, step: str, pages: int = 0, force: bool = True) -> None:
        if not self.progress.enabled:
            return
        from .render import render

        self.current = step
        no = self.steps.index({"render": "solve", "index": "layout", "refit": "layout"}.get(step, step)) + 1
        self.progress.show(render("cli/page_progress.txt.j2", what=self.what, counts=self.counts, step=step,
                                  no=no, steps=len(self.steps), pages=pages).strip(), force=force)

    def figures(self, html: str) -> None:
        self.counts["figures"] = html.count('<svg class="fig"')

    def pdf_step(self, step: str, pages: int) -> None:
        """html_to_pdf's progress: ("layout" | "refit" | "index" | "write", pages so far)."""
        self.step(step, pages, force=step != self.current)

    def done(self, output: Optional[str], pages: Optional[int], size: int) -> None:
        from .render import render

        self.progress.clear()
        sys.stderr.write(render("cli/page_written.txt.j2", what=self.what, path=output, pages=pages,
                                size=size).strip() + "\n")


def write_page(text: str, fmt: str, output: Optional[str], progress=None) -> tuple[Optional[int], int]:
    """Write an HTML or Markdown page (or, for pdf, the PDF made from the HTML) to -o FILE or standard output.
    Returns (the PDF's pages or None, the bytes written). progress: html_to_pdf's progress callback."""
    from pathlib import Path

    from .cleantext import clean

    text = clean(text, html=fmt != "md")  # a page carries no raw control characters (autoescape keeps ESC)
    if fmt == "pdf":
        try:
            from .pdf import html_to_pdf
        except ModuleNotFoundError as exc:
            if exc.name != f"{__package__}.pdf":
                raise
            from .errors import FlamerError

            raise FlamerError("PDF를 만들 수 없습니다: 이 설치에는 PDF 모듈(flamer_ref.pdf)이 없습니다. "
                              "--format html로 만든 뒤 브라우저에서 인쇄하세요.") from None
        if output:
            from .outfile import check_target

            target = check_target(output, "-o", "PDF 파일")
            pages = html_to_pdf(text, target, progress=progress)
            return pages, Path(target).stat().st_size
        import tempfile

        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "out.pdf"
            pages = html_to_pdf(text, path, progress=progress)
            data = path.read_bytes()
            if progress is not None:
                progress("write", pages)
            to_stdout(data)
        return pages, len(data)
    if progress is not None:
        progress("write", 0)
    if output:
        from .outfile import write_text

        write_text(output, text, "-o")
        return None, len(text.encode("utf-8"))
    data = text.encode("utf-8")
    to_stdout(data)
    return None, len(data)


def to_stdout(data: bytes) -> None:
    """All of data on standard output (a page is UTF-8 whatever the locale), or the command ends as
    terminal.output_failed ends it (exit 1; a reader that closed the pipe, quietly): never a success
    said over a page cut short. A write the system takes only in part is written on from where it
    stopped; a text stream over an unbuffered file (python -u, PYTHONUNBUFFERED) drops the rest of
    such a write and says nothing, so the page goes to the bytes underneath, a piece at a time."""
    sys.stdout.flush()
    try:
        out = sys.stdout.buffer
    except AttributeError:  # a text stream only (the site's engine: io.StringIO)
        sys.stdout.write(data.decode("utf-8"))
        return
    view = memoryview(data)
    while view:
        n = out.write(view[:1 << 16])
        if n is None:  # a non-blocking output that is full: wait until it takes more
            import select

            select.select([], [out.fileno()], [])
            continue
        view = view[n:]
    out.flush()
