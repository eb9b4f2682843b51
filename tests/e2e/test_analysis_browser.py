"""The analysis board in a real browser (issue 19): from a finished game's replay to a move
the game never saw, and the game unchanged.

A visitor opens a finished game's replay at step N, follows "Analyse from this step", picks a
tile and a square with the mouse that the game did not play next, and sees the board change
in place (an HTMX swap: a marker set in ``window`` survives); the game's own page and its
rows are the same as before. Runs with the production Content-Security-Policy enforced.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import engine
from games.core.states import replay
from games.models import Game, Move
from tests.e2e.test_browser import DESKTOP, _watch_csp
from tests.e2e.test_browser import enforced_csp as enforced_csp  # noqa: F401 (autouse fixture)
from tests.games.records.helpers import finished_game

pytestmark = pytest.mark.django_db(transaction=True)


# How many pieces of the board have a drawing: a <use> of a missing sprite draws nothing.
DRAWN_PIECES = """() => [...document.querySelectorAll("#board svg.piece")]
  .filter((svg) => svg.getBBox().width > 0).length"""


def _step_with_a_tile_to_place(game: Game) -> int:
    """Return a step from 10 on where the acting seat places tiles (no decision pending)."""
    moves = list(Move.objects.filter(game=game).order_by("ply"))
    for ply in range(10, len(moves)):
        state = replay(game, moves[:ply])
        legal = engine.legal_actions(state)
        if state.pending is None and any(isinstance(a, engine.PlaceTile) for a in legal):
            return ply
    raise AssertionError("no step with a tile to place")


def test_a_replay_opens_the_analysis_board_where_a_move_is_tried(
    browser: Any, live_server: Any, screenshots: Path
) -> None:
    game, _seats = finished_game(2, seed=31)
    step = _step_with_a_tile_to_place(game)
    played_next = Move.objects.get(game=game, ply=step + 1).action
    rows_before = (game.version, game.state, Move.objects.filter(game=game).count())
    context = browser.new_context(viewport=DESKTOP)
    context.set_default_timeout(10_000)
    page = context.new_page()
    _watch_csp(page)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    board_before = page.inner_html("#board")

    page.goto(f"{live_server.url}/games/{game.pk}/replay?ply={step}")
    page.click("#analyse")
    page.wait_for_url(f"**/analysis/?game={game.pk}&ply={step}")
    page.wait_for_selector(f"#game[data-analysis][data-ply='{step}'][data-tried='0']")
    page.evaluate("window.__stayed = true")  # gone if the page were loaded anew
    # The pieces are drawn (the sprite sheet they use is on the page), not empty squares.
    assert page.evaluate(DRAWN_PIECES) == page.locator("#board svg.piece").count() > 10
    assert "Actions are sent as soon" not in page.text_content("#tray")

    tile = page.locator("#hand .tiles button.pick").first
    color = (tile.get_attribute("data-group") or "").removeprefix("tile-")
    tile.click()
    targets = page.locator("#board .sq.target")
    targets.first.wait_for(state="visible")
    squares = [targets.nth(i).get_attribute("data-square") for i in range(targets.count())]
    square = next(s for s in squares if f"tile {color} {s}" != played_next)
    assert not page.locator(f'#board .sq[data-square="{square}"] .piece').count()
    page.click(f'#board .sq[data-square="{square}"]')
    # No confirmation step on the analysis board: the move is tried at once, in place.
    page.wait_for_selector("#game[data-tried='1']")
    assert page.evaluate("window.__stayed === true"), "the page was reloaded, not swapped"
    placed = page.locator(f'#board .sq[data-square="{square}"] .piece.tile.c-{color}')
    assert placed.count() == 1, "the tried tile is not on the board"
    assert page.text_content("ol.line") == f"tile {color} {square}"
    assert f"line=tile+{color}+{square}" in page.url
    page.screenshot(path=str(screenshots / "analysis-board.png"), full_page=True, caret="initial")

    # The real game is unchanged: its rows, and its page as the visitor saw it before.
    game.refresh_from_db()
    assert (game.version, game.state, Move.objects.filter(game=game).count()) == rows_before
    page.goto(f"{live_server.url}/games/{game.pk}/")
    assert page.inner_html("#board") == board_before
    context.close()
