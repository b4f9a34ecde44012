"""The command line under misuse (issue 25): bad ports, links where files should be, huge integers, a scheduler
that never answers. Every case is a located error, a refusal or a correct result: never exit 70."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from blackpoker.core.paths import DEFINITIONS
from blackpoker.pipeline.serve import Outcome
from clirun import run_cli
from serving import serving


def _run(*args: str, cwd: Path | None = None, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """The real command in its own process: for the commands that serve or wait for a network peer, which must
    end by the timeout even when they wrongly start serving or waiting."""
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

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args: object, **kwargs: object) -> None:
            return None

    opener = urllib.request.build_opener(NoRedirect)
    with serving(DEFINITIONS, out, port=port, rebuild=lambda: Outcome(True, "ok"), echo=lambda _: None, interval=60):
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


# --- the official files (item 6; the importer's crashes, checked where each value is read) ----------------------

OFFICIAL = Path(__file__).parent / "data" / "official" / "full"


@pytest.mark.parametrize(("file", "old", "new", "says"), [
    ("act-frame.yaml", "      ruby: パックかいふう\n", '      ruby: ""\n', None),
    ("act.yaml", "    - format: lite,std,pro,mast\n", '    - format: " "\n', "expected either format"),
    ("act-frame.yaml", "    - frame: |-\n        ・パック\n        ・レアパック\n        ・エクストラ\n", "    - frame:\n",
     "expected either format"),
    ("version.json", '"ver": "第9.0版"', '"ver": "' + "1" * 5000 + '.0"', "5,000 digits"),
    ("version.json", '"ver": "第9.0版"', '"ver": ' + "1" * 5000, "a number of 5,000 characters"),
    ("version.json", '"lastupdate": "2026/04/13"', '"lastupdate": "2026/13/99"',
     "version.json:1:33: lastupdate: '2026/13/99' is not a day of the calendar (there is no month 13); expected"),
    ("act-frame.yaml", "  lastupdate: 2026/04/13", "  lastupdate: 2026/2/30", "there is no day 30 in 2026/02"),
    ("frame.yaml", "  lastupdate: 2026/04/13", "  lastupdate: 0000/01/01", "there is no year 0"),
    ("act.yaml", "  lastupdate: 2026/04/13", "  lastupdate: 2025/6/x", None),  # the day unknown, as v8.1 prints it
])
def test_the_importer_answers_blank_and_huge_values_with_located_errors(
        tmp_path: Path, file: str, old: str, new: str, says: str | None) -> None:
    import shutil
    folder = tmp_path / "official"
    shutil.copytree(OFFICIAL, folder)
    text = (folder / file).read_text(encoding="utf-8")
    assert old in text
    (folder / file).write_text(text.replace(old, new, 1), encoding="utf-8")
    result = run_cli("import", str(folder), "-o", str(tmp_path / "defs"))
    assert "internal error" not in result.stderr
    if says is None:  # a blank ruby is no ruby: the reading comes from the base or the name
        assert result.returncode == 0, result.stderr
        return
    assert result.returncode == 2, result.stderr
    assert f"{file}:" in result.stderr and says in result.stderr
    assert not (tmp_path / "defs").exists()


def test_export_official_refuses_a_link_as_its_output(tmp_path: Path) -> None:
    ours = tmp_path / "ours"
    first = run_cli("export", "--format", "official", "-o", str(ours))
    assert first.returncode == 0, first.stderr
    before = sorted(p.name for p in ours.iterdir())
    link = tmp_path / "link"
    link.symlink_to(ours)
    result = run_cli("export", "--format", "official", "-o", str(link))
    assert result.returncode == 2 and "is a link" in result.stderr
    assert link.is_symlink() and sorted(p.name for p in ours.iterdir()) == before
    dangling = tmp_path / "dangling"
    dangling.symlink_to(tmp_path / "nowhere")
    result = run_cli("export", "--format", "official", "-o", str(dangling))
    assert result.returncode == 2 and "leads nowhere" in result.stderr and ".tmp" not in result.stderr
    assert dangling.is_symlink() and not (tmp_path / "nowhere").exists()


# --- links out of the inputs are refused unread (item 12) --------------------------------------------------------

def test_a_definitions_file_linking_out_is_refused_unread(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import shutil

    from blackpoker.core import loader, yamlsource
    from blackpoker.core.errors import DefinitionErrors
    secret = tmp_path / "secret.yaml"
    secret.write_text("actions: []\n# SECRET-HASH\n", encoding="utf-8")
    defs = tmp_path / "definitions"
    shutil.copytree(DEFINITIONS, defs)
    (defs / "actions.yaml").unlink()
    (defs / "actions.yaml").symlink_to(secret)
    read: list[Path] = []
    real = yamlsource.read_input

    def recording(path: Path, *args: int) -> bytes:
        read.append(path.resolve())
        return real(path, *args)

    monkeypatch.setattr(yamlsource, "read_input", recording)
    monkeypatch.setattr(loader, "read_input", recording)
    with pytest.raises(DefinitionErrors, match="link to a file outside"):
        loader.load_rules(defs)
    assert secret.resolve() not in read


def test_sim_run_on_a_scenario_linked_out_quotes_nothing_of_it(tmp_path: Path) -> None:
    secret = tmp_path / "elsewhere" / "shadow"
    secret.parent.mkdir()
    secret.write_text("root:SECRET-HASH:19000:0:99999:7:::\n", encoding="utf-8")
    folder = tmp_path / "scenarios"
    folder.mkdir()
    (folder / "s.yaml").symlink_to(secret)
    result = run_cli("sim", "run", str(folder / "s.yaml"))
    assert result.returncode == 2, result.stderr
    assert "SECRET" not in result.stderr + result.stdout and "outside its folder" in result.stderr


@contextmanager
def _watched_fifo(path: Path) -> Iterator[list[str]]:
    """A FIFO at ``path`` that tells whether anyone opened it: a reader's open waits for a writer, so a thread
    keeps trying to open the writing end without waiting; it succeeds only once a reader has opened the FIFO,
    which it records, and closing it gives the reader an end of file: a command that reads the file is seen and
    goes on instead of hanging (the test fails, it does not wait)."""
    os.mkfifo(path)
    opened: list[str] = []
    stop = threading.Event()

    def watch() -> None:
        while not stop.is_set():
            try:
                fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
            except OSError:  # ENXIO: no reader
                stop.wait(0.002)
                continue
            opened.append("read")
            os.close(fd)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        yield opened
    finally:
        stop.set()
        watcher.join(5)


@pytest.mark.parametrize(("command", "where"), [
    (("check", "{folder}"), "definitions/actions.yaml"),
    (("export", "{folder}"), "definitions/actions.yaml"),
    (("export", "{folder}", "--format", "official", "-o", "{tmp}/official"), "definitions/actions.yaml"),
    (("sim", "run", "{file}"), "scenarios/s.yaml"),
    (("sim", "run", "{folder}"), "scenarios/s.yaml"),
    (("sim", "replay", "{file}"), "records/game.json"),
])
def test_an_input_linked_out_is_refused_without_opening_it(tmp_path: Path, command: tuple[str, ...],
                                                           where: str) -> None:
    """Whatever a link inside the inputs points at is neither opened nor hashed before the link is refused
    (issue 25, item 12): the target is a FIFO outside, which no one may open unseen."""
    import shutil
    link = tmp_path / where
    link.parent.mkdir()
    if link.parent.name == "definitions":
        shutil.copytree(DEFINITIONS, link.parent, dirs_exist_ok=True)
        link.unlink()
    (tmp_path / "elsewhere").mkdir()
    with _watched_fifo(tmp_path / "elsewhere" / "secret") as opened:
        link.symlink_to(tmp_path / "elsewhere" / "secret")
        args = [a.format(folder=link.parent, file=link, tmp=tmp_path) for a in command]
        result = run_cli(*args, cwd=tmp_path)
    assert opened == [], f"{args} opened the file the link points at"
    assert result.returncode == 2, result.stderr
    assert f"{link.name}:1:1: is a link to a file outside its folder" in result.stderr
    assert "internal error" not in result.stderr and not (tmp_path / "official").exists()


@pytest.mark.parametrize(("content", "holds"), [
    ("root:SECRET-HASH:0:0:root:/root:/bin/bash\ndaemon:x:1:1:SECRET:/usr/sbin:/usr/sbin/nologin\n", "text"),
    ("- SECRET-ONE\n- SECRET-TWO\n", "a list"),
    ("123456789\n", "a number"),
])
@pytest.mark.parametrize(("command", "expected"), [
    ("run", "BlackPoker simulator scenario: a mapping with title, section, ruleset, format, start"),
    ("replay", "BlackPoker simulator game record: a mapping with record, ruleset"),
])
def test_a_file_that_is_no_mapping_is_refused_without_quoting_it(tmp_path: Path, content: str, holds: str,
                                                                 command: str, expected: str) -> None:
    """``sim run /etc/passwd``: the error said ``'root:x:0:0:root:/root:/bin/bash daemon:…' is str``; now it says
    what the file holds and what the command expects, and quotes nothing of it."""
    given = tmp_path / "passwd"
    given.write_text(content, encoding="utf-8")
    result = run_cli("sim", command, str(given), cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    assert f"passwd:1:1: the file holds {holds}, not a mapping; expected {expected}" in result.stderr
    assert "SECRET" not in result.stdout + result.stderr and "123456789" not in result.stdout + result.stderr


# --- sim balance --scheduler at something that is not a Dask scheduler (item 7) -----------------------------------

def _listening(answer: bytes | None) -> tuple[socket.socket, int]:
    """A port that accepts and then answers ``answer`` to anything (a web server), or never answers."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()

    def serve() -> None:
        held = []
        while True:
            try:
                client, _ = server.accept()
            except OSError:
                return
            held.append(client)
            if answer is not None:
                try:
                    client.recv(65536)
                    client.sendall(answer)
                except OSError:
                    pass

    threading.Thread(target=serve, daemon=True).start()
    return server, server.getsockname()[1]


@pytest.mark.parametrize(("answer", "says"), [
    (None, "did not answer within 1 s;"),  # twice the connect timeout the test gives (the default waits 10 s)
    (b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello" * 10, "did not answer as a Dask scheduler"),
])
def test_a_scheduler_address_that_is_no_scheduler_is_one_line(tmp_path: Path, answer: bytes | None, says: str) -> None:
    pytest.importorskip("distributed")
    server, port = _listening(answer)
    waiting = ["--connect-timeout", "0.5"] if answer is None else []  # the web server's case: the default timeout
    try:
        result = _run("sim", "balance", "--games", "2", "--out", str(tmp_path / "study"),
                      "--scheduler", f"tcp://127.0.0.1:{port}", *waiting, timeout=90)
    finally:
        server.close()
    assert result.returncode == 1, result.stderr
    assert says in result.stderr and "internal error" not in result.stderr
    assert not (tmp_path / "study").exists()


@pytest.mark.parametrize("address", ["tls://127.0.0.1:8786", "inproc://x", "ucx://127.0.0.1:8786"])
def test_a_scheduler_transport_the_command_cannot_use_is_refused(tmp_path: Path, address: str) -> None:
    pytest.importorskip("distributed")
    result = run_cli("sim", "balance", "--games", "2", "--out", str(tmp_path / "study"), "--scheduler", address)
    assert result.returncode == 2, result.stderr
    assert "is not supported" in result.stderr and "internal error" not in result.stderr
