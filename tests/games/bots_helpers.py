"""Helpers of the bot tests: games against bots, and a human playing them through HTTP."""

from __future__ import annotations

import random
from typing import Any

from games.models import Game
from games.play import bots, lifecycle
from tests.games.factories import UserFactory, client_for, page_actions, page_version

PLY_LIMIT = 3000  # more plies than any game has: a loop that never ends fails instead


def bot_game(bots_tiers: tuple[str, ...], **options: Any) -> tuple[Game, Any, int]:
    """Create a started game of one new person against ``bots_tiers``; return it, the
    person and their seat number (the order of play is drawn at the start)."""
    human = UserFactory()
    game = lifecycle.game_create(
        creator=human, num_players=1 + len(bots_tiers), bots=bots_tiers, **options
    )
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    position = game.seats.get(user=human).position
    assert position is not None
    return game, human, position


def human_plays_over_http(game: Game, human: Any, rng: random.Random, *, check: Any = None) -> Game:
    """Play ``game`` to its end: the person through HTTP (a random action offered on their
    page), the bots by the embedded mode's sweep (``bots.bots_sweep``), one action a run.

    ``check(client, game)``, when given, runs each time the person's page is read.
    Asserts every answer is a success and that the person's answer never holds a bot move.
    """
    client = client_for(human)
    mine = game.seats.get(user=human).position
    for _ply in range(PLY_LIMIT):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            return game
        if game.to_act_seat != mine:
            assert bots.bots_sweep() == 1
            continue
        page = client.get(f"/games/{game.pk}/", HTTP_HX_REQUEST="true")
        assert page.status_code == 200
        if check is not None:
            check(client, game)
        version = page_version(page.content)
        response = client.post(
            f"/games/{game.pk}/act",
            {"action": rng.choice(page_actions(page.content)), "version": version},
            HTTP_HX_REQUEST="true",
        )
        assert response.status_code == 200, response.content[:300]
        game.refresh_from_db()
        assert game.version == version + 1  # the answer came before any bot moved
    raise AssertionError("the game did not end")
