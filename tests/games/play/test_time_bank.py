"""A time bank with increment (issue 17): each seat's bank runs only while the game waits on it.

The clock is driven with time_machine, as in ``test_time_controls``.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import time_machine

from games import tasks
from games.accounts import vacations
from games.core import clock as clock_rules
from games.models import Game, Move
from games.play import deadlines
from tests.engine.rules_helpers import position
from tests.games.factories import client_for, game_at_state, started_game
from tests.games.play.test_standing_orders import REVOLT, act

pytestmark = pytest.mark.django_db

START = datetime(2026, 3, 2, 10, 0, tzinfo=UTC)
DAY = timedelta(days=1)
HOUR = timedelta(hours=1)
BANK = {"bank_days": 7, "bank_increment_hours": 24, "bank_cap_days": 8}


def banks(game: Game) -> dict[int, timedelta]:
    """Return each seat's stored bank (the running one's as of its last stop)."""
    return {
        s.position: timedelta(seconds=s.bank_seconds or 0)
        for s in game.seats.all()
        if s.position is not None
    }


def test_each_turn_spends_the_players_bank_and_adds_the_increment_up_to_the_cap() -> None:
    with time_machine.travel(START, tick=False) as clock:
        game, seats = started_game(2, **BANK)
        first = game.to_act_seat or 0
        second = 3 - first
        assert game.days_per_move is None and game.deadline == START + 7 * DAY
        assert game.reminder_at == game.deadline - 24 * HOUR
        assert banks(game) == {1: 7 * DAY, 2: 7 * DAY}
        clock.shift(2 * DAY)
        game = act(game, seats, "pass")
        assert banks(game)[first] == 6 * DAY  # 7 − 2 + 1
        assert game.deadline == START + 2 * DAY + 7 * DAY  # the other bank, untouched
        clock.shift(HOUR)
        game = act(game, seats, "pass")
        assert banks(game)[second] == 7 * DAY + 23 * HOUR  # 7 days − 1 hour + 1 day
        assert game.deadline == START + 2 * DAY + HOUR + 6 * DAY
        game = act(game, seats, "pass", "pass")  # at once: 6 + 1; then 7 d 23 h + 1 d
        assert banks(game) == {first: 7 * DAY, second: 8 * DAY}  # capped at 8 days
    page = client_for(seats[first]).get(f"/games/{game.pk}/").content.decode()
    assert "Time banks" in page and "time bank: 7 days, +24 hours a turn" in page


def test_an_out_of_turn_decision_runs_the_deciders_bank_and_adds_nothing() -> None:
    with time_machine.travel(START, tick=False) as clock:
        game, seats = game_at_state(position(REVOLT, hands={1: "r r r", 2: "r r"}), **BANK)
        deadlines.clock_start(game)
        game.save()
        clock.shift(HOUR)
        game = act(game, seats, "leader priest e6")  # seat 1 still acts: its clock runs on
        assert game.deadline == START + 7 * DAY
        clock.shift(HOUR)
        game = act(game, seats, "commit 0")  # the defender, seat 2, must answer
        assert (game.to_act_seat, game.deadline_seat) == (2, 2)
        assert banks(game)[1] == 7 * DAY - 2 * HOUR  # stopped, and no turn ended
        assert game.deadline == START + 2 * HOUR + 7 * DAY
        clock.shift(3 * HOUR)
        game = act(game, seats, "commit 0")
        assert banks(game)[2] == 7 * DAY - 3 * HOUR  # a decision earns no increment
        assert game.deadline == START + 5 * HOUR + 7 * DAY - 2 * HOUR  # seat 1's bank again
        clock.shift(HOUR)
        game = act(game, seats, "pass")  # seat 1's turn ends: its increment
        assert banks(game)[1] == 7 * DAY - 3 * HOUR + DAY


def _sweep() -> dict[str, int]:
    first = tasks.sweep_deadlines()
    assert not any(tasks.sweep_deadlines().values()), "the second sweep did something"
    return first


def test_reminders_and_timeouts_come_when_the_bank_runs_low_and_out() -> None:
    with time_machine.travel(START, tick=False) as clock:
        game, seats = started_game(2, bank_days=3, bank_increment_hours=12, bank_cap_days=7)
        late = game.to_act_seat or 0
        deadline = START + 3 * DAY
        assert (
            game.reminder_at == clock_rules.reminder_for(deadline, 3 * DAY) == deadline - 18 * HOUR
        )
        clock.move_to(deadline - 18 * HOUR - timedelta(minutes=1))
        assert _sweep()["reminders"] == 0
        clock.move_to(deadline - 18 * HOUR)
        assert _sweep()["reminders"] == 1
        clock.move_to(deadline - timedelta(seconds=1))
        assert _sweep()["timeouts"] == 0
        clock.move_to(deadline)
        assert _sweep()["timeouts"] == 1
        game.refresh_from_db()
        assert [(m.seat, m.action, m.source) for m in Move.objects.filter(game=game)] == [
            (late, "pass", "timeout")
        ]
        assert banks(game)[late] == 12 * HOUR  # spent, then the turn's increment
        game = act(game, seats, "pass")
        assert game.deadline == deadline + 12 * HOUR
        assert game.reminder_at == game.deadline - 3 * HOUR  # a quarter of what is left


def test_a_vacation_pauses_the_bank(django_capture_on_commit_callbacks: Any) -> None:
    with time_machine.travel(START, tick=False) as clock:
        game, seats = started_game(2, bank_days=3, bank_increment_hours=24, bank_cap_days=7)
        away = game.to_act_seat or 0
        clock.shift(DAY)
        vacation = vacations.vacation_start(user_id=seats[away].pk, days=5)
        clock.move_to(START + 3 * DAY)  # the bank would have run out now
        assert _sweep()["timeouts"] == 0
        page = client_for(seats[away]).get(f"/games/{game.pk}/").content.decode()
        assert "Time banks" in page and "2\xa0days (running)" in page
        clock.shift(DAY)
        with django_capture_on_commit_callbacks(execute=True):
            vacations.vacation_end(vacation_id=vacation.pk)  # 3 days away: deadline moves
        game.refresh_from_db()
        assert game.deadline == START + 3 * DAY + 3 * DAY
        clock.shift(HOUR)
        game = act(game, seats, "pass")
        assert banks(game)[away] == 2 * DAY - HOUR + DAY


def test_the_create_form_makes_a_time_bank_game() -> None:
    from tests.games.factories import UserFactory

    client = client_for(UserFactory())
    data = {"num_players": "2", "is_public": "on", "is_rated": "on", "days_per_move": "3"}
    bank = {"bank_days": "7", "bank_increment_hours": "24", "bank_cap_days": "14"}
    assert client.post("/games/new", {**data, **bank}).status_code == 302
    game = Game.objects.get()
    assert (game.days_per_move, game.bank_days, game.bank_increment_hours) == (None, 7, 24)
    assert game.bank_cap_days == 14 and game.is_rated
    refused = client.post("/games/new", {**data, **bank, "bank_cap_days": "7", "bank_days": "14"})
    assert refused.status_code == 400 and "at least its start" in refused.content.decode()
    assert Game.objects.count() == 1
    lobby = client.get("/").content.decode()
    assert "time bank of 7 days" in lobby
