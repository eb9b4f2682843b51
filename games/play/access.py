"""Fetch and check before writing: the game row locked, the user a real account (Zulip's access)."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.utils.translation import gettext as _

from games.core.errors import GameNotFound, NotAPlayer
from games.models import Game
from games.selectors import games as selectors

UserLike = AbstractBaseUser | AnonymousUser


def locked_game(game_id: int, *, with_seats: bool = False) -> Game:
    """Return the game with its row locked until the transaction ends; ``GameNotFound``.

    ``with_seats`` also reads its seats with their users and profiles once (after the lock,
    so current), for a caller that only reads them: ``game.seats.all()`` then costs no
    query, and the game is ready for its page (``games.selectors.games.with_seats``).
    """
    games = Game.objects.select_for_update()
    if with_seats:
        games = selectors.with_seats(games)
    try:
        return games.get(pk=game_id)
    except Game.DoesNotExist:
        raise GameNotFound() from None


def user_id_of(user: UserLike) -> int:
    """Return the id of a logged-in ``user``; raise ``NotAPlayer`` for an anonymous one."""
    if not user.is_authenticated or user.pk is None:
        raise NotAPlayer(_("Sign in to play."))
    return int(user.pk)
