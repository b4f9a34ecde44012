"""The readers' typography (core/typography.py) applied to every text of every page, the book's included."""

from __future__ import annotations

from typing import Any

from docutils import nodes
from sphinx.transforms.post_transforms import SphinxPostTransform

from blackpoker.core.typography import for_readers


class ReaderTypography(SphinxPostTransform):
    """Every text node outside code takes the readers' form (``♡A~10`` → ``♡A～10``)."""

    default_priority = 900  # after references are resolved: their texts too

    def run(self, **kwargs: Any) -> None:
        for text in list(self.document.findall(nodes.Text)):
            if isinstance(text.parent, nodes.FixedTextElement | nodes.literal):
                continue
            shown = for_readers(str(text))
            if shown != text and text.parent is not None:
                text.parent.replace(text, nodes.Text(shown))
