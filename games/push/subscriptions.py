"""Turn a browser's push notifications on and off (the settings page, issue 29).

``subscription_save`` stores what the browser's ``PushManager.subscribe()`` gave, after
checking each part: the endpoint an https URL to a public address (the site will post to
it: ``games.webhooks.addresses`` keeps those posts out of our own network), the keys of
the lengths RFC 8291 sets. A refusal raises ``GameError`` with the reason and changes
nothing. A browser is one subscription: saving an endpoint that exists moves it to the
player who saved it last (a shared computer, another account).
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from games.core.errors import GameError
from games.models import MAX_ENDPOINT_LENGTH, PushSubscription
from games.webhooks.addresses import WebhookURLError, checked_target

MAX_SUBSCRIPTIONS = 10  # browsers per account; the oldest makes way for a new one
P256DH_BYTES = 65  # an uncompressed P-256 point (RFC 8291 §3.1)
AUTH_BYTES = 16  # the authentication secret (RFC 8291 §3.2)


def _b64url_bytes(text: str) -> bytes | None:
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        return None


def endpoint_checked(endpoint: str) -> list[str]:
    """Return the addresses ``endpoint``'s host resolves to now, every one of them public.

    Raises ``GameError`` unless the site may post to ``endpoint``: https, a host resolving
    to global unicast addresses only (``games.webhooks.addresses``), not too long.
    """
    if not endpoint or len(endpoint) > MAX_ENDPOINT_LENGTH:
        raise GameError(_("This browser's push address cannot be used."))
    try:
        _host, _port, addresses = checked_target(endpoint)
    except WebhookURLError as exc:
        raise GameError(_("This browser's push address cannot be used.")) from exc
    return addresses


def subscription_save(*, user: Any, endpoint: str, p256dh: str, auth: str) -> PushSubscription:
    """Store ``user``'s browser subscription (``endpoint`` and its keys); return the row.

    Raises ``GameError`` for an endpoint the site may not post to or keys that are not
    base64url of 65 (``p256dh``, starting 0x04) and 16 (``auth``) bytes. More than
    ``MAX_SUBSCRIPTIONS`` browsers: the oldest is dropped (counted under the user's row lock).
    """
    endpoint, p256dh, auth = endpoint.strip(), p256dh.strip(), auth.strip()
    point, secret = _b64url_bytes(p256dh), _b64url_bytes(auth)
    if point is None or len(point) != P256DH_BYTES or point[0] != 4:
        raise GameError(_("This browser's push keys are not valid."))
    if secret is None or len(secret) != AUTH_BYTES:
        raise GameError(_("This browser's push keys are not valid."))
    endpoint_checked(endpoint)
    with transaction.atomic():
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        row, _created = PushSubscription.objects.update_or_create(
            endpoint=endpoint, defaults={"user": user, "p256dh": p256dh, "auth": auth}
        )
        extra = PushSubscription.objects.filter(user=user).order_by("-created_at", "-pk")
        stale = list(extra.values_list("pk", flat=True)[MAX_SUBSCRIPTIONS:])
        if stale:
            PushSubscription.objects.filter(pk__in=stale).delete()
    return row


def subscription_delete(*, user: Any, endpoint: str) -> bool:
    """Delete ``user``'s subscription of ``endpoint`` (and its pushes not sent); return whether."""
    deleted, _rows = PushSubscription.objects.filter(user=user, endpoint=endpoint.strip()).delete()
    return bool(deleted)


@dataclass(frozen=True)
class PushPanel:
    """What the settings page's notifications control needs: never a row.

    ``public_key`` is the site's applicationServerKey ("" when push is off);
    ``browsers`` how many of the player's browsers are subscribed; ``since`` when the
    newest of them was.
    """

    public_key: str
    browsers: int
    since: datetime | None


def push_panel(user: Any, public_key: str) -> PushPanel:
    """Return ``user``'s notifications control values (``public_key`` from ``keys``)."""
    rows = PushSubscription.objects.filter(user=user).order_by("-created_at")
    newest = rows.values_list("created_at", flat=True).first()
    return PushPanel(public_key=public_key, browsers=rows.count(), since=newest)
