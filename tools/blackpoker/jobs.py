"""Where the build's heavy work runs: a shared pool of worker processes, or inline for small callers.

The build submits every independent piece of work (a Sphinx build, an action-list page, a book chapter)
to one pool with one worker per core, so both cores stay busy until the last piece is done. Code that
only needs a result in order (tests, a single renderer) can use :class:`Inline` instead.
"""

from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any, Callable, Iterable, Protocol


class Runner(Protocol):
    def submit(self, fn: Callable[..., Any], /, *args: Any) -> "Future[Any]": ...


class Inline:
    """Runs each job at once in this process; the future is already done (or failed)."""

    def submit(self, fn: Callable[..., Any], /, *args: Any) -> "Future[Any]":
        future: Future[Any] = Future()
        try:
            future.set_result(fn(*args))
        except BaseException as exc:  # noqa: BLE001 - handed to whoever waits on the future
            future.set_exception(exc)
        return future


def default_workers() -> int:
    """``BLACKPOKER_WORKERS`` if set, else one worker per core."""
    configured = os.environ.get("BLACKPOKER_WORKERS", "")
    return int(configured) if configured.isdigit() and int(configured) > 0 else (os.cpu_count() or 1)


def process_pool(workers: int) -> ProcessPoolExecutor:
    """A pool of forked workers, all started now (before the caller starts threads: forking then is unsafe)."""
    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=context)
    for future in [pool.submit(os.getpid) for _ in range(workers)]:
        future.result()
    return pool


def results(futures: Iterable["Future[Any]"]) -> list[Any]:
    """Every result, in order; the first failure is raised after all have finished (nothing left running)."""
    futures = list(futures)
    done, error = [], None
    for future in futures:
        try:
            done.append(future.result())
        except BaseException as exc:  # noqa: BLE001 - re-raised below
            error = error or exc
            done.append(None)
    if error is not None:
        raise error
    return done
