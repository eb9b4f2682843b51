"""The second newcomer trial in a real browser (issue 32).

A board that stays where the player scrolled it on a phone, while an opponent's new tiles
out of sight are still brought into view.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.test_board_browser import PHONE, _far_right_tile, _seeded_game
from tests.e2e.test_browser import (  # noqa: F401 (enforced_csp: the policy, enforced)
    POLL_SECONDS,
    _log_in,
    _version,
    enforced_csp,
)
from tests.games import playing

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
        assert any(page.evaluate(IN_FRAME, square) for square in placed), placed
    finally:
        context.close()
