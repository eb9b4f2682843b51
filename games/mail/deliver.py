"""Deliver what the outbox holds, exactly once, and the account emails (``games.tasks`` wraps them).

``notification_deliver`` claims its row with one conditional UPDATE (pending → sending), so
a duplicate task or a re-queued message sends nothing twice. When an email is due and owed,
the recipient's browsers are owed its push too (``games.outbox.push``, issue 29).
Transient SMTP/connection errors put the row back to pending and raise
``TransientSendError`` for Celery to retry with exponential backoff and jitter; permanent
ones (5xx) mark it failed with the error.
Delays are database timestamps (``send_after``) swept by beat, never long ETAs on the broker.
"""

from __future__ import annotations

import logging
import smtplib
from datetime import datetime, timedelta
from typing import Any

from celery.exceptions import SoftTimeLimitExceeded
from django.core.exceptions import ObjectDoesNotExist
from django.core.mail import EmailMessage, EmailMultiAlternatives
from django.db import transaction
from django.db.models import F, Q, prefetch_related_objects
from django.utils import timezone

from games.core import queue
from games.mail.digest import GroupOutcome, digest_send
from games.mail.notification import notification_send, still_owed
from games.mail.sending import OutboxSend, outbox_message_id
from games.models import Delivery, Notification
from games.outbox.push import push_owed
from games.outbox.retries import MAX_RETRIES, retry_delay
from games.selectors.games import seats_prefetch
from games.selectors.people import quiet_hours_of, quiet_until
from games.text.headers import header_safe

log = logging.getLogger(__name__)

# An email task's time limits (seconds, ``games.tasks.sending_task``): the SMTP connection
# times out in 20 s (EMAIL_TIMEOUT), so a live task is done within the hard limit, and a row
# "sending" for twice that lost its worker: it goes back to pending (issue 28, finding 8).
SEND_SOFT_TIME_LIMIT = 50
SEND_TIME_LIMIT = 60
STUCK_AFTER = timedelta(seconds=2 * SEND_TIME_LIMIT)
REQUEUE_AFTER = timedelta(minutes=1)
# The batched and digest sweeps (``groups_due_send``) read due rows this many at a time, and
# email at most this many users a run (beat's next run, a minute on, takes the rest).
GROUP_SWEEP_BATCH = 200
GROUP_SWEEP_MAX = 1000


class TransientSendError(Exception):
    """Sending failed for a reason that may pass (disconnect, timeout, SMTP 4xx)."""


def classify(exc: BaseException) -> str:
    """Return ``"transient"`` or ``"permanent"`` for an exception raised while sending."""
    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        codes = [code for code, _msg in exc.recipients.values()]
        return "transient" if codes and all(400 <= c < 500 for c in codes) else "permanent"
    if isinstance(exc, smtplib.SMTPResponseException):
        return "transient" if 400 <= exc.smtp_code < 500 else "permanent"
    if isinstance(
        exc,
        smtplib.SMTPServerDisconnected
        | ConnectionError
        | TimeoutError
        | OSError
        | SoftTimeLimitExceeded,  # the task's soft limit: a slow server, try again later
    ):
        return "transient"
    return "permanent"


def _release(
    notification_id: int, *, status: str, error: str, send_after: datetime | None = None
) -> None:
    fields: dict[str, Any] = {"status": status, "error": error[:2000], "claimed_at": None}
    if send_after is not None:
        fields["send_after"] = send_after
    Notification.objects.filter(pk=notification_id, status=Notification.Status.SENDING).update(
        **fields
    )


def notification_deliver(notification_id: int) -> str:
    """Send the immediate email of outbox row ``notification_id``; return what happened.

    Returns ``"sent"``, ``"skipped"`` (row not pending: already sent, claimed by another
    worker, failed or gone; or a turn the player has taken meanwhile: ``emails.still_owed``),
    ``"held"`` (the recipient is in their quiet hours: the row waits, pending, until they
    end, when ``outbox_sweep`` queues it again) or ``"failed"`` (permanent error, stored on
    the row). Raises ``TransientSendError`` to
    let Celery retry, after putting the row back to pending.
    """
    claimed = Notification.objects.filter(
        pk=notification_id, status=Notification.Status.PENDING
    ).update(
        status=Notification.Status.SENDING,
        attempts=F("attempts") + 1,
        claimed_at=timezone.now(),
    )
    if not claimed:
        return "skipped"
    # The recipient's profile (language, time zone) and the game's seats are read once here
    # for the whole email.
    row = Notification.objects.select_related("user__profile", "game").get(pk=notification_id)
    held = _quiet_until(row)
    if held is not None:  # issue 17: nothing reaches a player in their quiet hours
        Notification.objects.filter(pk=notification_id, status=Notification.Status.SENDING).update(
            status=Notification.Status.PENDING,
            claimed_at=None,
            send_after=held,
            attempts=F("attempts") - 1,
        )
        return "held"
    if row.game is not None:
        prefetch_related_objects([row.game], seats_prefetch())
    if not still_owed(row):  # sent late, after the player already moved: moot
        _release(notification_id, status=Notification.Status.SKIPPED, error="no longer waiting")
        return "skipped"
    # The browsers' push goes out now too, whatever becomes of the email (issue 29); owed
    # once per subscription, so a retried email pushes nothing twice.
    push_owed([row])

    def accepted(message_id: str) -> None:
        # the first thing done once the server accepted the message (issue 28, finding 8)
        Notification.objects.filter(pk=notification_id, status=Notification.Status.SENDING).update(
            status=Notification.Status.SENT,
            message_id=message_id,
            sent_at=timezone.now(),
            error="",
        )

    stable = outbox_message_id(f"notification-{notification_id}")
    try:
        notification_send(row, OutboxSend(stable, accepted))
    except Exception as exc:
        text = f"{type(exc).__name__}: {exc}"
        # Counted on the row, not on this Celery chain: a row re-queued by the sweep starts
        # a new chain, and must still fail after MAX_RETRIES retries in all.
        if classify(exc) == "transient" and row.attempts <= MAX_RETRIES:
            log.warning("notification %s: transient error, retrying: %s", notification_id, text)
            _release(
                notification_id,
                status=Notification.Status.PENDING,
                error=text,
                send_after=timezone.now() + retry_delay(row.attempts),
            )
            raise TransientSendError(text) from exc
        log.error("notification %s failed: %s", notification_id, text)
        _release(notification_id, status=Notification.Status.FAILED, error=text)
        return "failed"
    return "sent"


def _quiet_until(row: Notification) -> datetime | None:
    """Return when the quiet hours the recipient of ``row`` is in end, or None."""
    try:
        profile = row.user.profile
    except ObjectDoesNotExist:
        return None
    quiet = quiet_hours_of(profile)
    return quiet.quiet_until(timezone.now()) if quiet is not None else None


def account_email_payload(message: EmailMessage) -> dict[str, Any]:
    """Return ``message`` as the JSON-safe dict ``send_account_email`` takes.

    Keys: ``subject``, ``body``, ``from_email``, ``to`` (list), ``headers`` (dict),
    ``alternatives`` (list of ``[content, mimetype]``), ``content_subtype``.
    """
    return {
        "subject": message.subject,
        "body": message.body,
        "from_email": message.from_email,
        "to": list(message.to),
        "headers": dict(message.extra_headers),
        "alternatives": [
            [alt.content, alt.mimetype] for alt in getattr(message, "alternatives", [])
        ],
        "content_subtype": message.content_subtype,
    }


def account_email_deliver(payload: dict[str, Any], *, eager: bool) -> str:
    """Send one account email (address confirmation, password reset) rendered in the request.

    ``payload`` comes from ``account_email_payload``. Unlike the outbox's tasks it carries
    the whole message: allauth renders its one-time links in the request and keeps no row to
    re-read. Returns ``"sent"`` or ``"failed"`` (permanent error, logged); raises
    ``TransientSendError`` to let Celery retry with backoff, except in an ``eager`` run
    (the embedded mode), which does not retry.
    """
    message = EmailMultiAlternatives(
        subject=header_safe(payload["subject"]),
        body=payload["body"],
        from_email=payload["from_email"],
        to=payload["to"],
        headers=payload["headers"],
    )
    message.content_subtype = payload["content_subtype"]
    for content, mimetype in payload["alternatives"]:
        message.attach_alternative(content, mimetype)
    try:
        message.send()
    except Exception as exc:
        text = f"{type(exc).__name__}: {exc}"
        if classify(exc) == "transient" and not eager:
            log.warning("account email: transient error, retrying: %s", text)
            raise TransientSendError(text) from exc
        log.error("account email %r failed: %s", payload["subject"], text)
        return "failed"
    return "sent"


def outbox_sweep() -> int:
    """Re-queue immediate rows left pending for a minute (lost broker messages); return how many.

    Rows stuck in *sending* for ``STUCK_AFTER`` (their worker died) go back to pending first.
    """
    now = timezone.now()
    Notification.objects.filter(
        status=Notification.Status.SENDING, claimed_at__lt=now - STUCK_AFTER
    ).update(status=Notification.Status.PENDING, claimed_at=None)
    ids = list(
        Notification.objects.filter(
            status=Notification.Status.PENDING,
            delivery=Delivery.IMMEDIATE,
            send_after__lte=now,
            created_at__lt=now - REQUEUE_AFTER,
        ).values_list("pk", flat=True)[:500]
    )
    for pk in ids:
        queue.enqueue(queue.SEND_NOTIFICATION, pk)
    return len(ids)


def _claim_group(user_id: int, delivery: str) -> list[int]:
    """Mark every pending ``delivery`` row of ``user_id`` as sending; return their ids."""
    with transaction.atomic():
        ids = list(
            Notification.objects.select_for_update(skip_locked=True)
            .filter(user_id=user_id, delivery=delivery, status=Notification.Status.PENDING)
            .values_list("pk", flat=True)
        )
        Notification.objects.filter(pk__in=ids, status=Notification.Status.PENDING).update(
            status=Notification.Status.SENDING,
            attempts=F("attempts") + 1,
            claimed_at=timezone.now(),
        )
    return ids


def _group_answered(ids: list[int], outcome: GroupOutcome) -> None:
    """Record an accepted group email on its rows, in one transaction: answered rows sent
    with its Message-ID, moot rows skipped, any other claimed row pending again."""
    with transaction.atomic():
        Notification.objects.filter(pk__in=outcome.moot, status=Notification.Status.SENDING).update(
            status=Notification.Status.SKIPPED, claimed_at=None
        )
        Notification.objects.filter(pk__in=outcome.sent, status=Notification.Status.SENDING).update(
            status=Notification.Status.SENT,
            message_id=outcome.message_id or "",
            sent_at=timezone.now(),
            error="",
        )
        # A row claimed but not answered (none today: every owed row is in the email) waits on.
        Notification.objects.filter(pk__in=ids, status=Notification.Status.SENDING).update(
            status=Notification.Status.PENDING, claimed_at=None
        )


def send_group(*, user_id: int, delivery: str) -> str:
    """Send one email gathering the pending ``delivery`` rows of ``user_id``, if one is due.

    Returns ``"sent"``, ``"skipped"`` (nothing due and still owed: moot rows are marked
    skipped, rows owed later go back to pending — ``digest.digest_send`` decides), ``"retry"``
    (transient error: rows back to pending for the next sweep) or ``"failed"``. Every row
    the email answered is marked sent with its Message-ID the moment the server accepted
    it, so each wait is told once. The Message-ID is the same on every attempt — named
    after the lowest row claimed, which stays pending until an email answers it (issue 28,
    finding 8; issue 31) — so a copy sent again after a crash threads with the first.
    """
    ids = _claim_group(user_id, delivery)
    if not ids:
        return "skipped"
    rows = list(
        Notification.objects.select_related("user__profile", "game")
        .filter(pk__in=ids)
        .order_by("pk")
    )
    stable = outbox_message_id(f"{delivery}-{min(ids)}")
    try:
        outcome = digest_send(
            rows,
            delivery=delivery,
            now=timezone.now(),
            message_id=stable,
            accepted=lambda answered: _group_answered(ids, answered),
        )
    except Exception as exc:
        text = f"{type(exc).__name__}: {exc}"
        transient = classify(exc) == "transient" and max(r.attempts for r in rows) < MAX_RETRIES
        status = Notification.Status.PENDING if transient else Notification.Status.FAILED
        Notification.objects.filter(pk__in=ids, status=Notification.Status.SENDING).update(
            status=status, error=text[:2000], claimed_at=None
        )
        log.warning("digest for user %s: %s", user_id, text)
        return "retry" if transient else "failed"
    if outcome.message_id is not None:
        # The rows were marked when the server accepted (_group_answered); the browsers
        # are owed one push for the whole email (issue 29).
        answered = set(outcome.sent)
        push_owed([r for r in rows if r.pk in answered])
        return "sent"
    Notification.objects.filter(pk__in=outcome.moot).update(status=Notification.Status.SKIPPED)
    # Not claimed for good: rows still owed wait for their own window (no send attempted).
    Notification.objects.filter(pk__in=ids, status=Notification.Status.SENDING).update(
        status=Notification.Status.PENDING, claimed_at=None, attempts=F("attempts") - 1
    )
    return "skipped"


def _hold_until_awake(user_id: int, delivery: str, until: datetime) -> None:
    """Move ``user_id``'s due ``delivery`` rows to ``until``, the end of their quiet hours."""
    Notification.objects.filter(
        user_id=user_id,
        delivery=delivery,
        status=Notification.Status.PENDING,
        send_after__lt=until,
    ).update(send_after=until)


def groups_due_send(delivery: str, *, batch: int = GROUP_SWEEP_BATCH) -> int:
    """Send each user with due ``delivery`` rows one email gathering them; return emails sent.

    The due rows are read ``batch`` at a time in ``send_after`` order (the ``outbox_due_idx``
    index: no scan of the outbox), after the last one read, at most ``GROUP_SWEEP_MAX``
    users a run; the next run takes the rest. A user in their quiet hours (issue 17) is
    passed over: their due rows move to the end of the quiet hours, when the first sweep
    sends them in one email, and no sweep reads them before then.
    """
    now = timezone.now()
    due = Notification.objects.filter(
        status=Notification.Status.PENDING, delivery=delivery, send_after__lte=now
    ).order_by("send_after", "pk")
    seen: set[int] = set()
    sent = 0
    after: tuple[datetime, int] | None = None
    while len(seen) < GROUP_SWEEP_MAX:
        page = due
        if after is not None:
            page = page.filter(Q(send_after__gt=after[0]) | Q(send_after=after[0], pk__gt=after[1]))
        read = list(page.values_list("send_after", "pk", "user_id")[:batch])
        for _when, _pk, user_id in read:
            if user_id in seen or len(seen) >= GROUP_SWEEP_MAX:
                continue
            seen.add(user_id)
            held = quiet_until(user_id)
            if held is not None:
                _hold_until_awake(user_id, delivery, held)
            elif send_group(user_id=user_id, delivery=delivery) == "sent":
                sent += 1
        if len(read) < batch:
            break
        after = (read[-1][0], read[-1][1])
    return sent
