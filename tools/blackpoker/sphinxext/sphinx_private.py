"""The one place that touches Sphinx's private API (tests/test_sphinx_private.py notices a change).

Sphinx keeps the search index's index entries (``env._search_index_index_entries``, docname → entries) only in
the environment, and restores the rest of the index from ``searchindex.js``. The book's single-page build shares
the environment and saves it without them, so an incremental build of the site lost the index entries of every
page it did not write again: the search page then missed the 索引 terms of those pages. Before writing, the
entries of every page are put back from its doctree, in page order, so the index is the same as a cold build's.
"""

from __future__ import annotations

from typing import Any

from docutils import nodes
from sphinx import addnodes
from sphinx.util.index_entries import split_index_msg


def _entries(doctree: nodes.document) -> list[tuple[str, str, str]]:
    """A page's index entries as Sphinx's search index keeps them (``IndexBuilder.feed``)."""
    found: set[tuple[str, str, str]] = set()
    for node in doctree.findall(addnodes.index):
        for entry_type, value, target_id, main, _key in node["entries"]:
            try:
                parts = split_index_msg(entry_type, value)
            except ValueError:
                continue
            found |= {(part, target_id or "", main) for part in parts}
    return sorted(found)


def restore_index_entries(app: Any, env: Any) -> None:
    """``env-updated`` (html builder): every page's index entries, in page order."""
    if app.builder.name != "html":
        return
    kept: dict[str, list[tuple[str, str, str]]] = env._search_index_index_entries
    restored = {doc: _entries(env.get_doctree(doc)) for doc in sorted(env.found_docs)}
    kept.clear()  # in place: the search index builder holds this very dict
    kept.update(restored)
