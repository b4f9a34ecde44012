"""The differences between two editions as one self-contained Japanese HTML page (``blackpoker diff --html``
and the site's 版の違い pages): inline CSS for light and dark, no script, every text escaped."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from markupsafe import Markup, escape

from blackpoker.core.editiondiff import EntryRef, RulesDiff
from blackpoker.core.paths import TEMPLATES
from blackpoker.render.pages import page_environment

TEMPLATE_DIR = TEMPLATES / "diff"


@dataclass(frozen=True)
class Link:
    href: str
    text: str


def visible(text: str) -> Markup:
    """A changed run, escaped, with changed spaces and line breaks made visible (␣, ↵)."""
    out = escape(text).replace(" ", "␣").replace("\u3000", "□").replace("\n", "↵\n")
    return Markup(out)


def title(diff: RulesDiff) -> str:
    return f"版の違い {diff.old.edition} → {diff.new.edition}"


def diff_html(diff: RulesDiff, *, link: Callable[[EntryRef], str | None] = lambda _ref: None,
              back: Link | None = None) -> str:
    """The page; ``link`` gives an entry's address in the new edition (None: no link), ``back`` a link above
    the title (the site's way back to the lists)."""
    return page_environment(TEMPLATE_DIR).get_template("diff.html").render(
        diff=diff, title=title(diff), link=link, back=back, visible=visible)
