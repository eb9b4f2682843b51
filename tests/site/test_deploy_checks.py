"""``manage.py check --deploy`` warns about embedded-mode defaults left in production."""

from __future__ import annotations

from typing import Any

from games.checks import production_settings


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
