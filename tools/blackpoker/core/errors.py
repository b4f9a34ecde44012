"""Errors with locations, in the style of jsonschema's ValidationError: data first, text second."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

PathPart = str | int


# Unicode's default-ignorable code points (DerivedCoreProperties.txt, Default_Ignorable_Code_Point) that are not
# of a category counted below: shown as nothing, so ``ド\u034fロー`` or ``ドロー\ufe0f`` would be a second action
# that looks like ``ドロー``. The combining grapheme joiner, the variation selectors (text and emoji presentation,
# the ideographic ones of the supplement), the Hangul and Khmer fillers, and the unassigned ignorables.
_IGNORABLE = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u180b\u180c\u180d\u180f\u2065\u3164\uffa0"
                       "\ufff0\ufff1\ufff2\ufff3\ufff4\ufff5\ufff6\ufff7\ufff8") | frozenset(map(chr, range(0xFE00, 0xFE10)))
_IGNORABLE_PLANE = ("\U000e0000", "\U000e0fff")  # tags and variation selectors supplement: all ignorable
_INVISIBLE = frozenset(("Cc", "Cf", "Zl", "Zp", "Cs"))


def _invisible(char: str) -> bool:
    """A character a terminal or a page interprets instead of showing (controls, bidi and zero-width marks,
    line and paragraph separators, every other default-ignorable one); tab and newline are not counted here."""
    if unicodedata.category(char) in _INVISIBLE:
        return char not in "\t\n"
    return char in _IGNORABLE or _IGNORABLE_PLANE[0] <= char <= _IGNORABLE_PLANE[1]


def printable(text: str, *, newlines: bool = False) -> str:
    """``text`` safe to print to a terminal: every control, format (bidi, zero-width) or separator character is
    written as its escape (``\\u001b``, ``\\u202e``), so a value quoted in a message can neither move the cursor,
    set the clipboard (OSC 52) nor clear the screen. Newlines are escaped too unless ``newlines`` (a message of
    several lines, whose parts were escaped where they were made). The one function every message that quotes
    input goes through."""
    out = []
    for char in text:
        if _invisible(char) or (char == "\n" and not newlines) or (char == "\t" and not newlines):
            code = ord(char)  # in the form Python reads back (JSON too, below U+10000), and a reader recognises
            out.append(f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}")
        else:
            out.append(char)
    return "".join(out)


def invisible_character(text: str) -> tuple[int, str] | None:
    """The first character of ``text`` that input may not hold (see :func:`printable`: controls, bidi and
    zero-width marks; tab and newline are fine): its index and its name, or None."""
    for index, char in enumerate(text):
        if _invisible(char):
            return index, f"U+{ord(char):04X} ({unicodedata.name(char, 'a control character')})"
    return None


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
            return printable(f"{where}: {format_path(self.path)}: {self.message}")
        return printable(f"{where}: {self.message}")


class DefinitionWarning(DefinitionError):
    """Something the definitions may hold but a reader of the output should know of (what the simulator does
    not cover in an edition that declares ``simulated: false``): shown like an error, marked ``warning:``."""

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}:{self.column}: warning"
        if self.path:
            return printable(f"{where}: {format_path(self.path)}: {self.message}")
        return printable(f"{where}: {self.message}")


class DefinitionErrors(Exception):
    """Raised when the definitions do not load: carries every problem found, not only the first."""

    def __init__(self, errors: Iterable[DefinitionError]) -> None:
        self.errors: tuple[DefinitionError, ...] = tuple(sorted(set(errors)))
        super().__init__("\n".join(str(e) for e in self.errors))

    def __reduce__(self) -> tuple[type[DefinitionErrors], tuple[tuple[DefinitionError, ...]]]:
        """Raised in build workers, re-raised in the parent: pickle the located errors, not the message."""
        return (DefinitionErrors, (self.errors,))
