"""The navigation bar leads to every page a player looks for."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.games.factories import UserFactory, client_for

pytestmark = pytest.mark.django_db


def test_a_player_reaches_profile_settings_leaderboard_and_rules_from_the_bar() -> None:
    user = UserFactory()
    client = client_for(user)
    body = client.get("/").content.decode()
    nav = body[body.index("<nav") : body.index("</nav>")]
    for link in (f"/players/{user.pk}/", "/settings", "/leaderboard", "/rules/"):
        assert f'href="{link}"' in nav
        assert client.get(link).status_code == 200


def test_a_visitor_sees_log_in_sign_up_leaderboard_and_rules() -> None:
    body = Client().get("/").content.decode()
    nav = body[body.index("<nav") : body.index("</nav>")]
    for link in ("/accounts/login/", "/accounts/signup/", "/leaderboard", "/rules/"):
        assert f'href="{link}"' in nav
    assert "/settings" not in nav
