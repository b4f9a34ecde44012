"""A root for numref's shared doctrees (test_sphinxext_env.py): a page with a figure and a page that refers to it
six times; ``bp_test_shared_numref`` (a confoverride) puts the toolkit's numref domain in place of Sphinx's."""

from blackpoker.sphinx_private import numref_domain

numfig = True
extensions: list[str] = []


def _domain(app, config):
    if config.bp_test_shared_numref:
        app.add_domain(numref_domain(), override=True)


def setup(app):
    app.add_config_value("bp_test_shared_numref", False, "env")
    app.connect("config-inited", _domain)
