"""Retry or fail an outbox row, the same way for every channel (issue 29's review).

The push and webhook outboxes (``games.push.deliver``, ``games.webhooks.deliver``) claim a
row (pending → sending, ``attempts`` + 1) before posting it. What follows a post is the
same for both and lives here: ``outbox_row_finish`` closes a claimed row (sent, failed,
skipped); ``outbox_row_retry_or_fail`` answers a transient error — the row back to pending,
due after the longest wait Celery's backoff allows, and the error raised for Celery to
retry — or, after ``MAX_RETRIES`` retries, fails it for good. The email outbox
(``games.mail.deliver``) retries on the same schedule (``retry_delay``).
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.utils import timezone

from games.models import PushDelivery, WebhookDelivery

log = logging.getLogger(__name__)

MAX_RETRIES = 8
RETRY_BACKOFF = 30  # seconds before the first retry; doubled each time (Celery's backoff)
RETRY_BACKOFF_MAX = 3600
PENDING, SENDING, SENT, FAILED = "pending", "sending", "sent", "failed"

OutboxRow = PushDelivery | WebhookDelivery  # a row with status, attempts, error, send_after


def retry_delay(attempts: int) -> timedelta:
    """Return the longest wait Celery's backoff allows after ``attempts`` sends (30 s · 2ⁿ⁻¹).

    The row waits that long before a sweep may re-queue it, so the sweep never races the
    retry Celery already scheduled (``retry_backoff=30``, ``retry_backoff_max``).
    """
    return timedelta(seconds=min(RETRY_BACKOFF_MAX, RETRY_BACKOFF * 2 ** max(attempts - 1, 0)))


def outbox_row_finish(model: type[OutboxRow], row_id: int, *, status: str, error: str = "") -> None:
    """Close claimed row ``row_id`` of ``model`` with ``status`` (``"sent"``…) and ``error``.

    Only a row still *sending* changes (a row claimed again elsewhere is left alone); the
    error is cut to 2,000 characters; a sent row gets its ``sent_at``.
    """
    fields: dict[str, object] = {"status": status, "error": error[:2000], "claimed_at": None}
    if status == SENT:
        fields["sent_at"] = timezone.now()
    model.objects.filter(pk=row_id, status=SENDING).update(**fields)


def outbox_row_fail(model: type[OutboxRow], row: OutboxRow, error: str) -> str:
    """Fail claimed ``row`` of ``model`` for good with ``error``, logged; return ``"failed"``."""
    log.error("%s %s failed: %s", model._meta.verbose_name, row.pk, error)
    outbox_row_finish(model, row.pk, status=FAILED, error=error)
    return FAILED


def outbox_row_retry_or_fail(model: type[OutboxRow], row: OutboxRow, error: Exception) -> str:
    """Answer a transient ``error`` in posting claimed ``row`` of ``model``.

    Within ``MAX_RETRIES`` retries (``row.attempts`` counts the posts, this one included):
    the row goes back to pending, due after ``retry_delay(row.attempts)``, and ``error`` is
    raised for Celery to retry. After them: the row fails for good (``outbox_row_fail``)
    and ``"failed"`` is returned, for the caller to count it where it counts failures.
    """
    text = str(error)
    if row.attempts > MAX_RETRIES:
        return outbox_row_fail(model, row, text)
    log.warning("%s %s: transient error, retrying: %s", model._meta.verbose_name, row.pk, text)
    model.objects.filter(pk=row.pk, status=SENDING).update(
        status=PENDING,
        error=text[:2000],
        claimed_at=None,
        send_after=timezone.now() + retry_delay(row.attempts),
    )
    raise error
