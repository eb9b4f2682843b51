"""``manage.py check --deploy`` warns about embedded-mode defaults left in production."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from games.checks import production_settings
from games.push.keys import vapid_keys


def _ids() -> set[str]:
    return {message.id for message in production_settings(None)}


def test_embedded_defaults_in_production_are_reported(settings: Any) -> None:
    settings.DEBUG = False
    settings.SITE_URL = "http://127.0.0.1:8000"
    settings.CELERY_TASK_ALWAYS_EAGER = True
    assert _ids() == {"games.W001", "games.W003"}


def test_a_production_configuration_passes(settings: Any) -> None:
    settings.DEBUG = False
    settings.SITE_URL = "https://tigris.example"
    settings.CELERY_TASK_ALWAYS_EAGER = False
    assert _ids() == set()


def test_the_embedded_mode_is_not_production(settings: Any) -> None:
    settings.DEBUG = True
    settings.SITE_URL = "http://127.0.0.1:8000"
    assert _ids() == set()


def test_webhooks_reaching_private_addresses_are_reported(settings: Any) -> None:
    settings.DEBUG = False
    settings.SITE_URL = "https://tigris.example"
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.WEBHOOKS_ALLOW_PRIVATE = True
    assert _ids() == {"games.W019"}


@pytest.fixture(autouse=True)
def _fresh_vapid_keys() -> Iterator[None]:
    yield
    vapid_keys.cache_clear()  # the next test reads the real settings' key again


def test_production_without_a_vapid_key_is_told_push_is_off(settings: Any) -> None:
    settings.DEBUG = False
    settings.SITE_URL = "https://tigris.example"
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.WEBPUSH_VAPID_PRIVATE_KEY = ""
    settings.WEBPUSH_VAPID_KEY_FILE = ""
    assert _ids() == {"games.W029"}
    settings.WEBPUSH_VAPID_PRIVATE_KEY = "not a key"
    assert _ids() == {"games.W030"}
    settings.WEBPUSH_VAPID_PRIVATE_KEY = ""
    settings.WEBPUSH_VAPID_KEY_FILE = str(Path(__file__))  # not a PEM
    assert _ids() == {"games.W030"}
