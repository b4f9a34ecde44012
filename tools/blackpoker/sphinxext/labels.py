"""The theme's own labels in Japanese: furo has no Japanese catalogue, so the site showed "On this page",
"Back to top", "Next" and "Made with" on Japanese pages.

The translations are a message catalogue added with Sphinx's public ``add_message_catalog`` under Sphinx's own
catalogue name: it is consulted for every message Sphinx's Japanese catalogue lacks (the theme's labels). The
catalogue is compiled (babel, which Sphinx itself uses) into the build's work folder, never into the source.
"""

from __future__ import annotations

import json
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from sphinx.application import Sphinx

from blackpoker.infra.fsutil import write_atomic

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


# messages of the search page that Sphinx's Japanese catalogue for its scripts leaves empty (the page said
# nothing when a search found something); one form, as Japanese has no plural
SCRIPT_LABELS = {
    "Search finished, found one page matching the search query.":
        "検索が完了しました。${resultCount} ページ見つかりました。",
}


def fill_script_labels(app: Sphinx, exception: BaseException | None) -> None:
    """``build-finished``: fill the messages Sphinx's ``translations.js`` for Japanese has empty."""
    path = Path(app.outdir) / "_static" / "translations.js"
    if exception is not None or app.config.language != "ja" or not path.is_file():
        return
    text = path.read_text(encoding="utf-8")
    head, _, rest = text.partition("(")
    body, _, tail = rest.rpartition(")")
    data = json.loads(body)
    messages = data["messages"]
    for message, label in SCRIPT_LABELS.items():
        if not any(messages.get(message) or ()):
            messages[message] = [label] if isinstance(messages.get(message), list) else label
    write_atomic(path, f"{head}({json.dumps(data, ensure_ascii=False, indent=4, sort_keys=True)}){tail}")
