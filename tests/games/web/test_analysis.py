"""The analysis board (issue 19): step through a record, try moves, touch no real game."""

from __future__ import annotations

import random
import re

import pytest
from django.test import Client

import engine
from games.core.states import game_state, replay
from games.models import Game, Move
from games.web.players import hand_code
from tests.games.factories import UserFactory, client_for, page_actions, started_game
from tests.games.leaks import assert_no_leak
from tests.games.playing import randomly, submit
from tests.games.records.helpers import finished_game
from tests.games.web.test_leaks import assert_context_holds_no_secret

pytestmark = pytest.mark.django_db

PLY = re.compile(r'id="game"[^>]*data-ply="(\d+)"')
STEP = re.compile(r"Step (\d+) of (\d+)")


def _snapshot(game: Game) -> tuple[int, object, int]:
    game.refresh_from_db()
    return game.version, game.state, Move.objects.filter(game=game).count()


def test_a_finished_game_steps_and_tries_moves_without_touching_the_game() -> None:
    game, _seats = finished_game(2, seed=21)
    before = _snapshot(game)
    client = Client()
    replay_page = client.get(f"/games/{game.pk}/replay?ply=12").content.decode()
    assert f'href="/analysis/?game={game.pk}&amp;ply=12"' in replay_page
    url = f"/analysis/?game={game.pk}&ply=12"
    page = client.get(url)
    assert page.status_code == 200
    assert STEP.search(page.content.decode()).groups() == ("12", str(game.version))
    moves = list(Move.objects.filter(game=game).order_by("ply"))
    state = replay(game, moves[:12])
    offered = page_actions(page.content)
    assert sorted(offered) == sorted(str(a) for a in engine.legal_actions(state))
    # The acting seat's hand at that step (a finished game's hands are all public).
    hand = engine.view_for(state, state.to_act).hand
    assert f'data-hand="{hand_code(hand)}"' in page.content.decode()
    assert_context_holds_no_secret(page, game)
    # Another move than the game's, through the game page's action form (HTMX).
    other = next(a for a in offered if a != moves[12].action)
    tried = client.post(
        f"/analysis/act?game={game.pk}&ply=12",
        {"action": other, "version": "12"},
        HTTP_HX_REQUEST="true",
    )
    assert tried.status_code == 200
    assert tried["HX-Push-Url"].endswith(f"ply=12&line={other.replace(' ', '+')}")
    after = engine.apply(state, engine.Action.parse(other))
    assert sorted(page_actions(tried.content)) == sorted(
        str(a) for a in engine.legal_actions(after)
    )
    assert f'data-tried="{other}"' in tried.content.decode()
    # Without JavaScript: a redirect to the new position's URL.
    plain = client.post(f"/analysis/act?game={game.pk}&ply=12", {"action": other, "version": "12"})
    assert plain.status_code == 302 and "line=" in plain["Location"]
    # An illegal move is refused with the reason; a hand-edited line in the URL too.
    refused = client.post(
        f"/analysis/act?game={game.pk}&ply=12", {"action": "tile blue a1", "version": "12"}
    )
    assert refused.status_code == 400 and 'role="alert"' in refused.content.decode()
    edited = client.get(f"/analysis/?game={game.pk}&ply=12&line=tile+blue+a1")
    assert edited.status_code == 400 and "cannot be played" in edited.content.decode()
    # Stepping past either end stays on the record.
    assert STEP.search(client.get(f"/analysis/?game={game.pk}&ply=9999").content.decode())[1] == (
        str(game.version)
    )
    assert _snapshot(game) == before  # the real game is unchanged


def test_a_private_or_unfinished_game_does_not_open_by_its_number() -> None:
    game, seats = started_game(2)
    assert client_for(seats[1]).get(f"/analysis/?game={game.pk}").status_code == 404
    assert Client().get("/analysis/?game=424242").status_code == 404
    assert Client().get("/analysis/?board=gone").status_code == 404
    assert Client().get("/analysis/").status_code == 200
    Game.objects.filter(pk=game.pk).update(status=Game.Status.ABORTED)
    aborted = client_for(seats[1]).get(f"/analysis/?game={game.pk}")
    assert aborted.status_code == 404
    assert "This game was not played to its end" in aborted.content.decode()


def test_an_unfinished_game_opens_from_the_players_own_view_redealt() -> None:
    game, seats = started_game(3)
    rng = random.Random(8)
    for _ in range(10):
        game = submit(game, seats, randomly(rng))
    before = _snapshot(game)
    real = game_state(game)
    seat = real.to_act
    client = client_for(seats[seat])
    opened = client.post(f"/games/{game.pk}/analyse")
    assert opened.status_code == 302 and opened["Location"].startswith("/analysis/?board=")
    page = client.get(opened["Location"])
    text = page.content.decode()
    assert page.status_code == 200 and 'id="redealt"' in text
    # The player's own hand and the board are the real ones; nothing else of the state is.
    assert_no_leak(page.content, game, seat, real)
    assert_context_holds_no_secret(page, game)
    assert sorted(page_actions(page.content)) == sorted(str(a) for a in engine.legal_actions(real))
    tried = client.post(
        opened["Location"].replace("/analysis/?", "/analysis/act?"),
        {"action": page_actions(page.content)[0], "version": "0"},
    )
    assert tried.status_code == 302 and client.get(tried["Location"]).status_code == 200
    # Opened by a seat that does not act: its own hand and totals only, the actor's offered.
    other_seat = 1 + seat % 3
    other = client_for(seats[other_seat])
    board = other.get(other.post(f"/games/{game.pk}/analyse")["Location"])
    assert board.status_code == 200 and page_actions(board.content)
    assert_no_leak(board.content, game, other_seat, real)
    # The board is the visitor's own: another session does not have it.
    assert client_for(seats[1 + seat % 3]).get(opened["Location"]).status_code == 404
    # A stranger to a private game cannot open it; the game is unchanged.
    Game.objects.filter(pk=game.pk).update(is_public=False)
    assert client_for(UserFactory()).post(f"/games/{game.pk}/analyse").status_code == 404
    assert _snapshot(game) == before


def test_a_pasted_diagram_opens_and_a_bad_one_is_refused_with_its_line() -> None:
    client = Client()
    diagram = engine.render_diagram(engine.new_game(2, 3))
    opened = client.post("/analysis/load", {"diagram": diagram})
    assert opened.status_code == 302
    page = client.get(opened["Location"])
    assert page.status_code == 200
    legal = engine.legal_actions(engine.parse_diagram(diagram))
    assert sorted(page_actions(page.content)) == sorted(str(a) for a in legal)
    bad = diagram.replace("hand 1: r r k b g g", "hand 1: r r k b g g q")
    refused = client.post("/analysis/load", {"diagram": bad})
    assert refused.status_code == 400 and "cannot be read" in refused.content.decode()
