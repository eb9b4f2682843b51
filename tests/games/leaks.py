"""The leak check: what a page may show to a seat (RULES.md §14)."""

from __future__ import annotations

import re
from typing import Any

import engine
from games.core.states import game_state
from games.models import Game, Move
from games.web.players import hand_code, score_code

HAND = re.compile(r'data-hand="([^"]*)"')
HAND_SEAT = re.compile(r'data-hand-seat="(\d+)"')
VP_SEAT = re.compile(r'data-vp-seat="(\d+)" data-vp="([^"]*)"')
ORDERS_SEAT = re.compile(r'data-orders-seat="(\d+)"')
ORDER_TOLD = "Your standing order answered for you."
GAIN_SEAT = re.compile(r'data-gain-seat="(\d+)"')


def assert_no_leak(
    content: bytes, game: Game, viewer: int | None, state: engine.GameState | None = None
) -> None:
    """Assert ``content`` shows ``viewer`` nothing secret of ``game`` at ``state``.

    ``state`` defaults to the game's current state (a replay passes the state it shows).
    No seed, no stretch of the bag's order, no hand but the viewer's own, and totals only
    the viewer's own (hidden scoring) — everything once the game is over. Standing orders
    (issue 17) never, not even after the end: no orders panel but the viewer's own, and
    the log tells of an order's answer only to a viewer whose order answered.
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
    for seat_text in GAIN_SEAT.findall(text):  # "+1 red" (issue 16): only where totals show
        seat = int(seat_text)
        assert over or state.open_scoring or seat == viewer, f"seat {seat}'s points leaked"
    for seat_text, shown in VP_SEAT.findall(text):
        seat = int(seat_text)
        assert over or state.open_scoring or seat == viewer, f"seat {seat}'s totals leaked"
        assert shown == score_code(_scores(data, seat))
    for seat_text in ORDERS_SEAT.findall(text):
        assert viewer is not None and int(seat_text) == viewer, "another seat's orders leaked"
    if ORDER_TOLD in text:
        from games.models import Move

        mine = Move.objects.filter(game=game, seat=viewer or 0, source=Move.Source.ORDER)
        assert viewer is not None and mine.exists(), "another seat's order answer was told"


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


# The only keys of an exported record (docs/record-format.md): built from an explicit list,
# so private notes, standing orders or chat added by other features never slip in.
RECORD_KEYS = {
    "format",
    "format_version",
    "rules",
    "game",
    "complete",
    "perspective",
    "players",
    "seed",
    "moves",
    "result",
    "view",
}
MOVE_KEYS = {"ply", "seat", "action", "source", "time", "hidden", "tiles"}
TEXT_MOVE = re.compile(r"^(\d+)\. (\d+) (.*?)  ; (\S+) ", re.MULTILINE)


def assert_record_no_leak(content: bytes, game: Game, viewer: int | None) -> None:
    """Assert an exported record (JSON or text) of unfinished ``game`` hides what it must.

    No seed, no stretch of the bag's order, no other seat's swapped colours or standing
    orders, and in JSON no key outside the format's, no hand but the viewer's own and
    totals only the viewer's own (hidden scoring). RULES.md §14.
    """
    import json

    state = game_state(game)
    data = state.to_dict()
    text = content.decode()
    assert str(game.seed) not in text, "the seed leaked"
    bag = data["bag"]
    if len(bag) >= 12:
        assert bag[:12] not in text and bag[-12:] not in text, "the bag order leaked"
    if text.startswith("{"):
        record = json.loads(text)
        assert set(record) <= RECORD_KEYS, set(record) - RECORD_KEYS
        assert record["seed"] is None and record["result"] is None
        moves = [(m["seat"], m["action"], m["source"]) for m in record["moves"]]
        assert all(set(m) <= MOVE_KEYS for m in record["moves"])
        view = record["view"]
        assert view["hands"] is None, "hands are revealed before the end"
        if viewer is None:
            assert view["hand"] is None, "a spectator was given a hand"
        else:
            assert view["hand"] == _hand(data, viewer), "the viewer's hand is not theirs"
        for seat in view["scores"]:
            assert state.open_scoring or int(seat) == viewer, f"seat {seat}'s totals leaked"
    else:
        moves = [(int(s), a, src) for _ply, s, a, src in TEXT_MOVE.findall(text)]
        line = Move.objects.filter(game=game).played()
        assert len(moves) == line.count(), "the text lists every ply of the line of play"
    for seat, action, source in moves:
        if seat != viewer:
            assert not (action or "").startswith("swap ") or "hidden" in action, (
                f"seat {seat}'s swapped colours leaked: {action!r}"
            )
            assert source in {"player", "timeout", "dropped", "bot"}, source


SECRET_KEYS = {"bag", "seed", "state", "private_to", "invite_token", "key_hash", "notes"}


def assert_json_no_leak(
    payload: Any, game: Game, viewer: int | None, state: engine.GameState | None = None
) -> None:
    """Assert an API answer (decoded JSON) shows ``viewer`` nothing secret of ``game``.

    As ``assert_no_leak`` for pages: no seed, no stretch of the bag, no hand but the
    viewer's own, totals only as the viewer may see them, no ``hands`` before the end, no
    swap's colours but the viewer's own, and no key that names a secret at all.
    """
    import json

    state = state or game_state(game)
    data = state.to_dict()
    over = state.is_over
    text = json.dumps(payload)
    if not over:
        assert str(game.seed) not in text, "the seed leaked"
        bag = data["bag"]
        if len(bag) >= 12:
            assert bag[:12] not in text and bag[-12:] not in text, "the bag order leaked"
    private = {
        (m.ply, e["code"])
        for m in Move.objects.filter(game=game)
        for e in m.events
        if e.get("private_to") not in (None, viewer)
    }

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            leaked = SECRET_KEYS & set(value) - ({"seed"} if over else set())
            assert not leaked, f"a secret key leaked: {leaked}"
            if {"ply", "seat", "action"} <= set(value) and not over and value["seat"] != viewer:
                action = value["action"]  # a move of another seat: a swap shows its count only
                assert not action.startswith("swap ") or action.split()[1].isdigit(), (
                    f"a swap's colours leaked: {action!r}"
                )
                for event in value.get("events", []):
                    assert (value["ply"], event["code"]) not in private, "a private event leaked"
            if "hand" in value and "hand_sizes" in value:  # a view
                hand = value["hand"]
                if hand is not None:
                    assert viewer is not None, "a spectator got a hand"
                    assert hand == _hand(data, viewer), "a hand leaked"
                assert over or value["hands"] is None, "hands are revealed before the end"
                for seat_text in value["scores"]:
                    seat = int(seat_text)
                    assert over or state.open_scoring or seat == viewer, (
                        f"seat {seat}'s totals leaked"
                    )
            for child in value.values():
                walk(child)
        elif isinstance(value, list):
            for child in value:
                walk(child)

    walk(payload)


def assert_push_no_leak(payload: Any, game: Game) -> None:
    """Assert a browser push payload (issue 29) shows nothing of ``game`` but its number.

    A push is read on a lock screen: it is scanned as a spectator's JSON
    (``assert_json_no_leak``), has only its four keys, and once the game's number and
    address are taken out holds no digit at all (no points, no hand size, no tile count).
    """
    import re

    assert set(payload) == {"title", "body", "url", "tag"}, payload
    assert_json_no_leak(payload, game, None)
    text = f"{payload['title']} {payload['body']}".replace(str(game.pk), "")
    assert not re.search(r"\d", text), text
    assert re.fullmatch(r"https?://[^/]+/(games/\d+/|#my-games)?", payload["url"]), payload
