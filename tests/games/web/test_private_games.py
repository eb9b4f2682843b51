"""A stranger cannot tell a private game from no game (issue 20, item 4).

Not on a player's public profile (running or finished, with status or place), and not in
the answers to join, leave and resign: the same status and the same page as for a game
number that does not exist. The game's players and invited guests still see it.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from games.models import Game
from games.play import lifecycle
from tests.games.factories import UserFactory, client_for, started_game

pytestmark = pytest.mark.django_db

CSRF = re.compile(rb'(csrfmiddlewaretoken" value="|X-CSRFToken": ")[^"]+')
NO_GAME = 999_999


def _private_open_game() -> tuple[Game, Any]:
    owner = UserFactory()
    client_for(owner).post("/games/new", {"num_players": "3", "days_per_move": ""})
    game = Game.objects.get(creator=owner)
    assert not game.is_public
    return game, owner


def _private_started_game(**options: Any) -> tuple[Game, dict[int, Any]]:
    """Start a two-player private game, the second player joining by invitation."""
    creator, guest = UserFactory(), UserFactory()
    game = lifecycle.game_create(creator=creator, num_players=2, is_public=False, **options)
    lifecycle.game_join(game_id=game.pk, user=guest, invite_token=game.invite_token)
    game.refresh_from_db()
    return game, {seat.position: seat.user for seat in game.seats.all()}


def _private_finished_game() -> tuple[Game, dict[int, Any]]:
    game, seats = _private_started_game(is_rated=False, days_per_move=None)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED, finished_at=timezone.now())
    for position, user in seats.items():
        game.seats.filter(user=user).update(final_rank=position)
    return game, seats


def _same_answer(client: Client, method: str, path: str, game_id: int) -> None:
    """Assert ``path`` answers for ``game_id`` exactly as for a game that does not exist."""
    send = getattr(client, method)
    data = {"confirm": "on"} if path == "resign" else {}
    real = send(f"/games/{game_id}/{path}", data, follow=True)
    fake = send(f"/games/{NO_GAME}/{path}", data, follow=True)
    assert real.status_code == fake.status_code == 404, (path, real.status_code)
    assert [r[1] for r in real.redirect_chain] == [r[1] for r in fake.redirect_chain]

    def scrub(body: bytes, number: int) -> bytes:
        body = CSRF.sub(rb"\1", body)
        return body.replace(f"/games/{number}/".encode(), b"/games/N/").replace(
            f"#{number}".encode(), b"#N"
        )

    assert scrub(real.content, game_id) == scrub(fake.content, NO_GAME), path


@pytest.mark.parametrize("path", ["join", "leave", "resign"])
def test_join_leave_and_resign_answer_a_stranger_as_for_no_game(path: str) -> None:
    stranger = client_for(UserFactory())
    open_game, _owner = _private_open_game()
    _same_answer(stranger, "post", path, open_game.pk)
    running, _seats = _private_started_game()
    _same_answer(stranger, "post", path, running.pk)
    finished, _seats = _private_finished_game()
    _same_answer(stranger, "post", path, finished.pk)


def test_the_invited_guest_and_the_players_still_reach_a_private_game() -> None:
    game, owner = _private_open_game()
    guest = client_for(UserFactory())
    assert guest.get(f"/games/{game.pk}/invite/{game.invite_token}").status_code == 302
    joined = guest.post(f"/games/{game.pk}/join")
    assert joined.status_code == 302 and joined["Location"] == f"/games/{game.pk}/"
    assert game.seats.count() == 2
    left = client_for(owner).post(f"/games/{game.pk}/leave")
    assert left.status_code == 302 and left["Location"] == "/"
    assert game.seats.count() == 1


def test_a_profile_lists_a_private_game_only_to_its_players() -> None:
    running, running_seats = _private_started_game()
    finished, finished_seats = _private_finished_game()
    public, public_seats = started_game(2)
    player = running_seats[1]
    # the same player in all three games
    for game, seats in ((finished, finished_seats), (public, public_seats)):
        game.seats.filter(user=seats[1]).update(user=player)
    stranger_view = client_for(UserFactory()).get(f"/players/{player.pk}/").content.decode()
    anonymous_view = Client().get(f"/players/{player.pk}/").content.decode()
    for page in (stranger_view, anonymous_view):
        assert f"/games/{public.pk}/" in page
        assert f"/games/{running.pk}/" not in page and f"/games/{finished.pk}/" not in page
        assert f"Game #{running.pk}" not in page and f"Game #{finished.pk}" not in page
        assert "place 1" not in page  # the private finished game's place
    mine = client_for(player).get(f"/players/{player.pk}/").content.decode()
    opponent = client_for(running_seats[2]).get(f"/players/{player.pk}/").content.decode()
    assert f"/games/{running.pk}/" in mine and f"/games/{finished.pk}/" in mine
    assert f"/games/{running.pk}/" in opponent and f"/games/{finished.pk}/" not in opponent
