"""Run a step in several threads at once, each with its own database connection.

The concurrency tests' one harness: ``skip_without_shared_database`` (in-memory SQLite
cannot share a database between threads: PostgreSQL, or the file SQLite of ``make
test``), and ``at_once``, which starts ``n`` threads behind a barrier so the steps race.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from django.db import connection


def skip_without_shared_database() -> None:
    """Skip the test on in-memory SQLite, which locks tables instead of waiting."""
    if connection.vendor == "sqlite" and connection.settings_dict["NAME"].startswith(
        ("file:memorydb", ":memory:")
    ):
        pytest.skip("in-memory SQLite locks tables instead of waiting")  # pragma: no cover


def at_once[T](step: Callable[[int], T], n: int = 2, timeout: float = 120) -> list[T]:
    """Run ``step(i)`` for i in 0..n-1 in ``n`` threads released together; return the
    results in the order they finished.

    Each thread closes its connection when done. Raises ``AssertionError`` listing what
    any step raised, or when a thread is still running after ``timeout`` seconds.
    """
    barrier = threading.Barrier(n)
    results: list[T] = []
    errors: list[BaseException] = []
    lock = threading.Lock()

    def run(i: int) -> None:
        try:
            barrier.wait(timeout=10)
            result = step(i)
            with lock:
                results.append(result)
        except BaseException as exc:  # noqa: BLE001 - reported below
            with lock:
                errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=timeout)
    assert not any(t.is_alive() for t in threads), "a step is still running"
    assert not errors, errors
    return results
