"""Leagues (issue 30): create one, opt in and out of a season, start and end seasons.

A season opens for players to opt in; at its start time the sweep places them in
divisions (``divisions``: by rating in the first season, by the last season's result
after) and starts each division as a round-robin tournament through the tournaments'
machinery (``rounds.tournament_begin``). When every division has finished — or the
season's weeks are over, when the games still running are ended as their positions stand
— the sweep writes each member's place and move (promotion, relegation) and opens the
next season, which starts by itself ``opt_in_days`` later.

Every step locks the season's row (``select_for_update``) and re-checks its status, so a
sweep run twice, or two at once, starts and ends a season once (the unique
``(league, number)`` constraint backs the next season's row). A refusal raises
``LeagueRefused`` with a message a player can read, and changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import fields as dataclass_fields
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.core.errors import GameError
from games.core.timecontrol import Clock, clock_of
from games.models import (
    LEAGUE_DIVISION_MAX,
    LEAGUE_DIVISION_MIN,
    LEAGUE_MAX_WEEKS,
    TOURNAMENT_NAME_MAX,
    League,
    LeagueDivision,
    LeagueMember,
    LeagueSeason,
    Profile,
    Tournament,
    TournamentPlayer,
)
from games.outbox import tournaments as outbox_tournaments
from games.play.access import UserLike, user_id_of
from games.play.ratings import display_rating
from games.text import names
from games.tournaments import divisions, pairing, rounds, services

MAX_GAME_DAYS = 90  # the tournaments' own bound on a game's duration


class LeagueRefused(GameError):
    """The league cannot do this now (400); the message says why."""

    status = 400
    default_message = gettext_lazy("This cannot be done in this league.")


class LeagueNotFound(GameError):
    """No such league (404)."""

    status = 404
    default_message = gettext_lazy("There is no such league.")


@dataclass(frozen=True, kw_only=True)
class LeagueSettings(Clock):
    """What a league's creator chooses, and its games' clock; ``league_create`` checks every
    field.

    ``division_size`` 4–8 (what a division aims at); ``promote`` 1–2 players up and down
    per division; ``season_weeks`` 1–26; ``opt_in_days`` 1–30 (between two seasons);
    ``days_per_move`` 1–30, or a time bank and daily playing hours, checked as a
    tournament's (``services.clock_problems_of``: ``bank_days`` 1–30 with
    ``bank_increment_hours`` 0–72 and ``bank_cap_days`` from the start to 60;
    ``playing_start``/``playing_end`` both or neither, 2 hours a day at least, in an IANA
    ``playing_zone``); ``first_season_at`` in the future (None: in ``opt_in_days``);
    ``bots_fill_seats`` only when not ``is_rated``; ``access`` "open" or "invite", with
    ``invited`` (usernames of players) only, and always, for "invite".
    """

    name: str
    table_size: int = 2
    division_size: int = 6
    promote: int = 1
    season_weeks: int = 6
    opt_in_days: int = 7
    is_rated: bool = True
    first_season_at: datetime | None = None
    # an unrated league only: bots fill a bye's table and a short table's seats
    bots_fill_seats: bool = False
    # "open", or "invite": a group's league, only ``invited`` (usernames) and the creator
    access: str = Tournament.Access.OPEN
    invited: tuple[str, ...] = ()


def settings_problems(s: LeagueSettings) -> list[tuple[str, str]]:
    """Return every problem of ``s`` as (the setting's field name, a message), [] if none.

    All at once, so a form shows each beside its field (``LeagueSettings`` names the
    ranges). The invited names are not looked up here (``_invited`` does).
    """
    problems: list[tuple[str, str]] = []
    name = s.name.strip()
    if not name or len(name) > TOURNAMENT_NAME_MAX:
        problems.append(
            (
                "name",
                _("Give the league a name of 1 to %(n)s characters.") % {"n": TOURNAMENT_NAME_MAX},
            )
        )
    if not 2 <= s.table_size <= 4:
        problems.append(("table_size", _("Tables have 2 to 4 players.")))
    if not LEAGUE_DIVISION_MIN <= s.division_size <= LEAGUE_DIVISION_MAX:
        problems.append(
            (
                "division_size",
                _("A division has %(low)s to %(high)s players.")
                % {"low": LEAGUE_DIVISION_MIN, "high": LEAGUE_DIVISION_MAX},
            )
        )
    if not 1 <= s.promote <= LEAGUE_DIVISION_MIN // 2:
        problems.append(("promote", _("1 or 2 players go up and down each season.")))
    if not 1 <= s.season_weeks <= LEAGUE_MAX_WEEKS:
        problems.append(
            ("season_weeks", _("A season lasts 1 to %(n)s weeks.") % {"n": LEAGUE_MAX_WEEKS})
        )
    if not 1 <= s.opt_in_days <= 30:
        problems.append(("opt_in_days", _("Players have 1 to 30 days to join a season.")))
    problems += services.clock_problems_of(s)
    if s.first_season_at is not None and s.first_season_at <= timezone.now():
        problems.append(("first_season_at", _("The first season must start in the future.")))
    if s.bots_fill_seats and s.is_rated:
        problems.append(("bots_fill_seats", _("Bots may fill seats only in an unrated league.")))
    if s.access not in (Tournament.Access.OPEN, Tournament.Access.INVITE):
        problems.append(("access", _("A league is open to all or to its invited players only.")))
    elif s.access == Tournament.Access.INVITE and not s.invited:
        problems.append(("invited", _("Name at least one player to invite.")))
    elif s.invited and s.access != Tournament.Access.INVITE:
        problems.append(("invited", _("Only a league for invited players has invited players.")))
    return problems


def _check(s: LeagueSettings) -> None:
    problems = settings_problems(s)
    if problems:
        raise LeagueRefused(problems[0][1])


def _invited(usernames: tuple[str, ...]) -> list[int]:
    try:
        return services.invited_users(usernames)
    except services.TournamentRefused as exc:
        raise LeagueRefused(str(exc)) from None


def league_create(*, creator: UserLike, settings: LeagueSettings) -> League:
    """Create a league and open its first season for players to opt in.

    A group's league (``access`` "invite") stores its invited players and writes each a
    ``league_invite`` notice through the outbox. Raises ``NotAPlayer`` (anonymous) or
    ``LeagueRefused`` (a setting out of range, an unknown username: the message names
    it); nothing is saved then.
    """
    creator_id = user_id_of(creator)
    _check(settings)
    invited = _invited(settings.invited)
    with transaction.atomic():
        league = League.objects.create(
            name=settings.name.strip(),
            creator_id=creator_id,
            table_size=settings.table_size,
            division_size=settings.division_size,
            promote=settings.promote,
            season_weeks=settings.season_weeks,
            opt_in_days=settings.opt_in_days,
            is_rated=settings.is_rated,
            bots_fill_seats=settings.bots_fill_seats,
            access=settings.access,
            **settings.clock_fields(),
        )
        if invited:
            league.invited.set(invited)
            outbox_tournaments.notify_league_invited(league_id=league.pk, user_ids=invited)
        starts = settings.first_season_at or timezone.now() + timedelta(days=settings.opt_in_days)
        LeagueSeason.objects.create(league=league, number=1, starts_at=starts)
    return league


def _open_season(league_id: int) -> LeagueSeason:
    """Return the league's season open to opt in, its row locked; refuse when none."""
    if not League.objects.filter(pk=league_id).exists():
        raise LeagueNotFound()
    season = (
        LeagueSeason.objects.select_for_update()
        .filter(league_id=league_id, status=LeagueSeason.Status.OPT_IN)
        .order_by("-number")
        .first()
    )
    if season is None:
        raise LeagueRefused(_("The season has started: join the next one when it opens."))
    return season


def league_opt_in(*, league_id: int, user: UserLike) -> LeagueSeason:
    """Put ``user`` in the league's season that opens next; return that season.

    Raises ``NotAPlayer``, ``LeagueNotFound`` or ``LeagueRefused`` (no season open,
    joining closed by the creator, a group's league the user is not invited to, or
    already in).
    """
    user_id = user_id_of(user)
    with transaction.atomic():
        season = _open_season(league_id)
        league = League.objects.get(pk=league_id)
        if (
            league.access == Tournament.Access.INVITE
            and user_id != league.creator_id
            and not league.invited.filter(pk=user_id).exists()
        ):
            raise LeagueRefused(_("This league is for its invited players only."))
        if not league.registration_open:
            raise LeagueRefused(_("The league's creator has closed joining for now."))
        if season.members.filter(user_id=user_id).exists():
            raise LeagueRefused(_("You have already joined this season."))
        LeagueMember.objects.create(season=season, user_id=user_id)
    return season


def league_opt_out(*, league_id: int, user: UserLike) -> LeagueSeason:
    """Take ``user`` out of the season that opens next (before it starts).

    Raises ``NotAPlayer``, ``LeagueNotFound`` or ``LeagueRefused`` (no season open, or
    not in it). Once a season runs, a player leaves by withdrawing from their division.
    """
    user_id = user_id_of(user)
    with transaction.atomic():
        season = _open_season(league_id)
        deleted, _rows = season.members.filter(user_id=user_id).delete()
        if not deleted:
            raise LeagueRefused(_("You have not joined this season."))
    return season


def _ratings(user_ids: list[int]) -> dict[int, float]:
    """Return each user's displayed rating (a player without a profile: the default)."""
    fields = Profile._meta
    default = display_rating(
        fields.get_field("rating_mu").get_default(), fields.get_field("rating_sigma").get_default()
    )
    found = {
        user_id: display_rating(mu, sigma)
        for user_id, mu, sigma in Profile.objects.filter(user_id__in=user_ids).values_list(
            "user_id", "rating_mu", "rating_sigma"
        )
    }
    return {user_id: found.get(user_id, default) for user_id in user_ids}


def _last_results(season: LeagueSeason) -> dict[int, divisions.LastResult]:
    previous = (
        LeagueSeason.objects.filter(
            league_id=season.league_id,
            number__lt=season.number,
            status=LeagueSeason.Status.FINISHED,
        )
        .order_by("-number")
        .first()
    )
    if previous is None:
        return {}
    moves: dict[str, divisions.Move] = {"up": "up", "down": "down", "stay": "stay"}
    rows = previous.members.filter(division__isnull=False, final_rank__isnull=False)
    return {
        m.user_id: divisions.LastResult(
            division=m.division or 0, place=m.final_rank or 0, move=moves[m.move]
        )
        for m in rows
    }


def _locked_season(season_id: int) -> LeagueSeason:
    return LeagueSeason.objects.select_for_update().select_related("league").get(pk=season_id)


def season_start_due(*, season_id: int) -> str:
    """Start the season if its time has come: place its members, start its divisions.

    Returns ``"started"``, ``"postponed"`` (fewer than 4 members: the start moves
    ``opt_in_days`` later and they stay in) or ``"nothing to do"`` (not due, or started
    already).
    """
    with transaction.atomic():
        season = _locked_season(season_id)
        now = timezone.now()
        if season.status != LeagueSeason.Status.OPT_IN or season.starts_at > now:
            return "nothing to do"
        league = season.league
        members = {m.user_id: m for m in season.members.all()}
        if len(members) < LEAGUE_DIVISION_MIN:
            season.starts_at = now + timedelta(days=league.opt_in_days)
            season.save(update_fields=["starts_at"])
            return "postponed"
        order = divisions.ladder(
            list(members), ratings=_ratings(list(members)), last=_last_results(season)
        )
        for number, user_ids in enumerate(
            divisions.place_in_divisions(order, league.division_size), start=1
        ):
            tournament = _division_create(league, season, number, len(user_ids))
            for user_id in user_ids:
                TournamentPlayer.objects.create(tournament=tournament, user_id=user_id)
                members[user_id].division = number
                members[user_id].save(update_fields=["division"])
            LeagueDivision.objects.create(season=season, number=number, tournament=tournament)
            rounds.tournament_begin(tournament=rounds.locked_tournament(tournament.pk))
        season.status = LeagueSeason.Status.RUNNING
        season.started_at = now
        season.ends_at = now + timedelta(weeks=league.season_weeks)
        season.save(update_fields=["status", "started_at", "ends_at"])
    return "started"


def _division_create(league: League, season: LeagueSeason, number: int, size: int) -> Tournament:
    """Create division ``number``'s round robin; each game gets its share of the weeks.

    The division takes the league's time control and playing hours as they are now (a
    running season keeps them when the creator changes the next season's).
    """
    smallest = 2 if league.table_size <= 3 else 3
    round_count = pairing.round_robin_rounds(size, league.table_size, smallest)
    game_days = max(3, min(MAX_GAME_DAYS, league.season_weeks * 7 // round_count))
    return Tournament.objects.create(
        # the league's name: "season 2 · division 1" is said when shown, in the reader's
        # language (``games.text.events.event_name``), from the ``LeagueDivision`` row
        name=league.name,
        creator_id=league.creator_id,
        kind=Tournament.Kind.ROUND_ROBIN,
        table_size=league.table_size,
        min_table_size=smallest,
        max_players=size,
        is_rated=league.is_rated,
        bots_fill_seats=league.bots_fill_seats and not league.is_rated,
        max_game_days=game_days,
        **clock_of(league).clock_fields(),
    )


def season_end_due(*, season_id: int) -> str:
    """End the running season when every division has finished or its weeks are over.

    At the end each division still running is closed (``rounds.tournament_close``: its
    games in progress ended as they stand), each member gets their place in the
    division's standings and their move (``divisions.moves``), and the next season
    opens, starting ``opt_in_days`` later. Returns ``"ended"`` or ``"nothing to do"``.
    """
    with transaction.atomic():
        season = _locked_season(season_id)
        now = timezone.now()
        if season.status != LeagueSeason.Status.RUNNING:
            return "nothing to do"
        division_rows = list(season.divisions.select_related("tournament").order_by("number"))
        running = [d for d in division_rows if d.tournament.status == Tournament.Status.RUNNING]
        if running and (season.ends_at is None or season.ends_at > now):
            return "nothing to do"
        for division in running:
            rounds.tournament_close(tournament_id=division.tournament_id)
        members = {m.user_id: m for m in season.members.all()}
        for division in division_rows:
            users = dict(
                TournamentPlayer.objects.filter(tournament_id=division.tournament_id).values_list(
                    "pk", "user_id"
                )
            )
            places = [users[row.player] for row in rounds.standings_of(division.tournament_id)]
            moved = divisions.moves(
                division.number, len(division_rows), places, season.league.promote
            )
            for place, user_id in enumerate(places, start=1):
                member = members[user_id]
                member.final_rank = place
                member.move = moved[user_id]
                member.save(update_fields=["final_rank", "move"])
        season.status = LeagueSeason.Status.FINISHED
        season.finished_at = now
        season.save(update_fields=["status", "finished_at"])
        division_of = {
            user_id: division.tournament_id
            for division in division_rows
            for user_id in TournamentPlayer.objects.filter(
                tournament_id=division.tournament_id
            ).values_list("user_id", flat=True)
        }
        outbox_tournaments.notify_season_over(season=season.number, members=division_of)
        LeagueSeason.objects.create(
            league_id=season.league_id,
            number=season.number + 1,
            starts_at=now + timedelta(days=season.league.opt_in_days),
        )
    return "ended"


def leagues_sweep() -> dict[str, int]:
    """Start the seasons whose time came and end those done; return the counts.

    ``{"seasons_started", "seasons_ended"}``; run by the tournaments' sweep every minute.
    """
    now = timezone.now()
    counts = {"seasons_started": 0, "seasons_ended": 0}
    due = LeagueSeason.objects.filter(status=LeagueSeason.Status.OPT_IN, starts_at__lte=now)
    for season_id in due.values_list("pk", flat=True):
        counts["seasons_started"] += season_start_due(season_id=season_id) == "started"
    running = LeagueSeason.objects.filter(status=LeagueSeason.Status.RUNNING)
    for season_id in running.values_list("pk", flat=True):
        counts["seasons_ended"] += season_end_due(season_id=season_id) == "ended"
    return counts


# --- The creator's page (issue 30): joining open or closed, removing a player, the next
# season's settings. Each locks the league's row and checks its creator.


@dataclass(frozen=True, kw_only=True)
class NextSeasonSettings(Clock):
    """What a league's creator may change for the seasons that have not started.

    The ranges of ``LeagueSettings`` (the time control and playing hours too);
    ``invited`` (a group's league) is the whole list: players added are told, players left
    out may no longer join.
    """

    division_size: int
    promote: int
    season_weeks: int
    opt_in_days: int
    bots_fill_seats: bool = False
    invited: tuple[str, ...] = ()


def _creators_league(league_id: int, user_id: int) -> League:
    league = League.objects.select_for_update().filter(pk=league_id).first()
    if league is None:
        raise LeagueNotFound()
    if league.creator_id != user_id:
        raise LeagueRefused(_("Only the league's creator can do this."))
    return league


def league_registration_set(*, league_id: int, user: UserLike, is_open: bool) -> League:
    """Open or close joining the season that opens next (the league's creator only).

    Raises ``NotAPlayer``, ``LeagueNotFound`` or ``LeagueRefused`` (not the creator).
    Players already in stay in.
    """
    user_id = user_id_of(user)
    with transaction.atomic():
        league = _creators_league(league_id, user_id)
        league.registration_open = is_open
        league.save(update_fields=["registration_open"])
    return league


def league_update(*, league_id: int, user: UserLike, settings: NextSeasonSettings) -> League:
    """Change the settings of the seasons not yet started (the league's creator only).

    A running season keeps its divisions and games, and the time control and playing
    hours its divisions took at its start; the season open to join and every later one
    are placed and played by the new settings. Newly invited players of a
    group's league get a ``league_invite`` notice. Raises ``LeagueRefused`` (not the
    creator, or a setting out of range: nothing changes) or ``LeagueNotFound``.
    """
    user_id = user_id_of(user)
    with transaction.atomic():
        league = _creators_league(league_id, user_id)
        # the league's own settings with the changed ones: each a ``LeagueSettings`` field
        changed = {f.name: getattr(settings, f.name) for f in dataclass_fields(settings)}
        _check(
            LeagueSettings(
                name=league.name,
                table_size=league.table_size,
                is_rated=league.is_rated,
                access=league.access,
                **changed,
            )
        )
        invited = _invited(settings.invited)
        for field in ("division_size", "promote", "season_weeks", "opt_in_days"):
            setattr(league, field, getattr(settings, field))
        for field, value in settings.clock_fields().items():
            setattr(league, field, value)
        league.bots_fill_seats = settings.bots_fill_seats
        league.save()
        if league.access == Tournament.Access.INVITE:
            before = set(league.invited.values_list("pk", flat=True))
            league.invited.set(invited)
            added = [pk for pk in invited if pk not in before]
            outbox_tournaments.notify_league_invited(league_id=league.pk, user_ids=added)
    return league


def league_member_remove(*, league_id: int, user: UserLike, username: str) -> str:
    """Take the player ``username`` (or display name) out of the league (its creator only).

    From the season open to join, they are taken out of it (``"removed"``); from a running
    season, they are withdrawn from their division (their games resigned, their results
    kept: ``"withdrawn"``). Raises ``LeagueRefused`` (not the creator, or no such player
    in the league now) or ``LeagueNotFound``.
    """
    user_id = user_id_of(user)
    with transaction.atomic():
        league = _creators_league(league_id, user_id)
        named = Q(user__username__iexact=username.strip()) | Q(
            user__profile__name_key=names.name_key(username.strip())
        )  # the name the site shows (display name, look-alikes matched) or the username
        member = (
            LeagueMember.objects.filter(
                named,
                season__league=league,
                season__status__in=[LeagueSeason.Status.OPT_IN, LeagueSeason.Status.RUNNING],
            )
            .select_related("season")
            .order_by("-season__number")
            .first()
        )
        if member is None:
            raise LeagueRefused(
                _("%(name)s is not playing in this league now.") % {"name": username.strip()}
            )
        if member.season.status == LeagueSeason.Status.OPT_IN:
            member.delete()
            return "removed"
        division = member.season.divisions.filter(number=member.division or 0).first()
        player = (
            TournamentPlayer.objects.filter(
                tournament_id=division.tournament_id if division else 0,
                user_id=member.user_id,
                withdrawn_at__isnull=True,
            )
            .select_related("user")
            .first()
        )
        if division is None or player is None:
            raise LeagueRefused(_("%(name)s has already left.") % {"name": username.strip()})
        tournament = rounds.locked_tournament(division.tournament_id)
        if tournament.status != Tournament.Status.RUNNING:
            raise LeagueRefused(_("%(name)s has already left.") % {"name": username.strip()})
        rounds.player_withdraw(tournament=tournament, player=player)
    return "withdrawn"
