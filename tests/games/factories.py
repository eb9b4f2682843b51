"""Factories and helpers for the games tests (factory_boy; games are made through services)."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import factory
from django.contrib.auth import get_user_model
from django.db import transaction
from django.test import Client

from games.models import Game
from games.play import lifecycle

User = get_user_model()

DATA_ACTION = re.compile(r'data-action="([^"]+)"')
DATA_VERSION = re.compile(r'id="game"[^>]*data-version="(\d+)"')


class UserFactory(factory.django.DjangoModelFactory):
    """A user with a unique name and no usable password (tests log in with force_login)."""

    class Meta:
        model = User

    username = factory.Sequence(lambda n: f"player{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.com")
    password = "!unusable"  # a hash starting with "!" never matches; hashing is slow


@contextmanager
def kept_for_the_module(django_db_blocker: Any) -> Iterator[None]:
    """Let a module-scoped fixture write rows its module's tests share: in a transaction
    rolled back after the module's last test (each test runs in a savepoint inside it,
    ``django_db``, rolled back after it). ``django_db_blocker``: pytest-django's fixture."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield
        transaction.set_rollback(True)


def started_game(num_players: int = 2, **options: Any) -> tuple[Game, dict[int, Any]]:
    """Create and fill a game through the services; return it and seat number → user."""
    users = [UserFactory() for _ in range(num_players)]
    game = lifecycle.game_create(creator=users[0], num_players=num_players, **options)
    for user in users[1:]:
        lifecycle.game_join(game_id=game.pk, user=user)
    game.refresh_from_db()
    seats = {seat.position: seat.user for seat in game.seats.all()}
    return game, seats


def client_for(user: Any) -> Client:
    """Return a test client logged in as ``user``."""
    client = Client()
    client.force_login(user)
    return client


def page_actions(content: bytes) -> list[str]:
    """Return the engine actions (``data-action`` notations) a page or partial offers, in order.

    The Undo button (``data-action="undo"``, issue 16) is left out: it is not an engine
    action, and a random walk that may take back every move need never end.
    """
    import html

    return [html.unescape(a) for a in DATA_ACTION.findall(content.decode()) if a != "undo"]


def page_version(content: bytes) -> int:
    """Return the ``data-version`` of the ``#game`` element."""
    match = DATA_VERSION.search(content.decode())
    assert match, "no #game element with data-version"
    return int(match.group(1))


def play_random_plies(game: Game, seats: dict[int, Any], plies: int, rng: random.Random) -> Game:
    """Advance ``game`` by up to ``plies`` random actions taken from the acting seat's page."""
    clients = {n: client_for(u) for n, u in seats.items()}
    for _ in range(plies):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        assert game.to_act_seat is not None
        client = clients[game.to_act_seat]
        page = client.get(f"/games/{game.pk}/", HTTP_HX_REQUEST="true")
        action = rng.choice(page_actions(page.content))
        response = client.post(
            f"/games/{game.pk}/act",
            {"action": action, "version": page_version(page.content)},
            HTTP_HX_REQUEST="true",
        )
        assert response.status_code == 200, response.content[:500]
    game.refresh_from_db()
    return game


def game_at_state(state: Any, **options: Any) -> tuple[Game, dict[int, Any]]:
    """Return a started game whose snapshot is ``state`` (e.g. a diagram position).

    The game does not replay from its seed (``verify_games`` would flag it): for page and
    service tests of one position only.
    """
    from games.core.states import state_to_db

    game, seats = started_game(state.num_players, **options)
    game.state = state_to_db(state)
    game.to_act_seat = state.to_act
    game.save(update_fields=["state", "to_act_seat"])
    return game, seats


def settings_form_data(client: Client) -> dict[str, Any]:
    """Return the settings page's form as the browser would post it unchanged."""
    form = client.get("/settings").context["form"]
    data = {k: v for k, v in form.initial.items() if v is not None}
    for name, field in form.fields.items():
        if field.initial is not None:  # an empty field (no quiet hours) is not posted
            data.setdefault(name, field.initial)
    return data
