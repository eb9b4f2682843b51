"""A finished game's record for ``GET /api/v1/games/{id}/record``: a stand-in.

Issue 19's record format is built beside this room (``games/records/``); at the merge
``record_for`` here is to call it. Until then it gives the same facts: the edition, the
players, the seed, every move with its ply, seat, source and time, and the result.
Finished games only: before the end the seed and the swaps' colours are secrets (§14).
"""

from __future__ import annotations

from typing import Any

import engine
from games.api.values import seat_outs
from games.core.states import game_state
from games.models import Game, Move
from games.selectors.games import with_seats

FORMAT = "tigris-euphrates-record"
FORMAT_VERSION = 0  # a stand-in until the record format of games/records/ is wired in


def record_for(game_id: int) -> dict[str, Any] | None:
    """Return the record of finished game ``game_id`` as a JSON-able dict, or None.

    None when the game does not exist or is not finished. Keys: ``format``,
    ``format_version``, ``game``, ``num_players``, ``open_scoring``, ``seed``, ``players``
    (seat, player, dynasty, final rank), ``moves`` (``ply``, ``seat``, ``action``,
    ``source``, ``at``) and ``result`` (``engine.final_ranking`` placings).
    """
    game = with_seats(Game.objects.filter(pk=game_id, status=Game.Status.FINISHED)).first()
    if game is None or game.state is None:
        return None
    state = game_state(game)
    moves = Move.objects.filter(game_id=game_id).order_by("ply")
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "game": game.pk,
        "num_players": game.num_players,
        "open_scoring": state.open_scoring,
        "seed": game.seed,
        "players": [s.model_dump() for s in seat_outs(game)],
        "moves": [
            {
                "ply": m.ply,
                "seat": m.seat,
                "action": m.action,
                "source": m.source,
                "at": m.created_at.isoformat(),
            }
            for m in moves
        ],
        "result": [p.to_dict() for p in engine.final_ranking(state)],
    }
