"""Set standing orders (issue 17): for one game from its page, or the default in settings."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.core.errors import GameError
from games.play import orders as play_orders
from games.web.forms_accounts import SettingsForm
from games.web.forms_orders import StandingOrdersForm
from games.web.views.game import HtmxHttpRequest, _render_game, _viewable_game


def _saved_message(request: HttpRequest, answered: int) -> None:
    if answered:
        messages.success(
            request, _("Your standing orders are saved, and answered the decision waiting.")
        )
    else:
        messages.success(request, _("Your standing orders are saved."))


@require_POST
@login_required
def game_orders(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """Set the viewer's standing orders for game ``game_id`` (``StandingOrdersForm``).

    A decision waiting on the viewer that the orders now cover is answered at once. Bad
    choices answer 400 with the page and the form's errors; a game the viewer does not
    play 403 (404 if they may not see it); nothing is saved then.
    """
    game = _viewable_game(request, game_id)  # a stranger's private game: 404, as no game
    form = StandingOrdersForm(request.POST, for_game=True)
    if not form.is_valid():
        error = _("These standing orders do not exist: nothing was changed.")
        return _render_game(request, game, status=400, error=error, orders_form=form)
    try:
        moves = play_orders.game_orders_set(
            game_id=game_id, user=request.user, orders=form.orders()
        )
    except GameError as exc:
        game = _viewable_game(request, game_id)
        return _render_game(request, game, status=exc.status, error=str(exc))
    _saved_message(request, len(moves))
    return redirect("games:game", game_id=game_id)


@require_POST
@login_required
def settings_orders(request: HttpRequest) -> HttpResponse:
    """Set the viewer's default standing orders (settings page), answering what they cover.

    Bad choices answer 400 with the settings page and the form's errors; nothing is saved.
    """
    form = StandingOrdersForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("These standing orders do not exist: nothing was changed."))
        settings_form = SettingsForm(
            initial=SettingsForm.initial_for(request.user), user_id=request.user.pk
        )
        ctx = {"form": settings_form, "orders_form": form}
        return render(request, "accounts/settings.html", ctx, status=400)
    orders = form.orders()
    assert orders is not None  # the default form has no follow_default
    try:
        moves = play_orders.default_orders_set(user=request.user, orders=orders)
    except GameError as exc:
        messages.error(request, str(exc))
        return redirect("games:settings")
    _saved_message(request, len(moves))
    return redirect("games:settings")
