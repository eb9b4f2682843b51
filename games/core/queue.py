"""Queue a Celery task by its name, after the transaction commits: no room imports ``tasks``.

``games.tasks`` holds the thin Celery wrappers and imports the rooms; the rooms name the task
they want (``"games.tasks.send_notification"``) and this helper finds it in the Celery app's
registry (``GamesConfig.ready`` imports ``games.tasks``, so the names are registered).
"""

from __future__ import annotations

import logging
from functools import partial
from typing import Any

from celery import current_app
from django.db import transaction
from kombu.exceptions import OperationalError

log = logging.getLogger(__name__)

SEND_NOTIFICATION = "games.tasks.send_notification"
SEND_ACCOUNT_EMAIL = "games.tasks.send_account_email"
PRERENDER_PARTIALS = "games.tasks.prerender_partials"
PLAY_BOT_MOVE = "games.tasks.play_bot_move"
SEND_WEBHOOK = "games.tasks.send_webhook"
SEND_PUSH = "games.tasks.send_push"
ANSWER_STANDING_ORDER = "games.tasks.answer_standing_order"
TOURNAMENT_GAME_ENDED = "games.tasks.tournament_game_ended"


def delay(task_name: str, *args: Any, countdown: float | None = None) -> Any:
    """Queue task ``task_name`` with ``args`` now and return Celery's result.

    ``countdown`` (seconds) makes the worker wait that long before running it; the task's
    queue comes from ``CELERY_TASK_ROUTES``. Raises what the broker raises
    (``kombu.exceptions.OperationalError`` when it does not answer) and ``KeyError`` for an
    unknown task name.
    """
    task = current_app.tasks[task_name]
    if countdown is None:
        return task.delay(*args)
    return task.apply_async(args=args, countdown=countdown)


def enqueue(task_name: str, *args: Any, countdown: float | None = None) -> None:
    """Queue task ``task_name`` with ``args``; a broker that does not answer is logged in one line.

    Nothing is lost: an email's row stays pending for ``sweep_outbox``, a partial not
    rendered ahead is rendered by the poll, a bot's move is played by ``sweep_bots``.
    Raises ``KeyError`` for an unknown task name.
    """
    try:
        delay(task_name, *args, countdown=countdown)
    except OperationalError as exc:
        log.warning("broker unavailable, %s%r not queued: %s", task_name, args, exc)


def enqueue_on_commit(task_name: str, *args: Any, countdown: float | None = None) -> None:
    """Queue task ``task_name`` with ``args`` once the current transaction commits.

    Robust: whatever the queueing raises (an eager run that fails, too) is logged and never
    fails the committed change. ``countdown`` as in ``delay``.
    """
    transaction.on_commit(partial(enqueue, task_name, *args, countdown=countdown), robust=True)
