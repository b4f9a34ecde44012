"""Benchmark of the play page (``make bench`` runs it): what a first visit downloads, how long until the page is
interactive (the engine loaded in its worker), a later visit from the browser's cache, how long the computer
takes for one decision at the default strength, and what the play step adds to a cold build.

Targets: first load <= 15 MB; interactive <= 5 s served locally; cached revisit <= 1.5 s; a decision of the
default opponent <= 1 s; the play step <= 10% of a cold build. Served from a temporary folder on 127.0.0.1 and
measured in headless Chromium (Playwright) with a profile on disk, as a visitor's browser keeps one: the first
visit starts from an empty profile, the later visit restarts the browser on the same profile (its HTTP cache,
Cache Storage and V8's code cache). The first load's bytes are what the server sent. The machine is shared:
each figure is the median of ``--rounds`` rounds, printed with the load average.

``--site DIR`` (repeatable) measures sites already built (e.g. one built before a change and one after) in the
same run, round by round in turn, instead of building one.

Usage: .venv/bin/python scripts/bench_play.py [--rounds N] [--cold-build SECONDS] [--site DIR …]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import re
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
from browsers import ARGS, CHROMIUM, launch  # noqa: E402
from playsite import make_site, served  # noqa: E402

READY = "window.bpPlay && window.bpPlay.ready"
TURN = ("document.querySelector('[data-game-over]') || (!document.body.classList.contains('busy') && "
        "document.querySelector('#moves button[data-move]'))")


def visit(playwright: Any, profile: Path, url: str) -> tuple[float, dict[str, float]]:
    """One visit in a browser started on ``profile``: seconds from navigation to the engine's ready, and the
    worker's phases (seconds from the worker's start)."""
    context = playwright.chromium.launch_persistent_context(str(profile), executable_path=str(CHROMIUM),
                                                            headless=True, args=ARGS)
    page = context.new_page()
    began = time.perf_counter()
    page.goto(url)
    page.wait_for_function(READY, timeout=180_000)
    elapsed = time.perf_counter() - began
    phases: dict[str, float] = page.evaluate("window.bpPlay.phases")
    page.wait_for_function("window.bpPlay.kept !== null", timeout=180_000)  # kept for the next visit, if it can be
    context.close()
    return elapsed, phases


def decisions(browser: Any, url: str, seed: int, strength: str) -> list[float]:
    """The computer's decision times (seconds, in the worker) over one game at ``strength``."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(url)
    page.wait_for_function(READY, timeout=180_000)
    page.select_option("#opponent", "ismcts")
    page.select_option("#strength", strength)
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


def median_phases(all_phases: list[dict[str, float]]) -> str:
    names = list(dict.fromkeys(name for phases in all_phases for name in phases))
    return ", ".join(f"{name} {statistics.median(p[name] for p in all_phases if name in p):.2f}" for name in names)


def measure(playwright: Any, sites: dict[str, Path], rounds: int, work: Path) -> dict[str, dict[str, Any]]:
    """Each site's first loads, revisits and decisions, the sites measured in turn within each round."""
    figures: dict[str, dict[str, Any]] = {label: {"first": [], "revisit": [], "bytes": [], "first phases": [],
                                                  "revisit phases": [], "load": []} for label in sites}
    servers = {}
    logs: dict[str, list[tuple[str, int]]] = {label: [] for label in sites}
    with contextlib.ExitStack() as stack:
        for label, site in sites.items():
            servers[label] = stack.enter_context(served(site, logs[label])) + "play/index.html"
        for round_ in range(rounds):
            for label in sites:
                profile = work / f"profile-{label}-{round_}"
                logs[label].clear()
                seconds, phases = visit(playwright, profile, servers[label])
                f = figures[label]
                f["first"].append(seconds)
                f["first phases"].append(phases)
                f["bytes"].append(sum(size for _, size in logs[label]))
                seconds, phases = visit(playwright, profile, servers[label])
                f["revisit"].append(seconds)
                f["revisit phases"].append(phases)
                f["load"].append(os.getloadavg()[0])
        browser = launch(playwright)
        for label in sites:
            strength = default_strength(sites[label])
            figures[label]["strength"] = strength
            figures[label]["timings"] = decisions(browser, servers[label], 1, strength)
        browser.close()
    return figures


def default_strength(site: Path) -> str:
    """The strength the site's page selects by default (a site built before a change may have another)."""
    page = (site / "play" / "index.html").read_text(encoding="utf-8")
    found = re.search(r'<option value="(ismcts:[^"]+)" selected>', page)
    return found.group(1) if found else DEFAULT_STRENGTH


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--cold-build", type=float, help="a cold build's seconds (bench.py passes its own)")
    parser.add_argument("--site", type=Path, action="append", default=[], help="a built site to measure (repeatable)")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright
    with tempfile.TemporaryDirectory(prefix="bp-bench-play-") as tmp:
        step = None
        sites = {f"site {i + 1}": site for i, site in enumerate(args.site)}
        if not sites:
            rules = load_rules()
            began = time.perf_counter()
            build_play(rules, Path(tmp) / "alone")
            step = time.perf_counter() - began
            sites = {"this tree": make_site(rules, Path(tmp) / "site")}
        with sync_playwright() as p:
            figures = measure(p, sites, args.rounds, Path(tmp))
    for label, f in figures.items():
        timings = f["timings"]
        rows = [("first load (MB)", max(f["bytes"]) / 1e6, 15.0),
                ("time to interactive (s)", statistics.median(f["first"]), 5.0),
                ("cached revisit (s)", statistics.median(f["revisit"]), 1.5),
                (f"computer decision, {f['strength']}, median (s)", statistics.median(timings), 1.0),
                (f"computer decision, {f['strength']}, slowest (s)", max(timings), 1.0)]
        if step is not None:
            cold = args.cold_build or cold_build_seconds()
            rows.append(("play step / cold build (%)", 100 * step / cold, 10.0))
        width = max(len(name) for name, _, _ in rows)
        print(f"{label}: {sites[label]}")
        print(f"  load average (1 min) after each round: {', '.join(f'{x:.1f}' for x in f['load'])} "
              f"on {os.cpu_count()} cores")
        print(f"  first loads (s): {', '.join(f'{x:.2f}' for x in f['first'])}; "
              f"revisits (s): {', '.join(f'{x:.2f}' for x in f['revisit'])}")
        print(f"  worker phases, medians (s from the worker's start): first visit {median_phases(f['first phases'])}; "
              f"revisit {median_phases(f['revisit phases'])}")
        print(f"  {len(timings)} computer decisions in one game, seed 1"
              + (f"; play step {step:.2f} s" if step is not None else ""))
        print(f"  {'measure':<{width}}  value  target  ok")
        for name, value, target in rows:
            print(f"  {name:<{width}}  {value:5.2f}  {target:6.1f}  {'yes' if value <= target else 'NO'}")


if __name__ == "__main__":
    main()
