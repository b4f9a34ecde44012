"""Run Sphinx and build the rulebook: the HTML site (furo), then the book PDF (singlehtml + basic theme →
WeasyPrint, A5) and its saddle-stitch booklet (imposition).

Sphinx runs with warnings as errors; every warning is collected and reported together. Its environment is
kept in ``work_dir`` between builds, so only documents whose inputs changed are read again (the
extension checks their content, not only their times) and only pages that changed are written again; a
change of the code, the Sphinx configuration, the templates or the example scenarios starts afresh. The
book is rendered chapter by chapter as cached parts (see book.py).
"""

from __future__ import annotations

import io
import os
import shutil
import tempfile
from pathlib import Path

from blackpoker.core.errors import DefinitionErrors
from blackpoker.core.paths import SOURCE
from blackpoker.infra.cache import fingerprint
from blackpoker.infra.jobs import URGENT, Inline, Runner, Scheduler, default_workers, in_child, process_pool
from blackpoker.render.pdfparts import PartCache
from blackpoker.sphinx_private import fix_single_html

PDF_NAME = "blackpoker.pdf"
BOOKLET_NAME = "blackpoker-booklet.pdf"


class RulebookError(Exception):
    """Sphinx reported warnings or errors (shown all at once, not as a traceback)."""

    def __init__(self, builder: str, messages: list[str]) -> None:
        self.builder = builder
        self.messages = messages
        super().__init__(f"the {builder} build failed:\n" + "\n".join(messages))

    def __reduce__(self) -> tuple[type[RulebookError], tuple[str, list[str]]]:
        """It crosses from a worker process: pickle the builder and messages, not the joined text."""
        return (RulebookError, (self.builder, self.messages))


def _sphinx(builder: str, source: Path, out: Path, doctrees: Path, definitions: Path,
            overrides: dict[str, str] | None = None) -> None:
    from sphinx.application import Sphinx
    from sphinx.util.docutils import docutils_namespace, patch_docutils

    from blackpoker.sphinxext.ruleset import DefinitionsFailed

    warnings = io.StringIO()
    confoverrides = {"blackpoker_definitions": str(definitions.resolve()), **(overrides or {})}
    try:
        with patch_docutils(source), docutils_namespace():
            app = Sphinx(str(source), str(source), str(out), str(doctrees), builder, confoverrides=confoverrides,
                         status=None, warning=warnings, freshenv=False, warningiserror=True)
            app.build()
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


def prepare_work(work_dir: Path, definitions: Path, source: Path, overrides: dict[str, str] | None,
                 environment: str | None) -> None:
    """Keep the Sphinx environment in ``work_dir`` only if it was made with the same ``environment`` (what it
    depends on but cannot follow: code, configuration, templates; None: never keep one) for the same
    definitions folder, source and options."""
    stamp = fingerprint([], environment or os.urandom(16).hex(), str(source.resolve()),
                        str(Path(definitions).resolve()), repr(sorted((overrides or {}).items())))
    stamp_file = work_dir / "stamp"
    if not stamp_file.is_file() or stamp_file.read_text(encoding="utf-8") != stamp:
        shutil.rmtree(work_dir, ignore_errors=True)
        work_dir.mkdir(parents=True)
        stamp_file.write_text(stamp, encoding="utf-8")


def sphinx_job(builder: str, definitions: Path, source: Path, work_dir: Path, overrides: dict[str, str] | None) -> None:
    """One Sphinx build in the kept environment: ``html`` into work/html, ``singlehtml`` into work/single.

    On any failure the kept environment is thrown away: the next build starts afresh.
    """
    try:
        if builder == "singlehtml":
            _sphinx("singlehtml", source, work_dir / "single", work_dir / "doctrees", definitions,
                    {**(overrides or {}), "html_theme": "basic"})
            fix_single_html(work_dir / "single" / "index.html")
        else:
            _sphinx("html", source, work_dir / "html", work_dir / "doctrees", definitions, overrides)
    except BaseException:
        (work_dir / "stamp").unlink(missing_ok=True)
        raise


# Sphinx's own bookkeeping in its output folder: .buildinfo.bak appears only in some incremental builds
_NOT_PUBLISHED = shutil.ignore_patterns(".buildinfo.bak")


def build_rulebook(definitions: Path, out_dir: Path, *, pdf: bool = True, work_dir: Path | None = None,
                   source: Path = SOURCE, overrides: dict[str, str] | None = None, runner: Runner | None = None,
                   cache: PartCache | None = None, used: list[str] | None = None,
                   environment: str | None = None) -> list[Path]:
    """Build the site into ``out_dir`` (``index.html`` at its root) and, with ``pdf``, the book and booklet.

    The Sphinx builds and the book's chapters run through ``runner`` (default: a pool made for the call,
    one worker per core); the book reuses the parts in ``cache`` (default: a folder in ``work_dir``);
    ``used`` receives the cache keys it used; a Sphinx environment kept in ``work_dir`` is reused only if it
    was made with the same ``environment`` (see prepare_work). Raises :class:`DefinitionErrors` when the
    definitions do not load and :class:`RulebookError` when Sphinx reports any warning. Returns the files
    written (site index, PDFs).
    """
    from blackpoker.render.book import BookBuilder

    out_dir = Path(out_dir)
    own_pool = None
    if runner is None:
        workers = default_workers()
        own_pool = process_pool(workers) if workers > 1 else None
        runner = Scheduler(own_pool, workers) if own_pool is not None else Inline()
    temp = None
    if work_dir is None:
        temp = tempfile.TemporaryDirectory(prefix="bp-rulebook-")
        work_dir = Path(temp.name)
    work_dir = Path(work_dir)
    try:
        prepare_work(work_dir, definitions, source, overrides, environment)
        # Each Sphinx build runs in a process of its own that ends after it (in_child): a worker that ran one kept
        # its high point (1.2 GB at 5,000 actions) for the PDF jobs after it. The single page comes first: the
        # book's chapters wait for it. The web pages follow at once, before the chapters (it is the longest job
        # left, and queued behind the PDF jobs it ran beside the lists' frames and joins, so the peaks added up).
        if pdf:
            runner.submit(in_child, sphinx_job, "singlehtml", Path(definitions), source, work_dir, overrides,
                          priority=URGENT + 1).result()
        html = runner.submit(in_child, sphinx_job, "html", Path(definitions), source, work_dir, overrides,
                             priority=URGENT + 1)
        written = [out_dir / "index.html"]
        if pdf:
            book = BookBuilder(work_dir / "single" / "index.html", runner, cache or PartCache(work_dir / "parts"))
            book.build(out_dir / PDF_NAME, out_dir / BOOKLET_NAME)
            if used is not None:
                used.extend(book.used)
            written += [out_dir / PDF_NAME, out_dir / BOOKLET_NAME]
        html.result()
        # copied, not linked: Sphinx rewrites its files in place in later builds
        shutil.copytree(work_dir / "html", out_dir, dirs_exist_ok=True, ignore=_NOT_PUBLISHED)
        return written
    finally:
        if own_pool is not None:
            own_pool.shutdown()
        if temp is not None:
            temp.cleanup()
