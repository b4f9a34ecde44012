"""Run a command and then say how long it took: wall time and the CPU time (user + system) of the command and every
process it waited for (pytest's workers and the tests' own child processes). `make test` and `make test-fast` print
it under pytest's own summary, so a run on a loaded machine (more wall for the same CPU) can be told apart from a
slower suite (more CPU).

Chromium's processes are not waited for by the processes that start them, so their time is missing from that CPU
figure; the line also gives the whole machine's busy CPU time during the run (Linux's ``/proc/stat``, every process
counted): on an otherwise idle machine that is the run's true cost, browsers included.

    python scripts/timed.py COMMAND [ARG …]   → the command's exit status, then one line on standard error
"""

from __future__ import annotations

import os
import subprocess
import sys
import time


def main(argv: list[str]) -> int:
    if not argv:
        print("usage: timed.py COMMAND [ARG …]", file=sys.stderr)
        return 2
    load, start, before, busy = os.getloadavg()[0], time.monotonic(), os.times(), machine_busy()
    status = subprocess.call(argv)
    after = os.times()
    user, system = after.children_user - before.children_user, after.children_system - before.children_system
    machine = "" if busy is None else f"; the machine's busy CPU {(machine_busy() or 0.0) - busy:.1f} s"
    print(f"timed: wall {time.monotonic() - start:.1f} s, CPU {user + system:.1f} s (user {user:.1f} s + system "
          f"{system:.1f} s){machine}, load average {load:.2f} before the run", file=sys.stderr)
    return status


def machine_busy() -> float | None:
    """Seconds of CPU time every processor has spent on anything but idling and waiting for I/O since boot (None
    where there is no ``/proc/stat``)."""
    try:
        with open("/proc/stat", encoding="ascii") as stat:
            fields = [int(f) for f in stat.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    user, nice, system, _idle, _iowait, irq, softirq, steal = (fields + [0] * 8)[:8]
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
