"""One email gathering a player's batched or daily rows: the games waiting for them now.

The batch (issue 17): when one of a player's batched rows is due and its game still waits
on them, one email lists every game waiting on them at that moment, each with what
happened since their last move; every pending batched row of those games is answered by
it, so the next email comes only with a new wait. Rows about turns they took meanwhile
are moot. A player acting live — within their delay each time — gets none.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from django.db.models import prefetch_related_objects
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.core.states import game_state
from games.mail.notification import still_owed, turn_news
from games.mail.sending import OutboxSend, absolute, deadline_text, email_send, language_of
from games.models import TURN_KINDS, Delivery, Game, Notification, NotificationKind
from games.outbox.notifications import waiting_kind
from games.selectors.games import games_waiting_for, seats_prefetch
from games.text.headlines import batch_subject
from games.text.seats import display_name


@dataclass
class GroupOutcome:
    """What ``digest_send`` did: the Message-ID (None: nothing sent) and the rows it answered.

    ``sent`` are the rows the email answered; ``moot`` the rows no longer worth an email
    (turns taken, games over); the other rows stay owed for a later window.
    """

    message_id: str | None
    sent: list[int] = field(default_factory=list)
    moot: list[int] = field(default_factory=list)


def _still_relevant(row: Notification, waiting_ids: set[int]) -> bool:
    """Return whether ``row`` still belongs in the email: a turn not taken since its ply."""
    if row.kind in TURN_KINDS:
        return row.game_id in waiting_ids and still_owed(row)
    return True


def _waiting_entry(game: Game, user: object) -> dict[str, object]:
    """Return one waiting game as the email lists it (label, link, deadline, news)."""
    waiting = waiting_kind(game_state(game))
    kind = waiting[1] if waiting is not None else NotificationKind.YOUR_TURN.value
    news = turn_news(game, user, kind=kind, up_to=game.version)
    return {
        "label": _("Game #%(id)s") % {"id": game.pk},
        "url": absolute(reverse("games:game", args=[game.pk])),
        "deadline": deadline_text(game.deadline, user),
        "subject": news["subject"],
        "happened": news["happened"],
        "asked": news["asked"],
        "since": news["since"],
    }


def digest_send(
    rows: Sequence[Notification],
    *,
    delivery: str,
    now: datetime,
    message_id: str,
    accepted: Callable[[GroupOutcome], None],
) -> GroupOutcome:
    """Send one email for a user's claimed ``rows`` if one is due and still owed.

    A batched email goes out when a row due by ``now`` is still owed (its game waits on
    the user, who has not moved since); a daily digest when a row is due and any game
    waits on the user or something else happened. The email lists every game waiting on
    the user now and the games that started or ended. It carries ``message_id`` (the same
    on every attempt: ``deliver.send_group``), and ``accepted`` is called with the outcome
    the moment the mail server accepted it, before anything else can fail. Returns what
    was sent and answered (``GroupOutcome``). Raises whatever the mail backend raises.
    """
    user = rows[0].user
    with translation.override(language_of(user)):
        waiting = list(games_waiting_for(user))
        prefetch_related_objects(waiting, seats_prefetch())
        waiting_ids = {g.pk for g in waiting}
        relevant = [r for r in rows if _still_relevant(r, waiting_ids)]
        moot = [r.pk for r in rows if r not in relevant]
        due = [r for r in relevant if r.send_after <= now]
        if delivery == Delivery.DIGEST:
            due_any = any(r.send_after <= now for r in rows)
            go = due_any and bool(relevant or waiting)
        else:
            go = bool(due)
        if not go:
            return GroupOutcome(None, moot=moot)
        games_waiting = [_waiting_entry(g, user) for g in waiting]
        events = []
        for r in relevant:
            # Every other kind a player may batch or gather daily (a game started or over,
            # an invitation, a reminder, a dropped seat, a clock run out) is named once.
            if r.kind not in TURN_KINDS and r.game_id is not None:
                events.append(
                    {
                        "label": _("Game #%(id)s") % {"id": r.game_id},
                        "what": r.get_kind_display(),
                        "url": absolute(reverse("games:game", args=[r.game_id])),
                    }
                )
        kinds = sorted({r.kind for r in rows})
        n = len(waiting)
        if delivery == Delivery.DIGEST:
            subject = ngettext(
                "Your daily Tigris & Euphrates digest: %(n)s game waiting for you",
                "Your daily Tigris & Euphrates digest: %(n)s games waiting for you",
                n,
            ) % {"n": n}
        elif n == 1:
            subject = str(games_waiting[0]["subject"])
        elif n:
            subject = batch_subject(n)
        else:
            subject = _("Tigris & Euphrates: news of your games")
        context = {
            "recipient": display_name(user),
            "games_waiting": games_waiting,
            "events": events,
            "delivery": delivery,
        }
        outcome = GroupOutcome(message_id, sent=[r.pk for r in relevant], moot=moot)
        email_send(
            user=user,
            kind=kinds[0],
            subject=subject,
            template="digest",
            context=context,
            delivery=OutboxSend(message_id, lambda _sent_id: accepted(outcome)),
        )
        return outcome
