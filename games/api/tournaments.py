"""The API's tournaments (issue 30): the events, their standings and rounds.

Read only, from ``games.tournaments.values`` (frozen values): a running game shows only
its id and players, never a score; places and points appear once a table has ended. A
link-only event the requester is not in answers 404 as one that does not exist.
"""

# No "from __future__ import annotations": django-ninja reads the parameters' types at import.

from typing import Annotated, Literal

from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from ninja import Path, Router, Schema

from games.api.auth import principal
from games.api.endpoints import ID_MAX, ApiError, refusals
from games.api.schemas import PlayerRef, schema_of
from games.api.values import person_ref
from games.tournaments import values

router = Router()

TournamentId = Annotated[int, Path(ge=1, le=ID_MAX, description="A tournament's id")]
StatusFilter = Literal["registration", "running", "finished", "cancelled"]


class TournamentOut(
    schema_of(  # type: ignore[misc]  # a dynamic base: the schema made from the header
        values.TournamentHeader,
        leave_out=(
            "access",
            "min_rating",
            "max_rating",
            "start_when_full",
            "creator_id",
        ),
        descriptions={
            "time_control": "Every game's time control, in words",
            "bank_days": "A time bank's start in days; null: days per move",
            "playing_start": "Daily playing hours' start; null: none",
            "playing_zone": "The playing hours' time zone (IANA)",
        },
    )
):
    """A tournament's settings and where it is (``values.TournamentHeader``'s fields)."""


class StandingOut(Schema):
    """One line of the standings (tie-breaks: Buchholz, then game points)."""

    rank: int
    player: PlayerRef
    points: int
    buchholz: int
    game_points: int
    played: int
    byes: int
    withdrawn: bool


class SeatingOut(Schema):
    """A player at a table; ``place`` and ``points`` null until the table has ended."""

    player: PlayerRef
    place: int | None
    points: int | None


class TableOut(Schema):
    """A table: its game (null: a bye) and whether it has ended."""

    number: int
    game_id: int | None
    finished: bool
    seats: list[SeatingOut]


class RoundOut(Schema):
    """A round and its tables."""

    number: int
    finished: bool
    tables: list[TableOut]


def _out(h: values.TournamentHeader) -> TournamentOut:
    # the schema reads the frozen header's attributes of the same names (pydantic)
    out: TournamentOut = TournamentOut.model_validate(h, from_attributes=True)
    return out


def _detail(request: HttpRequest, tournament_id: int) -> values.TournamentDetail:
    detail = values.tournament_detail(tournament_id, principal(request).user)
    if detail is None:
        raise ApiError(404, "not_found", _("There is no such tournament."))
    return detail


@router.get(
    "/tournaments",
    response={200: list[TournamentOut], **refusals(422)},
    tags=["tournaments"],
    summary="List tournaments",
)
def tournaments_list(
    request: HttpRequest, status: StatusFilter | None = None
) -> list[TournamentOut]:
    """The 100 newest tournaments the requester may see; filter by status."""
    return [_out(h) for h in values.tournaments_list(principal(request).user, status=status)]


@router.get(
    "/tournaments/{tournament_id}",
    response={200: TournamentOut, **refusals(404, 422)},
    tags=["tournaments"],
    summary="One tournament",
)
def tournament_detail(request: HttpRequest, tournament_id: TournamentId) -> TournamentOut:
    """The tournament's settings and where it is."""
    return _out(_detail(request, tournament_id).header)


@router.get(
    "/tournaments/{tournament_id}/standings",
    response={200: list[StandingOut], **refusals(404, 422)},
    tags=["tournaments"],
    summary="A tournament's standings",
)
def tournament_standings(request: HttpRequest, tournament_id: TournamentId) -> list[StandingOut]:
    """The standings, best first: points, then Buchholz, then game points."""
    return [
        StandingOut(
            rank=line.rank,
            player=person_ref(line.person),
            points=line.points,
            buchholz=line.buchholz,
            game_points=line.game_points,
            played=line.played,
            byes=line.byes,
            withdrawn=line.withdrawn,
        )
        for line in _detail(request, tournament_id).standings
    ]


@router.get(
    "/tournaments/{tournament_id}/rounds",
    response={200: list[RoundOut], **refusals(404, 422)},
    tags=["tournaments"],
    summary="A tournament's rounds",
)
def tournament_rounds(request: HttpRequest, tournament_id: TournamentId) -> list[RoundOut]:
    """The rounds, the latest first, with their tables and games."""
    return [
        RoundOut(
            number=r.number,
            finished=r.finished,
            tables=[
                TableOut(
                    number=t.number,
                    game_id=t.game_id,
                    finished=t.finished,
                    seats=[
                        SeatingOut(player=person_ref(s.person), place=s.place, points=s.points)
                        for s in t.seats
                    ],
                )
                for t in r.tables
            ],
        )
        for r in _detail(request, tournament_id).rounds
    ]
