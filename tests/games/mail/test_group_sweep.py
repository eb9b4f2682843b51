"""The batched and daily sweeps read only due rows, a bounded batch at a time (issue 31).

``deliver.groups_due_send`` reads the due rows in ``send_after`` order (the
``outbox_due_idx`` index), ``batch`` at a time after the last one read, never the whole
outbox; it emails at most ``GROUP_SWEEP_MAX`` users a run, and a user in their quiet hours
has their rows moved to the end of them, so that no sweep reads them before.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.mail import deliver
from games.models import Delivery, Notification, NotificationKind

pytestmark = pytest.mark.django_db

TABLE = Notification._meta.db_table


def _due_rows(user_factory: Any, users: int, *, per_user: int = 2) -> list[int]:
    """``users`` players with ``per_user`` due batched rows each (and one not yet due)."""
    now = timezone.now()
    ids, rows = [], []
    for n in range(users):
        user = user_factory()
        ids.append(user.pk)
        for ply in range(per_user + 1):
            rows.append(
                Notification(
                    user=user,
                    ply=ply,
                    kind=NotificationKind.VACATION_ENDED,
                    delivery=Delivery.BATCHED,
                    # the last row of each is due tomorrow: never read by today's sweep
                    send_after=now - timedelta(minutes=n + 1)
                    if ply < per_user
                    else now + timedelta(days=1),
                )
            )
    Notification.objects.bulk_create(rows)
    return ids


@pytest.fixture
def sent_to(monkeypatch: Any) -> list[int]:
    """Every ``send_group`` answers its user's due rows with one UPDATE; the users, in order."""
    users: list[int] = []

    def send_group(*, user_id: int, delivery: str) -> str:
        users.append(user_id)
        Notification.objects.filter(
            user_id=user_id,
            delivery=delivery,
            status=Notification.Status.PENDING,
            send_after__lte=timezone.now(),
        ).update(status=Notification.Status.SENT)
        return "sent"

    monkeypatch.setattr(deliver, "send_group", send_group)
    monkeypatch.setattr(deliver, "quiet_until", lambda user_id: None)
    return users


def _reads(queries: list[dict[str, str]]) -> list[str]:
    """The sweep's reads of the outbox (not its writes)."""
    return [q["sql"] for q in queries if q["sql"].startswith("SELECT") and TABLE in q["sql"]]


@pytest.mark.parametrize(("users", "reads"), [(1, 1), (30, 4)])
def test_the_sweep_reads_due_rows_in_bounded_batches_by_due_time(
    user_factory: Any, sent_to: list[int], users: int, reads: int
) -> None:
    ids = _due_rows(user_factory, users)
    with CaptureQueriesContext(connection) as captured:
        assert deliver.groups_due_send(Delivery.BATCHED, batch=20) == users
    # 1 user: 2 due rows, one short read; 30 users: 60 due rows, reads of 20, 20, 20 and 0
    selects = _reads(captured.captured_queries)
    assert len(selects) == reads
    assert all("LIMIT 20" in sql and "ORDER BY" in sql and "send_after" in sql for sql in selects)
    # one UPDATE a user (the stand-in send_group) and nothing else: no per-row work
    assert len(captured.captured_queries) == reads + users
    assert sent_to == sorted(ids, reverse=True)  # the longest-waiting first
    assert not Notification.objects.filter(
        status=Notification.Status.PENDING, send_after__lte=timezone.now()
    ).exists()
    assert Notification.objects.filter(status=Notification.Status.PENDING).count() == users


def test_a_run_emails_at_most_its_share_and_the_next_run_the_rest(
    user_factory: Any, sent_to: list[int], monkeypatch: Any
) -> None:
    monkeypatch.setattr(deliver, "GROUP_SWEEP_MAX", 5)
    ids = _due_rows(user_factory, 12)
    assert deliver.groups_due_send(Delivery.BATCHED, batch=4) == 5
    assert deliver.groups_due_send(Delivery.BATCHED, batch=4) == 5
    assert deliver.groups_due_send(Delivery.BATCHED, batch=4) == 2
    assert deliver.groups_due_send(Delivery.BATCHED, batch=4) == 0
    assert sent_to == sorted(ids, reverse=True)


def test_a_user_in_quiet_hours_is_not_read_again_until_they_end(
    user_factory: Any, sent_to: list[int], monkeypatch: Any
) -> None:
    quiet, awake = _due_rows(user_factory, 2)
    ends = timezone.now() + timedelta(hours=3)
    monkeypatch.setattr(deliver, "quiet_until", lambda user_id: ends if user_id == quiet else None)
    assert deliver.groups_due_send(Delivery.BATCHED) == 1
    assert sent_to == [awake]
    held = Notification.objects.filter(user_id=quiet, status=Notification.Status.PENDING)
    # the due rows wait for the end of the quiet hours; the one due tomorrow stays as it was
    assert sorted(held.values_list("send_after", flat=True))[:2] == [ends, ends]
    assert held.filter(send_after__gt=ends).count() == 1
    with CaptureQueriesContext(connection) as captured:
        assert deliver.groups_due_send(Delivery.BATCHED) == 0
    assert len(captured.captured_queries) == 1  # one read, which finds nothing due
