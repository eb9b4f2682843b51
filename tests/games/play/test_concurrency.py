"""Several requests submit for the same game and version at once: exactly one applies.

Runs on both databases of ``make test``: on PostgreSQL ``select_for_update`` queues the
submissions on the game row; on SQLite the settings' IMMEDIATE transactions serialise
writers (the test database is a file there, so threads share it as in production).
"""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection

import engine
from games.core.states import game_state
from games.models import Game, Move
from tests.games.factories import client_for, started_game

THREADS = 6


@pytest.mark.django_db(transaction=True)
def test_simultaneous_submissions_apply_exactly_once() -> None:
    if connection.vendor == "sqlite" and connection.settings_dict["NAME"].startswith(
        ("file:memorydb", ":memory:")
    ):
        pytest.skip("in-memory SQLite locks tables instead of waiting")  # pragma: no cover
    game, seats = started_game(2)
    actor = seats[game.to_act_seat or 1]
    legal = [str(a) for a in engine.legal_actions(game_state(game))]
    clients = [client_for(actor) for _ in range(THREADS)]
    barrier = threading.Barrier(THREADS)
    statuses: list[int] = []
    errors: list[BaseException] = []
    lock = threading.Lock()

    def submit(i: int) -> None:
        try:
            barrier.wait(timeout=10)
            response: Any = clients[i].post(
                f"/games/{game.pk}/act",
                {"action": legal[i % len(legal)], "version": 0},
                HTTP_HX_REQUEST="true",
            )
            with lock:
                statuses.append(response.status_code)
        except BaseException as exc:  # noqa: BLE001 - reported below
            with lock:
                errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=submit, args=(i,)) for i in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not errors, errors
    assert sorted(statuses) == [200] + [409] * (THREADS - 1)
    game.refresh_from_db()
    assert game.version == 1
    assert Move.objects.filter(game=game).count() == 1
    call_command("verify_games")
    assert Game.objects.count() == 1
