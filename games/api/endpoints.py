"""The API's endpoints: games, their moves and records, players, the leaderboard, the token's owner.

Every endpoint reads only: the selectors' querysets and ``engine.view_for``. A game the
requester may not see answers 404 exactly as a game that does not exist.
"""

# No "from __future__ import annotations": django-ninja reads the parameters' types at import.

from collections.abc import Callable, Iterable
from functools import partial
from typing import Annotated, Any, Literal

from django.contrib.auth import get_user_model
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from ninja import Path, Query, Router
from ninja.errors import HttpError
from ninja.pagination import paginate

import engine
from games.api import records
from games.api.auth import principal
from games.api.pages import Page
from games.api.schemas import (
    ErrorOut,
    GameDetail,
    GameSummary,
    InvalidOut,
    LeaderOut,
    MeOut,
    MoveOut,
    ProfileOut,
    RatingPoint,
    ThrottledOut,
    TokenOut,
)
from games.api.values import (
    Rows,
    game_summaries,
    game_summary,
    move_out,
    player_ref,
    profile_of,
    profile_out,
    view_out,
    visible_games,
)
from games.core.states import game_state
from games.models import Game, Move, Profile, Seat
from games.play import ratings
from games.selectors.games import games_waiting_for, seat_for, with_list_seats, with_seats
from games.selectors.profiles import leaders

router = Router()

StatusFilter = Literal["open", "active", "finished", "expired", "aborted"]
ID_MAX = 2**63 - 1  # the database's 64-bit key: a larger id is refused, not a 500 (issue 28)
GameId = Annotated[int, Path(ge=1, le=ID_MAX, description="A game's id")]
UserId = Annotated[int, Path(ge=1, le=ID_MAX, description="A player's id")]
PlayerFilter = Annotated[int | None, Query(None, ge=1, le=ID_MAX, description="A player's id")]
SeatsFilter = Annotated[int | None, Query(None, ge=2, le=4, description="Players in the game")]


class ApiError(HttpError):
    """A refusal with a stable ``code`` (``not_found``, ``not_finished``, ``token_required``)."""

    def __init__(self, status_code: int, code: str, message: Any) -> None:
        super().__init__(status_code, str(message))
        self.code = code


def _not_found() -> ApiError:
    return ApiError(404, "not_found", _("There is no such game."))


def refusals(*codes: int) -> dict[int, type[ErrorOut]]:
    """Return the documented refusals of an endpoint: ``codes`` and those of every one.

    Every endpoint may answer 401 (a wrong token) and 429 (too many requests); the rest
    as each says: 404 (no such game or player), 409 (a record of a game not over), 422
    (a parameter that is not valid). The schema so lists every answer (issue 28, finding 9).
    """
    shapes: dict[int, type[ErrorOut]] = {401: ErrorOut, 429: ThrottledOut}
    for code in codes:
        shapes[code] = InvalidOut if code == 422 else ErrorOut
    return dict(sorted(shapes.items()))


def _viewer_id(request: HttpRequest) -> int | None:
    """Return the requester's user id, None when anonymous (the deadline is the players')."""
    user = principal(request).user
    return user.pk if user.is_authenticated else None


def _summaries(request: HttpRequest) -> Callable[[Iterable[Game]], list[GameSummary]]:
    """Return ``game_summaries`` as the requester sees them (``Rows``' convert)."""
    return partial(game_summaries, viewer_id=_viewer_id(request))


def _listed(games: QuerySet[Game]) -> QuerySet[Game]:
    """Return ``games`` as a list reads them (issue 31): without the snapshot and the seed
    (a page's rows never need them), their seats with only what ``SeatOut`` shows."""
    return with_list_seats(games.defer("state", "seed"))


def _game_for(request: HttpRequest, game_id: GameId) -> Game:
    """Return game ``game_id`` with its seats if the requester may see it; else 404."""
    visible = visible_games(principal(request), game_id=game_id)
    game = with_seats(Game.objects.filter(visible)).first()
    if game is None:
        raise _not_found()
    return game


def _user_or_404(user_id: UserId) -> Any:
    user = get_user_model().objects.filter(pk=user_id, is_active=True).first()
    if user is None:
        raise ApiError(404, "not_found", _("There is no such player."))
    return user


@router.get(
    "/games",
    response={200: list[GameSummary], **refusals(422)},
    tags=["games"],
    summary="List games",
)
@paginate(Page, ordering=("-pk",))
def games_list(
    request: HttpRequest,
    status: StatusFilter | None = None,
    player: PlayerFilter = None,
    num_players: SeatsFilter = None,
) -> Rows:
    """The games the requester may see, newest first; filter by status, player, seat count."""
    games = Game.objects.filter(visible_games(principal(request)))
    if status is not None:
        games = games.filter(status=status)
    if player is not None:
        games = games.filter(pk__in=Seat.objects.filter(user_id=player).values("game_id"))
    if num_players is not None:
        games = games.filter(num_players=num_players)
    return Rows(_listed(games), _summaries(request))


@router.get(
    "/games/{game_id}",
    response={200: GameDetail, **refusals(404, 422)},
    tags=["games"],
    summary="One game",
)
def game_detail(request: HttpRequest, game_id: GameId) -> GameDetail:
    """The game's public facts and the requester's view: their seat's, or a spectator's."""
    game = _game_for(request, game_id)
    seat = seat_for(game, principal(request).user)
    position = seat.position if seat is not None else None
    view = None
    if game.state is not None:
        view = view_out(engine.view_for(game_state(game), position))
    return GameDetail(game=game_summary(game, _viewer_id(request)), viewer_seat=position, view=view)


@router.get(
    "/games/{game_id}/moves",
    response={200: list[MoveOut], **refusals(404, 422)},
    tags=["games"],
    summary="Moves",
)
@paginate(Page, ordering=("ply",))
def game_moves(request: HttpRequest, game_id: GameId) -> Rows:
    """Every ply in order, as the requester may read it (a swap's colours to the swapper)."""
    game = _game_for(request, game_id)
    seat = seat_for(game, principal(request).user)
    position = seat.position if seat is not None else None
    over = game.status == Game.Status.FINISHED

    def convert(moves: list[Move]) -> list[MoveOut]:
        return [move_out(m, viewer=position, over=over) for m in moves]

    # The line of play: a ply taken back (issue 16) and its undo row are left out.
    return Rows(Move.objects.filter(game_id=game.pk).played(), convert)


@router.get(
    "/games/{game_id}/record",
    response={200: dict[str, Any], **refusals(404, 409, 422)},
    tags=["games"],
    summary="A finished game's record (docs/record-format.md)",
)
def game_record(request: HttpRequest, game_id: GameId) -> dict[str, Any]:
    """The record of a finished game (its seed and every move); 409 before the end."""
    game = _game_for(request, game_id)
    record = records.record_for(game)
    if record is None:
        raise ApiError(409, "not_finished", _("This game is not finished: it has no record yet."))
    return record


@router.get(
    "/players/{user_id}",
    response={200: ProfileOut, **refusals(404, 422)},
    tags=["players"],
    summary="A player",
)
def player_detail(request: HttpRequest, user_id: UserId) -> ProfileOut:
    """A player's public profile and rating."""
    return profile_out(profile_of(_user_or_404(user_id)))


@router.get(
    "/players/{user_id}/rating",
    response={200: list[RatingPoint], **refusals(404, 422)},
    tags=["players"],
    summary="Rating history",
)
@paginate(Page, ordering=("game_id",))
def player_rating(request: HttpRequest, user_id: UserId) -> Rows:
    """The player's rating before and after each rated game the requester may see."""
    user = _user_or_404(user_id)
    seats = (
        Seat.objects.filter(user=user, rating_after__isnull=False)
        .filter(game__in=Game.objects.filter(visible_games(principal(request))))
        .select_related("game")
    )

    def convert(rows: list[Seat]) -> list[RatingPoint]:
        return [
            RatingPoint(
                game=s.game_id,
                finished_at=s.game.finished_at,
                rating_before=s.rating_before,
                rating_after=s.rating_after,
            )
            for s in rows
        ]

    return Rows(seats, convert)


@router.get(
    "/players/{user_id}/games",
    response={200: list[GameSummary], **refusals(404, 422)},
    tags=["players"],
    summary="Games",
)
@paginate(Page, ordering=("-pk",))
def player_games(request: HttpRequest, user_id: UserId) -> Rows:
    """The player's games that the requester may see, newest first."""
    user = _user_or_404(user_id)
    games = Game.objects.filter(visible_games(principal(request))).filter(
        pk__in=Seat.objects.filter(user=user).values("game_id")
    )
    return Rows(_listed(games), _summaries(request))


def _leaders() -> QuerySet[Profile]:
    # The page's rows, order and index (``selectors.profiles.leaders``).
    return leaders().select_related("user__profile")


@router.get(
    "/leaderboard",
    response={200: list[LeaderOut], **refusals(422)},
    tags=["players"],
    summary="Leaderboard",
)
@paginate(Page, ordering=("-conservative", "-pk"))
def leaderboard(request: HttpRequest) -> Rows:
    """People (never bots) past their provisional games, active in 180 days, best first."""

    def convert(rows: list[Profile]) -> list[LeaderOut]:
        return [
            LeaderOut(
                player=player_ref(p.user),
                rating=ratings.display_rating(p.rating_mu, p.rating_sigma),
                uncertainty=ratings.display_uncertainty(p.rating_sigma),
                rated_games=p.rated_games,
            )
            for p in rows
        ]

    return Rows(_leaders(), convert)


def _token_owner(request: HttpRequest) -> Any:
    who = principal(request)
    if who.token is None:
        raise ApiError(
            401, "token_required", _("This needs an access token (Authorization: Bearer …).")
        )
    return who


@router.get("/me", response={200: MeOut, **refusals()}, tags=["me"], summary="The token's owner")
def me(request: HttpRequest) -> MeOut:
    """The player the token belongs to, and the token (name, first characters, scope)."""
    who = _token_owner(request)
    token = who.token
    return MeOut(
        player=player_ref(who.user),
        token=TokenOut(
            name=token.name, prefix=token.prefix, scope=token.scope, created_at=token.created_at
        ),
    )


@router.get(
    "/me/waiting",
    response={200: list[GameSummary], **refusals(422)},
    tags=["me"],
    summary="Games waiting for me",
)
@paginate(Page, ordering=("updated_at", "pk"))
def me_waiting(request: HttpRequest) -> Rows:
    """The games in progress in which the token owner's seat must act now, longest first."""
    who = _token_owner(request)
    return Rows(_listed(games_waiting_for(who.user)), _summaries(request))
