"""The live preview: serves the output, injects the reload script, rebuilds when an input changes."""

from __future__ import annotations

import shutil
import socket
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

import pytest

from blackpoker.core.paths import DEFINITIONS
from blackpoker.pipeline.serve import Outcome
from serving import serving
from sites import small_project


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=5) as response:
        body: bytes = response.read()
        return body.decode("utf-8")


def test_preview_rebuilds_on_change_and_tells_the_page(tmp_path: Path) -> None:
    defs = tmp_path / "definitions"
    shutil.copytree(DEFINITIONS, defs)
    out = tmp_path / "site"
    builds: list[int] = []

    def rebuild() -> Outcome:
        builds.append(len(builds) + 1)
        out.mkdir(exist_ok=True)
        (out / "index.html").write_text(f"<html><body>build {len(builds)}</body></html>", encoding="utf-8")
        return Outcome(True, "ok")

    port = _free_port()
    with serving(defs, out, port=port, rebuild=rebuild, echo=lambda _: None, interval=0.1):
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
        # the preview counts a build once it has finished (after our rebuild returned), so the page is told a moment
        # later
        now = _get(f"http://127.0.0.1:{port}/__build")
        while now == first and time.monotonic() < deadline:
            time.sleep(0.05)
            now = _get(f"http://127.0.0.1:{port}/__build")
        assert now != first
    # stopped (serving waited for the preview and its watcher to end): an edit now builds nothing
    actions.write_text(actions.read_text(encoding="utf-8") + "\n# edited again\n", encoding="utf-8")
    time.sleep(0.3)  # three of the watcher's intervals
    assert len(builds) == 2


def test_preview_answers_hostile_requests_plainly_and_reports_its_real_port(tmp_path: Path) -> None:
    """--port 0 prints the port the system chose; a NUL or an over-long name is a 404, not a traceback; another
    Host is refused (DNS rebinding) (issue 13, item 17)."""
    out = tmp_path / "site"
    out.mkdir()
    (out / "index.html").write_text("<html><body>hello</body></html>", encoding="utf-8")
    said: list[str] = []
    with serving(tmp_path, out, port=0, rebuild=lambda: Outcome(True, "ok"), echo=said.append, interval=60):
        _answers_hostile_requests_plainly(said)


def _answers_hostile_requests_plainly(said: list[str]) -> None:
    import http.client
    import re
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


def _wait(condition: Callable[[], bool], what: str, seconds: float = 300) -> None:
    end = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < end, f"still not {what}"
        time.sleep(0.1)


@pytest.mark.build
def test_the_preview_shows_a_failed_build_in_the_page_and_rebuilds_when_the_file_is_fixed(tmp_path: Path) -> None:
    """A file that made the build fail (here a YAML loop) is shown above the last good site; fixing it
    rebuilds: the watcher survives every failure, because each build runs in a child process (item 9). A picture
    added after it started is seen too, and an output named with a glob character leaves the hidden folders beside
    it (issue 25, items 1 and 13). The small rules project: the preview's behaviour does not depend on the rules
    (its builds take seconds)."""
    import os
    import re
    import subprocess
    import sys
    defs = small_project(tmp_path)
    ruleset = defs / "ruleset.yaml"
    good = ruleset.read_text(encoding="utf-8")
    said = tmp_path / "said.txt"
    neighbours = [tmp_path / ".bashrc.old", tmp_path / ".project.staging", tmp_path / ".config.build-2024"]
    for folder in neighbours:
        folder.mkdir()
    with said.open("w", encoding="utf-8") as log:
        preview = subprocess.Popen([sys.executable, "-m", "blackpoker", "serve", "--definitions", str(defs),
                                    "--out", str(tmp_path / "si*te"), "--port", "0"], stdout=log, stderr=log,
                                   env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        _wait(lambda: "serving" in said.read_text(encoding="utf-8"), "serving")
        port = int(re.findall(r"127\.0\.0\.1:(\d+)/", said.read_text(encoding="utf-8"))[0])
        base = f"http://127.0.0.1:{port}"
        _wait(lambda: _get(f"{base}/__build") == "1", "built once")
        assert "bp-preview-error" not in _get(f"{base}/index.html")

        ruleset.write_text(good + "loop: &r [*r]\n", encoding="utf-8")
        _wait(lambda: _get(f"{base}/__build") == "2", "rebuilt after the bad edit")
        page = _get(f"{base}/index.html")
        assert "bp-preview-error" in page and "ruleset.yaml:" in page  # the located error, above the old site
        assert "BlackPoker" in page

        ruleset.write_text(good, encoding="utf-8")
        _wait(lambda: _get(f"{base}/__build") == "3", "rebuilt after the fix")
        assert "bp-preview-error" not in _get(f"{base}/index.html")

        (defs / "images").mkdir(exist_ok=True)  # a folder and a picture that were not there when it started
        (defs / "images" / "added.svg").write_text(
            '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>\n',
            encoding="utf-8")
        _wait(lambda: _get(f"{base}/__build") == "4", "rebuilt after a picture was added")
        assert "bp-preview-error" not in _get(f"{base}/index.html")
        assert preview.poll() is None
    finally:
        preview.terminate()
        preview.wait(timeout=60)
    assert preview.returncode == 143
    assert all(folder.is_dir() for folder in neighbours)
    assert (tmp_path / "si*te" / "index.html").is_file()
