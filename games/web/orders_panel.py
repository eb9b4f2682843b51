"""The standing orders panel of a game page and of the settings page (issue 17).

Built only for the player who owns the orders: a seat's orders are secret, so the panel
(and its form) is never in the context of another seat's or a spectator's page.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django.utils.safestring import SafeString
from django.utils.translation import get_language

from games.models import Game
from games.selectors.orders import orders_rows
from games.web.forms_orders import StandingOrdersForm
from games.web.viewer import Viewer


def game_orders_panel(
    game: Game, viewer: Viewer, *, form: StandingOrdersForm | None = None
) -> dict[str, Any] | None:
    """Return ``{"form", "fields_html", "seat", "follows_default"}`` for ``viewer``'s own
    seat, else None.

    None for a spectator, a bot's seat, a dropped seat, and a game over or aborted.
    ``form`` is a bound form to show again with its errors (``fields_html`` is then ``""``
    and the template renders the form); an unbound one's fields come rendered
    (``fields_html``, see ``_fields_html``).
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
    fields_html = SafeString("")
    if form is None:
        initial = StandingOrdersForm.initial_for(own, default)
        form = StandingOrdersForm(initial=initial, for_game=True)
        fields_html = _fields_html(get_language(), tuple(sorted(initial.items())))
    return {
        "form": form,
        "fields_html": fields_html,
        "seat": viewer.seat,
        "follows_default": own is None,
    }


@lru_cache(maxsize=512)
def _fields_html(language: str | None, initial: tuple[tuple[str, Any], ...]) -> SafeString:
    """Return the unbound game form's fields (``as_div``) showing ``initial``, in ``language``.

    Rendering the form's eight fields through Django's form templates was a fifth of the
    game page's CPU (issue 31); an unbound form's HTML depends only on the language and the
    choices it shows (``initial``: ``(field, value)`` pairs, sorted), so it is rendered once
    per pair and kept in this process. The key is the whole content: a seat is only ever
    served the HTML of its own choices, never another's (hidden information, RULES.md §14).
    ``language`` is the active one: the caller's, passed in so it is part of the key.
    """
    form = StandingOrdersForm(initial=dict(initial), for_game=True)
    # The autoescaping form templates' output is already safe; the stubs type it as str.
    return SafeString(form.as_div())


def default_orders_form(user_id: int) -> StandingOrdersForm:
    """Return the settings page's form of ``user_id``'s default orders."""
    _own, default = orders_rows(user_id=user_id, game_id=None)
    return StandingOrdersForm(initial=StandingOrdersForm.initial_for(default, default))
