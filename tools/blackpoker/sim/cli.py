"""``blackpoker sim run`` (scenarios) and ``blackpoker sim play`` (self-play)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from blackpoker.errors import DefinitionErrors

EXIT_FAILED = 1
EXIT_MALFORMED = 2


@click.group()
def sim() -> None:
    """Run scenarios and self-play with the simulator."""


def _rules():  # -> Rules
    from blackpoker.cli import load
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
@click.option("--games", default=100, show_default=True, help="Number of games.")
@click.option("--seed", default=0, show_default=True, help="Seed of the first game (then seed+1, …).")
@click.option("--format", "format_id", default="mast", show_default=True,
              type=click.Choice(["lite", "std", "pro", "mast"]), help="Format.")
def play(games: int, seed: int, format_id: str) -> None:
    """Play random legal games to the end, checking invariants after every step; exit 1 on any failure."""
    from blackpoker.sim.selfplay import self_play
    stats = self_play(_rules(), format_id, games, seed)
    rate = stats.games / stats.seconds if stats.seconds else 0.0
    click.echo(f"games: {stats.games}  requests: {stats.requests}  decisions: {stats.decisions}  "
               f"turns: {stats.turns}  winners: A {stats.winners['A']} / B {stats.winners['B']}")
    click.echo(f"{rate:.1f} games/s, {stats.decisions / stats.seconds if stats.seconds else 0:.0f} decisions/s "
               f"({stats.seconds:.2f} s)")
    for failure in stats.failures:
        click.echo(f"FAIL {failure}", err=True)
    if stats.failures:
        sys.exit(EXIT_FAILED)
