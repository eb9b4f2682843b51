"""A player's profile (issue 18): the record and the rating chart, one dot per rated game."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games.accounts import records
from games.models import Game, Seat
from games.play import lifecycle, timeouts
from tests.games.factories import UserFactory, client_for, started_game

pytestmark = pytest.mark.django_db

DOT = re.compile(r'<circle[^>]*class="dot ')


def _finish(game: Game, *, rank: dict[int, int], when: int, lowest: int = 3) -> None:
    """Mark ``game`` finished ``when`` days ago with these ranks and ratings (the record)."""
    Game.objects.filter(pk=game.pk).update(
        status=Game.Status.FINISHED, finished_at=timezone.now() - timedelta(days=when)
    )
    for position, place in rank.items():
        Seat.objects.filter(game=game, position=position).update(
            final_rank=place,
            final_score={"colors": {}, "score": lowest + place},
            rating_before=1500.0,
            rating_after=1500.0 + 10 * when,
        )


def test_the_profile_counts_places_lowest_colours_and_reliability() -> None:
    me = UserFactory()
    games = []
    for n, players in enumerate((2, 3, 2)):
        game, seats = started_game(players)
        Seat.objects.filter(game=game, user=seats[1]).update(user=me)
        games.append(game)
        _finish(game, rank={1: 1 + n % 2, 2: 2 - n % 2}, when=10 - n)
    running, seats = started_game(2)
    Seat.objects.filter(game=running, user=seats[2]).update(
        user=me, dropped_at=timezone.now(), drop_reason="timeouts"
    )
    records.records_rebuild()  # the history written past the services, counted (issue 31)
    unrated = lifecycle.game_create(creator=UserFactory(), num_players=2, is_public=False)
    # Resigning a game against bots leaves no person waiting: not counted against me.
    against_bots = lifecycle.game_create(creator=me, num_players=3, bots=["easy", "medium"])
    timeouts.game_resign(game_id=against_bots.pk, user=me)
    page = Client().get(f"/players/{me.pk}/").content.decode()
    record = page.split('id="record"')[1].split("</section>")[0]
    assert "3 · 2 with 2 players · 1 with 3 players" in record
    assert "place 1: 2 · place 2: 1" in record and "1.33" in record  # average place
    assert "4.33" in record  # lowest colours 4, 5, 4
    assert "75 % · 3 played to the end, 1 dropped (1 by timeouts)" in record
    assert f'href="/games/{running.pk}/"' in page.split('id="current-games"')[1]
    assert f"/games/{unrated.pk}/" not in page
    svg = Client().get(f"/players/{me.pk}/rating.svg")
    assert svg.status_code == 200 and svg["Content-Type"].startswith("image/svg+xml")
    assert len(DOT.findall(svg.content.decode())) == 3  # one point per rated game


def test_a_private_games_rating_is_charted_only_for_its_own_players() -> None:
    owner, guest = UserFactory(), UserFactory()
    game = lifecycle.game_create(creator=owner, num_players=2, is_public=False)
    lifecycle.game_join(game_id=game.pk, user=guest, invite_token=game.invite_token)
    seats = {s.position: s.user for s in game.seats.all()}
    _finish(game, rank={1: 1, 2: 2}, when=3)
    public, _others = started_game(2)
    Seat.objects.filter(game=public, position=1).update(user=UserFactory())
    Seat.objects.filter(game=public, position=2).update(user=seats[1])
    _finish(public, rank={1: 1, 2: 2}, when=1)
    url = f"/players/{seats[1].pk}/rating.svg"
    assert len(DOT.findall(Client().get(url).content.decode())) == 1
    assert len(DOT.findall(client_for(seats[2]).get(url).content.decode())) == 2
    # the count the rating rests on includes the private game: the profile says so (issue 28)
    page = Client().get(f"/players/{seats[1].pk}/").content.decode()
    assert "The rating and the count of rated games include private games" in page
    chinese = Client(HTTP_ACCEPT_LANGUAGE="zh-hans").get(f"/players/{seats[1].pk}/")
    assert "包括私人对局" in chinese.content.decode()


def test_an_unfinished_games_colour_chart_is_no_chart() -> None:
    game, seats = started_game(2)
    for client in (Client(), client_for(seats[1])):
        assert client.get(f"/games/{game.pk}/colours/1.svg").status_code == 404
