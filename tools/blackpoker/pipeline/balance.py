"""Running a balance study: its games on every core (the project's process pool) or on a Dask cluster, with a
progress bar on a terminal, then the report.

The games are cut into small chunks; chunks finish in any order but their results are put back in game order,
so the report is the same whatever ran them (one worker, many, or a cluster).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from concurrent.futures import Future, as_completed
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from blackpoker.core.model import Rules
from blackpoker.pipeline.fsutil import write_atomic
from blackpoker.pipeline.jobs import process_pool, stop_pool
from blackpoker.sim.balance.stats import summarize
from blackpoker.sim.balance.study import GameSpec, chunks, play_chunk, play_games, same_rules
from blackpoker.sim.match import GameSummary

CHUNK = 4  # games per job: small enough for a smooth progress bar and balanced workers
CONNECT_TIMEOUT = 5  # seconds to reach a Dask scheduler; one that runs answers at once (Dask's own default: 30)


class ClusterError(Exception):
    """The Dask cluster cannot run the study (an environment problem); the message is one line for the user."""


@contextmanager
def _progress(total: int, enabled: bool) -> Iterator[Callable[[int], None]]:
    """A rich progress bar on stderr when it is a terminal; otherwise nothing is drawn."""
    if not enabled:
        yield lambda n: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
    with Progress(TextColumn("games"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=Console(stderr=True)) as bar:
        task = bar.add_task("games", total=total)
        yield lambda n: bar.advance(task, n)


def run_local(definitions: str, specs: list[GameSpec], workers: int, progress: bool | None = None) -> list[GameSummary]:
    """The games on ``workers`` processes (1: in this process)."""
    show = sys.stderr.isatty() if progress is None else progress
    parts = chunks(specs, CHUNK)
    done: dict[int, list[GameSummary]] = {}
    with _progress(len(specs), show) as advance:
        if workers <= 1:
            for i, part in enumerate(parts):
                done[i] = play_chunk(definitions, part)
                advance(len(part))
        else:
            pool = process_pool(workers)
            try:
                futures: dict[Future[list[GameSummary]], int] = {
                    pool.submit(play_chunk, definitions, part): i for i, part in enumerate(parts)}
                for future in as_completed(futures):
                    done[futures[future]] = future.result()
                    advance(len(done[futures[future]]))
            finally:
                stop_pool(pool, now=False)
    return [g for i in range(len(parts)) for g in done[i]]


def scheduler_address_problem(address: str) -> str | None:
    """Why Dask could never connect to ``address`` (None for a scheduler address): a typo is bad input, refused
    before any game is played, not a connection failure. ImportError without Dask."""
    from distributed.comm import registry
    from distributed.comm.addressing import parse_address, parse_host_port
    try:
        scheme, location = parse_address(address)
        registry.get_backend(scheme)
        if scheme == "inproc":  # a cluster inside this process (LocalCluster(processes=False)): no host or port
            return None
        _, port = parse_host_port(location)
    except ValueError as exc:
        return str(exc)
    return None if 0 < port < 65536 else f"port {port} is out of range"


def run_dask(rules: Rules, specs: list[GameSpec], scheduler: str, progress: bool | None = None
             ) -> list[GameSummary]:
    """The games on the Dask cluster whose scheduler is at ``scheduler``. The rules are sent to the workers, so
    they need this blackpoker importable but not the definitions folder. ClusterError when the scheduler does
    not answer within CONNECT_TIMEOUT."""
    from distributed import as_completed as dask_completed
    show = sys.stderr.isatty() if progress is None else progress
    parts = chunks(specs, CHUNK)
    done: dict[int, list[GameSummary]] = {}
    with _connect(scheduler) as client, _progress(len(specs), show) as advance:
        shared = client.submit(same_rules, rules, pure=False)
        futures = [client.submit(play_games, shared, part, pure=False) for part in parts]
        index = {f.key: i for i, f in enumerate(futures)}
        for future in dask_completed(futures):  # type: ignore[no-untyped-call]
            done[index[future.key]] = future.result()
            advance(len(done[index[future.key]]))
    return [g for i in range(len(parts)) for g in done[i]]


def _connect(scheduler: str) -> Any:
    """A client of the scheduler, or ClusterError after CONNECT_TIMEOUT (Dask retries until then whatever the
    reason: refused, no route, no such host)."""
    from distributed import Client
    try:
        return Client(scheduler, timeout=CONNECT_TIMEOUT)  # type: ignore[no-untyped-call]
    except OSError as exc:
        raise ClusterError(f"cannot reach the Dask scheduler at {scheduler} "
                           f"(no answer within {CONNECT_TIMEOUT} s)") from exc


def write_study(out: Path, rules: Rules, games: list[GameSummary], meta: dict[str, Any]) -> dict[str, Any]:
    """Sum the games up and write report.html, study.json, games.csv and actions.csv into ``out``."""
    from blackpoker.render.balance import report_files
    summary = summarize(rules, games)
    for name, text in report_files(summary, games, meta).items():
        write_atomic(out / name, text)
    return summary
