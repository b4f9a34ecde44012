"""The theme's own labels in Japanese: furo has no Japanese catalogue, so the site showed "On this page",
"Back to top", "Next" and "Made with" on Japanese pages.

The translations are a message catalogue added with Sphinx's public ``add_message_catalog`` under Sphinx's own
catalogue name: it is consulted for every message Sphinx's Japanese catalogue lacks (the theme's labels). The
catalogue is compiled (babel, which Sphinx itself uses) into the build's work folder, never into the source.
"""

from __future__ import annotations

from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from sphinx.application import Sphinx

# the theme's message ids, exactly as its templates give them
LABELS = {
    "Skip to content": "本文へ移動",
    "On this page": "このページの内容",
    "Back to top": "ページの先頭へ",
    "Next": "次へ",
    "Previous": "前へ",
    "Made with ": "テーマ: ",
    "Search": "検索",
    "Index": "索引",
}


def add_japanese_labels(app: Sphinx) -> None:
    """``builder-inited``: compile the labels and add them behind Sphinx's Japanese catalogue."""
    if app.config.language != "ja":
        return
    folder = Path(app.doctreedir) / "labels"
    target = folder / "ja" / "LC_MESSAGES" / "sphinx.mo"
    target.parent.mkdir(parents=True, exist_ok=True)
    catalog = Catalog(locale="ja", domain="sphinx")
    for message, label in LABELS.items():
        catalog.add(message, label)
    with target.open("wb") as f:
        write_mo(f, catalog)
    app.add_message_catalog("sphinx", folder)
