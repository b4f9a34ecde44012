"""Build the rulebook: the HTML site (furo), then the book PDF (singlehtml + basic theme → WeasyPrint, A5)
and its saddle-stitch booklet (imposition).

Sphinx runs in-process with warnings as errors; every warning is collected and reported together.
Doctrees live in ``work_dir`` so the output tree is reproducible (toolchain notes §6).
"""

from __future__ import annotations

import io
import re
import shutil
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from blackpoker.errors import DefinitionErrors
from blackpoker.jobs import Inline, Runner
from blackpoker.paths import SOURCE
from blackpoker.pdfparts import PartCache

PDF_NAME = "blackpoker.pdf"
BOOKLET_NAME = "blackpoker-booklet.pdf"


class RulebookError(Exception):
    """Sphinx reported warnings or errors (shown all at once, not as a traceback)."""

    def __init__(self, builder: str, messages: list[str]) -> None:
        self.builder = builder
        self.messages = messages
        super().__init__(f"the {builder} build failed:\n" + "\n".join(messages))


@dataclass
class Timings:
    """Seconds per step of the last build (for `make bench` and the report)."""

    steps: dict[str, float] = field(default_factory=dict)


LAST_TIMINGS = Timings()


def _sphinx(builder: str, source: Path, out: Path, doctrees: Path, definitions: Path,
            overrides: dict[str, str] | None = None) -> None:
    from sphinx.application import Sphinx
    from sphinx.util.docutils import docutils_namespace, patch_docutils

    from blackpoker.sphinxext import DefinitionsFailed

    warnings = io.StringIO()
    confoverrides = {"blackpoker_definitions": str(definitions.resolve()), **(overrides or {})}
    try:
        with patch_docutils(source), docutils_namespace():
            app = Sphinx(str(source), str(source), str(out), str(doctrees), builder, confoverrides=confoverrides,
                         status=None, warning=warnings, freshenv=True, warningiserror=True)
            app.build(force_all=True)
    except DefinitionsFailed as exc:
        raise DefinitionErrors(exc.errors) from None
    except Exception as exc:  # Sphinx errors (SphinxError and friends) carry their own message
        from sphinx.errors import SphinxError
        if not isinstance(exc, SphinxError):
            raise
        raise RulebookError(builder, [*_lines(warnings), f"{type(exc).__name__}: {exc}"]) from None
    if app.statuscode != 0:
        raise RulebookError(builder, _lines(warnings))


def _lines(stream: io.StringIO) -> list[str]:
    return [line for line in stream.getvalue().splitlines() if line.strip()]


_DOUBLE_FRAGMENT = re.compile(r'href="#document-[^"#]*#')


def _fix_single_html(index: Path) -> None:
    """singlehtml's toctree links read '#document-x#label'; keep the last fragment (toolchain notes §3)."""
    text = index.read_text(encoding="utf-8")
    index.write_text(_DOUBLE_FRAGMENT.sub('href="#', text), encoding="utf-8")


def render_pdf(html: Path, pdf: Path) -> None:
    """WeasyPrint the single page as one document (the reference the chapter-by-chapter book must match)."""
    from blackpoker.pdfparts import layout

    document = layout(html.read_text(encoding="utf-8"), html.parent.resolve().as_uri() + "/")
    pdf.parent.mkdir(parents=True, exist_ok=True)
    tmp = pdf.with_name(f".{pdf.name}.tmp")
    document.write_pdf(tmp)
    relative_links(tmp, html.parent.resolve().as_uri() + "/")
    tmp.replace(pdf)


def relative_links(pdf: Path, base: str) -> None:
    """WeasyPrint writes links to the site's other files as absolute file:// URIs into the work folder.

    Make them relative to the site root (where the book PDF is published), so they work beside the PDF
    and the bytes do not depend on where the build ran.
    """
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import NameObject, TextStringObject

    writer = PdfWriter(clone_from=PdfReader(pdf))
    changed = False
    for page in writer.pages:
        for annot in page.get("/Annots") or []:
            action = annot.get_object().get("/A")
            uri = action.get_object().get("/URI") if action is not None else None
            if isinstance(uri, str) and uri.startswith(base):
                action.get_object()[NameObject("/URI")] = TextStringObject(uri[len(base):])
                changed = True
    if changed:
        with open(pdf, "wb") as f:
            writer.write(f)


def build_rulebook(definitions: Path, out_dir: Path, *, pdf: bool = True, work_dir: Path | None = None,
                   source: Path = SOURCE, overrides: dict[str, str] | None = None, runner: Runner | None = None,
                   cache: PartCache | None = None, used: list[str] | None = None) -> list[Path]:
    """Build the site into ``out_dir`` (``index.html`` at its root) and, with ``pdf``, the book and booklet.

    The book is rendered chapter by chapter through ``runner`` (default: in this process), reusing the parts
    in ``cache`` (default: none kept); ``used`` receives the cache keys it used. Raises
    :class:`DefinitionErrors` when the definitions do not load and :class:`RulebookError` when Sphinx
    reports any warning. Returns the files written (site index, PDFs).
    """
    from blackpoker.book import BookBuilder
    from blackpoker.impose import impose

    out_dir = Path(out_dir)
    temp = None
    if work_dir is None:
        temp = tempfile.TemporaryDirectory(prefix="bp-rulebook-")
        work_dir = Path(temp.name)
    work_dir = Path(work_dir)
    timings = LAST_TIMINGS.steps
    timings.clear()
    try:
        t = time.perf_counter()
        _sphinx("html", source, out_dir, work_dir / "doctrees-html", Path(definitions), overrides)
        shutil.rmtree(out_dir / ".doctrees", ignore_errors=True)
        timings["html"] = time.perf_counter() - t
        written = [out_dir / "index.html"]
        if not pdf:
            return written
        single = work_dir / "single"
        t = time.perf_counter()
        _sphinx("singlehtml", source, single, work_dir / "doctrees-single", Path(definitions),
                {**(overrides or {}), "html_theme": "basic"})
        _fix_single_html(single / "index.html")
        timings["singlehtml"] = time.perf_counter() - t
        t = time.perf_counter()
        parts = cache or PartCache(work_dir / "parts")
        book = BookBuilder(single / "index.html", runner or Inline(), parts)
        book.build(out_dir / PDF_NAME)
        if used is not None:
            used.extend(book.used)
        timings["weasyprint"] = time.perf_counter() - t
        t = time.perf_counter()
        impose(out_dir / PDF_NAME, out_dir / BOOKLET_NAME, mode="booklet")
        timings["booklet"] = time.perf_counter() - t
        return [*written, out_dir / PDF_NAME, out_dir / BOOKLET_NAME]
    finally:
        if temp is not None:
            temp.cleanup()
