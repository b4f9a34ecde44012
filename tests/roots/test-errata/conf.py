"""A root for ``{bp-errata}``: the 正誤表 of its own errata file, linking each erratum to its section."""

extensions = ["myst_parser", "blackpoker.sphinxext"]
language = "ja"
blackpoker_errata = "errata.yaml"
