"""Celery tasks: thin wrappers that take ids, call a service and return what it did.

The work lives in the rooms (``games.mail.deliver``, ``games.play.sweeps``,
``games.web.prerender``); the rooms queue these tasks by name (``games.core.queue``) and
never import this module. Tasks re-read the database and exit early when the work is
done (STYLE.md).
"""

from __future__ import annotations

from typing import Any

from celery import Task, shared_task

from games.mail import deliver
from games.models import Delivery
from games.outbox import retries
from games.play import bots, orders
from games.play.sweeps import deadlines_sweep
from games.push import deliver as push
from games.tournaments import rounds as tournament_rounds
from games.tournaments.sweeps import tournaments_sweep
from games.web import prerender
from games.webhooks import deliver as webhooks

# The email tasks' decorator: a transient failure is retried with Celery's exponential
# backoff and jitter.
sending_task = shared_task(
    bind=True,
    autoretry_for=(deliver.TransientSendError,),
    retry_backoff=retries.RETRY_BACKOFF,
    retry_backoff_max=retries.RETRY_BACKOFF_MAX,
    retry_jitter=True,
    max_retries=retries.MAX_RETRIES,
    soft_time_limit=deliver.SEND_SOFT_TIME_LIMIT,
    time_limit=deliver.SEND_TIME_LIMIT,
)


@sending_task
def send_notification(self: Task[Any, Any], notification_id: int) -> str:
    """Send the immediate email of outbox row ``notification_id`` (``notification_deliver``)."""
    return deliver.notification_deliver(notification_id)


@sending_task
def send_account_email(self: Task[Any, Any], payload: dict[str, Any]) -> str:
    """Send one account email rendered in the request (``deliver.account_email_deliver``)."""
    return deliver.account_email_deliver(payload, eager=bool(self.request.is_eager))


@shared_task(
    bind=True,
    autoretry_for=(webhooks.TransientWebhookError,),
    retry_backoff=retries.RETRY_BACKOFF,
    retry_backoff_max=retries.RETRY_BACKOFF_MAX,
    retry_jitter=True,
    max_retries=retries.MAX_RETRIES,
)
def send_webhook(self: Task[Any, Any], delivery_id: int) -> str:
    """Post webhook outbox row ``delivery_id`` (``games.webhooks.deliver.webhook_deliver``)."""
    return webhooks.webhook_deliver(delivery_id)


@shared_task(
    bind=True,
    autoretry_for=(push.TransientPushError,),
    retry_backoff=retries.RETRY_BACKOFF,
    retry_backoff_max=retries.RETRY_BACKOFF_MAX,
    retry_jitter=True,
    max_retries=retries.MAX_RETRIES,
)
def send_push(self: Task[Any, Any], delivery_id: int) -> str:
    """Post push outbox row ``delivery_id`` (``games.push.deliver.push_deliver``)."""
    return push.push_deliver(delivery_id)


@shared_task
def sweep_push() -> int:
    """Re-queue push rows left pending (``push.push_sweep``); return how many."""
    return push.push_sweep()


@shared_task
def sweep_webhooks() -> int:
    """Re-queue webhook rows left pending (``webhooks.webhooks_sweep``); return how many."""
    return webhooks.webhooks_sweep()


@shared_task(ignore_result=True)
def prerender_partials(game_id: int, version: int, mover: int | None, publish: bool = False) -> int:
    """Cache the waiting players' ``#game`` partials of ``game_id`` at ``version``.

    Then, with ``publish``, tell the open pages the new version. See
    ``games.web.prerender.partials_prerender``; returns how many were stored.
    """
    return prerender.partials_prerender(game_id, version, mover, publish=publish)


@shared_task
def sweep_outbox() -> int:
    """Re-queue immediate rows left pending (``deliver.outbox_sweep``); return how many."""
    return deliver.outbox_sweep()


@shared_task
def send_batched() -> int:
    """Send each user with a due batched row one email listing their games; return emails sent."""
    return deliver.groups_due_send(Delivery.BATCHED)


@shared_task
def send_daily_digest() -> int:
    """Send each user whose digest time has come one email listing their games; return count."""
    return deliver.groups_due_send(Delivery.DIGEST)


@shared_task
def sweep_deadlines() -> dict[str, int]:
    """Apply the clocks of every game (``games.play.sweeps.deadlines_sweep``); return counts."""
    return deadlines_sweep()


# Bots (issue 15) run on their own queue, "bots" (CELERY_TASK_ROUTES): a burst of bot
# thinking never delays an email. acks_late (settings) re-delivers a task whose worker died
# mid-search; the version makes a second run a no-op.
@shared_task(ignore_result=True)
def play_bot_move(game_id: int, version: int) -> int | None:
    """Play the bot's action in ``game_id`` at ``version`` (``bots.bot_move_play``).

    Returns the ply played, or None when the game moved on or waits on a person.
    """
    move = bots.bot_move_play(game_id=game_id, version=version)
    return None if move is None else move.ply


@shared_task(ignore_result=True)
def answer_standing_order(game_id: int, version: int) -> int:
    """Answer the standing order ``game_id`` waits on at ``version`` once due (issue 28).

    Returns how many plies were played (0 when the game moved on or it is not due).
    """
    return len(orders.standing_order_answer(game_id=game_id, version=version))


@shared_task
def sweep_orders() -> int:
    """Answer the standing orders that are due (``orders.orders_sweep``); return how many."""
    return orders.orders_sweep()


@shared_task
def sweep_bots() -> int:
    """Move the games left waiting on a bot (``bots.bots_sweep``); return how many."""
    return bots.bots_sweep()


@shared_task
def tournament_game_ended(game_id: int) -> str:
    """Record the tournament table of ``game_id``; start the next round once (issue 30).

    See ``games.tournaments.rounds.tournament_game_ended``; returns what happened.
    """
    return tournament_rounds.tournament_game_ended(game_id=game_id)


@shared_task
def sweep_tournaments() -> dict[str, int]:
    """Start due events, end games past their limit, advance rounds (``tournaments_sweep``)."""
    return tournaments_sweep()
