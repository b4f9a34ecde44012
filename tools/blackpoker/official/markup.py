"""The official effect markup ↔ our effect blocks.

The official files write an effect as lines: ``1.`` (or ``１．``) starts a numbered item, ``・`` a bulleted one,
``A.`` a lettered one, any other line is a paragraph; each leading ``-`` puts the line one level deeper, under
the last item of the level above; ``---`` is a separator line, kept as a paragraph of its own. Our blocks
(definitions/actions.yaml ``effect``, core/model.py ``Block``) hold the same tree: paragraphs (strings) and lists
whose items may carry nested blocks. Reading gives the YAML form of the blocks; writing takes the model's.
Item numbers and letters are not kept: a list is numbered from 1 (A) when written.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from blackpoker.core import model as m
from blackpoker.core.export import blocks_data
from blackpoker.official.convert import Unmappable

RULE = "---"
_NUMBERED = re.compile(r"^[0-9０-９]+[.．]\s*(?P<text>.*)$")
_LETTERED = re.compile(r"^[A-Z][.．]\s*(?P<text>.+)$")
_BULLETED = re.compile(r"^・\s*(?P<text>.*)$")
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@dataclass
class _Item:
    text: str
    sub: list[Any] = field(default_factory=list)


@dataclass
class _List:
    style: str
    items: list[_Item] = field(default_factory=list)


def _classify(line: str) -> tuple[str | None, str]:
    for style, pattern in (("numbered", _NUMBERED), ("lettered", _LETTERED), ("bulleted", _BULLETED)):
        match = pattern.match(line)
        if match:
            return style, match["text"].strip()
    return None, line.strip()


def read_effect(text: str) -> list[Any]:
    """The blocks (YAML form) of an official effect text."""
    root: list[Any] = []
    levels: list[list[Any]] = [root]  # levels[n]: where lines of level n go
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.rstrip()
        if not line.strip():
            continue
        depth = 0
        if line.strip() != RULE:
            depth = len(line) - len(line.lstrip("-"))
            line = line[depth:]
        if depth >= len(levels):
            raise Unmappable(f"line {number} '{raw.strip()[:30]}' is {depth} levels deep ('-' each) but has no list "
                             f"item above it at level {depth - 1}; expected at most {len(levels) - 1} '-'")
        del levels[depth + 1:]
        container = levels[depth]
        style, body = _classify(line)
        if style is None:
            container.append(body)
            continue
        if not body:
            raise Unmappable(f"line {number} '{raw.strip()[:30]}' is a list item without text")
        if not (container and isinstance(container[-1], _List) and container[-1].style == style):
            container.append(_List(style))
        item = _Item(body)
        container[-1].items.append(item)
        levels.append(item.sub)
    if not root:
        raise Unmappable("the effect is empty; expected its text")
    return blocks_data(root)


def write_effect(blocks: tuple[m.Block, ...]) -> str:
    """The official markup of our blocks (the inverse of :func:`read_effect`)."""
    return "\n".join(_lines(blocks, 0))


def _lines(blocks: tuple[m.Block, ...], depth: int) -> list[str]:
    prefix = "-" * depth
    out: list[str] = []
    for block in blocks:
        if isinstance(block, str):
            out.extend(block.splitlines() if depth == 0 else [prefix + line for line in block.splitlines()])
            continue
        for i, item in enumerate(block.items):
            mark = {"numbered": f"{i + 1}. ", "lettered": f"{LETTERS[i % 26]}. ", "bulleted": "・"}[block.style]
            out.append(prefix + mark + item.text)
            out.extend(_lines(item.sub, depth + 1))
    return out


