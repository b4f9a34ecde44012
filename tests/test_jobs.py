"""The build's job scheduler: priorities, and a worker kept for the follow-up of a critical-path job."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

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
