"""An event's playing hours (issue 30): its games' clocks run only inside them each day.

"Playing hours 09:00–21:00, Europe/Paris" means: a move may be played at any time, but
the clock of the seat to act (days per move, or its time bank) runs only between 09:00 and
21:00 Paris time, every day; the player's own quiet hours stop it too, unless together
they would leave the clock no time to run.
"""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime, time
from typing import Any

import pytest
import time_machine
from django.test import Client

from games.models import Profile, Seat, Tournament
from games.tournaments import services
from tests.games.factories import UserFactory, client_for
from tests.games.playing import randomly, submit
from tests.games.tournaments.helpers import creation_form, event, running_games

pytestmark = pytest.mark.django_db

PARIS_DAY = {"playing_start": time(9), "playing_end": time(21), "playing_zone": "Europe/Paris"}
# Monday 7 December 2026, 20:00 in Paris (UTC+1): one playing hour left that day
EVENING = datetime(2026, 12, 7, 19, tzinfo=UTC)


def test_a_deadline_counts_only_the_playing_hours() -> None:
    tournament, users = event(2, rounds=1, days_per_move=1, **PARIS_DAY)
    with time_machine.travel(EVENING, tick=False):
        services.tournament_start(tournament_id=tournament.pk, user=users[0])
    (game,) = running_games(tournament)
    assert (game.playing_start, game.playing_end, game.playing_zone) == (
        time(9),
        time(21),
        "Europe/Paris",
    )
    # 24 playing hours: 1 on Monday, 12 on Tuesday, 11 on Wednesday (until 20:00 in Paris)
    assert game.deadline == datetime(2026, 12, 9, 19, tzinfo=UTC)


def test_a_time_bank_is_spent_only_inside_the_playing_hours() -> None:
    tournament, users = event(2, rounds=1, bank_days=1, **PARIS_DAY)
    with time_machine.travel(EVENING, tick=False):
        services.tournament_start(tournament_id=tournament.pk, user=users[0])
    (game,) = running_games(tournament)
    seats = {s.position: s.user for s in game.seats.all()}
    mover = game.to_act_seat
    # the player moves the next morning at 10:00 in Paris: 1 + 1 playing hours spent
    with time_machine.travel(datetime(2026, 12, 8, 9, tzinfo=UTC), tick=False):
        game = submit(game, seats, randomly(random.Random(3)))
    held = Seat.objects.get(game=game, position=mover).bank_seconds
    if game.to_act_seat != mover:  # their turn ended: the bank is what it held (no increment)
        assert held == (24 - 2) * 3600


def test_the_players_quiet_hours_give_way_when_nothing_would_be_left() -> None:
    tournament, users = event(2, rounds=1, days_per_move=1, **PARIS_DAY)
    for user in users[1:]:
        Profile.objects.update_or_create(
            user=user,
            defaults={"quiet_start": time(8), "quiet_end": time(22), "time_zone": "Europe/Paris"},
        )
    with time_machine.travel(EVENING, tick=False):
        services.tournament_start(tournament_id=tournament.pk, user=users[0])
    (game,) = running_games(tournament)
    assert game.deadline == datetime(2026, 12, 9, 19, tzinfo=UTC)  # the event's hours alone


def test_quiet_hours_inside_the_playing_hours_stop_the_clock_too() -> None:
    tournament, users = event(2, rounds=1, days_per_move=1, **PARIS_DAY)
    for user in users[1:]:
        Profile.objects.update_or_create(
            user=user,
            defaults={"quiet_start": time(12), "quiet_end": time(14), "time_zone": "Europe/Paris"},
        )
    with time_machine.travel(EVENING, tick=False):
        services.tournament_start(tournament_id=tournament.pk, user=users[0])
    (game,) = running_games(tournament)
    # 10 hours a day now: 1 on Monday, 10 on Tuesday, 10 on Wednesday, 3 on Thursday
    assert game.deadline == datetime(2026, 12, 10, 11, tzinfo=UTC)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"playing_start": time(9)}, "a start and an end, or neither"),
        ({"playing_start": time(9), "playing_end": time(10)}, "2 hours a day at least"),
        ({"playing_start": time(23), "playing_end": time(0, 30)}, "2 hours a day at least"),
        (
            {"playing_start": time(9), "playing_end": time(17), "playing_zone": "Mars/Olympus"},
            "time zone from the list",
        ),
    ],
)
def test_bad_playing_hours_are_refused_and_create_nothing(
    change: dict[str, Any], message: str
) -> None:
    with pytest.raises(services.TournamentRefused, match=message):
        services.tournament_create(
            creator=UserFactory(), settings=services.TournamentSettings(name="Hours", **change)
        )
    assert not Tournament.objects.exists()


def test_the_page_the_api_and_the_form_carry_the_playing_hours() -> None:
    tournament, _users = event(0, **PARIS_DAY)
    page = Client().get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "09:00–21:00 each day (Europe/Paris): the games' clocks run only then." in page
    zh = Client(headers={"accept-language": "zh-hans"}).get(f"/tournaments/{tournament.pk}/")
    assert "09:00–21:00" in zh.content.decode() and "clocks run" not in zh.content.decode()
    data = json.loads(Client().get(f"/api/v1/tournaments/{tournament.pk}").content)
    assert (data["playing_start"], data["playing_end"], data["playing_zone"]) == (
        "09:00:00",
        "21:00:00",
        "Europe/Paris",
    )
    form = creation_form(
        name="Evening Swiss",
        playing_start="18:00",
        playing_end="23:30",
        playing_zone="Asia/Shanghai",
    )
    assert client_for(UserFactory()).post("/tournaments/new", form).status_code == 302
    made = Tournament.objects.get(name="Evening Swiss")
    assert (made.playing_start, made.playing_end, made.playing_zone) == (
        time(18),
        time(23, 30),
        "Asia/Shanghai",
    )


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "Playing hours: 09:00–21:00 each day (Europe/Paris)"),
        ("zh-hans", "对局时段"),
    ],
)
def test_the_game_page_states_the_playing_hours_its_deadline_counts(
    language: str, said: str
) -> None:
    tournament, users = event(2, rounds=1, **PARIS_DAY)
    services.tournament_start(tournament_id=tournament.pk, user=users[0])
    (game,) = running_games(tournament)
    player = game.seats.first().user
    Profile.objects.update_or_create(user=player, defaults={"language": language})
    for client in (client_for(player), Client(headers={"accept-language": language})):
        page = client.get(f"/games/{game.pk}/").content.decode()
        hours = page.split('id="game-playing-hours">')[1].split("</p>")[0]
        assert said in hours and "09:00–21:00" in hours
        if language != "en":
            assert "each day" not in hours
    # a game of an event without playing hours says nothing of them
    plain, others = event(2, rounds=1)
    services.tournament_start(tournament_id=plain.pk, user=others[0])
    (free,) = running_games(plain)
    assert 'id="game-playing-hours"' not in Client().get(f"/games/{free.pk}/").content.decode()
