"""The build's job scheduler: priorities, and a worker kept for the follow-up of a critical-path job."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

from blackpoker.pipeline.jobs import NORMAL, URGENT, Scheduler


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
