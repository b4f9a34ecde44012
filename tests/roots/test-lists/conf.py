"""A root for ``{bp-list}``: every list on the page the rulebook gives it (core/kinds.py: RULEBOOK_LISTS), its
sections numbered as the book's (a frame links to 5.3.2 by its number)."""

extensions = ["myst_parser", "blackpoker.sphinxext"]
language = "ja"
numfig = True
