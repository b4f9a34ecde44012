"""The live preview: serves the output, injects the reload script, rebuilds when an input changes."""

from __future__ import annotations

import shutil
import socket
import threading
import time
import urllib.request
from pathlib import Path

from blackpoker.core.paths import DEFINITIONS
from blackpoker.pipeline.serve import serve


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=5) as response:
        return response.read().decode("utf-8")


def test_preview_rebuilds_on_change_and_tells_the_page(tmp_path: Path) -> None:
    defs = tmp_path / "definitions"
    shutil.copytree(DEFINITIONS, defs)
    out = tmp_path / "site"
    builds: list[int] = []

    def rebuild() -> str:
        builds.append(len(builds) + 1)
        out.mkdir(exist_ok=True)
        (out / "index.html").write_text(f"<html><body>build {len(builds)}</body></html>", encoding="utf-8")
        return "ok"

    port = _free_port()
    thread = threading.Thread(target=serve, args=(defs, out), daemon=True,
                              kwargs={"port": port, "rebuild": rebuild, "echo": lambda _: None, "interval": 0.1})
    thread.start()
    deadline = time.monotonic() + 10
    while not builds and time.monotonic() < deadline:
        time.sleep(0.05)
    page = ""
    while "build 1" not in page and time.monotonic() < deadline:
        try:
            page = _get(f"http://127.0.0.1:{port}/")
        except OSError:
            time.sleep(0.05)
    assert "build 1" in page and "/__build" in page  # the reload script is injected
    assert "/__build" not in (out / "index.html").read_text(encoding="utf-8")  # but never written to disk
    first = _get(f"http://127.0.0.1:{port}/__build")

    actions = defs / "actions.yaml"
    actions.write_text(actions.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    while len(builds) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(builds) == 2
    assert _get(f"http://127.0.0.1:{port}/__build") != first
