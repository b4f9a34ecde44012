"""Sphinx extension: the rulebook's generated content (tables, lists, figures, rulings, changes, index).

The definitions folder comes from the config value ``blackpoker_definitions``. The model is loaded once
per build, when the configuration is ready (``config-inited``: the edition also gives the project title),
and kept on the application; every directive only queries it and declares the YAML files as dependencies,
so editing a definition rebuilds the pages that show it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sphinx.application import Sphinx
from sphinx.config import Config
from sphinx.errors import SphinxError
from sphinx.util.docutils import SphinxDirective

from blackpoker.errors import DefinitionError, DefinitionErrors
from blackpoker.loader import FILES, load_rules
from blackpoker.model import Rules
from blackpoker.paths import DEFINITIONS, ROOT


class DefinitionsFailed(SphinxError):
    """The definitions do not load: the build stops with every ``file:line:col: …`` problem."""

    category = "BlackPoker definitions error"

    def __init__(self, errors: tuple[DefinitionError, ...]) -> None:
        self.errors = errors
        super().__init__("\n" + "\n".join(str(e) for e in errors))


def rules_of(config: Config) -> Rules:
    """The model loaded for this build (kept as a config value so directives reach it without the app)."""
    return config.blackpoker_rules  # type: ignore[no-any-return]


class RulesDirective(SphinxDirective):
    """A directive that reads the model and makes its page depend on every definition file."""

    @property
    def rules(self) -> Rules:
        return rules_of(self.config)

    def note_definitions(self) -> None:
        folder = Path(self.config.blackpoker_definitions)
        for f in FILES:
            self.env.note_dependency(str((folder / f.name).resolve()))


def _load(app: Sphinx, config: Config) -> None:
    try:
        rules = load_rules(Path(config.blackpoker_definitions))
    except DefinitionErrors as exc:
        raise DefinitionsFailed(exc.errors) from None
    config.blackpoker_rules = rules
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
    context["bp_edition"] = {"title": ed.title, "subtitle": ed.subtitle, "edition": ed.edition,
                             "author": ed.author, "release": ed.release, "copyright": ed.copyright}


def _builder_inited(app: Sphinx) -> None:
    if app.builder.name == "singlehtml":
        app.add_css_file("print.css")
        # The single page is only the book's source: a search index for it would be thrown away, and
        # splitting Japanese text for one takes seconds.
        app.builder.search = False  # type: ignore[attr-defined]


def setup(app: Sphinx) -> dict[str, Any]:
    from blackpoker.sphinxext import cover, examples, figures, index, lists, notes, tables

    app.add_config_value("blackpoker_definitions", str(DEFINITIONS), "env", types=frozenset({str}))
    app.add_config_value("blackpoker_rules", None, "", types=frozenset({Rules, type(None)}))
    app.add_config_value("blackpoker_examples", str(ROOT / "scenarios" / "examples"), "env",
                         types=frozenset({str}))
    app.add_config_value("blackpoker_index_terms", "index-terms.yaml", "env", types=frozenset({str}))
    app.connect("config-inited", _load, priority=400)
    app.connect("builder-inited", _builder_inited)
    app.connect("html-page-context", _page_context)
    app.add_directive("bp-table", tables.TableDirective)
    app.add_directive("bp-list", lists.ListDirective)
    app.add_directive("bp-figure", figures.FigureDirective)
    app.add_directive("bp-rulings", notes.RulingsDirective)
    app.add_directive("bp-changes", notes.ChangesDirective)
    app.add_directive("bp-index", index.IndexDirective)
    app.add_directive("bp-cover", cover.CoverDirective)
    app.add_directive("bp-examples", examples.ExamplesDirective)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True, "env_version": 1}
