"""Ratings: once per rated game, ties share a rank, and a rebuild gives the same numbers."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.core.management import call_command
from django.utils import timezone

import engine
from games.models import Game, Profile, Seat
from games.play import lifecycle, ratings
from tests.games.factories import UserFactory, started_game
from tests.games.playing import randomly, submit

pytestmark = pytest.mark.django_db


def _finish(game: Game, ranks: dict[int, int], when: datetime) -> list[engine.Placing]:
    """Mark ``game`` finished with seat → rank as ``_game_finish`` would store it."""
    for seat in game.seats.all():
        seat.final_rank = ranks[seat.position or 0]
        seat.save(update_fields=["final_rank"])
    game.status = Game.Status.FINISHED
    game.finished_at = when
    game.save(update_fields=["status", "finished_at"])
    return [engine.Placing(s, r, (r, r, r, r)) for s, r in sorted(ranks.items())]


def _profile(user: Any) -> Profile:
    return Profile.objects.get(user=user)


def test_rated_four_player_game_with_a_tie_updates_ratings_once() -> None:
    game, seats = started_game(4)
    ranking = _finish(game, {1: 1, 2: 2, 3: 2, 4: 4}, timezone.now())
    changes = ratings.game_rate(game_id=game.pk, ranking=ranking)
    assert len(changes) == 4
    after = {n: (_profile(u).rating_mu, _profile(u).rating_sigma) for n, u in seats.items()}
    assert after[1][0] > after[2][0] == after[3][0] > after[4][0]  # the tie shares its mu
    assert all(_profile(u).rated_games == 1 for u in seats.values())
    seat_rows = {s.position: s for s in Seat.objects.filter(game=game)}
    assert all(s.rating_before == 1500.0 for s in seat_rows.values())
    assert seat_rows[2].rating_after == seat_rows[3].rating_after
    assert seat_rows[1].rating_after > seat_rows[2].rating_after > seat_rows[4].rating_after
    # A second run (a duplicate task, a retried signal) changes nothing.
    assert ratings.game_rate(game_id=game.pk, ranking=ranking) == []
    assert {n: (_profile(u).rating_mu, _profile(u).rating_sigma) for n, u in seats.items()} == after
    assert all(_profile(u).rated_games == 1 for u in seats.values())
    game.refresh_from_db()
    assert game.rated_at is not None


def test_unrated_or_unfinished_games_are_not_rated() -> None:
    game, seats = started_game(2, is_rated=False)
    _finish(game, {1: 1, 2: 2}, timezone.now())
    assert ratings.game_rate(game_id=game.pk) == []
    running, _seats = started_game(2)
    assert ratings.game_rate(game_id=running.pk) == []
    assert not Profile.objects.filter(rated_games__gt=0).exists()


def test_dropped_seats_rank_last() -> None:
    assert ratings.rating_ranks({1: 1, 2: 2, 3: 2, 4: 4}, dropped_seats={1}) == {
        1: 5,
        2: 2,
        3: 2,
        4: 4,
    }


def test_a_game_played_to_the_end_is_rated_when_it_finishes() -> None:
    rng = random.Random(5)
    game, seats = started_game(2)
    while game.status == Game.Status.ACTIVE:
        game = submit(game, seats, randomly(rng))
    assert game.rated_at is not None
    for seat in game.seats.all():
        assert seat.rating_before == 1500.0
        assert seat.rating_after is not None
        assert _profile(seat.user).rated_games == 1
    winner = game.seats.get(final_rank=1)
    assert winner.rating_after is not None and winner.rating_after > 1500.0


def test_recompute_ratings_gives_the_incremental_numbers() -> None:
    users = [UserFactory() for _ in range(6)]
    rng = random.Random(3)
    start = datetime(2026, 1, 1, tzinfo=UTC)
    for n in range(12):
        size = rng.choice([2, 3, 4])
        players = rng.sample(users, size)
        game = lifecycle.game_create(creator=players[0], num_players=size)
        for user in players[1:]:
            lifecycle.game_join(game_id=game.pk, user=user)
        ranks = {p: rng.randint(1, size) for p in range(1, size + 1)}
        ranking = _finish(game, ranks, start + timedelta(hours=n))
        ratings.game_rate(game_id=game.pk, ranking=ranking)
    unrated, _seats = started_game(2, is_rated=False)
    _finish(unrated, {1: 1, 2: 2}, start)

    def snapshot() -> tuple[dict[int, tuple[float, float, int]], dict[int, tuple[Any, Any]]]:
        return (
            {
                p.user_id: (p.rating_mu, p.rating_sigma, p.rated_games)
                for p in Profile.objects.all()
            },
            {s.pk: (s.rating_before, s.rating_after) for s in Seat.objects.all()},
        )

    incremental = snapshot()
    assert sum(games for _mu, _s, games in incremental[0].values()) > 12
    call_command("recompute_ratings", stdout=open("/dev/null", "w"))  # noqa: SIM115
    assert snapshot() == incremental


def test_display_scale() -> None:
    assert ratings.display_rating(25.0, 25.0 / 3) == 1500.0
    assert ratings.display_rating(30.0, 2.0) == 1500.0 + 40 * 24
    assert ratings.display_uncertainty(25.0 / 3) == 667


def test_recompute_ranks_a_dropped_seat_last_as_the_live_rating_did() -> None:
    start = datetime(2026, 1, 1, tzinfo=UTC)
    game, seats = started_game(3)
    # Seat 1 resigned, yet its score sheet came out best: live rating put it last.
    Seat.objects.filter(game=game, position=1).update(dropped_at=start)
    ranking = _finish(game, {1: 1, 2: 2, 3: 3}, start)
    ratings.game_rate(game_id=game.pk, ranking=ranking, dropped_seats={1})
    live = {s.position: (s.rating_before, s.rating_after) for s in game.seats.all()}
    assert live[1][1] < live[1][0]  # the dropped seat lost rating
    call_command("recompute_ratings", stdout=open("/dev/null", "w"))  # noqa: SIM115
    assert {s.position: (s.rating_before, s.rating_after) for s in game.seats.all()} == live
