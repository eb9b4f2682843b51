"""Browser notifications on and off (issue 29): the settings page's control posts here.

``static/pwa/push.js`` subscribes through the service worker's ``PushManager`` and posts
``PushSubscription.toJSON()`` (``{"endpoint": str, "keys": {"p256dh": str, "auth": str}}``)
with the CSRF token in ``X-CSRFToken``; turning off posts ``{"endpoint": str}``. Answers
are JSON: ``{"ok": true}`` or, refused with nothing changed, 400 ``{"error": reason}``.
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.core.errors import GameError
from games.push import subscriptions

MAX_BODY_BYTES = 4096


def _body(request: HttpRequest) -> dict[str, Any] | None:
    """Return the request's JSON object, or None when it is not one (or too long)."""
    if len(request.body) > MAX_BODY_BYTES:
        return None
    try:
        data = json.loads(request.body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _refused(message: str) -> JsonResponse:
    return JsonResponse({"error": message}, status=400)


@require_POST
@login_required
def push_subscribe(request: HttpRequest) -> JsonResponse:
    """Store this browser's push subscription for the signed-in player."""
    data = _body(request)
    keys = data.get("keys") if data is not None else None
    if data is None or not isinstance(keys, dict):
        return _refused(_("The browser sent no push subscription."))
    fields = (data.get("endpoint"), keys.get("p256dh"), keys.get("auth"))
    if not all(isinstance(f, str) for f in fields):
        return _refused(_("The browser sent no push subscription."))
    endpoint, p256dh, auth = (str(f) for f in fields)
    try:
        subscriptions.subscription_save(
            user=request.user, endpoint=endpoint, p256dh=p256dh, auth=auth
        )
    except GameError as exc:
        return _refused(str(exc))
    return JsonResponse({"ok": True}, status=201)


@require_POST
@login_required
def push_unsubscribe(request: HttpRequest) -> JsonResponse:
    """Delete this browser's push subscription (its pushes not sent go with it)."""
    data = _body(request)
    endpoint = data.get("endpoint") if data is not None else None
    if not isinstance(endpoint, str):
        return _refused(_("The browser sent no push subscription."))
    removed = subscriptions.subscription_delete(user=request.user, endpoint=endpoint)
    return JsonResponse({"ok": True, "removed": removed})
