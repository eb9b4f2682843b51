"""Two sweeps end the same league season at the same moment: it rolls over once.

Both threads run ``season_end_due`` at once, each in its own connection, after the
season's weeks are over. The step locks the season's row: the second waits, then finds
the season finished. Without the lock both would close the divisions, write the moves
and open season 2 (one then failing on the unique season number). PostgreSQL
(``scripts/with-postgres.sh``); in-memory SQLite cannot share a database between threads.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine

from games.models import LeagueSeason, Notification, NotificationKind
from games.tournaments import leagues
from tests.games.concurrency import at_once, skip_without_shared_database
from tests.games.factories import UserFactory


@pytest.mark.django_db(transaction=True)
def test_two_sweeps_ending_a_season_together_roll_it_over_once() -> None:
    skip_without_shared_database()
    league = leagues.league_create(
        creator=UserFactory(), settings=leagues.LeagueSettings(name="L", division_size=4)
    )
    for _ in range(8):
        leagues.league_opt_in(league_id=league.pk, user=UserFactory())
    season = LeagueSeason.objects.get(league=league)
    with time_machine.travel(season.starts_at + timedelta(minutes=1)):
        assert leagues.season_start_due(season_id=season.pk) == "started"
    season.refresh_from_db()
    assert season.ends_at is not None
    with time_machine.travel(season.ends_at + timedelta(minutes=1)):
        said = at_once(lambda _i: leagues.season_end_due(season_id=season.pk))
    assert sorted(said) == ["ended", "nothing to do"]
    assert list(league.seasons.values_list("number", "status")) == [
        (1, LeagueSeason.Status.FINISHED),
        (2, LeagueSeason.Status.OPT_IN),
    ]
    assert Notification.objects.filter(kind=NotificationKind.SEASON_OVER).count() == 8
    assert set(season.members.values_list("move", flat=True)) == {"up", "down", "stay"}
