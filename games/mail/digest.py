"""One email gathering a player's batched or daily rows: the games waiting for them now."""

from __future__ import annotations

from collections.abc import Sequence

from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.mail.notification import still_owed
from games.mail.sending import absolute, deadline_text, email_send, language_of
from games.models import Delivery, Notification, NotificationKind
from games.selectors.games import games_waiting_for
from games.text.seats import display_name


def _still_relevant(row: Notification, waiting_ids: set[int]) -> bool:
    """Return whether ``row`` still belongs in the email: a turn not taken since its ply."""
    if row.kind in (NotificationKind.YOUR_TURN, NotificationKind.DECISION):
        return row.game_id in waiting_ids and still_owed(row)
    return True


def digest_send(rows: Sequence[Notification], *, delivery: str) -> str | None:
    """Send one email for a user's gathered ``rows``; return its Message-ID, or None if moot.

    The email lists every game waiting for the user now, and the games that started or
    ended. Rows about turns the user has taken meanwhile are dropped; with nothing left,
    nothing is sent. Raises whatever the mail backend raises.
    """
    user = rows[0].user
    with translation.override(language_of(user)):
        waiting = list(games_waiting_for(user))
        waiting_ids = {g.pk for g in waiting}
        relevant = [r for r in rows if _still_relevant(r, waiting_ids)]
        if not relevant and not waiting:
            return None
        games_waiting = [
            {
                "label": _("Game #%(id)s") % {"id": g.pk},
                "url": absolute(reverse("games:game", args=[g.pk])),
                "deadline": deadline_text(g.deadline, user),
            }
            for g in waiting
        ]
        events = []
        for r in relevant:
            if r.kind in (NotificationKind.GAME_STARTED, NotificationKind.GAME_OVER):
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
            )
        else:
            subject = ngettext(
                "Tigris & Euphrates: %(n)s game waiting for you",
                "Tigris & Euphrates: %(n)s games waiting for you",
                n,
            )
        subject = subject % {"n": n}
        context = {
            "recipient": display_name(user),
            "games_waiting": games_waiting,
            "events": events,
            "delivery": delivery,
        }
        return email_send(
            user=user, kind=kinds[0], subject=subject, template="digest", context=context
        )
