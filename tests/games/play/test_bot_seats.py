"""Bot seats at creation (issue 15): bots take the other seats, a full game starts, unrated."""

from __future__ import annotations

import pytest

from games.core.errors import JoinRefused
from games.models import Game, Seat
from games.play import lifecycle, ratings
from tests.games.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_a_game_whose_seats_bots_fill_starts_at_once_and_is_unrated() -> None:
    human = UserFactory()
    game = lifecycle.game_create(
        creator=human, num_players=4, is_rated=True, bots=("easy", "easy", "medium")
    )
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert not game.is_rated
    seats = list(game.seats.all())
    assert sorted(s.position for s in seats) == [1, 2, 3, 4]
    assert [s.is_bot for s in seats].count(True) == 3
    assert all(s.user.profile.is_bot for s in seats if s.is_bot)
    assert not ratings.game_is_rateable(game, seats)


def test_a_game_with_a_bot_and_an_open_seat_waits_for_a_person() -> None:
    game = lifecycle.game_create(creator=UserFactory(), num_players=3, bots=("hard",))
    assert game.status == Game.Status.OPEN and not game.is_rated
    joined = lifecycle.game_join(game_id=game.pk, user=UserFactory())
    assert joined.status == Game.Status.ACTIVE


@pytest.mark.parametrize(
    ("players", "bots", "message"),
    [
        (2, ("easy", "easy"), "other than yours"),
        (3, ("medium", "random"), "easy, medium or hard"),
    ],
)
def test_bad_bot_seats_are_refused_and_nothing_is_made(
    players: int, bots: tuple[str, ...], message: str
) -> None:
    before = (Game.objects.count(), Seat.objects.count())
    with pytest.raises(JoinRefused, match=message):
        lifecycle.game_create(creator=UserFactory(), num_players=players, bots=bots)
    assert (Game.objects.count(), Seat.objects.count()) == before
