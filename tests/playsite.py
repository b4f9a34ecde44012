"""A served site with the play page for the browser tests and the benchmark: the JSON export, the action lists
(the play page links to them) and ``play/``, served over HTTP on 127.0.0.1 (browsers refuse .wasm from file://)."""

from __future__ import annotations

import functools
import http.server
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from blackpoker.core.export import export_json
from blackpoker.core.model import Rules
from blackpoker.pipeline.playpage import build_play
from blackpoker.pipeline.pyodide import RuntimeMissing, runtime_files
from blackpoker.render.actionlist.html import build_html


def runtime_missing() -> str | None:
    """Why the play page cannot be built here (the runtime is not fetched), or None."""
    try:
        runtime_files()
    except RuntimeMissing as exc:
        return str(exc)
    return None


def make_site(rules: Rules, out: Path) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    (out / "blackpoker-rules.json").write_text(export_json(rules), encoding="utf-8")
    build_html(rules, out)
    build_play(rules, out)
    return out


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        return


class _Counting(_Quiet):
    """Also notes each file it sends and its size (the benchmark's first-load bytes)."""

    sent: list[tuple[str, int]]

    def send_header(self, keyword: str, value: str) -> None:
        if keyword.lower() == "content-length":
            self.sent.append((self.path, int(value)))
        super().send_header(keyword, value)


class _Mounted(_Quiet):
    """The site under a path prefix, as GitHub Pages serves a project's site (``/REPO/``); anything else is 404."""

    prefix: str

    def translate_path(self, path: str) -> str:
        if not path.startswith(self.prefix):
            return str(Path(self.directory) / ".no-such-file")
        return super().translate_path("/" + path[len(self.prefix):])


@contextmanager
def served(root: Path, sent: list[tuple[str, int]] | None = None, prefix: str = "/") -> Iterator[str]:
    """``root`` on a free port of 127.0.0.1 at ``prefix`` (e.g. ``/repo/``, a GitHub Pages project site); yields
    the site's address (ends in /). With ``sent``, each file sent with its size is appended to it (a 304 of a
    revalidated file sends none)."""
    base: type[_Quiet] = _Quiet
    if prefix != "/":
        base = type("_Prefixed", (_Mounted,), {"prefix": prefix})
    if sent is not None:
        base = type("_Sent", (_Counting, base), {"sent": sent})
    handler = functools.partial(base, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}{prefix}"
    finally:
        server.shutdown()
        server.server_close()
