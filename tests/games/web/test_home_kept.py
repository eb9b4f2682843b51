"""The home page's renderings kept in the cache show every change at the next request (issue 31).

"My games" is kept rendered per player under a key made of every game in progress or open
of theirs with its facts (``selectors.games.games_of_user``), the words of its deadlines,
the names' stamp and the language (``games.web.views.lobby.lobby``): a move, a new game, a
seat taken, a start, an end, an accepted invitation, a player's new name and a deadline's
words drawing nearer each show at the next request, and an unchanged list is not read
again. The open games' table is kept for every visitor alike: its Join buttons post
through the page's one form, which holds the CSRF token.
"""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django.utils.timesince import timeuntil

import engine
from games.accounts import profiles
from games.community import follows, invitations
from games.core.states import game_state
from games.models import Game, Invitation
from games.play import lifecycle, limits, submit
from games.selectors import games as game_selectors
from games.text.seats import display_name
from games.web.views import lobby as lobby_view
from tests.games.factories import UserFactory, client_for

pytestmark = pytest.mark.django_db


def _section(body: str, name: str) -> str:
    start = body.index(f'id="{name}"')
    return body[start : body.index("</section>", start)]


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the reads of "My games"' rows (``_my_game_rows``): one per rendering made."""
    made: list[int] = []
    real = game_selectors._my_game_rows

    def counted(user_id: int, ids: list[int]) -> Any:
        made.append(user_id)
        return real(user_id, ids)

    monkeypatch.setattr(game_selectors, "_my_game_rows", counted)
    return made


def _mine(client: Client) -> str:
    return _section(client.get("/").content.decode(), "my-games")


def _turn_passes(game: Game) -> None:
    """Play the first legal actions of the seat to act in ``game``, through the service,
    until another seat is to act (a turn is two actions, RULES.md §2)."""
    game.refresh_from_db()
    seat = game.to_act_seat
    while game.to_act_seat == seat:
        player = game.seats.get(position=game.to_act_seat).user
        action = str(engine.legal_actions(game_state(game))[0])
        submit.game_submit_action(
            game_id=game.pk, user=player, action=action, expected_version=game.version
        )
        game.refresh_from_db()


def test_my_games_kept_rendered_shows_each_change_of_the_players_games_at_the_next_request(
    reads: list[int],
) -> None:
    me, rival = UserFactory(), UserFactory()
    profiles.profile_get(me), profiles.profile_get(rival)
    page = client_for(me)
    assert "You have no games yet" in _mine(page)
    assert "You have no games yet" in _mine(page) and len(reads) == 1  # kept: not read again
    # A new game of theirs.
    game = lifecycle.game_create(creator=me, num_players=2)
    listed = _mine(page)
    assert f"/games/{game.pk}/" in listed and "— open" in listed and len(reads) == 2
    # A seat taken: the game starts, with the other player named.
    lifecycle.game_join(game_id=game.pk, user=rival)
    listed = _mine(page)
    assert f"with {display_name(rival)}" in listed and len(reads) == 3
    game.refresh_from_db()
    mine_to_act = game.seats.get(user=me).position == game.to_act_seat
    assert ("your move" in listed) is mine_to_act
    # Moves: the turn passes to the other player.
    _turn_passes(game)
    listed = _mine(page)
    assert ("your move" in listed) is not mine_to_act and len(reads) == 4
    assert len(_mine(page)) == len(listed) and len(reads) == 4  # kept again
    # The other player's new name.
    profiles.profile_update(
        user=rival,
        display_name="Queen of Ur",
        language="en",
        time_zone="UTC",
        preferences={},
    )
    assert "with Queen of Ur" in _mine(page) and len(reads) == 5
    # The game's end.
    assert limits.game_end_at_limit(game_id=game.pk)
    listed = _mine(page)
    assert f"/games/{game.pk}/" in listed and "— finished" in listed and "your move" not in listed
    assert len(reads) == 6
    # An invitation accepted: its game is theirs.
    host = UserFactory()
    profiles.profile_get(host)
    invited = invitations.game_create_inviting(
        creator=host, invitees=[display_name(me)], num_players=3
    )
    listed = _mine(page)
    assert 'action="/invitations/' in listed and f"Game #{invited.pk} " not in listed
    invitation = Invitation.objects.get(game=invited, invitee=me)
    invitations.invitation_accept(invitation_id=invitation.pk, user=me)
    listed = _mine(page)
    assert f"Game #{invited.pk} " in listed and 'action="/invitations/' not in listed


def test_a_deadline_drawing_nearer_renders_my_games_again(
    reads: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lobby_view, "MY_GAMES_SECONDS", 10 * 24 * 3600)  # only the words
    me, rival = UserFactory(), UserFactory()
    game = lifecycle.game_create(creator=me, num_players=2, days_per_move=3)
    lifecycle.game_join(game_id=game.pk, user=rival)
    game.refresh_from_db()
    assert game.deadline is not None
    page = client_for(me)
    assert f"due in {timeuntil(game.deadline)}" in _mine(page)
    with time_machine.travel(timezone.now() + timedelta(hours=5)):
        listed = _mine(page)
        assert f"due in {timeuntil(game.deadline)}" in listed  # 5 hours nearer
    assert len(reads) == 2


def test_my_games_is_kept_per_player_and_language() -> None:
    me, other = UserFactory(), UserFactory()
    game = lifecycle.game_create(creator=me, num_players=2)
    assert f"/games/{game.pk}/" in _mine(client_for(me))
    assert "You have no games yet" in _mine(client_for(other))  # never another's list
    page = client_for(me)
    english = _mine(page)
    assert "Game #" in english
    page.post(reverse("set_language"), {"language": "zh-hans", "next": "/"})  # the switcher
    chinese = _mine(page)
    assert f"/games/{game.pk}/" in chinese and "Game #" not in chinese


def test_a_followed_players_new_game_a_move_and_a_new_name_show_at_the_next_request() -> None:
    me, followed = UserFactory(), UserFactory()
    profiles.profile_get(followed)
    follows.follow_set(user=me, followed_id=followed.pk, on=True)
    page = client_for(me)
    assert 'id="followed-games"' not in page.get("/").content.decode()
    first = lifecycle.game_create(creator=followed, num_players=2)
    lifecycle.game_join(game_id=first.pk, user=UserFactory())
    assert f"/games/{first.pk}/" in _section(page.get("/").content.decode(), "followed-games")
    second = lifecycle.game_create(creator=followed, num_players=2)
    lifecycle.game_join(game_id=second.pk, user=UserFactory())
    listed = _section(page.get("/").content.decode(), "followed-games")
    assert listed.index(f"/games/{second.pk}/") < listed.index(f"/games/{first.pk}/")
    _turn_passes(Game.objects.get(pk=first.pk))  # the latest moved first
    listed = _section(page.get("/").content.decode(), "followed-games")
    assert listed.index(f"/games/{first.pk}/") < listed.index(f"/games/{second.pk}/")
    profiles.profile_update(
        user=followed, display_name="Scribe of Uruk", language="en", time_zone="UTC", preferences={}
    )
    assert "Scribe of Uruk" in _section(page.get("/").content.decode(), "followed-games")


def test_the_open_games_join_through_the_pages_one_form_with_its_csrf_token() -> None:
    host, me = UserFactory(), UserFactory()
    game = lifecycle.game_create(creator=host, num_players=3)
    visitor = Client(enforce_csrf_checks=True)
    visitor.force_login(me)
    body = visitor.get("/").content.decode()
    table = _section(body, "open-games")
    assert table.count('<form method="post" id="join-form" hidden>') == 1
    assert "csrfmiddlewaretoken" in table.split("<table>")[0]  # the form's, before the table
    assert "csrfmiddlewaretoken" not in table.split("<table>")[1]  # the kept table has none
    button = re.search(
        rf'<button type="submit" form="join-form" formaction="(/games/{game.pk}/join)"', table
    )
    assert button
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', table)
    assert token
    assert visitor.post(button.group(1)).status_code == 403  # no token: refused, not joined
    assert not game.seats.filter(user=me).exists()
    joined = visitor.post(button.group(1), {"csrfmiddlewaretoken": token.group(1)})
    assert joined.status_code == 302 and game.seats.filter(user=me).exists()
    # The same table kept for another signed-in visitor: their own page's token posts it.
    other = client_for(UserFactory())
    assert f'formaction="/games/{game.pk}/join"' in _section(
        other.get("/").content.decode(), "open-games"
    )
    anonymous = _section(Client().get("/").content.decode(), "open-games")
    assert "join-form" not in anonymous and f"/games/{game.pk}/" in anonymous  # no buttons
    # The open games' own page posts the same way.
    listed = _section(other.get("/games/open").content.decode(), "open-games")
    assert listed.count('id="join-form"') == 1 and "csrfmiddlewaretoken" in listed
    assert f'form="join-form" formaction="/games/{game.pk}/join"' in listed
