"""Helpers of the tournament and league tests: make an event, play a few plies, end its
games as the sweep would, and scan its pages and API for a running game's secrets."""

from __future__ import annotations

import json
import random
from typing import Any

from django.test import Client

from games.accounts import tokens
from games.models import Game, League, Tournament
from games.play import limits
from games.tournaments import leagues, services
from tests.games.factories import UserFactory
from tests.games.leaks import assert_json_no_leak, assert_no_leak
from tests.games.playing import randomly, submit
from tests.games.reach import templates_reached


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


def invite_only(creator: Any, *invited: Any, **settings: Any) -> Tournament:
    """Create "Club Swiss", an invitation-only tournament of ``creator`` inviting ``invited``
    (by username) with ``settings``."""
    return services.tournament_create(
        creator=creator,
        settings=services.TournamentSettings(**_inviting("Club Swiss", invited, settings)),
    )


def group_league(creator: Any, *invited: Any, **settings: Any) -> League:
    """Create "Club League", a group's league of ``creator`` inviting ``invited`` (by
    username) with ``settings``."""
    return leagues.league_create(
        creator=creator,
        settings=leagues.LeagueSettings(**_inviting("Club League", invited, settings)),
    )


def _inviting(name: str, invited: tuple[Any, ...], settings: dict[str, Any]) -> dict[str, Any]:
    return {
        "name": name,
        "access": Tournament.Access.INVITE,
        "invited": tuple(u.username for u in invited),
        **settings,
    }


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


def play_a_few(tournament: Tournament, plies: int = 8, seed: int = 30) -> list[Game]:
    """Play ``plies`` random plies at each running game of the event; return the games."""
    rng = random.Random(seed)
    for game in running_games(tournament):
        seats = {s.position: s.user for s in game.seats.all()}
        for _ply in range(plies):
            game = submit(game, seats, randomly(rng))
    return running_games(tournament)


def assert_pages_hide_the_games(
    pages: dict[str, tuple[Client, list[str]]], games: list[Game], player: Any
) -> dict[tuple[str, str], bytes]:
    """Get each viewer's paths: 200, no row reached, nothing hidden of ``games`` shown.

    ``pages``: viewer name → (its client, its paths); the viewer named "player" is
    ``player``, who sees their own seat's hand. Returns each (viewer, path)'s content.
    """
    contents = {}
    for name, (client, paths) in pages.items():
        for path in paths:
            with templates_reached() as reached:
                response = client.get(path)
            assert response.status_code == 200, (name, path)
            assert not reached.found, reached.found
            for game in games:
                seat = game.seats.filter(user=player).values_list("position", flat=True).first()
                assert_no_leak(response.content, game, seat if name == "player" else None)
            contents[name, path] = response.content
    return contents


def assert_api_hides_the_games(
    user: Any, paths: list[str], games: list[Game]
) -> dict[tuple[bool, str], Any]:
    """Ask ``paths`` anonymously and with ``user``'s token: 200 and nothing hidden shown.

    Returns each (with a token, path)'s JSON.
    """
    token = tokens.token_create(user=user, name="t")[1]
    answers = {}
    for signed, client in ((False, Client()), (True, Client(HTTP_AUTHORIZATION=f"Bearer {token}"))):
        for path in paths:
            response = client.get(path)
            assert response.status_code == 200, (path, response.content[:200])
            payload = json.loads(response.content)
            for game in games:
                seat = game.seats.filter(user=user).values_list("position", flat=True).first()
                assert_json_no_leak(payload, game, seat if signed else None)
            answers[signed, path] = payload
    return answers


def creation_form(**change: str) -> dict[str, str]:
    """Return a valid POST of ``/tournaments/new`` (a Swiss of 2-player tables), changed."""
    data = {
        "name": "Form Swiss",
        "kind": "swiss",
        "table_size": "2",
        "min_table_size": "2",
        "rounds": "3",
        "max_players": "8",
        "bye_points": "0",
        "days_per_move": "3",
        "max_game_days": "30",
        "access": "open",
    }
    return {**data, **change}


def league_form(**change: str) -> dict[str, str]:
    """Return a valid POST of ``/leagues/new`` (a rated league of 2-player tables), changed."""
    data = {
        "name": "Spring League",
        "table_size": "2",
        "division_size": "6",
        "promote": "1",
        "season_weeks": "6",
        "opt_in_days": "7",
        "days_per_move": "3",
        "is_rated": "on",
    }
    return {**data, **change}
