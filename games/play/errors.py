"""The engine's refusal of an action, as a ``GameError`` a player can read (400)."""

from __future__ import annotations

import re
from typing import Any

from games.core.errors import GameError
from games.text.messages import engine_error_text

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
