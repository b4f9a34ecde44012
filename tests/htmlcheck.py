"""Checks of built HTML pages shared by the rulebook and action-list tests."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path


def repeated_ids(page: str) -> list[str]:
    """The ids that occur more than once on an HTML page."""
    return sorted(i for i, n in ids_of(page).items() if n > 1)


def ids_of(page: str) -> Counter[str]:
    """How often each id occurs on an HTML page."""

    class Ids(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.ids: Counter[str] = Counter()

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            self.ids.update(value for name, value in attrs if name == "id" and value)

    parser = Ids()
    parser.feed(page)
    return parser.ids


def ids_on_disk() -> Callable[[Path], Counter[str]]:
    """``ids_of`` a built page, each page read and parsed once: for a test that looks up every entry's anchors on
    the few pages redirects lead to (a built site does not change while a test reads it)."""
    parsed: dict[Path, Counter[str]] = {}

    def ids(page: Path) -> Counter[str]:
        if page not in parsed:
            parsed[page] = ids_of(page.read_text(encoding="utf-8"))
        return parsed[page]

    return ids


def redirect_route(page: str, fragment: str) -> str:
    """Where a redirect page's script sends ``#fragment``."""
    match = re.search(r"r=(\{.*?\}),t=r\[h\.slice\(1\)\]\|\|(\"[^\"]*\")", page)
    assert match is not None
    routes, default = json.loads(match.group(1)), json.loads(match.group(2))
    return str(routes.get(fragment, default))
