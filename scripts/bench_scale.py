"""Benchmark: the build at scale, and the layout of very long texts (issue 25, items 5 and 10).

* Scale: cold builds of definitions with 50, 500 and 5,000 actions (the edition declares ``simulated: false``, so
  the generated actions need no simulator): seconds, seconds per action and the peak memory of the build and its
  workers together. Targets: the time per action at 5,000 at most 1.5 times that at 500; peak memory under 2 GB.
* Layout: the work one flavour text of 100 KB, 300 KB and 1 MB adds, a punctuated sentence and numbered tokens
  with few break opportunities, measured step by step in one process (scripts/bench_layout.py: a whole build's
  time buried it in noise).

Run with ``make bench`` (after the other figures) or alone: ``.venv/bin/python scripts/bench_scale.py
[--actions 50,500] [--sizes 100,300,1024] [--only scale|layout] [--keep DIR]``. Builds go to a temporary folder
(with ``--keep``, to DIR/<count>/, kept); build/ is untouched. It exits 1 when a build fails or misses a target, so
``make bench`` stops there too.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BLACKPOKER = [sys.executable, "-m", "blackpoker"]
ACTION = """
  - id: bench-{n:05d}
    name: 試験魔法{n:05d}
    reading: しけんまほう
    category: 通常魔法
    group: 通常魔法
    trigger: direct
    speed: normal
    timing: main
    key_card: ♡A~10
    effect:
      - 対戦相手に{damage}点ダメージを与える。
    flavor: 「{n}番目の試験の魔法。」
    introduced: v8.1
    formats: [mast]
"""


def _tree_rss(root: int) -> dict[str, int]:
    """Resident memory of a process and each of its descendants, in bytes (Linux /proc), by who they are: "build",
    "worker <pid>" (its children: the pool's workers), "child of <pid>" (a worker's child, e.g. a Sphinx build)."""
    parents: dict[int, int] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="utf-8") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            parents[int(entry)] = int(fields[1])
            rss[int(entry)] = int(fields[21]) * os.sysconf("SC_PAGE_SIZE")
        except (OSError, IndexError, ValueError):
            continue
    names, todo = {root: "build"}, [root]
    while todo:
        pid = todo.pop()
        for child, parent in parents.items():
            if parent == pid and child not in names:
                names[child] = f"worker {child}" if pid == root else f"child of {pid}"
                todo.append(child)
    return {name: rss.get(pid, 0) for pid, name in names.items()}


def _kind(name: str) -> str:
    """"build", "worker" or "child" (a worker's child: a Sphinx build)."""
    return name.split(" ")[0]


def _each(highs: dict[str, int]) -> str:
    """The highest resident memory any process of each kind reached, at whatever time (GB)."""
    kinds: dict[str, int] = {}
    for name, size in highs.items():
        kinds[_kind(name)] = max(kinds.get(_kind(name), 0), size)
    return ", ".join(f"{kind} {kinds[kind] / 2**30:.2f}" for kind in ("build", "worker", "child") if kind in kinds)


def _held(by: dict[str, int]) -> str:
    """Who holds the memory at the peak: the larger processes, largest first."""
    big = sorted(((size, name) for name, size in by.items() if size >= 50 * 2**20), reverse=True)
    return ", ".join(f"{name} {size / 2**30:.2f}" for size, name in big)


@dataclass(frozen=True)
class Measure:
    """A command's wall seconds, processor seconds (its whole process tree: on a shared machine the wall time
    also counts the other programs' turns, the processor time does not) and peak memory (bytes)."""

    seconds: float
    cpu: float
    peak: int
    held: str = ""  # who held the peak (see _held)
    each: str = ""  # each kind of process's own peak (see _each)


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def measured(args: list[str]) -> Measure:
    """Wall and processor seconds and peak memory (the process tree's resident total, sampled every 0.2 s) of a
    command; NaN seconds if it fails."""
    start, cpu_start = time.perf_counter(), _children_cpu()
    process = subprocess.Popen(args, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    peak, held = 0, ""
    highs: dict[str, int] = {}  # each process's own peak
    done = threading.Event()

    def sample() -> None:
        nonlocal peak, held
        while not done.is_set():
            by = _tree_rss(process.pid)
            if sum(by.values()) > peak:
                peak, held = sum(by.values()), _held(by)
            for name, size in by.items():
                highs[name] = max(highs.get(name, 0), size)
            done.wait(0.2)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    _, err = process.communicate()
    done.set()
    sampler.join()
    elapsed, cpu = time.perf_counter() - start, _children_cpu() - cpu_start
    if process.returncode != 0:
        lines = err.strip().splitlines()
        failed = next((i for i, line in enumerate(lines) if "the build failed" in line), len(lines) - 1)
        print(f"  failed after {elapsed:.0f} s (exit {process.returncode}):", *lines[failed:], sep="\n    ")
        return Measure(float("nan"), float("nan"), peak, held, _each(highs))
    return Measure(elapsed, cpu, peak, held, _each(highs))


def scale_definitions(target: Path, actions: int) -> None:
    """definitions/ with ``simulated: false`` and generated actions up to ``actions`` in all."""
    shutil.copytree(ROOT / "definitions", target)
    ruleset = target / "ruleset.yaml"
    ruleset.write_text(ruleset.read_text(encoding="utf-8").replace("  players: 2\n", "  players: 2\n  simulated: false\n", 1),
                       encoding="utf-8")
    existing = (target / "actions.yaml").read_text(encoding="utf-8").count("\n  - id: ")
    with (target / "actions.yaml").open("a", encoding="utf-8") as f:
        for n in range(max(0, actions - existing)):
            f.write(ACTION.format(n=n, damage=n % 5 + 1))


def _load() -> str:
    return "load average " + " ".join(f"{x:.1f}" for x in os.getloadavg())


def scale(counts: list[int], keep: Path | None = None) -> bool:
    """Whether every build succeeded within the targets (each line says yes or NO)."""
    met = True
    print(f"scale (cold builds, simulated: false; {_load()})")
    print("                 wall s  per action  cpu s  cpu per action  peak memory")
    per_action: dict[int, Measure] = {}
    for count in counts:
        with tempfile.TemporaryDirectory(prefix="bp-bench-scale-") as tmp:
            folder = Path(tmp) if keep is None else keep / str(count)
            defs = folder / "definitions"
            shutil.rmtree(folder, ignore_errors=True)
            scale_definitions(defs, count)
            m = measured([*BLACKPOKER, "build", "--definitions", str(defs), "--out", str(folder / "site")])
        per_action[count] = Measure(m.seconds / count, m.cpu / count, m.peak)
        met = met and m.seconds == m.seconds and m.peak < 2 * 2**30  # NaN seconds: the build failed
        print(f"{count:>5} actions  {m.seconds:9.1f}  {m.seconds / count:10.3f}  {m.cpu:6.1f}  {m.cpu / count:14.3f}  "
              f"{m.peak / 2**30:6.2f} GB {'yes' if m.peak < 2 * 2**30 else 'NO'}  ({_load()})", flush=True)
        print(f"               at the peak (GB): {m.held}", flush=True)
        print(f"               each kind's own peak (GB): {m.each}", flush=True)
    if 500 in per_action and 5000 in per_action:
        wall = per_action[5000].seconds / per_action[500].seconds
        cpu = per_action[5000].cpu / per_action[500].cpu
        print(f"time per action 5,000 / 500: wall {wall:.2f}, cpu {cpu:.2f} (target <= 1.5) "
              f"{'yes' if max(wall, cpu) <= 1.5 else 'NO'}")
        met = met and max(wall, cpu) <= 1.5
    return met


def layout(sizes: str) -> bool:
    """The long flavour texts (scripts/bench_layout.py); whether their ratios are within the target."""
    print(flush=True)
    args = [sys.executable, str(ROOT / "scripts" / "bench_layout.py"), "--sizes", sizes]
    return subprocess.run(args, cwd=ROOT, check=False).returncode == 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--actions", default="50,500,5000", help="action counts (comma list)")
    parser.add_argument("--sizes", default="100,300,1024", help="flavour text sizes in KB (comma list)")
    parser.add_argument("--only", choices=("scale", "layout"))
    parser.add_argument("--keep", type=Path, help="build into KEEP/<count>/ and keep it (to look at the outputs)")
    options = parser.parse_args()
    met = True
    if options.only != "layout":
        met = scale([int(n) for n in options.actions.split(",")], options.keep)
    if options.only != "scale":
        met = layout(options.sizes) and met
    if not met:
        print("bench_scale: a build failed or a figure missed its target (the lines marked NO)", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
