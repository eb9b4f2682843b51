"""Play a bot now in a real browser (issue 15): one click, a move with the mouse, the reply.

The bot plays in the background, as beside ``make run``: a thread here runs the embedded
mode's sweep (``bots.bots_sweep``) twice a second, standing in for ``manage.py run_sweeps``;
the page learns of the reply by its poll, without a reload.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from games.models import Game
from tests.e2e.test_browser import (
    DESKTOP,
    PASSWORD,
    PHONE,
    POLL_SECONDS,
    _play_tile_with_mouse,
    _version,
    _with_password,
)
from tests.games.factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize(("viewport", "name"), [(DESKTOP, "desktop"), (PHONE, "phone")])
def test_play_a_bot_now_then_a_move_with_the_mouse_and_the_bots_reply(
    browser: Any,
    live_server: Any,
    screenshots: Path,
    sweeper: None,
    viewport: dict[str, int],
    name: str,
) -> None:
    human = _with_password(UserFactory())
    context = browser.new_context(viewport=viewport)
    context.set_default_timeout(10_000)
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/accounts/login/?next=/")
        page.fill("input[name=login]", human.username)
        page.fill("input[name=password]", PASSWORD)
        page.click("form[action='/accounts/login/'] button[type=submit]")
        page.wait_for_selector("#lobby-play-bot")
        # The "signed in" message floats under the site's header, not over its links.
        toast = page.locator(".messages li").first
        toast.wait_for(state="visible")
        header, box = page.locator("header.site").bounding_box(), toast.bounding_box()
        assert header and box and box["y"] >= header["y"] + header["height"] - 1, (header, box)
        page.screenshot(path=str(screenshots / f"home-logged-in-{name}.png"), full_page=True)
        page.click("#lobby-play-bot")
        page.wait_for_selector("#game[data-version]")
        game = Game.objects.get(creator=human)
        mine = game.seats.get(user=human).position
        assert page.get_attribute("#game", "data-seat") == str(mine)
        # The bot may move first (the draw): wait for the person's move, then show it.
        for _wait in range(100):
            game.refresh_from_db()
            if game.to_act_seat == mine:
                break
            time.sleep(0.2)
        assert game.to_act_seat == mine, "the bot kept the first turn"
        page.reload()
        page.wait_for_selector("#hand .tiles button.pick")
        page.evaluate("window.__marker = 42")
        for _action in range(3):  # a turn is two actions (RULES.md §2), or one and a decision
            _play_tile_with_mouse(page)
            game.refresh_from_db()
            if game.to_act_seat != mine:
                break
        assert game.to_act_seat != mine
        after_mine = _version(page)
        moved_at = time.monotonic()
        page.wait_for_function(
            "v => Number(document.getElementById('game').dataset.version) > v",
            arg=after_mine,
            timeout=(POLL_SECONDS + 5) * 1000,
        )
        waited = time.monotonic() - moved_at
        assert page.evaluate("window.__marker") == 42, "the page was reloaded"
        assert waited <= POLL_SECONDS + 3, f"the bot's reply showed after {waited:.1f} s"
        assert "Bot (medium)" in (page.text_content("body") or "")
        page.screenshot(path=str(screenshots / f"bot-reply-{name}.png"), full_page=True)
    finally:
        context.close()


def test_the_home_page_logged_out_offers_play_a_bot_now(
    browser: Any, live_server: Any, screenshots: Path
) -> None:
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/")
        assert page.is_visible("#intro #lobby-play-bot") and page.is_visible("#no-watch-games")
        page.screenshot(path=str(screenshots / "home-logged-out.png"), full_page=True)
        page.set_viewport_size(PHONE)
        page.screenshot(path=str(screenshots / "home-logged-out-phone.png"), full_page=True)
        page.click("#lobby-play-bot")
        page.wait_for_url("**/accounts/signup/?next=%2Fgames%2Fbot%3Ftier%3Dmedium")
    finally:
        context.close()
