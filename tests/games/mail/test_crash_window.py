"""An email goes once, and a second copy threads with the first (issue 28, finding 8).

A real SMTP server (aiosmtpd) on a loopback port accepts the message and then stalls at
QUIT past the connection's timeout: a worker that dies there, after the acceptance, must
not leave its row to be sent again. A row left *sending* by a killed worker is taken back
within twice the email task's time limit, not ten minutes, and every copy carries the
row's one Message-ID.
"""

from __future__ import annotations

import asyncio
import email
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
import time_machine
from aiosmtpd.controller import Controller
from django.utils import timezone

from games.mail import deliver
from games.models import Delivery, Notification, NotificationKind
from games.outbox import notifications
from tests import services
from tests.games.factories import started_game

pytestmark = pytest.mark.django_db


class StallingInbox:
    """Keeps every message it accepts; stalls ``quit_delay`` seconds before answering QUIT."""

    def __init__(self) -> None:
        self.messages: list[bytes] = []
        self.quit_delay = 0.0

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802
        self.messages.append(bytes(envelope.content))
        return "250 Message accepted for delivery"

    async def handle_QUIT(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802
        await asyncio.sleep(self.quit_delay)
        return "221 Bye"


@pytest.fixture
def inbox(settings: Any) -> Iterator[StallingInbox]:
    """A real SMTP server on loopback, and the site's mailer pointed at it (1 s timeout)."""
    unused_tcp_port = services.free_port()
    handler = StallingInbox()
    controller = Controller(handler, hostname="127.0.0.1", port=unused_tcp_port)
    controller.start()
    settings.MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {"host": "127.0.0.1", "port": unused_tcp_port, "timeout": 1},
        }
    }
    try:
        yield handler
    finally:
        controller.stop()


def _row() -> Notification:
    game, seats = started_game(2)
    row = notifications.notification_create(
        user_id=seats[game.to_act_seat or 0].pk, game=game, ply=game.version, kind="your_turn"
    )
    assert row is not None
    return row


def _message_ids(inbox: StallingInbox) -> list[str]:
    return [email.message_from_bytes(m)["Message-ID"] for m in inbox.messages]


def test_a_server_that_stalls_after_accepting_gets_the_email_once(inbox: StallingInbox) -> None:
    inbox.quit_delay = 3.0  # past the 1 s timeout: the QUIT fails after the acceptance
    row = _row()
    assert deliver.notification_deliver(row.pk) == "sent"
    row.refresh_from_db()
    assert row.status == Notification.Status.SENT and row.attempts == 1
    assert row.message_id.startswith(f"<tigris.notification-{row.pk}@")
    inbox.quit_delay = 0.0
    deliver.outbox_sweep()
    assert deliver.notification_deliver(row.pk) == "skipped"
    assert len(inbox.messages) == 1 and _message_ids(inbox) == [row.message_id]


def test_a_row_left_sending_by_a_killed_worker_is_sent_again_soon_with_the_same_id(
    inbox: StallingInbox, monkeypatch: Any
) -> None:
    row = _row()
    stable = f"<tigris.notification-{row.pk}@"

    from django.db.models.query import QuerySet

    real_update = QuerySet.update

    def update(self: Any, **fields: Any) -> int:
        if fields.get("status") == Notification.Status.SENT:
            # the worker dies after the server accepted, before the row is marked sent
            raise SystemExit("worker killed after the acceptance")
        return real_update(self, **fields)

    monkeypatch.setattr(QuerySet, "update", update)
    with pytest.raises(SystemExit):
        deliver.notification_deliver(row.pk)
    monkeypatch.undo()
    row.refresh_from_db()
    assert row.status == Notification.Status.SENDING and len(inbox.messages) == 1
    claimed = row.claimed_at
    assert claimed is not None
    assert timedelta(minutes=2) >= deliver.STUCK_AFTER
    with time_machine.travel(claimed + deliver.STUCK_AFTER - timedelta(seconds=5), tick=False):
        deliver.outbox_sweep()
        row.refresh_from_db()
        assert row.status == Notification.Status.SENDING  # its worker may be alive yet
    with time_machine.travel(claimed + deliver.STUCK_AFTER + timedelta(seconds=5), tick=False):
        deliver.outbox_sweep()  # back to pending, re-queued (eager: sent here)
        assert deliver.notification_deliver(row.pk) in ("sent", "skipped")
    row.refresh_from_db()
    assert row.status == Notification.Status.SENT
    ids = [i for i in _message_ids(inbox) if i.startswith(stable)]  # others: "game started"
    assert ids == [row.message_id, row.message_id]
    assert row.kind == NotificationKind.YOUR_TURN


def _batched_row() -> Notification:
    """A batched turn notice (the default delivery of a turn, issue 17), due now."""
    game, seats = started_game(2)
    user_id = seats[game.to_act_seat or 0].pk
    row = notifications.notification_create(
        user_id=user_id, game=game, ply=game.version, kind="your_turn"
    )
    assert row is not None and row.delivery == Delivery.BATCHED
    Notification.objects.filter(user_id=user_id, status=Notification.Status.PENDING).update(
        send_after=timezone.now() - timedelta(minutes=1)
    )
    return row


def test_a_batched_email_stalled_after_the_acceptance_is_not_sent_again(
    inbox: StallingInbox,
) -> None:
    inbox.quit_delay = 3.0  # past the 1 s timeout: the QUIT fails after the acceptance
    row = _batched_row()
    assert deliver.groups_due_send(Delivery.BATCHED) == 1
    row.refresh_from_db()
    assert row.status == Notification.Status.SENT
    assert row.message_id.startswith("<tigris.batched-")
    inbox.quit_delay = 0.0
    deliver.outbox_sweep()
    assert deliver.groups_due_send(Delivery.BATCHED) == 0
    assert _message_ids(inbox) == [row.message_id]


def test_a_batched_email_whose_worker_died_after_the_acceptance_goes_again_with_its_id(
    inbox: StallingInbox, monkeypatch: Any
) -> None:
    # issue 28 finding 8, for the batched and daily emails (issue 31): the second copy after
    # a crash carries the first one's Message-ID, so a mail client shows one email
    row = _batched_row()
    from django.db.models.query import QuerySet

    real_update = QuerySet.update

    def update(self: Any, **fields: Any) -> int:
        if fields.get("status") == Notification.Status.SENT:
            raise SystemExit("worker killed after the acceptance")
        return real_update(self, **fields)

    monkeypatch.setattr(QuerySet, "update", update)
    with pytest.raises(SystemExit):
        deliver.groups_due_send(Delivery.BATCHED)
    monkeypatch.undo()
    row.refresh_from_db()
    assert row.status == Notification.Status.SENDING and len(inbox.messages) == 1
    claimed = row.claimed_at
    assert claimed is not None
    with time_machine.travel(claimed + deliver.STUCK_AFTER - timedelta(seconds=5), tick=False):
        deliver.outbox_sweep()
        assert deliver.groups_due_send(Delivery.BATCHED) == 0  # its worker may be alive yet
    with time_machine.travel(claimed + deliver.STUCK_AFTER + timedelta(seconds=5), tick=False):
        deliver.outbox_sweep()  # back to pending
        assert deliver.groups_due_send(Delivery.BATCHED) == 1
    row.refresh_from_db()
    assert row.status == Notification.Status.SENT and row.message_id
    batched = [i for i in _message_ids(inbox) if i.startswith("<tigris.batched-")]
    assert batched == [row.message_id, row.message_id]  # others: "game started", immediate
    answered = Notification.objects.filter(user_id=row.user_id, delivery=Delivery.BATCHED)
    assert set(answered.values_list("status", "message_id")) == {
        (Notification.Status.SENT, row.message_id)
    }
    # a later email, for a later wait, is another email: another Message-ID
    later = Notification.objects.create(
        user_id=row.user_id,
        game=row.game,
        ply=row.ply + 1,
        kind=NotificationKind.YOUR_TURN,
        delivery=Delivery.BATCHED,
        send_after=timezone.now() - timedelta(seconds=1),
    )
    assert deliver.send_group(user_id=row.user_id, delivery=Delivery.BATCHED) in ("sent", "skipped")
    later.refresh_from_db()
    assert later.message_id != row.message_id
