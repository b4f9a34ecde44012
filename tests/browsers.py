"""Chromium for the real-browser tests: where it is, how it is started, the marks every such test file carries, and
the fixtures those files share (a pytest plugin, loaded by tests/conftest.py).

One Chromium per pytest worker (``browser``, session-scoped): the sync Playwright API cannot be started twice at
once in a process, and a launch per module cost a driver and a browser each time.

The play page and the tutorial run the engine in Pyodide: a first visit boots Python and imports the engine (5-9 s
a page on a busy machine), a later visit restores the engine the first one kept in Cache Storage (snapshot.js:
about a second). Both pages are served from one site per worker (``engine_site``, at ``engine_address``), and
``warm`` is a browser context in which a first visit has kept the engine: a test whose subject is not the first
visit opens its page there (``EnginePage(warm, …)``), the tests of a damaged kept engine too (they leave a good one
kept); a test of the first visit, of a later visit's restore, or of a context option a page cannot have alone
(touch, a mobile screen) opens a context of its own (``EnginePage(browser, …)``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

# Debian's headless shell (package chromium-headless-shell: the browser without its window and UI, which is what
# Playwright itself runs when headless), else the whole browser in its headless mode. On this suite's pages the
# shell takes about a fifth less CPU (five of the browser test files, runs alternated: 100 s against 78 s), and it
# runs the same Blink and V8, built from the same source package.
SHELL = Path("/usr/lib/chromium/chromium-headless-shell")  # the binary: /usr/bin/chromium-headless-shell is a wrapper
CHROMIUM = SHELL if SHELL.exists() else Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
MARKS = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Chromium is not installed (apt-get install chromium-headless-shell)"),
]
PYODIDE_LOAD = 120_000  # ms: the play page and the tutorial compile Pyodide's WebAssembly on the first load
# ms between two checks of a wait_for_function: Playwright's default checks at every animation frame, which keeps
# the page drawing frames while it waits (about 0.09 s of CPU a second of waiting, 0.02 s at 20 ms)
POLL = 20
# A page opened in a shared context starts as a first visitor's would: the tutorial's progress (localStorage) of
# an earlier test is cleared at the page's first load, not at its reloads (sessionStorage lives as long as the tab).
FRESH_STORAGE = ("if (!sessionStorage.getItem('bp-test-page')) { localStorage.clear(); "
                 "sessionStorage.setItem('bp-test-page', '1'); }")

# A person's click made in the page, for the long runs of moves (a whole game, every lesson) whose first moves are
# Playwright's own clicks: the element rendered, enabled, and, scrolled into view, the element hit at its centre
# (Playwright's actionability checks, without its round trips and its waits for animation frames: about 65 ms a
# click). A JavaScript function of the element.
PRESS = """(e) => {
  if (!e.checkVisibility() || e.disabled) throw new Error(`not visible or enabled: ${e.outerHTML.slice(0, 80)}`);
  e.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  const r = e.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  if (!hit || !e.contains(hit)) throw new Error(`covered: ${e.outerHTML.slice(0, 80)} by ${hit && hit.outerHTML.slice(0, 80)}`);
  e.click();
}"""


def launch(playwright: Any) -> Any:
    """A headless Chromium from a started Playwright."""
    return playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """The worker's Chromium, for every browser test it runs."""
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        chromium = launch(p)
        yield chromium
        chromium.close()


@pytest.fixture(scope="session")
def engine_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The JSON export, the action lists, the play page and the tutorial of definitions/ (tests/playsite.py)."""
    from blackpoker.core.loader import load_rules
    from blackpoker.core.paths import SOURCE
    from blackpoker.pipeline.tutorialpage import build_tutorial
    from playsite import make_site, runtime_missing
    if runtime_missing() is not None:
        pytest.skip(str(runtime_missing()))
    rules = load_rules()
    root = make_site(rules, tmp_path_factory.mktemp("engine-site"))
    build_tutorial(rules, root, SOURCE)
    return root


@pytest.fixture(scope="session")
def engine_address(engine_site: Path) -> Iterator[str]:
    """``engine_site`` over HTTP (browsers refuse .wasm from file://); ends in /."""
    from playsite import served
    with served(engine_site) as address:
        yield address


def kept_engine_context(browser: Any, address: str) -> Any:
    """A new context whose Cache Storage holds the engine kept by a first visit of the play page at ADDRESS."""
    context = browser.new_context()
    page = context.new_page()
    page.goto(address + "play/index.html")
    page.wait_for_function("window.bpPlay && window.bpPlay.ready", timeout=PYODIDE_LOAD, polling=POLL)
    page.wait_for_function("window.bpPlay.kept", timeout=PYODIDE_LOAD, polling=POLL)
    page.close()
    return context


@pytest.fixture(scope="session")
def warm(browser: Any, engine_address: str) -> Iterator[Any]:
    """A context with the engine kept (the tutorial's worker is the same engine with the same key): its pages
    restore it instead of booting Python. Tests must leave a good engine kept (the tests of a damaged kept engine
    damage it and check that the page keeps a good one again)."""
    context = kept_engine_context(browser, engine_address)
    yield context
    context.close()


class EnginePage:
    """A page whose engine runs in a Web Worker (the play page, the tutorial), with its console errors collected.
    ``where``: a Browser (a new context of its own, with ``options``: a first visit) or a shared BrowserContext
    (``warm``: a new page in it, of ``viewport`` and with ``color_scheme`` only). ``hook``: the page's object for
    tests (``window.bpPlay``, ``window.bpTutorial``), with ``ready`` and ``ask(command)``."""

    def __init__(self, where: Any, viewport: dict[str, int], hook: str = "bpPlay", **options: Any) -> None:
        self.hook = hook
        self.owned = hasattr(where, "new_context")
        if self.owned:
            self.context = where.new_context(viewport=viewport, **options)
            self.page = self.context.new_page()
        else:
            scheme = options.pop("color_scheme", None)
            assert not options, f"{sorted(options)}: options of a context, not of a page in a shared one"
            self.context = where
            self.page = where.new_page()
            self.page.set_viewport_size(viewport)
            if scheme is not None:
                self.page.emulate_media(color_scheme=scheme)
            self.page.add_init_script(FRESH_STORAGE)
        self.errors: list[str] = []
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

    def open(self, url: str) -> Any:
        self.page.goto(url)
        self.page.wait_for_function(f"window.{self.hook} && window.{self.hook}.ready", timeout=PYODIDE_LOAD, polling=POLL)
        return self.page

    def ask(self, command: dict[str, Any]) -> Any:
        return self.page.evaluate(f"c => window.{self.hook}.ask(c)", command)

    def close(self) -> None:
        """The page's own context, or only the page in a shared one."""
        if self.owned:
            self.context.close()
        else:
            self.page.close()
