"""How the definitions' text is set for readers, in every page and PDF alike.

The definitions write ranges with ASCII ``~`` (``♡A~10``), which is easy to type and to parse; the BIZ UD fonts
draw it as a raised mark. Readers get the printed book's full-width tilde (``♡A～10``); the definitions, the
JSON export and the simulator keep their text.

One colon for labels in Japanese text, as the printed book sets them: the ASCII colon and a space
(「例: 」, 「チャンス: A」, 「原文: 」); a full-width one (an imported edition's 「タイプ：速攻魔法」) is set so too.
"""

from __future__ import annotations

import re
import unicodedata
from typing import TypeVar

RANGE_MARK = "～"  # U+FF5E, as the printed v8.1 book sets ranges
COLON = ": "  # a label's colon, as the printed v8.1 book sets it; never the full-width ：

T = TypeVar("T", bound=str)


def for_readers(text: T) -> T:
    """``text`` as a reader sees it (a ``markupsafe.Markup`` stays one: its replace keeps the type)."""
    marked = text.replace("~", RANGE_MARK).replace("： ", COLON).replace("：", COLON)
    return marked  # type: ignore[return-value]  # str.replace is typed str; Markup's keeps Markup


# Glyphs that are one character for a reader of the rules though Unicode keeps them apart: NFKC folds the widths
# (！ → !, ０ → 0, （ → (, ～ → ~), not these.
_SAME_GLYPH = str.maketrans({"♢": "◇", "〜": "~", "～": "~"})
_SPACE = re.compile(r"\s+")


def typography_key(text: str) -> str:
    """``text`` with what a typesetter may change set aside (width, ◇/♢, ~/〜, every space and line break): two
    texts with equal keys differ in typography only (the editions' differences, conditions the simulator reads)."""
    return _SPACE.sub("", unicodedata.normalize("NFKC", text).translate(_SAME_GLYPH))
