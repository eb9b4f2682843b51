"""The push outbox's rows: one browser notification owed to each of a player's subscriptions.

Push is a channel beside email (issue 29) and follows it: the email channel decides when a
notification goes out — its kind turned on, its delay or the daily digest's hour passed,
the recipient out of their quiet hours, the turn still theirs (``games.mail.deliver``) —
and at that moment calls ``push_owed``, which writes a ``PushDelivery`` row for each of the
recipient's subscriptions and queues ``games.tasks.send_push`` once the transaction
commits (with a broker: ``PUSH_QUEUED``; eager, the sweeps process posts new rows instead,
so no player's request waits on a push service). The rows are unique on (subscription,
notification), so an email retried, a task run twice or a sweep racing a worker never
pushes one notification twice to one browser. A batched email or digest is one push
(``batch``), keyed on its first row.

The payload is composed here, in the recipient's language: a title (the game's number),
one sentence of the kind (``games.text.push``) and the game's address — nothing hidden,
not even a player's name.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.conf import settings
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone, translation

from games.core import queue
from games.models import Notification, Profile, PushDelivery, PushSubscription
from games.text.push import push_batch_body, push_body, push_title


def _language(user_id: int) -> str:
    language = Profile.objects.filter(user_id=user_id).values_list("language", flat=True).first()
    return language or settings.LANGUAGE_CODE


def push_payload(rows: Sequence[Notification], *, language: str) -> dict[str, str]:
    """Return what the browser shows for ``rows`` (one notification, or a batch of them).

    ``{"title", "body", "url", "tag"}`` in ``language``: for rows of one game the last
    row's kind ("It is your move.") and the game's page; for several games one sentence
    counting them and the lobby's "My games". ``tag`` lets a newer notification of the same
    game replace an older one on the device. Raises ``ValueError`` for no rows.
    """
    if not rows:
        raise ValueError("a push needs at least one notification")
    games = sorted({r.game_id for r in rows if r.game_id is not None})
    with translation.override(language):
        if len(games) > 1:
            return {
                "title": push_title(None),
                "body": push_batch_body(len(games)),
                "url": f"{settings.SITE_URL}{reverse('games:lobby')}#my-games",
                "tag": "games",
            }
        last = rows[-1]
        if last.game_id is None and last.tournament_id is not None:
            page = reverse("games:tournament", args=[last.tournament_id])
            return {  # a bye, an event's or a season's end (issue 30): the event's page
                "title": push_title(None),
                "body": push_body(last.kind),
                "url": f"{settings.SITE_URL}{page}",
                "tag": f"tournament-{last.tournament_id}",
            }
        if last.game_id is None and last.league_id is not None:
            page = reverse("games:league", args=[last.league_id])
            return {  # an invitation to a league: the league's page
                "title": push_title(None),
                "body": push_body(last.kind),
                "url": f"{settings.SITE_URL}{page}",
                "tag": f"league-{last.league_id}",
            }
        if last.game_id is None:
            return {
                "title": push_title(None),
                "body": push_body(last.kind),
                "url": f"{settings.SITE_URL}{reverse('games:lobby')}",
                "tag": f"account-{last.kind}",
            }
        return {
            "title": push_title(last.game_id),
            "body": push_body(last.kind),
            "url": f"{settings.SITE_URL}{reverse('games:game', args=[last.game_id])}",
            "tag": f"game-{last.game_id}",
        }


def push_owed(rows: Sequence[Notification]) -> list[PushDelivery]:
    """Write the push owed to each subscription of ``rows``' recipient; return the new rows.

    ``rows`` are one user's notifications that go out now, in one message: one row (an
    immediate email) or a batched email's or digest's rows (then ``batch``, keyed on the
    first). A push already owed for that row and subscription is skipped (the unique
    constraint, in a savepoint). Each new row is queued once the transaction commits
    (``PUSH_QUEUED``; else ``push_sweep`` posts it).
    No subscription: no row and one query.
    """
    if not rows:
        return []
    rows = sorted(rows, key=lambda r: r.pk)
    user_id = rows[0].user_id
    subscriptions = list(
        PushSubscription.objects.filter(user_id=user_id).values_list("pk", flat=True)
    )
    if not subscriptions:
        return []
    payload = push_payload(rows, language=_language(user_id))
    made = []
    for subscription_id in subscriptions:
        try:
            with transaction.atomic():
                row = PushDelivery.objects.create(
                    subscription_id=subscription_id,
                    notification=rows[0],
                    batch=len(rows) > 1,
                    payload=payload,
                    send_after=timezone.now(),
                )
        except IntegrityError:
            continue
        if settings.PUSH_QUEUED:  # else the sweeps process posts it (never in a request)
            queue.enqueue_on_commit(queue.SEND_PUSH, row.pk)
        made.append(row)
    return made
