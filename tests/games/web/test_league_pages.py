"""League pages and API (issue 30): what they show, bad input refused, nothing leaked."""

from __future__ import annotations

import json
from datetime import UTC, datetime, time, timedelta
from typing import Any

import pytest
import time_machine
from django.test import Client

from games.models import Game, League, LeagueMember, LeagueSeason
from games.tournaments import leagues, services, sweeps
from tests.games.factories import UserFactory, client_for
from tests.games.leaks import assert_no_leak
from tests.games.reach import templates_reached
from tests.games.tournaments.helpers import (
    assert_api_hides_the_games,
    assert_pages_hide_the_games,
    league_form,
    play_a_few,
)

pytestmark = pytest.mark.django_db


def _running_league() -> tuple[League, list[Any], list[Game]]:
    """A league of five at tables of 3, its first season running a few plies in."""
    creator = UserFactory()
    league = leagues.league_create(
        creator=creator,
        # a time bank and playing hours: the leak scan covers the clock's new paths too
        settings=leagues.LeagueSettings(
            name="Ziggurat League",
            table_size=3,
            is_rated=False,
            bank_days=3,
            bank_increment_hours=12,
            playing_start=time(8),
            playing_end=time(23),
            playing_zone="Asia/Shanghai",
        ),
    )
    users = [UserFactory() for _ in range(5)]
    for user in users:
        leagues.league_opt_in(league_id=league.pk, user=user)
    season = LeagueSeason.objects.get(league=league)
    with time_machine.travel(season.starts_at + timedelta(minutes=1)):
        sweeps.tournaments_sweep()
    (division,) = season.divisions.all()
    return league, [creator, *users], play_a_few(division.tournament)


def test_league_pages_show_no_hidden_information_of_a_running_game() -> None:
    league, users, games = _running_league()
    assert games
    paths = ["/leagues/", f"/leagues/{league.pk}/", f"/leagues/{league.pk}/?season=1"]
    pages = {
        "anonymous": (Client(), paths),
        "creator": (client_for(users[0]), [*paths, "/leagues/new", f"/leagues/{league.pk}/manage"]),
        "player": (client_for(users[1]), [*paths, "/leagues/new"]),
    }
    assert_pages_hide_the_games(pages, games, users[1])
    page = Client().get(f"/leagues/{league.pk}/").content.decode()
    assert 'id="division-1"' in page and "Ziggurat League" in page
    assert 'id="league-playing-hours"' in page and "08:00–23:00" in page
    for user in users[1:]:
        assert f'data-player="{user.pk}"' in page


def test_league_api_shows_no_hidden_information_of_a_running_game() -> None:
    league, users, games = _running_league()
    paths = [
        "/api/v1/leagues",
        f"/api/v1/leagues/{league.pk}",
        f"/api/v1/leagues/{league.pk}/seasons/1",
    ]
    assert_api_hides_the_games(users[1], paths, games)
    detail = json.loads(Client().get(paths[1]).content)
    assert (detail["league"]["bank_days"], detail["league"]["playing_zone"]) == (3, "Asia/Shanghai")
    (division,) = detail["season"]["divisions"]
    assert len(division["standings"]) == 5 and detail["open_season"] is None
    assert Client().get(f"/api/v1/leagues/{league.pk}/seasons/2").status_code == 404
    assert Client().get(f"/api/v1/leagues/{league.pk + 9}").status_code == 404


def test_joining_and_leaving_a_season_from_the_page() -> None:
    league = leagues.league_create(creator=UserFactory(), settings=leagues.LeagueSettings(name="L"))
    user = UserFactory()
    client = client_for(user)
    response = client.post(f"/leagues/{league.pk}/join", follow=True)
    assert "You have joined the next season." in response.content.decode()
    assert 'id="league-leave"' in response.content.decode()
    again = client.post(f"/leagues/{league.pk}/join", follow=True)
    assert "already joined" in again.content.decode()
    assert LeagueMember.objects.filter(user=user).count() == 1
    client.post(f"/leagues/{league.pk}/leave")
    assert not LeagueMember.objects.exists()
    assert Client().post(f"/leagues/{league.pk}/join").status_code == 302  # to sign in
    assert not LeagueMember.objects.exists()


def test_the_chinese_page_says_league() -> None:
    league = leagues.league_create(creator=UserFactory(), settings=leagues.LeagueSettings(name="L"))
    page = Client(headers={"accept-language": "zh-hans"}).get(f"/leagues/{league.pk}/")
    assert "联赛" in page.content.decode()


def test_the_create_form_makes_a_league_with_an_open_season() -> None:
    response = client_for(UserFactory()).post("/leagues/new", league_form())
    league = League.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/leagues/{league.pk}/"
    assert league.seasons.get().status == LeagueSeason.Status.OPT_IN


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"name": ""}, "This field is required"),
        ({"division_size": "9"}, "less than or equal to 8"),
        ({"promote": "0"}, "greater than or equal to 1"),
        ({"table_size": "5"}, "Select a valid choice"),
    ],
)
def test_the_create_form_refuses_bad_input_and_creates_nothing(change, message) -> None:
    response = client_for(UserFactory()).post("/leagues/new", league_form(**change))
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not League.objects.exists()


@pytest.mark.parametrize("query", ["?season=x", "?season=7", "?season=-1"])
def test_a_bad_season_is_not_found(query: str) -> None:
    league = leagues.league_create(creator=UserFactory(), settings=leagues.LeagueSettings(name="L"))
    assert Client().get(f"/leagues/{league.pk}/{query}").status_code == 404


def test_a_profile_links_the_players_leagues_and_the_tournaments_the_viewer_may_see() -> None:
    league, users, games = _running_league()
    player = users[1]
    hidden = services.tournament_create(
        creator=UserFactory(),
        settings=services.TournamentSettings(name="Secret Cup", access="link"),
    )
    services.tournament_register(
        tournament_id=hidden.pk, user=player, invite_token=hidden.invite_token
    )
    with templates_reached() as reached:
        page = Client().get(f"/players/{player.pk}/")
    assert not reached.found, reached.found
    text = page.content.decode()
    assert f'href="/leagues/{league.pk}/">Ziggurat League</a> · Season 1 · Division 1' in text
    assert "Secret Cup" not in text  # a link-only event only to those who may see it
    assert "Secret Cup" in client_for(player).get(f"/players/{player.pk}/").content.decode()
    for game in games:
        assert_no_leak(page.content, game, None)


def test_event_dates_read_the_same_in_every_country_and_in_chinese() -> None:
    """A newcomer read "12/10/2026" as the 12th of October: the day, the month's name."""
    start = datetime(2026, 12, 10, 18, 0, tzinfo=UTC)
    with time_machine.travel(datetime(2026, 12, 1, tzinfo=UTC), tick=False):
        league = leagues.league_create(
            creator=UserFactory(),
            settings=leagues.LeagueSettings(name="Winter League", first_season_at=start),
        )
        tournament = services.tournament_create(
            creator=UserFactory(),
            settings=services.TournamentSettings(name="Winter Swiss", starts_at=start),
        )
        pages = [f"/leagues/{league.pk}/", f"/tournaments/{tournament.pk}/"]
        for path in pages:
            english = Client(headers={"accept-language": "en"}).get(path).content.decode()
            assert "10 Dec 2026, 18:00 UTC" in english, path
            assert "12/10/2026" not in english
            chinese = Client(headers={"accept-language": "zh-hans"}).get(path).content.decode()
            assert "2026年12月10日 18:00 UTC" in chinese, path


def test_the_list_says_each_leagues_time_control_in_the_readers_language() -> None:
    """Players choose a league on the list: its clock is said there as on its page."""
    days = leagues.league_create(
        creator=UserFactory(), settings=leagues.LeagueSettings(name="Two Days", days_per_move=2)
    )
    bank = leagues.league_create(
        creator=UserFactory(),
        settings=leagues.LeagueSettings(
            name="Banked",
            bank_days=3,
            bank_increment_hours=12,
            playing_start=time(8),
            playing_end=time(23),
            playing_zone="Asia/Shanghai",
        ),
    )

    def row(page: str, pk: int) -> str:
        return page.split(f'data-league="{pk}"')[1].split("</tr>")[0]

    page = Client().get("/leagues/").content.decode()
    assert '<td class="time-control">2 days per move</td>' in row(page, days.pk)
    assert "time bank: 3 days, +12 hours a turn, at most 3 days" in row(page, bank.pk)
    assert "08:00–23:00 (Asia/Shanghai)" in row(page, bank.pk)
    detail = Client().get(f"/leagues/{bank.pk}/").content.decode()
    assert "time bank: 3 days, +12 hours a turn, at most 3 days" in detail  # the same words
    zh = Client(headers={"accept-language": "zh-hans"}).get("/leagues/").content.decode()
    assert "每步 2 天" in row(zh, days.pk)
    assert "时间库：3 天" in row(zh, bank.pk) and "bank" not in row(zh, bank.pk)
