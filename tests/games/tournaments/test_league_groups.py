"""A group's league, bots in a league's divisions, the creator's page (issue 30).

A league may be for its invited players only (each told through the outbox, like an
invitation-only tournament); an unrated league may let bots fill its divisions' seats;
its creator opens and closes joining, removes a player and sets the next season.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.contrib.auth.models import AnonymousUser
from django.core import mail
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games.accounts.bots import bot_account
from games.models import (
    Game,
    League,
    LeagueMember,
    LeagueSeason,
    Notification,
    NotificationKind,
    Profile,
    Seat,
    Tournament,
    TournamentPlayer,
)
from games.tournaments import league_values, leagues, sweeps
from tests.games.factories import UserFactory, client_for
from tests.games.reach import templates_reached
from tests.games.tournaments.helpers import group_league, running_games

pytestmark = pytest.mark.django_db


def _start(league: League) -> LeagueSeason:
    season = LeagueSeason.objects.get(league=league, status=LeagueSeason.Status.OPT_IN)
    with time_machine.travel(season.starts_at + timedelta(minutes=1)):
        sweeps.tournaments_sweep()
    season.refresh_from_db()
    return season


# --- A group's league --------------------------------------------------------------------


def test_a_groups_league_tells_each_invited_player_once_in_their_language(
    django_capture_on_commit_callbacks: Any,
) -> None:
    creator, ann, bob = UserFactory(), UserFactory(), UserFactory()
    Profile.objects.update_or_create(user=bob, defaults={"language": "zh-hans"})
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        league = group_league(creator, ann, bob)
    rows = Notification.objects.filter(kind=NotificationKind.LEAGUE_INVITE)
    assert sorted(r.user_id for r in rows) == [ann.pk, bob.pk]
    assert all(r.league_id == league.pk and r.game_id is None for r in rows)
    by_address = {m.to[0]: m for m in mail.outbox}
    assert (
        by_address[ann.email].subject == f"{creator.username} invites you to the league Club League"
    )
    assert f"/leagues/{league.pk}/" in by_address[ann.email].body
    assert "invites" not in by_address[bob.email].subject
    assert "Club League" in by_address[bob.email].subject


def test_only_the_invited_and_the_creator_may_join_a_groups_league() -> None:
    creator, ann, stranger = UserFactory(), UserFactory(), UserFactory()
    league = group_league(creator, ann)
    with pytest.raises(leagues.LeagueRefused, match="invited players only"):
        leagues.league_opt_in(league_id=league.pk, user=stranger)
    assert not LeagueMember.objects.exists()
    leagues.league_opt_in(league_id=league.pk, user=ann)
    leagues.league_opt_in(league_id=league.pk, user=creator)
    assert LeagueMember.objects.count() == 2
    # only they see it
    assert [h.id for h in league_values.leagues_list(ann)] == [league.pk]
    assert league_values.leagues_list(stranger) == []
    assert client_for(stranger).get(f"/leagues/{league.pk}/").status_code == 404
    assert Client().get(f"/api/v1/leagues/{league.pk}").status_code == 404
    assert b"Club League" not in Client().get("/api/v1/leagues").content
    assert client_for(ann).get(f"/leagues/{league.pk}/").status_code == 200


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"access": Tournament.Access.INVITE}, "Name at least one player to invite"),
        ({"invited": ("ghost",), "access": "invite"}, "No player is called ghost"),
        ({"invited": ("ann",)}, "Only a league for invited players"),
        ({"access": Tournament.Access.LINK}, "open to all or to its invited players only"),
        ({"bots_fill_seats": True}, "only in an unrated league"),
    ],
)
def test_bad_league_settings_are_refused_and_create_nothing(
    change: dict[str, Any], message: str
) -> None:
    UserFactory(username="ann")
    with pytest.raises(leagues.LeagueRefused, match=message):
        leagues.league_create(
            creator=UserFactory(), settings=leagues.LeagueSettings(name="Club", **change)
        )
    assert not League.objects.exists() and not Notification.objects.exists()


# --- Bots in divisions ---------------------------------------------------------------------


def test_bots_fill_a_divisions_byes_in_an_unrated_league_that_allows_them() -> None:
    league = leagues.league_create(
        creator=UserFactory(),
        settings=leagues.LeagueSettings(
            name="Bot League", is_rated=False, bots_fill_seats=True, division_size=5
        ),
    )
    for _ in range(5):
        leagues.league_opt_in(league_id=league.pk, user=UserFactory())
    season = _start(league)
    (division,) = season.divisions.select_related("tournament")
    assert division.tournament.bots_fill_seats and not division.tournament.is_rated
    games = running_games(division.tournament)
    # five at tables of 2: the player who would sit out plays a bot instead
    assert len(games) == 3
    bot_seats = [s for g in games for s in g.seats.all() if s.is_bot]
    assert len(bot_seats) == 1
    assert not TournamentPlayer.objects.filter(
        tournament=division.tournament, user__profile__is_bot=True
    ).exists()


def test_a_rated_league_plays_without_bots() -> None:
    league = leagues.league_create(
        creator=UserFactory(), settings=leagues.LeagueSettings(name="Rated", division_size=5)
    )
    for _ in range(5):
        leagues.league_opt_in(league_id=league.pk, user=UserFactory())
    (division,) = _start(league).divisions.select_related("tournament")
    assert not division.tournament.bots_fill_seats
    assert not Game.objects.filter(seats__is_bot=True).exists()
    bot_account("medium")  # the bot exists; it is simply not used


# --- The creator's page ----------------------------------------------------------------------


def test_the_creator_closes_and_opens_joining() -> None:
    creator, ann = UserFactory(), UserFactory()
    league = leagues.league_create(creator=creator, settings=leagues.LeagueSettings(name="L"))
    owner = client_for(creator)
    owner.post(f"/leagues/{league.pk}/manage/registration", {"open": "0"})
    with pytest.raises(leagues.LeagueRefused, match="closed joining"):
        leagues.league_opt_in(league_id=league.pk, user=ann)
    assert not LeagueMember.objects.exists()
    page = client_for(ann).get(f"/leagues/{league.pk}/").content.decode()
    assert "joining is closed" in page
    # the state, not a button that can only be refused
    assert 'id="league-join"' not in page and 'id="league-joining-closed"' in page
    Profile.objects.update_or_create(user=ann, defaults={"language": "zh-hans"})
    page = client_for(ann).get(f"/leagues/{league.pk}/").content.decode()
    closed = page.split('id="league-joining-closed">')[1].split("</p>")[0]
    assert "联赛创建者" in closed and "joining" not in closed
    owner.post(f"/leagues/{league.pk}/manage/registration", {"open": "1"})
    page = client_for(ann).get(f"/leagues/{league.pk}/").content.decode()
    assert 'id="league-join"' in page and 'id="league-joining-closed"' not in page
    leagues.league_opt_in(league_id=league.pk, user=ann)
    assert LeagueMember.objects.filter(user=ann).exists()


def test_only_the_creator_reaches_the_page_and_its_buttons() -> None:
    creator, other = UserFactory(), UserFactory()
    league = leagues.league_create(creator=creator, settings=leagues.LeagueSettings(name="L"))
    leagues.league_opt_in(league_id=league.pk, user=other)
    intruder = client_for(other)
    assert intruder.get(f"/leagues/{league.pk}/manage").status_code == 404
    # refused for being no creator (the same posts as the creator's, which work elsewhere)
    for path, data in (("registration", {"open": "0"}), ("remove", {"username": other.username})):
        refused = intruder.post(f"/leagues/{league.pk}/manage/{path}", data, follow=True)
        assert "Only the league&#x27;s creator can do this." in refused.content.decode(), path
    league.refresh_from_db()
    assert league.registration_open and LeagueMember.objects.filter(user=other).exists()
    assert Client().get(f"/leagues/{league.pk}/manage").status_code == 302  # sign in first
    with templates_reached() as reached:
        page = client_for(creator).get(f"/leagues/{league.pk}/manage")
    assert page.status_code == 200 and not reached.found, reached.found


def test_removing_a_player_takes_them_out_or_withdraws_them_from_their_division() -> None:
    creator = UserFactory()
    league = leagues.league_create(
        creator=creator, settings=leagues.LeagueSettings(name="L", division_size=4)
    )
    users = [UserFactory() for _ in range(5)]
    for user in users:
        leagues.league_opt_in(league_id=league.pk, user=user)
    owner = client_for(creator)
    owner.post(f"/leagues/{league.pk}/manage/remove", {"username": users[4].username.upper()})
    assert not LeagueMember.objects.filter(user=users[4]).exists()
    with pytest.raises(leagues.LeagueRefused, match="is not playing in this league now"):
        leagues.league_member_remove(league_id=league.pk, user=creator, username="nobody")
    season = _start(league)
    (division,) = season.divisions.select_related("tournament")
    owner.post(f"/leagues/{league.pk}/manage/remove", {"username": users[0].username})
    player = TournamentPlayer.objects.get(tournament=division.tournament, user=users[0])
    assert player.withdrawn_at is not None
    # their game was resigned: their seat is dropped (played by the default policy)
    seat = Seat.objects.get(game__in=running_games(division.tournament), user=users[0])
    assert seat.dropped_at is not None
    with pytest.raises(leagues.LeagueRefused, match="already left"):
        leagues.league_member_remove(league_id=league.pk, user=creator, username=users[0].username)


def test_the_next_seasons_settings_apply_from_the_season_not_yet_started(
    django_capture_on_commit_callbacks: Any,
) -> None:
    creator, ann, bob = UserFactory(), UserFactory(), UserFactory()
    league = group_league(creator, ann, division_size=6)
    owner = client_for(creator)
    form = {
        "division_size": "4",
        "promote": "2",
        "season_weeks": "3",
        "opt_in_days": "5",
        "days_per_move": "2",
        "invited": f"{ann.username}, {bob.username}",
    }
    page = owner.get(f"/leagues/{league.pk}/manage").content.decode()
    assert ann.username in page  # the invited list, filled in
    with django_capture_on_commit_callbacks(execute=True):
        response = owner.post(f"/leagues/{league.pk}/manage", form)
    assert response.status_code == 302
    league.refresh_from_db()
    assert (league.division_size, league.promote, league.season_weeks) == (4, 2, 3)
    assert (league.opt_in_days, league.days_per_move) == (5, 2)
    # only the newly invited player is told
    told = Notification.objects.filter(kind=NotificationKind.LEAGUE_INVITE)
    assert sorted(told.values_list("user_id", flat=True)) == [ann.pk, bob.pk]
    # bad input: refused with its message, nothing changes
    bad = owner.post(f"/leagues/{league.pk}/manage", {**form, "division_size": "3"})
    assert bad.status_code == 400
    bots = owner.post(f"/leagues/{league.pk}/manage", {**form, "bots_fill_seats": "on"})
    assert bots.status_code == 400
    assert "only in an unrated league" in bots.content.decode()
    league.refresh_from_db()
    assert league.division_size == 4 and not league.bots_fill_seats


# --- The list's queries --------------------------------------------------------------------


def _queries_of_the_list() -> int:
    with CaptureQueriesContext(connection) as captured:
        headers = league_values.leagues_list(AnonymousUser())
    assert headers
    return len(captured.captured_queries)


def test_the_leagues_list_makes_the_same_queries_for_one_league_or_many() -> None:
    creator = UserFactory()
    leagues.league_create(creator=creator, settings=leagues.LeagueSettings(name="L0"))
    one = _queries_of_the_list()
    for n in range(1, 8):
        league = leagues.league_create(
            creator=creator, settings=leagues.LeagueSettings(name=f"L{n}")
        )
        leagues.league_opt_in(league_id=league.pk, user=UserFactory())
    many = _queries_of_the_list()
    assert one == many == 2
    headers = league_values.leagues_list(None)
    assert [h.name for h in headers] == [f"L{n}" for n in range(7, -1, -1)]
    assert [h.members for h in headers] == [1] * 7 + [0]
    assert all(h.season == 1 for h in headers)


# --- A division's name ----------------------------------------------------------------------


def test_a_divisions_name_is_stored_as_its_leagues_and_said_in_the_readers_language() -> None:
    league = leagues.league_create(
        creator=UserFactory(), settings=leagues.LeagueSettings(name="Ur League", division_size=4)
    )
    for _ in range(4):
        leagues.league_opt_in(league_id=league.pk, user=UserFactory())
    (division,) = _start(league).divisions.select_related("tournament")
    assert division.tournament.name == "Ur League"  # no words of any language stored
    path = f"/tournaments/{division.tournament_id}/"
    english = Client().get(path).content.decode()
    assert "Ur League · season 1 · division 1" in english
    chinese = Client(headers={"accept-language": "zh-hans"}).get(path).content.decode()
    assert "Ur League" in chinese and "season 1" not in chinese
    (game, *_rest) = running_games(division.tournament)
    player = game.seats.first().user
    Profile.objects.update_or_create(user=player, defaults={"language": "zh-hans"})
    game_page = client_for(player).get(f"/games/{game.pk}/").content.decode()
    assert "Ur League" in game_page and "division 1" not in game_page
