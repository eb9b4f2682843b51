"""Bots play through a real Redis and a real Celery worker on the ``bots`` queue (issue 15).

A person plays a whole 4-player game against one bot of each tier through HTTP in this
process, which queues the bot's task after each commit (``BOTS_QUEUED``); the worker, a
subprocess sharing the test database, plays the bots, one after another when their turns
follow. The hard bot gets the least budget the site has (one search iteration,
``BOT_HARD_TIME_LIMIT=0``) and no pause between actions (``BOT_PAUSE_SECONDS=0``): the
plumbing is under test, not the bots' strength. (One table of the three tiers, not a
2-player game against each in turn: the same tasks, a third of the person's requests.)
"""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from games.models import Game, Move
from tests import services
from tests.games.bots_helpers import bot_game, human_plays_over_http, hurried
from tests.games.mail.test_live_email import _worker_database_url, broker  # noqa: F401

pytestmark = [pytest.mark.live_services, pytest.mark.django_db(transaction=True)]

TIERS = ("easy", "medium", "hard")


def _wait_for_the_worker(game: Game, seconds: float = 30) -> None:
    """Wait until the worker moved ``game`` on from its version now."""
    version = game.version
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if Game.objects.filter(pk=game.pk).values_list("version", flat=True)[0] != version:
            return
        time.sleep(0.02)
    raise AssertionError(f"the bot did not move within {seconds} s")


def test_a_person_plays_a_whole_game_against_every_tier_and_the_worker_plays_the_bots(
    settings: Any,
    broker: str,  # noqa: F811
) -> None:
    settings.BOTS_QUEUED = True
    settings.BOT_PAUSE_SECONDS = 0.0
    env = {
        "DATABASE_URL": _worker_database_url(),
        "BOTS_QUEUED": "1",
        "BOT_PAUSE_SECONDS": "0",
        "BOT_HARD_TIME_LIMIT": "0",
    }
    with services.celery_worker(broker, extra_env=env, queues="bots"):
        game, human, position = bot_game(TIERS, days_per_move=None)
        game = human_plays_over_http(
            game,
            human,
            random.Random(1),
            choose=hurried(random.Random(1)),
            bots_move=_wait_for_the_worker,
        )
    assert game.status == Game.Status.FINISHED
    moves = Move.objects.filter(game=game)
    tiers = dict(game.seats.exclude(user=human).values_list("position", "user__profile__bot_tier"))
    assert sorted(tiers.values()) == sorted(TIERS)
    for seat, tier in tiers.items():
        sources = set(moves.filter(seat=seat).values_list("source", flat=True))
        assert sources == {Move.Source.BOT}, (tier, sources)
    assert set(moves.filter(seat=position).values_list("source", flat=True)) == {Move.Source.PLAYER}
