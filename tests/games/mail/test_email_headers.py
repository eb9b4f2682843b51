"""Email headers survive any name (issue 20, item 1).

A display name with U+2028 made Python's email library refuse the subject, so opponents
missed their turn emails. Forms refuse such names now (test_names.py), but a name stored
before, or by the admin, must still never make an email fail.
"""

from __future__ import annotations

import pytest
from django.core import mail

from games import tasks
from games.accounts import profiles
from games.mail.adapters import AccountAdapter
from games.models import Notification, NotificationKind, Profile
from games.play.timeouts import game_resign
from games.text.headers import header_safe
from tests.games.factories import started_game

# Names no form accepts, stored anyway (older rules, the admin, a bug): headers must survive.
HOSTILE = ["A\u2028B", "A\u2029B", "A\nB", "A\r\nB", "A\x85B", "A\x0bB", "A\x1cB", "A\x7fB"]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("name", HOSTILE)
def test_an_email_naming_a_hostile_name_already_stored_is_sent(name: str) -> None:
    """Every header survives any stored name: the subject names the player, with a space."""
    game, seats = started_game(2)
    to_act = seats[game.to_act_seat or 0]
    profiles.profile_get(to_act)
    Profile.objects.filter(user=to_act).update(display_name=name)  # bypasses validation
    other = seats[3 - (game.to_act_seat or 0)]
    Notification.objects.filter(game=game).delete()
    row = Notification.objects.create(
        user=other,
        game=game,
        ply=game.version,
        kind=NotificationKind.GAME_STARTED,
        send_after=game.started_at,
    )
    mail.outbox.clear()
    assert tasks.send_notification.delay(row.pk).get() == "sent"
    row.refresh_from_db()
    assert row.status == Notification.Status.SENT, row.error
    (message,) = mail.outbox
    assert "A B's move" in message.subject or "AB's move" in message.subject, message.subject
    assert b"\r\nSubject: " in message.message().as_bytes() or message.message()["Subject"]


@pytest.mark.django_db(transaction=True)
def test_a_dropped_seat_email_survives_a_hostile_name() -> None:
    game, seats = started_game(3, is_rated=False)
    quitter = seats[game.to_act_seat or 0]
    profiles.profile_get(quitter)
    Profile.objects.filter(user=quitter).update(display_name="Q\u2029uitter")
    mail.outbox.clear()
    game_resign(game_id=game.pk, user=quitter)
    rows = Notification.objects.filter(game=game, kind=NotificationKind.SEAT_DROPPED)
    assert rows.exists()
    assert set(rows.values_list("status", flat=True)) == {Notification.Status.SENT}
    assert all("Q uitter" in m.subject for m in mail.outbox if "automatically" in m.subject)


@pytest.mark.parametrize("name", [*HOSTILE, "A\x00B"])  # NUL: PostgreSQL cannot store it
def test_header_text_keeps_what_is_visible(name: str) -> None:
    assert header_safe(f"Game #3: {name}'s move") == "Game #3: A B's move"
    assert header_safe("Tess One — 李雷") == "Tess One — 李雷"
    assert AccountAdapter().format_email_subject("x\u2028y") == "[Tigris & Euphrates] x y"
