"""A root for the single page's memory (test_sphinxext_env.py): a chapter with a figure and fifty paragraphs, and a
chapter that refers to it. ``bp_test_release`` (a confoverride) connects the toolkit's handlers that release
the documents Sphinx holds; ``KEPT`` is what the build held at its end, read by the test."""

from blackpoker import sphinx_private

numfig = True
extensions: list[str] = []
KEPT: dict[str, object] = {}


def _probe(app, exc):
    KEPT["read"] = len(app.env._write_doc_doctree_cache)
    KEPT["pickled"] = sorted(app.env._pickled_doctree_cache)
    KEPT["shadowed"] = "get_doctree" in app.env.__dict__


def _release(app, config):
    if config.bp_test_release:
        app.add_domain(sphinx_private.numref_domain(), override=True)
        app.connect("env-updated", sphinx_private.release_read_doctrees)
        app.connect("write-started", sphinx_private.assemble_without_copies)
        app.connect("doctree-resolved", sphinx_private.release_assembled_sources)


def setup(app):
    app.add_config_value("bp_test_release", False, "env")
    app.connect("config-inited", _release)
    app.connect("build-finished", _probe)
