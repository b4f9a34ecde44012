"""A root for ``{bp-downloads}``: the book's, a format's, the full list's and every view's addresses."""

extensions = ["myst_parser", "blackpoker.sphinxext"]
language = "ja"
