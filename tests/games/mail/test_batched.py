"""Email after a delay, batched (issue 17): the default for turns and decisions.

The clock is driven with time_machine; ``tasks.send_batched`` is beat's minute sweep (the
embedded mode's ``run_sweeps`` calls the same task).
"""

from __future__ import annotations

import importlib
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import time_machine
from django.apps import apps
from django.core import mail
from django.utils import translation

from games import tasks
from games.accounts import profiles
from games.community import invitations
from games.mail import notification as emails
from games.models import (
    Delivery,
    Game,
    Notification,
    NotificationKind,
    NotificationPreference,
    Profile,
)
from games.play import lifecycle
from games.selectors import people
from games.text import seats as seat_text
from games.text.headlines import batch_subject
from tests.engine.rules_helpers import play, position
from tests.games.factories import client_for, game_at_state, settings_form_data, started_game
from tests.games.playing import passing, submit

pytestmark = pytest.mark.django_db(transaction=True)

START = datetime(2026, 3, 2, 10, 0, tzinfo=UTC)


def _pass_turn(game: Game, seats: dict[int, Any]) -> Game:
    """The seat that must act passes until the game waits on another seat."""
    first = game.to_act_seat
    while game.to_act_seat == first:
        game = submit(game, seats, passing)
    return game


def _turn_mails() -> list[Any]:
    return [m for m in mail.outbox if "has started" not in m.subject]


def test_two_players_acting_within_the_delay_get_no_turn_email() -> None:
    with time_machine.travel(START, tick=False) as clock:
        game, seats = started_game(2)
        for _turn in range(8):  # each answers within 5 minutes; beat sweeps every minute
            clock.shift(timedelta(minutes=5))
            game = _pass_turn(game, seats)
            assert tasks.send_batched() == 0
        assert _turn_mails() == []
        rows = Notification.objects.filter(kind=NotificationKind.YOUR_TURN)
        assert rows.count() == 8
        assert set(rows.values_list("delivery", flat=True)) == {Delivery.BATCHED}
        # Now the one it waits on walks away: one email, once the delay has passed.
        away = seats[game.to_act_seat or 0]
        clock.shift(timedelta(minutes=14))
        assert tasks.send_batched() == 0
        clock.shift(timedelta(minutes=2))
        assert tasks.send_batched() == 1
        assert tasks.send_batched() == 0
    [message] = _turn_mails()
    assert message.to == [away.email]
    mover = seat_text.display_name(seats[3 - (game.to_act_seat or 0)])
    assert message.subject == f"Game #{game.pk} · {mover} passed — your move"
    assert f"{mover} passed — your move" in message.body
    retold = [line for line in message.body.splitlines() if line.startswith("      · ")]
    assert retold and all("passed." in line for line in retold)  # since their last move
    statuses = sorted(rows.values_list("status", flat=True))
    assert statuses == [Notification.Status.SENT] + [Notification.Status.SKIPPED] * 7


def _my_turn_in_a_new_game(me: Any, user_factory: Any) -> Game:
    other = user_factory()
    profiles.preference_set(user_id=other.pk, kind="your_turn", delivery=Delivery.OFF)
    game = lifecycle.game_create(creator=other, num_players=2)
    lifecycle.game_join(game_id=game.pk, user=me)
    game.refresh_from_db()
    seats = {s.position: s.user for s in game.seats.all()}
    if seats[game.to_act_seat or 0] == me:
        game = _pass_turn(game, seats)
    return _pass_turn(game, seats)


def test_a_player_away_gets_one_email_a_window_listing_every_waiting_game(
    user_factory: Any,
) -> None:
    me = user_factory()
    with time_machine.travel(START, tick=False) as clock:
        mine = []
        for _game in range(3):  # the others move in three games, five minutes apart
            mine.append(_my_turn_in_a_new_game(me, user_factory))
            clock.shift(timedelta(minutes=5))
        mail.outbox.clear()  # "the game started"
        for _minute in range(30):
            tasks.send_batched()
            clock.shift(timedelta(minutes=1))
        [first] = mail.outbox
        assert first.to == [me.email] and first.subject == "Your move in 3 games"
        assert all(f"/games/{g.pk}/" in first.body for g in mine)
        # A fourth game comes to wait on me: one more email, listing all four.
        mine.append(_my_turn_in_a_new_game(me, user_factory))
        mail.outbox.clear()
        for _minute in range(40):
            tasks.send_batched()
            clock.shift(timedelta(minutes=1))
    [second] = mail.outbox
    assert second.subject == "Your move in 4 games"
    assert all(f"/games/{g.pk}/" in second.body for g in mine)
    rows = Notification.objects.filter(user=me, kind=NotificationKind.YOUR_TURN)
    assert set(rows.values_list("status", flat=True)) == {Notification.Status.SENT}


def test_immediately_is_still_a_choice_and_sends_at_once() -> None:
    with time_machine.travel(START, tick=False):
        game, seats = started_game(2)
        nxt = seats[3 - (game.to_act_seat or 0)]
        profiles.preference_set(user_id=nxt.pk, kind="your_turn", delivery=Delivery.IMMEDIATE)
        mail.outbox.clear()
        game = _pass_turn(game, seats)
        assert [m.to for m in mail.outbox] == [[nxt.email]]  # at once, no sweep
        assert tasks.send_batched() == 0


def test_saving_settings_chooses_only_what_changed_and_old_defaults_are_unpinned(
    user_factory: Any,
) -> None:
    me = user_factory()
    client = client_for(me)
    data = settings_form_data(client)
    assert data["delivery_your_turn"] == data["delivery_decision"] == Delivery.BATCHED
    data["display_name"] = "Enheduanna"
    assert client.post("/settings", data).status_code == 302
    assert not NotificationPreference.objects.filter(user=me).exists()  # nothing chosen
    data["delivery_game_over"] = Delivery.DIGEST
    assert client.post("/settings", data).status_code == 302
    assert list(NotificationPreference.objects.filter(user=me).values_list("kind", "delivery")) == [
        ("game_over", Delivery.DIGEST)
    ]
    # Migration 0013: rows all at the old default were never chosen; any other row was.
    never, chose = user_factory(), user_factory()
    for user in (never, chose):
        for kind in ("your_turn", "decision", "game_over"):
            profiles.preference_set(user_id=user.pk, kind=kind, delivery=Delivery.IMMEDIATE)
    profiles.preference_set(user_id=chose.pk, kind="reminder", delivery=Delivery.OFF)
    migration = importlib.import_module("games.migrations.0013_mail_delay_default")
    migration.unpin_old_defaults(apps, None)
    assert people.preference_get(never.pk, "your_turn")[0] == Delivery.BATCHED
    assert people.preference_get(never.pk, "game_over")[0] == Delivery.IMMEDIATE
    assert people.preference_get(chose.pk, "your_turn")[0] == Delivery.IMMEDIATE
    assert people.preference_get(chose.pk, "decision")[0] == Delivery.IMMEDIATE


@pytest.mark.parametrize(
    ("language", "decision", "batch"),
    [
        (
            "en",
            "Game #{id} · {name} started a revolt over red — your support is needed",
            "Your move in 3 games",
        ),
        (
            "zh-hans",
            "第 {id} 局 · {name} 发起了争夺红色领袖的叛乱 — 需要你的支援",
            "你有 3 局轮到你了",
        ),
    ],
)
def test_subjects_say_what_happened_and_what_is_asked_in_both_languages(
    language: str, decision: str, batch: str
) -> None:
    # Seat 1 places a second priest in seat 2's kingdom: a revolt; seat 2 must answer.
    kingdom = {"c5": "r", "c6": "2P", "d6": "r"}
    state = play(position(kingdom, hands={1: "r", 2: "r"}), "leader priest e6", "commit 0")
    game, seats = game_at_state(state)
    profiles.profile_language_set(user=seats[2], language=language)
    row = Notification.objects.create(
        user=seats[2], game=game, ply=game.version, kind=NotificationKind.DECISION, send_after=START
    )
    row = Notification.objects.select_related("user__profile", "game").get(pk=row.pk)
    mail.outbox.clear()
    emails.notification_send(row)
    name = seat_text.display_name(seats[1])
    assert mail.outbox[0].subject == decision.format(id=game.pk, name=name)
    with translation.override(language):
        assert batch_subject(3) == batch


def test_invitation_emails_are_a_setting_and_a_batched_one_is_named_in_the_batch(
    user_factory: Any,
) -> None:
    host, quiet, later = user_factory(), user_factory(), user_factory()
    for user, delivery in ((quiet, Delivery.OFF), (later, Delivery.BATCHED)):
        client = client_for(user)
        data = settings_form_data(client)
        assert data["delivery_invitation"] == Delivery.IMMEDIATE  # the default: at once
        data["delivery_invitation"] = delivery
        assert client.post("/settings", data).status_code == 302
        assert people.preference_get(user.pk, "invitation")[0] == delivery
    for user, name in ((quiet, "Quiet"), (later, "Later")):
        Profile.objects.update_or_create(user=user, defaults={"display_name": name})
    with time_machine.travel(START, tick=False) as clock:
        mail.outbox.clear()
        game = invitations.game_create_inviting(
            creator=host, invitees=["Quiet", "Later"], num_players=3
        )
        assert mail.outbox == []  # neither is sent at once
        assert not Notification.objects.filter(user=quiet).exists()  # off: no row at all
        clock.shift(timedelta(minutes=16))
        assert tasks.send_batched() == 1
    [message] = mail.outbox
    assert message.to == [later.email]
    assert f"Game #{game.pk} — invitation to a game: " in message.body
    assert f"/games/{game.pk}/" in message.body
