"""The replay page's context: the board at one ply, as the viewer saw it then (RULES.md §14)."""

from __future__ import annotations

from typing import Any

import engine
from games.core.states import replay
from games.models import Game
from games.selectors.games import seat_infos
from games.selectors.moves import moves_all
from games.text.gamelog import log_entries, marked_html
from games.text.waiting import waiting_text
from games.web.header import GameHeader
from games.web.view_context import view_context
from games.web.viewer import Viewer


def replay_context(game: Game, viewer: Viewer, *, ply: int | None) -> dict[str, Any]:
    """Return the context of ``games/replay.html``: the board at ``ply`` as the viewer saw it.

    Re-applies the moves from the seed up to ``ply`` (default: the last) and renders
    ``engine.view_for(state, seat)`` for the viewer's seat (None for spectators, who may
    replay finished games only); a finished game's replay shows every hand and total at
    every ply. ``ply`` is clamped to 0..version.
    """
    position = viewer.seat
    moves = moves_all(game.pk)
    last = len(moves)
    ply = last if ply is None else max(0, min(ply, last))
    state = replay(game, moves[:ply])
    seats = seat_infos(game)
    # Once the game has ended everything is public, also at every ply of its replay (§14).
    view = engine.view_for(state, position, game_ended=game.status == Game.Status.FINISHED)
    shown = moves[:ply]
    entries = log_entries(shown, seats, position, game_over=view.is_over, marked=True)
    # The same words as the game page's log (issue 32): each player named, in their colour;
    # numbered by step (the line of play holds no taken-back ply).
    for number, entry in enumerate(entries, start=1):
        entry["number"] = number
        entry["html"] = marked_html(entry["text"], seats)
    changed = entries[-1]["squares"] if entries else set()
    ctx = view_context(view, seats, changed=changed)
    ctx.update(
        game=GameHeader.of(game, seated=viewer.seated),
        seat=position,
        ply=ply,
        last=last,
        prev_ply=max(ply - 1, 0),
        next_ply=min(ply + 1, last),
        log=list(reversed(entries)),
        waiting=waiting_text(view, seats),
        replay=True,
    )
    # A replay never offers actions.
    ctx.update(action_groups=[], board_groups=[], other_groups=[], has_actions=False)
    return ctx
