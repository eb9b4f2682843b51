"""Profiles and notification preferences: reading and writing a player's own settings.

A ``Profile`` is made on first use (users made by the admin, factories or older code have
none yet), so every caller goes through ``profile_get``.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from games import names as display_names
from games import render_stamps
from games.models import Delivery, NotificationKind, NotificationPreference, Profile

DEFAULT_BATCH_MINUTES = 15


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


def display_name(user: Any) -> str:
    """Return the name shown for ``user``: the profile's display name, else the username."""
    try:
        name = user.profile.display_name
    except Profile.DoesNotExist:
        name = ""
    return str(name or user.get_username())


def display_name_taken(name: str, *, except_user_id: int | None = None) -> bool:
    """Return whether another account shows as ``name`` or a look-alike of it.

    Compares the look-alike key (``games.names.name_key``: case, spacing, compatibility
    forms and confusable letters ignored) with other players' display names, and the name
    with the usernames shown for accounts that have none, so two players never look alike
    in a game, the lobby or the leaderboard.
    """
    wanted = display_names.normalise(name)
    key = display_names.name_key(wanted)
    names = Profile.objects.filter(Q(name_key=key) | Q(display_name__iexact=wanted))
    users = (
        get_user_model()
        .objects.filter(username__iexact=wanted)
        .filter(Q(profile__isnull=True) | Q(profile__display_name=""))
    )
    if except_user_id is not None:
        names = names.exclude(user_id=except_user_id)
        users = users.exclude(pk=except_user_id)
    return names.exists() or users.exists()


def preference_get(user_id: int, kind: str) -> tuple[str, int]:
    """Return ``(delivery, batch_minutes)`` for ``user_id`` and ``kind`` (default immediate)."""
    pref = NotificationPreference.objects.filter(user_id=user_id, kind=kind).first()
    if pref is None:
        return Delivery.IMMEDIATE, DEFAULT_BATCH_MINUTES
    return pref.delivery, pref.batch_minutes


def preferences_all(user_id: int) -> dict[str, tuple[str, int]]:
    """Return kind → ``(delivery, batch_minutes)`` for every kind, defaults filled in."""
    out = {
        kind.value: (Delivery.IMMEDIATE.value, DEFAULT_BATCH_MINUTES) for kind in NotificationKind
    }
    for pref in NotificationPreference.objects.filter(user_id=user_id):
        out[pref.kind] = (pref.delivery, pref.batch_minutes)
    return out


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
) -> Profile:
    """Save the settings page: profile fields and kind → ``(delivery, batch_minutes)``."""
    with transaction.atomic():
        profile = profile_get(user)
        profile.display_name = display_name
        profile.language = language
        profile.time_zone = time_zone
        profile.confirm_actions = confirm_actions
        profile.save(update_fields=["display_name", "language", "time_zone", "confirm_actions"])
        for kind, (delivery, minutes) in preferences.items():
            preference_set(user_id=user.pk, kind=kind, delivery=delivery, batch_minutes=minutes)
        # Their name, time zone and confirm setting show in their games' partials.
        render_stamps.user_games_changed(user.pk)
    return profile


def profile_language_set(*, user: Any, language: str) -> Profile:
    """Save ``user``'s language (a code from ``settings.LANGUAGES``): pages and emails use it."""
    profile = profile_get(user)
    if profile.language != language:
        profile.language = language
        profile.save(update_fields=["language"])
    return profile


def profile_touch(*, user_id: int) -> None:
    """Record that ``user_id`` acted now (the leaderboard lists players active lately)."""
    updated = Profile.objects.filter(user_id=user_id).update(last_active_at=timezone.now())
    if not updated:
        user = get_user_model().objects.get(pk=user_id)
        profile_get(user, last_active_at=timezone.now())
