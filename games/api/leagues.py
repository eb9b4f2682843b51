"""The API's leagues (issue 30): the leagues, a league's seasons and divisions' standings.

Read only, from ``games.tournaments.league_values`` (frozen values): a division's
standings count finished tables only, and a division's games are listed by its
tournament (``/tournaments/{id}/rounds``), so nothing of a running game is here.
"""

# No "from __future__ import annotations": django-ninja reads the parameters' types at import.

from datetime import datetime
from typing import Annotated

from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from ninja import Path, Router, Schema

from games.api.auth import principal
from games.api.endpoints import ID_MAX, ApiError, refusals
from games.api.schemas import PlayerRef, schema_of
from games.api.values import person_ref
from games.tournaments import league_values

router = Router()

LeagueId = Annotated[int, Path(ge=1, le=ID_MAX, description="A league's id")]
SeasonNumber = Annotated[int, Path(ge=1, le=10_000, description="A season's number")]


class LeagueOut(
    schema_of(  # type: ignore[misc]  # a dynamic base: the schema made from the header
        league_values.LeagueHeader,
        descriptions={
            "access": '"open", or "invite": its invited players only',
            "time_control": "The divisions' games' time control, in words",
            "bank_days": "A time bank's start in days; null: days per move",
            "playing_start": "Daily playing hours' start; null: none",
            "playing_zone": "The playing hours' time zone (IANA)",
        },
    )
):
    """A league's settings and its newest season (``league_values.LeagueHeader``'s fields)."""


class DivisionLineOut(Schema):
    """A line of a division's standings; ``move`` ("up", "down", "stay") once it ended."""

    place: int
    player: PlayerRef
    points: int
    buchholz: int
    game_points: int
    played: int
    withdrawn: bool
    move: str


class DivisionOut(Schema):
    """A division (1: the top) and its round robin (``tournament_id``)."""

    number: int
    tournament_id: int
    finished: bool
    current_round: int
    rounds: int
    standings: list[DivisionLineOut]


class SeasonOut(Schema):
    """A season: where it is, who joined, its divisions (none before the start)."""

    number: int
    status: str
    starts_at: datetime
    ends_at: datetime | None
    members: list[PlayerRef]
    divisions: list[DivisionOut]


class LeagueDetailOut(Schema):
    """A league, its season open to join (if any), the season shown and every season's number."""

    league: LeagueOut
    open_season: SeasonOut | None
    season: SeasonOut | None
    seasons: list[int]


def _out(h: league_values.LeagueHeader) -> LeagueOut:
    # the schema reads the frozen header's attributes of the same names (pydantic)
    out: LeagueOut = LeagueOut.model_validate(h, from_attributes=True)
    return out


def _season(s: league_values.Season | None) -> SeasonOut | None:
    if s is None:
        return None
    return SeasonOut(
        number=s.number,
        status=s.status,
        starts_at=s.starts_at,
        ends_at=s.ends_at,
        members=[person_ref(p) for p in s.members],
        divisions=[
            DivisionOut(
                number=d.number,
                tournament_id=d.tournament_id,
                finished=d.finished,
                current_round=d.current_round,
                rounds=d.rounds,
                standings=[
                    DivisionLineOut(
                        place=line.place,
                        player=person_ref(line.person),
                        points=line.points,
                        buchholz=line.buchholz,
                        game_points=line.game_points,
                        played=line.played,
                        withdrawn=line.withdrawn,
                        move=line.move,
                    )
                    for line in d.standings
                ],
            )
            for d in s.divisions
        ],
    )


def _detail(request: HttpRequest, league_id: int, season: int | None) -> LeagueDetailOut:
    detail = league_values.league_detail(league_id, principal(request).user, season)
    if detail is None:
        raise ApiError(404, "not_found", _("There is no such league or season."))
    return LeagueDetailOut(
        league=_out(detail.header),
        open_season=_season(detail.open_season),
        season=_season(detail.season),
        seasons=list(detail.seasons),
    )


@router.get(
    "/leagues",
    response={200: list[LeagueOut], **refusals(422)},
    tags=["leagues"],
    summary="List leagues",
)
def leagues_list(request: HttpRequest) -> list[LeagueOut]:
    """The 100 newest leagues, each with its newest season."""
    return [_out(h) for h in league_values.leagues_list(principal(request).user)]


@router.get(
    "/leagues/{league_id}",
    response={200: LeagueDetailOut, **refusals(404, 422)},
    tags=["leagues"],
    summary="One league",
)
def league_detail(request: HttpRequest, league_id: LeagueId) -> LeagueDetailOut:
    """The league, the season open to join, and the running (or last) season's divisions."""
    return _detail(request, league_id, None)


@router.get(
    "/leagues/{league_id}/seasons/{number}",
    response={200: LeagueDetailOut, **refusals(404, 422)},
    tags=["leagues"],
    summary="A league's season",
)
def league_season(
    request: HttpRequest, league_id: LeagueId, number: SeasonNumber
) -> LeagueDetailOut:
    """The league with season ``number`` (one that has started) and its divisions."""
    return _detail(request, league_id, number)
