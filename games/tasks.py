"""Celery tasks: send the outbox's emails exactly once, and the beat sweeps.

Tasks take ids, re-read the database and exit early when the work is done (STYLE.md).
``send_notification`` claims its row with one conditional UPDATE (pending → sending), so a
duplicate task or a re-queued message sends nothing twice. Transient SMTP/connection errors
put the row back to pending and retry with Celery's exponential backoff and jitter;
permanent ones (5xx) mark it failed with the error. Delays are database timestamps
(``send_after``) swept by beat, never long ETAs on the broker.
"""

from __future__ import annotations

import logging
import smtplib
from datetime import datetime, timedelta
from typing import Any

from celery import shared_task
from django.core.mail import EmailMessage, EmailMultiAlternatives
from django.db import transaction
from django.db.models import Exists, F, OuterRef, Q
from django.utils import timezone
from kombu.exceptions import OperationalError

from games import emails
from games.headers import header_safe
from games.models import Delivery, Game, Notification, Seat, Vacation

log = logging.getLogger(__name__)

MAX_RETRIES = 8
RETRY_BACKOFF = 30  # seconds before the first retry; doubled each time (Celery's backoff)
RETRY_BACKOFF_MAX = 3600
STUCK_AFTER = timedelta(minutes=10)  # a row "sending" this long lost its worker
REQUEUE_AFTER = timedelta(minutes=1)


class TransientSendError(Exception):
    """Sending failed for a reason that may pass (disconnect, timeout, SMTP 4xx)."""


def classify(exc: BaseException) -> str:
    """Return ``"transient"`` or ``"permanent"`` for an exception raised while sending."""
    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        codes = [code for code, _msg in exc.recipients.values()]
        return "transient" if codes and all(400 <= c < 500 for c in codes) else "permanent"
    if isinstance(exc, smtplib.SMTPResponseException):
        return "transient" if 400 <= exc.smtp_code < 500 else "permanent"
    if isinstance(exc, smtplib.SMTPServerDisconnected | ConnectionError | TimeoutError | OSError):
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


# The email tasks' decorator: a transient failure is retried with Celery's exponential
# backoff and jitter.
sending_task = shared_task(
    bind=True,
    autoretry_for=(TransientSendError,),
    retry_backoff=RETRY_BACKOFF,
    retry_backoff_max=RETRY_BACKOFF_MAX,
    retry_jitter=True,
    max_retries=MAX_RETRIES,
)


def retry_delay(attempts: int) -> timedelta:
    """Return the longest wait Celery's backoff allows after ``attempts`` sends (30 s · 2ⁿ⁻¹).

    The row waits that long before ``sweep_outbox`` may re-queue it, so the sweep never
    races the retry Celery already scheduled (``retry_backoff=30``, ``retry_backoff_max``).
    """
    return timedelta(seconds=min(RETRY_BACKOFF_MAX, RETRY_BACKOFF * 2 ** max(attempts - 1, 0)))


@sending_task
def send_notification(self, notification_id: int) -> str:  # type: ignore[no-untyped-def]
    """Send the immediate email of outbox row ``notification_id``; return what happened.

    Returns ``"sent"``, ``"skipped"`` (row not pending: already sent, claimed by another
    worker, failed or gone; or a turn the player has taken meanwhile: ``emails.still_owed``)
    or ``"failed"`` (permanent error, stored on the row). Raises ``TransientSendError`` to
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
    row = Notification.objects.select_related("user", "game").get(pk=notification_id)
    if not emails.still_owed(row):  # sent late, after the player already moved: moot
        _release(notification_id, status=Notification.Status.SKIPPED, error="no longer waiting")
        return "skipped"
    try:
        message_id = emails.notification_send(row)
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
    Notification.objects.filter(pk=notification_id, status=Notification.Status.SENDING).update(
        status=Notification.Status.SENT, message_id=message_id, sent_at=timezone.now(), error=""
    )
    return "sent"


def enqueue(task: Any, *args: Any) -> None:
    """Queue ``task(*args)`` with the broker; a broker that does not answer is logged in one line.

    Meant as a robust ``on_commit`` callback. Nothing is lost: an email's row stays pending
    for ``sweep_outbox``, and a partial not rendered ahead is rendered by the poll.
    """
    try:
        task.delay(*args)
    except OperationalError as exc:
        log.warning("broker unavailable, %s%r not queued: %s", task.name, args, exc)


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


@sending_task
def send_account_email(self, payload: dict[str, Any]) -> str:  # type: ignore[no-untyped-def]
    """Send one account email (address confirmation, password reset) rendered in the request.

    ``payload`` comes from ``account_email_payload``. Unlike the outbox's tasks it carries
    the whole message: allauth renders its one-time links in the request and keeps no row to
    re-read. Returns ``"sent"`` or ``"failed"`` (permanent error, logged); raises
    ``TransientSendError`` to let Celery retry with backoff, except in an eager run (the
    embedded mode), which does not retry.
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
        if classify(exc) == "transient" and not self.request.is_eager:
            log.warning("account email: transient error, retrying: %s", text)
            raise TransientSendError(text) from exc
        log.error("account email %r failed: %s", payload["subject"], text)
        return "failed"
    return "sent"


@shared_task(ignore_result=True)
def prerender_partials(game_id: int, version: int, mover: int | None) -> int:
    """Cache the ``#game`` partial of every seated player but ``mover`` (``games.prerender``).

    Does nothing (returns 0) when the game is no longer in progress at ``version``: a later
    move has its own task. Returns how many partials were stored. It is only a shortcut: a
    failure stores nothing and the polls render as usual (queued with a robust
    ``on_commit``, so even an eager run never fails the move).
    """
    from games import prerender, selectors  # selectors → pages: keep worker start-up light

    stamp = prerender.stamp_read(game_id)
    game = selectors.with_seats(Game.objects.all()).filter(pk=game_id).first()
    if game is None or game.version != version or game.status != Game.Status.ACTIVE:
        return 0
    return prerender.partials_store(game, stamp=stamp, except_seat=mover)


@shared_task
def sweep_outbox() -> int:
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
        send_notification.delay(pk)
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


def send_group(*, user_id: int, delivery: str) -> str:
    """Send one email gathering every pending ``delivery`` row of ``user_id``.

    Returns ``"sent"``, ``"skipped"`` (nothing pending, or nothing still worth saying —
    the rows are marked skipped), ``"retry"`` (transient error: rows back to pending for
    the next sweep) or ``"failed"``.
    """
    ids = _claim_group(user_id, delivery)
    if not ids:
        return "skipped"
    rows = list(
        Notification.objects.select_related("user", "game").filter(pk__in=ids).order_by("pk")
    )
    try:
        message_id = emails.digest_send(rows, delivery=delivery)
    except Exception as exc:
        text = f"{type(exc).__name__}: {exc}"
        transient = classify(exc) == "transient" and max(r.attempts for r in rows) < MAX_RETRIES
        status = Notification.Status.PENDING if transient else Notification.Status.FAILED
        Notification.objects.filter(pk__in=ids).update(status=status, error=text[:2000])
        log.warning("digest for user %s: %s", user_id, text)
        return "retry" if transient else "failed"
    if message_id is None:
        Notification.objects.filter(pk__in=ids).update(status=Notification.Status.SKIPPED)
        return "skipped"
    Notification.objects.filter(pk__in=ids).update(
        status=Notification.Status.SENT, message_id=message_id, sent_at=timezone.now(), error=""
    )
    return "sent"


def _send_due(delivery: str) -> int:
    user_ids = set(
        Notification.objects.filter(
            status=Notification.Status.PENDING, delivery=delivery, send_after__lte=timezone.now()
        ).values_list("user_id", flat=True)
    )
    return sum(send_group(user_id=uid, delivery=delivery) == "sent" for uid in sorted(user_ids))


@shared_task
def send_batched() -> int:
    """Send each user with a due batched row one email listing their games; return emails sent."""
    return _send_due(Delivery.BATCHED)


@shared_task
def send_daily_digest() -> int:
    """Send each user whose digest time has come one email listing their games; return count."""
    return _send_due(Delivery.DIGEST)


# --------------------------------------------------------------------------- time controls
# (issue 6). One beat sweep, every minute: ended vacations first (their deadlines move later),
# then due reminders, then passed deadlines, then open games left unfilled for 14 days.
# Each step is a service that locks the game and re-checks under the lock (version and
# times), so a sweep run twice at the same instant sends nothing twice, applies nothing twice.

SWEEP_BATCH = 500


def _paused_by_vacation() -> Exists:
    """Match games whose running deadline belongs to a player on vacation, where it counts."""
    on_vacation = Vacation.objects.filter(
        user_id=OuterRef("user_id"), ended_at__isnull=True, starts_at__lte=timezone.now()
    )
    return Exists(
        Seat.objects.filter(game_id=OuterRef("pk"), position=OuterRef("deadline_seat")).filter(
            Exists(on_vacation)
        )
    )


@shared_task
def sweep_deadlines() -> dict[str, int]:
    """Apply the clocks of every game; return counts ``{"vacations", "reminders", …}``.

    ``vacations``: vacations ended at their planned end; ``reminders``: reminder rows
    written; ``timeouts``: seats whose deadline passed and were played by the default
    policy; ``expired``: open games expired. Idempotent (see above).
    """
    from games import services, vacations  # services imports the notifications → tasks

    now = timezone.now()
    counts = {"vacations": 0, "reminders": 0, "timeouts": 0, "expired": 0}
    for vacation_id in vacations.vacations_due():
        counts["vacations"] += vacations.vacation_end(vacation_id=vacation_id)
    active = Game.objects.filter(status=Game.Status.ACTIVE).exclude(
        Q(vacation_allowed=True) & _paused_by_vacation()
    )
    due = active.filter(reminder_at__lte=now).order_by("reminder_at")
    for game_id, version in due.values_list("pk", "version")[:SWEEP_BATCH]:
        counts["reminders"] += services.seat_remind(game_id=game_id, expected_version=version)
    late = active.filter(deadline__lte=now).order_by("deadline")
    for game_id, version in late.values_list("pk", "version")[:SWEEP_BATCH]:
        try:
            moved = services.seat_timeout(game_id=game_id, expected_version=version)
        except Exception:  # one broken game must not stop every other clock
            log.exception("timeout of game %s failed", game_id)
            continue
        counts["timeouts"] += bool(moved)
    stale = Game.objects.filter(
        status=Game.Status.OPEN, created_at__lte=now - services.OPEN_GAME_LIFETIME
    )
    for game_id in stale.values_list("pk", flat=True)[:SWEEP_BATCH]:
        counts["expired"] += services.game_expire(game_id=game_id)
    return counts
