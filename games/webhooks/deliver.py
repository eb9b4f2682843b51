"""Deliver what the webhooks' outbox holds, exactly once, with retries; disable a failing hook.

``webhook_deliver`` claims its row with one conditional UPDATE (pending → sending), so a
duplicate task, a Celery retry racing the sweep or a re-queued message posts nothing twice.
A timeout, a connection error or an answer of 408, 425, 429 or 5xx puts the row back to
pending and raises ``TransientWebhookError`` for Celery to retry with backoff (the email
outbox's schedule: ``games.outbox.retries``); any other answer but 2xx, a
redirect (never followed), or a URL that no longer passes the address checks fails the row
for good. ``DISABLE_AFTER`` rows failed in a row disable the webhook, and the player gets
an email and a message on the settings page.
"""

from __future__ import annotations

import http.client
import logging

from django.conf import settings
from django.core.mail import EmailMessage
from django.db.models import F, Prefetch
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from games.core import queue
from games.mail.deliver import REQUEUE_AFTER, STUCK_AFTER, account_email_payload
from games.models import Game, NotificationKind, Seat, Webhook, WebhookDelivery
from games.outbox.retries import outbox_row_fail, outbox_row_finish, outbox_row_retry_or_fail
from games.selectors.games import seat_for
from games.selectors.moves import seat_moved_since
from games.webhooks.addresses import WebhookURLError
from games.webhooks.payloads import payload_for
from games.webhooks.sending import post_json

log = logging.getLogger(__name__)

DISABLE_AFTER = 3  # deliveries failed for good in a row (each after its retries)
TRANSIENT_STATUSES = {408, 425, 429}
PENDING, SENDING, SENT, FAILED, SKIPPED = "pending", "sending", "sent", "failed", "skipped"


class TransientWebhookError(Exception):
    """Posting failed for a reason that may pass (timeout, connection, 5xx, 429)."""


def _still_owed(row: WebhookDelivery) -> bool:
    """Return False for a turn notice the player has acted on, or whose game ended."""
    if row.kind == NotificationKind.GAME_OVER:
        return True
    game = row.game
    if game.status != Game.Status.ACTIVE:
        return False
    seat = seat_for(game, row.webhook.user)
    if seat is None or seat.position is None:
        return False
    return not seat_moved_since(game.pk, seat=seat.position, ply=row.ply)


def webhook_deliver(delivery_id: int) -> str:
    """Post outbox row ``delivery_id`` to its webhook; return what happened.

    ``"sent"``, ``"skipped"`` (not pending: done, claimed elsewhere, or its webhook was
    disabled or removed; or a turn already taken) or ``"failed"`` (for good, counted
    against the webhook). Raises ``TransientWebhookError`` after putting the row back to
    pending, for Celery to retry.
    """
    claimed = WebhookDelivery.objects.filter(pk=delivery_id, status=PENDING).update(
        status=SENDING, attempts=F("attempts") + 1, claimed_at=timezone.now()
    )
    if not claimed:
        return "skipped"
    row = (
        WebhookDelivery.objects.select_related("webhook__user__profile", "game")
        .prefetch_related(
            Prefetch("game__seats", queryset=Seat.objects.select_related("user__profile"))
        )
        .get(pk=delivery_id)
    )
    if not row.webhook.is_active:
        outbox_row_finish(WebhookDelivery, delivery_id, status=SKIPPED, error="webhook disabled")
        return "skipped"
    if not _still_owed(row):
        outbox_row_finish(WebhookDelivery, delivery_id, status=SKIPPED, error="no longer waiting")
        return "skipped"
    try:
        status = post_json(row.webhook.url, payload_for(row))
    except WebhookURLError as exc:
        return _failed(row, f"refused: {exc}")
    except (OSError, http.client.HTTPException) as exc:
        return _transient(row, f"{type(exc).__name__}: {exc}")
    if 200 <= status < 300:
        outbox_row_finish(WebhookDelivery, delivery_id, status=SENT)
        Webhook.objects.filter(pk=row.webhook_id).update(failures_in_row=0, last_error="")
        return "sent"
    if status >= 500 or status in TRANSIENT_STATUSES:
        return _transient(row, f"HTTP {status}")
    return _failed(row, f"HTTP {status}")


def _transient(row: WebhookDelivery, text: str) -> str:
    """Retry ``row`` later (raising for Celery), or fail it for good after its retries."""
    outbox_row_retry_or_fail(WebhookDelivery, row, TransientWebhookError(text))
    return _counted_failure(row, text)


def _failed(row: WebhookDelivery, text: str) -> str:
    """Fail ``row`` for good and count it against its webhook (disabling it at the limit)."""
    outbox_row_fail(WebhookDelivery, row, text)
    return _counted_failure(row, text)


def _counted_failure(row: WebhookDelivery, text: str) -> str:
    Webhook.objects.filter(pk=row.webhook_id).update(
        failures_in_row=F("failures_in_row") + 1, last_error=text[:2000]
    )
    webhook_disable_if_failing(webhook_id=row.webhook_id)
    return FAILED


def webhook_disable_if_failing(*, webhook_id: int) -> bool:
    """Disable webhook ``webhook_id`` if ``DISABLE_AFTER`` deliveries failed in a row.

    Returns whether this call disabled it; the player is then emailed once (the UPDATE is
    conditional on the webhook being active, so two workers cannot both send it).
    """
    done = Webhook.objects.filter(
        pk=webhook_id, is_active=True, failures_in_row__gte=DISABLE_AFTER
    ).update(is_active=False, disabled_at=timezone.now())
    if not done:
        return False
    hook = Webhook.objects.select_related("user__profile").get(pk=webhook_id)
    if hook.user.email:
        queue.enqueue_on_commit(queue.SEND_ACCOUNT_EMAIL, account_email_payload(_notice(hook)))
    return True


def _notice(hook: Webhook) -> EmailMessage:
    """Return the email telling ``hook``'s owner that it was disabled, in their language."""
    language = getattr(getattr(hook.user, "profile", None), "language", None) or "en"
    with translation.override(language):
        subject = _("Your webhook was turned off")
        body = _(
            "Your %(kind)s webhook failed %(n)s times in a row, so the site stopped "
            "calling it. The last error was: %(error)s\n\n"
            "Check it, then add it again on your settings page: %(url)s"
        ) % {
            "kind": hook.get_kind_display(),
            "n": DISABLE_AFTER,
            "error": hook.last_error,
            "url": f"{settings.SITE_URL}{reverse('games:settings')}",
        }
    return EmailMessage(subject=subject, body=body, to=[hook.user.email])


def webhooks_sweep() -> int:
    """Re-queue rows left pending (lost broker messages, due retries); return how many.

    Rows stuck in *sending* for ``STUCK_AFTER`` (their worker died) go back to pending first.
    """
    now = timezone.now()
    WebhookDelivery.objects.filter(status=SENDING, claimed_at__lt=now - STUCK_AFTER).update(
        status=PENDING, claimed_at=None
    )
    ids = list(
        WebhookDelivery.objects.filter(
            status=PENDING, send_after__lte=now, created_at__lt=now - REQUEUE_AFTER
        ).values_list("pk", flat=True)[:500]
    )
    for pk in ids:
        queue.enqueue(queue.SEND_WEBHOOK, pk)
    return len(ids)
