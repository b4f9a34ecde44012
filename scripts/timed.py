"""Run a command and then say how long it took: wall time and the CPU time (user + system) of the command and every
process it waited for (pytest's workers and the tests' own child processes). `make test` and `make test-fast` print
it under pytest's own summary, so a run on a loaded machine (more wall for the same CPU) can be told apart from a
slower suite (more CPU).

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
    load, start, before = os.getloadavg()[0], time.monotonic(), os.times()
    status = subprocess.call(argv)
    after = os.times()
    user, system = after.children_user - before.children_user, after.children_system - before.children_system
    print(f"timed: wall {time.monotonic() - start:.1f} s, CPU {user + system:.1f} s (user {user:.1f} s + system "
          f"{system:.1f} s), load average {load:.2f} before the run", file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
