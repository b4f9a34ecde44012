"""Measure the simulator: decisions, requests and games per second of random self-play, per regulation.

Usage: .venv/bin/python scripts/bench_sim.py [--games N] [--seed S] [--rounds R] [--baseline TREE] [--pure] [--only REG,…]

Every regulation (each format alone and each format + frame pair of Table 3.1) plays the same seeded games. With
``--baseline TREE`` (a checkout of older code, e.g. ``git worktree add /tmp/bp-base d08e867``) the same games are
also played by that tree's simulator, and the two are timed turn about, regulation by regulation, so that the
load of a shared machine falls on both alike; the table then gives the ratio new/old, by the clock and by each
worker's CPU time (which leaves out what other processes take). Each side runs in its own worker process with
its tree's ``tools`` first on ``PYTHONPATH``; of the ``R`` rounds the fastest is kept. The first lines say what
each tree runs: its compiled simulator (``make`` builds it; see ``tools/blackpoker/native.py``) or its Python
sources (``--pure``, a stale build, or code from before the compiled simulator).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REGULATIONS = ("lite", "std", "pro", "mast", "lite+entry20", "std+pack", "std+rarepack", "pro+pack", "pro+rarepack",
               "pro+strategy", "mast+pack", "mast+rarepack", "mast+strategy", "mast+extra")


def worker() -> None:
    """Answer ``REGULATION GAMES SEED`` lines with one JSON line of counts and seconds each.

    Only ``load_rules`` and ``self_play(rules, format, games, seed, frame)`` are used: both the old and the new code
    have them."""
    from blackpoker import load_rules
    from blackpoker.sim.selfplay import self_play
    try:
        from blackpoker.native import chosen  # what this tree runs: its compiled modules or its Python sources
        mode = chosen()
    except ImportError:
        mode = "pure Python (this code has no compiled simulator)"
    print(json.dumps({"mode": mode}), flush=True)
    rules = load_rules()
    for line in sys.stdin:
        regulation, games, seed = line.split()
        fmt, _, frame = regulation.partition("+")
        start, cpu_start = time.perf_counter(), time.process_time()
        stats = self_play(rules, fmt, int(games), int(seed), frame or None)
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu_start
        print(json.dumps({"games": stats.games, "requests": stats.requests, "decisions": stats.decisions,
                          "seconds": seconds, "cpu": cpu, "failures": len(stats.failures)}), flush=True)


@dataclass
class Worker:
    """A worker process running one tree's simulator."""

    tree: Path
    process: subprocess.Popen[str]
    mode: str  # "compiled", or why the tree runs its Python sources

    @classmethod
    def start(cls, tree: Path, pure: bool = False) -> Worker:
        env = dict(os.environ, PYTHONPATH=str(tree / "tools"), PYTHONHASHSEED="0")
        if pure:
            env["BLACKPOKER_PURE"] = "1"
        process = subprocess.Popen([sys.executable, str(Path(__file__).resolve()), "--worker"], cwd=tree, env=env,
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert process.stdout is not None
        first = process.stdout.readline()
        if not first:
            sys.exit(f"error: the worker for {tree} stopped (see its error above)")
        return cls(tree, process, json.loads(first)["mode"])

    def run(self, regulation: str, games: int, seed: int) -> dict[str, float]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(f"{regulation} {games} {seed}\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline()
        if not answer:
            sys.exit(f"error: the worker for {self.tree} stopped (see its error above)")
        result: dict[str, float] = json.loads(answer)
        return result

    def stop(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait()


def fastest(results: list[dict[str, float]]) -> dict[str, float]:
    first = results[0]
    for r in results:  # the same seeds must give the same games in every round
        if (r["games"], r["decisions"], r["requests"]) != (first["games"], first["decisions"], first["requests"]):
            sys.exit("error: two rounds of the same games differ: " + json.dumps(results))
    return min(results, key=lambda r: r["seconds"])


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games per regulation (default 100)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rounds", type=int, default=1, help="timings per regulation and side; the fastest is kept")
    parser.add_argument("--baseline", type=Path, help="a checkout of the code to compare with (its root folder)")
    parser.add_argument("--pure", action="store_true",
                        help="run this tree's Python sources, not its compiled simulator (BLACKPOKER_PURE=1)")
    parser.add_argument("--only", help="comma-separated regulations (default: all 14), e.g. lite,mast+extra")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker()
        return
    regulations = args.only.split(",") if args.only else list(REGULATIONS)
    unknown = sorted(set(regulations) - set(REGULATIONS))
    if unknown:
        sys.exit(f"error: unknown regulation {', '.join(unknown)}; expected some of {', '.join(REGULATIONS)}")
    if args.baseline is not None and not (args.baseline / "tools" / "blackpoker").is_dir():
        sys.exit(f"error: {args.baseline} is not a checkout of this repository (no tools/blackpoker)")
    new = Worker.start(ROOT, args.pure)
    old = Worker.start(args.baseline.resolve()) if args.baseline else None
    print(f"new: {new.tree} ({new.mode})" + (f"\nold: {old.tree} ({old.mode})" if old else ""), flush=True)
    head = f"{'regulation':14} {'games':>5} {'decisions':>9} {'new dec/s':>10} {'new games/s':>11}"
    if old:
        head += f" {'old dec/s':>10} {'old games/s':>11} {'ratio':>6} {'CPU ratio':>9}  same games"
    print(head, flush=True)
    ratios: list[float] = []
    cpu_ratios: list[float] = []
    try:
        for regulation in regulations:
            new_runs, old_runs = [], []
            for _ in range(args.rounds):  # turn about, so both sides meet the same load
                if old:
                    old_runs.append(old.run(regulation, args.games, args.seed))
                new_runs.append(new.run(regulation, args.games, args.seed))
            n = fastest(new_runs)
            line = (f"{regulation:14} {int(n['games']):5d} {int(n['decisions']):9d} "
                    f"{n['decisions'] / n['seconds']:10.0f} {n['games'] / n['seconds']:11.1f}")
            if old:
                o = fastest(old_runs)
                ratio = (n["decisions"] / n["seconds"]) / (o["decisions"] / o["seconds"])
                # CPU seconds of each worker: what other processes on a shared machine take is left out
                cpu_ratio = (n["decisions"] / min(r["cpu"] for r in new_runs)) / (
                    o["decisions"] / min(r["cpu"] for r in old_runs))
                ratios.append(ratio)
                cpu_ratios.append(cpu_ratio)
                same = (n["games"], n["decisions"], n["requests"]) == (o["games"], o["decisions"], o["requests"])
                line += (f" {o['decisions'] / o['seconds']:10.0f} {o['games'] / o['seconds']:11.1f} {ratio:5.1f}x"
                         f" {cpu_ratio:8.1f}x  {'yes' if same else 'NO'}")
            if n["failures"]:
                line += f"  FAILURES: {int(n['failures'])}"
            print(line, flush=True)
    finally:
        new.stop()
        if old:
            old.stop()
    if ratios:
        print(f"ratio new/old in decisions/s: min {min(ratios):.1f}x, max {max(ratios):.1f}x "
              f"(CPU time: min {min(cpu_ratios):.1f}x, max {max(cpu_ratios):.1f}x)")


if __name__ == "__main__":
    main()
