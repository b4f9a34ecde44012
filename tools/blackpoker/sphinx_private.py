"""The one place that relies on what Sphinx does not promise: its private attributes, the environment's
internals, the files and markup it writes, and the libraries it brings along. ``tests/test_sphinx_private.py``
holds a canary for each part, which fails with a message naming it when Sphinx changes.

* Search index entries: Sphinx keeps the search index's index entries (``env._search_index_index_entries``,
  docname → entries) only in the environment, and restores the rest of the index from ``searchindex.js``. The
  book's single-page build shares the environment and saves it without them, so an incremental build of the site
  lost the index entries of every page it did not write again. Before writing, the entries of every page are put
  back from its doctree, in page order, so the index is the same as a cold build's.
* ``{numref}``: Sphinx resolves each one by loading its target's whole doctree (``env.get_doctree``, unpickled
  anew for every reference). The rulebook has some forty, mostly into its biggest pages, and the single page
  resolves them all at once: that was a quarter of an edit's Sphinx time. The domain of :func:`numref_domain`
  reads each target doctree once per builder run and keeps of it only what a lookup reads: each labelled
  node's class and attributes, without its children (:func:`numref_targets`). Keeping the whole doctree held
  the format page (0.5 GB at 5,000 actions) for the rest of the web pages' build, beside the copy being written.
* The environment's bookkeeping that the extension's content-keyed incremental builds read: which documents were
  read and when (``all_docs``), each one's dependencies, and what one page shows of the others (titles, contents,
  numbers, labels); and the extension's own records kept on the environment (pickled with it).
* The HTML builder's ``search`` switch, which the single page turns off.
* The doctrees Sphinx keeps in memory (``env._write_doc_doctree_cache``: every document as read, for the writer;
  ``env._pickled_doctree_cache``: every pickle loaded). The single page assembles its own copy of every document,
  so at scale (thousands of entries) those caches doubled its memory: :func:`release_read_doctrees` and
  :func:`release_assembled_sources` drop them when the single page no longer needs them; and it copies every
  document it loads to assemble the page, which :func:`assemble_without_copies` spares. The web pages load each
  pickle to write its page: :func:`release_pickles` keeps none of them.
* ``_static/translations.js``: Sphinx copies its catalogue for the page scripts as
  ``Documentation.addTranslations({...});``; the messages its Japanese catalogue leaves empty are filled in.
* The message catalogue: compiled with Babel, which Sphinx itself uses for its catalogues.
* The search page's script (``searchtools.js``), which ``source/_static/bp-search.js`` wraps, being JavaScript
  and so not here: the passage under a hit (``Search.htmlToText``), the query splitter (``splitQuery``), the
  search that lists the hits (``Search._performSearch``, each hit ``[docname, title, anchor, …]``) and the index's
  terms (``Search._index.terms``).
* The single page's markup, which the book is cut from (``render/book.py``): where each document starts, internal
  links, permalinks (``headerlink``), stylesheets; and singlehtml's ``#document-x#label`` links.

Sphinx itself is imported only where a function needs it, so the book's workers, which read the markup patterns,
do not load it.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from blackpoker.infra.fsutil import write_atomic

if TYPE_CHECKING:
    from docutils import nodes
    from sphinx.application import Sphinx
    from sphinx.builders import Builder
    from sphinx.domains.std import StandardDomain
    from sphinx.environment import BuildEnvironment

T = TypeVar("T")

# --- search index entries ----------------------------------------------------------------------------


def _entries(doctree: nodes.document) -> list[tuple[str, str, str]]:
    """A page's index entries as Sphinx's search index keeps them (``IndexBuilder.feed``)."""
    from sphinx import addnodes
    from sphinx.util.index_entries import split_index_msg

    found: set[tuple[str, str, str]] = set()
    for node in doctree.findall(addnodes.index):
        for entry_type, value, target_id, main, _key in node["entries"]:
            try:
                parts = split_index_msg(entry_type, value)
            except ValueError:
                continue
            found |= {(part, target_id or "", main) for part in parts}
    return sorted(found)


def restore_index_entries(app: Sphinx, env: BuildEnvironment) -> None:
    """``env-updated`` (html builder): every page's index entries, in page order."""
    if app.builder.name != "html":
        return
    kept: dict[str, list[tuple[str, str, str]]] = env._search_index_index_entries
    restored = {doc: _entries(env.get_doctree(doc)) for doc in sorted(env.found_docs)}
    kept.clear()  # in place: the search index builder holds this very dict
    kept.update(restored)


# --- {numref}: one read of each target doctree per builder run -----------------------------------------


@functools.cache
def numref_domain() -> type[StandardDomain]:
    """The standard domain whose ``{numref}`` lookups share the target doctrees (``app.add_domain(…, override=True)``)."""
    from sphinx.domains.std import StandardDomain

    class NumrefStandardDomain(StandardDomain):
        def resolve_xref(self, env: BuildEnvironment, fromdocname: str, builder: Builder, typ: str, target: str,
                         node: Any, contnode: nodes.Element) -> nodes.reference | None:
            if typ != "numref":
                return super().resolve_xref(env, fromdocname, builder, typ, target, node, contnode)
            shared: dict[str, Any] = builder.__dict__.setdefault("_bp_numref_doctrees", {})
            read = env.get_doctree

            def get_doctree(docname: str) -> Any:
                if docname not in shared:
                    shared[docname] = numref_targets(read(docname), self)
                return shared[docname]

            env.get_doctree = get_doctree  # type: ignore[method-assign]  # for this lookup only: an instance attribute shadows the method
            try:
                return super().resolve_xref(env, fromdocname, builder, typ, target, node, contnode)
            finally:
                del env.get_doctree

    return NumrefStandardDomain


class NumrefTargets:
    """What a ``{numref}`` lookup reads of its target's doctree (``.ids``: label id → node)."""

    def __init__(self, ids: dict[str, nodes.Element]) -> None:
        self.ids = ids


def numref_targets(doctree: nodes.document, domain: StandardDomain) -> NumrefTargets:
    """The labelled nodes of ``doctree`` as a lookup reads them: for its type (``get_enumerable_node_type``)
    and its number (``get_fignumber``: the node's ids). A node is kept without its children and its document,
    so the doctree can go; a code block's container keeps them (its type is read from its children)."""
    kept: dict[str, nodes.Element] = {}
    for ident, node in doctree.ids.items():
        light = node.deepcopy() if domain.get_enumerable_node_type(node) == "code-block" else node.copy()
        for part in light.findall():
            part.document = None  # type: ignore[assignment]  # a copy shares the document, which would keep it whole
        kept[ident] = light
    return NumrefTargets(kept)


# --- the environment's bookkeeping ---------------------------------------------------------------------


def kept(env: BuildEnvironment, name: str, default: Callable[[], T]) -> T:
    """The extension's record ``name`` on the environment (pickled with it), made by ``default`` if missing."""
    if name not in env.__dict__:
        env.__dict__[name] = default()
    record: T = env.__dict__[name]
    return record


def kept_or_none(env: BuildEnvironment, name: str) -> Any:
    """The extension's record ``name`` on the environment, or None (read only: nothing is added)."""
    return env.__dict__.get(name)


def documents_read(env: BuildEnvironment) -> dict[str, int]:
    """Every document and when it was last read (``all_docs``: a new read, a new value)."""
    return env.all_docs


def document_inputs(env: BuildEnvironment, docname: str) -> list[Path]:
    """The files a document was read from: its source, then the dependencies it noted."""
    return [Path(env.doc2path(docname)), *sorted(Path(p) for p in env.dependencies.get(docname, ()))]


def shared_state(env: BuildEnvironment) -> list[str]:
    """What one page shows of the others: titles, contents, section and figure numbers, the toctree, labels."""
    std = env.domains.standard_domain
    return [repr(sorted((d, t.pformat()) for d, t in env.titles.items())),
            repr(sorted((d, t.pformat()) for d, t in env.tocs.items())),
            repr(sorted(env.toc_secnumbers.items())), repr(sorted(env.toc_fignumbers.items())),
            repr(sorted(env.toctree_includes.items())),
            repr(sorted(std.labels.items())), repr(sorted(std.anonlabels.items()))]


# --- the HTML builder ------------------------------------------------------------------------------------


def skip_search_index(builder: Builder) -> None:
    """No search index from this builder (the HTML builders' ``search`` switch)."""
    builder.search = False  # type: ignore[attr-defined]  # only the HTML builders have `search`


# --- the single page's memory --------------------------------------------------------------------------


def release_read_doctrees(app: Sphinx, *_: Any) -> None:
    """``env-updated`` (the single page only): the documents as read are never written one by one (the single
    page assembles fresh copies from the pickles), so the environment need not keep them while it numbers the
    figures (which loads every document once more) and assembles the page."""
    if app.builder.name == "singlehtml":
        app.env._write_doc_doctree_cache.clear()


def release_pickles(app: Sphinx, *_: Any) -> None:
    """``env-updated`` and ``doctree-resolved`` (the web pages only): Sphinx keeps the bytes of every doctree it
    loads (``_pickled_doctree_cache``) for the whole build, though each page is loaded to be written once; the
    index entries and figure numbers load them all first. Read again from their files, should one be needed."""
    if app.builder.name == "html":
        app.env._pickled_doctree_cache.clear()


def assemble_without_copies(app: Sphinx, *_: Any) -> None:
    """``write-started`` (the single page only): Sphinx assembles the page from documents it loads from their
    pickles and copies each (``inline_all_toctrees``: ``tree = tree.deepcopy()``) before throwing the loaded one
    away; until the page is resolved, a loaded document is its own copy, so the biggest one is never held twice."""
    if app.builder.name != "singlehtml":
        return
    env = app.env
    read = env.get_doctree

    def get_doctree(docname: str) -> nodes.document:
        tree = read(docname)
        tree.deepcopy = lambda: tree  # type: ignore[method-assign]  # a fresh tree nobody else holds
        return tree

    env.get_doctree = get_doctree  # type: ignore[method-assign]  # an instance attribute shadows the method


def release_assembled_sources(app: Sphinx, *_: Any) -> None:
    """``doctree-resolved`` (the single page only): its one document is assembled and resolved; neither the
    pickles it was assembled from nor the doctrees the {numref} lookups shared are read again."""
    if app.builder.name == "singlehtml":
        app.env.__dict__.pop("get_doctree", None)  # assemble_without_copies's (a {numref} lookup may have taken it)
        app.env._pickled_doctree_cache.clear()
        app.builder.__dict__.pop("_bp_numref_doctrees", None)


# --- translations.js -----------------------------------------------------------------------------------


def fill_script_messages(outdir: Path, labels: Mapping[str, str]) -> None:
    """Give the messages of ``_static/translations.js`` that are empty the text in ``labels`` (nothing when
    the build wrote no such file)."""
    path = Path(outdir) / "_static" / "translations.js"
    if not path.is_file():
        return
    text = path.read_text(encoding="utf-8")
    head, _, rest = text.partition("(")
    body, _, tail = rest.rpartition(")")
    data = json.loads(body)
    messages = data["messages"]
    for message, label in labels.items():
        if not any(messages.get(message) or ()):
            messages[message] = [label] if isinstance(messages.get(message), list) else label
    write_atomic(path, f"{head}({json.dumps(data, ensure_ascii=False, indent=4, sort_keys=True)}){tail}")


# --- the message catalogue -----------------------------------------------------------------------------


def write_message_catalog(target: Path, locale: str, domain: str, messages: Mapping[str, str]) -> None:
    """Compile ``messages`` (message id → translation) into the ``.mo`` file ``target``."""
    from babel.messages.catalog import Catalog
    from babel.messages.mofile import write_mo

    catalog = Catalog(locale=locale, domain=domain)
    for message, translation in messages.items():
        catalog.add(message, translation)
    target.parent.mkdir(parents=True, exist_ok=True)
    with target.open("wb") as f:
        write_mo(f, catalog)


# --- the single page's markup --------------------------------------------------------------------------

# where a document starts in the single page (the HTML writer's start_of_file): group 1 is its name
DOCUMENT_START = re.compile(r'<span id="document-([^"]+)"></span>')
# a link within the book: group 1 the start of the tag, group 2 the fragment
INTERNAL_LINK = re.compile(r'(<a class="reference internal" href="#([^"]+)")')
# the permalink beside a heading
HEADERLINK = re.compile(r'<a class="headerlink".*?</a>', re.S)
# a stylesheet of the page (the basic theme's layout): group 1 its address without the query
STYLESHEET = re.compile(r'<link rel="stylesheet" type="text/css" href="([^"?]+)[^"]*" />')
# singlehtml's links to a label in another document read '#document-x#label' (toolchain notes §3)
_DOUBLE_FRAGMENT = re.compile(r'href="#document-[^"#]*#')


def fix_single_html(index: Path) -> None:
    """Keep the last fragment of singlehtml's ``#document-x#label`` links, so they lead to the label."""
    text = index.read_text(encoding="utf-8")
    index.write_text(_DOUBLE_FRAGMENT.sub('href="#', text), encoding="utf-8")
