"""The ``blackpoker`` command line: check, export, build, sim."""

from __future__ import annotations

import os
import signal
import sys
import traceback
from functools import partial
from pathlib import Path
from typing import NoReturn

import click

from blackpoker.cli.common import (
    EXIT_DATA_ERROR,
    EXIT_ENVIRONMENT,
    EXIT_INTERNAL,
    definitions_argument,
    definitions_folder,
    definitions_option,
    echo,
    load,
    one_folder,
    report_definition_errors,
)
from blackpoker.cli.diff import diff
from blackpoker.cli.init import init
from blackpoker.cli.official import import_
from blackpoker.cli.sim import sim
from blackpoker.core.errors import DefinitionErrors


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="blackpoker")
def cli() -> None:
    """BlackPoker rules toolkit: definitions → rulebook, action lists and simulator."""


@cli.command()
@definitions_argument
@definitions_option
def check(directory: Path | None, definitions: Path | None) -> None:
    """Validate the definitions (schema, semantic checks, simulator coverage) and play the guided tutorial's
    lessons with them, as the build does. Exit 2 on any problem."""
    from blackpoker.core import paths
    from blackpoker.core.summary import summary
    from blackpoker.sim.scenario.lesson import load_lessons
    rules = load(one_folder(directory, definitions), simulator=True)
    try:
        lessons = load_lessons(rules, paths.TUTORIAL)  # read here, so that a test may point it elsewhere
    except DefinitionErrors as exc:
        report_definition_errors(exc)
    echo(f"{summary(rules)} | tutorial: {len(lessons)} lessons played")


@cli.command()
@definitions_argument
@definitions_option
@click.option("-o", "--output", type=click.Path(path_type=Path),
              help="Write to this file instead of standard output (with --format official: the folder to write).")
@click.option("--format", "form", type=click.Choice(["json", "official"]), default="json", show_default=True,
              help="json: the whole ruleset as one JSON document; official: act.yaml, act-frame.yaml, frame.yaml and "
                   "version.json in the official layout.")
def export(directory: Path | None, definitions: Path | None, output: Path | None, form: str) -> None:
    """Print the whole validated ruleset as one JSON document, or write it in the official layout."""
    directory = one_folder(directory, definitions)
    if form == "official":
        from blackpoker.cli.official import export_official_folder
        if output is None:
            raise click.UsageError("--format official writes a folder: give it with -o DIR")
        export_official_folder(directory, output)
        return
    from blackpoker.core.export import export_json
    from blackpoker.infra.fsutil import write_atomic
    text = export_json(load(directory))
    if output is not None and (output.is_symlink() or (output.exists() and not output.is_file())):
        echo(f"{output}: is not a regular file (a link, a device or a folder); refusing to replace it", err=True)
        sys.exit(EXIT_DATA_ERROR)
    if output is None:
        echo(text, nl=False)
    else:
        write_atomic(output, text)
        echo(f"wrote {output}", err=True)


@cli.command()
@definitions_option
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("build/site"),
              show_default=True, help="The output folder; replaced only when the whole build succeeds.")
@click.option("--edition", "editions", type=click.Path(file_okay=False, path_type=Path), multiple=True,
              help="Another edition to publish beside the definitions, in a folder of its own (repeatable; "
                   "default: every definitions folder in editions/ beside the definitions).")
@click.option("--no-editions", is_flag=True, help="Publish the definitions' edition only.")
def build(definitions: Path | None, out: Path, editions: tuple[Path, ...], no_editions: bool) -> None:
    """Build everything: rulebook, action lists, PDFs and the JSON export, and the other editions' lists."""
    from blackpoker.pipeline.build import BuildError, OutputRefused
    from blackpoker.pipeline.build import build as run_build
    from blackpoker.pipeline.pyodide import RuntimeMissing
    chosen = [] if no_editions else list(editions) or None
    try:
        report = run_build(definitions_folder(definitions), out, progress=lambda line: echo(line, err=True),
                           editions=chosen)
    except DefinitionErrors as exc:
        report_definition_errors(exc)
    except RuntimeMissing as exc:
        echo(f"error: {exc}", err=True)
        sys.exit(EXIT_ENVIRONMENT)
    except OutputRefused as exc:
        echo(str(exc), err=True)
        sys.exit(EXIT_DATA_ERROR)
    except BuildError as exc:
        echo(str(exc), err=True)
        sys.exit(1)
    echo(f"built {out}: {report.files} files in {report.seconds:.1f} s")


@cli.command()
@definitions_option
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("build/site"),
              show_default=True, help="The output folder.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="The local port (127.0.0.1 only; 0: any free one).")
def serve(definitions: Path | None, out: Path, port: int) -> None:
    """Preview locally: rebuild when definitions, templates or source change, and reload the open pages."""
    from blackpoker.pipeline.build import OutputRefused, check_output
    from blackpoker.pipeline.serve import build_in_child
    from blackpoker.pipeline.serve import serve as run_serve
    defs = definitions_folder(definitions)
    try:
        check_output(out, defs)
    except OutputRefused as exc:
        echo(str(exc), err=True)
        sys.exit(EXIT_DATA_ERROR)
    say = partial(echo, err=True)
    run_serve(defs, out, port=port, rebuild=build_in_child(defs, out, say), echo=say)


@cli.command("fetch-pyodide")
@click.option("--check", is_flag=True, help="Only say whether it is fetched (exit 1 when not).")
def fetch_pyodide(check: bool) -> None:
    """Fetch the play page's Pyodide runtime once (npm pack, checked against the locked hash) into the cache."""
    from blackpoker.pipeline.pyodide import RUNTIME_VARIABLE, FetchFailed, current, fetch, runtime
    rt = runtime()
    if current(rt):
        echo(f"Pyodide {rt.version} is at {rt.folder}")
        return
    if check or os.environ.get(RUNTIME_VARIABLE):  # the user's own folder is never fetched over
        echo(f"error: the play page's Pyodide {rt.version} is not in {rt.folder}: run `blackpoker fetch-pyodide`"
             + (f" without {RUNTIME_VARIABLE}" if os.environ.get(RUNTIME_VARIABLE) else ""), err=True)
        sys.exit(EXIT_ENVIRONMENT)
    try:
        size = fetch(rt)
    except FetchFailed as exc:
        echo(f"error: {exc}", err=True)
        sys.exit(EXIT_ENVIRONMENT)
    echo(f"Pyodide {rt.version} ({size / 1e6:.1f} MB) checked and unpacked to {rt.folder}")


cli.add_command(sim)
cli.add_command(import_)
cli.add_command(diff)
cli.add_command(init)

# The libraries of the `site` extra, by import name: only the commands that render (build, serve, sim balance)
# import them, so an install without the extra runs everything else.
SITE_LIBRARIES = frozenset({"docutils", "filelock", "furo", "jinja2", "markupsafe", "matplotlib", "myst_parser",
                            "pypdf", "rich", "segno", "sphinx", "weasyprint"})


class Stopped(BaseException):
    """Ctrl+C or SIGTERM, raised where the main thread is, so the build's clean-up runs (staging folders
    removed, workers stopped); not KeyboardInterrupt, which click would turn into "Aborted!" and exit 1."""

    def __init__(self, signum: int) -> None:
        self.signum = signum


def _stop(signum: int, _frame: object) -> None:
    raise Stopped(signum)


def main() -> None:
    """Entry point: no traceback for the user; set BLACKPOKER_DEBUG=1 to see one. Ctrl+C and SIGTERM clean up
    and exit 130 and 143."""
    signal.signal(signal.SIGINT, _stop)
    signal.signal(signal.SIGTERM, _stop)
    if os.environ.get("BLACKPOKER_PARENT") == str(os.getppid()):  # a build the preview runs ends with the preview
        from blackpoker.infra.jobs import die_with_parent
        die_with_parent(os.getppid())
    try:
        cli.main(standalone_mode=True)
    except SystemExit:
        raise
    except (Stopped, KeyboardInterrupt) as exc:
        signum = exc.signum if isinstance(exc, Stopped) else signal.SIGINT
        echo("interrupted" if signum == signal.SIGINT else "terminated", err=True)
        sys.exit(128 + signum)
    except ModuleNotFoundError as exc:
        if (exc.name or "").partition(".")[0] not in SITE_LIBRARIES:
            _internal_error(exc)
        echo(f"this command renders and needs the toolkit's site libraries ({exc.name} is not installed): "
                   "pip install 'blackpoker[site]'", err=True)
        sys.exit(EXIT_ENVIRONMENT)
    except OSError as exc:  # the environment, not the toolkit: a folder not writable, a full disk, a busy port
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - a full or closed stdout must not fail again at exit
        where = f"{exc.filename}: " if exc.filename else ""
        echo(f"{where}{exc.strerror or exc}", err=True)
        sys.exit(EXIT_ENVIRONMENT)
    except Exception as exc:  # a bug of ours, not the user's: say so plainly
        _internal_error(exc)


def _internal_error(exc: Exception) -> NoReturn:
    if os.environ.get("BLACKPOKER_DEBUG"):
        traceback.print_exception(exc)
    echo(f"internal error: {type(exc).__name__}: {exc}\n"
               "This is a bug in the toolkit; run with BLACKPOKER_DEBUG=1 for details.", err=True)
    sys.exit(EXIT_INTERNAL)
