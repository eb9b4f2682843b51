"""Reads of standing orders (issue 17): secret, read only for their owner's own seat."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from django.db.models import Q

import engine
from games.models import StandingOrders

log = logging.getLogger(__name__)


def orders_parse(data: Mapping[str, object]) -> engine.StandingOrders:
    """Return the engine's orders stored as ``data``, keeping only slots and kinds that exist.

    A slot or kind the engine no longer knows asks the player (and is logged), rather than
    failing the move that reads it.
    """
    kept = {
        slot: kind
        for slot, kind in data.items()
        if slot in engine.ORDER_SLOTS and kind in engine.ORDER_SLOTS[slot]
    }
    if len(kept) != len(data):
        log.warning("standing orders with unknown slots or kinds ignored: %s", sorted(data))
    return engine.StandingOrders.from_dict(kept)


def orders_rows(
    *, user_id: int, game_id: int | None
) -> tuple[dict[str, str] | None, dict[str, str]]:
    """Return ``(this game's orders or None, the default orders)`` of ``user_id``, one query.

    None for the game when the player set none for it (the default then applies), or
    when ``game_id`` is None; the default is ``{}`` when never set.
    """
    where = Q(game__isnull=True) if game_id is None else Q(game_id=game_id) | Q(game__isnull=True)
    own: dict[str, str] | None = None
    default: dict[str, str] = {}
    for row_game, orders in StandingOrders.objects.filter(where, user_id=user_id).values_list(
        "game_id", "orders"
    ):
        if row_game is None:
            default = dict(orders or {})
        else:
            own = dict(orders or {})
    return own, default


def seat_orders(seat: Any) -> engine.StandingOrders | None:
    """Return ``orders_for`` the seat's user and game from what the seat was read with.

    None when the seat was read without its orders
    (``selectors.games.seats_prefetch(for_move=True)``): ``orders_for`` reads them then.
    """
    if not hasattr(seat, "orders_game"):
        return None
    own, default = seat.orders_game, seat.orders_default
    return orders_parse(dict(default or {}) if own is None else dict(own))


def orders_for(*, user_id: int, game_id: int) -> engine.StandingOrders:
    """Return the standing orders that answer ``user_id``'s decisions in game ``game_id``.

    The game's own orders when the player set some, else their default (settings).
    """
    own, default = orders_rows(user_id=user_id, game_id=game_id)
    return orders_parse(default if own is None else own)
