"""The status line says what the game waits for, also while a decision is pending."""

from __future__ import annotations

import re

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


def test_the_waiting_room_sees_the_game_start_without_reloading() -> None:
    from games import services
    from tests.games.factories import UserFactory

    creator, joiner = UserFactory(), UserFactory()
    game = services.game_create(creator=creator, num_players=2)
    waiting_room = client_for(creator).get(f"/games/{game.pk}/").content.decode()
    poll = re.search(r'hx-get="([^"]+)"', waiting_room)
    assert poll is not None and "Waiting for players" in waiting_room
    assert client_for(creator).get(poll.group(1), HTTP_HX_REQUEST="true").status_code == 200

    services.game_join(game_id=game.pk, user=joiner)  # the game starts, still at version 0
    started = client_for(creator).get(poll.group(1), HTTP_HX_REQUEST="true")
    assert started.status_code == 200
    body = started.content.decode()
    assert "Waiting for players" not in body and 'id="board"' in body
