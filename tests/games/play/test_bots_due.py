"""The bots' sweep reads the games due and no other row (issue 31): ``Game.bot_to_act``."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

import engine
from games.core.states import game_state
from games.models import Game, Seat
from games.play import bots, submit
from games.play.botturns import waiting_bot_seat
from tests.games.bots_helpers import bot_game
from tests.games.factories import started_game

pytestmark = pytest.mark.django_db


def _reloaded(game: Game) -> Game:
    return Game.objects.prefetch_related("seats__user__profile").get(pk=game.pk)


def test_the_mark_says_whether_a_bot_plays_the_seat_to_act_after_every_ply() -> None:
    game, human, position = bot_game(("easy", "easy"))
    rng = random.Random(7)
    seen = set()
    for _ply in range(400):
        game = _reloaded(game)
        assert game.bot_to_act == (waiting_bot_seat(game) is not None)
        seen.add(game.bot_to_act)
        if game.status != Game.Status.ACTIVE:
            break
        if game.to_act_seat == position:
            legal = engine.legal_actions(game_state(game))
            submit.game_submit_action(
                game_id=game.pk,
                user=human,
                action=str(rng.choice(legal)),
                expected_version=game.version,
            )
        else:
            assert bots.games_waiting_on_bots(older_than=timedelta(0)) == [(game.pk, game.version)]
            assert bots.bots_sweep() == 1
    assert game.status == Game.Status.FINISHED and not game.bot_to_act
    assert seen == {True, False}


def test_the_sweep_reads_only_the_games_waiting_on_a_bot_in_one_query_without_seats() -> None:
    waiting, _, _ = bot_game(("easy",))
    waiting = _reloaded(waiting)
    person = waiting.seats.get(is_bot=False)
    while not waiting.bot_to_act:  # the person acts first: play until the bot must act
        legal = engine.legal_actions(game_state(waiting))
        submit.game_submit_action(
            game_id=waiting.pk,
            user=person.user,
            action=str(legal[0]),
            expected_version=waiting.version,
        )
        waiting.refresh_from_db()
    assert waiting.bot_to_act
    for _ in range(3):  # history: finished games with bots, games waiting on a person
        done, _, _ = bot_game(("easy",))
        Game.objects.filter(pk=done.pk).update(status=Game.Status.FINISHED, to_act_seat=None)
        started_game(2)
    with CaptureQueriesContext(connection) as captured:
        due = bots.games_waiting_on_bots(older_than=timedelta(0))
    assert due == [(waiting.pk, waiting.version)]
    assert len(captured) == 1
    assert Seat._meta.db_table not in captured[0]["sql"]  # no seat of any game is read
