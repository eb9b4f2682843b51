"""The browser notifications control of the settings page and of a game page (issue 29)."""

from __future__ import annotations

from typing import Any

from django import template

from games.push.keys import vapid_keys
from games.push.subscriptions import push_panel as panel_values
from games.web.viewer import request_of

register = template.Library()


@register.inclusion_tag("accounts/_push.html", takes_context=True)
def push_panel(context: Any) -> dict[str, Any]:
    """Render the control turning this browser's notifications on and off.

    Gives the template a ``PushPanel`` (the site's public key, how many browsers are
    subscribed), never a subscription row.
    """
    user = getattr(request_of(context), "user", None)
    if user is None or not user.is_authenticated:
        return {"show": False}
    keys = vapid_keys()
    return {"show": True, "panel": panel_values(user, keys.public if keys else "")}


@register.inclusion_tag("games/_push_control.html", takes_context=True)
def push_control(context: Any) -> dict[str, Any]:
    """Render the game page's one-line control: the settings page's, without the count.

    Shown to a signed-in viewer when push is set up (a VAPID key); gives the template the
    site's public key only. It reads no table: the game page's queries stay as they were.
    """
    user = getattr(request_of(context), "user", None)
    keys = vapid_keys() if user is not None and user.is_authenticated else None
    if keys is None:
        return {"show": False}
    return {"show": True, "public_key": keys.public}
