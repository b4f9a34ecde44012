"""Where the build's heavy work runs: a shared pool of worker processes, or inline for small callers.

The build submits every independent piece of work (a Sphinx build, a group of action-list entries, a book
chapter) to one pool with one worker per core, so both cores stay busy until the last piece is done.
Jobs wait here, not in the pool, and the most urgent goes first: the book's chapters, which the last
steps wait for, before the action lists, which can fill the gaps. Code that only needs results in order
(tests, a single renderer) can use :class:`Inline` instead.

Priorities alone lose one race: when a job on the critical path ends, the work that follows it is
submitted by whoever waits for its result a moment later, and by then the freed worker has taken the
next job in the queue (perhaps a second long). A job submitted with ``then`` keeps its worker for that
follow-up, for at most ``HOLD`` seconds, from anything less urgent.
"""

from __future__ import annotations

import functools
import heapq
import importlib
import itertools
import multiprocessing
import os
import signal
import threading
import time
import weakref
from collections.abc import Callable, Iterable
from concurrent.futures import CancelledError, Executor, Future, InvalidStateError, ProcessPoolExecutor
from multiprocessing.process import BaseProcess
from typing import Any, Protocol

# priorities: higher first
URGENT = 30  # on the book's critical path: single page, chapters, contents, index, joining
SOON = 25  # the action lists' entries: they need only the definitions, and the rest of the lists waits for them
LATER = 22  # the action lists' frames and assembly: many short jobs that fill the gaps
NORMAL = 20  # the simple steps
HOLD = 0.5  # seconds a worker is kept for the follow-up of a job submitted with ``then``


class Runner(Protocol):
    def submit(self, fn: Callable[..., Any], /, *args: Any, priority: float = NORMAL,
               then: float | None = None) -> Future[Any]: ...


class Inline:
    """Runs each job at once in this process; the future is already done (or failed)."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, priority: float = NORMAL,
               then: float | None = None) -> Future[Any]:
        future: Future[Any] = Future()
        try:
            future.set_result(fn(*args))
        except BaseException as exc:
            future.set_exception(exc)
        return future


class Scheduler:
    """Feeds a pool (the build's processes; threads in tests) by priority, then order; never more jobs than workers."""

    def __init__(self, pool: Executor, workers: int, hold: float = HOLD) -> None:
        self.pool, self.workers, self.hold = pool, workers, hold
        self._queue: list[tuple[float, int, Callable[..., Any], tuple[Any, ...], Future[Any], float | None]] = []
        self._order = itertools.count()
        self._running = 0
        self._holds: list[tuple[float, float]] = []  # (priority kept for, until when)
        self._lock = threading.Lock()
        self._running_jobs: set[Future[Any]] = set()  # the outer futures of the jobs in the pool
        self._closed: BaseException | None = None
        self.first_job = threading.Event()  # set by the first submission

    def submit(self, fn: Callable[..., Any], /, *args: Any, priority: float = NORMAL,
               then: float | None = None) -> Future[Any]:
        """Queue ``fn(*args)``; with ``then``, its worker is kept for work of that priority when it ends."""
        self.first_job.set()
        outer: Future[Any] = Future()
        with self._lock:
            if self._closed is not None:
                outer.set_exception(self._closed)
                return outer
            heapq.heappush(self._queue, (-priority, next(self._order), fn, args, outer, then))
        self._feed()
        return outer

    def _feed(self) -> None:
        while True:
            with self._lock:
                if self._running >= self.workers or not self._queue:
                    return
                now = time.monotonic()
                self._holds = [h for h in self._holds if h[1] > now]
                top = -self._queue[0][0]
                kept = [h for h in self._holds if h[0] > top]
                if self.workers - self._running <= len(kept):
                    return  # the free workers wait for more urgent follow-ups
                _, _, fn, args, outer, then = heapq.heappop(self._queue)
                served = next((h for h in self._holds if h[0] <= top), None)
                if served is not None:
                    self._holds.remove(served)
                self._running += 1
                self._running_jobs.add(outer)
            try:
                inner = self.pool.submit(trimmed, fn, *args)
            except BaseException as exc:
                with self._lock:
                    self._running -= 1
                    self._running_jobs.discard(outer)
                _settle(outer, exc)
                continue
            inner.add_done_callback(functools.partial(self._finished, outer=outer, then=then))

    def _finished(self, inner: Future[Any], outer: Future[Any], then: float | None) -> None:
        with self._lock:
            self._running -= 1
            self._running_jobs.discard(outer)
            if then is not None:
                self._holds.append((then, time.monotonic() + self.hold))
        if then is not None:  # look again when the hold runs out, in case no follow-up came
            timer = threading.Timer(self.hold, self._feed)
            timer.daemon = True
            timer.start()
        if inner.cancelled():
            _settle(outer, CancelledError())
        elif (exc := inner.exception()) is not None:
            _settle(outer, exc)
        elif not outer.done():
            try:
                outer.set_result(inner.result())
            except InvalidStateError:  # failed by close() meanwhile
                pass
        # submit the next job from a thread of our own: this callback runs in the pool's manager thread
        threading.Thread(target=self._feed, daemon=True).start()

    def close(self, reason: BaseException) -> None:
        """The build stops (an interrupt or a failure): every job that waits here or runs fails with
        ``reason`` now, and so does every later submission, so the threads that wait for them end at once
        instead of writing on into a folder being removed."""
        with self._lock:
            self._closed = reason
            waiting = [item[4] for item in self._queue] + list(self._running_jobs)
            self._queue.clear()
        for outer in waiting:
            _settle(outer, reason)


def trimmed(fn: Callable[..., Any], /, *args: Any) -> Any:
    """``fn(*args)``, then the memory it freed given back to the system (glibc's ``malloc_trim``).

    glibc gives back freed memory only from the top of its heap: a worker whose job freed hundreds of MB below one
    block still in use (a kept stylesheet, a cached font) keeps them all for its life, and the build's peak is the
    sum of its workers' highs. Trimming after each job costs a few milliseconds; elsewhere than glibc it does
    nothing."""
    try:
        return fn(*args)
    finally:
        _malloc_trim()


@functools.cache
def _trimmer() -> Callable[[int], int] | None:
    import ctypes
    try:
        trim: Callable[[int], int] = ctypes.CDLL(None).malloc_trim
    except (AttributeError, OSError):
        return None
    return trim


def _malloc_trim() -> None:
    trim = _trimmer()
    if trim is not None:
        trim(0)


def _settle(future: Future[Any], exc: BaseException) -> None:
    """Fail ``future`` unless it has its outcome already (close() and the pool's callback may race)."""
    try:
        future.set_exception(exc)
    except InvalidStateError:
        pass


def default_workers() -> int:
    """``BLACKPOKER_WORKERS`` if set, else one worker per core."""
    configured = os.environ.get("BLACKPOKER_WORKERS", "")
    return int(configured) if configured.isdigit() and int(configured) > 0 else (os.cpu_count() or 1)


def process_pool(workers: int, preload: Iterable[str] = ()) -> ProcessPoolExecutor:
    """A pool of forked workers, all started now (before the caller starts threads: forking then is unsafe).

    The workers die with this process, however it ends (even by SIGKILL), and leave Ctrl+C to it. The modules
    ``preload`` names are imported here first, so the workers run them as they are now: a worker imports a job's
    module when its first job arrives, and one edited meanwhile that no longer imports ends the worker (an
    exception while a call is read kills it: ``BrokenProcessPool``). One that does not import here (a module
    with an error, a library with a missing system library) is left to the worker, which reports it as before."""
    for module in preload:
        try:
            importlib.import_module(module)
        except (ImportError, OSError):  # OSError: a library WeasyPrint loads is missing; the worker reports it
            pass
    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    before = set(multiprocessing.active_children())
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_worker_start,
                               initargs=(os.getpid(),))
    for future in [pool.submit(os.getpid) for _ in range(workers)]:
        future.result()
    # its workers: the children started since (not the pids that answered: one worker may answer every call)
    _WORKERS[pool] = [p for p in multiprocessing.active_children() if p not in before]
    return pool


_WORKERS: weakref.WeakKeyDictionary[Executor, list[BaseProcess]] = weakref.WeakKeyDictionary()
_WHY = {signal.SIGKILL: "sent by the kernel's out-of-memory killer or by another program",
        signal.SIGTERM: "the pool stops its other workers so once one has ended abruptly",
        signal.SIGSEGV: "a crash in native code", signal.SIGBUS: "a crash in native code",
        signal.SIGABRT: "native code gave up (an abort)"}


def worker_ends(pool: Executor) -> str:
    """How the workers of ``pool`` that no longer run ended ("" if all run): Python's ``BrokenProcessPool`` says
    only that one "terminated abruptly", not which, how, or why it may have."""
    ends = []
    for process in _WORKERS.get(pool, []):
        code = process.exitcode
        if code is None:
            continue
        if code < 0:
            try:
                number = signal.Signals(-code)
            except ValueError:
                ends.append(f"worker {process.pid} was killed by signal {-code}")
                continue
            why = _WHY.get(number)
            ends.append(f"worker {process.pid} was killed by {number.name}" + (f" ({why})" if why else ""))
        else:
            ends.append(f"worker {process.pid} exited with code {code}")
    return "; ".join(ends)


def _worker_start(parent: int) -> None:
    """In each worker: die with the parent, and ignore Ctrl+C, which the parent handles by stopping the pool."""
    import signal
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent(parent)


def die_with_parent(parent: int) -> None:
    """Be killed when process ``parent`` (this one's parent) dies, however it ends, even by SIGKILL (Linux
    ``PR_SET_PDEATHSIG``; elsewhere nothing). The signal follows the thread that started this process: the
    pool starts all its workers from the thread that calls :func:`process_pool`."""
    import ctypes
    import signal
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (AttributeError, OSError):
        return
    pr_set_pdeathsig = 1
    prctl(pr_set_pdeathsig, signal.SIGKILL)
    if os.getppid() != parent:  # the parent died before the signal was set
        os._exit(1)


def in_child(fn: Callable[..., Any], /, *args: Any) -> Any:
    """``fn(*args)`` in a child process forked for it, which ends after it: the memory the job took goes back to
    the system, instead of staying with the worker for every later job (a Python process keeps its high point).
    Its result or exception comes back here.

    For a job that takes much more memory than the others (Sphinx: 1.2 GB at 5,000 actions, where the PDF
    steps' workers take a few hundred MB). Forking is safe only from a single-threaded process, like a pool's
    worker; in any other (the Inline runner in a program with threads) the job runs here.
    """
    if threading.active_count() > 1:
        return fn(*args)
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=1, mp_context=context, initializer=_worker_start,
                             initargs=(os.getpid(),)) as child:
        return child.submit(fn, *args).result()


def stop_pool(pool: ProcessPoolExecutor, *, now: bool) -> None:
    """Shut the pool down; ``now`` (an interrupt or a failure): cancel what waits and kill the workers instead
    of waiting for the jobs they run (a Sphinx build can take seconds)."""
    if not now:
        pool.shutdown(cancel_futures=True)
        return
    pool.shutdown(wait=False, cancel_futures=True)
    for process in multiprocessing.active_children():  # this process's workers: the build starts no other
        process.kill()
    for process in multiprocessing.active_children():
        process.join()


def done(value: Any) -> Future[Any]:
    """A future that already has its result (a part found in the cache)."""
    future: Future[Any] = Future()
    future.set_result(value)
    return future


def results(futures: Iterable[Future[Any]]) -> list[Any]:
    """Every result, in order; the first failure is raised after all have finished (nothing left running)."""
    futures = list(futures)
    done, error = [], None
    for future in futures:
        try:
            done.append(future.result())
        except BaseException as exc:
            error = error or exc
            done.append(None)
    if error is not None:
        raise error
    return done
