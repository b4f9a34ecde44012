"""``blackpoker init DIR``: a new rules project from the rules the toolkit carries (v8.1).

A maintainer who installed the wheel has no checkout to start from; this gives them one that ``check``,
``sim run`` and ``build`` accept at once. The folder appears whole or not at all (written beside it, then
renamed), and a folder that holds anything is refused, never merged into.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

import click

from blackpoker.cli.common import EXIT_DATA_ERROR, echo

# What a project gets (its path → where the toolkit keeps it); the README and the workflow name the version.
# the build reads the project's prose (source/) and scenarios in place of the toolkit's (core/paths.py)
COPIED = ("definitions", "schemas", "scenarios", "source")
WRITTEN = {"README.md": "README.md", ".github/workflows/check.yml": "check.yml"}
IGNORED = "site/\n.blackpoker-cache/\n.site.lock\n"


def make_project(target: Path) -> None:
    """Write the project into ``target`` (new or empty); OSError for the environment's problems."""
    from blackpoker import __version__
    from blackpoker.core import paths

    sources = {"definitions": paths.DEFINITIONS, "schemas": paths.SCHEMAS, "scenarios": paths.SCENARIOS,
               "source": paths.SOURCE}
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp"))
    try:
        for name in COPIED:
            shutil.copytree(sources[name], staging / name, ignore=shutil.ignore_patterns("__pycache__"))
        for name, template in WRITTEN.items():
            text = (paths.TEMPLATES / "project" / template).read_text(encoding="utf-8")
            (staging / name).parent.mkdir(parents=True, exist_ok=True)
            (staging / name).write_text(text.replace("@VERSION@", __version__), encoding="utf-8")
        (staging / ".gitignore").write_text(IGNORED, encoding="utf-8")
        staging.chmod(0o755)  # mkdtemp's 0700 is for staging only
        if target.is_dir():
            target.rmdir()  # empty: checked by the caller
        staging.rename(target)
    finally:
        if staging.exists():
            shutil.rmtree(staging)


@click.command()
@click.argument("directory", type=click.Path(path_type=Path))
def init(directory: Path) -> None:
    """Start a rules project in DIRECTORY: the v8.1 definitions, their schemas, the scenarios, the rulebook's
    prose, a README and a CI workflow that checks them."""
    if directory.exists() and (not directory.is_dir() or any(directory.iterdir())):
        echo(f"{directory}: already exists and is not an empty folder; choose a new folder", err=True)
        sys.exit(EXIT_DATA_ERROR)
    make_project(directory)
    echo(f"made {directory}: check it with `blackpoker check {directory / 'definitions'}`")
