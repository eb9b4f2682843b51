"""The standing orders panel of a game page and of the settings page (issue 17).

Built only for the player who owns the orders: a seat's orders are secret, so the panel
(and its form) is never in the context of another seat's or a spectator's page.
"""

from __future__ import annotations

from typing import Any

from games.models import Game
from games.selectors.orders import orders_rows
from games.web.forms_orders import StandingOrdersForm
from games.web.viewer import Viewer


def game_orders_panel(
    game: Game, viewer: Viewer, *, form: StandingOrdersForm | None = None
) -> dict[str, Any] | None:
    """Return ``{"form", "seat", "follows_default"}`` for ``viewer``'s own seat, else None.

    None for a spectator, a bot's seat, a dropped seat, and a game over or aborted.
    ``form`` is a bound form to show again with its errors.
    """
    if (
        not viewer.seated
        or viewer.id is None
        or viewer.seat_is_bot
        or viewer.seat_dropped
        or game.status not in (Game.Status.OPEN, Game.Status.ACTIVE)
    ):
        return None
    own, default = orders_rows(user_id=viewer.id, game_id=game.pk)
    if form is None:
        form = StandingOrdersForm(
            initial=StandingOrdersForm.initial_for(own, default), for_game=True
        )
    return {"form": form, "seat": viewer.seat, "follows_default": own is None}


def default_orders_form(user_id: int) -> StandingOrdersForm:
    """Return the settings page's form of ``user_id``'s default orders."""
    _own, default = orders_rows(user_id=user_id, game_id=None)
    return StandingOrdersForm(initial=StandingOrdersForm.initial_for(default, default))
