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
