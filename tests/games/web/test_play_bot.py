"""Play a bot now (issue 15): one POST starts an unrated game against the medium bot."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games.models import Game, Move
from games.play import bots
from tests.games.factories import UserFactory, client_for

pytestmark = pytest.mark.django_db


def test_one_post_starts_an_unrated_two_player_game_against_the_medium_bot() -> None:
    human = UserFactory()
    client = client_for(human)
    home = client.get("/").content.decode()
    nav = home[home.index("<nav") : home.index("</nav>")]
    assert 'action="/games/bot"' in nav and 'id="lobby-play-bot"' in home
    response = client.post("/games/bot")
    game = Game.objects.get(creator=human)
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    assert game.status == Game.Status.ACTIVE and game.num_players == 2 and not game.is_rated
    bot = game.seats.get(is_bot=True)
    assert bot.user.profile.bot_tier == "medium"
    page = client.get(response["Location"]).content.decode()
    assert "🤖 Bot (medium)" in page and "unrated" in page
    if game.to_act_seat == bot.position:  # the draw gave the bot the first move
        assert not Move.objects.filter(game=game).exists()  # not played in the request
        assert bots.bots_sweep() == 1


def test_the_draw_of_seats_gives_the_bot_either_place() -> None:
    human = UserFactory()
    client = client_for(human)
    places = set()
    for _game in range(24):  # 24 fair draws all alike: one chance in 2**23
        client.post("/games/bot")
        game = Game.objects.filter(creator=human).latest("pk")
        places.add(game.seats.get(user=human).position)
        client.post(f"/games/{game.pk}/resign", {"confirm": "1"})  # bot games per account are few
        assert Game.objects.get(pk=game.pk).status == Game.Status.ABORTED
        if places == {1, 2}:
            break
    assert places == {1, 2}


def test_logged_out_it_leads_to_sign_up_and_back() -> None:
    visitor = Client()
    home = visitor.get("/").content.decode()
    assert 'id="nav-play-bot"' in home and 'id="lobby-play-bot-easy"' in home  # POST forms
    for response in (visitor.get("/games/bot"), visitor.post("/games/bot")):
        assert response.status_code == 302
        assert response["Location"] == "/accounts/signup/?next=%2Fgames%2Fbot%3Ftier%3Dmedium"
    assert not Game.objects.exists()


def test_back_from_logging_in_the_page_offers_the_button_and_changes_nothing() -> None:
    client = client_for(UserFactory())
    page = client.get("/games/bot")
    assert page.status_code == 200
    assert 'id="page-play-bot"' in page.content.decode()
    assert not Game.objects.exists()


def test_a_bot_game_beyond_the_limit_is_refused_with_a_message_and_nothing_created(
    settings: Any,
) -> None:
    settings.BOT_GAMES_PER_ACCOUNT = 1
    client = client_for(UserFactory())
    client.post("/games/bot")
    response = client.post("/games/bot")
    assert response.status_code == 400
    assert "games with bots open or in progress" in response.content.decode()
    assert Game.objects.count() == 1


def test_resigning_a_bot_game_says_it_is_over_not_aborted_by_an_administrator() -> None:
    """Against bots only, resigning ends the game (issue 28); the player is told so, and
    the page does not blame an administrator (a newcomer's report)."""
    human = UserFactory()
    client = client_for(human)
    client.post("/games/bot", {"tier": "easy"})
    game = Game.objects.filter(creator=human).latest("pk")
    page = client.post(f"/games/{game.pk}/resign", {"confirm": "1"}, follow=True)
    text = page.content.decode()
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED
    assert "You resigned: the game is over and not rated." in text
    assert "your seat is now played automatically" not in text
    assert "Every person in the game resigned or was dropped" in text
    assert "aborted by an administrator" not in text
