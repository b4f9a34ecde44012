"""Running a balance study: its games on every core (the project's process pool) or on a Dask cluster, with a
progress bar on a terminal, then the report.

The games are cut into small chunks; chunks finish in any order but their results are put back in game order,
so the report is the same whatever ran them (one worker, many, or a cluster).
"""

from __future__ import annotations

import logging
import pkgutil
import sys
from collections.abc import Callable, Iterator
from concurrent.futures import Future, as_completed
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from blackpoker.core.model import Rules
from blackpoker.infra.fsutil import write_atomic
from blackpoker.infra.jobs import process_pool, stop_pool
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
        if scheme != "tcp":  # tls needs certificates, inproc a cluster in this process, ucx its own libraries
            return f"the {scheme}:// transport is not supported from the command line; expected tcp://"
        _, port = parse_host_port(location)
    except ValueError as exc:
        return str(exc)
    return None if 0 < port < 65536 else f"port {port} is out of range"


def run_dask(rules: Rules, specs: list[GameSpec], scheduler: str, progress: bool | None = None,
             note: Callable[[str], None] = lambda text: None, timeout: float | None = None) -> list[GameSummary]:
    """The games on the Dask cluster whose scheduler is at ``scheduler``. The rules are sent to the workers, so
    the scheduler and the workers need this blackpoker importable but not the definitions folder. ClusterError
    when the scheduler does not answer within ``timeout`` seconds (None: CONNECT_TIMEOUT) or the cluster cannot run
    the games."""
    show = sys.stderr.isatty() if progress is None else progress
    parts = chunks(specs, CHUNK)
    with _quiet_dask_logs(), _closed_after(_connect(scheduler, CONNECT_TIMEOUT if timeout is None else timeout)) as client:
        _check_imports(client, scheduler)
        if not client.nthreads():
            note(f"the Dask scheduler at {scheduler} has no workers yet; waiting for some to join "
                 f"(dask worker {scheduler})")
        with _progress(len(specs), show) as advance:
            done = _play_on(client, rules, parts, scheduler, advance)
    return [g for i in range(len(parts)) for g in done[i]]


@contextmanager
def _quiet_dask_logs() -> Iterator[None]:
    """No log records while the cluster runs: Dask and tornado log tracebacks on stderr when the scheduler goes
    away, and the user gets our one line instead."""
    before = logging.root.manager.disable
    logging.disable(logging.CRITICAL)
    try:
        yield
    finally:
        logging.disable(before)


@contextmanager
def _closed_after(client: Any) -> Iterator[Any]:
    """The client, closed on leaving. When the study ended with an error, closing may fail too (a client whose
    scheduler went away can raise from inside Dask's reconnection, e.g. "dictionary changed size during
    iteration"): that second error is dropped, so the user still gets the first, as one line."""
    try:
        yield client
    except BaseException:
        with suppress(Exception):
            client.close()
        raise
    client.close()


def _connect(scheduler: str, timeout: float) -> Any:
    """A client of the scheduler, or ClusterError after ``timeout`` seconds (Dask retries until then whatever the
    reason: refused, no route, no such host). The connection is made in a thread of its own and given up at the
    deadline: a port that accepts and never answers would otherwise hold it forever, and one that answers
    something else (a web server) makes Dask fail in any way at all (a 3 EiB allocation)."""
    import threading

    from distributed import Client
    outcome: list[Any] = []

    def connect() -> None:
        try:
            outcome.append(Client(scheduler, timeout=timeout))  # type: ignore[no-untyped-call]  # untyped
        except BaseException as exc:  # noqa: B036 - reported below, in the caller's thread
            outcome.append(exc)

    thread = threading.Thread(target=connect, daemon=True, name="dask-connect")
    thread.start()
    thread.join(timeout * 2)
    if not outcome:
        raise ClusterError(f"the Dask scheduler at {scheduler} accepted the connection but did not answer within "
                           f"{timeout * 2:g} s; is it a Dask scheduler?")
    result = outcome[0]
    if isinstance(result, OSError):
        raise ClusterError(f"cannot reach the Dask scheduler at {scheduler} "
                           f"(no answer within {timeout:g} s)") from result
    if isinstance(result, BaseException):
        if not isinstance(result, Exception):
            raise result
        raise ClusterError(f"{scheduler} did not answer as a Dask scheduler ({type(result).__name__}); "
                           "expected the address a `dask scheduler` prints") from result
    return result


def _check_imports(client: Any, scheduler: str) -> None:
    """The scheduler and every worker must import the games' code: otherwise the scheduler refuses the games
    with a Dask traceback, and a worker that receives one drops out, leaving the run waiting forever."""
    name = f"{play_games.__module__}:{play_games.__qualname__}"
    answers: dict[str, object] = {}
    try:
        answers[f"scheduler at {scheduler}"] = client.run_on_scheduler(pkgutil.resolve_name, name)
    except Exception as exc:  # the scheduler's own exception, e.g. ModuleNotFoundError
        answers[f"scheduler at {scheduler}"] = exc
    for worker, answer in client.run(pkgutil.resolve_name, name, on_error="return").items():
        answers[f"worker {worker}"] = answer
    for who, answer in answers.items():
        if isinstance(answer, Exception):
            raise ClusterError(f"the Dask {who} cannot import {play_games.__module__} ({answer}); start it with "
                               "this repository's tools folder on PYTHONPATH, or with the same blackpoker installed")


def _play_on(client: Any, rules: Rules, parts: list[tuple[GameSpec, ...]], scheduler: str,
             advance: Callable[[int], None]) -> dict[int, list[GameSummary]]:
    """Each chunk's games by its index, as the cluster finishes them."""
    from distributed import as_completed as dask_completed
    shared = client.submit(same_rules, rules, pure=False)
    futures = [client.submit(play_games, shared, part, pure=False) for part in parts]
    index = {f.key: i for i, f in enumerate(futures)}
    done: dict[int, list[GameSummary]] = {}
    for future in dask_completed(futures):  # type: ignore[no-untyped-call]  # distributed is untyped
        try:
            done[index[future.key]] = future.result()
        except BaseException as exc:  # Dask's cancellation is a BaseException, as asyncio's
            _raise_cluster_error(exc, scheduler)
            raise  # a game that raised: the same bug as in a local run; or Ctrl+C
        advance(len(done[index[future.key]]))
    return done


def _raise_cluster_error(exc: BaseException, scheduler: str) -> None:
    """A ClusterError (one line for the user) for what went wrong with the cluster rather than the games."""
    from distributed import KilledWorker
    from distributed.client import FutureCancelledError
    from distributed.comm.core import CommClosedError
    lost = isinstance(exc, CommClosedError) or (
        isinstance(exc, FutureCancelledError) and exc.reason == "scheduler-connection-lost")
    if lost:
        raise ClusterError(f"lost the connection to the Dask scheduler at {scheduler} during the study") from exc
    if isinstance(exc, FutureCancelledError):
        raise ClusterError(f"the Dask scheduler at {scheduler} cancelled the games ({exc.reason})") from exc
    if isinstance(exc, KilledWorker):
        raise ClusterError(f"the Dask workers of {scheduler} kept dying while playing the same games; "
                           "their logs say why") from exc
    if isinstance(exc, RuntimeError) and str(exc).startswith("Error during deserialization of the task graph"):
        raise ClusterError(f"the Dask scheduler at {scheduler} cannot read the games: it runs another version "
                           "of blackpoker or its dependencies than this one") from exc


def write_study(out: Path, rules: Rules, games: list[GameSummary], meta: dict[str, Any]) -> dict[str, Any]:
    """Sum the games up and write report.html, study.json, games.csv and actions.csv into ``out``."""
    from blackpoker.render.balance import report_files
    summary = summarize(rules, games)
    for name, text in report_files(summary, games, meta).items():
        write_atomic(out / name, text)
    return summary
