"""The create form's bot seats, and "unrated" on the lobby and the game page (issue 15)."""

from __future__ import annotations

import pytest

from games.accounts.bots import bot_account
from games.models import Game, Profile
from games.play import ratings
from tests.games.factories import UserFactory, client_for

pytestmark = pytest.mark.django_db


def _create(client, **fields: str):  # type: ignore[no-untyped-def]
    data = {"num_players": "2", "is_public": "on", "is_rated": "on", "days_per_move": "3"}
    return client.post("/games/new", {**data, **fields})


def test_the_creator_fills_the_other_seat_with_a_bot_and_the_game_starts_unrated() -> None:
    human = UserFactory()
    client = client_for(human)
    response = _create(client, seat_2="easy", seat_3="hard")  # seat 3 is beyond 2 players
    game = Game.objects.get(creator=human)
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    assert game.status == Game.Status.ACTIVE and not game.is_rated
    assert [s.user.username for s in game.seats.filter(is_bot=True)] == ["bot-easy"]
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "has started" in page
    assert "unrated" in page
    assert "🤖 Bot (easy)" in page
    lobby = client.get("/").content.decode()
    assert "unrated" in lobby and "🤖 Bot (easy)" in lobby


def test_a_bad_seat_choice_is_refused_with_a_message_and_makes_nothing() -> None:
    human = UserFactory()
    response = _create(client_for(human), seat_2="random")
    assert response.status_code == 400
    assert "Select a valid choice" in response.content.decode()
    assert not Game.objects.filter(creator=human).exists()


def test_the_leaderboard_lists_people_only() -> None:
    bot = bot_account("hard")
    Profile.objects.filter(user=bot).update(
        rated_games=ratings.PROVISIONAL_GAMES + 5, last_active_at="2999-01-01T00:00:00Z"
    )
    person = UserFactory()
    Profile.objects.create(
        user=person, rated_games=ratings.PROVISIONAL_GAMES, last_active_at="2999-01-01T00:00:00Z"
    )
    page = client_for(person).get("/leaderboard").content.decode()
    assert person.username in page
    assert "Bot (hard)" not in page


def test_a_bots_profile_shows_its_name_and_record_without_a_rating() -> None:
    bot = bot_account("medium")
    page = client_for(UserFactory()).get(f"/players/{bot.pk}/").content.decode()
    assert "<h1>🤖 Bot (medium)</h1>" in page
    assert "only unrated games" in page and "Rating:" not in page
    assert 'id="no-rated-games"' not in page  # a bot never plays a rated game: no chart to wait for
