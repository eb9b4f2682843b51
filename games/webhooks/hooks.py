"""Add and remove a player's webhooks (the settings page), the URL checked first.

``webhook_add`` checks the URL (``games.webhooks.addresses``: https, public addresses
only) and refuses more than ``MAX_WEBHOOKS`` per account; a refusal changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from games.core.errors import GameError
from games.models import Webhook
from games.webhooks.addresses import WebhookURLError, checked_target

MAX_WEBHOOKS = 3


def webhook_add(*, user: Any, kind: str, url: str, on_turn: bool, on_game_over: bool) -> Webhook:
    """Add a webhook of ``kind`` (``Webhook.Kind``) posting to ``url`` for ``user``.

    Raises ``GameError`` with the reason: a URL refused by the checks, an unknown kind,
    nothing chosen to be told, the same URL twice, or too many webhooks (counted under the
    user's row lock, so concurrent requests cannot pass the limit together).
    """
    url = url.strip()
    if kind not in Webhook.Kind.values:
        raise GameError(_("Choose Discord, Slack or plain JSON."))
    if not (on_turn or on_game_over):
        raise GameError(_("Choose at least one kind of notice."))
    try:
        checked_target(url)
    except WebhookURLError as exc:
        raise GameError(exc.message) from exc
    with transaction.atomic():
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        mine = Webhook.objects.filter(user=user)
        if mine.filter(url=url, is_active=True).exists():
            raise GameError(_("This webhook is already on your list."))
        if mine.filter(is_active=True).count() >= MAX_WEBHOOKS:
            raise GameError(_("You have as many webhooks as an account may: remove one first."))
        return Webhook.objects.create(
            user=user, kind=kind, url=url, on_turn=on_turn, on_game_over=on_game_over
        )


def webhook_remove(*, user: Any, webhook_id: int) -> bool:
    """Remove ``user``'s webhook ``webhook_id`` (and its undelivered notices); return whether."""
    deleted, _rows = Webhook.objects.filter(pk=webhook_id, user=user).delete()
    return bool(deleted)


@dataclass(frozen=True)
class WebhookLine:
    """A webhook as the settings page lists it: never the row (its user reaches every game's
    seed, issue 27). ``kind_display`` the kind in the reader's language; ``disabled_at``
    and ``last_error`` why a failing hook was turned off (None / "" while active)."""

    pk: int
    kind_display: str
    url: str
    is_active: bool
    disabled_at: datetime | None
    last_error: str


def webhooks_of(user: Any) -> list[WebhookLine]:
    """Return ``user``'s webhooks, the active ones first, then newest first."""
    rows = Webhook.objects.filter(user=user).order_by("-is_active", "-created_at")
    return [
        WebhookLine(
            pk=w.pk,
            kind_display=str(w.get_kind_display()),
            url=w.url,
            is_active=w.is_active,
            disabled_at=w.disabled_at,
            last_error=w.last_error,
        )
        for w in rows
    ]
