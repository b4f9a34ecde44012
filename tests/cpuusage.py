"""Where the suite's CPU goes: ``pytest --cpu-report N`` lists the N tests (and the N files) that took the most
processor time, setup and teardown included, counting every process the test ran: the worker, the build's pool,
Chromium, a command's child process.

On two cores the whole suite's CPU time halved is the least wall time it can take, so this (not ``--durations``,
which counts waiting too) is what tells which tests to make cheaper. A test's time is that of the worker's process
tree between two points: each live process's own time, plus what every process has reaped. A per-worker fixture
(Chromium, a shared build) is charged to the first test that asks for it.
"""

from __future__ import annotations

import os
from collections import defaultdict
from collections.abc import Generator
from pathlib import Path

import pytest

KEY = "cpu"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--cpu-report", type=int, default=0, metavar="N",
                     help="list the N tests and files that took the most CPU time (their child processes included)")


def _stats() -> dict[int, tuple[int, float]]:
    """Every process's parent and its user + system time with that of the children it reaped (Linux's /proc)."""
    ticks = os.sysconf("SC_CLK_TCK")
    found = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()  # after the command's name, which may hold spaces
        except OSError:  # ended while listed: its parent's reaped time holds it
            continue
        found[int(stat.parent.name)] = (int(fields[1]), sum(int(f) for f in fields[11:15]) / ticks)
    return found


def _tree_cpu() -> float:
    """User + system seconds of this process, the children it reaped, and every live descendant and what each reaped."""
    stats = _stats()
    children: defaultdict[int, list[int]] = defaultdict(list)
    for pid, (parent, _) in stats.items():
        children[parent].append(pid)
    total, todo = 0.0, [os.getpid()]
    while todo:
        pid = todo.pop()
        total += stats[pid][1] if pid in stats else 0.0
        todo.extend(children[pid])
    return total


def _measured(item: pytest.Item) -> Generator[None, None, None]:
    if not item.config.getoption("--cpu-report"):
        yield
        return
    before = _tree_cpu()
    yield
    item.user_properties.append((KEY, _tree_cpu() - before))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Generator[None, None, None]:
    yield from _measured(item)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, None, None]:
    yield from _measured(item)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item: pytest.Item) -> Generator[None, None, None]:
    yield from _measured(item)


_SPENT: defaultdict[str, float] = defaultdict(float)
_WALL: defaultdict[str, float] = defaultdict(float)  # each test's wall time, setup and teardown included
_SPAN: dict[str, tuple[float, float]] = {}  # per worker: its first test's start, its last test's end
_BUSY: defaultdict[str, float] = defaultdict(float)  # per worker: the wall time its tests took


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """On the controller (or a run without workers): each phase's report carries what was measured so far."""
    _WALL[report.nodeid] += report.duration
    node = getattr(report, "node", None)
    worker = str(getattr(getattr(node, "gateway", None), "id", "main"))
    first, last = _SPAN.get(worker, (report.start, report.stop))
    _SPAN[worker] = (min(first, report.start), max(last, report.stop))
    _BUSY[worker] += report.duration
    if report.when == "teardown":
        spent = [value for key, value in report.user_properties if key == KEY and isinstance(value, float)]
        _SPENT[report.nodeid] = sum(spent, 0.0)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, config: pytest.Config) -> None:
    count = config.getoption("--cpu-report")
    if not count or not _SPENT:
        return
    files: defaultdict[str, float] = defaultdict(float)
    for nodeid, seconds in _SPENT.items():
        files[nodeid.split("::", 1)[0]] += seconds
    write = terminalreporter.write_line
    terminalreporter.section(f"most CPU: {count} tests, {count} files (of {sum(_SPENT.values()):.1f} s measured)")
    for nodeid, seconds in sorted(_SPENT.items(), key=lambda kv: -kv[1])[:count]:
        write(f"{seconds:8.2f}s {nodeid}")
    write("")
    walls: defaultdict[str, float] = defaultdict(float)
    for nodeid, seconds in _WALL.items():
        walls[nodeid.split("::", 1)[0]] += seconds
    for path, seconds in sorted(files.items(), key=lambda kv: -kv[1])[:count]:
        write(f"{seconds:8.2f}s {path} (wall {walls[path]:.1f} s)")
    write("")  # a worker's span less its tests' wall time: when it ran none (waiting for work, or between tests)
    for worker, (first, last) in sorted(_SPAN.items()):
        write(f"{worker}: {last - first:.1f} s from its first test's start to its last's end, "
              f"{_BUSY[worker]:.1f} s in its tests")
