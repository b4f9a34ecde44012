"""A root for ``{bp-cover}`` and ``{bp-colophon}``: the title page and the 奥付, from the edition of ruleset.yaml."""

extensions = ["myst_parser", "blackpoker.sphinxext"]
language = "ja"
