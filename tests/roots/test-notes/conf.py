"""A root for ``{bp-rulings}``, ``{bp-amended}`` and ``{bp-changes}`` with the v8.1 definitions. The entries they link
to are on the rulebook's other pages, not here: the test reads the links from the doctree, so Sphinx is told not
to warn about them."""

extensions = ["myst_parser", "blackpoker.sphinxext"]
language = "ja"
suppress_warnings = ["ref.ref"]
