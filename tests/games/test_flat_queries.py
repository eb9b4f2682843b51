"""Each page and list runs as many queries with 30 games as with 1 (issue 31: bounded pages).

A player's history grows one game at a time; what a page costs must not (no N+1 over games,
seats or players). Every page and API list a player opens is read with 1 game in each of
its lists (2 games: one in progress, one finished), then with 30, and the query counts
compared: equal, whatever the counts are. The clocks' sweep, which works on the games due
however many there are, costs a few queries a due game, the reminders' batch one each.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

import engine
from games.accounts import profiles, tokens
from games.community import follows, invitations
from games.core.states import game_state
from games.models import Game, Move, Notification, NotificationKind, Profile, Seat, Tournament
from games.play import lifecycle, submit, sweeps
from games.text.seats import display_name
from games.tournaments import leagues
from tests.games.factories import UserFactory, client_for, started_game

pytestmark = pytest.mark.django_db


def _add_games(me: Any, count: int) -> list[int]:
    """Give ``me`` ``count`` more 2-player games with a new opponent each: every other one
    finished and rated (places, score sheets, ratings), the rest in progress and waiting on
    ``me``; each opponent past their provisional games, on the leaderboard, followed by
    ``me``, playing a game of their own without ``me`` (the followed players' games) and
    inviting ``me`` by name to an open game (the invitations). Return ``me``'s games' ids."""
    made = []
    profiles.profile_get(me)  # invited by name: a player with a profile
    for i in range(count):
        other = UserFactory()
        follows.follow_set(user=me, followed_id=other.pk, on=True)
        theirs = lifecycle.game_create(creator=other, num_players=2)
        lifecycle.game_join(game_id=theirs.pk, user=UserFactory())
        invitations.game_create_inviting(creator=other, invitees=[display_name(me)], num_players=3)
        game = lifecycle.game_create(creator=me, num_players=2)
        lifecycle.game_join(game_id=game.pk, user=other)
        game.refresh_from_db()
        mine = game.seats.get(user=me).position
        while game.to_act_seat != mine:  # each list holds rows at both sizes
            legal = engine.legal_actions(game_state(game))
            submit.game_submit_action(
                game_id=game.pk, user=other, action=str(legal[0]), expected_version=game.version
            )
            game.refresh_from_db()
        if i % 2:
            Game.objects.filter(pk=game.pk).update(
                status=Game.Status.FINISHED, finished_at=timezone.now(), to_act_seat=None
            )
            for seat in Seat.objects.filter(game_id=game.pk):
                seat.final_rank = 1 if seat.user_id == me.pk else 2  # me wins: "won" lists
                seat.final_score = {"colors": {"red": 3}, "score": 3}
                seat.rating_before, seat.rating_after = 1500.0, 1510.0
                seat.save()
        profiles.profile_get(other)
        Profile.objects.filter(user=other).update(
            rated_games=10, last_active_at=timezone.now(), rating_mu=20 + i
        )
        made.append(game.pk)
    return made


def _counts(
    urls: dict[str, tuple[Client, str, dict[str, str]]], *, cold: bool = False
) -> dict[str, int]:
    """Return each page's queries, warm; ``cold``: with the home page's cached lists
    dropped just before (``public_lists_changed``), so that they are read again."""
    from games.selectors.lobby import public_lists_changed

    out = {}
    for name, (client, url, extra) in urls.items():
        client.get(url, **extra)  # the session's first-visit work (language) done once
        if cold:
            public_lists_changed()
        with CaptureQueriesContext(connection) as captured:
            answer = client.get(url, **extra)
        assert answer.status_code == 200, (name, answer.status_code)
        out[name] = len(captured)
    return out


def test_every_page_and_list_runs_as_many_queries_with_30_games_as_with_1() -> None:
    me = UserFactory()
    profiles.profile_get(me)
    Profile.objects.filter(user=me).update(
        rated_games=10, last_active_at=timezone.now() - timedelta(days=1)
    )
    first = _add_games(me, 2)[0]  # one game in each list: in progress, finished
    _, secret = tokens.token_create(user=me, name="counts")
    api = {"HTTP_AUTHORIZATION": f"Bearer {secret}"}
    anon, mine = Client(), client_for(me)
    urls = {
        "home, anonymous": (anon, "/", {}),
        "home and my games": (mine, "/", {}),
        "profile": (anon, f"/players/{me.pk}/", {}),
        "profile, games in progress after the first": (
            anon,
            f"/players/{me.pk}/?current_after={2**40}",
            {},
        ),
        "open games": (anon, "/games/open", {}),
        "open games after the first": (mine, f"/games/open?after={first}", {}),
        "own profile": (mine, f"/players/{me.pk}/", {}),
        "leaderboard": (anon, "/leaderboard", {}),
        "finished games": (anon, "/games/finished", {}),
        "finished games, mine": (mine, "/games/finished", {}),
        "finished games of a player": (anon, f"/games/finished?player={me.username}", {}),
        "finished games won": (mine, "/games/finished?result=won", {}),
        "game page": (mine, f"/games/{first}/", {}),
        "api games": (anon, "/api/v1/games", api),
        "api games of a player": (anon, f"/api/v1/games?player={me.pk}", api),
        "api player's games": (anon, f"/api/v1/players/{me.pk}/games", api),
        "api rating history": (anon, f"/api/v1/players/{me.pk}/rating", api),
        "api leaderboard": (anon, "/api/v1/leaderboard", api),
        "api games waiting": (anon, "/api/v1/me/waiting", api),
        "api me": (anon, "/api/v1/me", api),
        "api player": (anon, f"/api/v1/players/{me.pk}", api),
        "api game": (anon, f"/api/v1/games/{first}", api),
        "api games in progress": (anon, "/api/v1/games?status=active", api),
        "api games finished": (anon, "/api/v1/games?status=finished", api),
        "api moves": (anon, f"/api/v1/games/{first}/moves", api),
    }
    home = mine.get("/").context
    assert home["followed_games"] and home["invitations"] and home["my_games"]  # lists filled
    at_one = _counts(urls)
    # The home page's public lists come from the cache when warm (games.selectors.lobby):
    # read with the cache empty too, so that reading them is bounded as well.
    homes = {name: urls[name] for name in ("home, anonymous", "home and my games")}
    cold_at_one = _counts(homes, cold=True)
    _add_games(me, 28)
    at_thirty = _counts(urls)
    assert at_thirty == at_one
    assert _counts(homes, cold=True) == cold_at_one
    assert all(cold_at_one[name] > at_one[name] for name in homes)  # the cache was read


def test_a_profile_reads_its_recent_games_and_counts_the_rest_in_the_database() -> None:
    from django.db.models.signals import post_init

    from games.selectors.profiles import RECENT_GAMES

    me = UserFactory()
    _add_games(me, 30)  # 15 finished, 15 in progress
    made: list[Seat] = []

    def count(sender: Any, instance: Seat, **_kwargs: Any) -> None:
        made.append(instance)

    post_init.connect(count, sender=Seat, weak=False)
    try:
        page = Client().get(f"/players/{me.pk}/")
    finally:
        post_init.disconnect(count, sender=Seat)
    assert page.status_code == 200
    record = page.context["record"]
    assert record.finished == 15 and record.rated == 15 and len(record.recent) == RECENT_GAMES
    assert len(made) == RECENT_GAMES + 15  # the recent finished games and those in progress


def test_my_games_lists_its_first_games_in_progress_and_the_latest_ended_only() -> None:
    from games.selectors.games import MY_GAMES_ENDED, MY_GAMES_IN_PROGRESS

    me = UserFactory()
    made = _add_games(me, 30)  # every other one finished, the last made the latest
    finished = [pk for i, pk in enumerate(made) if i % 2]
    running = [pk for i, pk in enumerate(made) if not i % 2]  # 15, each waiting on me
    page = client_for(me).get("/")
    listed = [g.pk for g in page.context["my_games"]]
    # The latest moved of those waiting, up to the cap; the rest are on the profile.
    assert [pk for pk in listed if pk in running] == running[::-1][:MY_GAMES_IN_PROGRESS]
    assert [pk for pk in listed if pk in finished] == finished[::-1][:MY_GAMES_ENDED]
    assert len(listed) == MY_GAMES_IN_PROGRESS + MY_GAMES_ENDED
    assert page.context["my_games_beyond"] is True


def test_my_games_lists_the_games_waiting_first_up_to_its_cap_then_points_to_the_profile(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from games.selectors import games as selectors

    me = UserFactory()
    made = _add_games(me, 12)  # 6 in progress waiting on me, 6 finished
    running = [pk for i, pk in enumerate(made) if not i % 2]
    # Two of them now wait on the opponent, moved last: newer than the games waiting on me.
    for pk in running[:2]:
        game = Game.objects.get(pk=pk)
        other = game.seats.exclude(user=me).get().position
        Game.objects.filter(pk=pk).update(to_act_seat=other)
        Game.objects.filter(pk=pk).update(updated_at=timezone.now() + timedelta(hours=1))
    monkeypatch.setattr(selectors, "MY_GAMES_IN_PROGRESS", 4)
    page = client_for(me).get("/")
    listed = page.context["my_games"]
    in_progress = [g for g in listed if g.status == Game.Status.ACTIVE]
    assert len(in_progress) == 4 and all(g.waiting_for_me for g in in_progress)
    assert {g.pk for g in in_progress} <= set(running[2:])
    assert page.context["my_games_beyond"] is True
    beyond = page.content.decode().split('id="my-games-beyond"')[1]
    assert f'href="/players/{me.pk}/#current-games"' in beyond
    monkeypatch.setattr(selectors, "MY_GAMES_IN_PROGRESS", 6)
    assert 'id="my-games-beyond"' not in client_for(me).get("/").content.decode()


# What each due game may add to the clocks' sweep (issue 31): a reminder, its outbox row;
# a timeout, its own transaction (two savepoint statements here, inside the test's), the
# game's lock and its seats, the move and the snapshot, the turn notice, the seat's
# streak, and the "timed out" notice with its player's preference.
QUERIES_A_REMINDER = 1
QUERIES_A_TIMEOUT = 10


def _sweep_due(count: int) -> tuple[int, list[int], list[int]]:
    """Make ``count`` games' reminders and ``count`` games' deadlines due now, run the
    clocks' sweep; return its query count and the two lists of games."""
    now = timezone.now()
    reminded = [started_game(2, days_per_move=3)[0].pk for _ in range(count)]
    late = [started_game(2, days_per_move=3)[0].pk for _ in range(count)]
    Game.objects.filter(pk__in=reminded).update(reminder_at=now - timedelta(minutes=1))
    Game.objects.filter(pk__in=late).update(deadline=now - timedelta(minutes=1), reminder_at=None)
    with CaptureQueriesContext(connection) as captured:
        counts = sweeps.deadlines_sweep()
    assert counts["reminders"] == count and counts["timeouts"] == count, counts
    return len(captured), reminded, late


def test_the_deadlines_sweep_costs_a_bounded_number_of_queries_a_due_game() -> None:
    """Six reminders and six timeouts cost at most five times one of each more than one
    of each (the last session's bench: 418 queries for 10 due games, 42 a game)."""
    with time_machine.travel(timezone.now(), tick=False):
        at_one, _reminded, _late = _sweep_due(1)
        at_six, reminded, late = _sweep_due(6)
    assert at_six - at_one <= 5 * (QUERIES_A_REMINDER + QUERIES_A_TIMEOUT), (at_one, at_six)
    rows = Notification.objects.filter(game_id__in=reminded, kind=NotificationKind.REMINDER)
    assert sorted(rows.values_list("game_id", flat=True)) == sorted(reminded)
    assert not Game.objects.filter(pk__in=reminded, reminder_at__isnull=False).exists()
    timed_out = Notification.objects.filter(game_id__in=late, kind=NotificationKind.TIMED_OUT)
    assert sorted(timed_out.values_list("game_id", flat=True)) == sorted(late)
    moves = Move.objects.filter(game_id__in=late, source=Move.Source.TIMEOUT)
    assert {m.game_id for m in moves} == set(late)
    assert not any(sweeps.deadlines_sweep().values())  # the second sweep finds nothing


def test_a_profile_reads_the_player_s_seats_three_times_and_counts_places_in_one() -> None:
    """Each read of a player's seats costs that player's history (a veteran's 1,100 seats,
    ~25 ms a query at the bench's full size): the counts, places and player counts are one
    aggregate, then the recent games and those in progress — three, not five (issue 31)."""
    from django.contrib.auth.models import AnonymousUser

    from games.selectors.profiles import player_record

    me = UserFactory()
    _add_games(me, 6)  # 3 finished (won, 2 players), 3 in progress
    with CaptureQueriesContext(connection) as captured:
        record = player_record(me.pk, AnonymousUser())
    mine = f'"games_seat"."user_id" = {me.pk}'
    assert sum(mine in q["sql"] for q in captured.captured_queries) == 3
    assert record.finished == 3 and record.wins == 3
    assert record.places == [(1, 3)] and record.by_players == [(2, 3)]
    assert len(record.current) == 3


def _add_leagues(creator: Any, count: int) -> None:
    """Create ``count`` leagues of ``creator``, half of them a group's league inviting a new
    player, each with a new player joined to its first season."""
    for i in range(count):
        player = UserFactory()
        access = Tournament.Access.INVITE if i % 2 else Tournament.Access.OPEN
        league = leagues.league_create(
            creator=creator,
            settings=leagues.LeagueSettings(
                name=f"League {i}",
                access=access,
                invited=(player.username,) if access == Tournament.Access.INVITE else (),
                bank_days=3,
            ),
        )
        leagues.league_opt_in(league_id=league.pk, user=player)


def test_the_leagues_list_runs_as_many_queries_with_30_leagues_as_with_1() -> None:
    """``/leagues/`` and ``GET /api/v1/leagues`` read the leagues and their newest seasons
    (with the number who joined) whatever their number: no query per league."""
    creator = UserFactory()
    _, secret = tokens.token_create(user=creator, name="counts")
    api = {"HTTP_AUTHORIZATION": f"Bearer {secret}"}
    urls = {
        "leagues, anonymous": (Client(), "/leagues/", {}),
        "leagues, their creator": (client_for(creator), "/leagues/", {}),
        "api leagues": (Client(), "/api/v1/leagues", api),
    }
    _add_leagues(creator, 1)
    one = _counts(urls)
    _add_leagues(creator, 29)
    many = _counts(urls)
    assert one == many, {name: (one[name], many[name]) for name in one}
    listed = client_for(creator).get("/leagues/").content.decode()
    assert listed.count("<tr data-league=") == 30
