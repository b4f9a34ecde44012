"""The command line run inside the test's process: what ``python -m blackpoker ARGS`` prints and exits with, without
starting an interpreter, importing the toolkit and loading the rules again for every test (half a second of CPU
each). It calls ``main()``, the entry point ``__main__`` calls, so the exit codes, the one-line messages and the
absence of tracebacks are the real ones. Tests of what only a separate process shows (an interpreter without the
site libraries, the pure engine chosen at start, signals, the installed script) start one instead: test_cli.py
keeps a few that run the real command."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

from click.testing import CliRunner

from blackpoker.cli.main import main


def run_cli(*args: str, cwd: Path | None = None,
            env: Mapping[str, str | None] | None = None) -> subprocess.CompletedProcess[str]:
    """``blackpoker ARGS`` in ``cwd`` with ``env``'s overrides, as a finished process (returncode, stdout, stderr)."""
    handlers = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    argv, here = sys.argv, Path.cwd()
    code: int = 0
    with CliRunner().isolation(env=env) as (out, err, _mixed):
        streams = sys.stdout, sys.stderr
        sys.argv = ["blackpoker", *args]
        try:
            if cwd is not None:
                os.chdir(cwd)
            main()
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        finally:
            sys.argv = argv
            os.chdir(here)
            for s, handler in handlers.items():
                signal.signal(s, handler)
            if sys.stdout is not streams[0]:  # main() points a broken stdout at os.devnull
                sys.stdout.close()
                sys.stdout = streams[0]
            sys.stdout.flush()
            sys.stderr.flush()
        stdout, stderr = out.getvalue().decode("utf-8"), err.getvalue().decode("utf-8", errors="backslashreplace")
    return subprocess.CompletedProcess(["blackpoker", *args], code, stdout, stderr)
