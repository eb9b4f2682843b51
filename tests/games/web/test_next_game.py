"""After the last action of a turn, every path offers the next game waiting (issue 17).

The submit (HTMX or a plain form), the page and the poll say the same, and the navigation's
count of games waiting follows.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from games.models import Game
from games.play import lifecycle
from tests.games.factories import UserFactory, client_for
from tests.games.playing import passing, submit

pytestmark = pytest.mark.django_db

NEXT = re.compile(r'<div id="next-game"( hx-swap-oob="true")?>(.*?)</div>', re.S)
BADGE = re.compile(r'id="nav-waiting"[^>]*>.*?(?:<span class="badge"[^>]*>(\d+)</span>)?</a>', re.S)


def _waiting_on(me: Any) -> Game:
    """Return a new 2-player game of ``me`` and a stranger that waits on ``me``."""
    other = UserFactory()
    game = lifecycle.game_create(creator=other, num_players=2)
    lifecycle.game_join(game_id=game.pk, user=me)
    game.refresh_from_db()
    seats = {s.position: s.user for s in game.seats.all()}
    if seats[game.to_act_seat or 0] != me:
        game = submit(game, seats, passing)
        while seats[game.to_act_seat or 0] != me:
            game = submit(game, seats, passing)
    return game


def _offered(body: str) -> tuple[str | None, str | None]:
    """Return (the next game offered, the navigation's count) of a page or partial."""
    found = NEXT.search(body)
    assert found is not None, "no #next-game slot"
    game = re.search(r'data-next-game="(\d+)"', found.group(2))
    badge = BADGE.search(body)
    assert badge is not None, "no navigation count"
    return (game.group(1) if game else None), badge.group(1)


def _pass_turn(client: Any, game: Game, *, htmx: bool) -> str:
    """Pass until ``game`` waits on the other player; return the last answer's body."""
    extra = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    mine = game.to_act_seat
    body = ""
    while game.to_act_seat == mine:
        answer = client.post(
            f"/games/{game.pk}/act", {"action": "pass", "version": game.version}, **extra
        )
        assert answer.status_code in (200, 302), answer.content[:300]
        body = answer.content.decode()
        game.refresh_from_db()
    return body


def test_every_path_offers_the_next_game_and_the_count_follows() -> None:
    me = UserFactory()
    first, second, third = _waiting_on(me), _waiting_on(me), _waiting_on(me)
    client = client_for(me)
    page = client.get(f"/games/{first.pk}/").content.decode()
    assert _offered(page) == (None, "3")  # this game waits on me: nothing else is pushed
    # The HTMX submit: the partial's out-of-band slot offers the oldest other game.
    body = _pass_turn(client, first, htmx=True)
    assert _offered(body) == (str(second.pk), "2")
    assert NEXT.search(body).group(1)  # type: ignore[union-attr]  # swapped out of band
    # The page, and a poll of it, say the same.
    assert _offered(client.get(f"/games/{first.pk}/").content.decode()) == (str(second.pk), "2")
    polled = client.get(f"/games/{first.pk}/poll?version=0", HTTP_HX_REQUEST="true")
    assert _offered(polled.content.decode()) == (str(second.pk), "2")
    # A plain form submit redirects to the page, which offers the next one.
    _pass_turn(client, second, htmx=False)
    page = client.get(f"/games/{second.pk}/").content.decode()
    assert _offered(page) == (str(third.pk), "1")
    assert "Another game is waiting" not in page  # one offer, not a message besides it
    # The last one: nothing left to offer, and no count.
    body = _pass_turn(client, third, htmx=True)
    assert _offered(body) == (None, None)
