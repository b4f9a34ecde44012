"""Sphinx configuration of the BlackPoker rulebook (HTML with furo; the PDF build overrides the theme).

The title, edition and author are not written here: the extension reads them from definitions/ruleset.yaml.
Nothing depends on the clock (no %Y, no last-updated), so two builds give identical output.
"""


from blackpoker.core.paths import DEFINITIONS

project = "BlackPoker"  # replaced from ruleset.yaml by the extension
language = "ja"
extensions = ["myst_parser", "blackpoker.sphinxext"]
source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "README.md"]
templates_path = ["_templates"]

myst_enable_extensions = ["colon_fence", "deflist", "substitution", "fieldlist"]
myst_heading_anchors = 0
myst_substitutions: dict[str, str] = {}

blackpoker_definitions = str(DEFINITIONS)
blackpoker_index_terms = "index-terms.yaml"

numfig = True
numfig_secnum_depth = 1
numfig_format = {"figure": "図 %s", "table": "表 %s", "code-block": "コード %s", "section": "%s 節"}

html_theme = "furo"
html_static_path = ["_static"]
html_css_files = ["bp.css"]
# on the search page, passages without the names' readings (guarded: a no-op on the other pages)
html_js_files = [("bp-search.js", {"defer": "defer"}), ("bp-figures.js", {"defer": "defer"})]
html_search_language = "ja"
# TinySegmenter, as by default, with each text's words remembered between builds (sphinxext/search.py)
html_search_options = {"type": "blackpoker.sphinxext.search.RememberingSplitter"}
html_last_updated_fmt = None
html_show_sourcelink = False
html_copy_source = False
html_show_sphinx = False
html_use_index = False  # the book's own index is 索引 (sakuin.md); Sphinx's would be an empty page
html_theme_options = {"navigation_with_keys": True}
# the ♠♡ mark of the action lists (one file, beside them), as the site's icon and logo
html_favicon = "../templates/actionlist/static/bp-mark.svg"
html_logo = "../templates/actionlist/static/bp-mark.svg"

# The action lists and PDFs beside the site are produced by other parts of the same build.
linkcheck_ignore = [r"^actionlist/", r"^blackpoker.*\.pdf$"]
