"""A rule source by its folder: a definitions folder (ruleset.yaml …) or the official data files (act.yaml …),
loaded as one model either way, so that editions kept in either form can be compared (``blackpoker diff``).

Official files are imported as ``blackpoker import`` does, into a private temporary folder that is removed at
once; a problem found there is reported at the official folder, never at the temporary one.
"""

from __future__ import annotations

import dataclasses
import tempfile
from pathlib import Path

from blackpoker.core.errors import DefinitionError, DefinitionErrors
from blackpoker.core.loader import FILES, display_path, load_rules
from blackpoker.core.model import Rules
from blackpoker.official.importer import definitions_texts, import_official
from blackpoker.official.reader import ACT, read_official

DEFINITIONS_MARK = "ruleset.yaml"


def is_official(folder: Path) -> bool:
    """True for a folder of official data files rather than of definitions."""
    return (folder / ACT).is_file() and not (folder / DEFINITIONS_MARK).is_file()


def load_source(folder: Path, base: Path) -> Rules:
    """The rules in ``folder``; official files take what they do not hold from the definitions in ``base``.
    Raises DefinitionErrors (located) when the folder is neither, or its rules do not load."""
    if not folder.is_dir():
        raise DefinitionErrors([DefinitionError(str(folder), 1, 1, (), "no such folder; expected a definitions "
                                                "folder (ruleset.yaml …) or the official files (act.yaml …)")])
    if not is_official(folder):
        return load_rules(folder)
    official, problems = read_official(folder)
    if problems:
        raise DefinitionErrors(problems)
    result = import_official(official, base)
    if result.errors:
        raise DefinitionErrors(result.errors)
    with tempfile.TemporaryDirectory(prefix="blackpoker-source-") as tmp:
        staging = Path(tmp)
        for name, text in definitions_texts(result).items():
            (staging / name).write_text(text, encoding="utf-8")
        for ours, picture in result.pictures.items():
            (staging / ours).parent.mkdir(parents=True, exist_ok=True)
            (staging / ours).write_bytes(picture.read_bytes())
        try:
            return load_rules(staging)
        except DefinitionErrors as exc:
            raise DefinitionErrors([_as_imported(p, staging, folder) for p in exc.errors]) from None


def _as_imported(problem: DefinitionError, staging: Path, folder: Path) -> DefinitionError:
    """A problem of the imported definitions, named as the file the import of ``folder`` would write."""
    for f in FILES:
        if problem.file == display_path(staging, f.name):
            return dataclasses.replace(problem, file=f"{display_path(folder, f.name)} (imported)")
    return problem
