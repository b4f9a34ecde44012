"""The theme's own labels in Japanese: furo has no Japanese catalogue, so the site showed "On this page",
"Back to top", "Next" and "Made with" on Japanese pages.

The translations are a message catalogue added with Sphinx's public ``add_message_catalog`` under Sphinx's own
catalogue name: it is consulted for every message Sphinx's Japanese catalogue lacks (the theme's labels). The
catalogue is compiled (``sphinx_private.write_message_catalog``) into the build's work folder, never into the source.
"""

from __future__ import annotations

from pathlib import Path

from sphinx.application import Sphinx

from blackpoker.sphinx_private import fill_script_messages, write_message_catalog

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
    write_message_catalog(folder / "ja" / "LC_MESSAGES" / "sphinx.mo", "ja", "sphinx", LABELS)
    app.add_message_catalog("sphinx", folder)


# messages of the search page that Sphinx's Japanese catalogue for its scripts leaves empty (the page said
# nothing when a search found something); one form, as Japanese has no plural
SCRIPT_LABELS = {
    "Search finished, found one page matching the search query.":
        "検索が完了しました。${resultCount} ページ見つかりました。",
}


def fill_script_labels(app: Sphinx, exception: BaseException | None) -> None:
    """``build-finished``: fill the messages Sphinx's catalogue for the page scripts leaves empty in Japanese."""
    if exception is None and app.config.language == "ja":
        fill_script_messages(Path(app.outdir), SCRIPT_LABELS)
