"""Errors with locations, in the style of jsonschema's ValidationError: data first, text second."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

PathPart = str | int


def format_path(path: Sequence[PathPart]) -> str:
    """Render a data path the way a reader writes it: ``actions[12].timing``."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else part
    return out


@dataclass(frozen=True, order=True)
class DefinitionError:
    """One problem in the definitions, pointing at the YAML node that causes it."""

    file: str
    line: int
    column: int
    path: tuple[PathPart, ...]
    message: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}:{self.column}"
        if self.path:
            return f"{where}: {format_path(self.path)}: {self.message}"
        return f"{where}: {self.message}"


class DefinitionWarning(DefinitionError):
    """Something the definitions may hold but a reader of the output should know of (what the simulator does
    not cover in an edition that declares ``simulated: false``): shown like an error, marked ``warning:``."""

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}:{self.column}: warning"
        if self.path:
            return f"{where}: {format_path(self.path)}: {self.message}"
        return f"{where}: {self.message}"


class DefinitionErrors(Exception):
    """Raised when the definitions do not load: carries every problem found, not only the first."""

    def __init__(self, errors: Iterable[DefinitionError]) -> None:
        self.errors: tuple[DefinitionError, ...] = tuple(sorted(set(errors)))
        super().__init__("\n".join(str(e) for e in self.errors))

    def __reduce__(self) -> tuple[type[DefinitionErrors], tuple[tuple[DefinitionError, ...]]]:
        """Raised in build workers, re-raised in the parent: pickle the located errors, not the message."""
        return (DefinitionErrors, (self.errors,))
