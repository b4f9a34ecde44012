"""Benchmark: the layout work one long flavour text adds, at 0, 100, 300 and 1,024 KB (issue 25, item 5).

Two kinds of text: a punctuated sentence (breaks everywhere) and numbered tokens with few break opportunities
(``〔0001〕あいうえお…``). A whole build's time hides the text's share (38 s of everything else, measured once,
under a load that moves it by seconds), so this measures only the work that lays the entry out, in this process:

* the project is laid out once with a short text of its own (the primer): the part cache and the Sphinx
  environment are kept from it;
* then, for each text, from a copy of that state: the action lists (HTML, and the PDFs: the entry's batch, its
  pieces, every list's frame and cover, the assembly) and the rulebook (Sphinx re-reads the pages that show the
  entry and writes the web pages, the search index and the single page; the book lays out the chapter holding
  the entry, its contents, folio and index, and joins them). Frames, covers, contents, folio and index are
  always laid out again (their cached parts are dropped), so every size does the same work but for the text;
* each job's processor time is charged to its component (a job runs in the thread that submits it: its thread
  time); what runs between jobs (HTML, cutting, joining in this process) is the rest of the process's time;
* every measurement is repeated (``--repeat``, 3) and the median kept; the sizes take turns, so a change of load
  falls on all of them alike.

The ratios, of the medians of all components together: ``added(s)`` is the time at ``s`` KB less that at 0 KB
(the same entry with an empty flavour text), and the ratio of two sizes is their added time per KB, the larger's
over the smaller's (1 for linear layout, 3 for quadratic from 100 to 300 KB). It includes what the entry costs
once for being taller than a page (its list frames laid out again around its pieces), which flatters the
larger size; so the marginal ratio is printed too: the time per KB from 300 to 1,024 KB over that from 100 to
300 KB (1 for linear, 3.3 for quadratic). Target: every ratio at most 1.5, both kinds.

Run with ``make bench`` or alone: ``.venv/bin/python scripts/bench_layout.py [--sizes 100,300,1024] [--repeat 3]``.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import sys
import tempfile
import threading
import time
from collections import defaultdict
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import Any

from blackpoker.core.loader import load_rules
from blackpoker.core.paths import prose_folder
from blackpoker.infra.jobs import NORMAL, Inline
from blackpoker.pipeline.rulebook import build_rulebook
from blackpoker.render.actionlist.html import build_html
from blackpoker.render.actionlist.pdf import build_pdfs
from blackpoker.render.pdfparts import PartCache

ROOT = Path(__file__).resolve().parents[1]
MARKER = "「防壁の次は兵士を出します。これが戦術の基本です。」"  # 兵士召喚's flavour text in definitions/actions.yaml
PRIMER = "防壁の次は兵士を出します。"
SENTENCE = "防壁を並べ、兵士を出し、攻撃する。この順番を忘れないように。"
KINDS = ("sentence", "tokens")
KEPT = ("entries", "chapter")  # parts kept from the primer (those that show the entry are laid out again anyway)
_KEY = re.compile(r"([a-z]+)[^\s<>]*-[0-9a-f]{64}")
NAMES = {"entries": "list entries (batch)", "long": "list long-entry pieces", "frame": "list frames",
         "cover": "list covers", "page": "list page body", "_assemble": "list assembly",
         "chapter": "book chapter and runs", "front": "book contents", "folio": "book folio", "index": "book index",
         "join_book": "book join", "sphinx_job html": "Sphinx web pages and search index",
         "sphinx_job singlehtml": "Sphinx single page", "rest": "in process (HTML, cutting, joining)"}


def long_text(kind: str, size_kb: int) -> str:
    """``size_kb`` KB (UTF-8) of a punctuated sentence or of numbered tokens."""
    if kind == "sentence":
        unit = SENTENCE * (size_kb * 1024 // len(SENTENCE.encode("utf-8")) + 1)
    else:
        unit = "".join(f"〔{i:04d}〕あいうえおかきくけこ" for i in range(size_kb * 1024 // 45 + 2))
    return unit.encode("utf-8")[:size_kb * 1024].decode("utf-8", errors="ignore")


class Recorder(Inline):
    """Runs each job at once, in the thread that submits it, and charges its processor time to its component."""

    def __init__(self) -> None:
        self.cpu: dict[str, float] = defaultdict(float)
        self._lock = threading.Lock()

    def submit(self, fn: Callable[..., Any], /, *args: Any, priority: float = NORMAL,
               then: float | None = None) -> Future[Any]:
        start = time.thread_time()
        future = super().submit(fn, *args)
        with self._lock:
            self.cpu[component(fn, args)] += time.thread_time() - start
        return future


def component(fn: Callable[..., Any], args: tuple[Any, ...]) -> str:
    """A part's kind (from its cache key: ``frame-all-…`` is a frame), else the job's function."""
    for arg in args:
        if isinstance(arg, str) and (key := _KEY.fullmatch(arg)) is not None:
            return key.group(1)
    name = getattr(fn, "__name__", "job")
    return f"{name} {args[0]}" if name == "sphinx_job" else name


def lay_out(definitions: Path, state: Path, runner: Inline) -> float:
    """The action lists and the rulebook of ``definitions`` from the caches in ``state``; processor seconds."""
    out = state / "out"
    start = time.process_time()
    rules = load_rules(definitions)
    source = prose_folder(definitions)
    build_html(rules, out, source=source)
    build_pdfs(rules, out, runner=runner, cache=PartCache(state / "parts"))
    build_rulebook(definitions, out / "book", pdf=True, work_dir=state / "work", source=source, runner=runner,
                   cache=PartCache(state / "parts"), environment="bench-layout")
    return time.process_time() - start


def restore(primed: Path, state: Path) -> None:
    """The primer's state, without the parts every size lays out again."""
    shutil.rmtree(state, ignore_errors=True)
    shutil.copytree(primed / "work", state / "work")
    shutil.copytree(primed / "parts", state / "parts",
                    ignore=lambda _, names: [n for n in names if "-" in n and not n.startswith(KEPT)])


def _load() -> str:
    return "load " + " ".join(f"{x:.1f}" for x in os.getloadavg())


def measure(sizes: list[int], repeat: int) -> dict[tuple[str, int], list[dict[str, float]]]:
    runs: dict[tuple[str, int], list[dict[str, float]]] = defaultdict(list)
    with tempfile.TemporaryDirectory(prefix="bp-bench-layout-") as tmp:
        root = Path(tmp)
        definitions = root / "definitions"
        shutil.copytree(ROOT / "definitions", definitions)
        actions = definitions / "actions.yaml"
        original = actions.read_text(encoding="utf-8")
        if MARKER not in original:
            sys.exit("bench: the flavour text to edit is gone; update scripts/bench_layout.py")

        def write(text: str) -> None:
            actions.write_text(original.replace(MARKER, f"「{text}」"), encoding="utf-8")
        write(PRIMER)
        primed = root / "primed"
        print(f"  priming (the whole layout once; {_load()})", flush=True)
        lay_out(definitions, primed, Inline())
        order = [("", 0)] + [(kind, size) for kind in KINDS for size in sizes]
        for round_ in range(repeat):
            for kind, size in order:
                write(long_text(kind or KINDS[0], size))
                restore(primed, root / "state")
                recorder = Recorder()
                total = lay_out(definitions, root / "state", recorder)
                cpu = dict(recorder.cpu)
                cpu["rest"] = total - sum(cpu.values())
                cpu["all"] = total
                for k in (KINDS if not kind else (kind,)):
                    runs[(k, size)].append(cpu)
                print(f"  round {round_ + 1}: {kind or 'empty':<8} {size:>5} KB {total:7.1f} s ({_load()})", flush=True)
    return runs


def ratio(added: dict[int, float], small: int, large: int) -> float:
    """Added time per KB at ``large`` over that at ``small`` (1: linear)."""
    return (added[large] / large) / max(added[small] / small, 1e-9)


def marginal(value: dict[int, float], a: int, b: int, c: int) -> float:
    """Time per KB from ``b`` to ``c`` over that from ``a`` to ``b`` (1: linear). Free of what the entry costs
    once for being long (a list's frame laid out again around its pieces): it is in all three sizes."""
    return ((value[c] - value[b]) / (c - b)) / max((value[b] - value[a]) / (b - a), 1e-9)


def report(runs: dict[tuple[str, int], list[dict[str, float]]], sizes: list[int]) -> bool:
    """Print each kind's table and ratios; whether every ratio is within the target."""
    ok = True
    pairs = list(zip(sizes, sizes[1:], strict=False))
    triples = list(zip(sizes, sizes[1:], sizes[2:], strict=False))
    for kind in KINDS:
        med = {size: {name: statistics.median(r.get(name, 0.0) for r in runs[(kind, size)])
                      for name in {n for r in runs[(kind, size)] for n in r}} for size in [0, *sizes]}
        names = sorted({n for m in med.values() for n in m} - {"all"}, key=lambda n: -med[sizes[-1]].get(n, 0.0))
        print()
        print(f"{kind}: median processor seconds at each size; the time added per 100 KB; added per KB, larger "
              "size / smaller (- where under 0.1 s is added)")
        head = "".join(f"{s:>7} KB" for s in [0, *sizes]) + "".join(f"{s:>7}" for s in sizes) + "".join(
            f"  {b}/{a}" for a, b in pairs)
        print(f"  {'':<38}{head}")
        for name in [*names, "all"]:
            values = {s: med[s].get(name, 0.0) for s in [0, *sizes]}
            added = {s: values[s] - values[0] for s in sizes}
            line = "".join(f"{values[s]:10.2f}" for s in [0, *sizes]) + "".join(f"{added[s] / s * 100:7.2f}" for s in sizes)
            line += "".join(f"  {ratio(added, a, b):{len(f'{b}/{a}')}.2f}" if added[a] >= 0.1 else
                            f"  {'-':>{len(f'{b}/{a}')}}" for a, b in pairs)
            print(f"  {NAMES.get(name, name) if name != 'all' else 'all':<38}{line}")
        total = {s: med[s]["all"] for s in [0, *sizes]}
        added = {s: total[s] - total[0] for s in sizes}
        figures = [(f"added per KB, {b} KB / {a} KB", ratio(added, a, b)) for a, b in pairs]
        figures += [(f"time per KB from {b} to {c} KB / from {a} to {b} KB", marginal(total, a, b, c)) for a, b, c in triples]
        for what, value in figures:
            ok = ok and value <= 1.5
            print(f"{kind}: {what}: {value:.2f} (linear: about 1; target <= 1.5) {'yes' if value <= 1.5 else 'NO'}")
    return ok


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="100,300,1024", help="flavour text sizes in KB (comma list)")
    parser.add_argument("--repeat", type=int, default=3, help="measurements per size (the median is kept)")
    options = parser.parse_args()
    sizes = sorted(int(n) for n in options.sizes.split(","))
    print(f"long flavour text: the layout work it adds (in process, processor seconds; {_load()})", flush=True)
    ok = report(measure(sizes, options.repeat), sizes)
    print(f"({_load()})")
    if not ok:
        print("bench_layout: a ratio is above its target (the lines marked NO)", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
