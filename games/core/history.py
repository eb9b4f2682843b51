"""Each seat's four colours after every ply of a finished game, replayed through the engine.

Public once the game is over (RULES.md §14: after the end everything is public), and only
then: during a game with hidden scoring the totals are the players' secrets, so
``colours_by_ply`` refuses an unfinished game. Finished games never change, so the result
is kept in the cache under the game's id and version.
"""

from __future__ import annotations

from django.core.cache import cache

import engine
from games.core.states import replay
from games.models import Game, Move

CACHE_SECONDS = 24 * 3600


def colours_by_ply(game: Game) -> dict[int, list[tuple[int, int, int, int]]]:
    """Return seat → its (red, black, blue, green) victory points after plies 0..version.

    Treasures are not colours and are left out. Raises ``ValueError`` for a game that is
    not finished (its totals may be secret).
    """
    if game.status != Game.Status.FINISHED or game.state is None:
        raise ValueError(f"game #{game.pk} is not finished: its colours are not public")
    key = f"colour-history:{game.pk}:{game.version}"
    found = cache.get(key)
    if found is not None:
        return dict(found)
    state = replay(game, [])
    history: dict[int, list[tuple[int, int, int, int]]] = {
        s: [] for s in range(1, game.num_players + 1)
    }

    def record(state: engine.GameState) -> None:
        view = engine.view_for(state, None, game_ended=True)
        for seat, scores in view.scores.items():
            red, black, blue, green = (int(scores[c]) for c in engine.COLOR_NAMES)
            history[seat].append((red, black, blue, green))

    record(state)
    line = Move.objects.filter(game_id=game.pk).played()  # the line of play (issue 16)
    for move in line.order_by("ply").only("action"):
        state = engine.apply(state, engine.Action.parse(move.action))
        record(state)
    cache.set(key, history, CACHE_SECONDS)
    return history
