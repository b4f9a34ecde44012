"""``blackpoker serve``: a local preview that rebuilds on every change and reloads the open pages.

A watcher polls the fingerprint of every input of the build (build.build_inputs); a change runs a build
(atomic, cached) in a child process, so nothing a build does (a crash, a worker pool forked while the server's
threads run) can stop the watcher or the server. The HTTP server serves the output folder and injects a few
lines of script into HTML responses (never into the built files) that reload the page when the build number
changes, and, while the last build failed, a banner with its errors above the last good site. Loopback only.
"""

from __future__ import annotations

import errno
import html
import os
import subprocess
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from blackpoker.core.loader import MAX_PICTURE_BYTES
from blackpoker.infra.cache import fingerprint
from blackpoker.pipeline.build import build_inputs

WATCHER = "blackpoker-serve-watcher"  # the watcher thread's name (a test checks that it ends with the server)
RELOAD_SNIPPET = b"""<script>(function(){var v=null;setInterval(function(){fetch('/__build').then(function(r){
return r.text()}).then(function(t){if(v!==null&&t!==v){location.reload()}v=t}).catch(function(){})},1000)})();</script>"""


BANNER = ('<div id="bp-preview-error" style="position:fixed;inset:0 0 auto 0;z-index:9999;max-height:50vh;'
          'overflow:auto;margin:0;padding:.75em 1em;background:#fff3f3;color:#700;border-bottom:3px solid #c00;'
          'font:14px/1.5 monospace"><strong>The build failed; this is the last good site.</strong>'
          '<pre style="white-space:pre-wrap;margin:.5em 0 0">{}</pre></div>')


@dataclass(frozen=True)
class Outcome:
    """What one rebuild did: whether the site is new, and what the build said."""

    ok: bool
    message: str


def build_in_child(definitions: Path, out: Path, echo: Callable[[str], None]) -> Callable[[], Outcome]:
    """A rebuild that runs ``blackpoker build`` as a child process (which dies with this one) and reports its
    progress lines through ``echo``."""

    def rebuild() -> Outcome:
        command = [sys.executable, "-m", "blackpoker", "build", "--definitions", str(definitions), "--out", str(out)]
        env = {**os.environ, "BLACKPOKER_PARENT": str(os.getpid())}
        child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
        assert child.stdout is not None
        lines = []
        for line in child.stdout:
            lines.append(line.rstrip("\n"))
            if line.startswith("  "):  # a step's progress
                echo(lines[-1])
        child.wait()
        said = [line for line in lines if not line.startswith("  ") and not line.startswith("checked definitions")]
        if child.returncode == 0:
            return Outcome(True, said[-1] if said else "built")
        return Outcome(False, "\n".join(said) or f"the build exited with {child.returncode}")

    return rebuild


class _State:
    def __init__(self) -> None:
        self.build_number = 0
        self.error: str | None = None  # the last build's errors, while it failed


def _handler(state: _State, directory: Path, port: int) -> type[SimpleHTTPRequestHandler]:
    hosts = {f"127.0.0.1:{port}", f"localhost:{port}"}

    class Handler(SimpleHTTPRequestHandler):
        timeout = 10  # seconds a connection may sit idle: a stalled client does not hold a thread forever

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, directory=str(directory), **kwargs)

        def _refused(self) -> bool:
            """Only this machine's own names: a page of another site that rebinds its name to 127.0.0.1 gets
            nothing (DNS rebinding)."""
            if self.headers.get("Host", "") in hosts:
                return False
            self.send_error(421, "Misdirected Request: this preview answers only 127.0.0.1 and localhost")
            return True

        def do_GET(self) -> None:
            if not self._refused():
                self._safely(self._get)

        def do_HEAD(self) -> None:
            if not self._refused():
                self._safely(super().do_HEAD)

        def _safely(self, answer: Callable[[], None]) -> None:
            try:
                answer()
            except (ValueError, OSError):  # a NUL, a name too long for the file system: not a file we serve
                self.send_error(404, "File not found")

        def _get(self) -> None:
            if self.path == "/__build":
                self._send(str(state.build_number).encode(), "text/plain")
                return
            path = Path(self.translate_path(self.path))
            if path.is_dir():
                address = urlsplit(self.path)
                if not address.path.endswith("/"):  # /actionlist: the page's relative links need the slash
                    self.send_response(301)
                    self.send_header("Location", urlunsplit(("", "", address.path + "/", address.query, "")))
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                path = path / "index.html"
            error = state.error
            banner = BANNER.format(html.escape(error)).encode("utf-8") if error else b""
            if path.suffix == ".html" and path.is_file():
                body = path.read_bytes().replace(b"</body>", banner + RELOAD_SNIPPET + b"</body>", 1)
                self._send(body, "text/html; charset=utf-8")
                return
            if error and not path.exists():  # no good site yet: the errors are the page
                body = b"<!DOCTYPE html><html><body>" + banner + RELOAD_SNIPPET + b"</body></html>"
                self._send(body, "text/html; charset=utf-8", status=503)
                return
            super().do_GET()

        def _send(self, body: bytes, content_type: str, status: int = 200) -> None:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:  # quiet
            return

    return Handler


def serve(definitions: Path, out: Path, *, port: int, rebuild: Callable[[], Outcome],
          echo: Callable[[str], None] = print, interval: float = 1.0, stop: threading.Event | None = None) -> None:
    """Serve ``out`` on 127.0.0.1:``port``; call ``rebuild`` whenever an input of the build changes. Returns on
    Ctrl+C or once ``stop`` is set (a caller that serves from a thread), and the watcher ends with it: a watcher
    left behind would go on hashing every input each ``interval`` for as long as the process lives."""
    state = _State()
    roots = build_inputs(definitions)
    stopped = threading.Event()

    def watch() -> None:
        last: str | None = None
        while not stopped.is_set():
            try:
                current = fingerprint(roots, max_bytes=MAX_PICTURE_BYTES)
                if current != last:
                    last = current
                    echo("change detected: building …")
                    outcome = rebuild()
                    state.error = None if outcome.ok else outcome.message
                    state.build_number += 1
                    echo(outcome.message)
            except Exception as exc:  # the watcher outlives anything: say what happened, keep watching
                message = f"the preview could not rebuild: {type(exc).__name__}: {exc}"
                if message != state.error:
                    state.error, last = message, None
                    state.build_number += 1
                    echo(message)
            stopped.wait(interval)

    try:  # the port first: a busy port is reported before any build starts or any folder is made
        server = ThreadingHTTPServer(("127.0.0.1", port), partial(_handler(state, out, port)))
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror, f"127.0.0.1:{port}") from None
    except OverflowError:  # a port past 65535 given through the API (the command line refuses it)
        raise OSError(errno.EINVAL, "not a port (0 to 65535)", f"127.0.0.1:{port}") from None
    out.mkdir(parents=True, exist_ok=True)
    port = server.server_address[1]  # --port 0: the one the system chose
    server.RequestHandlerClass = partial(_handler(state, out, port))
    threading.Thread(target=watch, name=WATCHER, daemon=True).start()
    if stop is not None:
        def shut_down_when_told(told: threading.Event) -> None:  # shutdown() waits for serve_forever to return
            told.wait()
            server.shutdown()

        threading.Thread(target=shut_down_when_told, args=(stop,), daemon=True).start()
    echo(f"serving {out} at http://127.0.0.1:{port}/ (Ctrl+C to stop)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        echo("stopped")
    finally:
        stopped.set()
        server.server_close()
