"""Domain errors raised by the games services; views map each to an HTTP status.

The engine's refusal (``IllegalAction``) lives with the submit service, in
``games.play.errors``, since its words come from ``games.text``.

Every error carries a message a player can read (already translated); ``status`` is the
HTTP status the views answer with.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _


class GameError(Exception):
    """Reject a request on a game; ``str(error)`` is the player-facing message."""

    status: int = 400
    default_message: Any = _("This cannot be done.")

    def __init__(self, message: Any = None) -> None:
        """Build the error with ``message`` (a string or lazy string) or the class default."""
        self.message = message if message is not None else self.default_message
        super().__init__(str(self.message))

    def __str__(self) -> str:
        return str(self.message)


class GameNotFound(GameError):
    """The game does not exist (404)."""

    status = 404
    default_message = _("There is no such game.")


class NotAPlayer(GameError):
    """The user holds no seat in the game (403)."""

    status = 403
    default_message = _("You are not playing in this game.")


class NotYourTurn(GameError):
    """The user's seat is not the one that must act now (403)."""

    status = 403
    default_message = _("It is not your turn to act.")


class StaleVersion(GameError):
    """The submission was based on an older version of the game (409)."""

    status = 409
    default_message = _("The game moved on: here is the board as it is now.")


class GameNotActive(GameError):
    """The game is not in progress: still open, finished or aborted (409)."""

    status = 409
    default_message = _("This game is not in progress.")


class MalformedAction(GameError):
    """The action text is not valid notation (400)."""

    status = 400


class JoinRefused(GameError):
    """Joining or leaving the game is not possible (400)."""

    status = 400
