"""Profiles and notification preferences: reading and writing a player's own settings.

A ``Profile`` is made on first use (users made by the admin, factories or older code have
none yet), so every caller goes through ``profile_get``.
"""

from __future__ import annotations

from datetime import datetime, time, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone

from games.core import stamps
from games.models import Delivery, NotificationKind, NotificationPreference, Profile
from games.selectors.people import DEFAULT_BATCH_MINUTES, preferences_all


def profile_get(user: Any, **defaults: Any) -> Profile:
    """Return ``user``'s profile, creating it (display name = username) if missing.

    A username that looks like another player's name (``Profile.name_key`` is unique) gives
    a profile with no display name of its own: the username still shows, claiming nothing.
    """
    try:
        with transaction.atomic():
            profile, _created = Profile.objects.get_or_create(
                user_id=user.pk, defaults={"display_name": user.get_username()[:40], **defaults}
            )
    except IntegrityError:
        profile, _created = Profile.objects.get_or_create(
            user_id=user.pk, defaults={**defaults, "display_name": ""}
        )
    return profile


def preference_set(
    *, user_id: int, kind: str, delivery: str, batch_minutes: int = DEFAULT_BATCH_MINUTES
) -> NotificationPreference:
    """Store ``user_id``'s ``delivery`` for ``kind``; raise ``ValueError`` for unknown values."""
    if kind not in NotificationKind.values or delivery not in Delivery.values:
        raise ValueError(f"unknown kind or delivery: {kind!r}, {delivery!r}")
    if not 1 <= batch_minutes <= 24 * 60:
        raise ValueError("batch_minutes must be between 1 and 1440")
    pref, _created = NotificationPreference.objects.update_or_create(
        user_id=user_id, kind=kind, defaults={"delivery": delivery, "batch_minutes": batch_minutes}
    )
    return pref


def profile_update(
    *,
    user: Any,
    display_name: str,
    language: str,
    time_zone: str,
    preferences: dict[str, tuple[str, int]],
    confirm_actions: bool = True,
    chat_in_email: bool = True,
    quiet_start: time | None = None,
    quiet_end: time | None = None,
) -> Profile:
    """Save the settings page: profile fields and kind → ``(delivery, batch_minutes)``.

    Only a kind whose choice differs from what the player has now is stored: saving the
    page to change one's name chooses no delivery, so a kind left alone keeps following the
    site's default (``people.default_delivery``) rather than being pinned to today's.
    """
    with transaction.atomic():
        profile = profile_get(user)
        if profile.display_name != display_name:
            stamps.names_changed()  # lists kept rendered show it (the home page's "My games")
        profile.display_name = display_name
        profile.language = language
        profile.time_zone = time_zone
        profile.confirm_actions = confirm_actions
        profile.chat_in_email = chat_in_email
        # Quiet hours (issue 17): both ends or none; they apply from the next email and
        # the next clock started.
        both = quiet_start is not None and quiet_end is not None
        profile.quiet_start = quiet_start if both else None
        profile.quiet_end = quiet_end if both else None
        profile.save(
            update_fields=[
                "display_name",
                "language",
                "time_zone",
                "confirm_actions",
                "chat_in_email",
                "quiet_start",
                "quiet_end",
            ]
        )
        current = preferences_all(user.pk)
        for kind, (delivery, minutes) in preferences.items():
            if delivery != Delivery.BATCHED and current.get(kind, ("", 0))[0] == delivery:
                continue  # the minutes count only for a batched delivery
            if current.get(kind) == (delivery, minutes):
                continue
            preference_set(user_id=user.pk, kind=kind, delivery=delivery, batch_minutes=minutes)
        # Their name, time zone and confirm setting show in their games' partials.
        stamps.user_games_changed(user.pk)
    return profile


def profile_language_set(*, user: Any, language: str) -> Profile:
    """Save ``user``'s language (a code from ``settings.LANGUAGES``): pages and emails use it."""
    profile = profile_get(user)
    if profile.language != language:
        profile.language = language
        profile.save(update_fields=["language"])
    return profile


TOUCH_EVERY = timedelta(hours=1)  # how stale ``last_active_at`` may be: the leaderboard's
# window is 180 days, so writing it at every move would only cost a query a move


def profile_touch(*, user_id: int, last_active_at: datetime | None = None) -> None:
    """Record that ``user_id`` acted now (the leaderboard lists players active lately).

    ``last_active_at`` is the profile's value as the caller read it, when it did: within
    ``TOUCH_EVERY`` of now nothing is written.
    """
    if last_active_at is not None and timezone.now() - last_active_at < TOUCH_EVERY:
        return
    updated = Profile.objects.filter(user_id=user_id).update(last_active_at=timezone.now())
    if not updated:
        user = get_user_model().objects.get(pk=user_id)
        profile_get(user, last_active_at=timezone.now())
