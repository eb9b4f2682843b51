"""Queue a bot's move when a game comes to wait on a bot's seat (issue 15).

Called by every path that changes whom a game waits on (``submit.action_apply``, and
``lifecycle.game_start`` when a bot plays first). It never plays: the move is the task
``games.tasks.play_bot_move(game_id, version)`` on the ``bots`` queue, queued by name
after the commit, so no player's request waits on a bot's thinking (DESIGN.md).
"""

from __future__ import annotations

from django.conf import settings

from games.core import queue
from games.models import Game, Seat

BOT_PAUSE_SECONDS = 1.0  # between two actions of a bot, so the human sees each in the log


def waiting_bot_seat(game: Game) -> Seat | None:
    """Return the bot's seat ``game`` waits on now, or None (a person, or not in progress).

    Reads ``game.seats.all()`` (prefetched by the submit service: no query then).
    """
    if game.status != Game.Status.ACTIVE or game.to_act_seat is None:
        return None
    return next((s for s in game.seats.all() if s.position == game.to_act_seat and s.is_bot), None)


def bot_turn_queue(*, game: Game) -> bool:
    """Queue ``play_bot_move(game.pk, game.version)`` on commit if ``game`` waits on a bot.

    Returns whether it was queued. With ``settings.BOTS_QUEUED`` off (the embedded mode,
    where tasks run eagerly, so in the request) nothing is queued: the sweeps process
    beside the server plays waiting bots (``bots.bots_sweep``). The task waits
    ``BOT_PAUSE_SECONDS`` first so the player sees each action appear.
    """
    if not settings.BOTS_QUEUED or waiting_bot_seat(game) is None:
        return False
    queue.enqueue_on_commit(queue.PLAY_BOT_MOVE, game.pk, game.version, countdown=BOT_PAUSE_SECONDS)
    return True
