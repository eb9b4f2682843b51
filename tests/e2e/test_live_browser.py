"""Moves pushed to the open page (issue 29), in Chromium against the site as ``make run``
serves it: the ASGI app under uvicorn in its own process (``asgi_server``), the streams
reading the version column as in the embedded mode.

A move made elsewhere — another tab, the other player's device (the service, called from
this test's process), a bot's sweep (a thread here, standing in for ``run_sweeps``) — reaches
the page through the stream, which names the version; the page fetches its partial. With the
stream blocked, the poll's back-off brings it instead. An open game's page (its waiting
room) hears each seat taken or given up the same way, then the game's start.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

import engine
from games.core.states import game_state
from games.models import Game
from games.play import lifecycle
from games.play.submit import game_submit_action
from tests.e2e.test_browser import DESKTOP, _play_tile_with_mouse, _version
from tests.games.factories import UserFactory, started_game

pytestmark = pytest.mark.django_db(transaction=True)

WAIT_MS = 15_000


def _signed_in(browser: Any, base_url: str, user: Any) -> Any:
    """A browser context holding ``user``'s session (made by Django's test client)."""
    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport=DESKTOP)
    context.set_default_timeout(WAIT_MS)
    cookie = client.cookies["sessionid"]
    context.add_cookies([{"name": "sessionid", "value": cookie.value, "url": base_url}])
    return context


def _other_player_moves(game: Game, seats: dict[int, Any]) -> int:
    """The seat to act plays its first legal action through the service; the new version."""
    game.refresh_from_db()
    state = game_state(game)
    game_submit_action(
        game_id=game.pk,
        user=seats[state.to_act],
        action=str(engine.legal_actions(state)[0]),
        expected_version=game.version,
    )
    game.refresh_from_db()
    return game.version


def _at_version(page: Any, version: int) -> None:
    page.wait_for_selector(f"#game[data-version='{version}']", timeout=WAIT_MS)


def _board(page: Any) -> str:
    """The board's HTML without its roving tab stop (``tabindex``), which follows the focus
    in each tab: the tab that played gives it to the square played, once the swap settles."""
    return re.sub(r'\s*tabindex="-?\d+"', "", page.inner_html("#board"))


def _polls(page: Any, path: str = "/poll?") -> list[int]:
    """Collect the statuses of the page's polls (or streams: ``/live?``) as they answer."""
    statuses: list[int] = []
    page.on("response", lambda r: statuses.append(r.status) if path in r.url else None)
    return statuses


def test_a_second_tab_updates_itself_after_a_move_in_the_first(
    browser: Any, asgi_server: str
) -> None:
    game, seats = started_game(2)
    me = seats[game_state(game).to_act]
    context = _signed_in(browser, asgi_server, me)
    try:
        first, second = context.new_page(), context.new_page()
        for page in (first, second):
            page.goto(f"{asgi_server}/games/{game.pk}/")
            page.wait_for_selector("#hand .tiles button.pick")
        polls = _polls(second)
        second.evaluate("window.__marker = 7")
        _play_tile_with_mouse(first)  # the player's turn still, in both tabs
        _at_version(second, 1)
        assert second.evaluate("window.__marker") == 7, "the second tab was reloaded"
        assert polls and set(polls) == {200}, polls  # fetched on the stream's word, not polled
        assert _board(second) == _board(first)
    finally:
        context.close()


def test_back_and_forward_land_on_a_current_page(browser: Any, asgi_server: str) -> None:
    game, seats = started_game(2)
    watcher = seats[2 if game_state(game).to_act == 1 else 1]
    context = _signed_in(browser, asgi_server, watcher)
    try:
        page = context.new_page()
        page.goto(f"{asgi_server}/games/{game.pk}/")
        _at_version(page, 0)
        page.goto(f"{asgi_server}/")
        version = _other_player_moves(game, seats)
        page.go_back()
        _at_version(page, version)
        page.go_forward()
        page.wait_for_selector("#lobby-play-bot, main")
        version = _other_player_moves(game, seats)
        page.go_back()
        _at_version(page, version)
    finally:
        context.close()


def test_a_bots_turn_shows_without_waiting_for_a_poll(
    browser: Any, asgi_server: str, sweeper: None
) -> None:
    human = UserFactory()
    game = lifecycle.game_against_bot_create(creator=human)
    mine = game.seats.get(user=human).position
    context = _signed_in(browser, asgi_server, human)
    try:
        page = context.new_page()
        polls, streams = _polls(page), _polls(page, "/live?")
        page.goto(f"{asgi_server}/games/{game.pk}/")
        page.wait_for_selector("#game[data-my-turn='1']")  # the bot may have played first
        for _action in range(3):  # two actions, or one and a decision (RULES.md §2)
            _play_tile_with_mouse(page)
            game.refresh_from_db()
            if game.to_act_seat != mine:
                break
        assert game.to_act_seat != mine
        page.wait_for_selector("#game[data-my-turn='1']")  # the bot's whole turn is on the page
        game.refresh_from_db()
        assert game.to_act_seat == mine and _version(page) == game.version
        assert polls and set(polls) == {200}, polls  # every fetch followed the stream's word
        assert streams == [200], streams  # one stream, open all along
    finally:
        context.close()


def test_with_the_stream_blocked_the_page_still_updates_by_polling(
    browser: Any, asgi_server: str
) -> None:
    game, seats = started_game(2)
    watcher = seats[2 if game_state(game).to_act == 1 else 1]
    context = _signed_in(browser, asgi_server, watcher)
    streams: list[str] = []

    def blocked(route: Any) -> None:
        streams.append(route.request.url)
        route.abort()

    context.route("**/live?*", blocked)
    try:
        page = context.new_page()
        polls = _polls(page)
        page.goto(f"{asgi_server}/games/{game.pk}/")
        _at_version(page, 0)
        version = _other_player_moves(game, seats)
        _at_version(page, version)
        assert streams, "the page never tried the stream"
        assert 200 in polls
    finally:
        context.close()


def test_a_waiting_room_shows_each_join_and_leave_and_then_the_game(
    browser: Any, asgi_server: str
) -> None:
    creator, guest, third = UserFactory(), UserFactory(), UserFactory()
    game = lifecycle.game_create(creator=creator, num_players=3)
    context = _signed_in(browser, asgi_server, creator)
    try:
        page = context.new_page()
        polls, streams = _polls(page), _polls(page, "/live?")
        page.goto(f"{asgi_server}/games/{game.pk}/")
        page.wait_for_selector("#game[data-live-mark='waiting']")
        page.evaluate("window.__marker = 7")
        seats_line = ".waiting-room p"
        assert page.text_content(seats_line).startswith("1 of 3 seats taken")
        lifecycle.game_join(game_id=game.pk, user=guest)
        page.wait_for_function(
            f"document.querySelector('{seats_line}').textContent.startsWith('2 of 3')"
        )
        lifecycle.game_leave(game_id=game.pk, user=guest)
        page.wait_for_function(
            f"document.querySelector('{seats_line}').textContent.startsWith('1 of 3')"
        )
        lifecycle.game_join(game_id=game.pk, user=guest)
        lifecycle.game_join(game_id=game.pk, user=third)  # the last seat: the game starts
        page.wait_for_selector("#game[data-version='0'] #board")
        assert page.evaluate("window.__marker") == 7, "the page was reloaded"
        assert polls and set(polls) == {200}, polls  # fetched on the stream's word only
        # the board's own stream follows the room's: a move reaches the page
        version = _other_player_moves(game, {s.position: s.user for s in game.seats.all()})
        _at_version(page, version)
        assert all(status == 200 for status in streams) and len(streams) == 2, streams
    finally:
        context.close()
