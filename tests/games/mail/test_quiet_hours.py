"""Quiet hours (issue 17): emails held until they end and sent once; the clock stands still.

A player in New York is quiet 22:00–07:00 on the night clocks go forward (2026-03-08):
that night ends at 07:00 EDT, 11:00 UTC, after eight hours.
"""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from typing import Any

import pytest
import time_machine
from django.core import mail
from django.test import Client

from games import tasks
from games.accounts import profiles
from games.models import Game, Notification, NotificationKind
from games.play import lifecycle
from tests.games.factories import UserFactory, client_for, settings_form_data
from tests.games.playing import passing, submit

pytestmark = pytest.mark.django_db(transaction=True)

LATE = datetime(2026, 3, 8, 4, 0, tzinfo=UTC)  # 23:00 EST on Saturday 7 March
MORNING = datetime(2026, 3, 8, 11, 0, tzinfo=UTC)  # 07:00 EDT: the quiet hours end


def _quiet_in_new_york(user: Any) -> None:
    profile = profiles.profile_get(user)
    profile.time_zone = "America/New_York"
    profile.quiet_start, profile.quiet_end = time(22), time(7)
    profile.save()


def _game_waiting_on(sleeper: Any, **options: Any) -> Game:
    other = UserFactory()
    options.setdefault("days_per_move", 1)
    game = lifecycle.game_create(creator=other, num_players=2, **options)
    lifecycle.game_join(game_id=game.pk, user=sleeper)
    game.refresh_from_db()
    seats = {s.position: s.user for s in game.seats.all()}
    while seats[game.to_act_seat or 0] == sleeper:  # her turn comes after the other's move
        game = submit(game, seats, passing)
    while seats[game.to_act_seat or 0] != sleeper:
        game = submit(game, seats, passing)
    return game


def _mails_to(user: Any) -> list[Any]:
    return [m for m in mail.outbox if m.to == [user.email]]


def test_emails_wait_for_the_end_of_quiet_hours_and_the_clock_stands_still() -> None:
    sleeper = UserFactory()
    _quiet_in_new_york(sleeper)
    with time_machine.travel(LATE, tick=False) as clock:
        game = _game_waiting_on(sleeper)
        strict = _game_waiting_on(sleeper, quiet_hours_allowed=False)
        # Held: "the game started" (immediate) and the turn (after the delay) both wait.
        assert _mails_to(sleeper) == []
        started = Notification.objects.filter(user=sleeper, kind=NotificationKind.GAME_STARTED)
        assert set(started.values_list("status", "send_after")) == {("pending", MORNING)}
        # Her clock starts at 07:00 EDT and stops again from 22:00 EDT (02:00 UTC) to
        # 07:00: 15 running hours on Sunday, 9 on Monday.
        assert game.deadline == datetime(2026, 3, 9, 20, 0, tzinfo=UTC)
        assert strict.deadline == LATE + timedelta(days=1)  # this game's clock runs on
        page = client_for(game.seats.exclude(user=sleeper).get().user).get(f"/games/{game.pk}/")
        assert "is in their quiet hours until" in page.content.decode()
        assert " must act: due in " in page.content.decode()
        own = client_for(sleeper).get(f"/games/{game.pk}/").content.decode()  # as "you"
        assert "You are in your quiet hours until" in own and "in their quiet hours" not in own
        assert "You must act: due in " in own and own.count("must act: due in") == 1
        # A stranger learns nothing of when a player sleeps: whose clock runs, not when
        # it runs out (issue 17; issue 28, finding 2)
        for watcher in (Client(), client_for(UserFactory())):
            seen = watcher.get(f"/games/{game.pk}/").content.decode()
            assert " must act; only the game's players see the deadline." in seen
            assert "due in" not in seen and "quiet hours" not in seen
        for _minute in range(0, 6 * 60 + 50, 10):  # beat all night long, until 06:50 EDT
            clock.shift(timedelta(minutes=10))
            assert tasks.send_batched() == 0
            tasks.sweep_outbox()
        assert _mails_to(sleeper) == []
        clock.move_to(MORNING + timedelta(minutes=1))
        assert tasks.send_batched() == 1
        tasks.sweep_outbox()
        clock.shift(timedelta(minutes=10))
        assert tasks.send_batched() == 0
        tasks.sweep_outbox()
    subjects = sorted(m.subject for m in _mails_to(sleeper))
    assert len(subjects) == 3, subjects  # two "the game started", one turn email for both
    assert "Your move in 2 games" in subjects
    assert not Notification.objects.filter(user=sleeper, status="pending").exists()


def _deadline_texts(deadline: datetime) -> list[str]:
    """Every way a page or the API could write ``deadline``: ISO, its date, "due in"."""
    return [deadline.isoformat(), deadline.strftime("%Y-%m-%dT%H:%M"), "due in", "9 Mar, "]


def test_spectators_see_no_deadline_or_time_bank_that_quiet_hours_moved() -> None:
    """Issue 28, finding 2: the deadline (moved by quiet hours) and the banks are the players'."""
    from games.accounts import tokens

    sleeper = UserFactory()
    _quiet_in_new_york(sleeper)
    with time_machine.travel(LATE, tick=False):
        game = _game_waiting_on(sleeper)
        banked = _game_waiting_on(sleeper, days_per_move=None, bank_days=3)
        assert game.deadline == datetime(2026, 3, 9, 20, 0, tzinfo=UTC)  # moved by 16 h
        stranger = UserFactory()
        _row, secret = tokens.token_create(user=stranger, name="watcher")
        _row, own_secret = tokens.token_create(user=sleeper, name="mine")
        for watcher in (Client(), client_for(stranger)):
            for g in (game, banked):
                seen = watcher.get(f"/games/{g.pk}/").content.decode()
                assert "data-deadline" not in seen and "Time banks" not in seen
                for text in _deadline_texts(g.deadline):
                    assert text not in seen, text
                replay = watcher.get(f"/games/{g.pk}/replay").content.decode()
                assert g.deadline.isoformat() not in replay
        for headers in ({}, {"HTTP_AUTHORIZATION": f"Bearer {secret}"}):
            listed = Client().get("/api/v1/games", **headers).json()["results"]
            assert {r["id"]: r["deadline"] for r in listed} == {game.pk: None, banked.pk: None}
            assert (
                Client().get(f"/api/v1/games/{game.pk}", **headers).json()["game"]["deadline"]
                is None
            )
        # the players keep the whole deadline
        own = client_for(sleeper).get(f"/games/{game.pk}/").content.decode()
        assert "You must act: due in " in own, own[own.find("clock") :][:600]
        assert 'data-deadline="2026-03-09T16:00:00-04:00"' in own
        mine = (
            Client()
            .get(f"/api/v1/games/{game.pk}", HTTP_AUTHORIZATION=f"Bearer {own_secret}")
            .json()
        )
        assert mine["game"]["deadline"].startswith("2026-03-09T20:00")
        banks = client_for(sleeper).get(f"/games/{banked.pk}/").content.decode()
        assert "Time banks" in banks


def test_quiet_hours_are_set_in_settings_with_both_ends_or_refused() -> None:
    me = UserFactory()
    client = client_for(me)
    data = settings_form_data(client)
    refused = client.post("/settings", {**data, "quiet_start": "22:00", "quiet_end": ""})
    assert refused.status_code == 200 and "both ends" in refused.content.decode()
    assert profiles.profile_get(me).quiet_start is None  # nothing saved
    saved = client.post("/settings", {**data, "quiet_start": "22:30", "quiet_end": "06:45"})
    assert saved.status_code == 302
    profile = profiles.profile_get(me)
    assert (profile.quiet_start, profile.quiet_end) == (time(22, 30), time(6, 45))
    cleared = client.post("/settings", {**data, "quiet_start": "", "quiet_end": ""})
    assert cleared.status_code == 302 and profiles.profile_get(me).quiet_start is None
