"""The admin: started games' rules are read-only, games are never added by hand."""

from __future__ import annotations

import pytest
from django.contrib.admin.sites import site
from django.test import Client, RequestFactory

from games.models import Game
from tests.games.factories import UserFactory, started_game

pytestmark = pytest.mark.django_db


def test_a_started_games_rules_are_read_only_in_the_admin() -> None:
    game, _ = started_game(2)
    admin = site._registry[Game]
    request = RequestFactory().get("/admin/")
    fields = admin.get_readonly_fields(request, game)
    for name in ("open_scoring", "is_rated", "days_per_move", "deadline"):
        assert name in fields
    open_game = Game.objects.create(creator=UserFactory(), num_players=3)
    assert "open_scoring" not in admin.get_readonly_fields(request, open_game)


def test_the_admin_cannot_add_a_game(admin_client: Client) -> None:
    assert admin_client.get("/admin/games/game/add/").status_code == 403
