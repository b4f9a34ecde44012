"""Who may write what while several builds run: one build per output folder; no cache clean-up while another
build reads the cache.

Builds of different output folders share only the cache, whose entries are keyed by their content and
written whole before they appear (see cache.py and pdfparts.PartCache), so they can run side by side. Each
build holds a shared lock on the cache while it runs; removing old entries needs the exclusive lock and is
skipped when another build holds the shared one.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from filelock import FileLock, ReadWriteLock, Timeout


def lock_path(out: Path) -> Path:
    """The lock file of output folder ``out``: beside it, so it survives the folder's replacement."""
    return out.parent / f".{out.name}.lock"


def _write_owner(fd: int) -> None:
    """Record who holds the lock in the lock file itself, for a build that has to wait."""
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"process {os.getpid()}, since {time.strftime('%H:%M:%S')}\n".encode(), 0)


def _owner(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8").strip() or "owner unknown"
    except OSError:
        return "owner unknown"


@contextmanager
def output_lock(out: Path, progress: Callable[[str], None]) -> Iterator[None]:
    """Hold the lock of output folder ``out``; if another build holds it, say so and wait for it to finish."""
    path = lock_path(out)
    path.touch()  # a folder where no file can be made: an OSError naming it (filelock would keep retrying)
    lock = FileLock(path, on_acquired=_write_owner, preserve_lock_file=True)
    try:
        lock.acquire(blocking=False)
    except Timeout:
        progress(f"waiting: another build is writing {out} ({_owner(path)}); this one starts when it ends …")
        lock.acquire()
    try:
        yield
    finally:
        lock.release()


class CacheLease:
    """A build's shared hold on the cache folder, and the exclusive hold that clean-up needs."""

    def __init__(self, cache_root: Path) -> None:
        cache_root.mkdir(parents=True, exist_ok=True)
        self._lock = ReadWriteLock(cache_root / "lock.db", is_singleton=False)

    @contextmanager
    def shared(self) -> Iterator[None]:
        with self._lock.read_lock():
            yield

    @contextmanager
    def alone(self) -> Iterator[bool]:
        """Yield True with the exclusive lock held, or False at once if another build uses the cache."""
        try:
            self._lock.acquire_write(blocking=False)
        except Timeout:
            yield False
            return
        try:
            yield True
        finally:
            self._lock.release()
