"""The home page's lists bounded, cached and kept current; the pages of the rest (issue 31).

The open games and the games to watch are cached for every visitor
(``games.selectors.lobby``): a service that changes them drops them, so a new open game, a
seat taken, a start and an end show at the next request; a move shows within the cache's
``LIST_SECONDS`` (a move does not drop the lists: the lead's decision, issue 31). The home
page lists the first rows of each list and links to the rest: ``/games/open`` in keyset
pages, a profile's games in progress in keyset pages.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
import time_machine
from django.test import Client
from django.utils import timezone

import engine
from games.core.states import game_state
from games.models import Game
from games.play import lifecycle, limits, submit
from games.selectors import lobby, profiles
from tests.games.factories import UserFactory, client_for

pytestmark = pytest.mark.django_db


def _section(body: str, name: str) -> str:
    start = body.index(f'id="{name}"')
    return body[start : body.index("</section>", start)]


def test_an_open_game_a_seat_taken_a_start_and_an_end_show_at_once_a_move_within_30_s() -> None:
    visitor = Client()
    assert 'id="no-open-games"' in visitor.get("/").content.decode()  # cached: no game
    creator, second, third = UserFactory(), UserFactory(), UserFactory()
    game = lifecycle.game_create(creator=creator, num_players=3)
    open_games = _section(visitor.get("/").content.decode(), "open-games")
    assert f"/games/{game.pk}/" in open_games and "1 of 3 seats taken" in open_games
    lifecycle.game_join(game_id=game.pk, user=second)
    assert "2 of 3 seats taken" in _section(visitor.get("/").content.decode(), "open-games")
    lifecycle.game_join(game_id=game.pk, user=third)  # the last seat: the game starts
    body = visitor.get("/").content.decode()
    assert f"/games/{game.pk}/" not in _section(body, "open-games")
    watch = _section(body, "watch-games")
    assert f'data-watch="{game.pk}"' in watch and "no move yet" in watch
    game.refresh_from_db()
    player = next(s.user for s in game.seats.all() if s.position == game.to_act_seat)
    action = str(engine.legal_actions(game_state(game))[0])
    submit.game_submit_action(
        game_id=game.pk, user=player, action=action, expected_version=game.version
    )
    # A move does not drop the cached lists: the games to watch may lag it ...
    assert "no move yet" in _section(visitor.get("/").content.decode(), "watch-games")
    # ... until the cache's LIST_SECONDS have passed (the cache entry expires).
    with time_machine.travel(timezone.now() + timedelta(seconds=lobby.LIST_SECONDS + 1)):
        assert "1 move" in _section(visitor.get("/").content.decode(), "watch-games")
        # A game's end drops the games to watch: gone at the next request.
        assert limits.game_end_at_limit(game_id=game.pk)
        assert f'data-watch="{game.pk}"' not in _section(
            visitor.get("/").content.decode(), "watch-games"
        )


def test_the_home_page_lists_the_first_open_games_and_the_open_games_page_all_in_pages(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    made = [
        lifecycle.game_create(creator=UserFactory(), num_players=2).pk
        for _ in range(lobby.HOME_OPEN_GAMES + 3)
    ]
    body = client_for(UserFactory()).get("/").content.decode()
    open_games = _section(body, "open-games")
    joins = [int(pk) for pk in re.findall(r'data-join="(\d+)"', open_games)]
    assert joins == made[: lobby.HOME_OPEN_GAMES]  # the oldest first, no more
    assert f'href="/games/open">All {len(made)} open games</a>' in open_games
    # The page of them all, in pages of 5: each game once, in order, then no next link.
    monkeypatch.setattr(lobby, "OPEN_GAMES_PAGE", 5)
    seen: list[int] = []
    url = "/games/open"
    for _ in range(len(made)):
        page = Client().get(url)
        assert page.status_code == 200
        text = page.content.decode()
        seen += [
            int(pk) for pk in re.findall(r'href="/games/(\d+)/"', _section(text, "open-games"))
        ]
        found = re.search(r'href="\?after=(\d+)" rel="next"', text)
        if found is None:
            break
        url = f"/games/open?after={found.group(1)}"
    assert seen == made
    # A game that started meanwhile leaves the pages; the cursor still reads after it.
    lifecycle.game_join(game_id=made[4], user=UserFactory())
    rest = Client().get(f"/games/open?after={made[4]}").content.decode()
    assert re.findall(r'href="/games/(\d+)/"', _section(rest, "open-games"))[0] == str(made[5])


@pytest.mark.parametrize("after", ["x", "0", "-3", str(2**63), "1.5"])
def test_a_bad_page_of_open_games_is_refused_with_the_first_page(after: str) -> None:
    made = lifecycle.game_create(creator=UserFactory(), num_players=2)
    page = Client().get(f"/games/open?after={after}")
    assert page.status_code == 400
    body = page.content.decode()
    assert "That page of open games does not exist" in body
    assert f"/games/{made.pk}/" in _section(body, "open-games")


def test_a_profile_lists_its_games_in_progress_in_pages_the_newest_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    me = UserFactory()
    for _ in range(4):
        started = lifecycle.game_create(creator=me, num_players=2)
        lifecycle.game_join(game_id=started.pk, user=UserFactory())  # in progress
        lifecycle.game_create(creator=me, num_players=3)  # open: listed too
    ended = lifecycle.game_create(creator=me, num_players=2)
    lifecycle.game_join(game_id=ended.pk, user=UserFactory())
    Game.objects.filter(pk=ended.pk).update(status=Game.Status.FINISHED)  # not listed
    running = Game.objects.filter(seats__user=me).exclude(pk=ended.pk)
    made = sorted(running.values_list("pk", flat=True), reverse=True)
    monkeypatch.setattr(profiles, "CURRENT_GAMES", 3)
    seen: list[int] = []
    url = f"/players/{me.pk}/"
    for _ in range(len(made)):
        page = Client().get(url)
        assert page.status_code == 200
        text = page.content.decode()
        listed = text[text.index('id="current-games"') : text.index('id="recent-games"')]
        rows = [int(pk) for pk in re.findall(r'<li><a href="/games/(\d+)/"', listed)]
        assert len(rows) <= 3
        seen += rows
        found = re.search(r'href="\?current_after=(\d+)#current-games" rel="next"', listed)
        if found is None:
            break
        url = f"/players/{me.pk}/?current_after={found.group(1)}"
    assert seen == made  # every game in progress or open once, the newest first
    refused = Client().get(f"/players/{me.pk}/?current_after=nope")
    assert refused.status_code == 400
    assert "That page of games in progress does not exist" in refused.content.decode()
