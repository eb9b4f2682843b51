"""Fixtures shared by the whole suite."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.utils import translation

from tests import services


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """A real Redis broker for this test session (``redis://127.0.0.1:<port>/0``)."""
    with services.redis_server() as url:
        yield url


@pytest.fixture(autouse=True)
def _english_after_each_test() -> Iterator[None]:
    """Put the active language back after a test: a request can leave zh-hans on the thread."""
    yield
    translation.activate("en")


@pytest.fixture(autouse=True)
def _empty_cache_before_each_test() -> None:
    """Start each test with an empty cache: allauth keeps rate limits and resend cooldowns there."""
    from django.core.cache import cache

    cache.clear()
