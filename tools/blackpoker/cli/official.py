"""``blackpoker import`` and ``export --format official``: the official data files ↔ a definitions folder.

Both write a whole folder atomically, as ``build --out`` does: into a staging folder beside the output, which is
renamed into place only when everything was written (and, for an import, the result loads and passes the
checks); a folder is replaced only if one of these commands made it (its marker file), never a user's folder.
"""

from __future__ import annotations

import dataclasses
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import click

from blackpoker.cli.common import DEFAULT_HELP, EXIT_DATA_ERROR, definitions_folder, echo, load
from blackpoker.core.errors import DefinitionError, DefinitionErrors
from blackpoker.core.loader import FILES, display_path, load_rules

IMPORT_MARKER = ".blackpoker-import"
EXPORT_MARKER = ".blackpoker-official"
MARKER_TEXT = "This folder is written by `blackpoker {command}`; the next run replaces it whole.\n"


class Refused(Exception):
    """The output folder must not be replaced (it holds the user's files): nothing was touched."""


def check_output(out: Path, marker: str, protected: dict[str, Path]) -> None:
    """Refuse an output that is or contains a protected folder, is not a folder, or is a non-empty folder that
    this command did not make (no marker)."""
    from blackpoker.core.paths import CHECKOUT, ROOT
    if out.is_symlink():  # replacing it would put a folder where the link was, or write where it leads
        raise Refused(f"{out}: is a link{'' if out.exists() else ' that leads nowhere'}; expected a folder "
                      "(a link is neither followed nor replaced): name the folder itself or a new one")
    target = out.resolve()
    folders = {**protected, "the current folder": Path.cwd(), "your home folder": Path.home()}
    if CHECKOUT:
        folders["the repository"] = ROOT
    for name, folder in folders.items():
        folder = folder.resolve()
        if folder == target or folder.is_relative_to(target):
            raise Refused(f"{out}: the output folder is or contains {name}; it is replaced whole: choose a new folder")
    if out.exists() and not out.is_dir():
        raise Refused(f"{out}: not a folder; expected a new or empty folder")
    if out.is_dir() and any(out.iterdir()) and not (out / marker).is_file():
        raise Refused(f"{out}: not empty and not made by this command (no {marker} in it); it is replaced "
                      "whole: choose a new or empty folder")


def publish(out: Path, files: dict[str, str | bytes], marker: str, command: str,
            validate: Callable[[Path], list[DefinitionError]] | None = None, *, keep: bool = False
            ) -> list[DefinitionError]:
    """Write ``files`` (path → text or bytes) as the folder ``out``; ``validate`` reads the staged folder first.
    Its problems stop the publication unless ``keep``; they are returned, located in ``out``."""
    from blackpoker.infra.fsutil import exchange, make_publishable, remove_tree
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(dir=out.parent, prefix=f".{out.name}.", suffix=".tmp"))
    old = staging.with_suffix(".old")
    try:
        for name, data in files.items():
            path = staging / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
        (staging / marker).write_text(MARKER_TEXT.format(command=command), encoding="utf-8")
        make_publishable(staging)
        problems = [_relocate(p, staging, out) for p in validate(staging)] if validate else []
        if problems and not keep:
            return problems
        if not (out.exists() and exchange(staging, out)):
            if out.exists():
                out.rename(old)
            staging.rename(out)
        return problems
    finally:
        for leftover in (staging, old):
            if leftover.exists():
                remove_tree(leftover)


def _relocate(problem: DefinitionError, staging: Path, out: Path) -> DefinitionError:
    """A problem found in the staged folder, named by its place in the output folder."""
    for f in FILES:
        if problem.file == display_path(staging, f.name):
            return dataclasses.replace(problem, file=display_path(out, f.name))
    return problem


def _loads(folder: Path) -> list[DefinitionError]:
    try:
        load_rules(folder)
    except DefinitionErrors as exc:
        return list(exc.errors)
    return []


def _refuse(exc: Refused) -> None:
    echo(str(exc), err=True)
    sys.exit(EXIT_DATA_ERROR)


@click.command("import")
@click.argument("official_dir", type=click.Path(file_okay=False, path_type=Path))
@click.option("-o", "--output", "out", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="The definitions folder to write (new, empty, or a previous import's).")
@click.option("--base", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Definitions for what the official files do not hold: ruleset tables, formats, rulings; and "
                   f"the readings, frames and ids they may leave out ({DEFAULT_HELP}).")
@click.option("--keep-going", is_flag=True, help="Convert and write what can be mapped; list every problem (exit 2).")
def import_(official_dir: Path, out: Path, base: Path | None, keep_going: bool) -> None:
    """Convert the official act.yaml, act-frame.yaml, frame.yaml (and version.json) into a definitions folder."""
    from blackpoker.official.importer import definitions_texts, import_official
    from blackpoker.official.reader import read_official
    base = definitions_folder(base, "--base")
    try:
        check_output(out, IMPORT_MARKER, {"the official files": official_dir, "the base definitions": base})
    except Refused as exc:
        _refuse(exc)
    official, problems = read_official(official_dir)
    if problems:  # a file that does not parse cannot be converted in part
        _fail(problems, "nothing written")
    result = import_official(official, base)
    for note in result.notes:
        echo(f"note: {note}", err=True)
    for warning in sorted(result.warnings):
        echo(str(warning), err=True)
    for ruling in result.left_out:
        echo(f"note: rulings.yaml: ruling {ruling}: left out", err=True)
    if result.errors and not keep_going:
        _fail(result.errors, "nothing written (--keep-going converts the rest)")
    texts = definitions_texts(result)
    files: dict[str, str | bytes] = dict(texts)
    files.update({ours: source.read_bytes() for ours, source in result.pictures.items()})
    files.update(kept_source(official_dir, texts, result.pictures))
    def loads(staging: Path) -> list[DefinitionError]:  # what the checks find, at the official files' lines
        written = {f.name: display_path(staging, f.name) for f in FILES}
        return [result.in_official(p, written) for p in _loads(staging)]
    load_problems = publish(out, files, IMPORT_MARKER, "import", loads, keep=keep_going)
    counts = ", ".join(f"{n} {what}" for what, n in result.counts.items())
    written = not load_problems or keep_going
    warned = f"; {len(result.warnings)} warnings (above)" if result.warnings else ""
    echo(f"{official_dir} → {out}: {counts}; {result.normalised} values normalised (notes above){warned}"
               + ("" if written else "; nothing written"), err=True)
    if result.errors or load_problems:
        for problem in sorted(result.errors) + load_problems:
            echo(str(problem), err=True)
        left = len(result.errors)
        echo(f"{left + len(load_problems)} problems in the official files ({left} the import cannot map: "
                   f"those entries are left out; {len(load_problems)} found by the checks of the converted "
                   "definitions)", err=True)
        sys.exit(EXIT_DATA_ERROR)


def kept_source(official_dir: Path, texts: dict[str, str], pictures: dict[str, Path]) -> dict[str, str | bytes]:
    """What ``export --format official`` needs to write the files back as they were: the official files as read
    (``official-source/``) and the definitions as imported (``official-source/definitions/``), to tell what
    changed since."""
    from blackpoker.official.exporter import SNAPSHOT, SOURCE
    from blackpoker.official.reader import OPTIONAL, REQUIRED
    out: dict[str, str | bytes] = {f"{SOURCE}/{name}": (official_dir / name).read_bytes()
                                   for name in REQUIRED + OPTIONAL if (official_dir / name).is_file()}
    out.update({f"{SOURCE}/{SNAPSHOT}/{name}": text for name, text in texts.items()})
    out.update({f"{SOURCE}/{SNAPSHOT}/{ours}": path.read_bytes() for ours, path in pictures.items()})
    out[f"{SOURCE}/README.md"] = SOURCE_README
    return out


SOURCE_README = """# official-source

Written by `blackpoker import`: the official files as they were read, and (in `definitions/`) the definitions
as they were imported. `blackpoker export --format official` compares the definitions beside this folder with
those in `definitions/` and writes these files back with only the changed values edited, so a diff of the
official files shows exactly the edits. Do not edit this folder; import again to replace it.
"""


def _fail(problems: list[DefinitionError], what: str) -> None:
    for problem in sorted(problems):
        echo(str(problem), err=True)
    echo(f"{len(problems)} problem{'s' if len(problems) != 1 else ''} in the official files; {what}.", err=True)
    sys.exit(EXIT_DATA_ERROR)


def export_official_folder(directory: Path | None, out: Path) -> None:
    """``export --format official -o DIR``."""
    from blackpoker.official.exporter import export_official
    definitions = definitions_folder(directory)
    try:
        check_output(out, EXPORT_MARKER, {"the definitions": definitions})
    except Refused as exc:
        _refuse(exc)
    from blackpoker.official.exporter import SOURCE
    files = export_official(load(definitions), definitions / SOURCE)
    publish(out, files, EXPORT_MARKER, "export --format official")
    echo(f"wrote {out}: {', '.join(sorted(name for name in files if '/' not in name))}"
               f"{' and pictures' if any('/' in name for name in files) else ''}", err=True)

