"""The search index's Japanese word splitting, remembered between builds.

Sphinx splits every text of a written page into words with TinySegmenter, in pure Python: half of the
web pages' build time. An edit rewrites the pages that show the edited entry, and almost all of their
text is what it was, so the words of each text are kept in the Sphinx environment's folder (thrown away
with it) and split again only when the text is new. The words are exactly TinySegmenter's, as the
search page's own splitter expects (conf.py: ``html_search_options``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sphinx.search.ja import DefaultSplitter

from blackpoker.infra.fsutil import write_atomic

_KNOWN: dict[str, list[str]] = {}  # text → its words, for this process
_FILE = "bp-search-words.json"
_LIMIT = 200_000  # texts kept; past it, the file starts afresh (an edit adds a few)


class RememberingSplitter(DefaultSplitter):
    def split(self, input: str) -> list[str]:
        words = _KNOWN.get(input)
        if words is None:
            words = _KNOWN[input] = super().split(input)
        return list(words)


def load_words(app: Any) -> None:
    """``builder-inited``: the words of the texts split by earlier builds in this environment."""
    path = Path(app.doctreedir) / _FILE
    _KNOWN.clear()
    if path.is_file():
        try:
            _KNOWN.update(json.loads(path.read_text(encoding="utf-8")))
        except ValueError:  # a damaged file only costs time
            pass
    app.__dict__["_bp_words_loaded"] = len(_KNOWN)


def save_words(app: Any, exception: BaseException | None) -> None:
    """``build-finished``: keep the words for the next build, if this one split any new text."""
    if exception is not None or len(_KNOWN) == app.__dict__.get("_bp_words_loaded", 0):
        return
    known = _KNOWN if len(_KNOWN) <= _LIMIT else {}
    write_atomic(Path(app.doctreedir) / _FILE, json.dumps(known, ensure_ascii=False, sort_keys=True))
