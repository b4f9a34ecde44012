"""A root of mistakes: each directive of the extension used wrongly once, and a malformed index terms file and
errata file; each must be reported at its place, and the rest of the page built."""

extensions = ["myst_parser", "blackpoker.sphinxext"]
language = "ja"
blackpoker_index_terms = "bad-terms.yaml"
blackpoker_errata = "bad-errata.yaml"
