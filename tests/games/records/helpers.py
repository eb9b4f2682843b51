"""A finished game, quickly: started through the services, its plies written as rows.

The whole-game tests (``tests/e2e``) round-trip games played through the pages; here a
record test needs only a finished game whose ``Move`` rows replay to its snapshot, so the
engine plays random legal actions and the rows are written in one go (as the submit
service would write them; ``verify_games`` holds), which takes a tenth of a second.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from django.utils import timezone

import engine
from games.core.states import events_to_db, game_state, state_to_db
from games.models import Game, Move
from tests.games.factories import started_game

SOURCES = ("player", "player", "player", "timeout", "bot")  # some plies not by a person


def finished_game(num_players: int = 2, *, seed: int = 5, **options: Any) -> tuple[Game, dict]:
    """Return a game played to its end by random legal actions, and seat → user."""
    game, seats = started_game(num_players, **options)
    rng = random.Random(seed)
    state = game_state(game)
    rows = []
    while not state.is_over:
        seat = state.to_act
        assert seat is not None
        action = rng.choice(engine.legal_actions(state))
        state = engine.apply(state, action)
        rows.append((seat, str(action), state))
    Move.objects.bulk_create(
        Move(
            game=game,
            ply=n,
            seat=seat,
            action=action,
            events=events_to_db(after),
            source=SOURCES[n % len(SOURCES)],
        )
        for n, (seat, action, after) in enumerate(rows, start=1)
    )
    game.state = state_to_db(state)
    game.version = len(rows)
    game.status = Game.Status.FINISHED
    game.to_act_seat = None
    game.finished_at = timezone.now()
    game.save()
    return game, seats


def one_ply_from_the_end(
    num_players: int = 2, *, seed: int = 5, **options: Any
) -> tuple[Game, dict, Callable[[], Game]]:
    """Return a running game one ply from its end, seat → user, and what plays that ply.

    Random legal actions from the game's own seed, as ``finished_game``; every ply but the
    last is written in one go. Calling the third value plays the last one by its seat
    through ``game_submit_action`` and returns the game, ended as a real one ends (final
    ranks, ratings, the "game over" notices) without rendering two pages a ply as
    ``play_random_plies`` does.
    """
    from games.play.submit import game_submit_action

    game, seats = started_game(num_players, **options)
    rng = random.Random(seed)
    state = game_state(game)
    rows = []
    while not state.is_over:
        seat = state.to_act
        assert seat is not None
        action = rng.choice(engine.legal_actions(state))
        rows.append((seat, str(action), state, engine.apply(state, action)))
        state = rows[-1][3]
    *played, (last_seat, last_action, before, _end) = rows
    Move.objects.bulk_create(
        Move(game=game, ply=n, seat=seat, action=action, events=events_to_db(after))
        for n, (seat, action, _before, after) in enumerate(played, start=1)
    )
    game.state = state_to_db(before)
    game.version = len(played)
    game.to_act_seat = before.to_act
    game.save()

    def finish() -> Game:
        game_submit_action(
            game_id=game.pk, user=seats[last_seat], action=last_action, expected_version=len(played)
        )
        game.refresh_from_db()
        assert game.status == Game.Status.FINISHED
        return game

    return game, seats, finish
