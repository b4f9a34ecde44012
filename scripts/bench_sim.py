"""Measure the simulator: requests per second and games per second of random self-play, per format (and one frame).

Usage: .venv/bin/python scripts/bench_sim.py [--games N] [--seed S]
"""

from __future__ import annotations

import argparse
import time

from blackpoker import load_rules
from blackpoker.sim.selfplay import self_play


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rules = load_rules()
    print(f"{'regulation':12} {'games':>6} {'requests':>9} {'decisions':>10} {'seconds':>8} {'games/s':>8} "
          f"{'requests/s':>11} {'decisions/s':>12}")
    for format_id, frame in (("lite", None), ("std", None), ("pro", None), ("mast", None), ("mast", "extra")):
        start = time.perf_counter()
        stats = self_play(rules, format_id, args.games, args.seed, frame)
        seconds = time.perf_counter() - start
        name = format_id + (f"+{frame}" if frame else "")
        print(f"{name:12} {stats.games:6d} {stats.requests:9d} {stats.decisions:10d} {seconds:8.2f} "
              f"{stats.games / seconds:8.1f} {stats.requests / seconds:11.0f} {stats.decisions / seconds:12.0f}"
              + ("  FAILURES: " + str(len(stats.failures)) if stats.failures else ""))


if __name__ == "__main__":
    main()
