"""Fixtures of the end-to-end tests: Debian's Chromium driven by Playwright.

No browser is ever downloaded: Playwright launches ``/usr/bin/chromium``, which
``make test`` installs from Debian's packages (``scripts/system-deps.sh chromium``).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

from games.play import bots

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


def _database_url() -> str:
    """The URL of the test database this session uses, for a server in another process."""
    from urllib.parse import urlsplit, urlunsplit

    from django.db import connection

    name = connection.settings_dict["NAME"]
    if connection.vendor == "sqlite":
        return f"sqlite:///{name}"
    parts = urlsplit(os.environ["DATABASE_URL"])
    return urlunsplit(parts._replace(path=f"/{name}"))


@pytest.fixture
def asgi_server(transactional_db: None, allow_orm_beside_playwright: None) -> Iterator[str]:
    """Serve the site as ``make run`` does — the ASGI app under uvicorn, in its own process —
    on this test's database; yield its base URL. The streams read the version column every
    0.3 s (``LIVE_POLL_SECONDS``), as in the embedded mode; no Redis."""
    import subprocess
    import sys

    from tests import services

    port = services.free_port()
    unset = ("LIVE_REDIS_URL", "CELERY_BROKER_URL", "CACHE_URL", "CELERY_TASK_ALWAYS_EAGER")
    env = {k: v for k, v in os.environ.items() if k not in unset}
    env |= {"DATABASE_URL": _database_url(), "LIVE_POLL_SECONDS": "0.3"}
    command = [sys.executable, "-m", "uvicorn", "tigris_site.asgi:application"]
    command += ["--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"]
    command += ["--timeout-graceful-shutdown", "1"]
    process = subprocess.Popen(command, cwd=services.ROOT, env=env)
    try:
        services.wait_for_port(port, process, seconds=30)
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture
def sweeper() -> Iterator[None]:
    """The bots' sweep every half second in a thread, until the test ends (``run_sweeps``
    does it beside the server)."""
    stop = threading.Event()

    def run() -> None:
        try:
            while not stop.is_set():
                bots.bots_sweep()
                stop.wait(0.5)
        finally:
            connection.close()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join(timeout=10)
