"""The preview (``pipeline.serve.serve``) run from a thread of the test, for a ``with`` block only."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from blackpoker.pipeline.serve import WATCHER, serve


@contextmanager
def serving(definitions: Path, out: Path, **options: Any) -> Iterator[None]:
    """``serve(definitions, out, **options)`` in a thread; at the block's end it is stopped, and both it and its
    watcher must have ended: a watcher left running would hash every input of the build each ``interval`` for the
    rest of the test run, on the worker's CPU."""
    stop = threading.Event()
    thread = threading.Thread(target=serve, args=(definitions, out), kwargs={**options, "stop": stop}, daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join(timeout=10)
        assert not thread.is_alive(), "the preview did not return once told to stop"
        deadline = time.monotonic() + 10
        while any(t.name == WATCHER for t in threading.enumerate()):
            assert time.monotonic() < deadline, "the preview's watcher outlived it"
            time.sleep(0.01)
