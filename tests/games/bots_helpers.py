"""Helpers of the bot tests: games against bots, and a human playing them through HTTP."""

from __future__ import annotations

import random
from collections.abc import Callable
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


def hurried(rng: random.Random) -> Callable[[list[str]], str]:
    """Return a person's choice among offered actions who mostly swaps all they may.

    Four times in five the swap of the most tiles when one is offered, else any offered
    action: swapped tiles leave the game, so the bag empties in some 25 turns and a whole
    game against a bot stays cheap to play through HTTP (RULES.md §11, §13.1).
    """

    def choose(actions: list[str]) -> str:
        swaps = [a for a in actions if a.startswith("swap ")]
        if swaps and rng.random() < 0.8:
            return max(swaps, key=len)
        return rng.choice(actions)

    return choose


def sweep_once(game: Game) -> None:
    """Let the embedded mode's sweep play the bot's next action (one action a run)."""
    assert bots.bots_sweep() == 1


def human_plays_over_http(
    game: Game,
    human: Any,
    rng: random.Random,
    *,
    check: Any = None,
    choose: Callable[[list[str]], str] | None = None,
    bots_move: Callable[[Game], None] = sweep_once,
) -> Game:
    """Play ``game`` to its end: the person through HTTP (an action offered on their page,
    ``choose``'s or a random one), the bots by ``bots_move`` (the embedded mode's sweep,
    one action a run, by default).

    ``check(client, game)``, when given, runs each time the person's page is read.
    Asserts every answer is a success and, with the sweep, that the person's answer never
    holds a bot move. While the answer says the person is still to act, it is their next
    page (what the browser shows), so such a ply costs one request.
    """
    client = client_for(human)
    choose = choose or rng.choice
    mine = game.seats.get(user=human).position
    page = None
    for _ply in range(PLY_LIMIT):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            return game
        if game.to_act_seat != mine:
            page = None
            bots_move(game)
            continue
        if page is None or check is not None:
            page = client.get(f"/games/{game.pk}/", HTTP_HX_REQUEST="true")
            assert page.status_code == 200
            if check is not None:
                check(client, game)
        version = page_version(page.content)
        response = client.post(
            f"/games/{game.pk}/act",
            {"action": choose(page_actions(page.content)), "version": version},
            HTTP_HX_REQUEST="true",
        )
        assert response.status_code == 200, response.content[:300]
        if bots_move is sweep_once:
            game.refresh_from_db()
            assert game.version == version + 1  # the answer came before any bot moved
        page = response if b'data-my-turn="1"' in response.content else None
    raise AssertionError("the game did not end")
