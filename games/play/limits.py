"""A game past its maximum duration (issue 30): ended and ranked as the position stands."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from games.core import live
from games.core.states import state_from_db
from games.models import Game
from games.play.access import locked_game
from games.play.botturns import bot_to_act_mark
from games.play.deadlines import CLOCK_FIELDS, clock_start
from games.play.submit import game_finish


def game_end_at_limit(*, game_id: int) -> bool:
    """End the game in progress ``game_id`` now and rank it; return whether it ended now.

    Under the game's row lock: the places come from the rules' final scoring of the
    position as it stands (``engine.final_ranking``, RULES.md §13.2: each seat's lowest
    colour after treasures, ties on the next colours), dropped seats last, through the same
    ``game_finish`` as a game played out (ratings, the game-over notices, a tournament's
    next round). False when the game is not in progress (already over or aborted), so a
    sweep run twice ends nothing twice. Raises ``GameNotFound``.
    """
    with transaction.atomic():
        game = locked_game(game_id)
        if game.status != Game.Status.ACTIVE:
            return False
        state = state_from_db(game.state or {})
        game.status = Game.Status.FINISHED
        game.finished_at = timezone.now()
        game.to_act_seat = None
        clock_start(game)
        bot_to_act_mark(game)
        game.save(
            update_fields=[
                "status",
                "finished_at",
                "to_act_seat",
                "bot_to_act",
                *CLOCK_FIELDS,
                "updated_at",
            ]
        )
        game_finish(game=game, state=state)
        live.publish_on_commit(game.pk, game.version)
    return True
