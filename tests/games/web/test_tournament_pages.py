"""Tournament pages and API (issue 30): what they show, bad input refused, nothing leaked."""

from __future__ import annotations

import json
from datetime import time
from typing import Any

import pytest
from django.test import Client

from games.models import Game, Tournament
from games.tournaments import services
from tests.games.factories import UserFactory, client_for
from tests.games.leaks import assert_json_no_leak
from tests.games.tournaments.helpers import (
    assert_api_hides_the_games,
    assert_pages_hide_the_games,
    creation_form,
    end_round,
    event,
    play_a_few,
)

pytestmark = pytest.mark.django_db


def _running_swiss() -> tuple[Tournament, list[Any], list[Game]]:
    """A Swiss of six at tables of 3, round 1 played a few plies (scores are hidden)."""
    tournament, users = event(6, table_size=3, min_table_size=3, rounds=2, is_rated=False)
    services.tournament_start(tournament_id=tournament.pk, user=users[0])
    return tournament, users, play_a_few(tournament)


def test_tournament_pages_show_no_hidden_information_of_a_running_game() -> None:
    tournament, users, games = _running_swiss()
    paths = ["/tournaments/", f"/tournaments/{tournament.pk}/"]
    viewers = {
        "anonymous": Client(),
        "creator": client_for(users[0]),
        "player": client_for(users[1]),
    }
    for client in viewers.values():
        record = client.get(f"/tournaments/{tournament.pk}/record.json")
        assert record.status_code == 200
        assert json.loads(record.content)["games"] == []  # no record of a running game
        for game in games:
            assert_json_no_leak(json.loads(record.content), game, None)
    pages = {name: (client, paths) for name, client in viewers.items()}
    for content in assert_pages_hide_the_games(pages, games, users[1]).values():
        assert b"(+" not in content  # no place or points before a table ends
    page = Client().get(f"/tournaments/{tournament.pk}/").content.decode()
    for game in games:
        assert f"/games/{game.pk}/" in page
        # and the game's page links back to its event and round
        game_page = client_for(users[1]).get(f"/games/{game.pk}/").content.decode()
        assert f'href="/tournaments/{tournament.pk}/">Spring Swiss</a> · Round 1' in game_page


def test_tournament_api_shows_no_hidden_information_of_a_running_game() -> None:
    tournament, users, games = _running_swiss()
    paths = [
        "/api/v1/tournaments",
        f"/api/v1/tournaments/{tournament.pk}",
        f"/api/v1/tournaments/{tournament.pk}/standings",
        f"/api/v1/tournaments/{tournament.pk}/rounds",
    ]
    assert_api_hides_the_games(users[1], paths, games)
    rounds = json.loads(Client().get(paths[3]).content)
    seats = [s for t in rounds[0]["tables"] for s in t["seats"]]
    assert seats and all(s["place"] is None and s["points"] is None for s in seats)


def test_standings_and_the_next_round_show_once_round_one_ends(
    django_capture_on_commit_callbacks,
) -> None:
    tournament, users = event(4, rounds=2)
    services.tournament_start(tournament_id=tournament.pk, user=users[0])
    with django_capture_on_commit_callbacks(execute=True):
        end_round(tournament)
    page = Client().get(f"/tournaments/{tournament.pk}/").content.decode()
    assert 'id="round-2"' in page and 'id="round-1"' in page
    assert "(+2)" in page  # round 1's shared first places, 2 points each
    standings = json.loads(Client().get(f"/api/v1/tournaments/{tournament.pk}/standings").content)
    assert [line["points"] for line in standings] == [2, 2, 2, 2]
    record = json.loads(Client().get(f"/tournaments/{tournament.pk}/record.json").content)
    finished = Game.objects.filter(tournament_table__round__number=1).order_by("pk")
    assert [g["game"]["id"] for g in record["games"]] == [g.pk for g in finished]
    assert [r["number"] for r in record["rounds"]] == [1, 2]


def test_a_link_only_tournament_is_hidden_from_others() -> None:
    tournament, users = event(0, access="link")
    assert Client().get(f"/tournaments/{tournament.pk}/").status_code == 404
    assert Client().get(f"/api/v1/tournaments/{tournament.pk}").status_code == 404
    token_page = Client().get(f"/tournaments/{tournament.pk}/?token={tournament.invite_token}")
    assert token_page.status_code == 200
    assert client_for(users[0]).get(f"/tournaments/{tournament.pk}/").status_code == 200


def _form(**change: Any) -> dict[str, Any]:
    """A Swiss of 4-player tables (3 at the least), with its own points by place."""
    return creation_form(
        **{
            "name": "Winter Swiss",
            "table_size": "4",
            "min_table_size": "3",
            "rounds": "4",
            "max_players": "16",
            "points_by_rank": "6 4 2 0",
            "bye_points": "2",
            "is_rated": "on",
            **change,
        }
    )


def test_the_create_form_makes_a_tournament() -> None:
    client = client_for(UserFactory())
    response = client.post("/tournaments/new", _form())
    tournament = Tournament.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/tournaments/{tournament.pk}/"
    assert tournament.points_by_rank == {"4": [6, 4, 2, 0]}
    assert (tournament.table_size, tournament.min_table_size) == (4, 3)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"name": ""}, "This field is required"),
        ({"table_size": "5"}, "Select a valid choice"),
        ({"table_size": "2", "min_table_size": "3"}, "smallest table"),
        ({"points_by_rank": "6 four"}, "whole numbers"),
        ({"points_by_rank": "0 2 4 6"}, "first place down"),
        ({"points_by_rank": "6 4"}, "each place"),
        ({"max_game_days": "1"}, "greater than or equal to 3"),
        ({"bots_fill_seats": "on"}, "Bots may fill seats only in an unrated tournament."),
    ],
)
def test_the_create_form_refuses_bad_input_and_creates_nothing(change, message) -> None:
    client = client_for(UserFactory())
    response = client.post("/tournaments/new", _form(**change))
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Tournament.objects.exists()


def test_registering_twice_says_so_and_changes_nothing() -> None:
    tournament, users = event(1)
    client = client_for(users[1])
    response = client.post(f"/tournaments/{tournament.pk}/register", follow=True)
    assert "already registered" in response.content.decode()
    assert tournament.players.count() == 1


def test_the_chinese_standings_say_tournament_points_not_the_games_victory_points() -> None:
    """The standings' "Points" are points by rank (积分), not the game's victory points
    (胜利点), which the board's "Points" are (a newcomer's report)."""
    tournament, _users = event(2)
    page = Client(headers={"accept-language": "zh-hans"}).get(f"/tournaments/{tournament.pk}/")
    header = page.content.decode().split('id="standings"')[1].split("</thead>")[0]
    assert "<th>积分</th>" in header and "胜利点" not in header


def _row(page: str, attribute: str, pk: int) -> str:
    """The list's row of event ``pk`` (``data-tournament`` or ``data-league``)."""
    return page.split(f'{attribute}="{pk}"')[1].split("</tr>")[0]


def test_the_list_says_each_tournaments_time_control_in_the_readers_language() -> None:
    """Players choose an event on the list: its clock is said there as on its page."""
    days, _users = event(0, name="Two Days", days_per_move=2)
    bank, _users = event(
        0,
        name="Banked",
        bank_days=1,
        bank_increment_hours=12,
        bank_cap_days=3,
        playing_start=time(9),
        playing_end=time(21),
        playing_zone="Europe/Paris",
    )
    page = Client().get("/tournaments/").content.decode()
    assert '<td class="time-control">2 days per move</td>' in _row(page, "data-tournament", days.pk)
    banked = _row(page, "data-tournament", bank.pk)
    assert "time bank: 1 day, +12 hours a turn, at most 3 days" in banked
    assert "09:00–21:00 (Europe/Paris)" in banked
    detail = Client().get(f"/tournaments/{bank.pk}/").content.decode()
    assert "time bank: 1 day, +12 hours a turn, at most 3 days" in detail  # the same words
    zh = Client(headers={"accept-language": "zh-hans"}).get("/tournaments/").content.decode()
    assert "每步 2 天" in _row(zh, "data-tournament", days.pk)
    assert "时间库：1 天" in _row(zh, "data-tournament", bank.pk)
    assert "bank" not in _row(zh, "data-tournament", bank.pk)
