"""Domain errors raised by the games services; views map each to an HTTP status.

Every error carries a message a player can read (already translated); ``status`` is the
HTTP status the views answer with.
"""

from __future__ import annotations

import re
from typing import Any

from django.utils.translation import gettext_lazy as _

from games.messages import engine_error_text


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


_RULE_SOURCE = re.compile(r"\s*\(RULES\.md §[0-9.]+\)")


class IllegalAction(GameError):
    """The engine rejected the action (400); ``code``/``params`` come from the engine.

    The player reads the sentence ``games.messages`` writes for the code, in their language.
    Only for a code it does not know (an engine newer than the site) the engine's English
    sentence is shown, without its source ``(RULES.md §4.1)`` (a file players do not have).
    """

    status = 400

    def __init__(self, message: Any, *, code: str = "", params: dict[str, Any] | None = None):
        """Build the error from the engine's code and params (its message as a fallback)."""
        text = engine_error_text(code, params)
        if text is None:  # the engine's English: make it a sentence
            text = _RULE_SOURCE.sub("", str(message)).strip()
            text = text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")
        # games.messages writes whole sentences in the player's language, as they are: a
        # Chinese sentence ends in "。" and may start with a square's name ("k6格…").
        super().__init__(text)
        self.code = code
        self.params = params or {}


class JoinRefused(GameError):
    """Joining or leaving the game is not possible (400)."""

    status = 400
