"""The settings page's panel of API tokens and webhooks (issue 19)."""

from __future__ import annotations

from typing import Any

from django import template

from games.accounts import tokens
from games.web.forms_api import TokenForm, WebhookForm
from games.web.viewer import request_of
from games.webhooks import hooks

register = template.Library()


@register.inclusion_tag("accounts/_api.html", takes_context=True)
def api_panel(context: Any) -> dict[str, Any]:
    """Render the tokens (names and first characters) and webhooks, with their forms.

    ``new_token`` in the page's context is a secret just created: shown this once;
    ``webhook_form`` a webhook form just refused, shown as it was typed.
    """
    user = getattr(request_of(context), "user", None)
    if user is None or not user.is_authenticated:
        return {"show": False}
    return {
        "show": True,
        "tokens": tokens.tokens_of(user),
        "webhooks": hooks.webhooks_of(user),
        "token_form": TokenForm(),
        "webhook_form": context.get("webhook_form") or WebhookForm(),  # a refused one kept
        "new_token": context.get("new_token", ""),
        "new_token_name": context.get("new_token_name", ""),
        "csrf_token": context.get("csrf_token"),
    }
