"""The board and tray in a real browser (issue 16), one game flow per width.

At 1366×900 and at 390×844, in one seeded 2-player game (seed chosen so that the first
seat holds three temples): a tile from the tray, taken back with Undo, then a leader and a
tile from the tray by mouse or tap; the opponent's page catches up within its poll
interval; the opponent's leader starts a revolt, its preview said so, the attacker commits
and the defender answers in their own context; the opponent swaps; then the first seat
completes a red 2×2 (the preview says a monument may be built) and builds the monument
with a button naming its 2×2 in words. Along the way: squares ≥ 36 CSS px on the phone, no
sideways page scroll, a page at most two screens tall, and cumulative layout shift ≤ 0.1
on each page over a turn with a decision. Screenshots go to ``var/screenshots/board-*``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import engine
from games.core.states import game_state, state_to_db
from games.management.commands.verify_games import game_mismatch
from games.models import Game
from tests.e2e.test_browser import (  # noqa: F401 (enforced_csp: the policy, enforced)
    POLL_SECONDS,
    _log_in,
    _version,
    _with_password,
    enforced_csp,
)
from tests.games import playing
from tests.games.factories import started_game

pytestmark = pytest.mark.django_db(transaction=True)

SEED = 987654334  # seat 1 is dealt three temples (red tiles): enough for a red 2×2 by turn 3
WIDTHS = {"desktop": {"width": 1366, "height": 900}, "phone": {"width": 390, "height": 844}}
PHONE = WIDTHS["phone"]

# Cumulative layout shift as web.dev defines it (the web-vitals library's rule): the layout
# shifts not caused by input, grouped in session windows (a gap under 1 s, at most 5 s
# long); the page's CLS is its largest window, so a long test's many live updates, each
# small and seconds apart, are not added up into one figure. Evaluated through the DevTools
# protocol, so the page's Content-Security-Policy does not apply to it.
CLS_WATCH = """() => { window.__cls = 0; let sum = 0, first = 0, last = 0;
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    if (e.hadRecentInput) { continue; }
    if (sum && e.startTime - last < 1000 && e.startTime - first < 5000) { sum += e.value; }
    else { sum = e.value; first = e.startTime; }
    last = e.startTime; window.__cls = Math.max(window.__cls, sum);
  }
}).observe({type: "layout-shift", buffered: true}); }"""


TARGET_IN_SIGHT = """() => {
  const tray = document.getElementById("tray");
  const docked = tray && getComputedStyle(tray).position === "fixed";
  const bottom = docked ? tray.getBoundingClientRect().top : window.innerHeight;
  return [...document.querySelectorAll("#board .sq.target")].some((sq) => {
    const box = sq.getBoundingClientRect();
    return box.top >= 0 && box.bottom <= bottom + 1;
  });
}"""


def _seeded_game() -> tuple[Game, dict[int, Any]]:
    game, seats = started_game(2, is_rated=False)
    game.seed = SEED
    state = engine.new_game(2, SEED, open_scoring=game.open_scoring)
    game.state = state_to_db(state)
    game.to_act_seat = state.to_act
    game.save(update_fields=["seed", "state", "to_act_seat"])
    return game, {n: _with_password(u) for n, u in seats.items()}


def _shot(page: Any, screenshots: Path, width: str, name: str) -> None:
    page.screenshot(
        path=str(screenshots / f"board-{width}-{name}.png"), full_page=True, caret="initial"
    )


def _pick_and_place(page: Any, pick: str, square: str) -> str:
    """Pick ``pick`` (a tray button's selector), tap ``square``; return the confirm's text."""
    page.click(pick)
    # A highlighted square is in sight: on a phone, above the docked tray (not under it).
    page.wait_for_function(TARGET_IN_SIGHT, timeout=3000)
    target = page.locator(f'#board .sq.target[data-square="{square}"]')
    target.wait_for(state="visible")
    target.click()
    page.locator("#confirm").wait_for(state="visible")
    page.locator("#confirm-preview .preview").wait_for(state="attached")
    return page.text_content("#confirm") or ""


def _confirm(page: Any) -> None:
    before = _version(page)
    page.click("#confirm-ok")
    page.wait_for_selector(f"#game[data-version='{before + 1}']")


LAYOUT = """(() => {
  const box = (sel) => { const el = document.querySelector(sel);
    const r = el && el.getBoundingClientRect();
    return r && r.width && r.height ? {x: r.x, y: r.y, w: r.width, h: r.height} : null; };
  const root = document.documentElement;
  return {sq: box('#board td.sq'), board: box('#board'), tray: box('#tray'),
          page: root.scrollWidth, tall: root.scrollHeight};
})()"""


def _layout(page: Any) -> dict[str, Any]:
    """The square's, board's and tray's boxes and the page's size, read in one go.

    A swap may still be replacing the tray or the board when a decision shows: the boxes are
    read in one script (a swap cannot fall between them) and again until all three are laid out.
    """
    page.locator("#tray").wait_for(state="visible")
    for _attempt in range(50):
        sizes: dict[str, Any] = page.evaluate(LAYOUT)
        if sizes["sq"] and sizes["board"] and sizes["tray"]:
            return sizes
        page.wait_for_timeout(100)
    raise AssertionError(f"the board and tray are not laid out: {sizes}")


def _layout_checks(page: Any, viewport: dict[str, int], *, phone: bool) -> None:
    sizes = _layout(page)
    square, board, tray = sizes["sq"], sizes["board"], sizes["tray"]
    assert sizes["page"] <= viewport["width"] + 1, f"the page scrolls sideways: {sizes}"
    if phone:
        assert square["w"] >= 36 and square["h"] >= 36, f"squares under 36 px: {sizes}"
        assert sizes["tall"] <= 2 * viewport["height"], f"page over two screens: {sizes}"
        assert tray["y"] + tray["h"] >= viewport["height"] - 1, f"tray not at the foot: {sizes}"
    else:
        assert tray["x"] >= board["x"] + board["w"] - 1, f"not side by side: {sizes}"


@pytest.mark.parametrize("width", list(WIDTHS))
def test_a_game_on_the_board_and_tray(
    width: str, browser: Any, live_server: Any, screenshots: Path
) -> None:
    viewport = WIDTHS[width]
    phone = width == "phone"
    game, seats = _seeded_game()
    path = f"/games/{game.pk}/"
    first_context, me = _log_in(browser, live_server.url, seats[1], path, viewport)
    second_context, other = _log_in(browser, live_server.url, seats[2], path, viewport)
    try:
        for page in (me, other):
            page.evaluate(CLS_WATCH)
        _shot(me, screenshots, width, "1-start")
        _layout_checks(me, viewport, phone=phone)

        # Turn 1: a tile from the tray, taken back, then a leader and a tile.
        start = game_state(game)
        text = _pick_and_place(me, "#hand .tiles button[data-group='tile-black']", "a1")
        assert "settlement on a1" in text, text
        _confirm(me)
        me.click("#hand button.undo")
        me.locator("#confirm").wait_for(state="visible")
        me.locator("#confirm-preview .preview").wait_for(state="attached")
        assert "Takes back your last action" in (me.text_content("#confirm") or "")
        _shot(me, screenshots, width, "2-undo-confirm")
        _confirm(me)
        game.refresh_from_db()
        assert game_state(game) == start and game.version == 2 and game_mismatch(game) is None
        assert me.locator('#board .sq[data-square="a1"] svg.piece').count() == 0
        assert me.locator("#hand button.undo").count() == 0
        text = _pick_and_place(me, "#hand .supply button[data-group='leader-king']", "e10")
        assert "Place your king on e10" in text, text
        _confirm(me)
        _pick_and_place(me, "#hand .tiles button[data-group='tile-red']", "j7")
        assert "last action" in (me.text_content("#confirm-preview") or "")
        _confirm(me)
        moved_at = time.monotonic()
        assert me.locator('#board .sq[data-square="e10"] use[href="#p-king"]').count() == 1
        _shot(me, screenshots, width, "3-turn-played")

        # The opponent's page shows the turn within its poll interval.
        other.wait_for_selector("#game[data-version='4']", timeout=(POLL_SECONDS + 3) * 1000)
        assert time.monotonic() - moved_at <= POLL_SECONDS + 2
        assert other.locator('#board .sq[data-square="j7"].changed').count() == 1

        # Turn 2: the opponent's king starts a revolt; the preview says so before sending.
        text = _pick_and_place(other, "#hand .supply button[data-group='leader-king']", "g10")
        assert "Starts a revolt over the king: you 1 against" in text, text
        _shot(other, screenshots, width, "4-revolt-preview")
        _confirm(other)
        other.click('#decision button[data-action="commit 0"]')
        other.locator("#confirm").wait_for(state="visible")
        _confirm(other)
        # The defender answers in their own context, once their page has polled.
        me.wait_for_selector("#decision.pending", timeout=(POLL_SECONDS + 3) * 1000)
        _shot(me, screenshots, width, "5-defender-decision")
        _layout_checks(me, viewport, phone=phone)
        me.click('#decision button[data-action="commit 0"]')
        me.locator("#confirm").wait_for(state="visible")
        _confirm(me)
        assert me.locator("#players .gain[data-gain-seat='1']").count() == 1  # +1 red
        _shot(me, screenshots, width, "6-revolt-won")

        # The opponent swaps a tile: the turn passes back.
        other.wait_for_selector("#tray-swap, details.swap", timeout=(POLL_SECONDS + 3) * 1000)
        other.click("details.swap summary")
        other.locator("form.swap-pick input[name=swap]").first.check()
        other.click("form.swap-pick button[type=submit]")
        other.locator("#confirm").wait_for(state="visible")
        assert (other.text_content("#confirm-words") or "").startswith("Swap 1 tile: ")
        _confirm(other)

        # Turn 3: two temples complete a red 2×2 with i7 and j7: a monument.
        me.wait_for_selector("#game[data-my-turn='1']", timeout=(POLL_SECONDS + 3) * 1000)
        _pick_and_place(me, "#hand .tiles button[data-group='tile-red']", "i8")
        _confirm(me)
        text = _pick_and_place(me, "#hand .tiles button[data-group='tile-red']", "j8")
        assert "you may build a monument" in text, text
        _confirm(me)
        build = me.locator('#decision button[data-action="monument red-black i7"]')
        assert (build.text_content() or "").strip() == "red/black · i7–j8"
        _shot(me, screenshots, width, "7-monument-offer")
        build.click()
        assert "2×2 square i7–j8" in (me.text_content("#confirm-words") or "")
        _confirm(me)
        assert me.locator('#board .sq[data-square="i7"] svg.mon-piece').count() == 1
        _layout_checks(me, viewport, phone=phone)
        _shot(me, screenshots, width, "8-monument-built")
        for page in (me, other):
            cls = page.evaluate("window.__cls")
            assert cls <= 0.1, f"cumulative layout shift {cls:.3f}"
        game.refresh_from_db()
        assert game_mismatch(game) is None
    finally:
        first_context.close()
        second_context.close()


def test_a_piece_picked_on_a_small_phone_shows_its_squares_above_the_docked_tray(
    browser: Any, live_server: Any
) -> None:
    """A short window (a small phone with its browser's bars), the docked tray over all but
    the board's first rows: picking a piece scrolls one of its squares into sight above the
    tray, not merely into the window under it."""
    game, seats = _seeded_game()
    small = {"width": 360, "height": 460}
    context, page = _log_in(browser, live_server.url, seats[1], f"/games/{game.pk}/", small)
    try:
        assert not page.evaluate(TARGET_IN_SIGHT)  # nothing highlighted yet
        page.click("#hand .tiles button[data-group='tile-black']")
        page.wait_for_function(TARGET_IN_SIGHT, timeout=3000)
    finally:
        context.close()


# What has the focus: its square (if one), accessible name (aria-label), text and id.
FOCUSED = """() => { const el = document.activeElement;
  return {square: el.dataset.square || "", name: el.getAttribute("aria-label") || "",
          text: el.textContent.trim(), tray: !!el.closest("#hand .tiles"), id: el.id}; }"""


def _focused(page: Any) -> dict[str, Any]:
    return page.evaluate(FOCUSED)


def _tab_to_the_tray(page: Any) -> dict[str, Any]:
    """Press Tab until a tile of the tray has the focus (a few stops past the board)."""
    for _press in range(6):
        page.keyboard.press("Tab")
        focused = _focused(page)
        if focused["tray"]:
            return focused
    raise AssertionError(f"six Tabs from the board did not reach the tray: {_focused(page)}")


def _play_by_keys(
    page: Any, *, moves: tuple[tuple[str, str], ...], version: int, shot: Callable[[], None]
) -> dict[str, Any]:
    """From the tray's focused tile: Enter (to its first lit square), ``moves`` (keys, each
    with the square it must reach), Enter (the confirm step, where ``shot`` is called), Enter
    (sent); return what has the focus once the new board is in."""
    page.keyboard.press("Enter")
    for key, square in moves:
        page.keyboard.press(key)
        assert _focused(page)["square"] == square, key
    chosen = _focused(page)
    assert chosen["name"].endswith(", legal"), chosen
    page.keyboard.press("Enter")
    page.locator("#confirm").wait_for(state="visible")
    assert _focused(page)["id"] == "confirm-ok"
    shot()
    page.keyboard.press("Enter")
    page.wait_for_selector(f"#game[data-version='{version}']")
    page.wait_for_selector("#board td.sq:focus")  # given once the new board has settled
    back = _focused(page)
    assert back["square"] == chosen["square"], f"the focus went to {back}, not {chosen}"
    return back


def test_the_board_is_named_and_a_whole_turn_is_played_by_keys_alone(
    browser: Any, live_server: Any, screenshots: Path
) -> None:
    """Every square and tray piece has an accessible name; a square says whether it is empty
    and, while a piece is picked, whether the piece may go there; a whole turn (two tiles) is
    played with the keyboard alone, from the skip link at the top of the page, and after each
    action the focus is back on the board, on the square just played (issue 34)."""
    game, seats = _seeded_game()
    context, page = _log_in(
        browser, live_server.url, seats[1], f"/games/{game.pk}/", WIDTHS["desktop"]
    )
    try:
        unnamed = page.evaluate(
            "(() => { const bad = [];"
            " document.querySelectorAll('#board td.sq').forEach((td) => {"
            "   if (!(td.getAttribute('aria-label') || '').trim()) bad.push(td.dataset.square); });"
            # Drawings on the board are inside their square, whose label says what they show.
            " document.querySelectorAll('#tray svg').forEach((svg) => {"
            "   if (svg.getAttribute('aria-hidden') !== 'true' && !svg.getAttribute('aria-label'))"
            "     bad.push(svg.outerHTML.slice(0, 60)); });"
            " document.querySelectorAll('#tray button').forEach((b) => {"
            "   if (!(b.getAttribute('aria-label') || b.textContent).trim())"
            "     bad.push(b.outerHTML.slice(0, 60)); });"
            " return bad; })()"
        )
        assert unnamed == [], unnamed
        assert page.locator("#board td.sq").count() == 176
        label = page.get_attribute('#board td.sq[data-square="k1"]', "aria-label") or ""
        assert "k1" in label and "temple" in label and "treasure" in label, label
        assert "empty" not in label

        # A typed action the engine refuses is refused before any confirm step, with why.
        page.fill("form.notation input[name=action]", "tile black e1")
        page.keyboard.press("Enter")
        page.wait_for_selector("form.notation .refused")
        assert "land" in (page.text_content("form.notation .refused") or "")
        assert page.locator("#confirm").is_hidden()

        # Keys only, from the top of the page: the first Tab is the skip link to the board.
        page.reload()
        page.wait_for_selector("#game[data-version='0']")
        page.keyboard.press("Tab")
        assert _focused(page)["text"] == "Skip to the board"
        page.keyboard.press("Enter")
        start = _focused(page)
        assert start["square"] == "a1" and start["name"] == "a1, land, empty", start

        # A tile picked with Enter lights its squares, and their names say so; Escape puts
        # it back and returns to it, the names as they were.
        tile = _tab_to_the_tray(page)
        page.keyboard.press("Enter")
        assert _focused(page)["name"] == "a1, land, empty, legal"
        names = page.evaluate(
            "[...document.querySelectorAll('#board td.sq')].map((td) =>"
            " [td.classList.contains('target'), td.getAttribute('aria-label')])"
        )
        assert all(name.endswith(", legal") == lit for lit, name in names), names
        # Every tile of the picked colour is pressed: they are the same piece to play.
        pressed = page.locator("#hand .tiles button[aria-pressed='true']")
        assert pressed.count() >= 1 and pressed.first.get_attribute("aria-label") == tile["name"]
        page.keyboard.press("Escape")
        assert page.locator("#board .sq.target").count() == 0
        assert page.get_attribute('#board td.sq[data-square="a1"]', "aria-label") == (
            "a1, land, empty"
        )
        assert _focused(page)["name"] == tile["name"]

        # The first action: the tile on a2 (a land square next to nothing: a quiet tile), on
        # the way there the arrows follow the board's rows and columns as drawn, and Home and
        # End go to a row's ends.
        tour = (("End", "p1"), ("ArrowDown", "p2"), ("Home", "a2"), ("ArrowUp", "a1"))
        tour += (("ArrowRight", "b1"), ("ArrowLeft", "a1"), ("ArrowDown", "a2"))
        played = _play_by_keys(
            page,
            moves=tour,
            version=1,
            shot=lambda: _shot(page, screenshots, "keyboard", "confirm"),
        )
        assert played["name"] == f"a2, land, {tile['name']}", played
        assert page.locator('#board .sq[data-square="a2"] svg.piece.tile').count() == 1

        # The second action, from the board to the tray again: the next tile, on its first
        # lit square. The turn passes; the focus stays on the board.
        tile = _tab_to_the_tray(page)
        played = _play_by_keys(page, moves=(), version=2, shot=lambda: None)
        assert tile["name"] in played["name"] and "empty" not in played["name"], played
        game.refresh_from_db()
        assert game.to_act_seat == 2, "the turn did not pass"
        _shot(page, screenshots, "keyboard", "turn-played")
    finally:
        context.close()


def _far_right_tile(legal: tuple[engine.Action, ...]) -> engine.Action:
    """A tile placed in columns n–p (off a phone's first view of the board), else a pass."""
    for action in legal:
        if isinstance(action, engine.PlaceTile) and str(action).split()[-1][0] in "nop":
            return action
    return next(a for a in legal if isinstance(a, engine.Pass))


def test_on_a_phone_the_board_scrolls_sideways_to_the_opponents_last_move(
    browser: Any, live_server: Any
) -> None:
    """The opponent placed tiles in the board's right-hand columns: the page opens with one
    of the changed squares in sight in the board's frame, not only columns a to i."""
    game, seats = _seeded_game()
    mover = game.to_act_seat or 0
    while game.to_act_seat == mover:
        game = playing.submit(game, seats, _far_right_tile)
    changed = [m.action.split()[-1] for m in game.moves.all() if m.action.startswith("tile")]
    assert changed and all(square[0] in "nop" for square in changed), changed
    context, page = _log_in(
        browser, live_server.url, seats[game.to_act_seat or 0], f"/games/{game.pk}/", PHONE
    )
    try:
        in_sight = page.evaluate(
            """() => { const frame = document.querySelector(".board-frame").getBoundingClientRect();
              return [...document.querySelectorAll("#board .sq.changed")].filter((sq) => {
                const box = sq.getBoundingClientRect();
                return box.left >= frame.left && box.right <= frame.right; }).length; }"""
        )
        assert in_sight > 0
    finally:
        context.close()
