"""The PDF action lists: A5 portrait through WeasyPrint, then 2-up (A4 landscape) and saddle-stitch booklets.

WeasyPrint is imported once per build. Layout dominates the time (dense Japanese text), so on a machine with
several cores the five documents are laid out in forked workers that inherit that one import; elsewhere they
are rendered one after the other with a shared font configuration.
"""

from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING

from blackpoker.actionlist.render import STATIC_DIR, make_environment, page_context
from blackpoker.actionlist.view import ListPage, list_pages
from blackpoker.fsutil import write_atomic
from blackpoker.impose import impose
from blackpoker.model import Rules

if TYPE_CHECKING:
    from weasyprint.document import Document

PDF_DIR = Path("actionlist") / "pdf"


def render_print_html(rules: Rules, page: ListPage) -> str:
    """The print document of one list (its stylesheet is ``print.css`` beside the templates' assets)."""
    env = make_environment(rules)
    return env.get_template("print.html").render(page_context(rules, page, list_pages(rules)))


def render_documents(rules: Rules, pages: tuple[ListPage, ...] | None = None) -> dict[str, "Document"]:
    """Lay out every list as an A5 document (keyed by list key), ready to write or to inspect page by page."""
    from weasyprint import HTML
    from weasyprint.text.fonts import FontConfiguration

    font_config = FontConfiguration()
    base_url = str(STATIC_DIR) + "/"
    return {
        page.key: HTML(string=render_print_html(rules, page), base_url=base_url).render(font_config=font_config)
        for page in (pages if pages is not None else list_pages(rules))
    }


def pdf_paths(out_dir: Path, page: ListPage) -> tuple[Path, Path, Path]:
    """The A5, 2-up and booklet files of one list."""
    folder = out_dir / PDF_DIR
    return (folder / f"{page.pdf_stem}.pdf", folder / f"{page.pdf_stem}-2up.pdf",
            folder / f"{page.pdf_stem}-booklet.pdf")


def _write_pdf(html: str) -> bytes:
    from weasyprint import HTML
    return HTML(string=html, base_url=str(STATIC_DIR) + "/").write_pdf()


def _pdf_bytes(htmls: list[str], workers: int) -> list[bytes]:
    """PDF bytes for each print document, in order; forked workers when allowed and useful."""
    import weasyprint  # noqa: F401 - imported here once; forked workers inherit it

    if workers > 1 and "fork" in multiprocessing.get_all_start_methods():
        # the longest documents first, so the workers finish together
        order = sorted(range(len(htmls)), key=lambda i: -len(htmls[i]))
        with ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("fork")) as pool:
            done = dict(zip(order, pool.map(_write_pdf, [htmls[i] for i in order])))
        return [done[i] for i in range(len(htmls))]
    from weasyprint import HTML
    from weasyprint.text.fonts import FontConfiguration

    font_config = FontConfiguration()
    base_url = str(STATIC_DIR) + "/"
    return [HTML(string=html, base_url=base_url).write_pdf(font_config=font_config) for html in htmls]


def default_workers() -> int:
    """``BLACKPOKER_PDF_WORKERS`` if set, else one worker per core (at most one per document)."""
    configured = os.environ.get("BLACKPOKER_PDF_WORKERS", "")
    return int(configured) if configured.isdigit() and int(configured) > 0 else (os.cpu_count() or 1)


def build_pdfs(rules: Rules, out_dir: Path, workers: int | None = None) -> list[Path]:
    """Write every list as A5, 2-up and booklet PDFs under ``out_dir/actionlist/pdf``."""
    pages = list_pages(rules)
    htmls = [render_print_html(rules, page) for page in pages]
    count = min(workers or default_workers(), len(pages))
    written: list[Path] = []
    for page, data in zip(pages, _pdf_bytes(htmls, count)):
        a5, two_up, booklet = pdf_paths(out_dir, page)
        write_atomic(a5, data)
        impose(a5, two_up, mode="2up")
        impose(a5, booklet, mode="booklet")
        written += [a5, two_up, booklet]
    return written
