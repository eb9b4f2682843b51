"""Pages and endpoints: lobby, create/join, game page, act (authorization), poll, replay."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

import engine
from games.core.states import game_state
from games.models import Game, Move
from games.play import lifecycle
from games.text import seats as seat_text
from tests.games.factories import (
    UserFactory,
    client_for,
    page_actions,
    page_version,
    play_random_plies,
    started_game,
)

pytestmark = pytest.mark.django_db

STATIC = Path(__file__).resolve().parents[3] / "static"


def snapshot(game: Game) -> dict[str, Any]:
    row = Game.objects.filter(pk=game.pk).values("state", "version", "to_act_seat", "status")[0]
    return {**row, "moves": Move.objects.filter(game=game).count()}


def test_lobby_lists_open_games_and_my_games_waiting_first() -> None:
    game, seats = started_game(2)
    other, _ = started_game(2)
    open_game = Game.objects.create(creator=seats[2], num_players=3)
    open_game.seats.create(user=seats[2])
    response = client_for(seats[1]).get("/")
    body = response.content.decode()
    assert response.status_code == 200
    assert f"/games/{open_game.pk}/" in body
    assert 'id="nav-waiting"' in body and 'class="badge"' in body
    # seats[1] acts first in ``game``: it is listed first, marked as waiting.
    my_games = body[body.index('id="my-games"') : body.index('id="open-games"')]
    assert f"/games/{open_game.pk}/" not in my_games or (
        my_games.index(f"/games/{game.pk}/") < my_games.index(f"/games/{open_game.pk}/")
    )
    assert "your move" in my_games
    assert f"/games/{other.pk}/" not in my_games
    # The other player's list says whom the game waits for.
    theirs = client_for(seats[2]).get("/").content.decode()
    name = seat_text.display_name(seats[1])
    assert f"waiting for {name}" in theirs[theirs.index('id="my-games"') :]
    # Each line names the other players, not the viewer.
    line = next(li for li in my_games.split("<li") if f"/games/{game.pk}/" in li)
    assert f"with {seat_text.display_name(seats[2])}" in line
    assert seat_text.display_name(seats[1]) not in line


def test_create_and_join_through_the_pages() -> None:
    alice, bob = UserFactory(), UserFactory()
    a, b = client_for(alice), client_for(bob)
    response = a.post(
        "/games/new",
        {"num_players": "2", "is_public": "on", "is_rated": "on", "days_per_move": "3"},
    )
    assert response.status_code == 302
    game = Game.objects.get(creator=alice)
    assert (game.num_players, game.days_per_move, game.is_public) == (2, 3, True)
    assert b"Join this game" in b.get(f"/games/{game.pk}/").content
    assert b.post(f"/games/{game.pk}/join").status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    page = a.get(f"/games/{game.pk}/")
    assert page.status_code == 200 and 'data-seat="' in page.content.decode()


def test_create_form_errors_answer_400() -> None:
    response = client_for(UserFactory()).post("/games/new", {"num_players": "7"})
    assert response.status_code == 400
    assert not Game.objects.exists()


def test_private_game_needs_the_invite_link() -> None:
    alice, bob = UserFactory(), UserFactory()
    a = client_for(alice)
    a.post("/games/new", {"num_players": "2", "days_per_move": ""})
    game = Game.objects.get(creator=alice)
    assert not game.is_public
    b = client_for(bob)
    assert b.get(f"/games/{game.pk}/").status_code == 404
    assert Client().get("/").content.count(f"/games/{game.pk}/".encode()) == 0
    assert b.get(f"/games/{game.pk}/invite/wrong").status_code == 404
    assert b.get(f"/games/{game.pk}/invite/{game.invite_token}").status_code == 302
    assert b.get(f"/games/{game.pk}/").status_code == 200
    assert b.post(f"/games/{game.pk}/join").status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE


def test_game_page_marks_my_turn_and_offers_only_legal_actions() -> None:
    game, seats = started_game(3)
    page = client_for(seats[1]).get(f"/games/{game.pk}/")
    body = page.content.decode()
    assert 'data-seat="1"' in body and 'data-my-turn="1"' in body
    assert "<title>▶" in body
    legal = [str(a) for a in engine.legal_actions(game_state(game))]
    assert sorted(set(page_actions(page.content))) == sorted(legal)
    assert (
        'aria-label="e2, river, empty"' in body
        and 'aria-label="b2, land, red temple, special' in body
    )
    other = client_for(seats[2]).get(f"/games/{game.pk}/")
    assert page_actions(other.content) == []
    assert (
        'data-seat="2"' in other.content.decode() and "Waiting for Seat 1" in other.content.decode()
    )
    spectator = Client().get(f"/games/{game.pk}/")
    assert spectator.status_code == 200 and 'data-seat=""' in spectator.content.decode()


def test_htmx_gets_the_partial_only() -> None:
    game, seats = started_game(2)
    response = client_for(seats[1]).get(f"/games/{game.pk}/", HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert body.lstrip().startswith('<div id="game"') and "<html" not in body


def act(client: Client, game: Game, action: str, version: int, htmx: bool = True) -> Any:
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post(f"/games/{game.pk}/act", {"action": action, "version": version}, **headers)


def test_act_without_javascript_redirects_and_with_htmx_returns_the_partial() -> None:
    game, seats = started_game(2)
    c = client_for(seats[1])
    legal = [str(a) for a in engine.legal_actions(game_state(game))]
    response = act(c, game, legal[0], 0, htmx=False)
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    legal = [str(a) for a in engine.legal_actions(game_state(Game.objects.get(pk=game.pk)))]
    response = act(c, game, legal[0], 1)
    assert response.status_code == 200 and page_version(response.content) == 2


@pytest.mark.parametrize(
    ("case", "status", "message"),
    [
        ("anonymous", 403, "Sign in to play."),
        ("wrong_user", 403, "You are not playing in this game."),
        ("wrong_seat", 403, "It is not your turn to act."),
        ("stale", 409, "The game moved on"),
        ("malformed", 400, "Not a valid action"),
        ("missing", 400, "Choose an action or type one first."),
        ("illegal", 400, "Your king is not on the board."),
    ],
)
@pytest.mark.parametrize("htmx", [True, False])
def test_act_refusals_leave_the_database_unchanged(
    case: str, status: int, message: str, htmx: bool
) -> None:
    game, seats = started_game(2)
    legal = str(engine.legal_actions(game_state(game))[0])
    client = {
        "anonymous": Client(),
        "wrong_user": client_for(UserFactory()),
        "wrong_seat": client_for(seats[2]),
    }.get(case, client_for(seats[1]))
    data: dict[str, Any] = {"action": legal, "version": 0}
    if case == "stale":
        data["version"] = 3
    elif case == "malformed":
        data["action"] = "tile purple z99"
    elif case == "missing":
        data = {"version": "x"}
    elif case == "illegal":
        data["action"] = "withdraw king"
    before = snapshot(game)
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    response = client.post(f"/games/{game.pk}/act", data, **headers)
    assert response.status_code == status
    assert message in response.content.decode().replace("&#x27;", "'")
    assert "RULES.md" not in response.content.decode()
    assert snapshot(game) == before
    if case == "stale":
        assert page_version(response.content) == 0  # the fresh board
    typed = re.search(rb'<input name="action"[^>]*>', response.content)
    if case in ("malformed", "illegal"):  # put back in the box, to be mended
        assert typed and b'value="%s"' % data["action"].encode() in typed.group(0)
    elif typed:
        assert b"value=" not in typed.group(0)


def test_act_on_a_finished_game_is_refused() -> None:
    game, seats = started_game(2)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    before = snapshot(game)
    response = act(client_for(seats[1]), game, "pass", 0)
    assert response.status_code == 409 and b"This game is over." in response.content
    assert snapshot(game) == before


def test_act_needs_post_and_csrf() -> None:
    game, seats = started_game(2)
    c = client_for(seats[1])
    before = snapshot(game)
    opened = c.get(f"/games/{game.pk}/act")  # a reloaded or bookmarked address: the page
    assert opened.status_code == 302 and opened["Location"] == f"/games/{game.pk}/"
    assert snapshot(game) == before
    private = lifecycle.game_create(creator=UserFactory(), num_players=2, is_public=False)
    assert c.get(f"/games/{private.pk}/act").status_code == 404  # not a way to see a game
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(seats[1])
    before = snapshot(game)
    assert act(strict, game, "pass", 0).status_code == 403
    assert snapshot(game) == before


def test_poll_answers_204_while_unchanged_without_rendering(
    django_assert_max_num_queries: Any,
) -> None:
    game, seats = started_game(2)
    c = client_for(seats[2])
    with django_assert_max_num_queries(3):  # session, user, version
        response = c.get(f"/games/{game.pk}/poll?version=0")
    assert response.status_code == 204 and response.content == b""
    play_random_plies(game, seats, 1, random.Random(1))
    response = c.get(f"/games/{game.pk}/poll?version=0")
    assert response.status_code == 200 and page_version(response.content) == 1
    assert Client().get("/games/999999/poll?version=0").status_code == 404


def test_replay_steps_through_what_my_seat_saw() -> None:
    game, seats = started_game(2)
    game = play_random_plies(game, seats, 6, random.Random(3))
    c = client_for(seats[1])
    for ply in (0, 3, 6):
        response = c.get(f"/games/{game.pk}/replay?ply={ply}")
        assert response.status_code == 200
        assert f'data-ply="{ply}"' in response.content.decode()
        assert page_actions(response.content) == []
    partial = c.get(f"/games/{game.pk}/replay?ply=2", HTTP_HX_REQUEST="true")
    assert partial.content.decode().lstrip().startswith('<div id="replay"')
    # Spectators may not replay a game in progress.
    assert Client().get(f"/games/{game.pk}/replay").status_code == 302


def test_log_reads_in_words_and_marks_since_my_last_move() -> None:
    game, seats = started_game(2)
    rng = random.Random(5)
    game = play_random_plies(game, seats, 1, rng)
    # Play on until seat 2 has moved since seat 1's last move.
    while Move.objects.filter(game=game).order_by("-ply").first().seat == 1:  # type: ignore[union-attr]
        game = play_random_plies(game, seats, 1, rng)
    body = client_for(seats[1]).get(f"/games/{game.pk}/").content.decode()
    assert "Game log" in body and "Seat 1 (" in body
    assert "Since your last move" in body
    assert 'class="new"' in body and "changed" in body


def test_admin_lists_games_without_secrets(admin_client: Client) -> None:
    game, seats = started_game(2)
    listing = admin_client.get("/admin/games/game/")
    detail = admin_client.get(f"/admin/games/game/{game.pk}/change/")
    search = admin_client.get(f"/admin/games/game/?q={seats[1].username}")
    for response in (listing, detail, search):
        assert response.status_code == 200
        assert str(game.seed).encode() not in response.content
    assert f"/admin/games/game/{game.pk}/".encode() in search.content
    response = admin_client.post(
        "/admin/games/game/", {"action": "abort_games", "_selected_action": [game.pk]}
    )
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED
    assert admin_client.get("/admin/games/move/add/").status_code == 403


def test_lobby_shows_the_seated_players_ratings() -> None:
    from games.models import Profile

    veteran, newcomer = UserFactory(), UserFactory()
    Profile.objects.create(user=veteran, rating_mu=30.0, rating_sigma=2.0, rated_games=12)
    game = Game.objects.create(creator=veteran, num_players=3)
    game.seats.create(user=veteran)
    game.seats.create(user=newcomer)
    body = client_for(UserFactory()).get("/").content.decode()
    open_games = body[body.index('id="open-games"') :]
    # 1500 + 40·(30 − 3·2) = 2460, established; the newcomer starts at 1500 + 40·0, provisional.
    assert f'{veteran.username} <span class="rating"' in open_games
    assert ">2460</span>" in open_games
    assert ">1500?</span>" in open_games


def test_a_logged_out_player_is_offered_the_login_page() -> None:
    game, _ = started_game(2)
    response = Client().post(
        f"/games/{game.pk}/act", {"action": "pass", "version": 0}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 403
    assert f'href="/accounts/login/?next=/games/{game.pk}/"' in response.content.decode()


def test_the_language_button_names_each_language_in_itself() -> None:
    english = Client().get("/").content.decode()
    chinese = Client(HTTP_ACCEPT_LANGUAGE="zh-hans").get("/").content.decode()
    assert ">简体中文</button>" in english
    assert ">English</button>" in chinese


def test_polling_a_private_game_tells_a_stranger_nothing() -> None:
    game, seats = started_game(2)
    Game.objects.filter(pk=game.pk).update(is_public=False)  # as if joined by invitation
    stranger = client_for(UserFactory())
    for version in (game.version, 0, 99):
        assert stranger.get(f"/games/{game.pk}/poll?version={version}").status_code == 404
        assert Client().get(f"/games/{game.pk}/poll?version={version}").status_code == 404
    assert client_for(seats[2]).get(f"/games/{game.pk}/poll?version=0").status_code == 204


def test_each_dynasty_is_marked_in_the_players_list_with_the_sign_its_leaders_carry() -> None:
    game, seats = started_game(2)
    page = client_for(seats[1]).get(f"/games/{game.pk}/").content.decode()
    dynasties = {s.dynasty for s in game.seats.all()}
    assert len(dynasties) == 2
    for dynasty in dynasties:
        assert f'class="who d-{dynasty}"' in page
        assert f'<symbol id="p-{dynasty}"' in page  # the leaders' sign, in the sprite sheet
        css = (STATIC / "games/game.css").read_text()
        assert f".d-{dynasty} .dy" in css and f".who.d-{dynasty}::before" in css
        assert (STATIC / f"games/sign-{dynasty}.svg").exists()


def test_a_spectator_asking_for_the_replay_of_a_game_in_progress_is_told_why_not() -> None:
    game, _seats = started_game(2)
    response = Client().get(f"/games/{game.pk}/replay?ply=0", follow=True)
    assert response.redirect_chain == [(f"/games/{game.pk}/", 302)]
    assert "Only players can replay a game in progress." in response.content.decode()
    assert "data-hand-seat" not in response.content.decode()


def test_swapping_by_ticking_hand_tiles() -> None:
    game, seats = started_game(2)
    mover = game.to_act_seat or 0
    client = client_for(seats[mover])
    page = client.get(f"/games/{game.pk}/").content.decode()
    hand = game_state(game).to_dict()["hands"][mover - 1]  # counts: red, black, blue, green
    colors = [
        c for c, n in zip(("red", "black", "blue", "green"), hand, strict=True) for _ in range(n)
    ]
    assert page.count('name="swap" value=') == len(colors) == 6
    legal = {str(a) for a in engine.legal_actions(game_state(game)) if str(a).startswith("swap")}
    assert legal and all(f'data-action="{s}"' in page for s in legal)  # words for the confirm
    ticked = [colors[-1], colors[0]]  # in any order: the engine's colour order is restored
    response = client.post(f"/games/{game.pk}/act", {"swap": ticked, "version": 0})
    assert response.status_code == 302
    (move,) = Game.objects.get(pk=game.pk).moves.all()
    assert move.action == "swap " + " ".join(
        sorted(ticked, key=("red", "black", "blue", "green").index)
    )
    assert move.action in legal


def test_a_swap_with_nothing_ticked_changes_nothing() -> None:
    game, seats = started_game(2)
    client = client_for(seats[game.to_act_seat or 0])
    response = client.post(f"/games/{game.pk}/act", {"version": 0})
    assert response.status_code == 400
    assert "Choose an action or type one first." in response.content.decode()
    bad = client.post(f"/games/{game.pk}/act", {"swap": ["purple"], "version": 0})
    assert bad.status_code == 400
    assert Game.objects.get(pk=game.pk).version == 0
