"""A tab left open across a log-out or log-in gets a clear answer, not Django's CSRF help."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Game
from tests.games.factories import started_game

pytestmark = pytest.mark.django_db


def post_from_a_stale_tab(client: Client, game: Game, **headers: str) -> object:
    client.cookies["csrftoken"] = "a" * 32  # the token the old tab holds no longer matches
    return client.post(
        f"/games/{game.pk}/act",
        {"action": "pass", "version": 0, "csrfmiddlewaretoken": "b" * 32},
        **headers,
    )


def test_htmx_request_reloads_the_page_with_a_message_and_changes_nothing() -> None:
    game, seats = started_game(2)
    client = Client(enforce_csrf_checks=True)
    client.force_login(seats[1])
    response = post_from_a_stale_tab(client, game, HTTP_HX_REQUEST="true")
    assert response.status_code == 403 and response.headers["HX-Refresh"] == "true"
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "Your session changed since this page was loaded" in page
    game.refresh_from_db()
    assert game.version == 0 and not game.moves.exists()


def test_plain_post_gets_a_styled_page_without_debug_help() -> None:
    game, seats = started_game(2)
    client = Client(enforce_csrf_checks=True)
    response = post_from_a_stale_tab(client, game)
    body = response.content.decode()
    assert response.status_code == 403
    assert "Your session changed since this page was loaded" in body
    assert 'id="nav-rules"' in body  # the site's own layout
    assert "CSRF_FAILURE_VIEW" not in body and "csrf_token" not in body


def test_the_way_back_never_leads_off_the_site() -> None:
    game, _ = started_game(2)
    client = Client(enforce_csrf_checks=True)
    body = post_from_a_stale_tab(client, game, HTTP_REFERER="https://evil.example/x").content
    assert b"evil.example" not in body and b'href="/"' in body
    own = f"http://testserver/games/{game.pk}/"
    body = post_from_a_stale_tab(client, game, HTTP_REFERER=own).content
    assert f'href="{own}"'.encode() in body
