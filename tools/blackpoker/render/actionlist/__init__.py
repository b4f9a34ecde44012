"""The players' action lists (cheat sheets): HTML per format, a filterable full list, and A5/2-up/booklet PDFs.

``build_actionlists`` writes everything under ``<out_dir>/actionlist/``; ``build_html`` and ``build_pdfs`` are
separate because the PDFs take seconds and the HTML a fraction of one.
"""

from __future__ import annotations

from pathlib import Path

from blackpoker.core.model import Rules
from blackpoker.render.actionlist.html import build_html
from blackpoker.render.actionlist.pdf import build_pdfs

__all__ = ["build_actionlists", "build_html", "build_pdfs"]


def build_actionlists(rules: Rules, out_dir: Path) -> list[Path]:
    """Write the HTML lists, their index and assets, and every PDF; return the files written."""
    return build_html(rules, out_dir) + build_pdfs(rules, out_dir)
