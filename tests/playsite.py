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
from blackpoker.pipeline.playpage import RuntimeMissing, build_play, runtime_files
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


@contextmanager
def served(root: Path) -> Iterator[str]:
    """``root`` on a free port of 127.0.0.1; yields the base address (ends in /)."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(root)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
