"""A league's time control and playing hours (issue 30): its divisions' games get them.

The creator chooses days per move or a time bank, and daily playing hours, as for a
tournament (the same fields and checks); a season's divisions take them at its start and
keep them while the season runs; the league's page, API and emails say them.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, time, timedelta
from typing import Any

import pytest
import time_machine
from django.core import mail
from django.test import Client

from games.models import Game, League, LeagueSeason, Profile
from games.tournaments import leagues, sweeps
from tests.games.factories import UserFactory, client_for
from tests.games.leaks import assert_no_leak
from tests.games.tournaments.helpers import group_league, league_form, running_games

pytestmark = pytest.mark.django_db

PARIS_DAY = {"playing_start": time(9), "playing_end": time(21), "playing_zone": "Europe/Paris"}
# Monday 7 December 2026, 20:00 in Paris (UTC+1): one playing hour left that day
EVENING = datetime(2026, 12, 7, 19, tzinfo=UTC)
BANK = {"bank_days": 1, "bank_increment_hours": 12, "bank_cap_days": 3}


def _league_started_at(when: datetime, players: int = 4, **settings: Any) -> League:
    """A league of ``settings`` whose first season starts at ``when`` with ``players``."""
    with time_machine.travel(when - timedelta(days=3), tick=False):
        league = leagues.league_create(
            creator=UserFactory(),
            settings=leagues.LeagueSettings(name="Hours League", first_season_at=when, **settings),
        )
        for _ in range(players):
            leagues.league_opt_in(league_id=league.pk, user=UserFactory())
    with time_machine.travel(when, tick=False):
        sweeps.tournaments_sweep()
    return league


def _division_games(league: League) -> list[Game]:
    season = LeagueSeason.objects.get(league=league, number=1)
    assert season.status == LeagueSeason.Status.RUNNING
    return [g for d in season.divisions.all() for g in running_games(d.tournament)]


def test_a_leagues_time_bank_and_playing_hours_reach_its_division_games() -> None:
    league = _league_started_at(EVENING, **BANK, **PARIS_DAY)
    games = _division_games(league)
    assert len(games) == 2  # 4 players at tables of 2
    for game in games:
        assert (game.bank_days, game.bank_increment_hours, game.bank_cap_days) == (1, 12, 3)
        assert (game.playing_start, game.playing_end, game.playing_zone) == (
            time(9),
            time(21),
            "Europe/Paris",
        )
        # a bank of 24 playing hours: 1 on Monday, 12 on Tuesday, 11 on Wednesday
        assert game.deadline == datetime(2026, 12, 9, 19, tzinfo=UTC)


def test_days_per_move_count_only_the_playing_hours() -> None:
    league = _league_started_at(EVENING, days_per_move=1, **PARIS_DAY)
    for game in _division_games(league):
        assert game.bank_days is None and game.days_per_move == 1
        assert game.deadline == datetime(2026, 12, 9, 19, tzinfo=UTC)


def test_a_running_season_keeps_its_clock_when_the_creator_changes_the_next() -> None:
    league = _league_started_at(EVENING, **BANK, **PARIS_DAY)
    leagues.league_update(
        league_id=league.pk,
        user=league.creator,
        settings=leagues.NextSeasonSettings(
            division_size=6, promote=1, season_weeks=6, opt_in_days=7, days_per_move=2
        ),
    )
    league.refresh_from_db()
    assert (league.days_per_move, league.bank_days, league.playing_start) == (2, None, None)
    assert league.playing_zone == "" and league.bank_increment_hours == 0
    (division,) = LeagueSeason.objects.get(league=league, number=1).divisions.all()
    tournament = division.tournament
    assert (tournament.bank_days, tournament.playing_start) == (1, time(9))
    assert all(g.bank_days == 1 for g in _division_games(league))


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        ({"playing_start": "09:00"}, "playing_start", "a start and an end, or neither"),
        (
            {"playing_start": "09:00", "playing_end": "10:00"},
            "playing_end",
            "2 hours a day at least",
        ),
        (
            {"playing_start": "09:00", "playing_end": "17:00", "playing_zone": "Mars/Olympus"},
            "playing_zone",
            "Mars/Olympus",
        ),
        ({"bank_days": "14", "bank_cap_days": "7"}, "bank_cap_days", "from its start to 60"),
    ],
)
def test_bad_clock_settings_are_refused_beside_their_field_and_create_nothing(
    change: dict[str, str], field: str, message: str
) -> None:
    client = client_for(UserFactory())
    response = client.post("/leagues/new", league_form(**change))
    assert response.status_code == 400
    errors = response.context["form"].errors
    assert message in " ".join(errors[field]), errors
    assert not League.objects.exists()


def test_bad_clock_settings_are_refused_in_chinese_too() -> None:
    user = UserFactory()
    Profile.objects.update_or_create(user=user, defaults={"language": "zh-hans"})
    client = client_for(user)
    response = client.post(
        "/leagues/new",
        league_form(playing_start="09:00"),
        headers={"accept-language": "zh-hans"},
    )
    assert response.status_code == 400
    (message,) = response.context["form"].errors["playing_start"]
    assert message and "neither" not in message
    assert not League.objects.exists()


def test_bad_clock_settings_on_the_creators_page_change_nothing() -> None:
    creator = UserFactory()
    league = leagues.league_create(
        creator=creator, settings=leagues.LeagueSettings(name="Keep", **BANK, **PARIS_DAY)
    )
    form = {
        "division_size": "6",
        "promote": "1",
        "season_weeks": "6",
        "opt_in_days": "7",
        "days_per_move": "3",
        "playing_start": "09:00",
        "playing_end": "09:30",
    }
    response = client_for(creator).post(f"/leagues/{league.pk}/manage", form)
    assert response.status_code == 400
    assert "2 hours a day at least" in " ".join(response.context["form"].errors["playing_end"])
    league.refresh_from_db()
    assert (league.bank_days, league.playing_start, league.playing_end) == (1, time(9), time(21))
    # the page's form shows the league's clock as it is
    page = client_for(creator).get(f"/leagues/{league.pk}/manage").content.decode()
    assert 'name="playing_start" value="09:00"' in page


def test_the_form_creates_a_league_with_a_bank_and_playing_hours() -> None:
    client = client_for(UserFactory())
    response = client.post(
        "/leagues/new",
        league_form(
            bank_days="3",
            bank_increment_hours="24",
            bank_cap_days="7",
            playing_start="18:00",
            playing_end="02:00",
            playing_zone="Asia/Shanghai",
        ),
    )
    assert response.status_code == 302
    league = League.objects.get()
    assert (league.bank_days, league.bank_increment_hours, league.bank_cap_days) == (3, 24, 7)
    assert (league.playing_start, league.playing_end, league.playing_zone) == (
        time(18),
        time(2),
        "Asia/Shanghai",
    )


def test_the_page_and_the_api_say_the_clock_in_the_viewers_language() -> None:
    league = leagues.league_create(
        creator=UserFactory(),
        settings=leagues.LeagueSettings(name="Clock League", **BANK, **PARIS_DAY),
    )
    page = Client().get(f"/leagues/{league.pk}/").content.decode()
    assert "09:00–21:00 each day (Europe/Paris): the games' clocks run only then." in page
    assert (
        'id="league-time-control">time bank: 1 day, +12 hours a turn, at most 3 days</dd>' in page
    )
    zh = Client(headers={"accept-language": "zh-hans"}).get(f"/leagues/{league.pk}/")
    text = zh.content.decode()
    assert 'id="league-playing-hours">' in text and "09:00–21:00" in text
    assert "clocks run" not in text and "bank" not in text
    data = json.loads(Client().get(f"/api/v1/leagues/{league.pk}").content)["league"]
    assert (data["bank_days"], data["bank_increment_hours"], data["bank_cap_days"]) == (1, 12, 3)
    assert (data["playing_start"], data["playing_end"], data["playing_zone"]) == (
        "09:00:00",
        "21:00:00",
        "Europe/Paris",
    )
    assert data["time_control"]
    (listed,) = json.loads(Client().get("/api/v1/leagues").content)
    assert listed["playing_zone"] == "Europe/Paris" and listed["bank_days"] == 1


def test_the_division_games_page_says_the_playing_hours() -> None:
    league = _league_started_at(EVENING, **PARIS_DAY)
    game = _division_games(league)[0]
    page = Client().get(f"/games/{game.pk}/").content.decode()
    assert 'id="game-playing-hours"' in page
    assert "09:00–21:00 each day (Europe/Paris)" in page


def test_the_invitation_and_round_emails_say_the_clock(
    django_capture_on_commit_callbacks: Any,
) -> None:
    creator, ann, bob, dan = (UserFactory() for _ in range(4))
    Profile.objects.update_or_create(user=bob, defaults={"language": "zh-hans"})
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        league = group_league(creator, ann, bob, dan, **BANK, **PARIS_DAY)
    by_address = {m.to[0]: m for m in mail.outbox}
    english = by_address[ann.email].body
    assert "Playing hours: 09:00–21:00 (Europe/Paris) each day" in english
    assert "Time control: " in english and "bank" in english
    chinese = by_address[bob.email].body
    assert "09:00–21:00 (Europe/Paris)" in chinese and "Playing hours" not in chinese
    # the first season's round 1: each player's round email says the clock too
    for user in [creator, ann, bob, dan]:
        leagues.league_opt_in(league_id=league.pk, user=user)
    season = LeagueSeason.objects.get(league=league)
    mail.outbox.clear()
    with (
        time_machine.travel(season.starts_at + timedelta(minutes=1)),
        django_capture_on_commit_callbacks(execute=True),
    ):
        sweeps.tournaments_sweep()
    rounds = [m for m in mail.outbox if m.to[0] == ann.email]
    assert rounds, [m.subject for m in mail.outbox]
    (round_mail,) = rounds
    assert "Round 1" in round_mail.subject
    assert "Time control: time bank: 1 day, +12 hours a turn, at most 3 days." in round_mail.body
    assert "Playing hours: 09:00–21:00 (Europe/Paris) each day" in round_mail.body


def test_the_season_end_email_says_the_next_seasons_clock(
    django_capture_on_commit_callbacks: Any,
) -> None:
    """The clock the creator set for the next season, not the one the season played."""
    league = _league_started_at(EVENING, **BANK, **PARIS_DAY)
    season = LeagueSeason.objects.get(league=league, number=1)
    games = _division_games(league)
    members = list(season.members.select_related("user"))
    chinese = members[0].user
    Profile.objects.update_or_create(user=chinese, defaults={"language": "zh-hans"})
    leagues.league_update(
        league_id=league.pk,
        user=league.creator,
        settings=leagues.NextSeasonSettings(
            division_size=6,
            promote=1,
            season_weeks=6,
            opt_in_days=7,
            days_per_move=2,
            playing_start=time(18),
            playing_end=time(2),
            playing_zone="Asia/Shanghai",
        ),
    )
    season.refresh_from_db()
    assert season.ends_at is not None
    mail.outbox.clear()
    with (
        django_capture_on_commit_callbacks(execute=True),
        time_machine.travel(season.ends_at + timedelta(minutes=1)),
    ):
        sweeps.tournaments_sweep()
    over = {m.to[0]: m for m in mail.outbox if "season 1 is over" in m.subject}
    assert len(over) == 3
    for member in members[1:]:
        message = over[member.user.email]
        for body in (message.body, str(message.alternatives[0][0])):  # type: ignore[attr-defined]
            assert "Season 2's time control: 2 days per move." in body
            assert "Playing hours: 18:00–02:00 (Asia/Shanghai) each day" in body
            assert "bank" not in body and "Europe/Paris" not in body
            for game in games:
                assert_no_leak(body.encode(), game, None)
    (zh_body,) = (
        m.body for m in mail.outbox if m.to[0] == chinese.email and "赛季已结束" in m.subject
    )
    assert "第 2 赛季的时间控制：每步 2 天。" in zh_body
    assert "18:00–02:00 (Asia/Shanghai)" in zh_body and "time control" not in zh_body
