"""The home page for a newcomer (issue 15): what the game is, a bot at once, games to watch."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from games.models import Game
from games.text import seats as seat_text
from tests.games.factories import UserFactory, client_for, started_game

pytestmark = pytest.mark.django_db


def _section(body: str, section_id: str) -> str:
    start = body.index(f'id="{section_id}"')
    return body[start : body.find("</section>", start)]


def test_the_zero_state_says_what_the_game_is_and_links_to_everything_a_newcomer_needs() -> None:
    body = Client().get("/").content.decode()
    intro = _section(body, "intro")
    assert "At the end only your weakest colour counts: a balanced civilization wins." in intro
    rules = Client().get("/rules/").content.decode()
    assert "collect victory points in four colours" in rules  # the rules' own words
    assert 'id="lobby-play-bot"' in intro
    assert 'href="/rules/"' in intro and 'href="/faq/"' in intro
    assert 'href="/accounts/signup/"' in intro
    empty_open = _section(body, "open-games")
    assert 'id="no-open-games"' in empty_open
    assert 'href="/accounts/login/?next=/%23create"' in empty_open  # the way to create one
    assert 'id="no-watch-games"' in _section(body, "watch-games")
    assert 'id="my-games"' not in body


def test_the_zero_state_logged_in_links_the_empty_list_to_the_create_form() -> None:
    body = client_for(UserFactory()).get("/").content.decode()
    assert 'href="#create"' in _section(body, "open-games")
    assert 'id="create"' in body
    assert "You have no games yet" in _section(body, "my-games")


def test_games_in_progress_are_listed_to_watch_most_recent_first_never_private_ones() -> None:
    old, old_seats = started_game(2)
    recent, _ = started_game(3)
    private, _ = started_game(2)
    Game.objects.filter(pk=private.pk).update(is_public=False)
    Game.objects.filter(pk=old.pk).update(updated_at=timezone.now() - timedelta(hours=2))
    waiting = Game.objects.create(creator=UserFactory(), num_players=2)  # open: not to watch
    watch = _section(Client().get("/").content.decode(), "watch-games")
    assert watch.index(f'data-watch="{recent.pk}"') < watch.index(f'data-watch="{old.pk}"')
    assert f"/games/{private.pk}/" not in watch and f"/games/{waiting.pk}/" not in watch
    assert seat_text.display_name(old_seats[1]) in watch
    # A spectator opens it: the game page, without a seat.
    page = Client().get(f"/games/{old.pk}/").content.decode()
    assert 'data-seat=""' in page or "data-seat" not in page
    # A player sees their own game under "My games", not twice.
    mine = client_for(old_seats[1]).get("/").content.decode()
    assert f'data-watch="{old.pk}"' not in _section(mine, "watch-games")
    assert f"/games/{old.pk}/" in _section(mine, "my-games")


def test_the_home_page_costs_the_same_queries_with_many_games(
    django_assert_num_queries: Any,
) -> None:
    def more_games() -> None:
        started_game(2)
        Game.objects.create(creator=UserFactory(), num_players=3).seats.create(user=UserFactory())

    user = UserFactory()
    more_games()
    client = client_for(user)
    # Nothing kept: the session, the user, the player's games in progress (the navigation's
    # count and "My games"' key), "My games"' rows (the ended ones only: the player has no
    # game, so no game or seat to read), the open games (the games, their seats, the count),
    # the games to watch (the games, their seats), the invitations, the follows and the
    # viewer's name.
    with django_assert_num_queries(12):
        client.get("/")
    # Kept (issue 31): "My games" (nothing of the player's changed) and the public lists.
    with django_assert_num_queries(6):
        client.get("/")
    for _ in range(4):
        more_games()
    # New games drop the public lists (read again: 5 queries); "My games" stays kept.
    with django_assert_num_queries(11):
        body = client.get("/").content.decode()
    assert body.count("data-watch=") == 5 and body.count("data-join=") == 5
