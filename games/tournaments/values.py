"""What the tournament pages and the API show (issue 30): small frozen values, never rows.

A table's places and points appear only once its game has ended (an entry is recorded
then), so nothing here tells a running game's score, hand, bag or seed: the players'
names, the game's id and whether it is in progress.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, time
from typing import Any

from django.db.models import Q

from games.core.timecontrol import Clock, clock_of
from games.models import (
    LeagueDivision,
    LeagueMember,
    Tournament,
    TournamentEntry,
    TournamentPlayer,
    TournamentTable,
)
from games.selectors.people import Person, person_of
from games.text.events import event_name
from games.tournaments import rounds


@dataclass(frozen=True, kw_only=True)
class TournamentHeader(Clock):
    """A tournament's settings, its games' clock (``Clock``'s fields) and where it is."""

    id: int
    name: str
    kind: str
    kind_label: str
    status: str
    status_label: str
    access: str
    access_label: str
    table_size: int
    min_table_size: int
    rounds: int
    current_round: int
    players: int
    max_players: int
    points_by_rank: tuple[int, ...]
    bye_points: int
    is_rated: bool
    bots_fill_seats: bool
    # every game's control in words, in the active language ("3 days per move", a bank)
    time_control: str
    max_game_days: int
    min_rating: int | None
    max_rating: int | None
    starts_at: datetime | None
    start_when_full: int | None
    creator_id: int


@dataclass(frozen=True)
class StandingLine:
    """One line of the standings."""

    rank: int
    person: Person
    points: int
    buchholz: int
    game_points: int
    played: int
    byes: int
    withdrawn: bool


@dataclass(frozen=True)
class Seating:
    """One player at a table; ``place``/``points`` None while the game runs."""

    person: Person
    place: int | None
    points: int | None


@dataclass(frozen=True)
class TableLine:
    """One table of a round: its game's id (None: a bye) and whether it has ended."""

    number: int
    game_id: int | None
    finished: bool
    seats: tuple[Seating, ...]


@dataclass(frozen=True)
class RoundLine:
    """One round and its tables."""

    number: int
    finished: bool
    tables: tuple[TableLine, ...]


@dataclass(frozen=True)
class TournamentDetail:
    """Everything a tournament's page shows, and what the viewer may do there."""

    header: TournamentHeader
    standings: tuple[StandingLine, ...]
    rounds: tuple[RoundLine, ...]
    registered: bool
    can_start: bool
    # whether the viewer may press Register (an invitation-only event: the invited only)
    may_register: bool = True
    # the invited players of an invitation-only event, shown to its creator only
    invited: tuple[Person, ...] = ()
    # an invitation-only event the viewer is not invited to: its header only
    # (``tournament_outside``), no standings, rounds or names
    outside: bool = False


@dataclass(frozen=True)
class TournamentLink:
    """The event a game is a table of: its id, name and the round's number, and the game's
    daily playing hours (local times in the IANA ``playing_zone``; None: the clocks always
    run), which its deadline counts (``games.core.quiet.PlayingHours``)."""

    id: int
    name: str
    round: int
    playing_start: time | None = None
    playing_end: time | None = None
    playing_zone: str = ""


def tournament_of_game(game_id: int) -> TournamentLink | None:
    """Return the tournament whose table ``game_id`` is, or None (one query)."""
    row = (
        TournamentTable.objects.filter(game_id=game_id)
        .values_list(
            "round__tournament_id",
            "round__tournament__name",
            "round__number",
            "round__tournament__league_division__season__number",
            "round__tournament__league_division__number",
            "game__playing_start",
            "game__playing_end",
            "game__playing_zone",
        )
        .first()
    )
    if row is None:
        return None
    return TournamentLink(
        id=row[0],
        name=event_name(row[1], row[3], row[4]),
        round=row[2],
        playing_start=row[5],
        playing_end=row[6],
        playing_zone=row[7] or "UTC",
    )


def visible(user: Any, token: str | None = None) -> Q:
    """Match the tournaments ``user`` may see: open ones, and link-only or invitation-only
    ones they created, are in or (invitation-only, or link-only with its ``token``) were
    invited to. A link does not open an invitation-only event's page to others."""
    seen = Q(access=Tournament.Access.OPEN)
    if token:
        seen |= Q(invite_token=token, access=Tournament.Access.LINK)
    if user.is_authenticated:
        seen |= Q(creator_id=user.pk) | Q(players__user_id=user.pk) | Q(invited=user.pk)
    return seen


def header_of(
    t: Tournament, players: int, division: tuple[int, int] | None = None
) -> TournamentHeader:
    """Return the header of row ``t`` with ``players`` registered; ``division`` (season,
    division) names a league's division in the active language."""
    points = rounds.points_for(t, t.table_size)
    clock = clock_of(t)
    return TournamentHeader(
        id=t.pk,
        name=event_name(t.name, *(division or (None, None))),
        kind=t.kind,
        kind_label=str(t.get_kind_display()),
        status=t.status,
        status_label=str(t.get_status_display()),
        access=t.access,
        access_label=str(t.get_access_display()),
        table_size=t.table_size,
        min_table_size=t.min_table_size,
        rounds=t.rounds,
        current_round=t.current_round,
        players=players,
        max_players=t.max_players,
        points_by_rank=tuple(points),
        bye_points=t.bye_points,
        is_rated=t.is_rated,
        bots_fill_seats=t.bots_fill_seats,
        time_control=clock.control().words(),
        **clock.clock_fields(),
        max_game_days=t.max_game_days,
        min_rating=t.min_rating,
        max_rating=t.max_rating,
        starts_at=t.starts_at,
        start_when_full=t.start_when_full,
        creator_id=t.creator_id,
    )


def tournaments_list(
    user: Any, *, status: str | None = None, limit: int = 100
) -> list[TournamentHeader]:
    """Return the tournaments ``user`` may see, newest first (``status`` filters).

    A league's divisions are listed on their league's page, not here.
    """
    rows = (
        Tournament.objects.filter(visible(user), league_division__isnull=True)
        .distinct()
        .order_by("-created_at", "-pk")
    )
    if status:
        rows = rows.filter(status=status)
    found = list(rows[:limit])
    counts: dict[int, int] = {}
    for tid in TournamentPlayer.objects.filter(tournament__in=found).values_list(
        "tournament_id", flat=True
    ):
        counts[tid] = counts.get(tid, 0) + 1
    return [header_of(t, counts.get(t.pk, 0)) for t in found]


def tournament_detail(
    tournament_id: int, user: Any, token: str | None = None
) -> TournamentDetail | None:
    """Return the page's values, or None when there is no such tournament for ``user``."""
    t = Tournament.objects.filter(visible(user, token), pk=tournament_id).distinct().first()
    if t is None:
        return None
    players = {
        p.pk: p
        for p in TournamentPlayer.objects.filter(tournament=t).select_related("user__profile")
    }
    people = {pk: person_of(p.user) for pk, p in players.items()}
    lines = tuple(
        StandingLine(
            rank=r.rank,
            person=people[r.player],
            points=r.points,
            buchholz=r.buchholz,
            game_points=r.game_points,
            played=r.played,
            byes=r.byes,
            withdrawn=players[r.player].withdrawn_at is not None,
        )
        for r in rounds.standings_of(t.pk)
    )
    entries: dict[int, list[TournamentEntry]] = {}
    for e in TournamentEntry.objects.filter(table__round__tournament=t).order_by("table", "id"):
        entries.setdefault(e.table_id, []).append(e)
    by_round: dict[int, list[TableLine]] = {}
    finished_rounds = {}
    for table in TournamentTable.objects.filter(round__tournament=t).select_related("round"):
        done = table.finished_at is not None
        finished_rounds[table.round.number] = table.round.finished_at is not None
        by_round.setdefault(table.round.number, []).append(
            TableLine(
                number=table.number,
                game_id=table.game_id,
                finished=done,
                seats=tuple(
                    Seating(
                        person=people[e.player_id],
                        place=e.place if done else None,
                        points=e.points if done else None,
                    )
                    for e in sorted(entries.get(table.pk, []), key=lambda e: (e.place or 0, e.pk))
                ),
            )
        )
    round_lines = tuple(
        RoundLine(number=n, finished=finished_rounds[n], tables=tuple(by_round[n]))
        for n in sorted(by_round, reverse=True)
    )
    me = user.pk if user.is_authenticated else None
    registered = any(p.user_id == me and p.withdrawn_at is None for p in players.values())
    invited: tuple[Person, ...] = ()
    may_register = True
    if t.access == Tournament.Access.INVITE:
        may_register = me == t.creator_id or t.invited.filter(pk=me or 0).exists()
        if me == t.creator_id:
            invited = tuple(
                person_of(u) for u in t.invited.select_related("profile").order_by("username")
            )
    division = (
        LeagueDivision.objects.filter(tournament=t).values_list("season__number", "number").first()
    )
    return TournamentDetail(
        header=header_of(t, len(players), division),
        standings=lines,
        rounds=round_lines,
        registered=registered,
        can_start=me == t.creator_id and t.status == Tournament.Status.REGISTRATION,
        may_register=may_register,
        invited=invited,
    )


def tournament_outside(tournament_id: int) -> TournamentDetail | None:
    """Return what anyone may see of invitation-only event ``tournament_id``: its header.

    For a viewer ``tournament_detail`` refuses (not invited): a newcomer sent the link
    learns what the event is and that it is by invitation only, instead of a bare 404.
    The header is the event's settings and how many have registered; the standings, the
    rounds, the players' and the invited's names stay with those invited (a group's
    event). None for any other event (no such id, or one not invitation-only: a link-only
    event stays unseen without its token). Two queries.
    """
    t = Tournament.objects.filter(pk=tournament_id, access=Tournament.Access.INVITE).first()
    if t is None:
        return None
    players = TournamentPlayer.objects.filter(tournament=t).count()
    division = (
        LeagueDivision.objects.filter(tournament=t).values_list("season__number", "number").first()
    )
    return TournamentDetail(
        header=header_of(t, players, division),
        standings=(),
        rounds=(),
        registered=False,
        can_start=False,
        may_register=False,
        outside=True,
    )


@dataclass(frozen=True)
class PlayerEvent:
    """A tournament or a league a player is in, as their profile lists it.

    ``kind`` "tournament" or "league"; ``status_label`` where it is; for a league the
    newest season the player joined (``season``), their division and, once it is over,
    their place and move ("up", "down", "stay").
    """

    kind: str
    id: int
    name: str
    status_label: str
    season: int | None = None
    division: int | None = None
    place: int | None = None
    move: str = ""


def player_events(user_id: int, viewer: Any, *, limit: int = 10) -> tuple[PlayerEvent, ...]:
    """Return the ``limit`` newest tournaments ``viewer`` may see and leagues of a player.

    A league's divisions are listed as their league (its newest season the player joined).
    """
    found = (
        Tournament.objects.filter(
            visible(viewer), players__user_id=user_id, league_division__isnull=True
        )
        .distinct()
        .order_by("-created_at", "-pk")[:limit]
    )
    events = [
        PlayerEvent(
            kind="tournament", id=t.pk, name=t.name, status_label=str(t.get_status_display())
        )
        for t in found
    ]
    seen: set[int] = set()
    members = LeagueMember.objects.filter(user_id=user_id).select_related("season__league")
    for member in members.order_by("-season__number", "-pk"):
        league = member.season.league
        if league.pk in seen or len(seen) >= limit:
            continue
        seen.add(league.pk)
        events.append(
            PlayerEvent(
                kind="league",
                id=league.pk,
                name=league.name,
                status_label=str(member.season.get_status_display()),
                season=member.season.number,
                division=member.division,
                place=member.final_rank,
                move=member.move,
            )
        )
    return tuple(events)
