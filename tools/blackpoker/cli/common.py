"""What every ``blackpoker`` command shares: the definitions folder, loading, exit codes."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import click

from blackpoker.core.errors import DefinitionErrors, DefinitionWarning
from blackpoker.core.paths import DEFINITIONS

if TYPE_CHECKING:
    from blackpoker.core.model import Rules

EXIT_ENVIRONMENT = 1  # permissions, a full disk, a busy port: one line with the path
EXIT_DATA_ERROR = 2
EXIT_INTERNAL = 70

definitions_argument = click.argument(
    "directory", required=False, type=click.Path(file_okay=False, path_type=Path), default=None)


def definitions_folder(directory: Path | None) -> Path:
    if directory is not None:
        return directory
    local = Path("definitions")
    return local if local.is_dir() else DEFINITIONS


def report_definition_errors(exc: DefinitionErrors) -> NoReturn:
    """Print every problem as file:line:col and exit 2."""
    for error in exc.errors:
        click.echo(str(error), err=True)
    n = len(exc.errors)
    click.echo(f"{n} problem{'s' if n != 1 else ''} found in the definitions.", err=True)
    sys.exit(EXIT_DATA_ERROR)


def load(directory: Path | None, *, simulator: bool = False) -> Rules:
    """Load and check the definitions; with ``simulator``, also that the simulator covers them: every gap an
    error, or, for an edition with ``simulated: false``, a located warning printed here."""
    from blackpoker.core.loader import check_rules
    extra: tuple[Callable[[Rules], Any], ...] = ()
    warn: tuple[Callable[[Rules], Any], ...] = ()
    if simulator:
        from blackpoker.sim.gaps import coverage_problems, coverage_warnings
        extra, warn = (coverage_problems,), (coverage_warnings,)
    try:
        checked = check_rules(definitions_folder(directory), extra_checks=extra, warning_checks=warn)
    except DefinitionErrors as exc:
        report_definition_errors(exc)
    report_warnings(checked.warnings)
    return checked.rules


def report_warnings(warnings: Sequence[DefinitionWarning]) -> None:
    """Print every warning as file:line:col: warning: …, then how many and why they are not errors."""
    for warning in warnings:
        click.echo(str(warning), err=True)
    if warnings:
        n = len(warnings)
        click.echo(f"{n} warning{'s' if n != 1 else ''}: the edition declares 'simulated: false', so what the "
                   "simulator does not cover is published but not verified.", err=True)
