"""A root for what the extension does to the site's pages with the rulebook's theme (furo) and search: the theme's
labels in Japanese, one id per table, the font stacks, and every entry name and 索引 term as a search word whole."""

from blackpoker.core.paths import SOURCE

extensions = ["myst_parser", "blackpoker.sphinxext"]
language = "ja"
templates_path = [str(SOURCE / "_templates")]  # the rulebook's sidebar (the lists' hub) and page template
html_theme = "furo"
html_search_language = "ja"
html_search_options = {"type": "blackpoker.sphinxext.search.RememberingSplitter"}
blackpoker_index_terms = "index-terms.yaml"
