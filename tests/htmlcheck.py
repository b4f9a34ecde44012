"""Checks of built HTML pages shared by the rulebook and action-list tests."""

from __future__ import annotations


def repeated_ids(page: str) -> list[str]:
    """The ids that occur more than once on an HTML page."""
    from html.parser import HTMLParser

    class Ids(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.ids: list[str] = []

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            self.ids += [value for name, value in attrs if name == "id" and value]

    parser = Ids()
    parser.feed(page)
    return sorted({i for i in parser.ids if parser.ids.count(i) > 1})
