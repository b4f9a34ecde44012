"""The one place that reaches into WeasyPrint's private API (and its HTML parser's): each stylesheet parsed once per
process, not per part; the parser's patterns compiled once (:func:`keep_html_patterns`).

WeasyPrint parses every ``<link rel="stylesheet">`` and ``<style>`` of a document again for each document it lays
out (``weasyprint.css.find_stylesheets`` makes a new ``CSS`` for each); a build lays out hundreds of parts with the
same few stylesheets (a v8.1 cold build parsed 277, of which 26 differ; a profile found the parsing 18% of a
small build's worker time, 8% of v8.1's). The public way to share a parsed
``CSS`` (``HTML.render(stylesheets=[...])``) gives it the *user* origin, below the author's in the cascade (and above
it for ``!important``), so the parts would not look the same. Here the ``CSS`` that ``find_stylesheets`` makes is
kept instead, with the author origin and the document order it had.

What a parsed stylesheet keeps from its document, and why sharing it gives the same document:

* its selectors and declarations (the ``matcher``), resolved against its base URL: the key holds the text, the
  base URL, the media type, the font configuration (one per process, see pdfparts) and, for a linked file, the
  file's address and content (an edited file is parsed again) and where the document's fetcher may read;
* its ``@page`` rules: WeasyPrint gives all sheets of a document one list and applies the whole list once per
  sheet; a shared sheet keeps its own, and the sheets apply theirs in document order, which leaves the same
  declarations winning. Every sheet is therefore parsed with a list of its own, shared or not;
* ``@layer``, ``@counter-style``, ``@color-profile`` and ``@import`` put things into the document (or read
  another file): a sheet that has any of them is parsed for its document each time, as WeasyPrint does.

``tests/test_weasyprint_private.py`` fails loudly when WeasyPrint renames what this relies on.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Hashable
from pathlib import Path
from typing import Any

KEPT = 256  # parsed stylesheets kept per process (a part's own small <style> differs from part to part)
_ARGUMENTS = frozenset({"string", "url", "base_url", "url_fetcher", "media_type", "font_config", "_check_mime_type",
                        "page_rules", "layers", "counter_style", "color_profiles"})  # what find_stylesheets passes

_sheets: OrderedDict[Hashable, Any] = OrderedDict()
_lock = threading.Lock()
parses = 0  # stylesheets parsed in this process (kept or not, @imports included): tells an @import's parse


def _file_digest(url: str) -> str | None:
    """The SHA-256 of a ``file:`` address's file (None when it is another kind or cannot be read): a file edited
    between two parts, even within the file system's time resolution, is parsed again."""
    import hashlib
    from urllib.parse import unquote, urlsplit
    from urllib.request import url2pathname

    parts = urlsplit(url)
    if parts.scheme.lower() != "file":
        return None
    try:
        return hashlib.sha256(Path(url2pathname(unquote(parts.path))).read_bytes()).hexdigest()
    except OSError:
        return None


def _key(kwargs: dict[str, Any]) -> Hashable | None:
    """What a document's stylesheet depends on; None for one that is not kept (see the module)."""
    scope = getattr(kwargs.get("url_fetcher"), "scope", None)
    if scope is None or set(kwargs) - _ARGUMENTS:  # a fetcher that does not say what it may read; another call
        return None
    common = (kwargs.get("media_type"), kwargs.get("font_config"), scope)
    if isinstance(kwargs.get("string"), str):
        return ("style", kwargs["string"], kwargs.get("base_url"), *common)
    url = kwargs.get("url")
    if not isinstance(url, str):
        return None
    if url.startswith("data:"):
        return ("link", url, None, *common)
    content = _file_digest(url)
    return None if content is None else ("link", url, content, *common)


def shared_css(css_class: Any) -> Any:
    """A stand-in for ``CSS`` in ``weasyprint.css`` that keeps each stylesheet it parses (see the module)."""

    def parse(kwargs: dict[str, Any]) -> Any:
        global parses
        parses += 1
        return css_class(**kwargs)

    def make(**kwargs: Any) -> Any:
        if "matcher" in kwargs:  # an @import's sheet, parsed into its importer's matcher and lists
            return parse(kwargs)
        kwargs["page_rules"] = []  # every sheet of a document its own list, kept or not (see the module)
        key = _key(kwargs)
        if key is None:
            return parse(kwargs)
        with _lock:
            kept = _sheets.get(key)
            if kept is not None:
                _sheets.move_to_end(key)
                return kept
        own: dict[str, Any] = {"layers": [], "counter_style": {}, "color_profiles": {}}
        before = parses
        sheet = parse({**kwargs, **own})
        if parses != before + 1 or any(own.values()):  # an @import, or it added to its document: parsed for it
            return parse(kwargs)
        with _lock:
            _sheets[key] = sheet
            while len(_sheets) > KEPT:
                _sheets.popitem(last=False)
        return sheet

    make.wrapped = css_class  # type: ignore[attr-defined]  # marks the stand-in, so it is put in once
    return make


class _Patterns(dict[tuple[Any, bool], "re.Pattern[str]"]):
    """tinyhtml5's cache of ``chars_until`` patterns, filled under the key it is looked up by.

    tinyhtml5 2.1 stores each new pattern with ``characters = cache[(characters, opposite)] = regex``: Python binds
    ``characters`` to the pattern before it makes the key, so every pattern is stored under itself, never found, and
    compiled again (a list comprehension and ``re``'s own cache) on each of the tokenizer's calls: half of the HTML
    parsing time of a build's parts (3.2 s of CPU of a v8.1 build's 6.4 s). ``__missing__`` compiles the same
    pattern the same way and keeps it under the key asked for, so the lookup never fails and the broken store never
    runs."""

    def __missing__(self, key: tuple[Any, bool]) -> re.Pattern[str]:
        characters, opposite = key
        regex = "".join(f"\\x{ord(character):02x}" for character in characters)
        pattern = re.compile(f"[{regex}]+" if opposite else f"[^{regex}]+")
        self[key] = pattern
        return pattern


def keep_html_patterns() -> None:
    """Put :class:`_Patterns` in the place of tinyhtml5's pattern cache (once per process; the HTML parser
    WeasyPrint uses looks the cache up by its module-level name at each call)."""
    from tinyhtml5 import inputstream  # type: ignore[import-untyped]  # WeasyPrint's HTML parser: no stubs

    if not isinstance(inputstream.characters_until_regex, _Patterns):
        inputstream.characters_until_regex = _Patterns()


def share_stylesheets() -> None:
    """Put :func:`shared_css` in the place of ``CSS`` where WeasyPrint finds a document's stylesheets (once per
    process; every use of the engine holds pdfparts.ENGINE_LOCK, so the kept sheets are not used concurrently)."""
    import weasyprint.css as css_module

    if not hasattr(css_module.CSS, "wrapped"):
        css_module.CSS = shared_css(css_module.CSS)
