"""What every ``blackpoker`` command shares: the definitions folder, loading, exit codes."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import click

from blackpoker.core.errors import DefinitionErrors, DefinitionWarning, printable
from blackpoker.core.paths import DEFINITIONS

if TYPE_CHECKING:
    from blackpoker.core.model import Rules

EXIT_ENVIRONMENT = 1  # permissions, a full disk, a busy port: one line with the path
EXIT_DATA_ERROR = 2
EXIT_INTERNAL = 70

definitions_argument = click.argument(
    "directory", required=False, type=click.Path(file_okay=False, path_type=Path), default=None)
DEFAULT_HELP = "default: definitions/ in the current folder, else the v8.1 definitions the toolkit carries"
definitions_option = click.option(
    "--definitions", "definitions", type=click.Path(file_okay=False, path_type=Path), default=None,
    help=f"The definitions folder: the rules to read ({DEFAULT_HELP}).")


def echo(message: object = "", err: bool = False, nl: bool = True) -> None:
    """``click.echo`` for everything the command line prints: through :func:`printable`, so no text from an input
    (a name, a file name, an exception's message) can reach the terminal as a control sequence."""
    click.echo(printable(str(message), newlines=True), err=err, nl=nl)


def definitions_folder(directory: Path | None, option: str = "--definitions") -> Path:
    """The definitions folder every command reads: the one given, else ``definitions/`` in the current folder,
    else the v8.1 definitions the toolkit carries. One error for all when it is not there (exit 2)."""
    if directory is None:
        local = Path("definitions")
        directory = local if local.is_dir() else DEFINITIONS
        if directory is DEFINITIONS and not local.is_dir():  # said, never silent: the rules read are not here
            click.echo(f"note: no definitions/ here: reading the definitions the toolkit carries ({DEFINITIONS}); "
                       f"give others with {option} DIR", err=True)
    if not directory.is_dir():
        echo(f"{directory}: no such definitions folder; expected a folder of definitions (ruleset.yaml, "
                   f"actions.yaml …): give it with {option} DIR", err=True)
        sys.exit(EXIT_DATA_ERROR)
    return directory


def one_folder(argument: Path | None, option: Path | None) -> Path | None:
    """check and export take the folder as an argument (as before) or as --definitions (as every command)."""
    if argument is not None and option is not None and argument != option:
        raise click.UsageError(f"two definitions folders: {argument} and --definitions {option}; give one")
    return argument or option


def report_definition_errors(exc: DefinitionErrors) -> NoReturn:
    """Print every problem as file:line:col and exit 2."""
    for error in exc.errors:
        echo(str(error), err=True)
    n = len(exc.errors)
    echo(f"{n} problem{'s' if n != 1 else ''} found in the definitions.", err=True)
    sys.exit(EXIT_DATA_ERROR)


def load(directory: Path | None, *, simulator: bool = False, quiet_warnings: bool = False) -> Rules:
    """Load and check the definitions; with ``simulator``, also that the simulator covers them: every gap an
    error, or, for an edition with ``simulated: false``, a located warning printed here (unless
    ``quiet_warnings``: the simulator's commands name what they cannot play in one summary instead)."""
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
    if not quiet_warnings:
        report_warnings(checked.warnings)
    return checked.rules


def report_warnings(warnings: Sequence[DefinitionWarning]) -> None:
    """Print every warning as file:line:col: warning: …, then how many and why they are not errors."""
    for warning in warnings:
        echo(str(warning), err=True)
    if warnings:
        n = len(warnings)
        echo(f"{n} warning{'s' if n != 1 else ''}: the edition declares 'simulated: false', so what the "
                   "simulator does not cover is published but not verified.", err=True)
