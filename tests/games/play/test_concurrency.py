"""Several requests submit for the same game and version at once: exactly one applies.

Runs on both databases of ``make test``: on PostgreSQL ``select_for_update`` queues the
submissions on the game row; on SQLite the settings' IMMEDIATE transactions serialise
writers (the test database is a file there, so threads share it as in production).
"""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command

import engine
from games.core.states import game_state
from games.models import Game, Move
from tests.games.concurrency import at_once, skip_without_shared_database
from tests.games.factories import client_for, started_game

THREADS = 6


@pytest.mark.django_db(transaction=True)
def test_simultaneous_submissions_apply_exactly_once() -> None:
    skip_without_shared_database()
    game, seats = started_game(2)
    actor = seats[game.to_act_seat or 1]
    legal = [str(a) for a in engine.legal_actions(game_state(game))]
    clients = [client_for(actor) for _ in range(THREADS)]

    def submit(i: int) -> int:
        response: Any = clients[i].post(
            f"/games/{game.pk}/act",
            {"action": legal[i % len(legal)], "version": 0},
            HTTP_HX_REQUEST="true",
        )
        return int(response.status_code)

    statuses = at_once(submit, THREADS, timeout=60)
    assert sorted(statuses) == [200] + [409] * (THREADS - 1)
    game.refresh_from_db()
    assert game.version == 1
    assert Move.objects.filter(game=game).count() == 1
    call_command("verify_games")
    assert Game.objects.count() == 1
