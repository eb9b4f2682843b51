"""Post what the push outbox holds, exactly once, with retries; drop a browser that is gone.

``push_deliver`` claims its row with one conditional UPDATE (pending → sending), so a
duplicate task, a Celery retry racing the sweep or a re-queued message posts nothing
twice. The message is encrypted and signed by pywebpush (RFC 8291, VAPID RFC 8292).
The push service's answers: 2xx sent; 404 or 410 the subscription is gone (the browser
unsubscribed or expired it), so the subscription is deleted with its rows; 408, 425, 429,
5xx, a timeout or a connection error are transient (back to pending, Celery retries with
the email outbox's backoff); anything else fails the row for good. A row is held while its
recipient is in their quiet hours, and a single turn's push the player has acted on since
is skipped, like its email. The endpoint is checked again at each post, and the post
connects to the address that check resolved (``games.push.sending``): a host that
resolves to our own network by then (DNS rebinding) is refused, and reaches nothing.
"""

from __future__ import annotations

import contextlib
import json
import logging

import requests
from django.conf import settings
from django.db.models import F
from django.utils import timezone
from pywebpush import WebPushException, webpush

from games.core import queue
from games.core.errors import GameError
from games.mail.deliver import REQUEUE_AFTER, STUCK_AFTER
from games.mail.notification import still_owed
from games.models import PushDelivery, PushSubscription
from games.outbox.retries import outbox_row_fail, outbox_row_finish, outbox_row_retry_or_fail
from games.push.keys import vapid_keys, vapid_subject
from games.push.sending import pinned_session
from games.push.subscriptions import endpoint_checked
from games.selectors.people import quiet_until

log = logging.getLogger(__name__)

PENDING, SENDING, SENT, FAILED, SKIPPED = "pending", "sending", "sent", "failed", "skipped"
GONE_STATUSES = {404, 410}
TRANSIENT_STATUSES = {408, 425, 429}


class TransientPushError(Exception):
    """Posting failed for a reason that may pass (timeout, connection, 5xx, 429)."""


def push_deliver(delivery_id: int) -> str:
    """Post push outbox row ``delivery_id`` to its browser's push service; return what happened.

    ``"sent"``; ``"held"`` (the recipient is in their quiet hours: pending until they end,
    when ``push_sweep`` queues it again); ``"skipped"`` (not pending: done or claimed
    elsewhere; push is off; or a turn already taken); ``"gone"`` (the service answered 404
    or 410: the subscription is deleted); ``"failed"`` (for good). Raises
    ``TransientPushError`` after putting the row back to pending, for Celery to retry.
    """
    claimed = PushDelivery.objects.filter(pk=delivery_id, status=PENDING).update(
        status=SENDING, attempts=F("attempts") + 1, claimed_at=timezone.now()
    )
    if not claimed:
        return "skipped"
    row = PushDelivery.objects.select_related(
        "subscription", "notification__game", "notification__user"
    ).get(pk=delivery_id)
    held = quiet_until(row.subscription.user_id)
    if held is not None:  # issue 17: nothing reaches a player in their quiet hours
        PushDelivery.objects.filter(pk=delivery_id, status=SENDING).update(
            status=PENDING, claimed_at=None, send_after=held, attempts=F("attempts") - 1
        )
        return "held"
    keys = vapid_keys()
    if keys is None:
        outbox_row_finish(
            PushDelivery, delivery_id, status=SKIPPED, error="push is off: no VAPID key"
        )
        return "skipped"
    if not row.batch and not still_owed(row.notification):
        outbox_row_finish(PushDelivery, delivery_id, status=SKIPPED, error="no longer waiting")
        return "skipped"
    subscription = row.subscription
    try:
        # again: its host may resolve elsewhere now; the post goes to the address checked
        addresses = endpoint_checked(subscription.endpoint)
    except GameError as exc:
        return outbox_row_fail(PushDelivery, row, f"refused: {exc}")
    session = pinned_session(addresses[0])
    try:
        webpush(
            subscription_info={
                "endpoint": subscription.endpoint,
                "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth},
            },
            data=json.dumps(row.payload, ensure_ascii=False),
            vapid_private_key=keys.signer,
            vapid_claims={"sub": vapid_subject()},
            ttl=settings.WEBPUSH_TTL,
            timeout=settings.WEBPUSH_TIMEOUT,
            requests_session=session,
        )
    except WebPushException as exc:
        status = exc.response.status_code if exc.response is not None else None
        if status in GONE_STATUSES:
            log.info("push subscription %s is gone (HTTP %s): deleted", subscription.pk, status)
            PushSubscription.objects.filter(pk=subscription.pk).delete()
            return "gone"
        if status is None or status >= 500 or status in TRANSIENT_STATUSES:
            return outbox_row_retry_or_fail(
                PushDelivery, row, TransientPushError(f"HTTP {status}: {exc}")
            )
        return outbox_row_fail(PushDelivery, row, f"HTTP {status}: {exc}")
    except (requests.RequestException, OSError) as exc:
        return outbox_row_retry_or_fail(
            PushDelivery, row, TransientPushError(f"{type(exc).__name__}: {exc}")
        )
    finally:
        session.close()
    outbox_row_finish(PushDelivery, delivery_id, status=SENT)
    PushSubscription.objects.filter(pk=subscription.pk).update(last_sent_at=timezone.now())
    return "sent"


def push_sweep() -> int:
    """Re-queue push rows left pending (lost messages, due retries, quiet hours over).

    Without ``PUSH_QUEUED`` (the embedded mode) it posts every due row itself instead, in
    the sweeps process.

    Rows stuck in *sending* for ``STUCK_AFTER`` (their worker died) go back to pending
    first. Returns how many were queued.
    """
    now = timezone.now()
    PushDelivery.objects.filter(status=SENDING, claimed_at__lt=now - STUCK_AFTER).update(
        status=PENDING, claimed_at=None
    )
    # Queued rows had their task: only those left a while are lost. Unqueued (the embedded
    # mode) every due row is this sweep's to post.
    before = now - REQUEUE_AFTER if settings.PUSH_QUEUED else now
    ids = list(
        PushDelivery.objects.filter(
            status=PENDING, send_after__lte=now, created_at__lte=before
        ).values_list("pk", flat=True)[:500]
    )
    for pk in ids:
        if settings.PUSH_QUEUED:
            queue.enqueue(queue.SEND_PUSH, pk)
        else:
            # a transient failure puts the row back with its retry time: a later sweep
            with contextlib.suppress(TransientPushError):
                push_deliver(pk)
    return len(ids)
