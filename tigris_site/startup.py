"""Fail fast, in one line, when the environment cannot run the site.

A mistyped ``DATABASE_URL`` or a missing ``SECRET_KEY`` would otherwise surface as a
wall of traceback from deep inside Django; operators get one line naming the variable.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import NoReturn
from urllib.parse import urlsplit, urlunsplit

from django.core.exceptions import ImproperlyConfigured

EXIT_CONFIG = 2


def fail(message: str) -> NoReturn:
    """Print ``error: <message>`` on stderr and exit with status 2."""
    print(f"error: {message}", file=sys.stderr)
    raise SystemExit(EXIT_CONFIG)


def redact_url(url: str) -> str:
    """Return ``url`` with any password replaced by ``***`` (safe to print)."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))


def setup_django_or_exit() -> None:
    """Run ``django.setup()``, turning a configuration error into one line and exit 2."""
    import django

    try:
        django.setup()
    except ImproperlyConfigured as exc:
        fail(str(exc))


def _connect() -> None:
    from django.db import connection

    try:
        connection.ensure_connection()
    finally:
        connection.close()  # this thread's: it ends with the check


def check_database_or_exit() -> None:
    """Open a connection to the default database or exit 2 naming ``DATABASE_URL``.

    uvicorn's worker processes (``--workers N``) import the app inside their running event
    loop, where Django refuses a database call (``SynchronousOnlyOperation``): there the
    check runs in a thread of its own.
    """
    import asyncio
    import os
    from concurrent.futures import ThreadPoolExecutor

    from django.db.utils import OperationalError

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        in_loop = False
    else:
        in_loop = True
    try:
        if in_loop:
            with ThreadPoolExecutor(max_workers=1) as pool:
                pool.submit(_connect).result()
        else:
            _connect()  # closed again: a server that forks (gunicorn --preload) shares none
    except OperationalError as exc:
        url = redact_url(os.environ.get("DATABASE_URL", "(default SQLite)"))
        reason = (
            str(exc).strip().splitlines()[-1].strip() if str(exc).strip() else type(exc).__name__
        )
        fail(f"DATABASE_URL: cannot connect to {url}: {reason}")


def guarded(entry: Callable[[], None]) -> Callable[[], None]:
    """Wrap an entry point so configuration errors exit with one line, not a traceback."""

    def run() -> None:
        try:
            entry()
        except ImproperlyConfigured as exc:
            fail(str(exc))

    return run
