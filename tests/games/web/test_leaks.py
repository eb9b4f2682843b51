"""Hidden information is a security boundary (RULES.md §14): pages show only view_for.

Real games are played with random legal actions; at many points every page and partial
(game page, HTMX partial, poll answer, replay) is rendered for each seat and a spectator
and scanned for another seat's hand or totals, the seed and the bag's order. The template
context is also checked to hold no engine state at all.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator, Mapping
from dataclasses import fields, is_dataclass
from typing import Any
from urllib.parse import quote

import pytest
from django.db import models
from django.db.models import QuerySet
from django.test import Client, override_settings

import engine
from games.community.chat import chat_post
from games.community.notes import note_save
from games.core.states import game_state, replay
from games.models import Game, Move, StandingOrders
from games.play import orders as play_orders
from games.play.submit import game_submit_action
from tests.games.factories import client_for, play_random_plies, started_game
from tests.games.leaks import (
    assert_admin_shows_no_secret,
    assert_json_no_leak,
    assert_no_leak,
    assert_record_no_leak,
)

pytestmark = pytest.mark.django_db


def _children(value: Any) -> Iterator[Any]:
    """Yield what ``value`` holds that a template could reach: items, fields, cached relations."""
    if isinstance(value, Mapping):
        yield from value.values()
    elif isinstance(value, list | tuple | set | frozenset):
        yield from value
    elif isinstance(value, QuerySet):
        yield from value._result_cache or ()  # only rows already fetched
    elif isinstance(value, models.Model):
        yield from value._state.fields_cache.values()  # select_related and reverse caches
        for related in getattr(value, "_prefetched_objects_cache", {}).values():
            yield from related
    elif is_dataclass(value) and not isinstance(value, type):
        for f in fields(value):
            yield getattr(value, f.name)


def secret_in(
    value: Any, game: Game, path: str = "context", seen: dict[int, Any] | None = None
) -> str:
    """Return the path to the first value under ``value`` holding ``game``'s snapshot or seed.

    A ``Game`` row (its ``state`` and ``seed`` hold every hand and the bag), an engine
    ``GameState``, the snapshot dict or the seed itself; ``""`` when there is none. Walks
    mappings, sequences, dataclasses, model instances' cached relations and fetched
    querysets, whatever the depth. ``seen`` (id → value, held so that no id is reused
    meanwhile) are the values already checked: each is checked once, by whichever path
    reaches it first.
    """
    seen = {} if seen is None else seen
    if id(value) in seen:
        return ""
    seen[id(value)] = value
    if isinstance(value, Game):
        return f"{path}: a Game row"
    if isinstance(value, engine.GameState):
        return f"{path}: the engine state"
    if isinstance(value, StandingOrders | engine.StandingOrders):
        return f"{path}: standing orders"  # the owner's panel holds only its form (issue 17)
    if isinstance(value, int) and not isinstance(value, bool) and value == game.seed:
        return f"{path}: the seed"
    if isinstance(value, Mapping) and ("bag" in value or "seed" in value):
        return f"{path}: the snapshot"
    for n, child in enumerate(_children(value)):
        found = secret_in(child, game, f"{path}[{n}]", seen)
        if found:
            return found
    return ""


def assert_context_holds_no_secret(response: Any, game: Game) -> None:
    """Assert no template of ``response`` could reach ``game``'s secrets (``secret_in``).

    The contexts of a page and its includes share most of their values: each value is
    walked once for the whole response.
    """
    contexts = response.context if isinstance(response.context, list) else [response.context]
    seen: dict[int, Any] = {}
    for context in contexts:
        if context is None:
            continue
        for layer in context.dicts if hasattr(context, "dicts") else [context]:
            for key, value in dict(layer).items():
                found = secret_in(value, game, key, seen)
                assert not found, f"a template could reach {found}"


# Everything the live stream may say: its reconnection delay, a comment, a version's event.
LIVE_EVENTS = re.compile(r"retry: \d+\n: live\n\nid: (\d+)\nevent: version\ndata: \1\n\n")


def _poll_kept(client: Client, base: str) -> Any:
    """The poll's changed answer with rendering ahead on (``games.web.prerender``)."""
    with override_settings(PRERENDER_PARTIALS=True):
        return client.get(f"{base}/poll?version=-1", HTTP_HX_REQUEST="true")


def pages_for(client: Client, game: Game) -> list[tuple[Any, engine.GameState]]:
    """Return (response, the state it shows) for every page and partial of ``game``."""
    base = f"/games/{game.pk}"
    now = game_state(game)
    ply = max(game.version - 1, 0)
    earlier = replay(game, list(Move.objects.filter(game=game, ply__lte=ply).order_by("ply")))
    return [
        (client.get(f"{base}/"), now),
        (client.get(f"{base}/", HTTP_HX_REQUEST="true"), now),
        (client.get(f"{base}/poll?version=-1"), now),
        # Issue 29: a seated player's fetch keeps its render for their other tabs; the
        # second is served from the cache (the first renders it, or reads the worker's).
        *[(_poll_kept(client, base), now) for _tab in range(2)],
        (client.get(f"{base}/replay"), now),
        (client.get(f"{base}/replay?ply={ply}", HTTP_HX_REQUEST="true"), earlier),
        (client.get(f"{base}/chat?after=0"), now),  # the chat's own poll (issue 18)
        (client.get("/games/finished"), now),  # the finished games' list (issue 32)
        (client.get("/games/open"), now),  # the open games' pages (issue 31)
    ]


def records_for(client: Client, game: Game) -> list[tuple[Any, engine.GameState]]:
    """Return (response, the state it shows) for the game's record (issue 19) as JSON and text.

    While the game runs, a record is the requester's own view: checked by
    ``assert_record_no_leak`` besides ``assert_no_leak``.
    """
    now = game_state(game)
    return [(client.get(f"/games/{game.pk}/record.{ext}"), now) for ext in ("json", "txt")]


@pytest.mark.parametrize(
    ("num_players", "open_scoring", "chat_spectators"), [(3, False, False), (2, True, True)]
)
def test_no_page_leaks_hidden_information(
    num_players: int, open_scoring: bool, chat_spectators: bool
) -> None:
    rng = random.Random(77 + num_players)
    game, seats = started_game(
        num_players, open_scoring=open_scoring, chat_spectators=chat_spectators
    )
    # Issue 18: each player's private notes, and table talk (kept from spectators in one).
    for n, user in seats.items():
        note_save(game_id=game.pk, user=user, text=f"private plan of seat {n}: <keep> & hide")
        chat_post(game_id=game.pk, user=user, text=f"table talk of seat {n} <b>")
    viewers: dict[int | None, Client] = {n: client_for(u) for n, u in seats.items()}
    viewers[None] = Client()
    # Standing orders (issue 17) answer decisions on the way: seat 1's for this game, seat
    # 2's by default; every page must keep them to their owner.
    every = {slot: kinds[-1] for slot, kinds in engine.ORDER_SLOTS.items()}
    play_orders.game_orders_set(game_id=game.pk, user=seats[1], orders=every)
    play_orders.default_orders_set(user=seats[2], orders={**every, "revolt_defender": "all"})
    checked = 0
    for _round in range(6):
        for seat, client in viewers.items():
            # The records at two of the rounds (each retells every ply: the swaps so far).
            records = records_for(client, game) if _round in (2, 5) else []
            for response, shown in pages_for(client, game) + records:
                if response.status_code == 302:  # spectators may not replay a live game
                    assert seat is None
                    continue
                if response.status_code == 404:  # the chat's poll, when kept from them
                    assert seat is None and not chat_spectators
                    continue
                assert response.status_code in (200, 204)
                assert_no_leak(response.content, game, seat, shown)
                assert_context_holds_no_secret(response, game)
                if "/record." in response.request["PATH_INFO"]:
                    assert_record_no_leak(response.content, game, seat)
                checked += 1
            # The live stream (issue 29): its opening events name the version, nothing else.
            stream = iter(client.get(f"/games/{game.pk}/live?version=-1").streaming_content)
            events = next(stream) + next(stream)
            assert_no_leak(events, game, seat)
            assert LIVE_EVENTS.fullmatch(events.decode()), events
            checked += 1
            # The confirm step's preview (issue 16): the seat to act gets one, others a refusal.
            state = game_state(game)
            if not state.is_over:
                action = quote(str(engine.legal_actions(state)[0]))
                preview = client.get(f"/games/{game.pk}/preview?action={action}")
                assert preview.status_code == (200 if seat == state.to_act else 403)
                assert_no_leak(preview.content, game, seat)
                assert_context_holds_no_secret(preview, game)
            lobby = client.get("/")  # the lobby lists the player's games and the open ones
            assert lobby.status_code == 200
            assert_context_holds_no_secret(lobby, game)
            # What it shows, kept rendered or not (issue 31: "My games", the open games).
            assert_no_leak(lobby.content, game, seat)
            if _round == 3:  # the analysis board, re-dealt from this viewer's own view
                opened = client.post(f"/games/{game.pk}/analyse")
                assert opened.status_code == 302
                board = client.get(opened["Location"])
                assert board.status_code == 200 and b'id="redealt"' in board.content
                assert_no_leak(board.content, game, seat)
                assert_context_holds_no_secret(board, game)
                checked += 1
        game = play_random_plies(game, seats, 9, rng)
    assert checked > 50


def test_a_bot_games_pages_never_show_the_person_a_bots_hand() -> None:
    """A bot game (issue 15): the person's pages, and a spectator's, as the bots play."""
    from tests.games.bots_helpers import bot_game, human_plays_over_http

    game, human, position = bot_game(("easy", "easy"))
    spectator = Client()
    checked: list[int] = []

    def check(client: Client, game: Game) -> None:
        if game.version % 7:
            return
        for viewer, who in ((client, position), (spectator, None)):
            for response, shown in pages_for(viewer, game):
                if response.status_code == 302:
                    assert who is None
                    continue
                assert response.status_code in (200, 204)  # 204: the chat's poll, no line
                assert_no_leak(response.content, game, who, shown)
                assert_context_holds_no_secret(response, game)
                checked.append(game.version)
            # the profiles (issue 26): the person's record against the bots, the bot's strength
            for user_id in (human.pk, bot_id):
                profile = viewer.get(f"/players/{user_id}/")
                assert_no_leak(profile.content, game, who)
                assert_context_holds_no_secret(profile, game)

    bot_id = game.seats.exclude(user=human).values_list("user_id", flat=True)[0]
    game = human_plays_over_http(game, human, random.Random(33), check=check)
    assert game.status == Game.Status.FINISHED
    assert len(checked) > 20


def test_swapped_colours_are_shown_to_the_swapper_only() -> None:
    game, seats = started_game(2)
    from games.play import submit as play_submit

    swap = next(str(a) for a in engine.legal_actions(game_state(game)) if str(a).startswith("swap"))
    play_submit.game_submit_action(game_id=game.pk, user=seats[1], action=swap, expected_version=0)
    mine = client_for(seats[1]).get(f"/games/{game.pk}/").content.decode()
    theirs = client_for(seats[2]).get(f"/games/{game.pk}/").content.decode()
    assert "discarded:" in mine
    assert "discarded:" not in theirs and "swapped 1 tile." in theirs
    # The other player's turn email retells the swap as their page does.
    from django.core import mail

    game.refresh_from_db()
    if game.to_act_seat == 1:  # seat 1's second action: pass, so the game waits on seat 2
        play_submit.game_submit_action(
            game_id=game.pk, user=seats[1], action="pass", expected_version=game.version
        )

    from games.mail import notification as emails
    from games.models import Notification

    row = Notification.objects.get(game=game, user=seats[2], kind="your_turn")
    mail.outbox.clear()
    emails.notification_send(row)
    (message,) = mail.outbox
    assert "swapped 1 tile." in message.body and "discarded" not in message.body
    assert "swapped 1 tile." in str(message.alternatives[0].content)
    assert "discarded" not in str(message.alternatives[0].content)
    # So does the email after a delay (the default, issue 17), which retells each game.
    from datetime import timedelta

    from django.utils import timezone

    from games.mail import deliver

    assert row.delivery == "batched"
    Notification.objects.filter(pk=row.pk).update(send_after=timezone.now() - timedelta(seconds=1))
    mail.outbox.clear()
    assert deliver.groups_due_send("batched") == 1
    (batched,) = mail.outbox
    for part in (batched.body, str(batched.alternatives[0].content)):
        assert "swapped 1 tile." in part and "discarded" not in part
        assert_no_leak(part.encode(), game, 2)


def test_the_leak_check_catches_a_leak() -> None:
    """The scanner itself: an opponent's totals or hand in the bytes fail the check."""
    game, seats = started_game(2)
    while len(set(map(tuple, game_state(game).to_dict()["hands"]))) < 2:
        game, seats = started_game(2)  # about 3 % of deals give both seats the same hand
    page = client_for(seats[1]).get(f"/games/{game.pk}/").content
    assert_no_leak(page, game, 1)
    leaked = page + b'<p data-vp-seat="2" data-vp="red:0,black:0,blue:0,green:0,treasures:0">'
    with pytest.raises(AssertionError, match="totals leaked"):
        assert_no_leak(leaked, game, 1)
    with pytest.raises(AssertionError, match="points leaked"):
        assert_no_leak(page + b'<span data-gain-seat="2">+1 red</span>', game, 1)
    with pytest.raises(AssertionError, match="hand leaked"):
        assert_no_leak(page, game, 2)
    with pytest.raises(AssertionError, match="seed leaked"):
        assert_no_leak(page + str(game.seed).encode(), game, 1)


def test_the_context_check_catches_a_game_row_wherever_it_is() -> None:
    """The walker itself: a ``Game`` put in a context, even deep in a value, fails the check."""
    game, seats = started_game(2)
    response = client_for(seats[1]).get(f"/games/{game.pk}/")
    assert_context_holds_no_secret(response, game)  # the page as it is passes
    context = response.context if not isinstance(response.context, list) else response.context[0]
    for planted in (
        game,
        {"rows": [("x", game)]},
        game.seats.all()[0],  # a seat reaches its game through the cached relation
        game_state(game),
        game.state,
        game.seed,
    ):
        context.dicts.append({"planted": planted})
        with pytest.raises(AssertionError, match="a template could reach"):
            assert_context_holds_no_secret(response, game)
        context.dicts.pop()


def _swap_now(game: Game, seats: dict[int, Any]) -> Game:
    """Play a swap as the acting seat's next action (its colours are that seat's secret).

    No swap is legal while a decision waits (support, a war's order, a monument, treasures:
    random play can leave one): each is answered with its first option until one is.
    """
    for _ in range(20):
        game.refresh_from_db()
        legal = [str(a) for a in engine.legal_actions(game_state(game))]
        swap = next((a for a in legal if a.startswith("swap")), None)
        game_submit_action(
            game_id=game.pk,
            user=seats[game.to_act_seat or 0],
            action=swap or legal[0],
            expected_version=game.version,
        )
        if swap is not None:
            break
    else:
        raise AssertionError("no swap became legal in 20 plies")
    game.refresh_from_db()
    return game


def admin_pages(client: Client, game: Game) -> list[Any]:
    """Return every admin page that shows ``game`` or its moves: lists, searches, filters."""
    moves = list(Move.objects.filter(game=game))
    username = game.seats.first().user.username  # type: ignore[union-attr]
    pages = [
        client.get("/admin/games/move/"),
        client.get(f"/admin/games/move/?game__id__exact={game.pk}"),
        client.get(f"/admin/games/move/?game__status__exact={game.status}"),
        client.get(f"/admin/games/move/?q={username}"),
        client.get("/admin/games/move/?q=swap"),
        client.get("/admin/games/game/"),
        client.get(f"/admin/games/game/{game.pk}/change/"),
        client.get(f"/admin/games/game/?q={username}"),
        client.get("/admin/games/seat/"),
        client.get(f"/admin/games/game/{game.pk}/history/"),
    ]
    pages += [client.get(f"/admin/games/move/{m.pk}/change/") for m in moves]
    pages += [client.get(f"/admin/games/move/{m.pk}/history/") for m in moves]
    return pages


def test_the_admin_shows_staff_no_secret_of_an_unfinished_game(admin_client: Client) -> None:
    """Staff see the history of a game in progress as its spectators do (issue 20, item 5)."""
    rng = random.Random(20)
    game, seats = started_game(2)
    game = _swap_now(game, seats)
    game = play_random_plies(game, seats, 5, rng)
    game = _swap_now(game, seats)
    assert Move.objects.filter(game=game, action__startswith="swap ").count() == 2
    for response in admin_pages(admin_client, game):
        assert response.status_code == 200, response.wsgi_request.get_full_path()
        assert_no_leak(response.content, game, None)
        assert_admin_shows_no_secret(response.content, game)
    listing = admin_client.get(f"/admin/games/move/?game__id__exact={game.pk}").content.decode()
    assert "swap (" in listing and "colours hidden" in listing


@pytest.mark.parametrize(
    "query",
    [
        "games/move/?action__startswith=swap+red",
        "games/move/?action__contains=blue",
        "games/move/?events__contains=red",
        "games/game/?seed__lt=4611686018427387904",
        "games/game/?seed=1",
        "games/game/?state__isnull=False",
        "games/game/?invite_token__startswith=a",
        "games/move/?o=4",
    ],
)
def test_the_admin_refuses_to_filter_by_a_secret(admin_client: Client, query: str) -> None:
    """A URL lookup on a secret field would be an oracle (bisect the seed, probe a swap)."""
    game, seats = started_game(2)
    _swap_now(game, seats)
    response = admin_client.get(f"/admin/{query}")
    if query.endswith("o=4"):  # ordering by a column: only public columns can be sorted
        assert response.status_code in (200, 302)
        if response.status_code == 200:
            assert_admin_shows_no_secret(response.content, game)
        return
    assert response.status_code == 400, query


def test_the_admin_shows_a_finished_games_swaps(admin_client: Client) -> None:
    game, seats = started_game(2)
    game = _swap_now(game, seats)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    swap = Move.objects.get(game=game, action__startswith="swap ")
    listing = admin_client.get(f"/admin/games/move/?game__id__exact={game.pk}").content.decode()
    assert swap.action in listing


def test_the_admin_leak_check_catches_a_leak(admin_client: Client) -> None:
    game, seats = started_game(2)
    game = _swap_now(game, seats)
    swap = Move.objects.get(game=game, action__startswith="swap ")
    with pytest.raises(AssertionError, match="swap's colours leaked"):
        assert_admin_shows_no_secret(f"<td>{swap.action}</td>".encode(), game)
    with pytest.raises(AssertionError, match="seed leaked"):
        assert_admin_shows_no_secret(str(game.seed).encode(), game)


@pytest.mark.parametrize(("num_players", "open_scoring"), [(3, False), (2, True)])
def test_no_api_answer_leaks_hidden_information(num_players: int, open_scoring: bool) -> None:
    """The read API (issue 19) for each seat's token and for nobody, as a game goes on."""
    import json

    from games.accounts import tokens
    from tests.games.playing import randomly, submit

    rng = random.Random(19 + num_players)
    game, seats = started_game(num_players, open_scoring=open_scoring)
    viewers: dict[int | None, Client] = {
        n: Client(HTTP_AUTHORIZATION=f"Bearer {tokens.token_create(user=u, name='t')[1]}")
        for n, u in seats.items()
    }
    viewers[None] = Client()
    paths = [
        f"/api/v1/games/{game.pk}",
        f"/api/v1/games/{game.pk}/moves?page_size=100",
        "/api/v1/games",
        f"/api/v1/players/{seats[1].pk}/games",
        "/api/v1/me/waiting",
    ]
    checked = 0
    for _round in range(3):
        game = _swap_now(game, seats)  # a swap's colours are its seat's secret
        for seat, client in viewers.items():
            for path in paths:
                response = client.get(path)
                if path.endswith("waiting") and seat is None:
                    assert response.status_code == 401
                    continue
                assert response.status_code == 200, (path, response.content[:300])
                assert_json_no_leak(json.loads(response.content), game, seat)
                checked += 1
        for _ply in range(6):  # through the submit service: cheaper than the pages
            if game.status == Game.Status.ACTIVE:
                game = submit(game, seats, randomly(rng))
    assert checked >= 3 * len(paths) * num_players


def test_taking_back_an_action_reveals_nothing_to_anyone() -> None:
    """Issue 16: the undo row names a ply only; every page after it passes the leak scan."""
    game, seats = started_game(2)
    state = game_state(game)
    quiet = next(
        a
        for a in engine.legal_actions(state)
        if isinstance(a, engine.PlaceTile) and engine.preview(state, a).undoable
    )
    game_submit_action(game_id=game.pk, user=seats[1], action=str(quiet), expected_version=0)
    mover = client_for(seats[1])
    undo = mover.post(
        f"/games/{game.pk}/act", {"action": "undo", "version": 1}, HTTP_HX_REQUEST="true"
    )
    assert undo.status_code == 200
    game.refresh_from_db()
    assert game_state(game) == state
    row = Move.objects.get(game=game, ply=2)
    assert row.events == [{"code": "undone", "params": {"seat": 1, "ply": 1}}]
    viewers: dict[int | None, Client] = {1: mover, 2: client_for(seats[2]), None: Client()}
    for seat, client in viewers.items():
        for response, shown in pages_for(client, game):
            if response.status_code == 302:
                continue
            assert_no_leak(response.content, game, seat, shown)
            assert_context_holds_no_secret(response, game)
    assert_no_leak(undo.content, game, 1)


def test_a_submits_kept_answer_reaches_its_mover_alone(settings: Any) -> None:
    """Issue 29: with rendering ahead on, a submit's answer is kept for the mover's other
    tabs; each seat's fetch, and a spectator's, still shows only what that viewer may see."""
    settings.PRERENDER_PARTIALS = True
    rng = random.Random(29)
    game, seats = started_game(3)
    viewers: dict[int | None, Client] = {n: client_for(u) for n, u in seats.items()}
    viewers[None] = Client()
    for _ply in range(4):
        seat = game.to_act_seat
        assert seat is not None
        legal = [str(a) for a in engine.legal_actions(game_state(game))]
        answer = viewers[seat].post(
            f"/games/{game.pk}/act",
            {"action": rng.choice(legal), "version": game.version},
            HTTP_HX_REQUEST="true",
        )
        assert answer.status_code == 200
        game.refresh_from_db()
        now = game_state(game)
        assert_no_leak(answer.content, game, seat, now)
        for viewer, client in viewers.items():
            for _tab in range(2):  # the mover's other tab is served the kept answer
                polled = client.get(f"/games/{game.pk}/poll?version=-1", HTTP_HX_REQUEST="true")
                assert polled.status_code == 200
                assert_no_leak(polled.content, game, viewer, now)


def test_points_just_scored_show_only_where_the_totals_do() -> None:
    """Issue 16: "+1 red" beside the scorer for the scorer, not for a rival (hidden scoring)."""
    from tests.engine.rules_helpers import position
    from tests.games.factories import game_at_state

    state = position({"e5": "r", "f5": "1K"}, hands={1: "r r k", 2: "b"})
    game, seats = game_at_state(state)
    game_submit_action(game_id=game.pk, user=seats[1], action="tile red e6", expected_version=0)
    game.refresh_from_db()
    mine = client_for(seats[1]).get(f"/games/{game.pk}/").content
    theirs = client_for(seats[2]).get(f"/games/{game.pk}/").content
    assert b'data-gain-seat="1">+1 red' in mine
    assert b"data-gain-seat" not in theirs
    assert_no_leak(mine, game, 1)
    assert_no_leak(theirs, game, 2)


def _answer_delays(n: int, *, ordered: bool, rng: random.Random) -> list[float]:
    """Play ``n`` revolts whose defender answers by a standing order or by hand; return the
    seconds between the asking move and the answer as an observer reads them (the API).

    A person answers after a delay drawn from ``rng`` with the site's model of a quick
    answer (``ORDER_ANSWER_DELAY``): seconds at the least, as the probe measured (≥ 4.7 s).
    """
    import math
    from datetime import UTC, datetime, timedelta

    import time_machine
    from django.conf import settings

    from games.play.orders import orders_sweep
    from tests.engine.rules_helpers import position
    from tests.games.factories import game_at_state

    model = settings.ORDER_ANSWER_DELAY
    anon = Client()
    delays = []
    for k in range(n):
        state = position({"c5": "r", "c6": "2P", "d6": "r"}, hands={1: "r r r", 2: "r r"})
        game, seats = game_at_state(state)
        if ordered:
            play_orders.game_orders_set(
                game_id=game.pk, user=seats[2], orders={"revolt_defender": "all"}
            )
        start = datetime(2026, 5, 4, 9, 0, tzinfo=UTC) + timedelta(hours=k)
        with time_machine.travel(start, tick=False) as clock:
            for version, notation in enumerate(("leader priest e6", "commit 0")):
                game_submit_action(
                    game_id=game.pk, user=seats[1], action=notation, expected_version=version
                )
            game.refresh_from_db()
            if ordered:
                if game.order_due_at is not None:  # answered in its own step
                    clock.move_to(game.order_due_at)
                    assert orders_sweep() == 1
            else:
                wait = rng.lognormvariate(math.log(model["median"]), model["sigma"])
                clock.shift(timedelta(seconds=min(max(wait, model["low"]), model["high"])))
                game_submit_action(
                    game_id=game.pk, user=seats[2], action="commit 2", expected_version=2
                )
        moves = anon.get(f"/api/v1/games/{game.pk}/moves").json()["results"]
        assert [m["ply"] for m in moves] == [1, 2, 3]
        asked, answered = (datetime.fromisoformat(m["created_at"]) for m in moves[1:])
        delays.append((answered - asked).total_seconds())
    return delays


def test_an_observer_cannot_tell_standing_order_answers_by_their_times(monkeypatch: Any) -> None:
    """Issue 28, finding 1: move times do not tell a standing order's answer from a person's.

    The statistic: from the published times (``/api/v1/games/{id}/moves``) of N revolts
    answered by the defender's order and N answered by hand quickly, the two-sample
    Kolmogorov–Smirnov distance D between the answer delays must stay below its critical
    value at α = 0.001 (1.95·√(2/N)): the two samples look drawn from one distribution.
    The best threshold rule "a delay below t is an order" classifies with accuracy at most
    0.5 + D/2, so no observer using the delay beats chance by more than D/2 (< 0.22 here).
    Both sides' randomness is seeded, so the test is deterministic. Before the fix the
    orders answered in milliseconds: D = 1, every answer told.
    """
    from games.play import orderturns

    n = 30
    monkeypatch.setattr(orderturns, "_rng", random.Random(28))
    orders = _answer_delays(n, ordered=True, rng=random.Random(0))
    people = _answer_delays(n, ordered=False, rng=random.Random(2026))
    assert min(people) >= 4.7
    points = sorted(set(orders) | set(people))
    distance = max(
        abs(sum(d <= t for d in orders) / n - sum(d <= t for d in people) / n) for t in points
    )
    critical = 1.95 * (2 / n) ** 0.5
    assert distance < critical, (distance, sorted(orders)[:5], sorted(people)[:5])
    best = max((sum(d <= t for d in orders) + sum(d > t for d in people)) / (2 * n) for t in points)
    assert best <= 0.5 + distance / 2 + 1e-9
