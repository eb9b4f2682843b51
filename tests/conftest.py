"""Fixtures shared by the whole suite."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests import services


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """A real Redis broker for this test session (``redis://127.0.0.1:<port>/0``)."""
    with services.redis_server() as url:
        yield url
