"""What ``blackpoker/sphinx_private.py`` relies on in Sphinx: one canary per part, each failing with a message
that names the part to update when Sphinx changes. (The {numref} domain's canary is in test_sphinxext_env.py: it
counts the doctree reads of a real build.)"""

from __future__ import annotations

import inspect
import json
import re
from pathlib import Path

import pytest
import sphinx
from sphinx.builders import Builder
from sphinx.builders.html import StandaloneHTMLBuilder
from sphinx.builders.singlehtml import SingleFileHTMLBuilder
from sphinx.domains.std import StandardDomain
from sphinx.environment import BuildEnvironment
from sphinx.search import IndexBuilder
from sphinx.util.nodes import inline_all_toctrees
from sphinx.writers.html5 import HTML5Translator

from blackpoker import sphinx_private
from blackpoker.sphinxext.labels import LABELS, SCRIPT_LABELS

SPHINX = Path(sphinx.__file__).parent
PACKAGE = Path(__file__).resolve().parents[1] / "tools" / "blackpoker"


def _source(obj: object) -> str:
    return inspect.getsource(obj)  # type: ignore[arg-type]  # classes and functions


def test_sphinx_still_keeps_the_search_index_entries_in_the_environment() -> None:
    message = "Sphinx's search index entries changed: update sphinx_private.restore_index_entries"
    assert "self._search_index_index_entries" in _source(BuildEnvironment.__init__), message
    builder = _source(IndexBuilder.__init__)
    assert "self._index_entries" in builder and "env._search_index_index_entries" in builder, message
    assert "self._index_entries[docname] = sorted(_index_entries)" in _source(IndexBuilder.feed), message
    # the index is restored from searchindex.js without its index entries: what the module puts back
    assert "_index_entries" not in _source(IndexBuilder.load), message


def test_numref_is_still_resolved_through_env_get_doctree() -> None:
    message = "Sphinx resolves {numref} differently: update sphinx_private.numref_domain"
    assert "env.get_doctree(docname)" in _source(StandardDomain._resolve_numref_xref), message
    assert inspect.isfunction(BuildEnvironment.__dict__["get_doctree"]), message  # a method an attribute can shadow
    assert issubclass(sphinx_private.numref_domain(), StandardDomain)


@pytest.mark.parametrize("attribute", ["all_docs", "dependencies", "titles", "tocs", "toc_secnumbers",
                                       "toc_fignumbers", "toctree_includes"])
def test_the_environment_still_keeps_what_incremental_builds_read(attribute: str) -> None:
    assert f"self.{attribute}:" in _source(BuildEnvironment.__init__), (
        f"BuildEnvironment.{attribute} changed: update sphinx_private's bookkeeping functions")
    assert "__slots__" not in BuildEnvironment.__dict__, "the environment no longer keeps records: update sphinx_private.kept"


def test_the_standard_domain_still_keeps_its_labels() -> None:
    message = "StandardDomain's labels changed: update sphinx_private.shared_state"
    assert all(isinstance(StandardDomain.__dict__[name], property) for name in ("labels", "anonlabels")), message


def test_the_html_builders_still_have_a_search_switch() -> None:
    message = "the HTML builder's `search` switch changed: update sphinx_private.skip_search_index"
    assert StandaloneHTMLBuilder.__dict__.get("search") is True, message  # a class switch an instance can turn off
    html = _source(StandaloneHTMLBuilder)
    assert "if self.search:" in html and "if name == 'search' and self.search:" in html, message
    assert issubclass(SingleFileHTMLBuilder, StandaloneHTMLBuilder), message


def test_translations_js_is_still_a_json_call_with_the_messages_left_empty(tmp_path: Path) -> None:
    """The file Sphinx copies as _static/translations.js for Japanese: the module reads and rewrites it."""
    catalogue = SPHINX / "locale" / "ja" / "LC_MESSAGES" / "sphinx.js"
    message = "Sphinx's translations.js changed: update sphinx_private.fill_script_messages"
    assert "copy_translation_js" in _source(StandaloneHTMLBuilder) and "'translations.js'" in _source(StandaloneHTMLBuilder)
    text = catalogue.read_text(encoding="utf-8")
    assert text.startswith("Documentation.addTranslations(") and text.rstrip().endswith(");"), message
    static = tmp_path / "_static"
    static.mkdir()
    (static / "translations.js").write_text(text, encoding="utf-8")
    sphinx_private.fill_script_messages(tmp_path, SCRIPT_LABELS)
    written = (static / "translations.js").read_text(encoding="utf-8")
    data = json.loads(written.partition("(")[2].rpartition(")")[0])
    for source, label in SCRIPT_LABELS.items():
        assert source in data["messages"], message
        assert label in data["messages"][source], message  # filled: it was empty in Sphinx's catalogue


def test_the_message_catalogue_compiles_with_babel(tmp_path: Path) -> None:
    """Babel is Sphinx's own catalogue library (declared in pyproject.toml, as the module imports it)."""
    import gettext

    target = tmp_path / "ja" / "LC_MESSAGES" / "sphinx.mo"
    sphinx_private.write_message_catalog(target, "ja", "sphinx", LABELS)
    translations = gettext.translation("sphinx", tmp_path, languages=["ja"])
    assert all(translations.gettext(message) == label for message, label in LABELS.items())


def test_the_single_page_markup_is_still_what_the_book_is_cut_at() -> None:
    writer = _source(HTML5Translator)
    message = "Sphinx's HTML changed: update the markup patterns in sphinx_private (the book is cut with them)"
    start = re.search(r"""'(<span id="document-)%s("></span>)'""", writer)
    assert start is not None, message
    marker = sphinx_private.DOCUMENT_START.fullmatch(f"{start[1]}intro{start[2]}")
    assert marker is not None and marker[1] == "intro", message
    assert "<a class=\"headerlink\" href=" in writer, message
    assert sphinx_private.HEADERLINK.fullmatch('<a class="headerlink" href="#x" title="Link">¶</a>'), message
    assert "atts = {'class': 'reference'}" in writer and "atts['class'] += ' internal'" in writer, message
    assert "'#document-' + docname" in _source(SingleFileHTMLBuilder.get_target_uri), message
    link = '<link rel="stylesheet" type="text/css" href="_static/pygments.css?v=1234" />'
    assert sphinx_private.STYLESHEET.findall(link) == ["_static/pygments.css"]


def test_stylesheet_tags_are_still_written_as_the_book_reads_them() -> None:
    """Sphinx writes a stylesheet as ``<link`` + its attributes sorted + ``href`` with a checksum query."""
    from sphinx.builders.html._assets import _CascadingStyleSheet

    message = "Sphinx writes stylesheet tags differently: update sphinx_private.STYLESHEET"
    assert """return f'<link {" ".join(sorted(attrs))} href="{uri}" />'""" in _source(StandaloneHTMLBuilder), message
    attributes = _CascadingStyleSheet("_static/print.css", priority=500).attributes
    pairs = " ".join(sorted(f'{key}="{value}"' for key, value in attributes.items()))
    tag = f'<link {pairs} href="_static/print.css?v=0f" />'
    assert sphinx_private.STYLESHEET.findall(tag) == ["_static/print.css"], message


def test_only_the_compat_module_touches_sphinx_internals() -> None:
    """What the module keeps: no other module of the package uses it."""
    markers = ["_search_index_", "env.get_doctree =", "env.__dict__", ".all_docs", "builder.search",
               "translations.js", "babel", 'id="document-', 'class="headerlink"', 'class="reference internal"']
    offenders = sorted(f"{p.relative_to(PACKAGE)}: {marker}" for p in PACKAGE.rglob("*.py")
                       if p.name != "sphinx_private.py" for marker in markers
                       if marker in p.read_text(encoding="utf-8"))
    assert offenders == []


def test_sphinx_s_search_page_still_has_what_bp_search_js_wraps() -> None:
    """source/_static/bp-search.js wraps four parts of Sphinx's searchtools.js (the passage under a hit, the query
    splitter, the search that lists the hits, the loaded index's terms); without them it does nothing, silently."""
    script = (SPHINX / "themes" / "basic" / "static" / "searchtools.js").read_text(encoding="utf-8")
    message = "Sphinx's searchtools.js changed: update source/_static/bp-search.js ({})"
    assert "htmlToText: (htmlString, anchor) =>" in script, message.format("Search.htmlToText")
    assert 'if (typeof splitQuery === "undefined") {\n  var splitQuery =' in script, message.format("splitQuery")
    assert "_performSearch: (" in script and "= Search._performSearch(" in script, message.format("_performSearch")
    # each hit: [docname, title, anchor, …], so a place is hit[0] + hit[2]
    assert "[docname, title, anchor, descr, score, filename, kind]" in script, message.format("a hit's fields")
    assert "Search._index = index;" in script and "Search._index.terms" in script, message.format("the index's terms")
    wrapper = (PACKAGE.parents[1] / "source" / "_static" / "bp-search.js").read_text(encoding="utf-8")
    for part in ("Search.htmlToText", "splitQuery", "Search._performSearch", "Search._index.terms"):
        assert part in wrapper  # what this canary guards is what the wrapper uses


def test_the_single_page_still_assembles_from_pickles_beside_the_kept_doctrees() -> None:
    message = "Sphinx keeps its doctrees otherwise: update sphinx_private.release_read_doctrees / release_assembled_sources"
    init = _source(BuildEnvironment.__init__)
    assert "self._write_doc_doctree_cache:" in init and "self._pickled_doctree_cache:" in init, message
    assert "self._pickled_doctree_cache[docname]" in _source(BuildEnvironment.get_doctree), message
    assemble = _source(SingleFileHTMLBuilder.assemble_doctree)
    assert "self.env.get_doctree(master)" in assemble and "_write_doc_doctree_cache" not in assemble, message
    assert "builder.env.get_doctree(includefile)" in _source(inline_all_toctrees), message
    assert "'env-updated'" in _source(Builder.read), message
    assert "tree = tree.deepcopy()" in _source(inline_all_toctrees), message
    assert "self.assemble_doctree()" in _source(SingleFileHTMLBuilder.write_documents), message
    assert "'write-started'" in _source(Builder.write), message
