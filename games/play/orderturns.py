"""Standing orders answer in their own step, after a delay drawn like a person's (issue 28).

An order answered in the transaction of the move that asked showed in every published
time (the API's moves, records, the page, the live push): an answer 2–14 ms after the
asking move was an order, a person's took seconds. So a decision an order covers is not
answered there: ``order_schedule`` (called by ``submit.action_apply``) sets
``Game.order_due_at`` to now plus ``order_delay()``, a delay drawn from
``ORDER_ANSWER_DELAY`` (the site's model of a person answering a decision while on the
page: log-normal, median ``median`` seconds, spread ``sigma``, cut to ``[low, high]``),
and nobody is told the game waits on the owner (``turn_owed`` reads ``order_due_at``).
When it is due, ``orders.standing_order_answer`` answers it through the submit service
(the task ``answer_standing_order``, queued with that countdown; in the embedded mode, and
for a lost task, ``orders.orders_sweep`` run by beat / ``run_sweeps``). The delay is drawn with the
operating system's randomness (``_rng``): neither the seed nor the game's history
predicts it.
"""

from __future__ import annotations

import math
import random
from datetime import timedelta

from django.conf import settings
from django.utils import timezone

import engine
from games.core import queue
from games.models import Game, Seat
from games.play.botturns import bot_played
from games.selectors.orders import orders_for, seat_orders

_rng: random.Random = random.SystemRandom()


def order_delay() -> timedelta:
    """Return how long an order waits before it answers: ``ORDER_ANSWER_DELAY``'s draw.

    ``{"median", "sigma", "low", "high"}`` in seconds (settings); a ``median`` of 0
    answers at once (for a test that checks what an order answers, not when).
    """
    model = settings.ORDER_ANSWER_DELAY
    if not model["median"]:
        return timedelta(0)
    seconds = _rng.lognormvariate(math.log(model["median"]), model["sigma"])
    return timedelta(seconds=min(max(seconds, model["low"]), model["high"]))


def standing_order_action(
    *, game: Game, seat: Seat, state: engine.GameState
) -> engine.Action | None:
    """Return the action ``seat``'s player's standing order gives for ``state``, else None.

    Only a person's own seat, never dropped or bot-played, and only for the decision that
    seat must take now (RULES.md §15): the engine chooses from that seat's own view
    (``engine.order_action``), so an order is checked against the rules each time and is
    never applied for another seat. One query, when a decision is pending (none when the
    seats were read for the move: ``seat_orders``).
    """
    if (
        state.pending is None
        or seat.position is None
        or seat.position != state.to_act
        or seat.dropped_at is not None
        or bot_played(game, seat)
    ):
        return None
    orders = seat_orders(seat)  # read with the locked game's seats, when it was
    if orders is None:
        orders = orders_for(user_id=seat.user_id, game_id=game.pk)
    if not orders.kinds:
        return None
    return engine.order_action(engine.view_for(state, seat.position), orders)


def order_schedule(game: Game, state: engine.GameState) -> bool:
    """Set ``game.order_due_at`` (not saved) when an order covers the decision ``state`` asks.

    Clears it otherwise. Returns whether an answer is now due later; queues the task
    ``answer_standing_order(game.pk, game.version)`` after the commit with the delay as
    its countdown when tasks go through a broker (``BOTS_QUEUED``). The caller holds the
    game's row lock, has bumped ``game.version`` and saves ``order_due_at``.
    """
    game.order_due_at = None
    seat = next((s for s in game.seats.all() if s.position == state.to_act), None)
    if seat is None or standing_order_action(game=game, seat=seat, state=state) is None:
        return False
    wait = order_delay()
    game.order_due_at = timezone.now() + wait
    if settings.BOTS_QUEUED:
        queue.enqueue_on_commit(
            queue.ANSWER_STANDING_ORDER, game.pk, game.version, countdown=wait.total_seconds()
        )
    return True


def order_due(game: Game) -> bool:
    """Return whether the order ``game`` waits on may answer now (none pending: True)."""
    return game.order_due_at is None or game.order_due_at <= timezone.now()
