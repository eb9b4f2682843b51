"""Tournaments' and leagues' emails (issue 30): a round, a bye, the end, a season's end.

Through the outbox (exactly once, preferences honoured), in each recipient's language,
with nothing hidden of a running game.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.core import mail

from games.accounts import profiles
from games.models import (
    Delivery,
    LeagueSeason,
    Notification,
    NotificationKind,
    Profile,
    Tournament,
)
from games.tournaments import leagues, rounds, services, sweeps
from tests.games.factories import UserFactory
from tests.games.leaks import assert_no_leak
from tests.games.tournaments.helpers import end_round, event, running_games

pytestmark = pytest.mark.django_db(transaction=False)


def _kinds(kind: str) -> list[Notification]:
    return list(Notification.objects.filter(kind=kind).order_by("user_id"))


def test_round_one_tells_each_player_their_game_or_their_bye_once(
    django_capture_on_commit_callbacks: Any,
) -> None:
    tournament, users = event(5, rounds=2, bye_points=1)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_start(tournament_id=tournament.pk, user=users[0])
    games = running_games(tournament)
    seated = {s.user_id: g for g in games for s in g.seats.all()}
    round_rows = _kinds(NotificationKind.TOURNAMENT_ROUND)
    bye_rows = _kinds(NotificationKind.TOURNAMENT_BYE)
    assert {r.user_id for r in round_rows} == set(seated)
    assert all(r.game_id == seated[r.user_id].pk and r.ply == 1 for r in round_rows)
    (bye,) = bye_rows
    assert bye.user_id not in seated and bye.game_id is None
    # the round email stands for the game's own "game started" email: one email, not two
    started = Notification.objects.filter(kind=NotificationKind.GAME_STARTED)
    assert {r.status for r in started} == {Notification.Status.SKIPPED}
    assert len(mail.outbox) == 5
    by_user = {m.to[0]: m for m in mail.outbox}
    for user in users[1:]:
        message = by_user[user.email]
        if user.pk in seated:
            game = seated[user.pk]
            assert message.subject == (
                f"Round 1 of Spring Swiss has started: your game is Game #{game.pk}"
            )
            assert f"/games/{game.pk}/" in message.body
            seat = game.seats.get(user=user).position
            assert_no_leak(message.body.encode(), game, seat)
            assert_no_leak(str(message.alternatives[0][0]).encode(), game, seat)  # type: ignore[attr-defined]
        else:
            assert message.subject == "Round 1 of Spring Swiss: you have a bye"
            assert f"/tournaments/{tournament.pk}/" in message.body
            for game in games:
                assert_no_leak(message.body.encode(), game, None)
    # recording the round again writes no second row
    rounds.tournament_advance(tournament_id=tournament.pk)
    assert len(_kinds(NotificationKind.TOURNAMENT_ROUND)) == 4
    assert len(_kinds(NotificationKind.TOURNAMENT_BYE)) == 1


def test_the_end_of_the_tournament_is_told_to_every_player_once(
    django_capture_on_commit_callbacks: Any,
) -> None:
    tournament, users = event(4, rounds=1)
    services.tournament_start(tournament_id=tournament.pk, user=users[0])
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        end_round(tournament)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    over = _kinds(NotificationKind.TOURNAMENT_OVER)
    assert [r.user_id for r in over] == sorted(u.pk for u in users[1:])
    subjects = [m.subject for m in mail.outbox if "is over: see" in m.subject]
    assert subjects == ["Spring Swiss is over: see the final standings"] * 4
    assert rounds.tournament_advance(tournament_id=tournament.pk) == "not running"
    assert len(_kinds(NotificationKind.TOURNAMENT_OVER)) == 4


def test_a_bye_turned_off_writes_no_row_and_chinese_players_read_chinese(
    django_capture_on_commit_callbacks: Any,
) -> None:
    tournament, users = event(3, rounds=1)
    for user in users[1:]:
        profiles.preference_set(user_id=user.pk, kind="tournament_bye", delivery=Delivery.OFF)
        Profile.objects.update_or_create(user=user, defaults={"language": "zh-hans"})
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_start(tournament_id=tournament.pk, user=users[0])
    assert not _kinds(NotificationKind.TOURNAMENT_BYE)
    (game,) = running_games(tournament)
    assert len(mail.outbox) == 2
    for message in mail.outbox:
        assert message.subject == f"Spring Swiss 第 1 轮已开始：你的对局是第 {game.pk} 局"
        assert "has started" not in message.body


def test_a_season_end_tells_each_member_their_place_and_move_and_no_division_over_email(
    django_capture_on_commit_callbacks: Any,
) -> None:
    league = leagues.league_create(
        creator=UserFactory(), settings=leagues.LeagueSettings(name="Ur League", division_size=4)
    )
    users = [UserFactory() for _ in range(8)]
    for user in users:
        leagues.league_opt_in(league_id=league.pk, user=user)
    season = LeagueSeason.objects.get(league=league)
    with (
        django_capture_on_commit_callbacks(execute=True),
        time_machine.travel(season.starts_at + timedelta(minutes=1)),
    ):
        sweeps.tournaments_sweep()
    season.refresh_from_db()
    mail.outbox.clear()
    with (
        django_capture_on_commit_callbacks(execute=True),
        time_machine.travel(season.ends_at + timedelta(minutes=1)),
    ):
        sweeps.tournaments_sweep()
    assert not _kinds(NotificationKind.TOURNAMENT_OVER)
    rows = _kinds(NotificationKind.SEASON_OVER)
    assert sorted(r.user_id for r in rows) == sorted(u.pk for u in users)
    messages = [m for m in mail.outbox if m.subject == "Ur League: season 1 is over"]
    assert len(messages) == 8
    bodies = " ".join(m.body for m in messages)
    assert bodies.count("You go up a division next season.") == 1
    assert bodies.count("You go down a division next season.") == 1
    assert bodies.count("You stay in your division next season.") == 6
    assert "Season 2 starts at" in bodies and f"/leagues/{league.pk}/" in bodies
