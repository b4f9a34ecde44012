"""Sphinx's private API that ``sphinxext/sphinx_private.py`` relies on: a Sphinx change must fail here, loudly."""

from __future__ import annotations

import inspect
from pathlib import Path

from sphinx.environment import BuildEnvironment
from sphinx.search import IndexBuilder


def test_sphinx_still_keeps_the_search_index_entries_in_the_environment() -> None:
    init = inspect.getsource(BuildEnvironment.__init__)
    assert "self._search_index_index_entries" in init, "update sphinxext/sphinx_private.py"
    builder = inspect.getsource(IndexBuilder.__init__)
    assert "self._index_entries" in builder and "env._search_index_index_entries" in builder
    feed = inspect.getsource(IndexBuilder.feed)
    assert "self._index_entries[docname] = sorted(_index_entries)" in feed
    # the index is restored from searchindex.js without its index entries: what the module puts back
    assert "_index_entries" not in inspect.getsource(IndexBuilder.load)


def test_only_the_private_module_calls_private_sphinx() -> None:
    package = Path(__file__).resolve().parents[1] / "tools" / "blackpoker"
    offenders = [str(p.relative_to(package)) for p in package.rglob("*.py")
                 if p.name != "sphinx_private.py" and "_search_index_" in p.read_text(encoding="utf-8")]
    assert offenders == []
