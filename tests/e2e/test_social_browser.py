"""Two players chat in a real browser (issue 18), notes save as typed, charts are photographed.

Each player's page picks the other's message up by the chat's own poll, without a reload
(a marker set in ``window`` survives). Screenshots of a profile with its rating chart and
of a finished game's colour charts go to ``var/screenshots/``. The site's policy is
enforced, as in ``test_browser``: the charts are SVG images and need no inline style.
"""

from __future__ import annotations

import time
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone

from games.models import Game, PrivateNote, Seat
from tests.e2e.test_browser import DESKTOP, _log_in, _with_password, enforced_csp  # noqa: F401
from tests.games.factories import started_game
from tests.games.records.helpers import finished_game

pytestmark = pytest.mark.django_db(transaction=True)

CHAT_POLL_SECONDS = 4  # templates/games/_chat.html: hx-trigger="every 4s"


def _wait_for_images(page: Any, selector: str) -> None:
    """Wait until every image under ``selector`` is drawn (no eval: the policy forbids it)."""
    script = (
        f"() => [...document.querySelectorAll({selector!r})]"
        ".every(i => i.complete && i.naturalWidth > 0)"
    )
    for _ in range(100):
        if page.evaluate(script):
            return
        time.sleep(0.1)
    raise AssertionError(f"{selector}: not drawn")


def _say(page: Any, text: str) -> None:
    page.fill("#chat-text", text)
    page.click("#chat-send")
    page.wait_for_selector(f"#chat .chat-text:text-is('{text}')")


def test_two_players_chat_without_reloading_and_the_charts_are_drawn(
    browser: Any, live_server: Any, screenshots: Path
) -> None:
    game, seats = started_game(2)
    alice, bob = _with_password(seats[1]), _with_password(seats[2])
    path = f"/games/{game.pk}/"
    a_context, a_page = _log_in(browser, live_server.url, alice, path, DESKTOP)
    b_context, b_page = _log_in(browser, live_server.url, bob, path, DESKTOP)
    try:
        for page in (a_page, b_page):
            page.evaluate("window.__noReload = 1")
        _say(a_page, "Good luck, have fun <3")
        b_page.wait_for_selector(
            "#chat .chat-text:text-is('Good luck, have fun <3')",
            timeout=(CHAT_POLL_SECONDS * 3) * 1000,
        )
        _say(b_page, "You too!")
        a_page.wait_for_selector(
            "#chat .chat-text:text-is('You too!')", timeout=(CHAT_POLL_SECONDS * 3) * 1000
        )
        assert a_page.evaluate("window.__noReload") == 1
        assert b_page.evaluate("window.__noReload") == 1
        assert a_page.input_value("#chat-text") == ""  # the box is empty for the next line
        a_page.locator("#chat").screenshot(path=str(screenshots / "chat.png"), caret="initial")

        # Notes are saved as they are typed (after a pause), with no button pressed.
        a_page.click("#notes summary")  # folded while empty
        a_page.type("#notes-text", "bob hoards red", delay=20)
        a_page.wait_for_selector("#notes-status:has-text('Saved at')")
        assert PrivateNote.objects.get(user=alice).text == "bob hoards red"
        assert "bob hoards red" not in b_page.content()

        # A finished game (random legal actions to the end, written as its moves: how it
        # was played is no subject here, the charts of its moves are) and its colour charts.
        finished, _finished_seats = finished_game(2, seed=18)
        a_page.goto(f"{live_server.url}/games/{finished.pk}/")
        a_page.wait_for_selector("#colour-charts img")
        _wait_for_images(a_page, "#colour-charts img")
        a_page.locator("#colour-charts").screenshot(
            path=str(screenshots / "colour-charts.png"), caret="initial"
        )

        # Earlier rated games of Alice's, so her rating chart has several points.
        base = timezone.now() - timedelta(days=30)
        for n, rating in enumerate((1480.0, 1512.0, 1533.0)):
            older, older_seats = started_game(2)
            Game.objects.filter(pk=older.pk).update(
                status=Game.Status.FINISHED, finished_at=base + timedelta(days=7 * n)
            )
            Seat.objects.filter(game=older).update(final_rank=1, rating_after=rating)
            Seat.objects.filter(game=older, user=older_seats[1]).update(user=alice)
        a_page.goto(f"{live_server.url}/players/{alice.pk}/")
        _wait_for_images(a_page, "#rating-chart img")
        a_page.screenshot(
            path=str(screenshots / "profile-chart.png"), full_page=True, caret="initial"
        )
    finally:
        a_context.close()
        b_context.close()
