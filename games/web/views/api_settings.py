"""The settings page's API tokens and webhooks: create and revoke, add and remove (issue 19).

A new token's secret is shown once, in the answer to the POST that created it (never
stored, never put in the session; ``Cache-Control: no-store``); from then on the page
shows only its name and first characters.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.accounts import tokens
from games.core.errors import GameError
from games.web.forms_accounts import SettingsForm
from games.web.forms_api import TokenForm, WebhookForm
from games.webhooks import hooks


@require_POST
@login_required
def token_create(request: HttpRequest) -> HttpResponse:
    """Create a read-only token; answer the settings page showing its secret once."""
    form = TokenForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Give the token a name (up to 60 characters)."))
        return redirect("games:settings")
    try:
        row, secret = tokens.token_create(user=request.user, name=form.cleaned_data["name"])
    except GameError as exc:
        messages.error(request, str(exc))
        return redirect("games:settings")
    response = _settings_page(request, new_token=secret, new_token_name=row.name)
    add_never_cache_headers(response)
    return response


def _settings_page(request: HttpRequest, *, status: int = 200, **extra: Any) -> HttpResponse:
    """Answer the settings page itself, with ``extra`` for its API panel (``api_panel``)."""
    settings_form = SettingsForm(
        initial=SettingsForm.initial_for(request.user), user_id=request.user.pk
    )
    return render(
        request, "accounts/settings.html", {"form": settings_form, **extra}, status=status
    )


@require_POST
@login_required
def token_revoke(request: HttpRequest, token_id: int) -> HttpResponse:
    """Revoke one of the player's tokens; back to the settings page."""
    if tokens.token_revoke(user=request.user, token_id=token_id):
        messages.success(request, _("The token is revoked: it no longer opens the API."))
    return redirect("games:settings")


@require_POST
@login_required
def webhook_add(request: HttpRequest) -> HttpResponse:
    """Add a webhook after checking its URL; back to the settings page with the outcome.

    A refusal answers the page itself (400) with the form as it was typed.
    """
    form = WebhookForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose the webhook's kind and give its URL."))
        return _settings_page(request, status=400, webhook_form=form)
    try:
        hooks.webhook_add(
            user=request.user,
            kind=form.cleaned_data["kind"],
            url=form.cleaned_data["url"],
            on_turn=form.cleaned_data["on_turn"],
            on_game_over=form.cleaned_data["on_game_over"],
        )
    except GameError as exc:
        # Refused: the page again with what was typed, to mend rather than retype.
        messages.error(request, str(exc))
        return _settings_page(request, status=400, webhook_form=form)
    messages.success(request, _("The webhook is added."))
    return redirect("games:settings")


@require_POST
@login_required
def webhook_remove(request: HttpRequest, webhook_id: int) -> HttpResponse:
    """Remove one of the player's webhooks; back to the settings page."""
    if hooks.webhook_remove(user=request.user, webhook_id=webhook_id):
        messages.success(request, _("The webhook is removed."))
    return redirect("games:settings")
