"""A finished game's record for ``GET /api/v1/games/{id}/record``.

The record format of ``games/records/`` (``docs/record-format.md``), as the site's own
``record.json`` download serves it: finished games only here, since before the end the
API answers with the requester's view instead (``/games/{id}``).
"""

from __future__ import annotations

from typing import Any

from games.models import Game
from games.records.export import game_record


def record_for(game: Game) -> dict[str, Any] | None:
    """Return the record of finished ``game`` (fetched with its seats), or None.

    None when the game is not finished: its seed and the swaps' colours are still secret
    (RULES.md §14).
    """
    if game.status != Game.Status.FINISHED or game.state is None:
        return None
    return game_record(game, None)
