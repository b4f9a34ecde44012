"""Benchmark of the play page (``make bench`` runs it): what a first visit downloads, how long until the page is
interactive (the engine loaded in its worker), a later visit from the browser's cache, how long the computer
takes for one decision at the default strength, and what the play step adds to a cold build.

Targets: first load <= 15 MB; interactive <= 5 s served locally; cached revisit <= 1.5 s; a decision of the
default opponent <= 1 s; the play step <= 10% of a cold build. Served from a temporary folder on 127.0.0.1 and
measured in headless Chromium (Playwright); the fastest of ``--rounds`` is kept, as the machine is shared.

Usage: .venv/bin/python scripts/bench_play.py [--rounds N] [--cold-build SECONDS]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # the browser tests' site and Chromium helpers

from blackpoker.core.loader import load_rules  # noqa: E402
from blackpoker.pipeline.playpage import DEFAULT_STRENGTH, build_play  # noqa: E402
from browsers import launch  # noqa: E402
from playsite import make_site, served  # noqa: E402

READY = "window.bpPlay && window.bpPlay.ready"
TURN = ("document.querySelector('[data-game-over]') || (!document.body.classList.contains('busy') && "
        "document.querySelector('#moves button[data-move]'))")


def load_time(context: Any, url: str, sizes: list[int] | None = None,
              phases: list[dict[str, float]] | None = None) -> float:
    page = context.new_page()
    if sizes is not None:
        page.on("response", lambda r: sizes.append(len(r.body())) if r.ok else None)
    began = time.perf_counter()
    page.goto(url)
    page.wait_for_function(READY, timeout=180_000)
    elapsed = time.perf_counter() - began
    if phases is not None:
        phases.append(page.evaluate("window.bpPlay.phases"))
    page.close()
    return elapsed


def decisions(browser: Any, url: str, seed: int) -> list[float]:
    """The computer's decision times (seconds, in the worker) over one game at the default strength."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(url)
    page.wait_for_function(READY, timeout=180_000)
    page.select_option("#opponent", "ismcts")
    page.select_option("#strength", DEFAULT_STRENGTH)
    page.fill("#seed", str(seed))
    page.click("#start")
    rng = random.Random(seed)
    page.wait_for_function(TURN, timeout=180_000)
    for _ in range(400):
        if page.query_selector("[data-game-over]"):
            break
        buttons = page.query_selector_all("#moves button[data-move]")
        pick = rng.choice(buttons)
        pick.evaluate("b => { for (let d = b.closest('details'); d; d = d.parentElement.closest('details')) d.open = true; }")
        pick.click()
        page.wait_for_function(TURN, timeout=180_000)
    timings: list[float] = page.evaluate("window.bpPlay.timings")
    context.close()
    return timings


def cold_build_seconds() -> float:
    with tempfile.TemporaryDirectory(prefix="bp-bench-play-") as tmp:
        began = time.perf_counter()
        subprocess.run([sys.executable, "-m", "blackpoker", "build", "--out", str(Path(tmp) / "site")], cwd=ROOT,
                       check=True, capture_output=True)
        return time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--cold-build", type=float, help="a cold build's seconds (bench.py passes its own)")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright
    rules = load_rules()
    with tempfile.TemporaryDirectory(prefix="bp-bench-play-") as tmp:
        began = time.perf_counter()
        build_play(rules, Path(tmp) / "alone")
        step = time.perf_counter() - began
        site = make_site(rules, Path(tmp) / "site")
        with served(site) as base, sync_playwright() as p:
            url = base + "play/index.html"
            browser = launch(p)
            first: list[float] = []
            revisit: list[float] = []
            sizes: list[int] = []
            phases: list[dict[str, float]] = []
            for _ in range(args.rounds):
                context = browser.new_context()  # an empty cache
                these: list[int] = []
                first.append(load_time(context, url, these, phases))
                sizes.append(sum(these))
                revisit.append(load_time(context, url))
                context.close()
            timings = decisions(browser, url, 1)
            browser.close()
    cold = args.cold_build or cold_build_seconds()
    rows = [("first load (MB)", max(sizes) / 1e6, 15.0),
            ("time to interactive (s)", min(first), 5.0),
            ("cached revisit (s)", min(revisit), 1.5),
            (f"computer decision, {DEFAULT_STRENGTH}, median (s)", statistics.median(timings), 1.0),
            (f"computer decision, {DEFAULT_STRENGTH}, slowest (s)", max(timings), 1.0),
            ("play step / cold build (%)", 100 * step / cold, 10.0)]
    width = max(len(name) for name, _, _ in rows)
    fastest = phases[first.index(min(first))]
    print("worker phases of the fastest first load (seconds from its start): "
          + ", ".join(f"{name} {seconds:.2f}" for name, seconds in fastest.items()))
    print(f"load average while measured: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"play page ({len(timings)} computer decisions, the median of those with a choice; "
          f"play step {step:.2f} s, cold build {cold:.1f} s)")
    print(f"{'measure':<{width}}  value  target  ok")
    for name, value, target in rows:
        print(f"{name:<{width}}  {value:5.2f}  {target:6.1f}  {'yes' if value <= target else 'NO'}")


if __name__ == "__main__":
    main()
