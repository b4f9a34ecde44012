"""A root for ``{bp-table}``: every table of the v8.1 definitions."""

extensions = ["myst_parser", "blackpoker.sphinxext"]
language = "ja"
numfig = True
