"""A one-line progress report for long commands (`flamer book`, `flamer faq --format pdf`), shown
only where a person watches it: on standard error when that is a terminal. The line is rewritten in
place (a carriage return, then spaces over what was longer before), clipped to the terminal's width
(Korean letters count two columns) so that it never wraps; nothing is written when standard error
is a file or a pipe. The words come from the caller (templates/cli/page_progress.txt.j2).

Stdlib only; no escape sequences (a dumb terminal shows the same line).
"""

from __future__ import annotations

import shutil
import sys
import time


class Progress:
    def __init__(self, stream=None, *, enabled: bool | None = None, interval: float = 0.1):
        stream = sys.stderr if stream is None else stream
        # the guarded stderr (terminal.setup) turns control characters into pictures: the line's own
        # carriage return goes to the stream below it; the text itself is cleaned here
        self._out = getattr(stream, "_stream", stream)
        if enabled is None:
            try:
                enabled = bool(stream.isatty())
            except (AttributeError, OSError, ValueError):
                enabled = False
        self.enabled = enabled
        self._interval = interval
        self._shown = 0   # display width of the line on screen (0: none)
        self._last = 0.0
        self._text = ""

    def show(self, text: str, *, force: bool = False) -> None:
        """Put text on the progress line (at most every `interval` seconds unless force)."""
        if not self.enabled:
            return
        now = time.monotonic()
        if not force and (text == self._text or now - self._last < self._interval):
            return
        from .korean import clip, display_width
        from .cleantext import clean

        width = max(10, shutil.get_terminal_size((80, 24)).columns - 1)
        line = clip(clean(" ".join(str(text).split())), width)
        w = display_width(line)
        self._write("\r" + line + " " * max(0, self._shown - w))
        self._shown, self._last, self._text = w, now, text

    def clear(self) -> None:
        """Take the progress line off the screen (before the done line or an error message)."""
        if self.enabled and self._shown:
            self._write("\r" + " " * self._shown + "\r")
            self._shown, self._text = 0, ""

    def _write(self, s: str) -> None:
        try:
            self._out.write(s)
            self._out.flush()
        except (OSError, ValueError):  # a terminal that went away: no progress, the command goes on
            self.enabled = False

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.clear()
