"""A root for the extension's incremental builds (content, not times): a page that shows entries of the definitions
(the fogs, the shortest list) and a page that shows nothing of them. The actions the fogs link to are on the
rulebook's other pages, not here, so Sphinx is told not to warn about them."""

extensions = ["myst_parser", "blackpoker.sphinxext"]
language = "ja"
suppress_warnings = ["ref.ref"]
