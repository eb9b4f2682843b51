"""The status line says what the game waits for, also while a decision is pending."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.engine.rules_helpers import play, position
from tests.games.factories import client_for, game_at_state

pytestmark = pytest.mark.django_db

STATUS = re.compile(r'<p class="status"[^>]*>(.*?)</p>', re.S)


def test_while_a_war_waits_on_a_seat_the_others_read_whom_it_waits_for() -> None:
    kingdoms = {"c5": "r", "c6": "1K", "d5": "k", "e5": "k"}
    kingdoms |= {"g5": "k", "h5": "k", "i5": "r", "j5": "2K"}
    state = play(position(kingdoms, hands={1: "g k", 2: "b"}), "tile green f5")
    assert state.pending is not None and state.pending.kind == "support"
    game, seats = game_at_state(state)
    deciding = state.to_act
    waiting = 3 - deciding

    theirs = client_for(seats[waiting]).get(f"/games/{game.pk}/").content.decode()
    status = STATUS.search(theirs)
    assert status is not None
    assert "Waiting for Seat" in status.group(1) and "to commit support" in status.group(1)
    assert theirs.count("to commit support") == 1  # said once, not again in the panel

    mine = client_for(seats[deciding]).get(f"/games/{game.pk}/").content.decode()
    assert "Your move." in STATUS.search(mine).group(1)  # type: ignore[union-attr]


def test_the_waiting_room_sees_players_join_and_the_game_start_without_reloading() -> None:
    from games.play import lifecycle
    from tests.games.factories import UserFactory

    creator, second, third = UserFactory(), UserFactory(), UserFactory()
    game = lifecycle.game_create(creator=creator, num_players=3, is_public=False)
    room = client_for(creator)

    def poll() -> Any:
        page = room.get(f"/games/{game.pk}/").content.decode()
        found = re.search(r'data-poll="([^"]+)"[^>]*data-waiting="(\d+)"', page)
        assert found is not None
        return f"{found.group(1)}?waiting={found.group(2)}"

    url = poll()
    # Nothing changed: 204, so the page (and a selected invitation link) stays as it is.
    assert room.get(url, HTTP_HX_REQUEST="true").status_code == 204
    # A stranger learns nothing about a private game's waiting room.
    assert client_for(UserFactory()).get(url, HTTP_HX_REQUEST="true").status_code == 404

    lifecycle.game_join(game_id=game.pk, user=second, invite_token=game.invite_token)
    joined = room.get(url, HTTP_HX_REQUEST="true")
    assert joined.status_code == 200 and "Waiting for players" in joined.content.decode()
    url = poll()
    assert room.get(url, HTTP_HX_REQUEST="true").status_code == 204

    lifecycle.game_join(game_id=game.pk, user=third, invite_token=game.invite_token)
    started = room.get(url, HTTP_HX_REQUEST="true")  # the game started, still at version 0
    assert started.status_code == 200
    body = started.content.decode()
    assert "Waiting for players" not in body and 'id="board"' in body


def test_a_private_game_says_so() -> None:
    from games.play import lifecycle
    from tests.games.factories import UserFactory

    creator = UserFactory()
    private = lifecycle.game_create(creator=creator, num_players=2, is_public=False)
    public = lifecycle.game_create(creator=creator, num_players=2)
    client = client_for(creator)
    assert "private: by invitation only" in client.get(f"/games/{private.pk}/").content.decode()
    assert "private: by invitation only" not in client.get(f"/games/{public.pk}/").content.decode()


def test_a_poll_brings_the_navigations_count_of_games_waiting_out_of_band() -> None:
    import random

    from tests.games.factories import play_random_plies, started_game

    game, seats = started_game(2)
    first = game.to_act_seat
    assert first is not None
    other = client_for(seats[3 - first])
    page = other.get(f"/games/{game.pk}/").content.decode()
    assert page.count('id="nav-waiting"') == 1 and "hx-swap-oob" not in page
    rng = random.Random(12)
    while game.to_act_seat == first:
        game = play_random_plies(game, seats, 1, rng)
    polled = other.get(f"/games/{game.pk}/poll?version=0", HTTP_HX_REQUEST="true")
    body = polled.content.decode()
    nav = re.search(r'<a [^>]*id="nav-waiting" hx-swap-oob="true">(.*?)</a>', body, re.S)
    assert nav is not None
    assert '<span class="badge"' in nav.group(1) and ">1</span>" in nav.group(1)
    assert body.index('id="nav-waiting"') > body.rindex("</div>")  # after #game, not in it
