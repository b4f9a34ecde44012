"""``blackpoker serve``: a local preview that rebuilds on every change and reloads the open pages.

A watcher polls the inputs' fingerprint; a change triggers a build (atomic, cached). The HTTP server serves
the output folder and injects a few lines of script into HTML responses (never into the built files) that
reload the page when the build number changes. Loopback only.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from blackpoker.pipeline.build import build_inputs
from blackpoker.pipeline.cache import fingerprint

RELOAD_SNIPPET = b"""<script>(function(){var v=null;setInterval(function(){fetch('/__build').then(function(r){
return r.text()}).then(function(t){if(v!==null&&t!==v){location.reload()}v=t}).catch(function(){})},1000)})();</script>"""


class _State:
    def __init__(self) -> None:
        self.build_number = 0
        self.message = "starting"


def _handler(state: _State, directory: Path, port: int) -> type[SimpleHTTPRequestHandler]:
    hosts = {f"127.0.0.1:{port}", f"localhost:{port}"}

    class Handler(SimpleHTTPRequestHandler):
        timeout = 10  # seconds a connection may sit idle: a stalled client does not hold a thread forever

        def __init__(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
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
                path = path / "index.html"
            if path.suffix == ".html" and path.is_file():
                body = path.read_bytes().replace(b"</body>", RELOAD_SNIPPET + b"</body>", 1)
                self._send(body, "text/html; charset=utf-8")
                return
            super().do_GET()

        def _send(self, body: bytes, content_type: str) -> None:
            self.send_response(200)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:  # quiet
            return

    return Handler


def serve(definitions: Path, out: Path, *, port: int, rebuild: Callable[[], str],
          echo: Callable[[str], None] = print, interval: float = 1.0) -> None:
    """Serve ``out`` on 127.0.0.1:``port``; call ``rebuild`` whenever an input changes."""
    state = _State()
    roots = build_inputs(definitions)

    def watch() -> None:
        last = None
        while True:
            current = fingerprint(roots)
            if current != last:
                last = current
                echo("change detected: building …")
                state.message = rebuild()
                state.build_number += 1
                echo(state.message)
            time.sleep(interval)

    out.mkdir(parents=True, exist_ok=True)
    try:  # the port first: a busy port is reported before any build starts
        server = ThreadingHTTPServer(("127.0.0.1", port), partial(_handler(state, out, port)))
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror, f"127.0.0.1:{port}") from None
    port = server.server_address[1]  # --port 0: the one the system chose
    server.RequestHandlerClass = partial(_handler(state, out, port))
    threading.Thread(target=watch, daemon=True).start()
    echo(f"serving {out} at http://127.0.0.1:{port}/ (Ctrl+C to stop)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        echo("stopped")
    finally:
        server.server_close()
