"""Template tags of the games app: the navigation bar's count of games waiting for me."""

from __future__ import annotations

from typing import Any

from django import template

from games import selectors

register = template.Library()


@register.simple_tag(takes_context=True)
def games_waiting_count(context: Any) -> int:
    """Return how many games wait for the request's user to act (0 when anonymous)."""
    request = context.get("request")
    if request is None:
        return 0
    return selectors.games_waiting_count(request.user)
