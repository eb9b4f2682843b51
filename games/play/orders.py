"""Setting standing orders (issue 17), and answering at once what a new order covers.

An order is set for one game (``game_orders_set``) or as the player's default
(``default_orders_set``, the settings page). Either way, a decision already waiting on that
player which the new order covers is answered there and then, through the submit service
(``submit.autoplay``, ``Move.source`` order), in the same transaction as the save: the
person is on the page then. A decision that comes to wait on an order later is answered
in its own step, after a delay drawn like a person's (``orderturns``, issue 28):
``standing_order_answer``, called by its task or ``orders_sweep``. Orders
are secret: only their owner sets or reads them; the engine chooses each answer from the
owner's own view (``engine.order_action``).
"""

from __future__ import annotations

from collections.abc import Mapping

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

import engine
from games.core.errors import GameError, GameNotActive, NotAPlayer
from games.core.states import state_from_db
from games.models import Game, Move, StandingOrders
from games.outbox import notifications
from games.play.access import UserLike, locked_game, user_id_of
from games.play.orderturns import order_due, standing_order_action
from games.play.submit import autoplay

SWEEP_BATCH = 500


class OrdersRefused(GameError):
    """The standing orders are not ones the game knows (400)."""

    status = 400


def orders_checked(orders: Mapping[str, str]) -> engine.StandingOrders:
    """Return ``orders`` as the engine's value; raise ``OrdersRefused`` for a bad slot or kind."""
    try:
        return engine.StandingOrders.from_dict(orders)
    except ValueError:
        raise OrdersRefused(_("These standing orders do not exist: nothing was changed.")) from None


def game_orders_set(
    *, game_id: int, user: UserLike, orders: Mapping[str, str] | None
) -> list[Move]:
    """Set ``user``'s standing orders for game ``game_id`` (None: follow the default).

    Under the game's row lock: ``user`` must hold a seat of their own (not a bot's, not
    dropped) in a game open or in progress. Then, if the game waits on their decision and
    the orders now cover it, it is answered (``submit.autoplay``). Returns the moves so
    played. Raises ``OrdersRefused`` (400), ``GameNotFound`` (404), ``NotAPlayer`` (403)
    or ``GameNotActive`` (409); on any error nothing is saved.
    """
    checked = None if orders is None else orders_checked(orders)
    user_id = user_id_of(user)
    with transaction.atomic():
        game = locked_game(game_id, with_seats=True)
        seat = next((s for s in game.seats.all() if s.user_id == user_id and not s.is_bot), None)
        if seat is None:
            raise NotAPlayer()
        if seat.dropped_at is not None:
            raise NotAPlayer(_("You left this game: your seat is played automatically now."))
        if game.status not in (Game.Status.OPEN, Game.Status.ACTIVE):
            raise GameNotActive(_("This game is over: its standing orders can no longer change."))
        if checked is None:
            StandingOrders.objects.filter(user_id=user_id, game=game).delete()
        else:
            StandingOrders.objects.update_or_create(
                user_id=user_id, game=game, defaults={"orders": checked.to_dict()}
            )
        return _answer_waiting(game, user_id)


def default_orders_set(*, user: UserLike, orders: Mapping[str, str]) -> list[Move]:
    """Set ``user``'s default standing orders (for games without orders of their own).

    Then every game in progress waiting on a decision of ``user`` that follows the default
    is answered when the new orders cover it, each under its own row lock. Returns the
    moves so played. Raises ``OrdersRefused`` (400) and saves nothing for bad orders.
    """
    checked = orders_checked(orders)
    user_id = user_id_of(user)
    with transaction.atomic():
        StandingOrders.objects.update_or_create(
            user_id=user_id, game=None, defaults={"orders": checked.to_dict()}
        )
    waiting = (
        Game.objects.filter(
            status=Game.Status.ACTIVE,
            seats__user_id=user_id,
            seats__position=F("to_act_seat"),
            seats__dropped_at__isnull=True,
            seats__is_bot=False,
        )
        .exclude(standing_orders__user_id=user_id)
        .values_list("pk", flat=True)
    )
    moves: list[Move] = []
    for game_id in waiting:
        with transaction.atomic():
            moves += _answer_waiting(locked_game(game_id, with_seats=True), user_id)
    return moves


def _answer_waiting(game: Game, user_id: int) -> list[Move]:
    """Answer ``user_id``'s decision the locked ``game`` waits on, if their orders cover it."""
    waited_on = next((s for s in game.seats.all() if s.position == game.to_act_seat), None)
    if game.status != Game.Status.ACTIVE or waited_on is None or waited_on.user_id != user_id:
        return []
    return autoplay(game=game, state=state_from_db(game.state or {}))


def standing_order_answer(*, game_id: int, version: int) -> list[Move]:
    """Answer the standing order game ``game_id`` waits on at ``version``, once due.

    Under the row lock: nothing when the game moved on (another version), is over, has no
    answer pending or is not due yet. Else the order answers through the submit service
    (``submit.autoplay``, ``Move.source`` order), and so may the orders that follow, each
    in its own step. An order its owner took back meanwhile answers nothing: they are
    told the game waits on them, as they would have been. Returns the moves played.
    """
    with transaction.atomic():
        game = locked_game(game_id, with_seats=True)
        if game.version != version or game.status != Game.Status.ACTIVE:
            return []
        if game.order_due_at is None or not order_due(game):
            return []
        state = state_from_db(game.state or {})
        seat = next((s for s in game.seats.all() if s.position == state.to_act), None)
        game.order_due_at = None
        game.save(update_fields=["order_due_at"])
        if seat is not None and standing_order_action(game=game, seat=seat, state=state) is None:
            waiting = notifications.waiting_kind(state)
            if waiting is not None and not seat.is_bot and seat.dropped_at is None:
                notifications.notification_create(
                    user_id=seat.user_id, game=game, ply=game.version, kind=waiting[1]
                )
            return []
        return autoplay(game=game, state=state)


def orders_sweep() -> int:
    """Answer every order that is due (a lost task, or the embedded mode); return how many."""
    due = Game.objects.filter(status=Game.Status.ACTIVE, order_due_at__lte=timezone.now())
    answered = 0
    for game_id, version in due.values_list("pk", "version")[:SWEEP_BATCH]:
        answered += bool(standing_order_answer(game_id=game_id, version=version))
    return answered
