"""Sphinx extension: the rulebook's generated content (tables, lists, figures, rulings, changes, index).

The definitions folder comes from the config value ``blackpoker_definitions``. The model is loaded once
per build, when the configuration is ready (``config-inited``: the edition also gives the project title),
and kept on the application; every directive only queries it and declares the YAML files as dependencies,
so editing a definition rebuilds the pages that show it.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

from markupsafe import Markup
from sphinx.application import Sphinx
from sphinx.config import Config
from sphinx.environment import BuildEnvironment

from blackpoker.core.errors import DefinitionErrors
from blackpoker.core.loader import load_rules
from blackpoker.core.model import Rules
from blackpoker.core.paths import DEFINITIONS, scenarios_folder
from blackpoker.infra.fsutil import write_atomic
from blackpoker.render import fonts
from blackpoker.sphinx_private import (
    assemble_without_copies,
    document_inputs,
    documents_read,
    kept,
    kept_or_none,
    numref_domain,
    release_assembled_sources,
    release_pickles,
    release_read_doctrees,
    restore_index_entries,
    shared_state,
    skip_search_index,
)
from blackpoker.sphinxext.ruleset import DefinitionsFailed, RulesDirective, _without_prose_file, rules_of

__all__ = ["DefinitionsFailed", "RulesDirective", "rules_of", "setup"]


def _write_without_prose(app: Sphinx, rules: Rules) -> None:
    """The digest of the whole ruleset but its stories and flavour texts, rewritten only when it changes: the
    dependency of the pages that show no prose (the kept environment compares dependencies by content)."""
    from blackpoker.core.export import rules_digest
    digest = rules_digest(rules, prose=False) + "\n"
    target = _without_prose_file(Path(app.doctreedir))
    if not target.is_file() or target.read_text(encoding="utf-8") != digest:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(digest, encoding="utf-8")


def _load(app: Sphinx, config: Config) -> None:
    try:
        rules = load_rules(Path(config.blackpoker_definitions))
    except DefinitionErrors as exc:
        raise DefinitionsFailed(exc.errors) from None
    config.blackpoker_rules = rules
    _write_without_prose(app, rules)
    ed = rules.edition
    # The titles come from ruleset.yaml, never typed into source/.
    config.project = ed.title
    config.author = ed.author
    config.release = ed.edition
    config.version = ed.version
    config.copyright = ed.copyright.removeprefix("©").strip()
    config.html_title = f"{ed.title} {ed.edition}"
    # Substitutions are parsed as Markdown: escape them so definition text is never read as markup.
    config.myst_substitutions = {**config.myst_substitutions, "bp_title": _md_escape(ed.title)}


def _md_escape(text: str) -> str:
    return "".join("\\" + c if c in "\\`*_{}[]()<>#+-.!|~$&" else c for c in text)


def _page_context(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any) -> None:
    ed = rules_of(app.config).edition
    # The theme prints the title and project raw in places (furo's sidebar brand, its search page) and with
    # ``|e`` in others: as escaped Markup they are safe in both (``|e`` leaves Markup as it is).
    for name in ("docstitle", "shorttitle", "project"):
        if isinstance(context.get(name), str):
            context[name] = Markup.escape(context[name])
    # The single page's title is the raw html_title, which the theme prints as ``title|striptags|e``: text that
    # looks like a tag or an entity would be stripped or decoded (and the book PDF's /Title comes from it).
    if app.builder.name == "singlehtml" and isinstance(context.get("title"), str):
        context["title"] = Markup.escape(context["title"])
    if ed.site:  # the printed book links to the site's other files at their published address (render/book.py)
        context["metatags"] = Markup(context.get("metatags", "")) + Markup('<meta name="bp-site" content="{}">').format(ed.site)
    context["bp_edition"] = {"title": ed.title, "subtitle": ed.subtitle, "edition": ed.edition,
                             "author": ed.author, "release": ed.release, "copyright": ed.copyright}


# furo's sidebar with the action lists' hub after the contents (the book's basic theme has no sidebar)
SIDEBARS = ["sidebar/brand.html", "sidebar/search.html", "sidebar/scroll-start.html", "sidebar/navigation.html",
            "sidebar/lists.html", "sidebar/scroll-end.html"]


def _builder_inited(app: Sphinx) -> None:
    if app.builder.format == "html":  # the font stacks (render/fonts.py), first of the pages' stylesheets
        write_atomic(Path(app.outdir) / "_static" / fonts.STYLESHEET_NAME, fonts.stylesheet())
        app.add_css_file(fonts.STYLESHEET_NAME, priority=200)
    if app.builder.name == "html" and app.config.html_theme == "furo":
        app.config.html_sidebars = {"**": SIDEBARS}
    if app.builder.name == "singlehtml":
        app.add_css_file("print.css")
        # The single page is only the book's source: a search index for it would be thrown away, and
        # splitting Japanese text for one takes seconds.
        skip_search_index(app.builder)


# --- incremental builds: content, not times ---------------------------------------------------------
# The web pages and the book's single page are built one after the other from one kept environment.
# * Sphinx re-reads a document when its source or a noted dependency is newer than the last read. A file
#   can change and keep an old time (copied with its times, restored from an archive), so each document
#   also keeps the SHA-256 of those files; a difference re-reads it.
# * A builder writes again the pages it re-read; a document re-read by the other builder's run is not
#   among them, so each builder remembers which read of every document it last wrote.
# * A page also shows other documents' titles, numbers and labels (navigation, references): when any of
#   those changed, every page is written again.
# A failed build throws the environment away (pipeline/rulebook.py), so nothing is remembered as written that was not.

def _file_digest(app: Sphinx, path: Path) -> str:
    memo: dict[Path, str] = app.__dict__.setdefault("_bp_digests", {})
    if path not in memo:
        memo[path] = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else "missing"
    return memo[path]


def _remember_inputs(app: Sphinx, doctree: Any) -> None:
    env = app.env
    docname = env.docname
    inputs: dict[str, dict[str, str]] = kept(env, "bp_inputs", dict)
    inputs[docname] = {str(p): _file_digest(app, p) for p in document_inputs(env, docname)}


def _purge_doc(app: Sphinx, env: BuildEnvironment, docname: str) -> None:
    """A document read again, or removed, forgets the inputs recorded for it (``env-purge-doc``)."""
    (kept_or_none(env, "bp_inputs") or {}).pop(docname, None)


def _merge_info(app: Sphinx, env: BuildEnvironment, docnames: set[str], other: BuildEnvironment) -> None:
    """Parallel reading: take the inputs and played examples a reading process recorded (``env-merge-info``)."""
    theirs: dict[str, dict[str, str]] = kept_or_none(other, "bp_inputs") or {}
    ours: dict[str, dict[str, str]] = kept(env, "bp_inputs", dict)
    ours.update({doc: theirs[doc] for doc in docnames if doc in theirs})
    played = kept_or_none(other, "bp_examples")
    if played is not None:
        from blackpoker.sphinxext.examples import Examples
        kept(env, "bp_examples", Examples).merge(played)


def _changed_inputs(app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str], removed: set[str]) -> list[str]:
    known: dict[str, dict[str, str]] = kept_or_none(env, "bp_inputs") or {}
    return [doc for doc in sorted(documents_read(env)) if doc not in changed and doc not in removed and (
        doc not in known or any(_file_digest(app, Path(p)) != d for p, d in known[doc].items()))]


def _pages_to_rewrite(app: Sphinx, env: BuildEnvironment) -> list[str]:
    builder = app.builder.name
    shared: dict[str, str] = kept(env, "bp_shared", dict)
    written: dict[str, dict[str, int]] = kept(env, "bp_written", dict)
    state = hashlib.sha256("\0".join(shared_state(env)).encode("utf-8")).hexdigest()
    last = written.get(builder, {})
    read = documents_read(env)
    others_unchanged = shared.get(builder) == state  # else every page shows something new
    docs = [doc for doc, when in sorted(read.items()) if not others_unchanged or last.get(doc) != when]
    shared[builder] = state
    written[builder] = dict(read)
    return docs


def _examples_default(config: Config) -> str:
    """The book's worked examples: ``examples/`` of the scenarios a build of the configured definitions verifies
    (the project's own when it has them, core/paths.py)."""
    return str(scenarios_folder(Path(config.blackpoker_definitions)) / "examples")


def _report_default(config: Config) -> str:
    """Every folder of those scenarios, at any depth: the examples, the frames and the actions first, then a
    project's other folders by their path, then the scenarios folder itself (the build verifies every scenario
    under it, pipeline/build.py, so the report shows them all)."""
    from blackpoker.sphinxext.examples import report_folders
    return os.pathsep.join(str(folder) for folder in report_folders(scenarios_folder(Path(config.blackpoker_definitions))))


def setup(app: Sphinx) -> dict[str, Any]:
    from blackpoker.sphinxext import (
        cover,
        downloads,
        errata,
        examples,
        figures,
        index,
        labels,
        lists,
        notes,
        search,
        tables,
        typeset,
    )

    app.add_config_value("blackpoker_definitions", str(DEFINITIONS), "env", types=frozenset({str}))
    app.add_config_value("blackpoker_rules", None, "", types=frozenset({Rules, type(None)}))
    # Folders of the book's worked examples shown by {bp-examples}, separated by os.pathsep (a -D override is one
    # string); by default those of the definitions' scenarios (a default computed from the configuration).
    app.add_config_value("blackpoker_examples", _examples_default, "env", types=frozenset({str}))
    # Folders of scenarios the verification report shows (every scenario the build runs).
    app.add_config_value("blackpoker_report", _report_default, "env", types=frozenset({str}))
    app.add_config_value("blackpoker_index_terms", "index-terms.yaml", "env", types=frozenset({str}))
    app.add_config_value("blackpoker_errata", "errata.yaml", "env", types=frozenset({str}))
    app.connect("config-inited", _load, priority=400)
    app.connect("builder-inited", _builder_inited)
    app.connect("builder-inited", labels.add_japanese_labels)
    app.connect("builder-inited", search.load_words)
    app.connect("builder-inited", search.load_names)
    app.connect("build-finished", search.save_words)
    app.connect("build-finished", labels.fill_script_labels)
    app.connect("build-finished", labels.fix_fixed_labels)
    app.connect("html-page-context", _page_context)
    app.connect("doctree-read", _remember_inputs)
    app.connect("doctree-read", index.add_term_entries)
    app.connect("env-updated", restore_index_entries)
    app.connect("env-updated", release_read_doctrees)
    app.connect("env-updated", release_pickles)
    app.connect("doctree-resolved", release_pickles)
    app.connect("write-started", assemble_without_copies)
    app.connect("doctree-resolved", release_assembled_sources)
    app.connect("env-purge-doc", _purge_doc)
    app.connect("env-merge-info", _merge_info)
    app.connect("env-get-outdated", _changed_inputs)
    app.connect("env-get-updated", _pages_to_rewrite)
    app.add_domain(numref_domain(), override=True)
    app.add_directive("bp-table", tables.TableDirective)
    app.add_post_transform(tables.OneIdPerTable)
    app.add_post_transform(typeset.ReaderTypography)
    app.add_directive("bp-list", lists.ListDirective)
    app.add_directive("bp-figure", figures.FigureDirective)
    app.add_directive("bp-rulings", notes.RulingsDirective)
    app.add_role("bp-amended", notes.amended_role)
    app.add_directive("bp-changes", notes.ChangesDirective)
    app.add_directive("bp-index", index.IndexDirective)
    app.add_directive("bp-cover", cover.CoverDirective)
    app.add_directive("bp-colophon", cover.ColophonDirective)
    app.add_directive("bp-downloads", downloads.DownloadsDirective)
    app.add_directive("bp-errata", errata.ErrataDirective)
    app.add_directive("bp-examples", examples.ExamplesDirective)
    app.add_directive("bp-verification", examples.VerificationDirective)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True, "env_version": 1}
