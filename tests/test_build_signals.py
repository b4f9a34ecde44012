"""A build stopped from outside leaves no worker running and no half-made folder: killed (SIGKILL), its workers
die with it; stopped (SIGTERM, Ctrl+C), it cleans up and exits 143 or 130."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from blackpoker.pipeline.build import CACHE

DEADLINE = 60.0  # seconds to wait for something that should happen at once; generous for a loaded machine


def _children(pid: int) -> set[int]:
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found.update(int(n) for n in (task / "children").read_text().split())
        except OSError:
            pass
    return found


def _alive(pid: int) -> bool:
    """Running, not a zombie (an orphan that nobody has reaped yet is dead)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


def _wait_for(condition: Callable[[], bool], what: str) -> None:
    end = time.monotonic() + DEADLINE
    while not condition():
        assert time.monotonic() < end, f"still not {what} after {DEADLINE} s"
        time.sleep(0.05)


@pytest.mark.build
@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads the process tree from /proc (Linux)")
@pytest.mark.parametrize(("signum", "code"), [(signal.SIGKILL, -signal.SIGKILL), (signal.SIGTERM, 143),
                                              (signal.SIGINT, 130)])
def test_a_stopped_build_leaves_no_worker_and_no_half_made_folder(tmp_path: Path, signum: int, code: int) -> None:
    env = {**os.environ, "BLACKPOKER_WORKERS": "2"}
    build = subprocess.Popen([sys.executable, "-m", "blackpoker", "build", "--out", str(tmp_path / "site")],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
    try:
        _wait_for(lambda: len(_children(build.pid)) >= 2, "two workers")
        workers = _children(build.pid)
        # into the work: Sphinx (in a child of its worker, infra/jobs.py's in_child) and WeasyPrint running
        _wait_for(lambda: any(_children(pid) for pid in workers), "a Sphinx build in a worker's child")
        workers |= {child for pid in workers for child in _children(pid)}
        assert build.poll() is None, "the build ended before it could be stopped"
        build.send_signal(signum)
        _, errors = build.communicate(timeout=DEADLINE)
    finally:
        if build.poll() is None:
            build.kill()
    assert build.returncode == code, errors
    _wait_for(lambda: not any(_alive(pid) for pid in workers), "every worker and its child gone")
    if signum != signal.SIGKILL:
        assert "Traceback" not in errors and errors.strip().endswith("interrupted" if signum == signal.SIGINT else "terminated")
        left = sorted(p.name for p in tmp_path.iterdir() if p.name not in {CACHE, ".site.lock"})
        assert left == []  # no staging or step folder, and no site: the build never finished


class _Stop(BaseException):
    """Stands for the command's Stopped (cli/main.py): raised in the main thread by a signal handler."""


def test_a_build_stopped_while_a_pipeline_thread_still_writes_leaves_no_scratch_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A pipeline step renders in a thread of the build's process (the action lists' HTML, for each edition):
    stopped meanwhile, the build waits for the thread before it removes its scratch folder, so the thread's
    last pages do not make the folder again after the clean-up."""
    import threading

    from blackpoker.core.paths import DEFINITIONS
    from blackpoker.infra.fsutil import write_atomic
    from blackpoker.pipeline import build as build_module
    from blackpoker.pipeline.build import Step, build
    rendering, done = threading.Event(), threading.Event()

    def slow_pages(definitions: Path, staging: Path, context: object) -> tuple[list[Path], str, list[str]]:
        rendering.set()
        signal.setitimer(signal.ITIMER_REAL, 0.3)  # stopped now that the thread renders (however loaded the machine)
        time.sleep(1.5)  # still rendering when the build is stopped
        write_atomic(staging / "html" / "page.html", "<p>late</p>")
        done.set()
        return [staging / "html" / "page.html"], "", []

    monkeypatch.setattr(build_module, "STEPS", (Step("pages", "pages", pipeline=slow_pages),))

    def stop(_signum: int, _frame: object) -> None:
        raise _Stop

    previous = signal.signal(signal.SIGALRM, stop)
    try:
        with pytest.raises(_Stop):
            build(DEFINITIONS, tmp_path / "site", progress=lambda _: None, jobs=1, editions=())
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert rendering.is_set()
    done.wait(DEADLINE)  # the thread's last write has happened (or it is not coming)
    time.sleep(0.2)
    left = sorted(p.name for p in tmp_path.iterdir() if p.name not in {CACHE, ".site.lock"})
    assert left == []
