"""A build step's cache key covers exactly the code it runs: editing one module re-runs only its steps."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from blackpoker.core.paths import PACKAGE
from blackpoker.pipeline.build import STEPS
from blackpoker.pipeline.code import code_closure, module_file


def _steps_running(relative: str) -> set[str]:
    target = PACKAGE / relative
    return {step.name for step in STEPS if target in code_closure(step.code)}


@pytest.mark.parametrize(("module", "steps"), [
    ("pipeline/serve.py", set()),  # the preview server runs in no step
    ("cli/main.py", set()),
    ("core/model.py", {"export", "scenarios", "actionlists", "rulebook", "official-paths", "play", "tutorial"}),
    ("render/officialpaths.py", {"rulebook", "official-paths"}),  # the book's PDFs' copies, the redirects
    # the rulebook plays the worked examples; play/ ships it; the tutorial plays its lessons and ships it too
    ("sim/engine.py", {"scenarios", "rulebook", "play", "tutorial"}),
    ("play/gameview.py", {"play", "tutorial"}),
    ("play/tutorial.py", {"play", "tutorial"}),  # in the play page's engine (its worker serves both pages)
    ("pipeline/tutorialpage.py", {"tutorial"}),
    ("sim/scenario/lesson.py", {"scenarios", "rulebook", "play", "tutorial"}),
    ("render/board.py", {"rulebook", "play", "tutorial"}),  # the same board renderer for the examples, play, tutorial
    ("render/actionlist/html.py", {"actionlists"}),
    ("render/pdfpages.py", {"actionlists", "rulebook"}),  # their summaries count their PDFs' pages
    ("render/book.py", {"rulebook"}),  # imported inside a function only
    ("sphinxext/examples.py", {"rulebook"}),  # imported by name: from blackpoker.sphinxext import examples
])
def test_each_module_keys_exactly_the_steps_that_run_it(module: str, steps: set[str]) -> None:
    assert _steps_running(module) == steps


def test_the_closure_follows_imports_transitively(tmp_path: Path) -> None:
    closure = code_closure(["blackpoker.sim.scenario"])
    assert PACKAGE / "sim" / "scenario" / "run.py" in closure  # scenario/__init__ → run
    assert PACKAGE / "sim" / "effects.py" in closure  # run → engine → effects
    assert PACKAGE / "core" / "cards.py" in closure
    assert module_file("blackpoker.no.such.module") is None
    assert module_file("sphinx.application") is None


def test_the_build_preloads_every_module_its_steps_run_lazily_too() -> None:
    """The build imports its steps' code before forking its workers (infra/jobs.process_pool's preload): the
    names cover modules imported inside functions (the book's renderer, which the rulebook imports when it runs)."""
    from blackpoker.pipeline.code import module_names

    names = module_names(code_closure([m for step in STEPS for m in step.code]))
    assert {"blackpoker", "blackpoker.pipeline.rulebook", "blackpoker.render.book", "blackpoker.render.textruns",
            "blackpoker.render.actionlist.pdf", "blackpoker.infra.jobs"} <= set(names)
    for name in names:  # each a module the interpreter can import by that name
        assert importlib.util.find_spec(name) is not None, name


def test_the_pdf_libraries_are_preloaded_only_for_steps_that_lay_out_pdfs() -> None:
    """WeasyPrint and pypdf are imported once before the fork when a pending step lays out PDF parts (each worker
    would import them otherwise), and not for steps that do not (a rebuild of the export alone)."""
    from blackpoker.pipeline.build import PDF_LIBRARIES, preloaded

    by_name = {step.name: step for step in STEPS}
    with_pdfs = preloaded(list(by_name["actionlists"].code))
    assert set(PDF_LIBRARIES) <= set(with_pdfs)
    assert with_pdfs.index("weasyprint") > with_pdfs.index("blackpoker.render.pdfparts")
    assert not set(PDF_LIBRARIES) & set(preloaded(list(by_name["export"].code)))
    for name in PDF_LIBRARIES:
        assert importlib.util.find_spec(name) is not None, name
