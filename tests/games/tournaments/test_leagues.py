"""Leagues (issue 30): opting in, divisions placed, promotion and relegation, seasons once."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
import time_machine

from games.models import (
    Game,
    LeagueDivision,
    LeagueMember,
    LeagueSeason,
    Profile,
    Tournament,
    TournamentPlayer,
)
from games.tournaments import leagues, sweeps
from tests.games.factories import UserFactory
from tests.games.tournaments.helpers import end_round, running_games

pytestmark = pytest.mark.django_db(transaction=False)


def _league(players: int, **settings: Any) -> tuple[Any, list[Any]]:
    """A league with ``players`` opted in for season 1, rated 1000, 1010, … (last best)."""
    league = leagues.league_create(
        creator=UserFactory(),
        settings=leagues.LeagueSettings(name="Tuesday League", **settings),
    )
    users = []
    for i in range(players):
        user = UserFactory()
        # displayed rating 1500 + 40·(μ − 3σ): σ = 1 and μ = 3 + (r − 1500) / 40
        Profile.objects.create(user=user, rating_mu=3 + (1000 + 10 * i - 1500) / 40, rating_sigma=1)
        leagues.league_opt_in(league_id=league.pk, user=user)
        users.append(user)
    return league, users


def _season(league: Any, number: int) -> LeagueSeason:
    return LeagueSeason.objects.get(league=league, number=number)


def _division_users(season: LeagueSeason) -> list[list[int]]:
    result = []
    for division in season.divisions.order_by("number"):
        ids = TournamentPlayer.objects.filter(tournament=division.tournament).values_list(
            "user_id", flat=True
        )
        result.append(sorted(ids))
    return result


def _play_out(season: LeagueSeason, capture: Any) -> None:
    """End every round of every division until all are finished (as the sweep would)."""
    for division in season.divisions.all():
        tournament = division.tournament
        while True:
            tournament.refresh_from_db()
            if tournament.status != Tournament.Status.RUNNING:
                break
            with capture(execute=True):
                end_round(tournament)


def _start(season: LeagueSeason) -> dict[str, int]:
    with time_machine.travel(season.starts_at + timedelta(minutes=1)):
        return sweeps.tournaments_sweep()


def test_first_season_places_divisions_by_rating() -> None:
    league, users = _league(9, division_size=4)
    season = _season(league, 1)
    assert sweeps.tournaments_sweep()["seasons_started"] == 0  # not yet its time
    assert _start(season)["seasons_started"] == 1
    season.refresh_from_db()
    assert season.status == LeagueSeason.Status.RUNNING
    ids = [u.pk for u in users]
    # 9 players aiming at 4: two divisions, the larger at the bottom; the best rated on top
    assert _division_users(season) == [sorted(ids[5:]), sorted(ids[:5])]
    assert set(LeagueMember.objects.filter(season=season).values_list("division", flat=True)) == {
        1,
        2,
    }
    for division in season.divisions.all():
        assert division.tournament.kind == Tournament.Kind.ROUND_ROBIN
        assert division.tournament.status == Tournament.Status.RUNNING
        assert running_games(division.tournament)
    # a second sweep starts nothing again
    assert _start(season)["seasons_started"] == 0
    assert LeagueDivision.objects.count() == 2


def test_a_season_ends_once_with_promotion_and_relegation_and_the_next_is_placed_by_it(
    django_capture_on_commit_callbacks,
) -> None:
    league, users = _league(8, division_size=4, promote=1)
    season = _season(league, 1)
    _start(season)
    _play_out(season, django_capture_on_commit_callbacks)
    counts = [sweeps.tournaments_sweep()["seasons_ended"] for _ in range(2)]
    assert counts == [1, 0]  # the season rolls over once
    season.refresh_from_db()
    assert season.status == LeagueSeason.Status.FINISHED
    assert LeagueSeason.objects.filter(league=league).count() == 2
    members = {m.user_id: m for m in season.members.all()}
    top = [m for m in members.values() if m.division == 1]
    bottom = [m for m in members.values() if m.division == 2]
    assert [m.move for m in sorted(top, key=lambda m: m.final_rank)] == [
        "stay",
        "stay",
        "stay",
        "down",
    ]
    assert [m.move for m in sorted(bottom, key=lambda m: m.final_rank)] == [
        "up",
        "stay",
        "stay",
        "stay",
    ]
    relegated = next(m.user_id for m in top if m.move == "down")
    promoted = next(m.user_id for m in bottom if m.move == "up")

    following = _season(league, 2)
    assert following.status == LeagueSeason.Status.OPT_IN
    for user in users:
        leagues.league_opt_in(league_id=league.pk, user=user)
    newcomer = UserFactory()
    Profile.objects.create(user=newcomer, rating_mu=60, rating_sigma=1)  # the best rating
    leagues.league_opt_in(league_id=league.pk, user=newcomer)
    _start(following)
    top2, bottom2 = _division_users(following)
    assert promoted in top2 and relegated in bottom2
    assert newcomer.pk in bottom2  # newcomers start at the bottom, whatever their rating
    assert len(top2) == 4 and len(bottom2) == 5


def test_the_season_ends_at_its_last_week_with_games_still_running(
    django_capture_on_commit_callbacks,
) -> None:
    league, _users = _league(4, season_weeks=1)
    season = _season(league, 1)
    _start(season)
    season.refresh_from_db()
    (division,) = season.divisions.all()
    games = running_games(division.tournament)
    assert games
    with time_machine.travel(season.ends_at - timedelta(minutes=1)):
        assert sweeps.tournaments_sweep()["seasons_ended"] == 0
    with (
        django_capture_on_commit_callbacks(execute=True),
        time_machine.travel(season.ends_at + timedelta(minutes=1)),
    ):
        assert sweeps.tournaments_sweep()["seasons_ended"] == 1
    division.tournament.refresh_from_db()
    assert division.tournament.status == Tournament.Status.FINISHED
    assert not Game.objects.filter(pk__in=[g.pk for g in games], status=Game.Status.ACTIVE)
    ranks = sorted(season.members.values_list("final_rank", flat=True))
    assert ranks == [1, 2, 3, 4]
    assert set(season.members.values_list("move", flat=True)) == {"stay"}  # one division
    assert _season(league, 2).status == LeagueSeason.Status.OPT_IN


def test_too_few_postpone_the_season_and_keep_its_members() -> None:
    league, _users = _league(3)
    season = _season(league, 1)
    starts = season.starts_at
    _start(season)
    season.refresh_from_db()
    assert season.status == LeagueSeason.Status.OPT_IN
    assert season.starts_at > starts
    assert season.members.count() == 3


def test_opting_in_twice_or_after_the_start_is_refused_and_changes_nothing() -> None:
    league, users = _league(4)
    with pytest.raises(leagues.LeagueRefused, match="already joined"):
        leagues.league_opt_in(league_id=league.pk, user=users[0])
    leagues.league_opt_out(league_id=league.pk, user=users[0])
    with pytest.raises(leagues.LeagueRefused, match="not joined"):
        leagues.league_opt_out(league_id=league.pk, user=users[0])
    leagues.league_opt_in(league_id=league.pk, user=users[0])
    _start(_season(league, 1))
    with pytest.raises(leagues.LeagueRefused, match="has started"):
        leagues.league_opt_in(league_id=league.pk, user=UserFactory())
    with pytest.raises(leagues.LeagueNotFound):
        leagues.league_opt_in(league_id=league.pk + 99, user=users[0])
    assert LeagueMember.objects.count() == 4


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"name": " "}, "name of 1 to"),
        ({"division_size": 9}, "4 to 8 players"),
        ({"promote": 3}, "1 or 2 players"),
        ({"season_weeks": 27}, "1 to 26 weeks"),
        ({"table_size": 5}, "2 to 4 players"),
    ],
)
def test_bad_settings_are_refused_and_nothing_is_saved(change, message) -> None:
    settings = {"name": "League", **change}
    with pytest.raises(leagues.LeagueRefused, match=message):
        leagues.league_create(creator=UserFactory(), settings=leagues.LeagueSettings(**settings))
    assert not LeagueSeason.objects.exists()
