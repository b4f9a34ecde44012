"""The base definitions of an import (``--base``): what the official files do not hold (the ruleset's tables,
formats, rulings) and what they may leave out (an entry's reading, a frame frame.yaml does not list), looked up
by official id so that an edition imported again keeps the ids its scenarios and the simulator know."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from blackpoker.core.loader import display_path
from blackpoker.core.yamlsource import parse_yaml
from blackpoker.official import convert as cv

ENTRY_FILES = (("action", "actions.yaml", "actions"), ("action", "frame-actions.yaml", "actions"),
               ("character", "characters.yaml", "characters"), ("fog", "fogs.yaml", "fogs"),
               ("trump", "trumps.yaml", "trumps"), ("frame", "frames.yaml", "frames"))


class Base:
    """A definitions folder read file by file as plain YAML data (it is not checked again here)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._files: dict[str, Any] = {}
        self._entries: dict[tuple[str, str], dict[str, Any]] | None = None

    def data(self, name: str) -> Any:
        """One file's data; OSError when it does not read (the base is the environment, not the input)."""
        if name not in self._files:
            src, problems = parse_yaml(self.folder / name, display_path(self.folder, name), folder=self.folder)
            if src is None:
                raise OSError(f"{display_path(self.folder, name)}: the base definitions do not read: "
                              + "; ".join(str(p) for p in problems))
            self._files[name] = src.data
        return self._files[name]

    def entry(self, kind: str, official: str) -> dict[str, Any] | None:
        """The base's entry of this kind with this official id (its ``official_id``, else its id in camelCase)."""
        if self._entries is None:
            self._entries = {}
            for k, name, key in ENTRY_FILES:
                for entry in self.data(name).get(key) or ():
                    self._entries[(k, entry.get("official_id") or cv.camel(entry["id"]))] = entry
        return self._entries.get((kind, official))

    def id(self, kind: str, official: str) -> str | None:
        """Our id of the base entry with this official id, so that scenarios and the simulator keep their ids across
        an import."""
        entry = self.entry(kind, official)
        return None if entry is None else str(entry["id"])

    def reading(self, kind: str, official: str, name: str) -> str | None:
        """The base's reading of the entry with this official id and the same name (a renamed entry reads
        differently)."""
        entry = self.entry(kind, official)
        same = entry is not None and _bare(str(entry.get("name"))) == _bare(name)
        return str(entry["reading"]) if entry is not None and same and entry.get("reading") else None

    def frame(self, name_or_id: str) -> dict[str, Any] | None:
        """The base's frame with this name (spaces aside) or official id."""
        for f in self.data("frames.yaml").get("frames") or ():
            if _bare(f["name"]) == _bare(name_or_id) or (f.get("official_id") or cv.camel(f["id"])) == name_or_id:
                return dict(f)
        return None

    def zones(self) -> list[tuple[str, str, bool]]:
        """The base's zones (id, name, common), which the frames' disclosure text is read against."""
        return [(z["id"], z["name"], z["common"]) for z in self.data("ruleset.yaml")["zones"]]


def _bare(text: str) -> str:
    return text.replace(" ", "").replace("\u3000", "")
