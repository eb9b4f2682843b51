"""Fixtures of the end-to-end tests: Debian's Chromium driven by Playwright.

No browser is ever downloaded: Playwright launches ``/usr/bin/chromium``, which
``make test`` installs from Debian's packages (``scripts/system-deps.sh chromium``).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SCREENSHOTS = Path(__file__).resolve().parent.parent.parent / "var" / "screenshots"


@pytest.fixture(scope="module")
def allow_orm_beside_playwright() -> Iterator[None]:
    """Let the test thread use the ORM while Playwright's sync API runs its event loop.

    Playwright's sync API keeps an asyncio loop in the main thread, which makes Django
    refuse synchronous database calls there; the variable is set only around these tests.
    """
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        yield


@pytest.fixture(scope="module")
def browser(allow_orm_beside_playwright: None) -> Iterator[Any]:
    """A headless Chromium (Debian's ``/usr/bin/chromium``) for this module's tests."""
    if not CHROMIUM.exists():
        pytest.fail("Chromium is missing: run scripts/system-deps.sh chromium (make test does)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
        )
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def screenshots() -> Path:
    """The directory screenshots go to (``var/screenshots/``), created when missing."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    assert os.access(SCREENSHOTS, os.W_OK)
    return SCREENSHOTS
