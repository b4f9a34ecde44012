"""Benchmark: prints the check time and the cold, no-change and one-entry-edit build times (an edit that
moves no page, and one that makes the entry longer, so pages after it move).

Targets (2-core machine): cold build <= 15 s, no-change rebuild <= 1 s, one-entry edit <= 5 s, check <= 0.5 s.
Then scripts/bench_scale.py: cold builds of 50, 500 and 5,000 actions (time per action, peak memory) and with one
flavour text of 100 KB and 300 KB, with and without break opportunities (the time they add must grow linearly).
Then the simulator (scripts/bench_sim.py) and the play page (scripts/bench_play.py).
Run it with `make bench`. It builds into a temporary folder and never touches build/.
"""

from __future__ import annotations

import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BLACKPOKER = [sys.executable, "-m", "blackpoker"]
TARGETS = {"check": 0.5, "cold build": 15.0, "no-change rebuild": 1.0, "one-entry edit": 5.0,
           "one-entry edit, pages move": 5.0}


def timed(args: list[str], cwd: Path) -> float:
    start = time.perf_counter()
    result = subprocess.run(args, cwd=cwd, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        sys.exit(f"failed: {' '.join(args)}\n{result.stderr}")
    return elapsed


def main() -> None:
    figures: dict[str, float] = {}
    figures["check"] = statistics.median(timed([*BLACKPOKER, "check"], ROOT) for _ in range(5))
    with tempfile.TemporaryDirectory(prefix="bp-bench-") as tmp:
        work = Path(tmp)
        defs = work / "definitions"
        shutil.copytree(ROOT / "definitions", defs)
        build = [*BLACKPOKER, "build", "--definitions", str(defs), "--out", str(work / "site")]
        figures["cold build"] = timed(build, ROOT)
        figures["no-change rebuild"] = timed(build, ROOT)
        actions = defs / "actions.yaml"
        text = actions.read_text(encoding="utf-8")
        marker = "「防壁の次は兵士を出します。これが戦術の基本です。」"
        if marker not in text:
            sys.exit("bench: the flavour text to edit is gone; update scripts/bench.py")
        # the same entry edited twice: a word (nothing moves), then four lines more (its box grows, the
        # pages after it in the book and in every list that shows it move, and the index with them)
        edits = {"one-entry edit": "「防壁の次は兵士を出します。これが戦術の基本だ。」",
                 "one-entry edit, pages move": "「防壁の次は兵士を出します。これが戦術の基本です。"
                                               + "防壁を並べ、兵士を出し、攻撃する。この順番を忘れないように。" * 6 + "」"}
        for name, new in edits.items():
            actions.write_text(text.replace(marker, new), encoding="utf-8")
            figures[name] = timed(build, ROOT)
    width = max(len(k) for k in figures)
    print(f"{'measure':<{width}}  seconds  target  ok")
    for name, seconds in figures.items():
        target = TARGETS[name]
        print(f"{name:<{width}}  {seconds:7.2f}  {target:6.1f}  {'yes' if seconds <= target else 'NO'}")
    print()
    subprocess.run([sys.executable, str(ROOT / "scripts" / "bench_scale.py")], cwd=ROOT, check=True)
    sim_bench = ROOT / "scripts" / "bench_sim.py"
    if sim_bench.exists():
        print()
        subprocess.run([sys.executable, str(sim_bench)], cwd=ROOT, check=True)
    print()  # the play page: load size and times, the computer's decisions, the play step's share of the cold build
    subprocess.run([sys.executable, str(ROOT / "scripts" / "bench_play.py"), "--cold-build", f"{figures['cold build']:.2f}"],
                   cwd=ROOT, check=True)


if __name__ == "__main__":
    main()
