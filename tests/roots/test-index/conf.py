"""A root for ``{bp-index}`` (the 索引) and the index terms' search entries, with the v8.1 definitions and a few
terms of its own. The entries it lists are on the rulebook's other pages, not here: the test reads the links from
the doctree, so Sphinx is told not to warn about them."""

extensions = ["myst_parser", "blackpoker.sphinxext"]
language = "ja"
blackpoker_index_terms = "index-terms.yaml"
suppress_warnings = ["ref.ref"]
