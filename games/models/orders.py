"""Standing orders (issue 17)."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from games.models.games import Game

# --------------------------------------------------------------------------- standing orders
# (issue 17): how a player's decisions are answered while away (engine.orders).


class StandingOrders(models.Model):
    """A player's standing orders: for one game, or (``game`` empty) their default.

    ``orders`` is ``engine.StandingOrders.to_dict()`` (``{slot: kind}``, slots that ask
    left out). Secret: only their owner reads them (``games.play.orders``); no page of
    another seat, email, API output or admin page shows them.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="standing_orders"
    )
    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="standing_orders", null=True, blank=True
    )
    orders = models.JSONField(default=dict, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "game"],
                condition=models.Q(game__isnull=False),
                name="standing_orders_one_a_game",
            ),
            models.UniqueConstraint(
                fields=["user"],
                condition=models.Q(game__isnull=True),
                name="standing_orders_one_default",
            ),
        ]

    def __str__(self) -> str:
        # Never the orders themselves (admin and log lines title a row by this).
        where = f" in #{self.game_id}" if self.game_id else ""
        return f"standing orders of {self.user_id}{where}"
