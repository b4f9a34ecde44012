"""The command line under misuse (issue 25): bad ports, links where files should be, huge integers, a scheduler
that never answers. Every case is a located error, a refusal or a correct result: never exit 70."""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from blackpoker.core.paths import DEFINITIONS
from blackpoker.pipeline.serve import Outcome, serve


def _run(*args: str, cwd: Path | None = None, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "blackpoker", *args], capture_output=True, text=True,
                          timeout=timeout, cwd=cwd, check=False)


# --- serve (item 13) ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("port", ["80000", "-1", "65536"])
def test_serve_refuses_a_port_that_is_not_one_and_makes_no_folder(tmp_path: Path, port: str) -> None:
    result = _run("serve", "--out", str(tmp_path / "site"), "--port", port)
    assert result.returncode == 2, result.stderr
    assert "--port" in result.stderr and "internal error" not in result.stderr
    assert not (tmp_path / "site").exists()


def test_serve_on_a_busy_port_makes_no_folder(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        result = _run("serve", "--out", str(tmp_path / "site"), "--port", str(busy.getsockname()[1]))
    assert result.returncode == 1, result.stderr
    assert not (tmp_path / "site").exists()


def test_a_folder_without_its_slash_is_redirected_to_it(tmp_path: Path) -> None:
    """``/actionlist`` answers with a redirect to ``/actionlist/`` (query kept), so the page's relative links
    and style sheet resolve; the page itself is served only at its folder's address."""
    out = tmp_path / "site"
    (out / "actionlist").mkdir(parents=True)
    (out / "actionlist" / "index.html").write_text('<html><body><link href="style.css">list</body></html>',
                                                   encoding="utf-8")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    threading.Thread(target=serve, args=(DEFINITIONS, out), daemon=True,
                     kwargs={"port": port, "rebuild": lambda: Outcome(True, "ok"), "echo": lambda _: None,
                             "interval": 60}).start()

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args: object, **kwargs: object) -> None:
            return None

    opener = urllib.request.build_opener(NoRedirect)
    deadline = time.monotonic() + 10
    while True:
        try:
            opener.open(f"http://127.0.0.1:{port}/actionlist?format=mast", timeout=5)
        except urllib.error.HTTPError as exc:
            assert exc.code == 301 and exc.headers["Location"] == "/actionlist/?format=mast"
            break
        except OSError:
            assert time.monotonic() < deadline
            time.sleep(0.05)
            continue
        raise AssertionError("served the page without its slash")
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/actionlist?format=mast", timeout=5) as response:
        assert response.url.endswith("/actionlist/?format=mast") and b"list" in response.read()
