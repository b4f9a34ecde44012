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


def test_preview_answers_hostile_requests_plainly_and_reports_its_real_port(tmp_path: Path) -> None:
    """--port 0 prints the port the system chose; a NUL or an over-long name is a 404, not a traceback; another
    Host is refused (DNS rebinding) (issue 13, item 17)."""
    import http.client
    import re
    out = tmp_path / "site"
    out.mkdir()
    (out / "index.html").write_text("<html><body>hello</body></html>", encoding="utf-8")
    said: list[str] = []
    thread = threading.Thread(target=serve, args=(tmp_path, out), daemon=True,
                              kwargs={"port": 0, "rebuild": lambda: "ok", "echo": said.append, "interval": 60})
    thread.start()
    deadline = time.monotonic() + 10
    while not any("serving" in line for line in said) and time.monotonic() < deadline:
        time.sleep(0.05)
    match = re.search(r"http://127\.0\.0\.1:(\d+)/", " ".join(said))
    assert match and match.group(1) != "0", said
    port = int(match.group(1))

    def status(path: str, host: str | None = None) -> int:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        headers = {"Host": host} if host else {}
        connection.request("GET", path, headers=headers)
        code = connection.getresponse().status
        connection.close()
        return code

    assert status("/") == 200
    assert status("/%00") == 404
    assert status("/" + "a" * 256) == 404
    assert status("/", host=f"evil.example:{port}") == 421
    assert status("/", host=f"localhost:{port}") == 200
