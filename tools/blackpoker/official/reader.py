"""Read the official data files (act.yaml, act-frame.yaml, frame.yaml, version.json) with the position of
every value, through the same defensive YAML reader as the definitions (core/yamlsource.py)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from blackpoker.core.errors import DefinitionError
from blackpoker.core.loader import display_path
from blackpoker.core.yamlsource import SourceFile, parse_yaml

ACT = "act.yaml"
ACT_FRAME = "act-frame.yaml"
FRAME = "frame.yaml"
VERSION = "version.json"
REQUIRED = (ACT, FRAME)
OPTIONAL = (ACT_FRAME, VERSION)
IMAGES = "images"  # where the importer looks for the pictures the files name (image: tarot/…)


@dataclass(frozen=True)
class OfficialFiles:
    """The parsed official files, by file name (act-frame.yaml and version.json may be absent)."""

    folder: Path
    sources: dict[str, SourceFile]


def read_official(folder: Path) -> tuple[OfficialFiles, list[DefinitionError]]:
    """Parse every official file in ``folder``; problems come back located, never raised (OSError aside)."""
    sources: dict[str, SourceFile] = {}
    problems: list[DefinitionError] = []
    if not folder.is_dir():
        return OfficialFiles(folder, {}), [DefinitionError(str(folder), 1, 1, (), "no such folder; expected the "
                                                           "folder holding the official act.yaml and frame.yaml")]
    for name in REQUIRED + OPTIONAL:
        path = folder / name
        shown = display_path(folder, name)
        if not path.exists():
            if name in REQUIRED:
                problems.append(DefinitionError(shown, 1, 1, (), f"missing file; expected the official {name} in "
                                                f"{display_path(folder, '.')}"))
            continue
        src, errors = parse_yaml(path, shown, folder=folder)
        problems.extend(errors)
        if src is None:
            continue
        if not isinstance(src.data, dict):
            problems.append(src.error((), f"the file holds {type(src.data).__name__}; expected a mapping "
                                      "(data:, actList: …)"))
            continue
        sources[name] = src
    return OfficialFiles(folder, sources), problems


def find_picture(folder: Path, name: str) -> Path | None:
    """The picture file an official ``image:`` names (``tarot/Swords_01`` → images/tarot/Swords_01.jpg), looked
    for under ``images/`` and beside the files; it must stay inside the folder."""
    root = folder.resolve()
    for base in (folder / IMAGES, folder):
        for suffix in (".png", ".jpg", ".jpeg", ".svg"):
            path = base / f"{name}{suffix}"
            try:
                if path.is_file() and not path.is_symlink() and path.resolve().is_relative_to(root):
                    return path
            except OSError:
                continue
    return None
