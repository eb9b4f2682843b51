"""Helpers of the notification tests: play through the services with on-commit hooks run."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import engine
from games.core.states import game_state
from games.models import Game
from games.play import submit as play_submit


def submit(
    game: Game, seats: dict[int, Any], pick: Callable[[tuple[engine.Action, ...]], engine.Action]
) -> Game:
    """Have the seat that must act in ``game`` play ``pick(legal actions)``; return the game.

    A standing order the move asks answers then too (``orders_answered``), as it would
    in a moment.
    """
    game.refresh_from_db()
    state = game_state(game)
    assert state.to_act is not None
    action = pick(engine.legal_actions(state))
    play_submit.game_submit_action(
        game_id=game.pk,
        user=seats[state.to_act],
        action=str(action),
        expected_version=game.version,
    )
    orders_answered()
    game.refresh_from_db()
    return game


def passing(legal: tuple[engine.Action, ...]) -> engine.Action:
    """Prefer ``pass`` (no conflicts), else the first legal action."""
    for action in legal:
        if isinstance(action, engine.Pass):
            return action
    return legal[0]


def randomly(rng: random.Random) -> Callable[[tuple[engine.Action, ...]], engine.Action]:
    """Return a picker choosing uniformly with ``rng``."""
    return lambda legal: rng.choice(legal)


def orders_answered() -> int:
    """Answer every standing order waiting in its own step (issue 28) now; return the plies.

    Makes each pending answer due and runs the orders' sweep, again for an order that the
    answer asks next, as the sweep would over the next minutes.
    """
    from django.utils import timezone

    from games.play.orders import orders_sweep

    answered = 0
    while Game.objects.filter(order_due_at__isnull=False).update(order_due_at=timezone.now()):
        plies = orders_sweep()
        if not plies:
            break
        answered += plies
    return answered
