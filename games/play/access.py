"""Fetch and check before writing: the game row locked, the user a real account (Zulip's access)."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.utils.translation import gettext as _

from games.core.errors import GameNotFound, NotAPlayer
from games.models import Game
from games.selectors import games as selectors

UserLike = AbstractBaseUser | AnonymousUser


def locked_game(
    game_id: int,
    *,
    with_seats: bool = False,
    for_move: UserLike | None = None,
    move_facts: bool = False,
) -> Game:
    """Return the game with its row locked until the transaction ends; ``GameNotFound``.

    ``with_seats`` also reads its seats with their users and profiles once (after the lock,
    so current), for a caller that only reads them: ``game.seats.all()`` then costs no
    query, and the game is ready for its page (``games.selectors.games.with_seats``).
    ``for_move`` (the user who moves; with ``with_seats``) also reads, in the same two
    queries, what the move asks of the seat it hands the turn to (standing orders, notice
    preferences, webhooks) and what the mover's page then shows beyond the game
    (``with_viewer_facts``). ``move_facts`` (with ``with_seats``) reads what the move asks
    of the seats without a mover's page (a timeout: ``play.timeouts.seat_timeout``).
    """
    games = Game.objects.select_for_update()
    if with_seats:
        games = selectors.with_seats(games, for_move=for_move is not None or move_facts)
        if for_move is not None:
            games = selectors.with_viewer_facts(games, for_move)
    try:
        return games.get(pk=game_id)
    except Game.DoesNotExist:
        raise GameNotFound() from None


def user_id_of(user: UserLike) -> int:
    """Return the id of a logged-in ``user``; raise ``NotAPlayer`` for an anonymous one."""
    if not user.is_authenticated or user.pk is None:
        raise NotAPlayer(_("Sign in to play."))
    return int(user.pk)
