"""Tournaments' services (issue 30): create, register, withdraw, start.

Each write runs in one transaction with the tournament's row locked and checks again under
the lock; a refusal raises ``TournamentRefused`` with a message a player can read, and
changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any
from zoneinfo import available_timezones

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.core.errors import GameError
from games.core.timecontrol import Clock
from games.models import (
    ROUND_ROBIN_MAX_PLAYERS,
    TOURNAMENT_MAX_PLAYERS,
    TOURNAMENT_MAX_ROUNDS,
    TOURNAMENT_NAME_MAX,
    Profile,
    Tournament,
    TournamentPlayer,
)
from games.outbox import tournaments as tournaments_outbox
from games.play.access import UserLike, user_id_of
from games.play.ratings import display_rating
from games.selectors.people import PeopleNamed, people_named
from games.tournaments import pairing, rounds


class TournamentRefused(GameError):
    """The tournament cannot do this now (400); the message says why."""

    status = 400
    default_message = gettext_lazy("This cannot be done in this tournament.")

    def __init__(self, message: Any = None, *, field: str | None = None) -> None:
        """``field``: the setting the refusal is about (a form shows it beside that field)."""
        super().__init__(message)
        self.field = field


class TournamentNotFound(GameError):
    """No such tournament, or not one this user may see (404)."""

    status = 404
    default_message = gettext_lazy("There is no such tournament.")


@dataclass(frozen=True, kw_only=True)
class TournamentSettings(Clock):
    """What a creator chooses, and its games' clock; ``tournament_create`` checks every field.

    ``points_by_rank``: tournament points by place for a table of each size (best first,
    non-increasing, 0–100); ``bots_fill_seats`` only when not ``is_rated``;
    ``days_per_move`` 1–30; ``max_game_days`` 3–90; ratings on the displayed scale
    (``ratings.display_rating``); ``start_when_full`` 2..``max_players``; ``invited``
    (usernames, 1..``max_players``) only, and always, with ``access`` "invite";
    ``bank_days`` (None: days per move) 1–30 with ``bank_increment_hours`` 0–72 and
    ``bank_cap_days`` (None: the start) from the start to 60 (``check_time_bank``);
    ``playing_start``/``playing_end`` both or neither, at least 2 hours apart (over
    midnight when the start is later), in an IANA ``playing_zone`` (``check_playing_hours``).
    """

    name: str
    kind: str = Tournament.Kind.SWISS
    table_size: int = 2
    min_table_size: int = 2
    rounds: int = 5
    points_by_rank: dict[str, list[int]] | None = None
    bye_points: int = 0
    max_players: int = 64
    start_when_full: int | None = None
    starts_at: datetime | None = None
    registration_closes_at: datetime | None = None
    min_rating: int | None = None
    max_rating: int | None = None
    is_rated: bool = True
    bots_fill_seats: bool = False
    max_game_days: int = 30
    access: str = Tournament.Access.OPEN
    # usernames of the players an invitation-only event invites (``access`` "invite")
    invited: tuple[str, ...] = ()


def settings_problems(s: TournamentSettings) -> list[tuple[str, str]]:  # noqa: C901 - one clear message per field
    """Return every problem of ``s`` as (the setting's field name, a message), [] if none.

    All at once, so a form shows each beside its field (``TournamentSettings`` names the
    ranges). The invited names are not looked up here (``invited_users`` does).
    """
    problems: list[tuple[str, str]] = []

    def refuse(field: str, message: str) -> None:
        problems.append((field, message))

    name = s.name.strip()
    if not name or len(name) > TOURNAMENT_NAME_MAX:
        refuse(
            "name",
            _("Give the tournament a name of 1 to %(n)s characters.") % {"n": TOURNAMENT_NAME_MAX},
        )
    if s.kind not in Tournament.Kind.values:
        refuse("kind", _("A tournament is Swiss or a round robin."))
    if s.access not in Tournament.Access.values:
        refuse("access", _("Choose who may register."))
    if not 2 <= s.table_size <= 4:
        refuse("table_size", _("Tables have 2 to 4 players."))
    elif not 2 <= s.min_table_size <= s.table_size:
        refuse(
            "min_table_size",
            _("The smallest table has 2 players at least, and no more than a full table."),
        )
    if s.kind == Tournament.Kind.SWISS and not 1 <= s.rounds <= TOURNAMENT_MAX_ROUNDS:
        refuse(
            "rounds",
            _("A Swiss tournament plays 1 to %(n)s rounds.") % {"n": TOURNAMENT_MAX_ROUNDS},
        )
    limit = (
        ROUND_ROBIN_MAX_PLAYERS if s.kind == Tournament.Kind.ROUND_ROBIN else TOURNAMENT_MAX_PLAYERS
    )
    if not s.min_table_size <= s.max_players <= limit:
        refuse(
            "max_players",
            _("Between %(low)s and %(high)s players may register.")
            % {"low": s.min_table_size, "high": limit},
        )
    elif s.start_when_full is not None and not (
        s.min_table_size <= s.start_when_full <= s.max_players
    ):
        refuse(
            "start_when_full",
            _("Start when full needs a number between the smallest table and the most players."),
        )
    for size, points in (s.points_by_rank or {}).items():
        if size not in {"2", "3", "4"} or len(points) != int(size):
            refuse("points_by_rank", _("Give one number of points for each place at the table."))
        elif any(not 0 <= p <= 100 for p in points) or list(points) != sorted(points, reverse=True):
            refuse(
                "points_by_rank",
                _("Points by place go from the first place down, each 0 to 100."),
            )
    if s.bots_fill_seats and s.is_rated:
        refuse("bots_fill_seats", _("Bots may fill seats only in an unrated tournament."))
    if not 0 <= s.bye_points <= 100:
        refuse("bye_points", _("A bye scores 0 to 100 points."))
    problems += clock_problems_of(s)
    if not 3 <= s.max_game_days <= 90:
        refuse("max_game_days", _("A game may last 3 to 90 days at most."))
    if s.access == Tournament.Access.INVITE and not s.invited:
        refuse("invited", _("Name at least one player to invite."))
    if s.invited and s.access != Tournament.Access.INVITE:
        refuse("invited", _("Only an invitation-only tournament has invited players."))
    if len(set(s.invited)) > s.max_players:
        refuse(
            "invited",
            _("Invite %(n)s players at most (the most who may register).") % {"n": s.max_players},
        )
    if s.min_rating is not None and s.max_rating is not None and s.min_rating > s.max_rating:
        refuse("max_rating", _("The lowest rating allowed is above the highest."))
    now = timezone.now()
    if s.starts_at is not None and s.starts_at <= now:
        refuse("starts_at", _("The start time must be in the future."))
    if s.registration_closes_at is not None and s.registration_closes_at <= now:
        refuse("registration_closes_at", _("Registration must close in the future."))
    return problems


def clock_problems(
    bank_days: int | None,
    bank_increment_hours: int,
    bank_cap_days: int | None,
    playing_start: time | None,
    playing_end: time | None,
    playing_zone: str,
) -> list[tuple[str, str]]:
    """Return the time bank's and the playing hours' problems as (field, message), [].

    ``check_time_bank`` and ``check_playing_hours``, each refusal with its field.
    """
    problems = []
    try:
        check_time_bank(bank_days, bank_increment_hours, bank_cap_days)
    except TournamentRefused as exc:
        problems.append((exc.field or "bank_days", str(exc)))
    try:
        check_playing_hours(playing_start, playing_end, playing_zone)
    except TournamentRefused as exc:
        problems.append((exc.field or "playing_end", str(exc)))
    return problems


def clock_problems_of(s: Clock) -> list[tuple[str, str]]:
    """Return the problems of ``s``'s time control and playing hours as (field, message).

    The days per move (1–30), then ``clock_problems``; [] if none.
    """
    problems = []
    if not 1 <= s.days_per_move <= 30:
        problems.append(("days_per_move", _("Each move may take 1 to 30 days.")))
    return problems + clock_problems(
        s.bank_days,
        s.bank_increment_hours,
        s.bank_cap_days,
        s.playing_start,
        s.playing_end,
        s.playing_zone,
    )


def _check(s: TournamentSettings) -> None:
    problems = settings_problems(s)
    if problems:
        raise TournamentRefused(problems[0][1])


def check_time_bank(days: int | None, increment_hours: int, cap_days: int | None) -> None:
    """Check an event's time bank (days; hours a turn; days at most); None days: no bank.

    Raises ``TournamentRefused`` with the field's message. The bank itself is the games'
    own control (``games.core.timecontrol.TimeBank``, issue 17).
    """
    if days is None:
        if increment_hours or cap_days is not None:
            raise TournamentRefused(
                _("Choose the time bank's start before its increment."), field="bank_days"
            )
        return
    if not 1 <= days <= 30:
        raise TournamentRefused(_("A time bank starts with 1 to 30 days."))
    if not 0 <= increment_hours <= 72:
        raise TournamentRefused(
            _("A time bank gains 0 to 72 hours a turn."), field="bank_increment_hours"
        )
    if cap_days is not None and not days <= cap_days <= 60:
        raise TournamentRefused(
            _("The most a time bank holds is from its start to 60 days."), field="bank_cap_days"
        )


def check_playing_hours(start: time | None, end: time | None, zone: str) -> None:
    """Check an event's daily playing hours: ``start``–``end`` local times in ``zone``.

    Both None: none. Raises ``TournamentRefused`` for one without the other, fewer than 2
    hours a day (``end`` before ``start`` runs over midnight), or an unknown time zone.
    """
    if start is None and end is None:
        return
    if start is None or end is None:
        raise TournamentRefused(
            _("Give the playing hours a start and an end, or neither."), field="playing_start"
        )
    if zone not in available_timezones():
        raise TournamentRefused(
            _("Choose the playing hours' time zone from the list."), field="playing_zone"
        )
    day = datetime.combine(date(2000, 1, 1), start)
    finish = datetime.combine(date(2000, 1, 1), end)
    if finish <= day:
        finish += timedelta(days=1)
    if finish - day < timedelta(hours=2):
        raise TournamentRefused(_("Playing hours last 2 hours a day at least."))


def tournament_create(*, creator: UserLike, settings: TournamentSettings) -> Tournament:
    """Create a tournament open for registration; the creator is not registered by it.

    An invitation-only event stores its invited players and writes each a
    ``tournament_invite`` notice through the outbox (their preference, bots never).
    Raises ``NotAPlayer`` (anonymous) or ``TournamentRefused`` (a setting out of range:
    the message names it); nothing is saved then.
    """
    creator_id = user_id_of(creator)
    _check(settings)
    invited = invited_users(settings.invited)
    points = {str(k): list(v) for k, v in (settings.points_by_rank or {}).items()}
    with transaction.atomic():
        tournament = _tournament_row(creator_id, settings, points)
        if invited:
            tournament.invited.set(invited)
            tournaments_outbox.notify_invited(tournament_id=tournament.pk, user_ids=invited)
    return tournament


def invited_users(wanted_names: Sequence[str]) -> list[int]:
    """Return the user ids of the players ``wanted_names`` name, in order, once each.

    Names as the site shows them, or usernames (``selectors.people.people_named``).
    Raises ``TournamentRefused`` naming every name that is nobody's, or a bot's (a bot
    cannot register). One query.
    """
    found = people_named(wanted_names)
    refused = invited_refusal(found)
    if refused:
        raise TournamentRefused(refused, field="invited")
    return list(found.ids)


def invited_refusal(found: PeopleNamed) -> str | None:
    """Return the message refusing ``found``'s unknown names and bots, or None: all fine.

    The invited field's message, in the active language (the creation forms show it
    beside the field; the services raise it).
    """
    parts = []
    if found.unknown:
        parts.append(_("No player is called %(names)s.") % {"names": ", ".join(found.unknown)})
    if found.bots:
        parts.append(
            _("%(names)s: bots cannot be invited (an event's bots fill its seats).")
            % {"names": ", ".join(found.bots)}
        )
    return " ".join(parts) or None


def _tournament_row(
    creator_id: int, settings: TournamentSettings, points: dict[str, list[int]]
) -> Tournament:
    return Tournament.objects.create(
        name=settings.name.strip(),
        creator_id=creator_id,
        kind=settings.kind,
        access=settings.access,
        table_size=settings.table_size,
        min_table_size=settings.min_table_size,
        rounds=settings.rounds,
        points_by_rank=points,
        bye_points=settings.bye_points,
        max_players=settings.max_players,
        start_when_full=settings.start_when_full,
        starts_at=settings.starts_at,
        registration_closes_at=settings.registration_closes_at,
        min_rating=settings.min_rating,
        max_rating=settings.max_rating,
        is_rated=settings.is_rated,
        bots_fill_seats=settings.bots_fill_seats,
        max_game_days=settings.max_game_days,
        **settings.clock_fields(),
    )


def tournament_register(
    *, tournament_id: int, user: UserLike, invite_token: str | None = None
) -> Tournament:
    """Register ``user``; start the tournament when ``start_when_full`` is reached.

    Raises ``NotAPlayer``, ``TournamentNotFound`` or ``TournamentRefused`` (closed, full,
    already registered, rating out of range, wrong link, not invited to an
    invitation-only event: its creator and its invited players only).
    """
    user_id = user_id_of(user)
    with transaction.atomic():
        tournament = _locked(tournament_id)
        if tournament.access == Tournament.Access.LINK and invite_token != tournament.invite_token:
            raise TournamentRefused(_("This tournament is open only through its link."))
        if (
            tournament.access == Tournament.Access.INVITE
            and user_id != tournament.creator_id
            and not tournament.invited.filter(pk=user_id).exists()
        ):
            raise TournamentRefused(
                _("This tournament is by invitation only, and you are not invited.")
            )
        if tournament.status != Tournament.Status.REGISTRATION or (
            tournament.registration_closes_at is not None
            and tournament.registration_closes_at <= timezone.now()
        ):
            raise TournamentRefused(_("Registration for this tournament is closed."))
        if tournament.players.filter(user_id=user_id).exists():
            raise TournamentRefused(_("You are already registered."))
        count = tournament.players.count()
        if count >= tournament.max_players:
            raise TournamentRefused(_("This tournament is full."))
        rating = _rating(user_id)
        if (tournament.min_rating is not None and rating < tournament.min_rating) or (
            tournament.max_rating is not None and rating > tournament.max_rating
        ):
            raise TournamentRefused(
                _("Your rating (%(r)s) is outside this tournament's range.") % {"r": round(rating)}
            )
        TournamentPlayer.objects.create(tournament=tournament, user_id=user_id, seed_rating=rating)
        if tournament.start_when_full is not None and count + 1 >= tournament.start_when_full:
            rounds.tournament_begin(tournament=tournament)
    return tournament


def _rating(user_id: int) -> float:
    profile = Profile.objects.filter(user_id=user_id).values_list("rating_mu", "rating_sigma")
    row = profile.first()
    if row is None:
        field = Profile._meta
        mu = field.get_field("rating_mu").get_default()
        sigma = field.get_field("rating_sigma").get_default()
        return display_rating(mu, sigma)
    return display_rating(*row)


def tournament_leave(*, tournament_id: int, user: UserLike) -> Tournament:
    """Unregister ``user`` before the start, or withdraw them from a running tournament.

    Withdrawing resigns their games in progress; they are paired no more and keep their
    results. Raises ``NotAPlayer``, ``TournamentNotFound`` or ``TournamentRefused``.
    """
    user_id = user_id_of(user)
    with transaction.atomic():
        tournament = _locked(tournament_id)
        player = tournament.players.filter(user_id=user_id).select_related("user").first()
        if player is None or player.withdrawn_at is not None:
            raise TournamentRefused(_("You are not playing in this tournament."))
        if tournament.status == Tournament.Status.REGISTRATION:
            player.delete()
        elif tournament.status == Tournament.Status.RUNNING:
            rounds.player_withdraw(tournament=tournament, player=player)
        else:
            raise TournamentRefused(_("This tournament is over."))
    return tournament


def tournament_start(*, tournament_id: int, user: UserLike) -> Tournament:
    """Start the tournament now (its creator only): seed the players, pair round 1.

    Raises ``TournamentRefused`` when not the creator, not open for registration, or too
    few players for one table.
    """
    user_id = user_id_of(user)
    with transaction.atomic():
        tournament = _locked(tournament_id)
        if tournament.creator_id != user_id:
            raise TournamentRefused(_("Only the tournament's creator can start it."))
        _begin(tournament)
    return tournament


def tournament_start_due(*, tournament_id: int) -> bool:
    """Start the tournament if its start time has come; return whether it started now.

    Too few players: the tournament is cancelled (its players are told by its page).
    """
    with transaction.atomic():
        tournament = _locked(tournament_id)
        if (
            tournament.status != Tournament.Status.REGISTRATION
            or tournament.starts_at is None
            or tournament.starts_at > timezone.now()
        ):
            return False
        try:
            _begin(tournament)
        except TournamentRefused:
            tournament.status = Tournament.Status.CANCELLED
            tournament.save(update_fields=["status"])
            return False
    return True


def _begin(tournament: Tournament) -> None:
    if tournament.status != Tournament.Status.REGISTRATION:
        raise TournamentRefused(_("This tournament has already started."))
    try:
        rounds.tournament_begin(tournament=tournament)
    except pairing.PairingImpossible:
        raise TournamentRefused(
            _("Too few players: a table needs %(n)s at least.") % {"n": tournament.min_table_size}
        ) from None


def _locked(tournament_id: int) -> Tournament:
    try:
        return rounds.locked_tournament(tournament_id)
    except Tournament.DoesNotExist:
        raise TournamentNotFound() from None


def users_registered(tournament_id: int) -> Sequence[int]:
    """Return the user ids registered in the tournament (withdrawn ones too)."""
    return list(
        TournamentPlayer.objects.filter(tournament_id=tournament_id).values_list(
            "user_id", flat=True
        )
    )
