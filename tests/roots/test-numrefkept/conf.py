"""A root for what the web pages' numref keeps (test_sphinxext_env.py): a numbered page with a big section and a
code block, and a page that refers to both. ``bp_test_release`` (a confoverride) puts the toolkit's numref domain
in place of Sphinx's and releases the pickles; ``KEPT`` is what the build held at its end, read by the test."""

from blackpoker.sphinx_private import numref_domain, release_pickles

numfig = True
extensions: list[str] = []
KEPT: dict[str, object] = {}


def _probe(app, exc):
    KEPT["pickled"] = sorted(app.env._pickled_doctree_cache)
    targets = app.builder.__dict__.get("_bp_numref_doctrees", {}).get("a")
    if targets is None:
        return
    KEPT["nodes"] = sum(1 for node in targets.ids.values() for _ in node.findall())
    KEPT["documents"] = sum(1 for node in targets.ids.values() for part in node.findall()
                            if getattr(part, "_document", None))


def _release(app, config):
    if config.bp_test_release:
        app.add_domain(numref_domain(), override=True)
        app.connect("env-updated", release_pickles)
        app.connect("doctree-resolved", release_pickles)


def setup(app):
    app.add_config_value("bp_test_release", False, "env")
    app.connect("config-inited", _release)
    app.connect("build-finished", _probe)
