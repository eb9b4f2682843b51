"""The webhooks' outbox rows: one turn or game-over notice owed to each of a player's webhooks.

The same outbox as the emails (``games.outbox.notifications``), in a table of its own
(``WebhookDelivery``): rows are written in the transaction that applies the move, unique
on (webhook, game, ply, kind) so a notice is owed once, and queued by task name
(``games.tasks.send_webhook``) when the transaction commits. Who is told follows the
emails' rule: the seat the game now waits on, when it waited on another seat before;
everyone at the end. A player's email preferences do not apply: a webhook is its own
opt-in.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils import timezone

import engine
from games.core import queue
from games.models import Game, NotificationKind, Webhook, WebhookDelivery
from games.outbox.notifications import turn_owed


def deliveries_create(
    *, user_id: int, game: Game, ply: int, kind: str, any_hook: bool | None = None
) -> list[WebhookDelivery]:
    """Write the rows owed to ``user_id``'s active webhooks for ``kind``; return the new ones.

    A row that exists already is skipped (the unique constraint, in a savepoint so the
    move's transaction survives it). Each new row is queued once the transaction commits.
    ``any_hook`` False says the caller knows there is no such webhook (no query then).
    """
    if any_hook is False:
        return []
    wanted = {"on_game_over": True} if kind == NotificationKind.GAME_OVER else {"on_turn": True}
    rows = []
    for hook_id in Webhook.objects.filter(user_id=user_id, is_active=True, **wanted).values_list(
        "pk", flat=True
    ):
        try:
            with transaction.atomic():
                row = WebhookDelivery.objects.create(
                    webhook_id=hook_id, game=game, ply=ply, kind=kind, send_after=timezone.now()
                )
        except IntegrityError:
            continue
        queue.enqueue_on_commit(queue.SEND_WEBHOOK, row.pk)
        rows.append(row)
    return rows


def webhooks_notify_move(
    *,
    game: Game,
    ply: int,
    before: engine.GameState,
    after: engine.GameState,
    by_bot: bool = False,
) -> list[WebhookDelivery]:
    """Write the turn notice owed after move ``ply`` (``notify_move``'s rule, for webhooks).

    After a bot's move (``by_bot``) in a game where every other seat is a bot's or
    dropped, nothing is owed: the person is playing the bots live (the email of that
    case waits for the batch instead), and a channel pinged every bot turn is noise.
    """
    owed = turn_owed(game=game, before=before, after=after)
    if owed is None:
        return []
    seat_row, kind, alone = owed
    if seat_row.is_bot or (by_bot and alone):
        return []
    # The seats a move reads (seats_prefetch(for_move=True)) say whether any turn hook exists.
    any_hook = getattr(seat_row, "hooks_on_turn", None)
    return deliveries_create(
        user_id=seat_row.user_id, game=game, ply=ply, kind=kind, any_hook=any_hook
    )


def webhooks_notify_game_over(*, game: Game) -> list[WebhookDelivery]:
    """Write the game-over notice owed to every person seated in ``game``."""
    rows = []
    people = {s.user_id for s in game.seats.all() if s.position is not None and not s.is_bot}
    for user_id in sorted(people):
        rows += deliveries_create(
            user_id=user_id, game=game, ply=game.version, kind=NotificationKind.GAME_OVER
        )
    return rows
