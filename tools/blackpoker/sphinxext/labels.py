"""The theme's own labels in Japanese: furo has no Japanese catalogue, so the site showed "On this page",
"Back to top", "Next" and "Made with" on Japanese pages.

The translations are a message catalogue added with Sphinx's public ``add_message_catalog`` under Sphinx's own
catalogue name: it is consulted for every message Sphinx's Japanese catalogue lacks (the theme's labels). The
catalogue is compiled (``sphinx_private.write_message_catalog``) into the build's work folder, never into the source.
"""

from __future__ import annotations

from pathlib import Path

from sphinx.application import Sphinx

from blackpoker.infra.fsutil import write_atomic
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
    # Sphinx's own permalinks (its Japanese catalogue lacks these newer messages) and the theme's footer
    "Link to this heading": "この見出しへのリンク",
    "Link to this image": "この図へのリンク",
    "Link to this table": "この表へのリンク",
    "Link to this code": "このコードへのリンク",
    "Link to this definition": "この定義へのリンク",
    "Copyright": "著作権表示",
    "Copyright &#169; %(copyright)s": "&#169; %(copyright)s",
}

# what the theme writes into its templates without a message id: accessible names and icon titles, replaced in
# every page the build wrote (the exact markup, so nothing else can match)
FIXED = {
    'aria-label="Toggle site navigation sidebar"': 'aria-label="目次サイドバーの開閉"',
    'aria-label="Toggle table of contents sidebar"': 'aria-label="ページ内目次の開閉"',
    'aria-label="Toggle Light / Dark / Auto color theme"': 'aria-label="表示の切り替え(ライト/ダーク/自動)"',
    "<title>Menu</title>": "<title>メニュー</title>",
    "<title>Contents</title>": "<title>目次</title>",
    "<title>Expand</title>": "<title>開く</title>",
    "<title>Light mode</title>": "<title>ライトモード</title>",
    "<title>Dark mode</title>": "<title>ダークモード</title>",
    "<title>Auto light/dark, in light mode</title>": "<title>自動(今はライト)</title>",
    "<title>Auto light/dark, in dark mode</title>": "<title>自動(今はダーク)</title>",
}


def fix_fixed_labels(app: Sphinx, exception: BaseException | None) -> None:
    """``build-finished``: the theme's fixed English names in Japanese, in every HTML page of the output."""
    if exception is not None or app.config.language != "ja":
        return
    for page in Path(app.outdir).glob("**/*.html"):
        text = page.read_text(encoding="utf-8")
        fixed = text
        for english, japanese in FIXED.items():
            fixed = fixed.replace(english, japanese)
        if fixed != text:
            write_atomic(page, fixed)


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
