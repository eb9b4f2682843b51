"""Fixtures shared by the whole suite."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from celery.result import _set_task_join_will_block
from django.conf import global_settings
from django.utils import translation

from tests import services

# A password hash is no test's subject: MD5 first (PBKDF2 costs ~0.3 s a sign-up or sign-in,
# more on a loaded machine), Django's own after it so that any stored hash still verifies.
FAST_PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.MD5PasswordHasher",
    *global_settings.PASSWORD_HASHERS,
]


def pytest_configure(config: pytest.Config) -> None:
    """Hash passwords fast, here and in every server or worker a test starts (its env).

    A bot plays a sweep after its own last action, not ``BOT_PAUSE_SECONDS`` later: the tests
    that play bots sweep after sweep would otherwise wait out each pause. The pause is
    under test where a test sets it (``tests/games/play/test_bots.py``).
    """
    from django.conf import settings
    from django.contrib.auth import hashers

    os.environ["PASSWORD_HASHERS"] = ",".join(FAST_PASSWORD_HASHERS)
    settings.PASSWORD_HASHERS = FAST_PASSWORD_HASHERS
    settings.BOT_PAUSE_SECONDS = 0.0
    hashers.get_hashers.cache_clear()
    hashers.get_hashers_by_algorithm.cache_clear()


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


@pytest.fixture(autouse=True)
def _celery_results_joinable_before_each_test() -> None:
    """Let each test wait on an eager task's result (``.delay(...).get()``).

    Celery marks "a task is running here, joining would block" in one global flag, set and
    put back around every eager task; two eager tasks in two threads at once (the
    concurrency tests' ``at_once``: each ending a game runs its on-commit tasks) can put it
    back in the wrong order and leave it set, so a later test's ``.get()`` raises "Never
    call result.get() within a task!". The site never joins a result; only tests do.
    """
    _set_task_join_will_block(False)
