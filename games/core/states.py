"""Bridge between the engine's values and what the database stores.

``Game.state`` holds ``json.loads(state.to_json())``; ``Move.events`` holds the events of
one action as ``[{"code", "params", "private_to"?}]``. These functions are the only place
that knows those shapes. The states they return hold secrets (hands, bag, seed): pass them
to ``engine.view_for`` before anything reaches a template.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import engine

if TYPE_CHECKING:
    from games.models import Game, Move


def state_to_db(state: engine.GameState) -> dict[str, Any]:
    """Return the JSON-able dict stored in ``Game.state`` for an engine state."""
    data: dict[str, Any] = json.loads(state.to_json())
    return data


def state_from_db(data: dict[str, Any]) -> engine.GameState:
    """Return the engine state stored as ``data``; raise ``ValueError`` if malformed."""
    # ``data`` is already decoded JSON (the JSONField did it): no second text round trip.
    return engine.GameState.from_dict(data)


def game_state(game: Game) -> engine.GameState:
    """Return the engine state of a started game; raise ``ValueError`` if it has none."""
    if game.state is None:
        raise ValueError(f"game #{game.pk} has not started")
    return state_from_db(game.state)


def events_to_db(state: engine.GameState) -> list[dict[str, Any]]:
    """Return the events of the action that produced ``state`` as JSON-able dicts."""
    out = []
    for event in state.events:
        item: dict[str, Any] = {"code": event.code, "params": dict(event.params)}
        private_to = getattr(event, "private_to", None)
        if private_to is not None:
            item["private_to"] = private_to
        out.append(item)
    return out


def replay(game: Game, moves: list[Move] | None = None) -> engine.GameState:
    """Return the state after re-applying ``moves`` to ``game``'s seed, in order.

    ``moves`` defaults to every ``Move`` of the game in ply order; plies taken back and
    undo rows are skipped (issue 16). Raises
    ``engine.IllegalActionError``/``ValueError`` when a recorded move no longer applies.
    """
    if moves is None:
        moves = list(game.moves.order_by("ply"))
    # The scoring mode the game started with, as the snapshot recorded it: what a replay
    # may show must not follow a later edit of the Game row (RULES.md §14).
    open_scoring = bool((game.state or {}).get("open_scoring", game.open_scoring))
    state = engine.new_game(game.num_players, game.seed, open_scoring=open_scoring)
    for move in moves:
        if move.undone or move.is_undo:
            continue  # taken back, or the row that took it back (issue 16)
        state = engine.apply(state, engine.Action.parse(move.action))
    return state
