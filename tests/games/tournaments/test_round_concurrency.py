"""The two last games of a round end at the same moment: round 2 starts exactly once.

Both games are over; two threads run the step each game's end queues
(``tournament_advance``) at once, each in its own connection. The step locks the
tournament row: the second waits, then finds round 2 started. Without the lock both see
round 1 complete and pair round 2 (one of them then fails on the unique round number).
PostgreSQL (``scripts/with-postgres.sh``); in-memory SQLite cannot share a database
between threads.
"""

from __future__ import annotations

from unittest import mock

import pytest

from games.models import TournamentRound, TournamentTable
from games.play import limits
from games.tournaments import rounds, services
from tests.games.concurrency import at_once, skip_without_shared_database
from tests.games.tournaments.helpers import event, running_games


@pytest.mark.django_db(transaction=True)
def test_two_last_games_ending_together_start_round_two_once() -> None:
    skip_without_shared_database()
    tournament, users = event(4, rounds=3)
    services.tournament_start(tournament_id=tournament.pk, user=users[0])
    games = running_games(tournament)
    assert len(games) == 2
    # both games end at the same moment; their queued steps have not run yet
    with mock.patch("games.core.queue.enqueue_on_commit"):
        for game in games:
            limits.game_end_at_limit(game_id=game.pk)
    said = at_once(lambda _i: rounds.tournament_advance(tournament_id=tournament.pk))
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
