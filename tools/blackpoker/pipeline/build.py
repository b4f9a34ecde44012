"""``blackpoker build``: every output into one folder, atomically.

The definitions are loaded and checked first; then the steps (JSON export, verified scenarios, action
lists, rulebook) render into folders beside the output. All heavy work goes to one pool of worker
processes, one per core: the simple steps are one job each; the action lists and the rulebook are run
from threads here and hand their pieces (Sphinx builds, pages, chapters) to the same pool, so both cores
stay busy until the end. The rulebook's thread starts first, alone until it has queued its single page: that
heads the longest chain of work. Everything is written in a scratch folder beside the output
(``.<out>.build-…``); only when every step succeeded does its staging site replace the output folder, so a
failed build leaves the previous site exactly as it was.

Two caches make rebuilds cheap (both under ``<out>/../.blackpoker-cache``, keyed by content; a folder of the
toolkit's own name, never ``.cache``, which other programs share when the output is in a home folder):
* ``steps``: a step whose inputs did not change is copied, not run;
* ``parts``: rendered PDF pages and chapters (see pdfparts), so an edit re-renders only what shows it.
Beside them, ``work/`` keeps one Sphinx environment per output folder. One build at a time writes an
output folder; builds of different folders run side by side (locks.py).
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from blackpoker.core.errors import DefinitionErrors
from blackpoker.core.loader import IMAGES, MAX_PICTURE_BYTES, definition_files, load_rules
from blackpoker.core.model import Rules
from blackpoker.core.paths import DEFINITIONS, existing_inputs, prose_folder, scenarios_folder
from blackpoker.infra.cache import StepCache, fingerprint
from blackpoker.infra.fsutil import exchange, make_publishable, remove_tree
from blackpoker.pipeline.code import code_closure, module_names
from blackpoker.pipeline.pyodide import runtime_files
from blackpoker.render.actionlist.help import HELP_SOURCES
from blackpoker.render.actionlist.switcher import ONE_EDITION, ListSite
from blackpoker.sim.gaps import coverage_problems
from blackpoker.sim.playable import unplayable

if TYPE_CHECKING:
    from blackpoker.infra.jobs import Scheduler
    from blackpoker.pipeline.editions import EditionPlan, Job


MARKER = ".blackpoker-site"  # written into every site the build publishes: only such a folder is ever replaced
CACHE = ".blackpoker-cache"  # beside the output folder: the build's cache (steps, parts, Sphinx environments)
MARKER_TEXT = "This folder is written by `blackpoker build`; the next build replaces it whole.\n"


class OutputRefused(Exception):
    """The output folder is one the build must not replace (it holds the user's files): nothing was touched."""


def check_output(out: Path, definitions: Path) -> None:
    """Refuse an output folder that is or contains the definitions, the repository, the current or the home
    folder, or a non-empty folder that a build did not make (no marker): replacing it would delete files."""
    from blackpoker.core.paths import CHECKOUT, ROOT
    out = out.resolve()
    protected = {"the definitions": definitions.resolve(), "the current folder": Path.cwd().resolve(),
                 "your home folder": Path.home().resolve()}
    if CHECKOUT:
        protected["the repository"] = ROOT.resolve()
    for name, folder in protected.items():
        if folder == out or folder.is_relative_to(out):
            raise OutputRefused(f"{out}: the output folder is or contains {name}; the build replaces its output "
                                "folder whole: choose a new folder, e.g. build/site")
    if out.is_relative_to(protected["the definitions"]):
        raise OutputRefused(f"{out}: the output folder is inside the definitions; the site would become part of "
                            "its own input: choose a folder outside them, e.g. build/site")
    if out.exists() and (not out.is_dir() or (any(out.iterdir()) and not _made_by_a_build(out))):
        raise OutputRefused(f"{out}: not a site made by blackpoker build (no {MARKER} in it) and not empty; "
                            "the build replaces its output folder whole: choose a new or empty folder")


def _made_by_a_build(folder: Path) -> bool:
    """The marker; or a site of a version before the marker, which always had these two files."""
    return (folder / MARKER).is_file() or ((folder / "blackpoker-rules.json").is_file()
                                           and (folder / "actionlist" / "index.html").is_file())


class BuildError(Exception):
    """A step failed; the message says which and why. The previous output is untouched."""


@dataclass(frozen=True)
class StepResult:
    name: str
    files: tuple[Path, ...]
    seconds: float
    detail: str = ""
    parts: tuple[str, ...] = ()  # part-cache keys the step used


@dataclass(frozen=True)
class Context:
    """What a pipeline step gets besides its definitions and folder: the shared pool and caches."""

    runner: Scheduler
    parts: Path  # the part cache's folder
    work: Path  # where steps keep state between builds of this output (the rulebook's Sphinx environment)
    site: ListSite = ONE_EDITION  # the edition's place among the site's editions (the lists' switcher)


@dataclass(frozen=True)
class Step:
    """One independent part of the build.

    ``run(definitions, step_dir) -> (files, detail)`` runs as one job in a worker process; or
    ``pipeline(definitions, step_dir, context) -> (files, detail, part keys)`` runs in a thread here and
    sends its own jobs to the pool. ``code`` names the modules the step runs (with all they import, see
    pipeline/code.py) and ``inputs`` the project folders it reads besides the definitions; together they key
    the step's cache entry.
    """

    name: str
    title: str  # shown in the progress display
    run: Callable[[Path, Path], tuple[list[Path], str]] | None = None
    inputs: tuple[str, ...] = ()
    code: tuple[str, ...] = ()
    pipeline: Callable[[Path, Path, Context], tuple[list[Path], str, list[str]]] | None = None
    prose: bool = True  # False: it never reads stories or flavour texts, so editing those does not run it again
    lead: bool = False  # a pipeline that starts first and queues its first job before anything else starts


def _export(definitions: Path, staging: Path) -> tuple[list[Path], str]:
    from blackpoker.core.export import export_json
    from blackpoker.infra.fsutil import write_atomic
    target = staging / "blackpoker-rules.json"
    write_atomic(target, export_json(load_rules(definitions)))
    return [target], ""


def _actionlists(definitions: Path, staging: Path, context: Context) -> tuple[list[Path], str, list[str]]:
    from blackpoker.render.actionlist.html import build_html
    from blackpoker.render.actionlist.pdf import build_pdfs
    from blackpoker.render.pdfparts import PartCache
    rules = load_rules(definitions)
    used: list[str] = []
    files = build_html(rules, staging, context.site, prose_folder(definitions)) + build_pdfs(
        rules, staging, runner=context.runner, cache=PartCache(context.parts), used=used)
    return files, _pdf_pages(files), used


def _rulebook(definitions: Path, staging: Path, context: Context) -> tuple[list[Path], str, list[str]]:
    from blackpoker.pipeline.rulebook import build_rulebook
    from blackpoker.render.officialpaths import copy_moved_pdfs
    from blackpoker.render.pdfparts import PartCache
    used: list[str] = []
    step = next(s for s in STEPS if s.name == "rulebook")
    files = build_rulebook(definitions, staging, pdf=True, work_dir=context.work / "rulebook",
                           environment=kept_state_key(step, definitions), source=prose_folder(definitions),
                           runner=context.runner, cache=PartCache(context.parts), used=used)
    copy_moved_pdfs(staging)  # the official site's names of the book's PDFs (not counted: the same pages)
    return files, _pdf_pages(files), used


def _official_paths(definitions: Path, staging: Path) -> tuple[list[Path], str]:
    """A redirect page at every official path that moved (render/officialpaths.py)."""
    from blackpoker.render.officialpaths import write_redirects
    files = write_redirects(load_rules(definitions), staging)
    return files, f"{len(files)} redirects"


def _play(definitions: Path, staging: Path) -> tuple[list[Path], str]:
    """The play page, its engine's sources and the vendored Pyodide runtime (pipeline/playpage.py)."""
    from blackpoker.pipeline.playpage import build_play
    files = build_play(load_rules(definitions), staging, scenarios_folder(definitions))
    return files, f"{sum(f.stat().st_size for f in files) / 1e6:.1f} MB"


def _tutorial(definitions: Path, staging: Path) -> tuple[list[Path], str]:
    """The guided tutorial: every lesson played by the simulator, then its page (pipeline/tutorialpage.py)."""
    from blackpoker.pipeline.tutorialpage import build_tutorial
    files, count = build_tutorial(load_rules(definitions), staging, prose_folder(definitions))
    return files, f"{count} lessons verified"


def _scenarios(definitions: Path, staging: Path) -> tuple[list[Path], str]:
    """Run every scenario of the project (the rules' examples and the per-action ones; core/paths.py's
    scenarios_folder); any failure fails the build. An edition with ``simulated: false`` leaves out (and counts)
    the scenarios it cannot verify (sim/scenario/coverage.py)."""
    from blackpoker.sim.scenario import load_scenario, run_scenario, unverified
    rules = load_rules(definitions)
    folder = scenarios_folder(definitions)
    paths = sorted(folder.rglob("*.yaml"))
    failed: list[str] = []  # one entry per failing scenario, each naming its file
    skipped = 0
    for path in paths:
        name = f"scenarios/{path.relative_to(folder).as_posix()}"
        if unverified(rules, path, name) is not None:
            skipped += 1
            continue
        try:
            result = run_scenario(rules, load_scenario(path, rules, display_name=name))
        except DefinitionErrors as exc:  # malformed or impossible: each problem as file:line:col
            failed.append("\n".join(str(error) for error in exc.errors))
            continue
        except Exception as exc:  # whatever else goes wrong, the reader learns which scenario it was
            failed.append(f"{name}: {type(exc).__name__}: {exc}")
            continue
        if not result.passed:
            lines = [e.line() for e in result.expectations if not e.passed] or ["no expectation was checked"]
            failed.append(f"{name}: " + "; ".join(lines))
    if failed:
        raise RuntimeError(f"{len(failed)} of {len(paths)} scenarios fail:\n" + "\n".join(failed))
    if skipped:
        why = "simulated: false" if not rules.edition.simulated else "written for other editions"
        return [], f"{len(paths) - skipped} scenarios pass, {skipped} not verified ({why})"
    return [], f"{len(paths)} scenarios pass"


def _pdf_pages(files: list[Path]) -> str:
    from blackpoker.render.pdfpages import page_count
    pdfs = [f for f in files if f.suffix == ".pdf"]
    pages = sum(page_count(f) for f in pdfs)
    return f"{len(pdfs)} PDFs, {pages} pages" if pdfs else ""


LOADING = ("blackpoker.core.loader", "blackpoker.infra.fsutil", "blackpoker.infra.cache")
PDF_PAGES = "blackpoker.render.pdfpages"  # counts the pages of the steps that write PDFs (their summary: _pdf_pages)
STEPS: tuple[Step, ...] = (
    Step("export", "JSON export", _export, code=(*LOADING, "blackpoker.core.export")),
    Step("scenarios", "verified scenarios", _scenarios, ("scenarios",), code=(*LOADING, "blackpoker.sim.scenario"),
         prose=False),
    Step("actionlists", "action lists (HTML + PDF)", inputs=("templates/actionlist", *HELP_SOURCES),
         code=(*LOADING, "blackpoker.render.actionlist.html", "blackpoker.render.actionlist.pdf", PDF_PAGES),
         pipeline=_actionlists),
    # its single page heads the longest chain of work
    # (the site's icon and logo is the action lists' mark: conf.py names it)
    Step("rulebook", "rulebook (HTML + PDF + booklet)", inputs=("source", "scenarios", "templates/actionlist/static/bp-mark.svg"),
         code=(*LOADING, "blackpoker.pipeline.rulebook", "blackpoker.sphinxext", "blackpoker.render.officialpaths",
               PDF_PAGES),
         pipeline=_rulebook, lead=True),
    # the runtime's files are keyed by the lock (version and integrity hash), which `blackpoker fetch-pyodide` checks
    Step("play", "play page (Pyodide)", _play, ("templates/play", "templates/shared", "scenarios"),
         code=(*LOADING, "blackpoker.pipeline.playpage", "blackpoker.play.browser", "blackpoker.sim.scenario"), prose=False),
    Step("tutorial", "guided tutorial (lessons verified)", _tutorial, ("tutorial", "templates/play", "templates/shared", "source"),
         code=(*LOADING, "blackpoker.pipeline.tutorialpage", "blackpoker.play.browser", "blackpoker.sim.scenario"),
         prose=False),
    Step("official-paths", "the official site's paths", _official_paths,
         code=(*LOADING, "blackpoker.render.officialpaths"), prose=False),
)
CODE = ("schemas", "pyproject.toml", "tools/blackpoker/pipeline/build.py")  # what every step depends on
# the 版の違い pages, written by every build of several editions (not a cached step: they take a moment)
CHANGES_CODE = ("blackpoker.pipeline.editions", "blackpoker.render.diffpage")
CHANGES_INPUTS = ("templates/diff", "templates/shared")
LEAD_WAIT = 2.0  # seconds the other steps wait at most for the lead pipeline's first job
STOP_WAIT = 60.0  # seconds a stopped build waits at most for its pipeline threads to end


def _roots(step: Step, definitions: Path) -> list[Path]:
    """The files a step reads besides the definitions: the code it runs, the shared inputs and its own (the
    prose and the scenarios the project's own, beside ``definitions``, when it has them)."""
    return code_closure(step.code) + existing_inputs((*CODE, *step.inputs), definitions)


def step_key(step: Step, definitions: Path, rules: Rules) -> str:
    """Everything a step's output depends on: definitions (or, for a step that shows no prose, the ruleset
    without it), code, schemas, its own inputs, the toolchain (versions, fonts), environment knobs."""
    from blackpoker.core.export import rules_digest
    from blackpoker.infra.toolchain import toolchain
    roots = (_definition_files(definitions) if step.prose else []) + _roots(step, definitions)
    content = "" if step.prose else rules_digest(rules, prose=False)
    return fingerprint(roots, step.name, content, toolchain(), os.environ.get("SOURCE_DATE_EPOCH", ""))


def kept_state_key(step: Step, definitions: Path = DEFINITIONS) -> str:
    """What a step's state kept between builds (the rulebook's Sphinx environment) depends on but cannot
    follow itself: the step's inputs except the definitions and the documents (``.md``), which Sphinx tracks."""
    from blackpoker.infra.toolchain import toolchain
    return fingerprint(_roots(step, definitions), step.name, toolchain(), skip_suffixes=(".md",))


def build_inputs(definitions: Path) -> list[Path]:
    """Every file or folder a build reads: what the preview watches (the union of the steps' keys, the other
    editions' definitions and what the 版の違い pages are made of). The pictures folder is watched whole, even
    before it exists, so a picture added later is seen."""
    from blackpoker.pipeline.editions import other_editions
    pictures = (definitions / IMAGES).resolve()
    editions = [path for folder in other_editions(definitions) for path in _definition_files(folder)]
    changes = code_closure(CHANGES_CODE) + existing_inputs(CHANGES_INPUTS)
    return sorted({*(p for p in _definition_files(definitions) if not p.is_relative_to(pictures)), pictures,
                   *editions, *changes,
                   *(path for step in STEPS for path in _roots(step, definitions))})


def _definition_files(definitions: Path) -> list[Path]:
    """The definitions and the pictures a build could use: a picture over the size limit is refused wherever it
    is named, so its bytes never reach an output and are not read (an unused 1 GB file beside the pictures)."""
    return [path.resolve() for path in definition_files(definitions)
            if path.exists() and (path.suffix == ".yaml" or path.stat().st_size <= MAX_PICTURE_BYTES)]


# the libraries the PDF steps import when their first part is laid out (0.7 s of CPU): imported once before the fork
# instead of once in each worker (and in each Sphinx child forked from a worker)
PDF_LIBRARIES = ("weasyprint", "pypdf")


def preloaded(step_modules: list[str]) -> list[str]:
    """What the pool's workers get imported before they are forked: the steps' own code and, when a step lays out
    PDF parts, the libraries that do it."""
    names = module_names(code_closure(step_modules))
    return names + list(PDF_LIBRARIES) if "blackpoker.render.pdfparts" in names else names


def _run_step(step_name: str, definitions: str, step_dir: str) -> StepResult:
    """A simple step, in a worker process, rendering into the step's own folder; paths relative to it."""
    step = next(s for s in STEPS if s.name == step_name)
    assert step.run is not None
    start = time.perf_counter()
    root = Path(step_dir)
    _files, detail = step.run(Path(definitions), root)
    return StepResult(step.name, _written(root), time.perf_counter() - start, detail)


def _run_pipeline(step: Step, definitions: Path, step_dir: Path, context: Context) -> StepResult:
    """A pipeline step, in a thread of this process."""
    assert step.pipeline is not None
    start = time.perf_counter()
    _files, detail, parts = step.pipeline(definitions, step_dir, context)
    return StepResult(step.name, _written(step_dir), time.perf_counter() - start, detail, tuple(sorted(set(parts))))


def _written(root: Path) -> tuple[Path, ...]:
    return tuple(sorted(p.relative_to(root) for p in root.rglob("*") if p.is_file()))


def _merge(step_dir: Path, staging: Path, files: tuple[Path, ...]) -> list[Path]:
    """Move a finished step's files into the staging site; two steps may not write the same file."""
    merged = []
    for rel in files:
        target = staging / rel
        if target.exists():
            raise BuildError(f"two build steps wrote {rel}")
        target.parent.mkdir(parents=True, exist_ok=True)
        (step_dir / rel).rename(target)
        merged.append(target)
    return merged


@dataclass
class BuildReport:
    out: Path
    results: list[StepResult] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def files(self) -> int:
        return sum(1 for _ in self.out.rglob("*") if _.is_file() and _.name != MARKER)


def _not_simulated(rules: Rules) -> str:
    """What the build publishes but the simulator does not play, counted by kind (an edition with simulated:
    false), e.g. "; not simulated: 46 actions without an effect, 10 triggers …"."""
    gaps = unplayable(rules) if not rules.edition.simulated else {}
    if not gaps:
        return ""
    names = {"no effect": ("action", " without an effect"), "trigger": ("trigger", ""),
             "activation condition": ("activation condition", ""), "target": ("target", ""),
             "label condition": ("label condition", ""),
             "summoning": ("summoning action", " without a character"), "frame setup": ("frame setup", ""), "zone": ("zone", "")}

    def counted(kind: str, n: int) -> str:
        noun, rest = names.get(kind, (kind, ""))
        return f"{n} {noun}{'s' if n != 1 else ''}{rest}"
    counts = ", ".join(counted(kind, len(set(ids))) for kind, ids in gaps.items())
    return f"; not simulated: {counts} (simulated: false; `blackpoker check` lists them)"


def build(definitions: Path, out: Path, *, progress: Callable[[str], None] = print,
          jobs: int | None = None, cache_dir: Path | None = None,
          editions: Sequence[Path] | None = None) -> BuildReport:
    """Build everything from ``definitions`` into ``out``; raise BuildError or DefinitionErrors on failure.

    ``editions``: the other editions published beside it, each under its own folder with its action lists and
    JSON (default: every definitions folder in ``editions/`` beside ``definitions``; see pipeline/editions.py).

    One build at a time per output folder: a second one waits for the first (see locks.py). Builds of other
    output folders may run at the same time and share the cache.
    """
    from blackpoker.infra.locks import CacheLease, output_lock
    from blackpoker.pipeline.editions import Edition, other_editions, plan_editions

    start = time.perf_counter()
    out = out.resolve()
    check_output(out, definitions)  # a refused output first: nothing read, nothing written
    # fail fast, before any file is touched; the build plays the scenarios, so the simulator must cover the rules
    rules = load_rules(definitions, extra_checks=(coverage_problems,))
    _check_rulebook_refs(rules, prose_folder(definitions))
    progress(f"checked definitions: {rules.edition.version}, {len(rules.actions)} actions"
             + _not_simulated(rules))
    others = [Edition(folder, load_rules(folder, extra_checks=(coverage_problems,)))
              for folder in (other_editions(definitions) if editions is None else editions)]
    plan = plan_editions(Edition(definitions, rules), others)
    for edition in others:
        progress(f"checked edition {edition.rules.edition.version} ({edition.definitions}): "
                 f"{len(edition.rules.actions)} actions, published in {plan.sites[edition.version].root}")
    for warning in plan.warnings:
        progress(f"warning: {warning}")
    runtime_files()  # the play page's Pyodide: RuntimeMissing (what to run) before any work, not after minutes of it

    out.parent.mkdir(parents=True, exist_ok=True)
    cache_root = cache_dir or out.parent / CACHE
    with output_lock(out, progress):
        check_output(out, definitions)  # again: the build we waited for may have changed the folder
        lease = CacheLease(cache_root)
        with lease.shared():
            report = _build(plan, out, cache_root, progress, jobs)
        with lease.alone() as alone:
            if alone:  # no other build reads the cache: drop what no recent build uses
                _clean_cache(cache_root, out)
    report.seconds = time.perf_counter() - start
    return report


def _check_rulebook_refs(rules: Rules, prose: Path) -> None:
    """The rulebook's pages name entries of the repository's edition: other definitions must have them all
    (each missing one is a located error in the page, before anything is written)."""
    from blackpoker.render.sourcerefs import missing_entries
    problems = missing_entries(rules, prose)
    if problems:
        raise DefinitionErrors(problems)


def _work_folder(cache_root: Path, out: Path) -> Path:
    """Where the rulebook keeps its Sphinx environment for ``out``: one per output folder, so builds of two
    outputs never share one."""
    from hashlib import sha256
    return cache_root / "work" / sha256(str(out).encode("utf-8")).hexdigest()[:16]


def _clean_cache(cache_root: Path, out: Path) -> None:
    """Keep the newest step entries, the parts they were made from and the newest Sphinx environments."""
    from blackpoker.render.pdfparts import PartCache
    PartCache(cache_root / "parts").retain(StepCache(cache_root / "steps").retain())
    work = cache_root / "work"
    if work.is_dir():
        folders = sorted(work.iterdir(), key=lambda p: p.stat().st_mtime_ns, reverse=True)
        for folder in folders[StepCache.KEEP:]:
            shutil.rmtree(folder, ignore_errors=True)
    shutil.rmtree(cache_root / "rulebook-work", ignore_errors=True)  # the single folder of older versions


def _build(plan: EditionPlan, out: Path, cache_root: Path, progress: Callable[[str], None],
           jobs: int | None) -> BuildReport:
    """The build proper, holding the output folder's lock and a shared hold on the cache: every step of the
    current edition, the steps of each other edition (into its folder), then the 版の違い pages."""
    from blackpoker.infra.jobs import NORMAL, Scheduler, default_workers, process_pool, stop_pool, worker_ends

    _remove_leftovers(out)
    report = BuildReport(out)
    failures: list[str] = []
    cache = StepCache(cache_root / "steps")
    work = _work_folder(cache_root, out)
    work.mkdir(parents=True, exist_ok=True)
    os.utime(work)  # most recently used: kept by the clean-up
    scratch = Path(tempfile.mkdtemp(dir=out.parent, prefix=f".{out.name}.build-"))  # beside out: one file system
    staging = scratch / "site"
    try:
        staging.mkdir()
        pending: list[tuple[Step, str, Job]] = []
        for step, job in plan.jobs(STEPS):
            site = job.site
            key = job.key(step_key(step, job.definitions, job.rules))
            t0 = time.perf_counter()
            restored = cache.restore(job.cache_name, key, staging / site.root, warn=progress)
            if restored is None:
                pending.append((step, key, job))
                continue
            report.results.append(StepResult(step.name, tuple(restored), time.perf_counter() - t0, "unchanged"))
            progress(f"  = {job.title}: unchanged, {len(restored)} files reused")
        if pending:
            workers = jobs or default_workers()
            # before any thread starts: the workers are forked, with the code every step runs already imported,
            # so an edit of the sources during the build cannot reach (and kill) a worker
            pool = process_pool(workers, preload=preloaded([m for s, _, _ in pending for m in s.code]))
            scheduler = Scheduler(pool, workers)
            lock = threading.Lock()
            interrupted = True
            try:
                futures: dict[Future[StepResult], tuple[Step, str, Job]] = {}
                broken = False
                threads = []
                # the lead pipeline first, and alone until its first job is queued: it heads the longest
                # chain of work, and the other threads would otherwise keep it from the interpreter lock
                for step, key, job in sorted(pending, key=lambda p: not p[0].lead):
                    progress(f"  … {job.title}")
                    step_dir = scratch / f"step-{job.folder_name}"
                    step_dir.mkdir()
                    definitions = job.definitions
                    if step.pipeline is not None:
                        context = Context(scheduler, cache_root / "parts", work, job.site)
                        future: Future[StepResult] = Future()
                        thread = threading.Thread(target=_in_thread, daemon=True,
                                                  args=(future, _run_pipeline, step, definitions.resolve(), step_dir, context))
                        thread.start()
                        threads.append(thread)
                        if step.lead:
                            future.add_done_callback(lambda _: scheduler.first_job.set())  # it failed early
                            scheduler.first_job.wait(LEAD_WAIT)
                    else:
                        future = scheduler.submit(_run_step, step.name, str(definitions.resolve()), str(step_dir),
                                                  priority=NORMAL)
                    futures[future] = (step, key, job)
                for future, (_step, key, job) in futures.items():
                    try:
                        result = future.result()
                    except DefinitionErrors as exc:
                        failures.append(f"{job.title}: definitions:\n{exc}")
                        continue
                    except Exception as exc:
                        failures.append(f"{job.title}: {type(exc).__name__}: {exc}")
                        broken = broken or isinstance(exc, BrokenProcessPool)
                        continue
                    step_dir = scratch / f"step-{job.folder_name}"
                    with lock:
                        files = _merge(step_dir, staging / job.site.root, result.files)
                        cache.store(job.cache_name, key, staging / job.site.root, files, result.parts)
                    report.results.append(result)
                    what = ", ".join(x for x in (f"{len(result.files)} files" if result.files else "", result.detail) if x)
                    progress(f"  ✓ {job.title}: {what} ({result.seconds:.1f} s)")
                for thread in threads:
                    thread.join()
                if broken:  # say which worker ended and how: the steps' errors say only that one did
                    failures.append(f"a worker process ended abruptly: {worker_ends(pool) or 'no exit status known'}")
                interrupted = False
            finally:
                if interrupted:  # the pipeline threads' jobs fail now; they end before their folders go
                    scheduler.close(BuildError("the build was stopped"))
                stop_pool(pool, now=interrupted)
                if interrupted:
                    _join(threads, STOP_WAIT)
        if failures:
            raise BuildError("the build failed; the previous output is unchanged.\n" + "\n".join(failures))
        changes = plan.write_changes(staging)
        if changes:
            progress(f"  ✓ 版の違い: {len(changes)} pages")
        (staging / MARKER).write_text(MARKER_TEXT, encoding="utf-8")
        make_publishable(staging)
        _swap(staging, out, scratch / "old")
    finally:
        try:  # the old site (after the swap) or the unfinished one, and the steps' folders
            remove_tree(scratch)
        except OSError as exc:  # the site is published; only this folder is left, and no later build minds it
            progress(f"warning: could not remove {exc.filename or scratch} ({exc.strerror or exc}); "
                     "it is not part of the site: remove it by hand")
    return report


_SCRATCH = re.compile(r"build-[a-z0-9_]{8}")  # tempfile.mkdtemp's random part: 8 of these characters


def _leftover(name: str, out: Path) -> bool:
    """Whether ``name`` (a name beside ``out``) is a scratch folder of a build of ``out``: compared as text,
    never as a pattern, so an output named ``*`` or ``[a]`` matches no one else's files."""
    base = f".{out.name}."
    if not name.startswith(base):
        return False
    rest = name[len(base):]
    return (rest in ("staging", "old") or _SCRATCH.fullmatch(rest) is not None
            or (rest.startswith("step-") and rest[len("step-"):] in {step.name for step in STEPS}))


def _remove_leftovers(out: Path) -> None:
    """Scratch folders that an earlier build of ``out`` could not remove (killed, or read-only content): best
    effort, as every build works in a folder of its own. Only folders, only of this output."""
    for leftover in sorted(out.parent.iterdir()):
        if _leftover(leftover.name, out) and leftover.is_dir() and not leftover.is_symlink():
            try:
                remove_tree(leftover)
            except OSError:
                pass


def _join(threads: list[threading.Thread], seconds: float) -> None:
    """Wait, ``seconds`` in all at most, for the pipeline threads of a stopped build: one still rendering
    (action-list HTML is made in its thread) would otherwise write into the scratch folder as it is removed."""
    deadline = time.monotonic() + seconds
    for thread in threads:
        thread.join(max(0.0, deadline - time.monotonic()))


def _in_thread(future: Future[StepResult], fn: Callable[..., StepResult], *args: object) -> None:
    try:
        future.set_result(fn(*args))
    except BaseException as exc:
        future.set_exception(exc)


def _swap(staging: Path, out: Path, old: Path) -> None:
    """Replace ``out`` by ``staging`` in one atomic step where the system can (the two trees exchange names, so
    a crash at any moment leaves a complete site), else with two renames (the old site moves to ``old``). The
    old site is left where the caller removes it."""
    try:
        if out.exists() and exchange(staging, out):
            return
        if out.exists():
            out.rename(old)
        staging.rename(out)
    except OSError as exc:
        raise BuildError(f"could not replace {out}: {exc.strerror or exc} ({exc.filename or out})") from None
