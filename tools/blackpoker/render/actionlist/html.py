"""The HTML action lists: one page per format, the filterable full list, the index, and their assets."""

from __future__ import annotations

from pathlib import Path

from blackpoker.core.model import Rules
from blackpoker.core.paths import SOURCE
from blackpoker.infra.fsutil import write_atomic
from blackpoker.render.actionlist.help import help_panels
from blackpoker.render.actionlist.switcher import ONE_EDITION, ListSite
from blackpoker.render.actionlist.templates import make_environment, page_context, static_files
from blackpoker.render.actionlist.view import ListPage, list_pages

ACTIONLIST_DIR = "actionlist"


def render_pages(rules: Rules, site: ListSite = ONE_EDITION, source: Path = SOURCE) -> dict[str, str]:
    """Every HTML file of the action lists as text, keyed by its path under ``actionlist/`` (no I/O); ``site``
    places them among the site's editions; the help panels come from the rulebook's prose in ``source``."""
    panels = help_panels(rules, source, book=site.book_root(2))
    env = make_environment(rules, {p.title: p.anchor for p in panels})
    pages = list_pages(rules)
    list_template = env.get_template("list.html")
    out = {f"html/{page.filename}": list_template.render({**page_context(rules, page, pages), "help_panels": panels,
                                                         "site": site, "depth": 2})
           for page in pages}
    out["index.html"] = env.get_template("index.html").render({**page_context(rules, pages[-1], pages),
                                                              "site": site, "depth": 1})
    return out


def build_html(rules: Rules, out_dir: Path, site: ListSite = ONE_EDITION, source: Path = SOURCE) -> list[Path]:
    """Write the HTML lists, the index and the static assets under ``out_dir/actionlist``."""
    root = out_dir / ACTIONLIST_DIR
    written: list[Path] = []
    for rel, text in render_pages(rules, site, source).items():
        path = root / rel
        write_atomic(path, text)
        written.append(path)
    for asset in static_files():
        if asset.suffix in (".css", ".js", ".svg"):
            path = root / "html" / "assets" / asset.name
            write_atomic(path, asset.read_bytes())
            written.append(path)
    return written


def page_for(rules: Rules, key: str) -> ListPage:
    """The list with this key (a format id or ``all``)."""
    for page in list_pages(rules):
        if page.key == key:
            return page
    raise KeyError(f"no action list '{key}'")
