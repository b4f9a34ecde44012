"""A root for ``{bp-examples}`` and ``{bp-verification}``: the worked examples of one section, and the report of
every scenario; the scenarios are those of the definitions' project (core/paths.py: scenarios_folder) unless a test
gives ``blackpoker_examples`` / ``blackpoker_report``. The sections the report links to are labelled here."""

extensions = ["myst_parser", "blackpoker.sphinxext"]
language = "ja"
