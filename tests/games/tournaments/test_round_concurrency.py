"""The two last games of a round end at the same moment: round 2 starts exactly once.

Both games are over; two threads run the step each game's end queues
(``tournament_advance``) at once, each in its own connection. The step locks the
tournament row: the second waits, then finds round 2 started. Without the lock both see
round 1 complete and pair round 2 (one of them then fails on the unique round number).
PostgreSQL (``scripts/with-postgres.sh``); in-memory SQLite cannot share a database
between threads.
"""

from __future__ import annotations

import threading
from unittest import mock

import pytest
from django.db import connection

from games.models import TournamentRound, TournamentTable
from games.play import limits
from games.tournaments import rounds, services
from tests.games.tournaments.helpers import event, running_games


@pytest.mark.django_db(transaction=True)
def test_two_last_games_ending_together_start_round_two_once() -> None:
    if connection.vendor == "sqlite" and connection.settings_dict["NAME"].startswith(
        ("file:memorydb", ":memory:")
    ):
        pytest.skip("in-memory SQLite locks tables instead of waiting")  # pragma: no cover
    tournament, users = event(4, rounds=3)
    services.tournament_start(tournament_id=tournament.pk, user=users[0])
    games = running_games(tournament)
    assert len(games) == 2
    # both games end at the same moment; their queued steps have not run yet
    with mock.patch("games.core.queue.enqueue_on_commit"):
        for game in games:
            limits.game_end_at_limit(game_id=game.pk)
    barrier = threading.Barrier(2)
    errors: list[BaseException] = []
    said: list[str] = []

    def step() -> None:
        try:
            barrier.wait(timeout=10)
            said.append(rounds.tournament_advance(tournament_id=tournament.pk))
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=step) for _ in games]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not errors, errors
    assert sorted(said) == ["nothing to do", "round 2 started"]
    assert list(
        TournamentRound.objects.filter(tournament=tournament).values_list("number", flat=True)
    ) == [1, 2]
    assert (
        TournamentTable.objects.filter(round__tournament=tournament, round__number=2).count() == 2
    )
    tournament.refresh_from_db()
    assert tournament.current_round == 2
    assert len(running_games(tournament)) == 2
