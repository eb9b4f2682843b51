"""Deployment checks (``manage.py check --deploy``): production settings that work but mislead.

Each is a warning, not an error: the site runs, but emails would link to the wrong host,
or the periodic sweeps (deadlines, reminders, batched emails) would never run.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.core.checks import CheckMessage, Tags, Warning, register

from games.push.keys import vapid_keys


@register(Tags.compatibility, deploy=True)
def production_settings(app_configs: Any, **kwargs: Any) -> list[CheckMessage]:
    """Warn about embedded-mode defaults left in a production (``DEBUG=0``) configuration.

    Returns ``games.W001`` (``SITE_URL`` names this machine) and ``games.W003`` (no broker:
    tasks run in the web process and nothing runs the periodic sweeps unless ``manage.py
    run_sweeps`` does), and ``games.W019`` (webhooks may reach private addresses or use
    plain http: issue 19), and ``games.W029`` (no VAPID key: browser push off, issue 29).
    Django's own ``mail.E001`` already reports a missing ``EMAIL_URL``
    (mail written to files).
    """
    if settings.DEBUG:
        return []
    found: list[CheckMessage] = []
    host = urlsplit(settings.SITE_URL).hostname or ""
    if host in ("127.0.0.1", "localhost", "::1"):
        found.append(
            Warning(
                f"SITE_URL is {settings.SITE_URL}: links in emails point to this machine.",
                hint="Set SITE_URL to the public address, e.g. https://tigris.example.",
                id="games.W001",
            )
        )
    if settings.CELERY_TASK_ALWAYS_EAGER:
        found.append(
            Warning(
                "CELERY_BROKER_URL is not set: tasks run in the web process and no beat "
                "runs the sweeps (deadlines, reminders, batched emails, digests).",
                hint="Set CELERY_BROKER_URL and run a Celery worker and one beat.",
                id="games.W003",
            )
        )
    if settings.WEBHOOKS_ALLOW_PRIVATE or settings.WEBHOOKS_ALLOW_HTTP:
        found.append(
            Warning(
                "WEBHOOKS_ALLOW_PRIVATE or WEBHOOKS_ALLOW_HTTP is on: players' webhooks may "
                "reach this network's private addresses, or go out unencrypted.",
                hint="Turn both off unless every player is trusted (games/webhooks/addresses.py).",
                id="games.W019",
            )
        )
    if not (settings.WEBPUSH_VAPID_PRIVATE_KEY or settings.WEBPUSH_VAPID_KEY_FILE):
        found.append(
            Warning(
                "WEBPUSH_VAPID_PRIVATE_KEY is not set: browser notifications are off "
                "(the settings page says so; emails go out as usual).",
                hint="Run `manage.py vapid_keys` once and set the line it prints.",
                id="games.W029",
            )
        )
    elif _vapid_unreadable():
        found.append(
            Warning(
                "The VAPID key (WEBPUSH_VAPID_PRIVATE_KEY or WEBPUSH_VAPID_KEY_FILE) cannot "
                "be read: browser notifications will fail.",
                hint="Set the line `manage.py vapid_keys` prints.",
                id="games.W030",
            )
        )
    return found


def _vapid_unreadable() -> bool:
    """Return whether the configured VAPID key fails to load (``games.push.keys``)."""
    try:
        vapid_keys.cache_clear()
        vapid_keys()
    except Exception:
        return True
    return False
