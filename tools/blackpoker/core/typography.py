"""How the definitions' text is set for readers, in every page and PDF alike.

The definitions write ranges with ASCII ``~`` (``♡A~10``), which is easy to type and to parse; the BIZ UD fonts
draw it as a raised mark. Readers get the printed book's full-width tilde (``♡A～10``); the definitions, the
JSON export and the simulator keep their text.
"""

from __future__ import annotations

from typing import TypeVar

RANGE_MARK = "～"  # U+FF5E, as the printed v8.1 book sets ranges

T = TypeVar("T", bound=str)


def for_readers(text: T) -> T:
    """``text`` as a reader sees it (a ``markupsafe.Markup`` stays one: its replace keeps the type)."""
    return text.replace("~", RANGE_MARK)  # type: ignore[return-value]  # str.replace is typed str; Markup's keeps Markup
