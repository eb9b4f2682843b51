"""Helpers of the tournament tests: make an event and end its games as the sweep would."""

from __future__ import annotations

from typing import Any

from games.models import Game, Tournament
from games.play import limits
from games.tournaments import services
from tests.games.factories import UserFactory


def event(players: int, **settings: Any) -> tuple[Tournament, list[Any]]:
    """Create a tournament with ``settings`` and register ``players`` new users."""
    creator = UserFactory()
    tournament = services.tournament_create(
        creator=creator,
        settings=services.TournamentSettings(name=settings.pop("name", "Spring Swiss"), **settings),
    )
    users = [UserFactory() for _ in range(players)]
    for user in users:
        services.tournament_register(tournament_id=tournament.pk, user=user)
    tournament.refresh_from_db()
    return tournament, [creator, *users]


def running_games(tournament: Tournament) -> list[Game]:
    """Return the tournament's games in progress, by id."""
    return list(
        Game.objects.filter(
            tournament_table__round__tournament=tournament, status=Game.Status.ACTIVE
        ).order_by("pk")
    )


def end_round(tournament: Tournament) -> None:
    """End every game of the current round as the sweep does at the maximum duration."""
    for game in running_games(tournament):
        limits.game_end_at_limit(game_id=game.pk)
