"""The viewer a page is rendered for (games/web/viewer.py, issue 27): values, not rows."""

from __future__ import annotations

import sys
from types import FrameType
from typing import Any

import pytest
from django.template import Context, Template
from django.test import Client

from games.models import Profile
from games.selectors import games as selectors_games
from games.web.viewer import PageRequest, Viewer
from tests.games.factories import UserFactory, client_for, started_game

pytestmark = pytest.mark.django_db

PROBE = Template(
    "{{ user.seats.all.0.game.seed }}{{ request.user.seats.all.0.game.seed }}"
    "{{ viewer.seats.all.0.game.seed }}{{ messages.request.user.pk }}{{ perms.user.pk }}"
    "{{ player.seats.all.0.game.seed }}{{ form.user.seats.all.0.game.seed }}"
)


def _context(response: Any) -> dict[str, Any]:
    """Return the variables of the page's own template (the first context with a viewer)."""
    contexts = response.context if isinstance(response.context, list) else [response.context]
    return next(dict(c.flatten()) for c in contexts if "viewer" in c)


def test_a_players_game_page_knows_their_seat_and_a_spectators_none() -> None:
    game, seats = started_game(2)
    Profile.objects.update_or_create(
        user=seats[1], defaults={"display_name": "Gilgamesh", "time_zone": "Asia/Shanghai"}
    )
    mine = _context(client_for(seats[1]).get(f"/games/{game.pk}/"))
    viewer = mine["viewer"]
    assert isinstance(mine["user"], Viewer) or mine["user"] == viewer
    assert (viewer.id, viewer.seat, viewer.is_spectator) == (seats[1].pk, 1, False)
    assert (str(viewer.display_name), str(viewer.time_zone)) == ("Gilgamesh", "Asia/Shanghai")
    assert viewer.language == "en"
    theirs = _context(client_for(UserFactory()).get(f"/games/{game.pk}/"))
    assert theirs["viewer"].seat is None and theirs["viewer"].is_authenticated
    nobody = _context(Client().get(f"/games/{game.pk}/"))
    assert nobody["viewer"].is_anonymous and nobody["viewer"].id is None


def test_no_page_variable_reaches_a_seed_through_a_relation() -> None:
    """The issue's case, on real pages: every walk a template might try prints nothing."""
    game, seats = started_game(2)
    client = client_for(seats[1])
    for path in (f"/games/{game.pk}/", "/", f"/players/{seats[2].pk}/", "/settings"):
        response = client.get(path)
        assert response.status_code == 200
        context = _context(response)
        assert isinstance(context["request"], PageRequest)
        assert PROBE.render(Context(context)) == "", path
    # Before issue 27, the same probe on a User printed a seed.
    assert PROBE.render(Context({"user": seats[1]})) == str(game.seed)


def test_the_pages_read_the_request_and_user_as_before() -> None:
    """The names templates used still answer: sign-out's ``next``, the navigation's name."""
    user = UserFactory()
    Profile.objects.update_or_create(user=user, defaults={"display_name": "Enheduanna"})
    page = client_for(user).get("/leaderboard?x=1").content.decode()
    assert 'name="next" value="/leaderboard?x=1"' in page
    assert "Enheduanna" in page


def test_the_viewers_lazy_name_exposes_text_only() -> None:
    """The display name and time zone are read on first use; what computes them (the row,
    in the lazy text's ``_args``) is behind a name no template may use."""
    from django.template import TemplateSyntaxError

    from games.web.viewer import viewer_for_user

    game, seats = started_game(2)
    viewer = viewer_for_user(seats[1])
    assert [
        n for n in dir(viewer.display_name) if not n.startswith("_") and n not in dir(str)
    ] == []
    with pytest.raises(TemplateSyntaxError, match="underscore"):
        Template("{{ viewer.display_name._args.0.seats.all.0.game.seed }}")
    shown = Template("{{ viewer.display_name }}|{{ viewer.time_zone }}").render(
        Context({"viewer": viewer})
    )
    assert shown == f"{seats[1].username}|UTC"


def _seat_lookups(client: Client, path: str, **headers: Any) -> tuple[int, int]:
    """Return (status, how many times ``selectors.games.seat_for`` ran) for one request."""
    code = selectors_games.seat_for.__code__
    calls = 0

    def count(frame: FrameType, event: str, _arg: Any) -> None:
        nonlocal calls
        if event == "call" and frame.f_code is code:
            calls += 1

    sys.setprofile(count)
    try:
        response = client.get(path, **headers)
    finally:
        sys.setprofile(None)
    return response.status_code, calls


@pytest.mark.parametrize("htmx", [False, True])
def test_a_game_page_looks_the_viewers_seat_up_once(htmx: bool) -> None:
    """The seat is resolved into the ``Viewer`` once and passed down (issue 27): no context
    builder (the board, clock, chat, notes, orders, invitation) looks it up again."""
    game, seats = started_game(2)
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    for who in (seats[1], UserFactory()):
        client = client_for(who)
        client.get(f"/games/{game.pk}/", **headers)  # the session's language filled in once
        assert _seat_lookups(client, f"/games/{game.pk}/", **headers) == (200, 1)
    assert _seat_lookups(client_for(seats[1]), f"/games/{game.pk}/replay") == (200, 1)
