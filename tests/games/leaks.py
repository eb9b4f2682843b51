"""The leak check: what a page may show to a seat (RULES.md §14)."""

from __future__ import annotations

import re

import engine
from games.core.states import game_state
from games.models import Game
from games.web.players import hand_code, score_code

HAND = re.compile(r'data-hand="([^"]*)"')
HAND_SEAT = re.compile(r'data-hand-seat="(\d+)"')
VP_SEAT = re.compile(r'data-vp-seat="(\d+)" data-vp="([^"]*)"')
GAIN_SEAT = re.compile(r'data-gain-seat="(\d+)"')


def assert_no_leak(
    content: bytes, game: Game, viewer: int | None, state: engine.GameState | None = None
) -> None:
    """Assert ``content`` shows ``viewer`` nothing secret of ``game`` at ``state``.

    ``state`` defaults to the game's current state (a replay passes the state it shows).
    No seed, no stretch of the bag's order, no hand but the viewer's own, and totals only
    the viewer's own (hidden scoring) — everything once the game is over.
    """
    state = state or game_state(game)
    text = content.decode()
    data = state.to_dict()
    assert str(game.seed) not in text, "the seed leaked"
    bag = data["bag"]
    if len(bag) >= 12:
        assert bag[:12] not in text and bag[-12:] not in text, "the bag order leaked"
    over = state.is_over
    for shown in HAND.findall(text):
        assert viewer is not None and shown == hand_code(_hand(data, viewer)), "a hand leaked"
    if not over:
        assert not HAND_SEAT.findall(text), "hands are revealed before the end"
    for seat_text in GAIN_SEAT.findall(text):  # "+1 red" (issue 16): only where totals show
        seat = int(seat_text)
        assert over or state.open_scoring or seat == viewer, f"seat {seat}'s points leaked"
    for seat_text, shown in VP_SEAT.findall(text):
        seat = int(seat_text)
        assert over or state.open_scoring or seat == viewer, f"seat {seat}'s totals leaked"
        assert shown == score_code(_scores(data, seat))


def _hand(data: dict, seat: int) -> dict[str, int]:
    return dict(zip(("red", "black", "blue", "green"), data["hands"][seat - 1], strict=True))


def _scores(data: dict, seat: int) -> dict[str, int]:
    vp = dict(zip(("red", "black", "blue", "green"), data["vp"][seat - 1], strict=True))
    return {**vp, "treasures": data["treasures_held"][seat - 1]}


def assert_admin_shows_no_secret(content: bytes, game: Game) -> None:
    """Assert an admin page shows staff nothing secret of ``game`` while it is unfinished.

    No seed, no invitation token, no stretch of the bag's order, no hand, and not the
    colours of any swap (``Move.action`` "swap red blue" is shown as its tile count).
    Everything is public once the game is over (then nothing is checked).
    """
    import html

    from games.models import Move

    game.refresh_from_db()
    if game.status == Game.Status.FINISHED or game.state is None:
        return
    text = html.unescape(content.decode())
    state = game_state(game)
    data = state.to_dict()
    assert str(game.seed) not in text, "the seed leaked"
    assert game.invite_token not in text, "the invitation token leaked"
    bag = data["bag"]
    if len(bag) >= 12:
        assert bag[:12] not in text and bag[-12:] not in text, "the bag order leaked"
    assert hand_code(_hand(data, 1)) not in text, "a hand leaked"
    for action in Move.objects.filter(game=game, action__startswith="swap ").values_list(
        "action", flat=True
    ):
        assert action not in text, f"a swap's colours leaked: {action!r}"
