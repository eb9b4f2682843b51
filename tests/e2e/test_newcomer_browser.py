"""The second newcomer trial in a real browser (issue 32).

A board that stays where the player scrolled it on a phone, while an opponent's new tiles
out of sight are still brought into view; the first game against a chosen tier in few
clicks, signed in or through sign-up and the emailed link.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

import engine
from games.core.states import game_state
from games.models import ChatMessage, Game
from games.play import ratings
from tests.e2e.test_board_browser import PHONE, _far_right_tile, _seeded_game
from tests.e2e.test_browser import (  # noqa: F401 (enforced_csp: the policy, enforced)
    DESKTOP,
    PASSWORD,
    POLL_SECONDS,
    _log_in,
    _version,
    _watch_csp,
    _with_password,
    enforced_csp,
)
from tests.engine.rules_helpers import position
from tests.games import playing
from tests.games.factories import UserFactory, client_for, game_at_state, started_game
from tests.games.records.helpers import finished_game

pytestmark = pytest.mark.django_db(transaction=True)

# Whether ``square``'s cell lies wholly inside the board's frame, side to side.
IN_FRAME = """(square) => {
  const frame = document.querySelector(".board-frame").getBoundingClientRect();
  const box = document.querySelector(`#board .sq[data-square="${square}"]`).getBoundingClientRect();
  return box.left >= frame.left - 1 && box.right <= frame.right + 1; }"""

# A lit square wholly in sight: inside the frame and above the phone's docked tray.
TARGET_IN_VIEW = """() => {
  const frame = document.querySelector(".board-frame").getBoundingClientRect();
  const tray = document.getElementById("tray");
  const bottom = tray && getComputedStyle(tray).position === "fixed"
    ? tray.getBoundingClientRect().top : window.innerHeight;
  const sq = [...document.querySelectorAll("#board .sq.target")].find((el) => {
    const box = el.getBoundingClientRect();
    return box.left >= frame.left && box.right <= frame.right && box.top >= 0
      && box.bottom <= bottom; });
  return sq ? sq.dataset.square : null; }"""


def _in_frame_soon(page: Any, squares: list[str]) -> bool:
    """Whether one of ``squares`` is in the frame within 3 s: the frame scrolls to the changes
    once the swap settles (``showChanges`` on htmx:afterSettle), after the version shows."""
    for _attempt in range(30):
        if any(page.evaluate(IN_FRAME, square) for square in squares):
            return True
        page.wait_for_timeout(100)
    return False


def _frame_scroll(page: Any) -> float:
    return float(page.evaluate("document.querySelector('.board-frame').scrollLeft"))


def _scroll_board_to(page: Any, square: str) -> None:
    """Scroll the board's frame sideways (only) so that ``square`` is in its middle."""
    page.evaluate(
        """(square) => { const frame = document.querySelector(".board-frame");
          const sq = document.querySelector(`#board .sq[data-square="${square}"]`);
          frame.scrollLeft += sq.getBoundingClientRect().left - frame.getBoundingClientRect().left
            - (frame.clientWidth - sq.offsetWidth) / 2; }""",
        square,
    )


def _place_a_tile_in_sight(page: Any) -> str:
    """Pick a tile from the tray and place it on a lit square in sight; return the square."""
    before = _version(page)
    page.click("#hand .tiles button.pick >> nth=0")
    page.locator("#board .sq.target").first.wait_for(state="attached")
    square = page.evaluate(TARGET_IN_VIEW)
    assert square, "no lit square in sight"
    page.click(f'#board .sq.target[data-square="{square}"]')
    page.locator("#confirm").wait_for(state="visible")
    page.click("#confirm-ok")
    page.wait_for_selector(f"#game[data-version='{before + 1}']")
    return str(square)


def test_on_a_phone_the_board_stays_where_the_player_scrolled_it(
    browser: Any, live_server: Any
) -> None:
    game, seats = _seeded_game()
    me = game.to_act_seat or 0
    context, page = _log_in(browser, live_server.url, seats[me], f"/games/{game.pk}/", PHONE)
    try:
        assert not page.evaluate(IN_FRAME, "n5"), "column n is in sight from the start"
        _scroll_board_to(page, "n5")
        assert page.evaluate(IN_FRAME, "n5")
        kept = _frame_scroll(page)
        assert kept > 0

        # The player's own actions: the new board is still at column n.
        for _action in range(2):
            _place_a_tile_in_sight(page)
            assert page.evaluate(IN_FRAME, "n5"), "the board snapped back after an action"
            assert abs(_frame_scroll(page) - kept) <= 1

        # An update: the opponent's tiles land in columns n–p, in sight: nothing moves.
        game.refresh_from_db()
        assert game.to_act_seat != me
        version = game.version
        while game.to_act_seat != me:
            game = playing.submit(game, seats, _far_right_tile)
        assert game.version > version
        page.wait_for_selector(
            f"#game[data-version='{game.version}']", timeout=(POLL_SECONDS + 5) * 1000
        )
        assert page.evaluate(IN_FRAME, "n5"), "the board snapped back after an update"
        assert abs(_frame_scroll(page) - kept) <= 1

        # The player looks at column a and plays; the opponent's new tiles, out of sight in
        # columns n–p, are brought into view by the update.
        page.evaluate("document.querySelector('.board-frame').scrollLeft = 0")
        for _action in range(2):
            _place_a_tile_in_sight(page)
            assert _frame_scroll(page) == 0
        game.refresh_from_db()
        placed = []
        while game.to_act_seat != me:
            game = playing.submit(game, seats, _far_right_tile)
            last = game.moves.order_by("-ply").first()
            if last and last.action.startswith("tile"):
                placed.append(last.action.split()[-1])
        assert placed, "the opponent placed no tile in columns n–p"
        page.wait_for_selector(
            f"#game[data-version='{game.version}']", timeout=(POLL_SECONDS + 5) * 1000
        )
        assert _in_frame_soon(page, placed), placed
    finally:
        context.close()


class Clicks:
    """Count the player's clicks on the site's pages (typing in a field is not one)."""

    def __init__(self, page: Any) -> None:
        self.page, self.count = page, 0

    def click(self, selector: str) -> None:
        self.count += 1
        self.page.click(selector)


def _wait_for_my_turn(page: Any, game: Game, me: int) -> None:
    """Wait (the bot may have drawn the first move) until the page shows ``me``'s move."""
    for _wait in range(100):
        game.refresh_from_db()
        if game.to_act_seat == me:
            break
        time.sleep(0.2)
    assert game.to_act_seat == me, "the bot kept the first turn"
    page.wait_for_selector("#game[data-my-turn='1'] #hand .tiles button.pick", timeout=15_000)


@pytest.mark.usefixtures("sweeper")
@pytest.mark.parametrize("tier", ["easy", "hard"])
def test_a_signed_in_player_reaches_the_first_move_against_a_chosen_tier_in_one_click(
    tier: str, browser: Any, live_server: Any, screenshots: Path
) -> None:
    human = _with_password(UserFactory())
    context = browser.new_context(viewport=DESKTOP)
    context.set_default_timeout(10_000)
    page = context.new_page()
    _watch_csp(page)
    try:
        page.goto(f"{live_server.url}/accounts/login/?next=/")
        page.fill("input[name=login]", human.username)
        page.fill("input[name=password]", PASSWORD)
        page.click("form[action='/accounts/login/'] button[type=submit]")
        page.wait_for_url(f"{live_server.url}/")
        # Arrived on the home page: every tier is offered, each with a line on its strength.
        lines = page.locator("#intro .bot-tiers li")
        assert lines.count() == 3
        for n in range(3):
            assert len((lines.nth(n).locator(".small").text_content() or "").split()) >= 5
        clicks = Clicks(page)
        clicks.click(f"#lobby-play-bot-{tier}")
        page.wait_for_url(re.compile(r"/games/\d+/$"))
        game = Game.objects.get(creator=human)
        bot = game.seats.get(is_bot=True)
        assert bot.user.profile.bot_tier == tier
        _wait_for_my_turn(page, game, game.seats.get(user=human).position)
        assert clicks.count <= 3, f"{clicks.count} clicks to the first move"
        # The first move itself: a tile, a square, the confirm step.
        page.click("#hand .tiles button.pick >> nth=0")
        page.click("#board .sq.target >> nth=0")
        page.click("#confirm-ok")
        page.wait_for_selector(f"#game[data-version='{game.version + 1}']")
        page.screenshot(path=str(screenshots / f"newcomer-first-move-{tier}.png"), caret="initial")
    finally:
        context.close()


@pytest.mark.usefixtures("sweeper")
def test_sign_up_from_a_tier_on_the_home_page_returns_to_that_bot_game(
    browser: Any, live_server: Any, screenshots: Path, mailoutbox: list[Any]
) -> None:
    context = browser.new_context(viewport=PHONE)
    context.set_default_timeout(10_000)
    page = context.new_page()
    _watch_csp(page)
    try:
        page.goto(f"{live_server.url}/")
        clicks = Clicks(page)
        clicks.click("#lobby-play-bot-easy")
        page.wait_for_url("**/accounts/signup/**")
        why = page.text_content("#signup-why") or ""
        assert "easy bot" in why and "email you when it is your move" in why, why
        page.screenshot(path=str(screenshots / "newcomer-signup-phone.png"), caret="initial")
        page.fill("input[name=email]", "newcomer@example.com")
        page.fill("input[name=display_name]", "Newcomer")
        page.fill("input[name=password1]", PASSWORD)
        page.fill("input[name=password2]", PASSWORD)
        clicks.click("form[action='/accounts/signup/'] button[type=submit]")
        page.wait_for_url("**/accounts/confirm-email/**")
        assert len(mailoutbox) == 1, [m.subject for m in mailoutbox]
        link = re.search(r"(http\S+/accounts/confirm-email/\?code=\S+)", mailoutbox[0].body)
        assert link is not None, mailoutbox[0].body
        # The email's link, opened in the signing-up browser: the code is filled in.
        path = link.group(1).split("/accounts/", 1)[1]
        page.goto(f"{live_server.url}/accounts/{path}")
        assert page.input_value("input[name=code]"), "the link did not fill the code in"
        clicks.click("form[action='/accounts/confirm-email/'] button[type=submit]")
        # The page after confirming is the bot game asked for, against the easy bot.
        page.wait_for_url(re.compile(r"/games/\d+/$"))
        game = Game.objects.get(creator__email="newcomer@example.com")
        assert page.url.endswith(f"/games/{game.pk}/")
        assert game.seats.get(is_bot=True).user.profile.bot_tier == "easy"
        me = game.seats.get(is_bot=False).position
        _wait_for_my_turn(page, game, me)
        assert clicks.count <= 3, f"{clicks.count} clicks from the home page through sign-up"
        page.screenshot(path=str(screenshots / "newcomer-after-confirm-phone.png"), caret="initial")
        # A reload does not start a second game.
        page.goto(f"{live_server.url}/games/bot?tier=easy")
        assert Game.objects.filter(creator__email="newcomer@example.com").count() == 1
    finally:
        context.close()


def _finished_rated_game() -> tuple[Game, dict[int, Any]]:
    """A 2-player rated game played to its end by random legal actions, then rated."""
    game, seats = finished_game(2, seed=11, is_rated=True)
    state = game_state(game)
    placings = {p.seat: p.rank for p in engine.final_ranking(state)}
    for seat in game.seats.all():
        seat.final_rank = placings[seat.position]
        seat.save(update_fields=["final_rank"])
    ratings.game_rate(game_id=game.pk, ranking=engine.final_ranking(state), dropped_seats=set())
    return game, {n: _with_password(u) for n, u in seats.items()}


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_a_finished_rated_game_fits_1280_px_and_shows_the_rating_change(
    language: str, browser: Any, live_server: Any, screenshots: Path
) -> None:
    game, seats = _finished_rated_game()
    profiles = {n: u.profile for n, u in seats.items()}
    for n, profile in profiles.items():  # long display names, as players choose them
        profile.display_name = f"Nebuchadnezzar the Second of Babylon {n}"
        profile.language = language
        profile.save(update_fields=["display_name", "language"])
    context, page = _log_in(browser, live_server.url, seats[1], f"/games/{game.pk}/", DESKTOP)
    try:
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= DESKTOP["width"], f"the page is {width} px wide"
        # The tie-break column is in sight, inside the window.
        tie = page.locator("#final thead th").last
        box = tie.bounding_box()
        assert box and box["x"] + box["width"] <= DESKTOP["width"], box
        changes = page.locator("#rating-changes li")
        assert changes.count() == 2
        text = page.text_content("#rating-changes") or ""
        for seat in game.seats.all():
            before, after = round(seat.rating_before or 0), round(seat.rating_after or 0)
            assert f"{before} → {after}" in text, text
        page.screenshot(
            path=str(screenshots / f"newcomer-finished-rated-{language}.png"),
            full_page=True,
            caret="initial",
        )
    finally:
        context.close()


def test_the_catastrophes_preview_names_what_it_removes_and_the_log_names_the_scorer(
    browser: Any, live_server: Any, screenshots: Path
) -> None:
    board = {"c5": "r", "c6": "2P", "d5": "k", "e5": "r", "e6": "1K"}
    game, seats = game_at_state(position(board, hands={1: "r b b"}))
    seats = {n: _with_password(u) for n, u in seats.items()}
    context, page = _log_in(browser, live_server.url, seats[1], f"/games/{game.pk}/", DESKTOP)
    try:
        page.click("#hand button[data-group='catastrophe']")
        page.click('#board .sq.target[data-square="e5"]')
        page.locator("#confirm-preview .preview").wait_for(state="attached")
        text = page.text_content("#confirm") or ""
        assert "Place a catastrophe on e5" in text, text
        assert "Destroys the red temple there." in text, text
        assert "Removes your king on e6: no temple is left beside it." in text, text
        page.screenshot(path=str(screenshots / "newcomer-catastrophe-preview.png"), caret="initial")
        page.click("#confirm-cancel")
        # A temple in the kingdom scores for the priest's owner (RULES.md §5.2): the log
        # names that player, not their sign alone.
        page.click("#hand .tiles button[data-group='tile-red']")
        page.click('#board .sq.target[data-square="f6"]')
        page.locator("#confirm").wait_for(state="visible")
        page.click("#confirm-ok")
        page.wait_for_selector(f"#game[data-version='{game.version + 1}']")
        line = page.text_content("#log ol.entries li") or ""
        assert f"1 red VP to {seats[2].username}." in line, line
        assert page.locator("#log ol.entries li .who.sign").count() == 0
    finally:
        context.close()


def test_the_chat_counts_characters_as_one_types_and_refuses_more_than_its_limit(
    browser: Any, live_server: Any
) -> None:
    game, seats = started_game(2, is_rated=False)
    seats = {n: _with_password(u) for n, u in seats.items()}
    context, page = _log_in(browser, live_server.url, seats[1], f"/games/{game.pk}/", PHONE)
    try:
        page.fill("#chat-text", "好" * 12)
        assert (page.text_content("#chat-count") or "").strip() == "12 of 500 characters"
        page.fill("#chat-text", "x" * 600)
        note = page.text_content("#chat-count") or ""
        assert "600 characters: at most 500" in note, note
        assert page.is_disabled("#chat-send")
        assert page.input_value("#chat-text") == "x" * 600  # nothing cut silently
        page.fill("#chat-text", "x" * 500)
        assert page.is_enabled("#chat-send")
        # The server refuses more too, with the same limit in words, and keeps nothing.
        client = client_for(seats[1])
        answer = client.post(
            f"/games/{game.pk}/chat/send", {"text": "y" * 501}, HTTP_HX_REQUEST="true"
        )
        assert "A message has at most 500 characters; this one has 501." in answer.content.decode()
        assert not ChatMessage.objects.filter(game=game).exists()
    finally:
        context.close()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_create_game_error_is_in_view_and_the_address_reloads(
    viewport: dict[str, int], browser: Any, live_server: Any, screenshots: Path
) -> None:
    user = _with_password(UserFactory())
    context = browser.new_context(viewport=viewport)
    context.set_default_timeout(10_000)
    page = context.new_page()
    _watch_csp(page)
    try:
        page.goto(f"{live_server.url}/accounts/login/?next=/")
        page.fill("input[name=login]", user.username)
        page.fill("input[name=password]", PASSWORD)
        page.click("form[action='/accounts/login/'] button[type=submit]")
        page.wait_for_url(f"{live_server.url}/")
        page.fill("#create input[name=invite]", "nobody-by-that-name")
        page.click("#create button[type=submit]")
        page.wait_for_url("**/games/new")
        error = page.locator("#create-errors").bounding_box()
        assert error and error["y"] >= 0 and error["y"] + error["height"] <= viewport["height"]
        assert "nobody-by-that-name" in (page.text_content("#create") or "")
        page.screenshot(path=str(screenshots / f"newcomer-create-error-{viewport['width']}.png"))
        assert not Game.objects.exists()
        reloaded = page.goto(page.url)  # the address as a GET: the form again, no 405
        assert reloaded is not None and reloaded.status == 200
        assert page.is_visible("#create form")
    finally:
        context.close()


def test_on_a_phone_squares_and_tray_buttons_are_at_least_44_px(
    browser: Any, live_server: Any, screenshots: Path
) -> None:
    game, seats = _seeded_game()
    context, page = _log_in(browser, live_server.url, seats[1], f"/games/{game.pk}/", PHONE)
    try:
        sizes = page.evaluate(
            """() => [...document.querySelectorAll(
                 "#board td.sq, #tray button.pick, #tray .tray-acts button")]
               .filter((el) => el.offsetParent !== null)
               .map((el) => { const b = el.getBoundingClientRect();
                 return [el.dataset.square || el.className, b.width, b.height]; })"""
        )
        assert sizes
        small = [s for s in sizes if s[1] < 43.5 or s[2] < 43.5]
        assert not small, small[:5]
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        page.screenshot(path=str(screenshots / "newcomer-targets-phone.png"), caret="initial")
    finally:
        context.close()
