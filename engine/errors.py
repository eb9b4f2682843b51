"""Errors raised by the engine (RULES.md §16.1: legality is checked first)."""

from __future__ import annotations

from typing import Any


class IllegalActionError(ValueError):
    """Reject an action that is not in ``legal_actions(state)``.

    ``code`` is a stable snake_case string the site translates; ``params`` is a
    dict of JSON-able values; ``str(error)`` is an English sentence naming the
    rule (``"a farm must be placed on a river square (RULES.md §5.1)"``).
    """

    def __init__(self, code: str, message: str, **params: Any) -> None:
        """Build the error from its ``code``, English ``message`` and ``params``."""
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
