"""``blackpoker sim run`` (scenarios) and ``blackpoker sim play`` (self-play)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from blackpoker.core.errors import DefinitionErrors

if TYPE_CHECKING:
    from blackpoker.core.model import Rules

EXIT_FAILED = 1
EXIT_MALFORMED = 2


@click.group()
def sim() -> None:
    """Run scenarios and self-play with the simulator."""


def _rules() -> Rules:
    from blackpoker.cli.common import load
    return load(None)


@sim.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@click.option("-q", "--quiet", is_flag=True, help="Print only the PASS/FAIL summary line of each scenario.")
def run(files: tuple[Path, ...], quiet: bool) -> None:
    """Run scenario files (or directories of them); exit 1 on a failed expectation, 2 on a malformed file."""
    from blackpoker.sim.scenario import load_scenario, run_scenario
    rules = _rules()
    paths = [q for p in files for q in (sorted(p.rglob("*.yaml")) if p.is_dir() else [p])]
    malformed = failed = 0
    for path in paths:
        try:
            scenario = load_scenario(path, rules, str(path))
        except DefinitionErrors as exc:
            for error in exc.errors:
                click.echo(str(error), err=True)
            malformed += 1
            continue
        try:
            result = run_scenario(rules, scenario)
        except DefinitionErrors as exc:  # a reference that does not resolve at its step
            for error in exc.errors:
                click.echo(str(error), err=True)
            malformed += 1
            continue
        if not quiet:
            click.echo("\n".join(result.transcript))
        status = "PASS" if result.passed else "FAIL"
        n_ok = sum(e.passed for e in result.expectations)
        click.echo(f"{status} {path} ({n_ok}/{len(result.expectations)})")
        failed += not result.passed
    click.echo(f"{len(paths)} scenarios: {len(paths) - failed - malformed} passed, {failed} failed, "
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
              type=click.Choice(["lite", "std", "pro", "mast", "all"]), help="Format ('all': every format).")
@click.option("--frame", "frame_id", default=None,
              type=click.Choice(["none", "entry20", "pack", "rarepack", "strategy", "extra", "all"]),
              help="Frame (default none: the common rules' setup; 'all': every frame Table 3.1 allows).")
def play(games: int, seed: int, format_id: str, frame_id: str | None) -> None:
    """Play random legal games to the end, checking invariants after every step; exit 1 on any failure.

    A format + frame pair that Table 3.1 does not allow is refused (exit 2)."""
    from blackpoker.sim.frames import SetupError, check_regulation
    from blackpoker.sim.selfplay import self_play
    rules = _rules()
    formats = [f.id for f in rules.formats] if format_id == "all" else [format_id]
    pairs: list[tuple[str, str | None]] = []
    for fmt in formats:
        if frame_id == "all":
            pairs += [(fmt, f.id) for f in rules.frames_for_format(fmt)]
        else:
            pairs.append((fmt, None if frame_id in (None, "none") else frame_id))
    for fmt, frame in pairs:
        try:
            check_regulation(rules, fmt, frame)
        except SetupError as exc:
            click.echo(f"error: {exc.rule}", err=True)
            sys.exit(EXIT_MALFORMED)
    failed = False
    for fmt, frame in pairs:
        stats = self_play(rules, fmt, games, seed, frame)
        name = rules.format(fmt).name + (f" + {rules.frame(frame).name}" if frame else "")
        seconds = stats.seconds or 1e-9
        click.echo(f"{name}: games: {stats.games}  requests: {stats.requests}  decisions: {stats.decisions}  "
                   f"turns: {stats.turns}  winners: A {stats.winners['A']} / B {stats.winners['B']}  "
                   f"({stats.games / seconds:.1f} games/s, {stats.decisions / seconds:.0f} decisions/s, "
                   f"{stats.seconds:.2f} s)")
        if frame and rules.frame(frame).actions:
            frame_actions = [rules.action(a).name for a in rules.frame(frame).actions]
            click.echo("  frame actions resolved: " + ", ".join(f"{n} {stats.resolved[n]}" for n in frame_actions))
        for failure in stats.failures:
            click.echo(f"FAIL {name}: {failure}", err=True)
        failed |= bool(stats.failures)
    if failed:
        sys.exit(EXIT_FAILED)
