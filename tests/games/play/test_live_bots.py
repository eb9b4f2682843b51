"""A bot plays through a real Redis and a real Celery worker on the ``bots`` queue (issue 15).

The person's moves are made in this process, which queues the bot's task after each commit
(``BOTS_QUEUED``); the worker, a subprocess sharing the test database, plays the bot.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

import engine
from games.core.states import game_state
from games.models import Game, Move
from games.play import submit
from tests import services
from tests.games.bots_helpers import bot_game
from tests.games.mail.test_live_email import _worker_database_url, broker  # noqa: F401
from tests.games.playing import passing

pytestmark = [pytest.mark.live_services, pytest.mark.django_db(transaction=True)]


def _wait_for_the_person(game: Game, position: int, seconds: float = 60) -> Game:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        game.refresh_from_db()
        if game.to_act_seat == position or game.status != Game.Status.ACTIVE:
            return game
        time.sleep(0.2)
    raise AssertionError(f"the bot did not move within {seconds} s")


def test_the_bot_worker_plays_the_bots_turns(settings: Any, broker: str) -> None:  # noqa: F811
    settings.BOTS_QUEUED = True
    env = {"DATABASE_URL": _worker_database_url(), "BOTS_QUEUED": "1"}
    with services.celery_worker(broker, extra_env=env, queues="bots"):
        game, human, position = bot_game(("easy",), days_per_move=None)
        for _turn in range(3):
            game = _wait_for_the_person(game, position)
            while game.to_act_seat == position:
                action = passing(engine.legal_actions(game_state(game)))
                submit.game_submit_action(
                    game_id=game.pk, user=human, action=str(action), expected_version=game.version
                )
                game.refresh_from_db()
        game = _wait_for_the_person(game, position)
    bot_moves = Move.objects.filter(game=game).exclude(seat=position)
    assert bot_moves.count() >= 3
    assert set(bot_moves.values_list("source", flat=True)) == {Move.Source.BOT}
