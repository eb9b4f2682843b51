"""Errors raised by the engine (RULES.md §16.1: legality is checked first)."""

from __future__ import annotations

from typing import Any

#: Every ``IllegalActionError.code``, so the site can prove it translates each one.
ERROR_CODES: tuple[str, ...] = (
    "not_an_action",
    "game_over",
    "decision_pending",
    "no_decision_pending",
    "wrong_decision",
    "support_not_in_hand",
    "war_not_possible",
    "monument_not_possible",
    "treasure_not_available",
    "tile_not_in_hand",
    "square_occupied",
    "farm_on_land",
    "tile_on_river",
    "three_kingdoms",
    "leader_same_square",
    "leader_on_river",
    "leader_no_temple",
    "leader_unites_kingdoms",
    "leader_not_on_board",
    "no_catastrophe_left",
    "catastrophe_on_leader",
    "catastrophe_on_catastrophe",
    "catastrophe_on_monument",
    "catastrophe_on_treasure",
    "swap_not_in_hand",
)
_KNOWN_CODES = frozenset(ERROR_CODES)


class IllegalActionError(ValueError):
    """Reject an action that is not in ``legal_actions(state)``.

    ``code`` is a stable snake_case string the site translates; ``params`` is a
    dict of JSON-able values; ``str(error)`` is an English sentence naming the
    rule (``"a farm must be placed on a river square (RULES.md §5.1)"``).
    """

    def __init__(self, code: str, message: str, **params: Any) -> None:
        """Build the error from its ``code``, English ``message`` and ``params``.

        Raises ``ValueError`` for a code missing from ``ERROR_CODES``: a new refusal
        must be listed there, where the site's translations are checked against it.
        """
        if code not in _KNOWN_CODES:
            raise ValueError(f"unknown IllegalActionError code {code!r}: add it to ERROR_CODES")
        super().__init__(message)
        self.code = code
        self.params: dict[str, Any] = dict(params)


class DiagramError(ValueError):
    """Reject a diagram that cannot be parsed, naming the line and the reason."""

    def __init__(self, line: int, reason: str) -> None:
        """Build the error for 1-based ``line`` (0 when no single line is at fault)."""
        where = f"line {line}: " if line else ""
        super().__init__(f"{where}{reason}")
        self.line = line
        self.reason = reason
