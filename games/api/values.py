"""Turn rows and engine views into the API's schemas, naming each public field.

Nothing here hands a ``Game`` row, a snapshot or a seed to a schema: games become
``GameSummary`` (their public facts), positions come from ``engine.view_for``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import Q, QuerySet
from django.urls import reverse

import engine
from games.api.auth import Principal
from games.api.schemas import (
    EventOut,
    GameSummary,
    MoveOut,
    PlayerRef,
    ProfileOut,
    SeatOut,
    ViewOut,
)
from games.models import Game, Move, Profile
from games.play import ratings
from games.selectors.people import Person
from games.selectors.visibility import games_visible_to
from games.text.seats import display_name


def visible_games(who: Principal, *, game_id: int | None = None) -> Q:
    """Return the filter of the games ``who`` may see: the pages' rule (``games_visible_to``).

    A game anyone else may not see is no game to them: it answers 404, as its page does.
    ``game_id``: that game only, checked against ``who``'s seat in it alone.
    """
    return games_visible_to(who.user, game_id=game_id)


def player_ref(user: Any) -> PlayerRef:
    """Return ``user`` as lists name them (reads the prefetched profile)."""
    try:
        is_bot = bool(user.profile.is_bot)
    except Profile.DoesNotExist:
        is_bot = False
    return PlayerRef(id=user.pk, name=display_name(user), is_bot=is_bot)


def person_ref(person: Person) -> PlayerRef:
    """Return a ``Person`` (a frozen value of the pages, issue 27) as lists name them."""
    return PlayerRef(id=person.id, name=person.display_name, is_bot=person.is_bot)


def seat_outs(game: Game) -> list[SeatOut]:
    """Return the seats of ``game`` in seat order (fetched ``with_seats``: no query)."""
    seats = sorted(game.seats.all(), key=lambda s: (s.position or 0, s.pk))
    return [
        SeatOut(
            seat=s.position,
            player=player_ref(s.user),
            dynasty=s.dynasty,
            final_rank=s.final_rank,
            dropped=s.dropped_at is not None,
        )
        for s in seats
    ]


def game_summary(game: Game, viewer_id: int | None = None) -> GameSummary:
    """Return the public facts of ``game`` as the user ``viewer_id`` (None: anonymous) sees it.

    The ``deadline`` goes to the game's players only: quiet hours move it, and a spectator
    may not learn when a player sleeps (issue 28, finding 2). Reads the seats as fetched.
    """
    seated = viewer_id is not None and any(s.user_id == viewer_id for s in game.seats.all())
    return GameSummary(
        id=game.pk,
        url=reverse("games:game", args=[game.pk]),
        status=str(game.status),
        num_players=game.num_players,
        version=game.version,
        to_act_seat=game.to_act_seat if game.status == Game.Status.ACTIVE else None,
        deadline=game.deadline if game.status == Game.Status.ACTIVE and seated else None,
        days_per_move=game.days_per_move,
        is_public=game.is_public,
        is_rated=game.is_rated,
        open_scoring=game.open_scoring,
        created_at=game.created_at,
        started_at=game.started_at,
        finished_at=game.finished_at,
        seats=seat_outs(game),
    )


def game_summaries(games: Iterable[Game], viewer_id: int | None = None) -> list[GameSummary]:
    """Return ``game_summary`` of each game as ``viewer_id`` sees it, in order."""
    return [game_summary(g, viewer_id) for g in games]


def view_out(view: engine.PlayerView) -> ViewOut:
    """Return ``view`` (``engine.view_for`` output) as the API's schema."""
    return ViewOut.model_validate(view.to_dict())


def _public_action(move: Move, *, viewer: int | None, over: bool) -> str:
    """Return ``move``'s notation as ``viewer`` may read it: ``"swap 2"`` for another
    seat's swap before the end, its colours hidden (``engine.seen_action``, RULES.md §14)."""
    if over or move.seat == viewer:
        return move.action
    return str(engine.seen_action(move.action, player=move.seat, viewer=viewer, game_over=over))


def move_out(move: Move, *, viewer: int | None, over: bool) -> MoveOut:
    """Return one ply as ``viewer`` (seat, or None) may read it; ``over``: everything public."""
    return MoveOut(
        ply=move.ply,
        seat=move.seat,
        action=_public_action(move, viewer=viewer, over=over),
        # A standing order's answer reads as the player's own to anyone else (issue 17).
        source=move.source if over or move.seat == viewer else move.public_source,
        created_at=move.created_at,
        events=[
            EventOut(code=e["code"], params=e.get("params", {}))
            for e in engine.visible_events(move.events, viewer, game_over=over)
        ],
    )


def profile_out(profile: Profile) -> ProfileOut:
    """Return a player's public profile and rating."""
    return ProfileOut(
        id=profile.user_id,
        name=display_name(profile.user),
        is_bot=profile.is_bot,
        bot_tier=profile.bot_tier,
        rating=ratings.display_rating(profile.rating_mu, profile.rating_sigma),
        uncertainty=ratings.display_uncertainty(profile.rating_sigma),
        provisional=ratings.is_provisional(profile),
        rated_games=profile.rated_games,
        url=reverse("games:profile", args=[profile.user_id]),
    )


def profile_of(user: Any) -> Profile:
    """Return ``user``'s profile, or an unsaved default one: the API writes no profile."""
    found = Profile.objects.filter(user=user).select_related("user__profile").first()
    return found or Profile(user=user, display_name=user.get_username()[:40])


class Rows:
    """A queryset for the cursor page, with how to turn one page of rows into schemas."""

    def __init__(self, queryset: QuerySet[Any], convert: Any) -> None:
        """``convert`` takes the page's rows (a list) and returns their schemas."""
        self.queryset = queryset
        self.convert = convert
