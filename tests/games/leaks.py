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
    assert_no_private_talk(text, game, viewer)
    bag = data["bag"]
    if len(bag) >= 12:
        assert bag[:12] not in text and bag[-12:] not in text, "the bag order leaked"
    over = state.is_over
    for shown in HAND.findall(text):
        assert viewer is not None and shown == hand_code(_hand(data, viewer)), "a hand leaked"
    if not over:
        assert not HAND_SEAT.findall(text), "hands are revealed before the end"
    for seat_text, shown in VP_SEAT.findall(text):
        seat = int(seat_text)
        assert over or state.open_scoring or seat == viewer, f"seat {seat}'s totals leaked"
        assert shown == score_code(_scores(data, seat))


def assert_no_private_talk(text: str, game: Game, viewer: int | None) -> None:
    """Assert ``text`` holds no private note but ``viewer``'s own (issue 18), and no chat
    line at all for a spectator of a game whose chat is kept from spectators.

    Notes are compared as written and HTML-escaped; each test note is long and unique.
    """
    import html as html_lib

    from games.models import ChatMessage, PrivateNote, Seat

    author = None
    if viewer is not None:
        author = Seat.objects.filter(game=game, position=viewer).values_list("user_id", flat=True)
        author = author.first()
    for user_id, note in PrivateNote.objects.filter(game=game).values_list("user_id", "text"):
        if note and user_id != author:
            for form in (note, html_lib.escape(note)):
                assert form not in text, f"the notes of user {user_id} leaked"
    if viewer is None and not Game.objects.get(pk=game.pk).chat_spectators:
        for line in ChatMessage.objects.filter(game=game).values_list("text", flat=True):
            assert html_lib.escape(line) not in text, "the players' chat leaked to a spectator"


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
