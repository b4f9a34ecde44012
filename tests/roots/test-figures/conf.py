"""A root for ``{bp-figure}``: every figure the extension draws (the book's, each flow of ruleset.yaml, a frame's
layout), numbered as figures."""

extensions = ["myst_parser", "blackpoker.sphinxext"]
language = "ja"
numfig = True
numfig_format = {"figure": "図 %s"}
