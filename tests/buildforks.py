"""``python -m blackpoker build`` as forked children of one interpreter that has imported the toolkit, Sphinx and
the site's libraries once: the tests that run a dozen full builds of the small project spent most of each build's
CPU importing them again (a second and a half of the few seconds a build of the small project takes).

A :class:`Forks` is a server process (a fresh interpreter, with the test's ``PYTHONPATH`` and its own hash seed);
each build is a child it forks: a separate process with its own exit code, signals, locks and output, that
runs what ``python -m blackpoker`` runs (``blackpoker.cli.main.main``) with the build's arguments, working
folder and environment. So builds still run at the same time, as separate processes (test_build_concurrency.py).

What a fork cannot give: a hash seed of its own (string hashing is seeded when the interpreter starts). All
children of one server share the server's seed, so a test that compares builds made under different seeds
compares the children of two servers (``Forks(seed=...)``; :func:`two_seeds`). And code edited after the
server imported it: a child whose server's toolkit sources changed since (size or modification time) runs the
build in a fresh interpreter instead (``exec``), so an edit of the code is built as a new process would."""

from __future__ import annotations

import json
import os
import random
import selectors
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import TracebackType

# The server, in a fresh interpreter: import what a build imports, then fork a child per request. Single-threaded
# (a fork of a process with threads may inherit a held lock): it waits on its listening socket and on stdin (its
# end: the test closed it or ended), and reaps its children between requests.
SERVER = r'''
import gc, importlib, json, os, selectors, socket, sys

def preload():
    import blackpoker.cli.main  # noqa: F401  the command line, as `python -m blackpoker` imports it
    from blackpoker.pipeline.build import STEPS, preloaded
    names = [*preloaded([m for step in STEPS for m in step.code]), "blackpoker.infra.locks",
             "blackpoker.pipeline.editions", "blackpoker.render.diffpage", "blackpoker.render.sourcerefs",
             *sys.argv[2:]]
    for name in names:
        try:
            importlib.import_module(name)
        except (ImportError, OSError):  # a child reports it, as a fresh interpreter would
            pass
        if name == "sphinx.application":  # what every Sphinx application loads (all its builders and domains)
            names.extend(sys.modules[name].builtin_extensions)
    return {m.__file__: _stat(m.__file__) for m in list(sys.modules.values())
            if (m.__name__ == "blackpoker" or m.__name__.startswith("blackpoker."))
            and isinstance(getattr(m, "__file__", None), str)}

def _stat(path):
    try:
        s = os.stat(path)
    except OSError:
        return None
    return (s.st_size, s.st_mtime_ns)

def serve(loaded):
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(sys.argv[1])
    listener.listen(16)
    print("ready", sys.modules["blackpoker"].__file__, flush=True)
    selector = selectors.DefaultSelector()
    selector.register(listener, selectors.EVENT_READ)
    selector.register(sys.stdin, selectors.EVENT_READ)
    children = {}  # pid: the connection its exit code goes to
    while True:
        for key, _ in selector.select(timeout=0.02 if children else None):  # reap the ended children soon
            if key.fileobj is sys.stdin:
                return None  # the test is done (or gone): the children it started end by themselves
            connection, _ = listener.accept()
            message, fds, _, _ = socket.recv_fds(connection, 1 << 16, 2)
            while chunk := connection.recv(1 << 16):  # the rest of the request, to its end (the client's shutdown)
                message += chunk
            request = json.loads(message)
            stale = any(_stat(path) != seen for path, seen in loaded.items())
            pid = os.fork()
            if pid == 0:
                selector.close()
                listener.close()
                for other in children.values():  # the other builds' answers are the server's to give
                    other.close()
                return connection, fds, request, stale
            for fd in fds:
                os.close(fd)
            connection.sendall(f"{pid} {'fresh' if stale else 'forked'}\n".encode())
            children[pid] = connection
        while children:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                break
            connection = children.pop(pid, None)
            if connection is not None:
                try:
                    connection.sendall(f"{os.waitstatus_to_exitcode(status)}\n".encode())
                except OSError:
                    pass
                connection.close()

SEED = os.environ.get("PYTHONHASHSEED")
loaded = preload()
gc.freeze()  # what was imported stays out of the children's collections (no scan of it, no copy of its pages)
job = serve(loaded)
if job is not None:
    connection, fds, request, stale = job
    connection.close()
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.dup2(fds[0], 1)
    os.dup2(fds[1], 2)
    for fd in (null, *fds):
        os.close(fd)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    if stale:  # the toolkit's code changed since it was imported here: a fresh interpreter runs it, same seed
        if SEED is not None:
            os.environ["PYTHONHASHSEED"] = SEED
        os.execv(sys.executable, [sys.executable, "-m", "blackpoker", *request["args"]])
    sys.argv = ["blackpoker", *request["args"]]
    from blackpoker.cli.main import main
    main()
'''

# Imported by the server besides the toolkit's steps: what Sphinx loads when the rulebook step starts it (every
# builtin builder and domain, the prose's extensions and theme, what they import as they start), so the children
# do not each import them again (measured with PYTHONPROFILEIMPORTTIME in the server's environment: the children's
# imports are what their stderr lists).
SPHINX = ("sphinx.application", "sphinx.cmd.build", "sphinx.ext.doctest", "sphinx.ext.intersphinx",
          "sphinx.ext.mathjax", "sphinx.util.requests", "sphinx.jinja2glue", "sphinx.util.template",
          "myst_parser.sphinx_ext.main", "myst_parser.parsers.sphinx_", "myst_parser.mdit_to_docutils.sphinx_",
          "myst_parser.sphinx_ext.mathjax", "myst_parser.sphinx_ext.myst_refs", "furo", "filelock", "sqlite3",
          "jinja2.ext", "jinja2.sandbox", "pypdf.filters", "pygments.styles.native", "email.policy",
          "docutils.writers.docutils_xml", "multiprocessing.popen_fork", "multiprocessing.synchronize",
          "packaging.tags", "Levenshtein", "brotlicffi")


def two_seeds() -> tuple[str, str]:
    """Two different hash seeds, new at every run (as two fresh interpreters would have)."""
    first, second = random.sample(range(1, 2**32), 2)
    return str(first), str(second)


class Build:
    """A build running in a child of a :class:`Forks` server, like ``subprocess.Popen``: ``stdout`` (a text stream,
    with stderr merged into it) when it was started with ``capture=True``; ``wait``, ``poll``, ``returncode``."""

    def __init__(self, connection: socket.socket, stdout: int | None, args: Sequence[str]) -> None:
        self.args = list(args)
        self._connection = connection
        self._answer = b""
        pid, how = self._line(None).split()
        self.pid = int(pid)
        self.fresh = how == "fresh"  # run by a new interpreter: the toolkit's code changed since the server read it
        self.returncode: int | None = None
        self.stdout = os.fdopen(stdout, "r", encoding="utf-8", errors="backslashreplace") if stdout is not None else None

    def _line(self, timeout: float | None) -> str:
        deadline = None if timeout is None else time.monotonic() + timeout
        while b"\n" not in self._answer:
            self._connection.settimeout(None if deadline is None else max(0.0, deadline - time.monotonic()))
            try:
                chunk = self._connection.recv(64)
            except TimeoutError:
                raise subprocess.TimeoutExpired(self.args, timeout or 0) from None
            if not chunk:
                raise RuntimeError(f"the build server ended before {self.args} did")
            self._answer += chunk
        line, _, self._answer = self._answer.partition(b"\n")
        return line.decode()

    def wait(self, timeout: float | None = None) -> int:
        if self.returncode is None:
            self.returncode = int(self._line(timeout))
            self._connection.close()
        return self.returncode

    def poll(self) -> int | None:
        if self.returncode is None:
            with selectors.DefaultSelector() as selector:
                selector.register(self._connection, selectors.EVENT_READ)
                if selector.select(timeout=0):
                    return self.wait()
        return self.returncode

    def communicate(self, timeout: float | None = None) -> tuple[str, None]:
        """All the output (stdout and stderr), once the build has ended; kills it when ``timeout`` runs out."""
        stream = self.stdout
        assert stream is not None
        start, output = time.monotonic(), list[str]()
        reader = threading.Thread(target=lambda: output.append(stream.read()), daemon=True)  # a read may hang
        reader.start()
        reader.join(timeout)
        try:
            if reader.is_alive():
                raise subprocess.TimeoutExpired(self.args, timeout or 0)
            self.wait(None if timeout is None else max(0.0, timeout - (time.monotonic() - start)))
        except subprocess.TimeoutExpired:
            self.kill()
            raise
        stream.close()
        return output[0], None

    def kill(self) -> None:
        if self.returncode is None:
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


class Done(subprocess.CompletedProcess[str]):
    """A finished build: a ``CompletedProcess`` that also says whether a fresh interpreter ran it (``fresh``)."""

    def __init__(self, args: list[str], returncode: int, stdout: str, stderr: str, *, fresh: bool) -> None:
        super().__init__(args, returncode, stdout, stderr)
        self.fresh = fresh


class Forks:
    """A server that forks builds (see the module's docstring); a context manager that ends it. ``env`` is the
    server's environment (its ``PYTHONPATH`` decides which toolkit it imports); ``seed`` its hash seed."""

    def __init__(self, *, env: Mapping[str, str] | None = None, seed: str | None = None, cwd: Path | None = None,
                 preload: Sequence[str] = SPHINX) -> None:
        self._folder = tempfile.TemporaryDirectory(prefix="buildforks-")
        self.address = str(Path(self._folder.name) / "server")
        self.env = dict(os.environ if env is None else env)
        self.seed = seed if seed is not None else self.env.get("PYTHONHASHSEED", "random")
        server_env = {**self.env, "PYTHONUNBUFFERED": "1"}
        if seed is not None:
            server_env["PYTHONHASHSEED"] = seed
        self._server = subprocess.Popen([sys.executable, "-c", SERVER, self.address, *preload], env=server_env,
                                        cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert self._server.stdout is not None
        ready = self._server.stdout.readline()
        if not ready.startswith("ready "):
            self.close()
            raise RuntimeError(f"the build server did not start: {ready!r}")
        self.package = Path(ready.removeprefix("ready ").strip()).parent  # the toolkit it imported

    def start(self, *args: str, cwd: Path | None = None, env: Mapping[str, str] | None = None,
              capture: bool = True, stdout: int | None = None, stderr: int | None = None) -> Build:
        """``python -m blackpoker ARGS`` in a forked child: with ``capture``, its stdout and stderr merged into
        ``Build.stdout``; else written to the file descriptors ``stdout`` and ``stderr`` (default: the test's)."""
        request = json.dumps({"args": list(args), "cwd": str(cwd or Path.cwd()),
                              "env": dict(self.env if env is None else env)}).encode()
        read_end: int | None = None
        if capture:
            read_end, write_end = os.pipe()
            fds = [write_end, write_end]
        else:
            fds = [sys.stdout.fileno() if stdout is None else stdout, sys.stderr.fileno() if stderr is None else stderr]
        connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            connection.connect(self.address)
            socket.send_fds(connection, [request], fds)
            connection.shutdown(socket.SHUT_WR)  # the request is whole; the answers come back
        finally:
            if capture:
                os.close(fds[0])
        return Build(connection, read_end, args)

    def run(self, *args: str, cwd: Path | None = None, env: Mapping[str, str] | None = None,
            timeout: float = 900) -> Done:
        """Like ``subprocess.run([python, "-m", "blackpoker", *args], capture_output=True, text=True)``."""
        with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
            build = self.start(*args, cwd=cwd, env=env, capture=False, stdout=out.fileno(), stderr=err.fileno())
            try:
                code = build.wait(timeout)
            except subprocess.TimeoutExpired:
                build.kill()
                raise
            out.seek(0)
            err.seek(0)
            text = [f.read().decode("utf-8", errors="backslashreplace") for f in (out, err)]
        return Done(["blackpoker", *args], code, text[0], text[1], fresh=build.fresh)

    def close(self) -> None:
        if self._server.poll() is None:
            assert self._server.stdin is not None
            self._server.stdin.close()
            try:
                self._server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self._server.kill()
                self._server.wait()
        for stream in (self._server.stdin, self._server.stdout):
            if stream is not None and not stream.closed:
                stream.close()
        self._folder.cleanup()

    def __enter__(self) -> Forks:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.close()
