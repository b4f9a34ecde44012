"""``blackpoker sim run`` (scenarios) and ``blackpoker sim play`` (self-play)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from blackpoker.cli.common import definitions_option, echo
from blackpoker.core.errors import DefinitionErrors

if TYPE_CHECKING:
    from blackpoker.core.model import Rules
    from blackpoker.core.yamlsource import SourceFile
    from blackpoker.sim.decisions import Decision
    from blackpoker.sim.record import GameRecord
    from blackpoker.sim.replay import Replay
    from blackpoker.sim.selfplay import PlayStats

EXIT_FAILED = 1
EXIT_MALFORMED = 2


@click.group()
def sim() -> None:
    """Run scenarios and self-play with the simulator."""


def _rules(definitions: Path | None) -> Rules:
    """The rules the simulator plays, with what it cannot play in them named once (an edition that is not
    simulated): never offered, so never a crash."""
    from blackpoker.cli.common import load
    from blackpoker.sim.playable import unplayable_summary
    rules = load(definitions, quiet_warnings=True)
    for line in unplayable_summary(rules):
        echo(f"note: {line}", err=True)
    return rules


@sim.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@definitions_option
@click.option("-q", "--quiet", is_flag=True, help="Print only the PASS/FAIL summary line of each scenario.")
def run(files: tuple[Path, ...], definitions: Path | None, quiet: bool) -> None:
    """Run scenario files (or directories of them); exit 1 on a failed expectation, 2 on a malformed file."""
    from blackpoker.sim.scenario import load_scenario, run_scenario
    rules = _rules(definitions)
    paths = [q for p in files for q in (sorted(p.rglob("*.yaml")) if p.is_dir() else [p])]
    malformed = failed = 0
    for path in paths:
        try:
            scenario = load_scenario(path, rules, str(path))
        except DefinitionErrors as exc:
            for error in exc.errors:
                echo(str(error), err=True)
            malformed += 1
            continue
        try:
            result = run_scenario(rules, scenario)
        except DefinitionErrors as exc:  # a reference that does not resolve at its step
            for error in exc.errors:
                echo(str(error), err=True)
            malformed += 1
            continue
        if not quiet:
            echo("\n".join(result.transcript))
        status = "PASS" if result.passed else "FAIL"
        n_ok = sum(e.passed for e in result.expectations)
        echo(f"{status} {path} ({n_ok}/{len(result.expectations)})")
        failed += not result.passed
    echo(f"{len(paths)} scenarios: {len(paths) - failed - malformed} passed, {failed} failed, "
               f"{malformed} malformed")
    if malformed:
        sys.exit(EXIT_MALFORMED)
    if failed:
        sys.exit(EXIT_FAILED)


@sim.command()
@click.option("--games", default=100, show_default=True, type=click.IntRange(min=1),
              help="Number of games (per regulation).")
@click.option("--seed", default=0, show_default=True, help="Seed of the first game (then seed+1, …).")
@click.option("--format", "format_id", default="mast", show_default=True,
              help="Format, one of the rules' formats ('all': every format).")
@click.option("--frame", "frame_id", default=None,
              help="Frame, one of the rules' frames (default none: the common rules' setup; 'all': every frame "
                   "Table 3.1 allows that the simulator can set up).")
@definitions_option
@click.option("--save", "save_dir", default=None, type=click.Path(file_okay=False, path_type=Path),
              help="Keep the game records (JSON, for `sim replay`) of the games that ended unusually: broke an "
                   "invariant, had no winner after the turn cap (300 turns), made the engine raise, or were decided "
                   "within the first two turns.")
def play(games: int, seed: int, format_id: str, frame_id: str | None, definitions: Path | None,
         save_dir: Path | None) -> None:
    """Play random legal games to the end, checking invariants after every step; exit 1 on any failure.

    A format or frame the rules do not have, a format + frame pair that Table 3.1 does not allow, and a frame
    the simulator cannot set up are refused (exit 2)."""
    from blackpoker.sim.frames import SetupError, check_regulation
    from blackpoker.sim.playable import action_playable, frame_playable
    from blackpoker.sim.selfplay import self_play
    rules = _rules(definitions)
    format_ids = [f.id for f in rules.formats]
    frame_ids = [f.id for f in rules.frames]
    if format_id not in (*format_ids, "all"):
        echo(f"error: --format: '{format_id}' is not a format of {rules.edition.version}; expected one of "
                   + ", ".join((*format_ids, "all")), err=True)
        sys.exit(EXIT_MALFORMED)
    if frame_id not in (None, "none", "all", *frame_ids):
        echo(f"error: --frame: '{frame_id}' is not a frame of {rules.edition.version}; expected one of "
                   + ", ".join(("none", *frame_ids, "all")), err=True)
        sys.exit(EXIT_MALFORMED)
    if frame_id not in (None, "none", "all") and not frame_playable(rules, frame_id):
        echo(f"error: --frame: the simulator cannot set up the frame '{frame_id}' "
                   f"({rules.frame(frame_id).name}) of {rules.edition.version}", err=True)
        sys.exit(EXIT_MALFORMED)
    formats = format_ids if format_id == "all" else [format_id]
    pairs: list[tuple[str, str | None]] = []
    for fmt in formats:
        if frame_id == "all":
            pairs += [(fmt, f.id) for f in rules.frames_for_format(fmt) if frame_playable(rules, f.id)]
        else:
            pairs.append((fmt, None if frame_id in (None, "none") else frame_id))
    for fmt, frame in pairs:
        try:
            check_regulation(rules, fmt, frame)
        except SetupError as exc:
            echo(f"error: {exc.rule}", err=True)
            sys.exit(EXIT_MALFORMED)
    failed = False
    for fmt, frame in pairs:
        if save_dir is not None:
            stats = _play_and_save(rules, fmt, frame, games, seed, save_dir)
        else:
            stats = self_play(rules, fmt, games, seed, frame)
        name = rules.format(fmt).name + (f" + {rules.frame(frame).name}" if frame else "")
        seconds = stats.seconds or 1e-9
        echo(f"{name}: games: {stats.games}  requests: {stats.requests}  decisions: {stats.decisions}  "
                   f"turns: {stats.turns}  winners: A {stats.winners['A']} / B {stats.winners['B']}  "
                   f"({stats.games / seconds:.1f} games/s, {stats.decisions / seconds:.0f} decisions/s, "
                   f"{stats.seconds:.2f} s)")
        if frame and rules.frame(frame).actions:
            frame_actions = [rules.action(a).name for a in rules.frame(frame).actions if action_playable(rules, a)]
            echo("  frame actions resolved: " + ", ".join(f"{n} {stats.resolved[n]}" for n in frame_actions))
        for failure in stats.failures:
            echo(f"FAIL {name}: {failure}", err=True)
        failed |= bool(stats.failures)
    if failed:
        sys.exit(EXIT_FAILED)


def _play_and_save(rules: Rules, fmt: str, frame: str | None, games: int, seed: int, save_dir: Path) -> PlayStats:
    """Self-play as ``self_play`` does, keeping the record of every game that ended unusually (see --save)."""
    import random
    import time

    from blackpoker.infra.fsutil import write_atomic
    from blackpoker.sim.record import GameEnd, GameRecord, dumps
    from blackpoker.sim.selfplay import PlayStats, play_game, random_setup
    stats = PlayStats()
    start = time.perf_counter()
    for game_seed in range(seed, seed + games):
        made: list[tuple[int, Decision]] = []
        before = len(stats.failures)
        error = None
        try:
            state = play_game(rules, fmt, game_seed, stats, frame, decisions=made)
            winner, turns = state.winner, state.turn
        except Exception as exc:  # an engine bug: keep the game that shows it
            error = f"{type(exc).__name__}: {exc}"
            stats.failures.append(f"seed {game_seed}: the engine raised {error}")
            winner, turns = None, 1
        problems = tuple(stats.failures[before:])
        if error is not None:
            end = "error"
        elif problems and winner is None and any("turns" in p for p in problems):
            end = "turn-cap"
        elif problems:
            end = "invariant"
        elif turns <= 2:
            end = "win"
        else:
            continue
        decks, choices = random_setup(rules, fmt, frame, random.Random(game_seed))
        record = GameRecord(fmt, frame, game_seed, decks, choices, tuple(made), rules.edition.version,
                            ("random", "random"), GameEnd(end, winner, turns, problems))
        path = save_dir / f"{fmt}{'-' + frame if frame else ''}-seed{game_seed}.json"
        try:
            write_atomic(path, dumps(record))
        except OSError as exc:
            echo(f"error: cannot write {path}: {exc.strerror or exc}", err=True)
            sys.exit(EXIT_FAILED)
        echo(f"saved {path} ({end})")
    stats.seconds = time.perf_counter() - start
    return stats


@sim.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--to-scenario", "scenario_out", default=None, type=click.Path(dir_okay=False, path_type=Path),
              help="Also write the game as a scenario file (checked to pass `sim run` before it is written).")
@click.option("-q", "--quiet", is_flag=True, help="Do not print the play-by-play.")
@definitions_option
def replay(file: Path, scenario_out: Path | None, quiet: bool, definitions: Path | None) -> None:
    """Replay a game record (e.g. from `sim play --save`) and print its Japanese play-by-play.

    Exit 2 for a malformed record or one whose decisions the game refuses (file:line:col), 1 when the end
    differs from the record's result."""
    from blackpoker.sim.recordfile import load_record
    from blackpoker.sim.replay import ReplayError
    from blackpoker.sim.replay import replay as replay_record
    rules = _rules(definitions)
    try:
        record, src = load_record(file, rules)
    except DefinitionErrors as exc:
        for error in exc.errors:
            echo(str(error), err=True)
        sys.exit(EXIT_MALFORMED)
    try:
        played = replay_record(rules, record)
    except ReplayError as exc:
        where = ("decisions", exc.index) if exc.index is not None else ("decks",)
        echo(str(src.error(where, exc.message)), err=True)
        sys.exit(EXIT_MALFORMED)
    if not quiet:
        echo("\n".join(played.transcript))
    end = played.state
    winner = "なし" if end.winner is None else "AB"[end.winner]
    echo(f"{len(record.players)} decisions replayed: turn {end.turn}, winner {winner}")
    if record.result is not None and (record.result.winner, record.result.turns) != (end.winner, end.turn):
        echo(f"FAIL the record says winner {record.result.winner}, turn {record.result.turns}", err=True)
        sys.exit(EXIT_FAILED)
    if scenario_out is not None:
        _write_scenario(rules, record, played, file, scenario_out, src)


def _write_scenario(rules: Rules, record: GameRecord, played: Replay, file: Path, out: Path, src: SourceFile) -> None:
    import tempfile

    from blackpoker.infra.fsutil import write_atomic
    from blackpoker.sim.replay import ReplayError, to_scenario
    from blackpoker.sim.scenario import load_scenario, run_scenario
    try:
        text = to_scenario(rules, record, played, f"対戦記録 {file.stem} の再現(シード {record.seed})")
    except ReplayError as exc:
        echo(str(src.error(("decisions", exc.index or 0), exc.message)), err=True)
        sys.exit(EXIT_MALFORMED)
    with tempfile.TemporaryDirectory() as tmp:  # check it before writing: never a scenario that does not pass
        probe = Path(tmp) / out.name
        probe.write_text(text, encoding="utf-8")
        result = run_scenario(rules, load_scenario(probe, rules, str(out)))
    if not result.passed:
        failed = [e.line() for e in result.expectations if not e.passed]
        echo(f"internal error: the scenario does not replay the record: {'; '.join(failed)}", err=True)
        sys.exit(70)
    try:
        write_atomic(out, text)
    except OSError as exc:
        echo(f"error: cannot write {out}: {exc.strerror or exc}", err=True)
        sys.exit(EXIT_FAILED)
    echo(f"wrote {out}")


@sim.command()
@click.option("--regulation", "regulations", multiple=True, default=("mast+extra",), show_default=True,
              help="format[+frame], e.g. lite or mast+extra; repeat for several.")
@click.option("--policies", default="ismcts,greedy", show_default=True,
              help="Two policies, comma-separated: random, greedy, ismcts (ismcts:N simulations per decision, "
                   "reproducible; ismcts:Nms milliseconds per decision, which depends on the machine's speed; "
                   "ismcts:N/Mms at most N, none started after M ms).")
@click.option("--games", default=100, show_default=True, type=click.IntRange(min=1), help="Games per regulation.")
@click.option("--seed", default=0, show_default=True, help="Seed of the first game (then seed+1, …).")
@click.option("--out", "out_dir", default=Path("build/balance"), show_default=True,
              type=click.Path(file_okay=False, path_type=Path), help="Where report.html and the data go.")
@click.option("--workers", default=None, type=click.IntRange(min=1),
              help="Worker processes (default: one per core, or BLACKPOKER_WORKERS).")
@click.option("--scheduler", default=None, help="Run the games on the Dask cluster at this scheduler address "
                                                 "(e.g. tcp://10.0.0.5:8786) instead of local processes.")
@click.option("--connect-timeout", default=None, type=click.FloatRange(min=0, min_open=True),
              help="Seconds to wait for the Dask scheduler to answer, twice that for one that accepts the connection "
                   "and says nothing (default: 5, CONNECT_TIMEOUT in pipeline/balance.py).")
@definitions_option
def balance(regulations: tuple[str, ...], policies: str, games: int, seed: int, out_dir: Path, workers: int | None,
            scheduler: str | None, connect_timeout: float | None, definitions: Path | None) -> None:
    """Play a balance study between two policies and write report.html (Japanese, with SVG plots), study.json,
    games.csv and actions.csv. The same seeds give the same report on any number of workers or a cluster."""
    from blackpoker.cli.common import definitions_folder
    from blackpoker.infra.jobs import default_workers
    from blackpoker.pipeline.balance import ClusterError, run_dask, run_local, write_study
    from blackpoker.sim.balance.study import regulation_ids, study_games
    from blackpoker.sim.frames import SetupError, check_regulation
    from blackpoker.sim.policies import parse_policy
    definitions = definitions_folder(definitions)  # once: the workers load the same folder
    rules = _rules(definitions)
    pair = tuple(p.strip() for p in policies.split(","))
    try:
        if len(pair) != 2:
            raise ValueError(f"'{policies}' is not two policies; expected e.g. ismcts,greedy")
        for p in pair:
            parse_policy(p)
    except ValueError as exc:
        echo(f"error: --policies: {exc}", err=True)
        sys.exit(EXIT_MALFORMED)
    regs = [regulation_ids(r) for r in regulations]
    for fmt, frame in regs:
        try:
            rules.format(fmt)
            check_regulation(rules, fmt, frame)
        except KeyError:
            echo(f"error: --regulation: '{fmt}' is not a format; expected one of "
                       + ", ".join(f.id for f in rules.formats), err=True)
            sys.exit(EXIT_MALFORMED)
        except SetupError as exc:
            echo(f"error: --regulation: {exc.rule}", err=True)
            sys.exit(EXIT_MALFORMED)
    if scheduler is not None:
        _check_scheduler(scheduler)
    specs = study_games(regs, (pair[0], pair[1]), games, seed)
    if scheduler is not None:
        try:
            summaries = run_dask(rules, specs, scheduler, note=lambda text: echo(f"note: {text}", err=True),
                                 timeout=connect_timeout)
        except ClusterError as exc:
            echo(f"error: {exc}", err=True)
            sys.exit(EXIT_FAILED)
    else:
        summaries = run_local(str(definitions.resolve()), specs, workers or default_workers())
    meta = {"policies": list(pair), "games_per_regulation": games, "seed": seed,
            "regulations": list(regulations), "ruleset": rules.edition.version}
    try:
        summary = write_study(out_dir, rules, summaries, meta)
    except OSError as exc:
        echo(f"error: cannot write {out_dir}: {exc.strerror or exc}", err=True)
        sys.exit(EXIT_FAILED)
    for r in summary["regulations"]:
        first = r["first_player"]
        pols = "  ".join(f"{p} {v['rate'] * 100:.1f}% [{v['low'] * 100:.1f}, {v['high'] * 100:.1f}]"
                         for p, v in r["policies"].items())
        echo(f"{r['name']}: {r['games']} games, first player {first['rate'] * 100:.1f}% "
                   f"[{first['low'] * 100:.1f}, {first['high'] * 100:.1f}]  {pols}")
    echo(f"wrote {out_dir / 'report.html'}")


def _check_scheduler(address: str) -> None:
    """Refuse an address Dask could never connect to (exit 2, before any game), or exit 1 without Dask."""
    from blackpoker.pipeline.balance import scheduler_address_problem
    try:
        problem = scheduler_address_problem(address)
    except ImportError:
        echo("error: --scheduler needs Dask: pip install 'blackpoker[cluster]'", err=True)
        sys.exit(EXIT_FAILED)
    if problem is not None:
        echo(f"error: --scheduler: '{address}' is not a Dask scheduler address ({problem}); expected e.g. "
                   "tcp://10.0.0.5:8786", err=True)
        sys.exit(EXIT_MALFORMED)
