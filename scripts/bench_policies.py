"""Strength of the policies: N games per pair and regulation, the first policy's win rate with a Wilson 95% interval.

Seats alternate (even games: the first policy is A), so both policies go first about equally often. Games run on
every core (the balance study's pool); the same seeds give the same figures on any number of workers.

Usage: .venv/bin/python scripts/bench_policies.py [--games N] [--ismcts ismcts:32] [--workers K]
       [--regulation lite --regulation mast+extra] [--pairs ismcts-random,ismcts-greedy,greedy-random]
"""

from __future__ import annotations

import argparse
import time

from blackpoker.core.paths import DEFINITIONS
from blackpoker.infra.jobs import default_workers
from blackpoker.pipeline.balance import run_local
from blackpoker.sim.balance.stats import wilson
from blackpoker.sim.balance.study import regulation_ids, study_games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per pair and regulation")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--ismcts", default="ismcts:32", help="the ISMCTS policy and its budget")
    parser.add_argument("--workers", type=int, default=default_workers())
    parser.add_argument("--regulation", action="append", default=None)
    parser.add_argument("--pairs", default="ismcts-random,ismcts-greedy,greedy-random")
    args = parser.parse_args()
    regulations = args.regulation or ["lite", "mast+extra"]
    print(f"{'pair':34} {'regulation':11} {'games':>6} {'wins':>5} {'win rate':>9} {'95% interval':>16} "
          f"{'seconds':>8} {'games/s':>8}", flush=True)
    for pair in args.pairs.split(","):
        first, second = (args.ismcts if p == "ismcts" else p for p in pair.split("-"))
        for reg in regulations:
            start = time.perf_counter()
            specs = study_games([regulation_ids(reg)], (first, second), args.games, args.seed)
            games = run_local(str(DEFINITIONS), specs, args.workers)
            seconds = time.perf_counter() - start
            wins = sum(g.winner is not None and g.policies[g.winner] == first for g in games)
            low, high = wilson(wins, len(games))
            unusual = sum(g.end != "win" for g in games)
            print(f"{first + ' vs ' + second:34} {reg:11} {len(games):6d} {wins:5d} {wins / len(games):9.1%} "
                  f"{f'[{low:.1%}, {high:.1%}]':>16} {seconds:8.1f} {len(games) / seconds:8.2f}"
                  + (f"  (no winner: {unusual})" if unusual else ""), flush=True)


if __name__ == "__main__":
    main()
