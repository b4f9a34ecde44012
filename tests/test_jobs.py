"""The build's job scheduler: priorities, and a worker kept for the follow-up of a critical-path job."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from blackpoker.infra.jobs import NORMAL, URGENT, Scheduler


def _recorder() -> tuple[list[str], threading.Lock]:
    return [], threading.Lock()


def test_more_urgent_jobs_start_first() -> None:
    started, lock = _recorder()
    gate = threading.Event()

    def job(name: str) -> None:
        with lock:
            started.append(name)
        gate.wait(5)

    with ThreadPoolExecutor(1) as pool:
        scheduler = Scheduler(pool, 1)
        first = scheduler.submit(job, "first")
        rest = [scheduler.submit(job, name, priority=p) for name, p in (("normal", NORMAL), ("urgent", URGENT))]
        gate.set()
        for future in (first, *rest):
            future.result(5)
    assert started == ["first", "urgent", "normal"]


def test_a_job_with_then_keeps_its_worker_for_the_follow_up() -> None:
    started, lock = _recorder()

    def job(name: str) -> str:
        with lock:
            started.append(name)
        return name

    with ThreadPoolExecutor(1) as pool:
        scheduler = Scheduler(pool, 1, hold=5.0)
        blocker = threading.Event()
        busy = scheduler.submit(blocker.wait, 5)
        critical = scheduler.submit(job, "critical", priority=URGENT, then=URGENT)
        filler = scheduler.submit(job, "filler", priority=NORMAL)  # queued behind the critical job
        blocker.set()
        busy.result(5)
        critical.result(5)
        time.sleep(0.2)  # the waiter takes its time to submit the follow-up; the worker waits for it
        assert started == ["critical"]
        follow_up = scheduler.submit(job, "follow-up", priority=URGENT)
        follow_up.result(5)
        filler.result(5)
    assert started == ["critical", "follow-up", "filler"]


def test_a_hold_runs_out_when_no_follow_up_comes() -> None:
    with ThreadPoolExecutor(1) as pool:
        scheduler = Scheduler(pool, 1, hold=0.1)
        scheduler.submit(lambda: None, priority=URGENT, then=URGENT).result(5)
        assert scheduler.submit(lambda: "done", priority=NORMAL).result(5) == "done"


def _square(n: int) -> int:
    return n * n


def _fail(message: str) -> int:
    raise RuntimeError(message)


def _pid(_: int) -> int:
    import os
    return os.getpid()


def test_real_processes_run_jobs_and_a_failing_job_reaches_the_caller() -> None:
    """With forked workers: results come back in order, a job's exception reaches the caller after every other
    job has finished (nothing left running), and the pool is still usable afterwards."""
    import os

    from blackpoker.infra.jobs import process_pool, results

    pool = process_pool(2)
    try:
        scheduler = Scheduler(pool, 2)
        futures = [scheduler.submit(_square, n) for n in range(6)]
        failing = scheduler.submit(_fail, "part 3 did not render", priority=URGENT)
        more = [scheduler.submit(_square, n) for n in range(6, 9)]
        try:
            results([*futures, failing, *more])
        except RuntimeError as exc:
            assert str(exc) == "part 3 did not render"
        else:
            raise AssertionError("the failing job's error did not reach the caller")
        assert all(f.done() for f in (*futures, *more))
        assert [f.result() for f in (*futures, *more)] == [n * n for n in range(9)]
        pids = {scheduler.submit(_pid, i).result(10) for i in range(4)}
        assert os.getpid() not in pids  # the jobs ran in the workers, not here
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def test_a_closed_scheduler_fails_every_waiting_running_and_later_job_at_once() -> None:
    """A stopped build closes its scheduler: the pipeline threads waiting for jobs see them fail now, not when
    (or if) the killed pool's futures settle, so they end before the build removes their folders."""
    release = threading.Event()
    reason = RuntimeError("stopped")
    with ThreadPoolExecutor(1) as pool:
        try:
            scheduler = Scheduler(pool, 1)
            running = scheduler.submit(release.wait)
            waiting = scheduler.submit(time.sleep, 0)
            scheduler.close(reason)
            assert running.exception(timeout=1) is reason and waiting.exception(timeout=1) is reason
            later = scheduler.submit(time.sleep, 0)
            assert later.exception(timeout=1) is reason
        finally:
            release.set()  # the pool's own job ends afterwards: the closed job keeps its outcome
    assert running.exception() is reason


def test_a_cancelled_pool_job_fails_the_callers_future_instead_of_leaving_it_waiting() -> None:
    """``stop_pool`` cancels the jobs the pool has not started: their callers get CancelledError."""
    from concurrent.futures import CancelledError
    release = threading.Event()
    pool = ThreadPoolExecutor(1)
    try:
        scheduler = Scheduler(pool, 2)  # two at a time into a pool of one: the second waits in the pool
        first = scheduler.submit(release.wait)
        second = scheduler.submit(time.sleep, 0)
        pool.shutdown(wait=False, cancel_futures=True)
        assert isinstance(second.exception(timeout=1), CancelledError)
    finally:
        release.set()
        pool.shutdown()
    assert first.result(timeout=1) is True


def _resident() -> int:
    """This process's resident memory in bytes."""
    import os

    with open(f"/proc/{os.getpid()}/statm", encoding="utf-8") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def _grow_in_child(megabytes: int) -> tuple[int, int]:
    """In a worker: a job that takes ``megabytes`` of memory run in a child; the child's pid and how much the
    worker's own resident memory grew (bytes). Growth, not size: a worker forked from a big process (an xdist
    worker late in the suite) starts big."""
    from blackpoker.infra.jobs import in_child

    before = _resident()
    pid = in_child(_hold_memory, megabytes)
    return pid, _resident() - before


_KEPT: list[bytearray] = []  # what a job leaves behind in its process (Sphinx: its caches, a fragmented heap)


def _hold_memory(megabytes: int) -> int:
    import os
    block = bytearray(megabytes * 2**20)
    block[::4096] = b"x" * len(block[::4096])  # touched: resident
    _KEPT.append(block)
    return os.getpid()


def test_a_job_run_in_a_child_gives_its_memory_back_and_its_error_reaches_the_caller() -> None:
    """Issue 25, item 10: a Sphinx build in a worker kept its 1.2 GB for every later job of that worker; run in a
    child that ends after it, the worker stays small. Its result and its exception come back; in a process with
    threads (where forking is unsafe) it runs in place."""
    import os
    import sys

    from blackpoker.infra.jobs import in_child, process_pool

    if not sys.platform.startswith("linux"):
        import pytest
        pytest.skip("reads /proc")
    pool = process_pool(1)
    try:
        worker = pool.submit(_pid, 0).result(10)
        child, grown = pool.submit(_grow_in_child, 300).result(60)
        assert child not in (worker, os.getpid())
        assert grown < 100 * 2**20, grown  # the 300 MB went with the child
        failing = pool.submit(in_child, _fail, "the web pages failed")
        try:
            failing.result(60)
        except RuntimeError as exc:
            assert str(exc) == "the web pages failed"
        else:
            raise AssertionError("the child's error did not reach the caller")
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    with ThreadPoolExecutor(1) as threads:  # this process has threads now: the job runs here
        assert threads.submit(in_child, _pid, 0).result(10) == os.getpid()


def _die(signum: int) -> None:
    import os
    os.kill(os.getpid(), signum)


def test_a_worker_killed_is_named_with_its_signal() -> None:
    """A worker that ends abruptly breaks the pool, and Python says only that one "terminated abruptly": the
    build adds which worker ended and by what signal (a BrokenProcessPool in a 300 KB build went unexplained)."""
    import signal
    from concurrent.futures.process import BrokenProcessPool

    from blackpoker.infra.jobs import process_pool, worker_ends

    pool = process_pool(2)
    try:
        assert worker_ends(pool) == ""  # all running
        with pytest.raises(BrokenProcessPool):
            Scheduler(pool, 2).submit(_die, signal.SIGKILL).result(30)
        deadline = time.monotonic() + 10
        while "SIGKILL" not in worker_ends(pool) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert "was killed by SIGKILL (sent by the kernel's out-of-memory killer or by another program)" in worker_ends(pool)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def test_a_module_edited_under_a_running_pool_does_not_kill_its_workers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker imports a job's module when its first job arrives; the build's first, when the module was
    edited after the build started (and no longer imports), killed the worker: BrokenProcessPool in a 300 KB
    build, whose code was being committed in the clone it ran from. Preloaded, the workers run the code as the
    pool found it."""
    import importlib
    import sys
    from concurrent.futures.process import BrokenProcessPool

    from blackpoker.infra.jobs import process_pool, worker_ends

    monkeypatch.syspath_prepend(str(tmp_path))
    for name, preload in (("bp_step_as_was", True), ("bp_step_edited", False)):
        module = tmp_path / f"{name}.py"
        module.write_text("def job() -> str:\n    return 'as the build started'\n", encoding="utf-8")
        pool = process_pool(1, preload=[name] if preload else [])
        try:
            job = importlib.import_module(name).job  # the build's pipeline imports it (lazily, after the fork)
            module.write_text("from os import no_such_name\n", encoding="utf-8")  # an edit lands
            importlib.invalidate_caches()
            if preload:
                assert Scheduler(pool, 1).submit(job).result(30) == "as the build started"
                assert worker_ends(pool) == ""
            else:  # what a build did before: the worker dies reading the call
                with pytest.raises(BrokenProcessPool):
                    Scheduler(pool, 1).submit(job).result(30)
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
            sys.modules.pop(name, None)


_PINNED: list[bytes] = []  # one small block a job leaves behind, above the ones it freed (a kept stylesheet, say)


def _churn(blocks: int) -> int:
    """A job that takes ``blocks`` × 2 KB from glibc's heap (above pymalloc's small-object limit), frees them and
    keeps one block made after them, so glibc cannot give the freed ones back by lowering the top of its heap."""
    made = [bytes(2000) for _ in range(blocks)]
    _PINNED.append(bytes(2000))
    del made
    return _resident()


def _resident_now(_: int) -> int:
    return _resident()


def test_a_worker_gives_back_what_its_job_freed() -> None:
    """Issue 25, item 10: a job's freed memory below a block still in use stayed with its worker for the rest of
    the build (glibc trims only the top of its heap); the scheduler's jobs end with ``malloc_trim``, so the worker
    is back near its size before the job. The same job submitted to the pool directly shows the difference."""
    import ctypes
    import sys

    from blackpoker.infra.jobs import process_pool

    if not sys.platform.startswith("linux") or not hasattr(ctypes.CDLL(None), "malloc_trim"):
        pytest.skip("glibc's malloc_trim on Linux")
    blocks = 60_000  # about 120 MB
    grown = {}
    for how in ("pool", "scheduler"):
        pool = process_pool(1)
        try:
            before = pool.submit(_resident_now, 0).result(30)
            if how == "pool":
                pool.submit(_churn, blocks).result(60)
            else:
                Scheduler(pool, 1).submit(_churn, blocks).result(60)
            grown[how] = pool.submit(_resident_now, 0).result(30) - before
        finally:
            pool.shutdown(wait=True)
    assert grown["pool"] > 80 * 2**20, grown  # without trimming, the freed blocks stay resident
    assert grown["scheduler"] < 20 * 2**20, grown
