"""Reads about players: notification preferences, profile settings and running vacations."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ObjectDoesNotExist
from django.db.models import Q
from django.utils import timezone

from games.core.quiet import QuietHours
from games.models import Delivery, NotificationKind, NotificationPreference, Profile, Vacation
from games.text import names as display_names
from games.text.seats import display_name


@dataclass(frozen=True)
class Person:
    """A person as a page shows them: small frozen facts, never their ``User`` row (issue 27).

    A row in a template context reaches every relation of it: ``{{ u.seats.all.0.game.seed }}``
    prints another game's seed, and a game's row holds its snapshot (every hand, the bag).
    ``id`` the user's id (``pk`` too, as templates link with either); ``display_name`` as
    other players see it (``games.text.seats.display_name``: a bot's mark and tier);
    ``is_bot``; ``rating_mu`` / ``rating_sigma`` the rating (None: no profile yet, the
    starting rating) and ``rated_games`` how many rated games it counts.
    """

    id: int
    display_name: str
    is_bot: bool = False
    rating_mu: float | None = None
    rating_sigma: float | None = None
    rated_games: int = 0

    @property
    def pk(self) -> int:
        """The user's id, as a row's ``pk``."""
        return self.id

    def __str__(self) -> str:
        """Return the display name."""
        return self.display_name


def person_of(user: Any, profile: Profile | None = None) -> Person:
    """Return the ``Person`` of a ``User`` row, from ``profile`` or ``user.profile``.

    ``user.profile`` is read when ``profile`` is not given (prefetch it in lists).
    """
    if profile is None:
        try:
            profile = user.profile
        except ObjectDoesNotExist:
            profile = None
    if profile is None:
        return Person(id=int(user.pk), display_name=display_name(user))
    return Person(
        id=int(user.pk),
        display_name=display_name(user),
        is_bot=bool(profile.is_bot),
        rating_mu=profile.rating_mu,
        rating_sigma=profile.rating_sigma,
        rated_games=int(profile.rated_games),
    )


@dataclass(frozen=True)
class PeopleNamed:
    """Whom a list of names names (``people_named``).

    ``ids`` the user ids of the people found, in the names' order, once each; ``unknown``
    the names nobody active is called; ``bots`` the names of bot accounts (found, but not
    in ``ids``: a bot is chosen in a seat, never invited or registered).
    """

    ids: tuple[int, ...]
    unknown: tuple[str, ...] = ()
    bots: tuple[str, ...] = ()


def people_named(wanted_names: Sequence[str]) -> PeopleNamed:
    """Return whom ``wanted_names`` name: the people invitations and events are sent to.

    A name is the one a player is shown as (their display name, matched by its look-alike
    key, ``games.text.names.name_key``) or their username (case-insensitive): players
    see display names, never usernames. A display name wins over another's username.
    Blank names are skipped, repeated ones count once; inactive accounts are nobody.
    One query.
    """
    wanted = list(dict.fromkeys(n.strip() for n in wanted_names if n.strip()))
    if not wanted:
        return PeopleNamed(ids=())
    keys = {name: display_names.name_key(name) for name in wanted}
    query = Q(profile__name_key__in={k for k in keys.values() if k})
    for name in wanted:
        query |= Q(username__iexact=name)
    by_key: dict[str, tuple[int, bool]] = {}
    by_username: dict[str, tuple[int, bool]] = {}
    for pk, username, key, is_bot in (
        get_user_model()
        .objects.filter(query, is_active=True)
        .values_list("pk", "username", "profile__name_key", "profile__is_bot")
    ):
        by_username[username.casefold()] = (pk, bool(is_bot))
        if key:
            by_key[key] = (pk, bool(is_bot))
    ids: list[int] = []
    unknown: list[str] = []
    bots: list[str] = []
    for name in wanted:
        found = by_key.get(keys[name]) or by_username.get(name.casefold())
        if found is None:
            unknown.append(name)
        elif found[1]:
            bots.append(name)
        elif found[0] not in ids:
            ids.append(found[0])
    return PeopleNamed(ids=tuple(ids), unknown=tuple(unknown), bots=tuple(bots))


DEFAULT_BATCH_MINUTES = 15
# What a player who never chose gets (issue 17): turns and decisions are batched — sent after
# the delay only if the game still waits on them, every waiting game in one email — and
# every other kind at once. A player's choice is a ``NotificationPreference`` row; no row
# means this default, so a later change of the default reaches everyone who never chose.
DEFAULT_DELIVERY = {
    NotificationKind.YOUR_TURN.value: Delivery.BATCHED.value,
    NotificationKind.DECISION.value: Delivery.BATCHED.value,
}


def default_delivery(kind: str) -> str:
    """Return the delivery of ``kind`` for a player who never chose one."""
    return DEFAULT_DELIVERY.get(str(kind), Delivery.IMMEDIATE.value)


VACATION_DAYS_PER_YEAR = 21  # vacation days a calendar year (UTC) gives (issue 6)


def preference_get(user_id: int, kind: str) -> tuple[str, int]:
    """Return ``(delivery, batch_minutes)`` for ``user_id`` and ``kind`` (``default_delivery``)."""
    pref = NotificationPreference.objects.filter(user_id=user_id, kind=kind).first()
    if pref is None:
        return default_delivery(kind), DEFAULT_BATCH_MINUTES
    return pref.delivery, pref.batch_minutes


def seat_preference(seat: object, kind: str) -> tuple[str, int] | None:
    """Return ``preference_get`` of ``seat``'s user from what the seat was read with.

    None when the seat was read without it (``selectors.games.seats_prefetch(for_move=True)``
    reads the turn kinds' preferences): ``preference_get`` reads it then.
    """
    if not hasattr(seat, f"pref_{kind}"):
        return None
    delivery = getattr(seat, f"pref_{kind}")
    if delivery is None:
        return default_delivery(kind), DEFAULT_BATCH_MINUTES
    return str(delivery), int(getattr(seat, f"pref_{kind}_minutes"))


def preferences_all(user_id: int) -> dict[str, tuple[str, int]]:
    """Return kind → ``(delivery, batch_minutes)`` for every kind, defaults filled in."""
    out = {kind.value: (default_delivery(kind), DEFAULT_BATCH_MINUTES) for kind in NotificationKind}
    for pref in NotificationPreference.objects.filter(user_id=user_id):
        out[pref.kind] = (pref.delivery, pref.batch_minutes)
    return out


def profile_time_zone(user_id: int) -> str:
    """Return the time zone ``user_id`` chose (``"Europe/Paris"``), or ``""`` when none."""
    zone = Profile.objects.filter(user_id=user_id).values_list("time_zone", flat=True).first()
    return zone or ""


def quiet_hours_of(profile: Profile | None) -> QuietHours | None:
    """Return the quiet hours ``profile`` set (in its time zone), or None (issue 17)."""
    if profile is None or profile.quiet_start is None or profile.quiet_end is None:
        return None
    if profile.quiet_start == profile.quiet_end:
        return None
    return QuietHours(profile.quiet_start, profile.quiet_end, profile.time_zone or "UTC")


def quiet_until(user_id: int, now: datetime | None = None) -> datetime | None:
    """Return when the quiet hours ``user_id`` is in now end, or None (one query)."""
    profile = (
        Profile.objects.filter(user_id=user_id)
        .only("quiet_start", "quiet_end", "time_zone")
        .first()
    )
    quiet = quiet_hours_of(profile)
    return quiet.quiet_until(now or timezone.now()) if quiet is not None else None


def _active(user_id: int | None) -> Q:
    return Q(user_id=user_id, ended_at__isnull=True, starts_at__lte=timezone.now())


def vacation_current(*, user_id: int | None) -> Vacation | None:
    """Return the running vacation of ``user_id`` (started, not yet ended), or None."""
    if user_id is None:
        return None
    return Vacation.objects.filter(_active(user_id)).order_by("-starts_at").first()


def user_on_vacation(*, user_id: int | None) -> bool:
    """Return whether ``user_id`` is on vacation now (until the vacation is ended)."""
    return user_id is not None and Vacation.objects.filter(_active(user_id)).exists()


def vacations_until(user_ids: list[int]) -> dict[int, datetime]:
    """Return user id → planned end of the running vacation, for those on vacation now."""
    rows = Vacation.objects.filter(
        user_id__in=user_ids, ended_at__isnull=True, starts_at__lte=timezone.now()
    ).values_list("user_id", "ends_at")
    return dict(rows)


def vacations_due() -> list[int]:
    """Return the ids of running vacations whose planned end has come (for the sweep)."""
    return list(
        Vacation.objects.filter(ended_at__isnull=True, ends_at__lte=timezone.now())
        .order_by("ends_at")
        .values_list("pk", flat=True)[:500]
    )


def bot_tiers_of(user_ids: list[int]) -> dict[int, str]:
    """Return user id → tier (``easy``, ``medium``, ``hard``) of the bots among ``user_ids``."""
    rows = Profile.objects.filter(user_id__in=user_ids, is_bot=True).values_list(
        "user_id", "bot_tier"
    )
    return dict(rows)


def user_is_bot(user_id: int) -> bool:
    """Return whether ``user_id`` is one of the site's bot accounts (one query)."""
    return Profile.objects.filter(user_id=user_id, is_bot=True).exists()


def display_name_taken(name: str, *, except_user_id: int | None = None) -> bool:
    """Return whether another account shows as ``name`` or a look-alike of it.

    Compares the look-alike key (``games.text.names.name_key``: case, spacing, compatibility
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


def _days(vacation: Vacation) -> int:
    end = vacation.ended_at or vacation.ends_at
    return max(1, math.ceil((end - vacation.starts_at) / timedelta(days=1)))


def days_used(*, user_id: int, year: int) -> int:
    """Return the vacation days ``user_id`` used (or booked) in calendar ``year``."""
    return sum(_days(v) for v in Vacation.objects.filter(user_id=user_id, starts_at__year=year))


def days_left(*, user_id: int, year: int | None = None) -> int:
    """Return the vacation days ``user_id`` has left in ``year`` (default: this year)."""
    year = year or timezone.now().year
    return max(0, VACATION_DAYS_PER_YEAR - days_used(user_id=user_id, year=year))
