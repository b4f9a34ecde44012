"""The official site's file paths, and where each leads on ours: the one place that maps them.

Printed lists, bookmarks and the official tutorial link to the official site's paths
(``…/auto/actionlist.html#act-summonssoldier``, ``actionlist/html/all.html``, ``blackpoker_a5.pdf``). A path
both sites share needs nothing (``SAME``). A page that moved gets a small redirect page at its old path (a
meta refresh, a link, ``rel=canonical`` and an inline script that keeps the ``#fragment``; no network); a
moved PDF gets a copy, as a PDF cannot redirect. The rulebook's generated lists (``auto/…``) were split
differently from ours, so their redirect sends a fragment naming an entry (ours or official) to the page that
shows it. Every entry answers to its official anchors on its page (core/kinds.official_anchors).
"""

from __future__ import annotations

import html
import json
import posixpath
import shutil
from dataclasses import dataclass
from pathlib import Path

from blackpoker.core.kinds import anchor, named_entries, official_anchors, rulebook_page
from blackpoker.core.model import Rules
from blackpoker.infra.fsutil import write_atomic


@dataclass(frozen=True)
class Moved:
    """An official path (``path``) and ours (``target``), both relative to the site's root."""

    path: str
    target: str
    title: str  # what the target is, for the redirect page's link (Japanese)
    by_entry: bool = False  # a fragment naming an entry goes to the rulebook page that shows it


# The rulebook's generated chapters (source/auto/*.rst on the official site) and its A5 PDFs.
RULEBOOK_PAGES = (
    Moved("auto/actionlist.html", "format.html", "アクションリスト (フォーマット)", by_entry=True),
    Moved("auto/frameActionlist.html", "frame.html", "フレームアクションリスト", by_entry=True),
    Moved("auto/framelist.html", "frame.html", "フレームリスト", by_entry=True),
)
RULEBOOK_PDFS = (
    Moved("blackpoker_a5.pdf", "blackpoker.pdf", "ルールブック (PDF)"),
    Moved("blackpoker_a5-booklet.pdf", "blackpoker-booklet.pdf", "ルールブック 中綴じ印刷用 (PDF)"),
)
# The v6 per-format pages of the action lists: v6-<format>.html, and v6-ex.html for the Extra list.
V6_PAGES = {"lite": "lite", "std": "std", "pro": "pro", "mast": "mast", "ex": "extra"}


def same_paths(rules: Rules) -> tuple[str, ...]:
    """The official paths our site has too, with the same content (checked by the tests, never written here)."""
    keys = [f.id for f in rules.formats] + [f.id for f in rules.frames if f.trumps] + ["all"]
    pages = [f"actionlist/html/{k}.html" for k in keys]
    pdfs = [f"actionlist/pdf/blackpoker-{k}{suffix}.pdf" for k in keys for suffix in ("", "-2up")]
    return ("blackpoker.pdf", *pages, *pdfs)


def moved_pages(rules: Rules) -> tuple[Moved, ...]:
    """The official pages that moved, for this ruleset (a v6 page only for a list it has)."""
    keys = {f.id for f in rules.formats} | {f.id for f in rules.frames if f.trumps}
    v6 = tuple(Moved(f"actionlist/html/v6-{old}.html", f"actionlist/html/{new}.html",
                     f"アクションリスト ({_list_name(rules, new)})")
               for old, new in V6_PAGES.items() if new in keys)
    return RULEBOOK_PAGES + v6


def _list_name(rules: Rules, key: str) -> str:
    found = [f.name for f in rules.formats if f.id == key] + [f.name for f in rules.frames if f.id == key]
    return found[0]


def entry_pages(rules: Rules) -> dict[str, str]:
    """Every anchor of every entry (ours and the official ones) → the rulebook page (file) that shows it."""
    entries = named_entries(rules)
    return {name: f"{rulebook_page(e)}.html" for e in entries for name in (anchor(e), *official_anchors(e))}


def redirect_page(rules: Rules, moved: Moved) -> str:
    """The redirect page at ``moved.path``: it works without script (to the target), and with it keeps the
    fragment (and sends an entry's fragment to the page that shows it)."""
    folder = posixpath.dirname(moved.path)
    target = posixpath.relpath(moved.target, folder or ".")
    canonical = rules.edition.address(moved.target) if rules.edition.site else target
    routes = {}
    if moved.by_entry:
        routes = {name: posixpath.relpath(page, folder or ".")
                  for name, page in sorted(entry_pages(rules).items()) if page != moved.target}
    data = json.dumps(routes, ensure_ascii=True, sort_keys=True, separators=(",", ":")).replace("</", "<\\/")
    script = ("(function(){var h=location.hash,r=" + data + ",t=r[h.slice(1)]||"
              + json.dumps(target) + ";location.replace(t+h);})();")
    href, title = html.escape(target), html.escape(moved.title)
    return (
        "<!DOCTYPE html>\n<html lang=\"ja\">\n<head>\n<meta charset=\"utf-8\">\n"
        f"<title>{title}</title>\n"
        f"<link rel=\"canonical\" href=\"{html.escape(canonical)}\">\n"
        f"<meta http-equiv=\"refresh\" content=\"0; url={href}\">\n"
        f"<meta name=\"robots\" content=\"noindex\">\n<script>{script}</script>\n</head>\n<body>\n"
        f"<p>このページは移動しました: <a href=\"{href}\">{title}</a></p>\n</body>\n</html>\n")


def write_redirects(rules: Rules, root: Path) -> list[Path]:
    """Every moved official page's redirect, written under ``root`` (the build's step folder)."""
    written = []
    for moved in moved_pages(rules):
        target = root / moved.path
        write_atomic(target, redirect_page(rules, moved))
        written.append(target)
    return written


def copy_moved_pdfs(root: Path) -> list[Path]:
    """The official names of the PDFs that ``root`` holds (the rulebook step's folder): byte-for-byte copies."""
    written = []
    for moved in RULEBOOK_PDFS:
        source = root / moved.target
        if source.is_file():
            shutil.copyfile(source, root / moved.path)
            written.append(root / moved.path)
    return written
