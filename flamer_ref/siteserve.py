"""The local web server of `flamer site DIR --serve` (the calculator runs only in a site opened by a web
server): the site folder, quietly and only that — regular files inside it, never through a symbolic link,
never a listing — to requests that name this computer (issue 16; in a room of its own since issue 29: the
site's packing is flamer_ref/sitepack.py).
"""

from __future__ import annotations

import functools
import http.server
import os
import stat

#: MIME types a module worker and WebAssembly need (and a manifest), whatever the system's table says
SERVE_TYPES = {".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm",
               ".webmanifest": "application/manifest+json", ".json": "application/json", ".zip": "application/zip",
               ".svg": "image/svg+xml", ".html": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8"}


#: the names a request to `--serve` may give in its Host header (with any port): the server is this
#: computer's only, and a page of another site whose name was made to point at 127.0.0.1 (DNS rebinding)
#: sends its own name there
SERVE_HOSTS = ("127.0.0.1", "localhost", "[::1]")


def local_host(value: str | None) -> bool:
    """Is a Host header one of SERVE_HOSTS, with or without a port?"""
    v = (value or "").strip().lower()
    if v.startswith("["):  # [::1] or [::1]:8000
        name, _, rest = v.partition("]")
        name += "]"
        if rest and not rest.startswith(":"):
            return False
        port = rest[1:] if rest else None
    else:
        name, colon, port = v.partition(":")
        port = port if colon else None
    if port is not None and not (port.isascii() and port.isdigit() and 0 < len(port) <= 5):
        return False
    return name in SERVE_HOSTS


def servable(folder: str, path: str) -> str | None:
    """The file `path` (inside folder, as SimpleHTTPRequestHandler.translate_path made it) that may be
    served, or None: reached from folder through real folders only (no part of the way, nor the file
    itself, a symbolic link), its real path inside the folder, and a regular file. A folder stands for
    its index.html (never a listing). Raises ValueError for a path holding a NUL byte."""
    if "\x00" in path:
        raise ValueError("NUL in path")
    try:
        rel = os.path.relpath(path, folder)
        parts = [] if rel == os.curdir else rel.split(os.sep)
        if parts and parts[0] == os.pardir:
            return None
        cur, st = folder, os.stat(folder)  # the folder itself: as the user named it
        for part in parts:
            cur = os.path.join(cur, part)
            st = os.lstat(cur)
            if stat.S_ISLNK(st.st_mode):
                return None
        if stat.S_ISDIR(st.st_mode):
            cur = os.path.join(cur, "index.html")
            st = os.lstat(cur)
        if not stat.S_ISREG(st.st_mode):  # a link, a FIFO, a device, a socket
            return None
        root = os.path.realpath(folder)
        if os.path.commonpath([root, os.path.realpath(cur)]) != root:
            return None
    except (OSError, ValueError):  # missing, unreadable, a name the file system cannot hold
        return None
    return cur


class _Handler(http.server.SimpleHTTPRequestHandler):
    """Serves the site folder (`directory`) quietly, and only that (make_server)."""

    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **SERVE_TYPES}

    def log_message(self, *args):  # quiet: the terminal shows the address, not every request
        pass

    def end_headers(self):
        self.send_header("Cache-Control", "no-cache")
        self.send_header("X-Content-Type-Options", "nosniff")
        super().end_headers()

    def parse_request(self):
        if not super().parse_request():
            return False
        if not local_host(self.headers.get("Host")):
            self.send_error(421, "Misdirected Request: this server answers only 127.0.0.1 and localhost")
            return False
        return True

    def list_directory(self, path):  # never a listing
        self.send_error(404)
        return None

    def send_head(self):
        path = self.translate_path(self.path)
        try:
            file = servable(self.directory, path)
        except ValueError:
            self.send_error(400, "Bad request: NUL in path")
            return None
        if file is None:
            self.send_error(404)
            return None
        folder_index = os.path.normpath(file) != os.path.normpath(path)
        bare = self.path.split("?", 1)[0].split("#", 1)[0]
        if folder_index and not bare.endswith("/"):  # a folder without its slash: there, as a browser needs it
            self.send_response(301)
            # one leading slash: //host/ would send the browser to another site
            self.send_header("Location", "/" + bare.lstrip("/") + "/" + self.path[len(bare):])
            self.send_header("Content-Length", "0")
            self.end_headers()
            return None
        if not folder_index and path.endswith("/"):  # a file is not a folder
            self.send_error(404)
            return None
        try:
            fd = os.open(file, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
                         | getattr(os, "O_BINARY", 0))
        except OSError:
            self.send_error(404)
            return None
        fh = os.fdopen(fd, "rb")
        try:
            st = os.fstat(fh.fileno())
            if not stat.S_ISREG(st.st_mode):
                fh.close()
                self.send_error(404)
                return None
            if self._unchanged(st):  # the browser's copy is current (Cache-Control: no-cache asks)
                fh.close()
                self.send_response(304)
                self.end_headers()
                return None
            self.send_response(200)
            self.send_header("Content-type", self.guess_type(file))
            self.send_header("Content-Length", str(st.st_size))
            self.send_header("Last-Modified", self.date_time_string(int(st.st_mtime)))
            self.end_headers()
            return fh
        except BaseException:
            fh.close()
            raise

    def _unchanged(self, st) -> bool:
        """If-Modified-Since at or after the file's time (as SimpleHTTPRequestHandler answers it)."""
        import datetime
        import email.utils

        since = self.headers.get("If-Modified-Since")
        if since is None or "If-None-Match" in self.headers:
            return False
        try:
            when = email.utils.parsedate_to_datetime(since)
        except (TypeError, IndexError, OverflowError, ValueError):
            return False
        if when.tzinfo is None:
            when = when.replace(tzinfo=datetime.timezone.utc)
        if when.tzinfo is not datetime.timezone.utc:
            return False
        return datetime.datetime.fromtimestamp(st.st_mtime, datetime.timezone.utc).replace(microsecond=0) <= when


class _Server(http.server.ThreadingHTTPServer):
    """A server that never prints a traceback (make_server)."""

    daemon_threads = True

    def handle_error(self, request, client_address):
        """A client that closed or reset its connection: nothing to say. Anything else: one line
        in Korean, never a traceback."""
        import sys

        exc = sys.exc_info()[1]
        if isinstance(exc, (ConnectionError, TimeoutError)):
            return
        try:
            sys.stderr.write(f"요청 하나를 처리하지 못했습니다 ({type(exc).__name__}). 서버는 계속 돕니다.\n")
        except Exception:  # noqa: BLE001 - stderr gone: nothing to report to
            pass


def make_server(folder: str, port: int, host: str = "127.0.0.1"):
    """The server of `flamer site DIR --serve` on host:port: a ThreadingHTTPServer, not started, whose
    handler (a functools.partial of it, with directory=folder) serves the site folder quietly and only
    that: regular files inside it (servable: never through a symbolic link, never a listing: a folder
    gives its index.html or 404), to requests naming this computer in their Host (local_host; any other
    gets 421 Misdirected Request). A path with a NUL byte is a 400; a client that goes away mid-download
    ends its request silently. No traceback is ever printed."""
    return _Server((host, port), functools.partial(_Handler, directory=folder))
