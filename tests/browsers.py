"""Chromium for the real-browser tests: where it is, how it is started, and the marks every such test file carries.

One browser per test module (the sync Playwright API cannot be started twice at once in a process)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
MARKS = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Chromium is not installed at /usr/bin/chromium (apt-get install chromium)"),
]


def launch(playwright: Any) -> Any:
    """A headless Chromium from a started Playwright."""
    return playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS)


def module_browser() -> Iterator[Any]:
    """The body of a module-scoped ``browser`` fixture."""
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        browser = launch(p)
        yield browser
        browser.close()


PYODIDE_LOAD = 120_000  # ms: the play page and the tutorial compile Pyodide's WebAssembly on the first load


class EnginePage:
    """A page whose engine runs in a Web Worker (the play page, the tutorial), in a new browser context, with its
    console errors collected. ``hook``: the page's object for tests (``window.bpPlay``, ``window.bpTutorial``),
    with ``ready`` and ``ask(command)``."""

    def __init__(self, browser: Any, viewport: dict[str, int], hook: str = "bpPlay", **options: Any) -> None:
        self.hook = hook
        self.context = browser.new_context(viewport=viewport, **options)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

    def open(self, url: str) -> Any:
        self.page.goto(url)
        self.page.wait_for_function(f"window.{self.hook} && window.{self.hook}.ready", timeout=PYODIDE_LOAD)
        return self.page

    def ask(self, command: dict[str, Any]) -> Any:
        return self.page.evaluate(f"c => window.{self.hook}.ask(c)", command)
