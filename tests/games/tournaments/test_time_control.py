"""An event's time control (issue 30): days per move, or a time bank, for every game.

The bank is the games' own (``games.core.timecontrol.TimeBank``, issue 17): each seat
starts with the bank, it runs only while the game waits on the seat, and each of its turns
adds the increment up to the cap.
"""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from games.core.timecontrol import TimeBank, time_control_of
from games.models import Seat, Tournament
from games.tournaments import services, values
from tests.games.factories import UserFactory, client_for
from tests.games.tournaments.helpers import creation_form, event, running_games

pytestmark = pytest.mark.django_db


def test_every_game_of_a_time_bank_event_gets_the_bank() -> None:
    tournament, users = event(
        4, table_size=2, rounds=1, bank_days=7, bank_increment_hours=24, bank_cap_days=14
    )
    services.tournament_start(tournament_id=tournament.pk, user=users[0])
    games = running_games(tournament)
    assert len(games) == 2
    for game in games:
        assert time_control_of(game) == TimeBank(7, 24, 14)
        # the seat to act runs its bank: its deadline is the bank's seven days away
        assert game.deadline is not None
        assert timedelta(days=7) - (game.deadline - game.started_at) < timedelta(minutes=1)
        waiting = Seat.objects.filter(game=game).exclude(position=game.to_act_seat)
        assert {s.bank_seconds for s in waiting} == {7 * 86400}


def test_days_per_move_stays_the_default_control() -> None:
    tournament, users = event(2, rounds=1, days_per_move=5)
    services.tournament_start(tournament_id=tournament.pk, user=users[0])
    (game,) = running_games(tournament)
    assert game.days_per_move == 5 and game.bank_days is None


def test_the_page_and_the_api_say_the_control_in_the_viewers_language() -> None:
    tournament, users = event(0, bank_days=3, bank_increment_hours=12)
    page = Client().get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "time bank: 3 days, +12 hours a turn, at most 3 days" in page
    zh = Client(headers={"accept-language": "zh-hans"})
    assert "时间库" in zh.get(f"/tournaments/{tournament.pk}/").content.decode()
    data = json.loads(Client().get(f"/api/v1/tournaments/{tournament.pk}").content)
    assert (data["bank_days"], data["bank_increment_hours"], data["bank_cap_days"]) == (3, 12, 3)
    with translation.override("en"):
        (header,) = values.tournaments_list(users[0])
    assert header.time_control.startswith("time bank")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"bank_days": 0}, "starts with 1 to 30 days"),
        ({"bank_days": 31}, "starts with 1 to 30 days"),
        ({"bank_days": 7, "bank_increment_hours": 73}, "0 to 72 hours"),
        ({"bank_days": 7, "bank_cap_days": 6}, "from its start to 60 days"),
        ({"bank_increment_hours": 24}, "time bank's start before its increment"),
    ],
)
def test_a_bad_time_bank_is_refused_and_creates_nothing(
    change: dict[str, Any], message: str
) -> None:
    with pytest.raises(services.TournamentRefused, match=message):
        services.tournament_create(
            creator=UserFactory(), settings=services.TournamentSettings(name="Bank", **change)
        )
    assert not Tournament.objects.exists()


def test_the_create_form_sets_a_time_bank() -> None:
    client = client_for(UserFactory())
    data = creation_form(
        name="Bank Swiss",
        bank_days="7",
        bank_increment_hours="24",
        bank_cap_days="14",
    )
    assert client.post("/tournaments/new", data).status_code == 302
    created = Tournament.objects.get()
    assert (created.bank_days, created.bank_increment_hours, created.bank_cap_days) == (7, 24, 14)
    # no bank chosen: the increment and cap the form shows by default are not stored
    client.post("/tournaments/new", {**data, "name": "Days Swiss", "bank_days": ""})
    plain = Tournament.objects.get(name="Days Swiss")
    assert (plain.bank_days, plain.bank_increment_hours, plain.bank_cap_days) == (None, 0, None)
