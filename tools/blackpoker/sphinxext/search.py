"""The search index's Japanese word splitting, remembered between builds.

Sphinx splits every text of a written page into words with TinySegmenter, in pure Python: half of the
web pages' build time. An edit rewrites the pages that show the edited entry, and almost all of their
text is what it was, so the words of each text are kept in the Sphinx environment's folder (thrown away
with it) and split again only when the text is new. The words are TinySegmenter's (conf.py:
``html_search_options``), and the names below.

The search page does not split a query (Sphinx has no Japanese splitter in JavaScript): 「世代交代」 is looked
up whole, while TinySegmenter indexed 世代 and 交代. So every entry name and 索引 term a text contains is
also one of its words, and a name typed whole finds every page that mentions it, not only its entry.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sphinx.search.ja import DefaultSplitter

from blackpoker.infra.fsutil import write_atomic
from blackpoker.sphinxext.index import IndexTermsError, read_terms
from blackpoker.sphinxext.ruleset import rules_of

_KNOWN: dict[str, list[str]] = {}  # text → its words, for this process
_FILE = "bp-search-words.json"
_LIMIT = 200_000  # texts kept; past it, the file starts afresh (an edit adds a few)
_WHOLE: list[str] = []  # the names a reader types whole (entries, 索引 terms), for this build


class RememberingSplitter(DefaultSplitter):
    def split(self, input: str) -> list[str]:
        words = _KNOWN.get(input)
        if words is None:
            words = _KNOWN[input] = super().split(input)
        return [*words, *whole_names(input, words)]


def whole_names(text: str, words: list[str]) -> list[str]:
    """The names of :data:`_WHOLE` that ``text`` contains and its words do not already have whole."""
    return [name for name in _WHOLE if name in text and name not in words]


def load_names(app: Any) -> None:
    """``builder-inited``: the names this build's texts give whole as words too."""
    _WHOLE[:] = names_of(app)


def names_of(app: Any) -> list[str]:
    """Every entry's name and every 索引 term of the build, longer than one character."""
    rules = rules_of(app.config)
    names = [*(a.name for a in rules.actions), *(c.name for c in rules.characters), *(f.name for f in rules.fogs),
             *(t.name for t in rules.trumps), *(f.name for f in rules.frames)]
    try:
        names += [t.term for t in read_terms(Path(app.srcdir) / app.config.blackpoker_index_terms)]
    except (IndexTermsError, OSError):  # the {bp-index} directive reports it, at its place
        pass
    return sorted({n for n in names if len(n) > 1})


def load_words(app: Any) -> None:
    """``builder-inited``: the words of the texts split by earlier builds in this environment."""
    path = Path(app.doctreedir) / _FILE
    _KNOWN.clear()
    _WHOLE.clear()  # the build's names come next (load_names)
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
