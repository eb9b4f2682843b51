"""What the league pages and the API show (issue 30): small frozen values, never rows.

A division's standings come from its round robin's finished tables only
(``rounds.standings_of``), so nothing of a running game (its score, hands, bag or seed)
is here: people, numbers of points, the division's tournament id.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Count, F, Max, Q

from games.core.timecontrol import Clock, clock_of
from games.models import League, LeagueMember, LeagueSeason, Tournament, TournamentPlayer
from games.selectors.people import Person, person_of
from games.tournaments import rounds


@dataclass(frozen=True, kw_only=True)
class LeagueHeader(Clock):
    """A league's settings, its games' clock (``Clock``'s fields: the next season's) and its
    newest season."""

    id: int
    name: str
    table_size: int
    division_size: int
    promote: int
    season_weeks: int
    opt_in_days: int
    # every division game's control in words, in the active language ("3 days per move", a
    # bank); the divisions take the clock when a season starts
    time_control: str
    is_rated: bool
    bots_fill_seats: bool
    access: str
    access_label: str
    registration_open: bool
    season: int
    season_status: str
    season_status_label: str
    season_starts_at: datetime
    members: int


@dataclass(frozen=True)
class DivisionLine:
    """One line of a division's standings; ``move`` ("up", "down", "stay") once it ended."""

    place: int
    person: Person
    points: int
    buchholz: int
    game_points: int
    played: int
    withdrawn: bool
    move: str
    move_label: str


@dataclass(frozen=True)
class Division:
    """One division of a season (1: the top) and its round robin's standings."""

    number: int
    tournament_id: int
    finished: bool
    current_round: int
    rounds: int
    standings: tuple[DivisionLine, ...]


@dataclass(frozen=True)
class Season:
    """One season: where it is, its dates, its divisions (none before the start)."""

    number: int
    status: str
    status_label: str
    starts_at: datetime
    ends_at: datetime | None
    members: tuple[Person, ...]
    divisions: tuple[Division, ...]


@dataclass(frozen=True)
class LeagueDetail:
    """Everything a league's page shows, and what the viewer may do there.

    ``open_season``: the season players may opt in for (None while one runs);
    ``season``: the season shown (the one asked for, else the running one, else the
    last finished one; None before any has started); ``seasons``: every season's number
    that has started; ``opted_in``: the viewer is in ``open_season``.
    """

    header: LeagueHeader
    open_season: Season | None
    season: Season | None
    seasons: tuple[int, ...]
    opted_in: bool
    # the viewer created the league: its creator's page (``/leagues/<id>/manage``)
    can_manage: bool = False
    # whether the viewer may join (a group's league: its invited players and creator)
    may_join: bool = True
    # a group's league's invited players, for its creator only
    invited: tuple[Person, ...] = ()


def visible(user: Any) -> Q:
    """Match the leagues ``user`` may see: open ones, and a group's league they created,
    were invited to or played in."""
    seen = Q(access=Tournament.Access.OPEN)
    if user is not None and user.is_authenticated:
        seen |= Q(creator_id=user.pk) | Q(invited=user.pk) | Q(seasons__members__user_id=user.pk)
    return seen


def header_of(league: League, season: LeagueSeason, members: int | None = None) -> LeagueHeader:
    """Return the header of ``league`` with its newest ``season`` (``members`` who joined
    it, counted here when not given)."""
    clock = clock_of(league)
    return LeagueHeader(
        id=league.pk,
        name=league.name,
        table_size=league.table_size,
        division_size=league.division_size,
        promote=league.promote,
        season_weeks=league.season_weeks,
        opt_in_days=league.opt_in_days,
        time_control=clock.control().words(),
        **clock.clock_fields(),
        is_rated=league.is_rated,
        bots_fill_seats=league.bots_fill_seats,
        access=league.access,
        access_label=str(league.get_access_display()),
        registration_open=league.registration_open,
        season=season.number,
        season_status=season.status,
        season_status_label=str(season.get_status_display()),
        season_starts_at=season.starts_at,
        members=season.members.count() if members is None else members,
    )


def leagues_list(user: Any = None, *, limit: int = 100) -> list[LeagueHeader]:
    """Return the leagues ``user`` may see, newest first, each with its newest season.

    Two queries whatever the number of leagues: the leagues, then their newest seasons
    with the number who joined each (``Count``).
    """
    found = list(
        League.objects.filter(visible(user)).distinct().order_by("-created_at", "-pk")[:limit]
    )
    newest = (
        LeagueSeason.objects.filter(league__in=found)
        .annotate(
            joined=Count("members", distinct=True),
            last=Max("league__seasons__number"),
        )
        .filter(number=F("last"))
    )
    by_league = {s.league_id: s for s in newest}
    return [
        header_of(league, by_league[league.pk], by_league[league.pk].joined)
        for league in found
        if league.pk in by_league
    ]


def _season_of(season: LeagueSeason) -> Season:
    members = list(season.members.select_related("user__profile"))
    people = {m.user_id: person_of(m.user) for m in members}
    by_user = {m.user_id: m for m in members}
    finished = season.status == LeagueSeason.Status.FINISHED
    division_values = []
    for division in season.divisions.select_related("tournament").order_by("number"):
        tournament = division.tournament
        players = {
            p.pk: p
            for p in TournamentPlayer.objects.filter(tournament=tournament).select_related(
                "user__profile"
            )
        }
        lines = []
        for place, row in enumerate(rounds.standings_of(tournament.pk), start=1):
            player = players[row.player]
            member = by_user.get(player.user_id)
            move = member.move if finished and member is not None else ""
            lines.append(
                DivisionLine(
                    place=place,
                    person=people.get(player.user_id) or person_of(player.user),
                    points=row.points,
                    buchholz=row.buchholz,
                    game_points=row.game_points,
                    played=row.played,
                    withdrawn=player.withdrawn_at is not None,
                    move=move,
                    move_label=str(LeagueMember.Move(move).label) if move else "",
                )
            )
        division_values.append(
            Division(
                number=division.number,
                tournament_id=tournament.pk,
                finished=tournament.status != tournament.Status.RUNNING,
                current_round=tournament.current_round,
                rounds=tournament.rounds,
                standings=tuple(lines),
            )
        )
    return Season(
        number=season.number,
        status=season.status,
        status_label=str(season.get_status_display()),
        starts_at=season.starts_at,
        ends_at=season.ends_at,
        members=tuple(sorted(people.values(), key=lambda p: p.display_name.casefold())),
        divisions=tuple(division_values),
    )


def league_detail(
    league_id: int, user: Any, season_number: int | None = None
) -> LeagueDetail | None:
    """Return the page's values, or None when there is no such league (or season)."""
    league = League.objects.filter(visible(user), pk=league_id).distinct().first()
    if league is None:
        return None
    seasons = list(league.seasons.order_by("number"))
    opened = next((s for s in seasons if s.status == LeagueSeason.Status.OPT_IN), None)
    played = [s for s in seasons if s.status != LeagueSeason.Status.OPT_IN]
    if season_number is not None:
        shown = next((s for s in played if s.number == season_number), None)
        if shown is None:
            return None
    else:
        shown = played[-1] if played else None
    me = user.pk if user.is_authenticated else None
    invited = (
        list(league.invited.select_related("profile").order_by("username"))
        if me == league.creator_id
        else []
    )
    return LeagueDetail(
        header=header_of(league, seasons[-1]),
        open_season=_season_of(opened) if opened else None,
        season=_season_of(shown) if shown else None,
        seasons=tuple(s.number for s in played),
        opted_in=me is not None
        and opened is not None
        and opened.members.filter(user_id=me).exists(),
        can_manage=me == league.creator_id,
        may_join=league.access == Tournament.Access.OPEN
        or me == league.creator_id
        or (me is not None and league.invited.filter(pk=me).exists()),
        invited=tuple(person_of(u) for u in invited),
    )
