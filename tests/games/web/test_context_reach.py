"""No template context holds a model row, so no relation can carry a game's secrets (issue 27).

``{{ u.seats.all.0.game.seed }}`` rendered from a ``User`` in a context prints another
game's seed: a row reaches every relation of it, and a game's row holds the seed and the
snapshot (every hand, the bag's order). Private notes and standing orders are rows too.
So every page and partial the site renders — to a seated player, a spectator and someone
signed out — is rendered here and each context walked as a template could walk it
(``tests.games.reach``): no model instance, queryset or manager may be reachable at all,
``user`` and ``request`` included. The JSON API renders no template (its leak test reads
its answers).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.template import Context, Template
from django.test import Client
from django.utils import timezone

import engine
from games.accounts.bots import bot_account
from games.community import follows, invitations
from games.community.chat import chat_post
from games.community.notes import note_save
from games.models import Game, Profile
from games.play import orders as play_orders
from games.play import ratings
from tests.games.factories import UserFactory, client_for, kept_for_the_module, started_game
from tests.games.reach import orm_object_in, templates_reached
from tests.games.records.helpers import finished_game

pytestmark = pytest.mark.django_db


@dataclass
class World:
    """A site with something on every page: games running, finished, open; chat, notes."""

    game: Game  # 3 players, running, with chat, notes and standing orders
    finished: Game  # 2 players, one resigned
    open_game: Game  # waiting for a second player, public
    seats: dict[int, Any]
    spectator: Any  # signed in, seated nowhere in ``game``
    invitation_id: int


def _world() -> World:
    game, seats = started_game(3)
    for n, user in seats.items():
        note_save(game_id=game.pk, user=user, text=f"private plan of seat {n}")
        chat_post(game_id=game.pk, user=user, text=f"table talk of seat {n}")
    every = {slot: kinds[-1] for slot, kinds in engine.ORDER_SLOTS.items()}
    play_orders.game_orders_set(game_id=game.pk, user=seats[1], orders=every)
    play_orders.default_orders_set(user=seats[1], orders=every)
    finished, two = finished_game(2)
    spectator = UserFactory()
    Profile.objects.update_or_create(user=seats[1], defaults={"display_name": "Ishtar"})
    open_game = invitations.game_create_inviting(creator=two[1], invitees=["Ishtar"], num_players=2)
    invitation = open_game.invitations.get()  # type: ignore[attr-defined]
    follows.follow_set(user=seats[1], followed_id=two[1].pk, on=True)
    follows.follow_set(user=spectator, followed_id=seats[2].pk, on=True)
    # seats[2] on the leaderboard: rated enough and active lately.
    Profile.objects.update_or_create(
        user=seats[2],
        defaults={"rated_games": ratings.PROVISIONAL_GAMES, "last_active_at": timezone.now()},
    )
    return World(game, finished, open_game, seats, spectator, invitation.pk)


@pytest.fixture(scope="module")
def shared_world(django_db_setup: None, django_db_blocker: Any) -> Iterator[World]:
    """One world for the whole module: built once (a finished game is played for it, ~1 s
    a test otherwise), in a transaction rolled back after the module's last test."""
    with kept_for_the_module(django_db_blocker):
        yield _world()


@pytest.fixture
def world(shared_world: World) -> World:
    """The module's world, its games read afresh. Each test runs in a savepoint inside the
    module's transaction (``django_db``), rolled back after it: what a test's requests
    write (a move, a session, a profile, a token) never reaches the next test."""
    for game in (shared_world.game, shared_world.finished, shared_world.open_game):
        game.refresh_from_db()
    return shared_world


def _player(w: World) -> Client:
    return client_for(w.seats[1])


def _other_player(w: World) -> Client:
    return client_for(w.seats[2])


def _spectator(w: World) -> Client:
    return client_for(w.spectator)


def _anonymous(w: World) -> Client:
    return Client()


VIEWERS: dict[str, Callable[[World], Client]] = {
    "player": _player,
    "spectator": _spectator,
    "anonymous": _anonymous,
}

# (page, path from the world, headers); each is asked by each viewer of VIEWERS.
PAGES: dict[str, Callable[[World], str]] = {
    "home": lambda w: "/",
    "game": lambda w: f"/games/{w.game.pk}/",
    "game_partial": lambda w: f"/games/{w.game.pk}/#htmx",
    "poll": lambda w: f"/games/{w.game.pk}/poll?version=-1",
    "chat": lambda w: f"/games/{w.game.pk}/chat?after=0",
    "finished_game": lambda w: f"/games/{w.finished.pk}/",
    "finished_replay": lambda w: f"/games/{w.finished.pk}/replay",
    "open_game": lambda w: f"/games/{w.open_game.pk}/",
    "profile": lambda w: f"/players/{w.seats[2].pk}/",
    "bot_profile": lambda w: f"/players/{bot_account('medium').pk}/",  # its strength, issue 26
    "leaderboard": lambda w: "/leaderboard",
    "open_games": lambda w: "/games/open",  # issue 31: every open game, in pages
    "profile_running_page": lambda w: f"/players/{w.seats[2].pk}/?current_after={2**40}",
    "rules": lambda w: "/rules/",
    "analysis": lambda w: "/analysis/",
    "leagues": lambda w: "/leagues/",
}
# Pages for the signed-in viewer only (the others are sent to sign in).
PLAYER_PAGES: dict[str, Callable[[World], str]] = {
    "settings": lambda w: "/settings",
    "replay_live": lambda w: f"/games/{w.game.pk}/replay",
    "play_bot": lambda w: "/games/bot",
    # allauth's own pages, inside the site's layout (templates/allauth/layouts/base.html)
    "account_email": lambda w: "/accounts/email/",
    "account_set_password": lambda w: "/accounts/password/set/",  # no password yet
    "account_logout": lambda w: "/accounts/logout/",
}
# allauth's pages for someone signed out (a signed-in viewer is sent on from most).
ANONYMOUS_PAGES: dict[str, Callable[[World], str]] = {
    "account_login": lambda w: "/accounts/login/",
    "account_signup": lambda w: "/accounts/signup/",
    "account_reset_password": lambda w: "/accounts/password/reset/",
    "account_reset_password_done": lambda w: "/accounts/password/reset/done/",
    "account_inactive": lambda w: "/accounts/inactive/",
}

# What allauth itself builds and the site does not, left on its pages (issue 27, not yet
# replaced): the forms that change the signed-in account hold it (``form.user``: password
# change, reauthentication, adding an address), and the email page lists the account's
# ``EmailAddress`` rows. Named one by one: anything else found on these pages fails, and
# ``user``, ``request`` and ``view`` are values there too (page_values, the middleware).
ALLAUTH_OWN = ("form.user: ", "emailaddresses[", "emailaddress_radios[")


def _found(page: str, found: list[str]) -> list[str]:
    """Return the findings of ``page`` but allauth's own (``ALLAUTH_OWN``) on its pages."""
    if not page.startswith("account_"):
        return found
    return [f for f in found if not f.split(": ", 1)[-1].startswith(ALLAUTH_OWN)]


CASES = (
    [(page, viewer) for page in PAGES for viewer in VIEWERS]
    + [(page, "player") for page in PLAYER_PAGES]
    + [(page, "anonymous") for page in ANONYMOUS_PAGES]
)


def _get(client: Client, path: str) -> Any:
    if path.endswith("#htmx"):
        return client.get(path.removesuffix("#htmx"), HTTP_HX_REQUEST="true")
    return client.get(path)


@pytest.mark.parametrize(("page", "viewer"), CASES, ids=[f"{p}-{v}" for p, v in CASES])
def test_no_template_context_reaches_a_model_row(world: World, page: str, viewer: str) -> None:
    client = VIEWERS[viewer](world)
    path = {**PAGES, **PLAYER_PAGES, **ANONYMOUS_PAGES}[page](world)
    with templates_reached() as reached:
        response = _get(client, path)
    assert response.status_code in (200, 204), (path, response.status_code)
    if response.status_code == 200:
        assert reached.templates, f"{path} rendered no template"
    found = _found(page, reached.found)
    assert not found, "a template could reach a model row:\n" + "\n".join(sorted(set(found)))


def test_no_context_of_a_move_and_its_partials_reaches_a_model_row(world: World) -> None:
    """A submit (the page's HTMX answer), the confirm step's preview and a chat line."""
    from urllib.parse import quote

    from games.core.states import game_state

    game = world.game
    game.refresh_from_db()
    state = game_state(game)
    mover = client_for(world.seats[state.to_act])
    action = str(engine.legal_actions(state)[0])
    with templates_reached() as reached:
        preview = mover.get(f"/games/{game.pk}/preview?action={quote(action)}")
        acted = mover.post(
            f"/games/{game.pk}/act",
            {"action": action, "version": game.version},
            HTTP_HX_REQUEST="true",
        )
        chat = mover.post(f"/games/{game.pk}/chat/send", {"text": "well played"})
    assert preview.status_code == 200 and acted.status_code == 200
    assert chat.status_code in (200, 204, 302)
    assert reached.templates
    assert not reached.found, "\n".join(sorted(set(reached.found)))


def test_no_email_context_reaches_a_model_row(world: World) -> None:
    """The turn emails the move above queued, rendered as they are sent."""
    from games.mail import notification as emails
    from games.models import Notification

    rows = list(Notification.objects.filter(game=world.game))
    assert rows, "starting a game tells its first player"
    with templates_reached() as reached:
        for row in rows:
            emails.notification_send(row)
    assert any(name.startswith("emails/") for name in reached.templates)
    assert not reached.found, "\n".join(sorted(set(reached.found)))


def test_a_user_in_a_context_reaches_another_games_seed(world: World) -> None:
    """Why the rule is "no row at all": the relation walk is real, and the walker sees it."""
    user = world.seats[2]
    probe = Template("{{ u.seats.all.0.game.seed }}")
    shown = probe.render(Context({"u": user}))
    assert shown == str(Game.objects.filter(seats__user=user).order_by("seats__pk")[0].seed)
    found = orm_object_in({"rows": [{"u": user}]}, "context", {})
    assert found == "context['rows'][0]['u']: a User row"
    form = type("Form", (), {})()
    form.user = user
    assert orm_object_in(form, "form", {}) == "form.user: a User row"
    assert orm_object_in(Game.objects.all(), "games", {}) == "games: a query of Game rows"


def test_the_walker_passes_plain_values_and_finds_a_row_behind_a_lazy_object() -> None:
    from django.utils.functional import SimpleLazyObject

    game, seats = started_game(2)
    plain = {"id": 1, "name": "Ann", "when": timezone.now(), "items": (1, "a", None)}
    assert orm_object_in(plain, "context", {}) == ""
    lazy = SimpleLazyObject(lambda: seats[1])
    assert orm_object_in({"user": lazy}, "context", {}) == "context['user']: a User row"


def test_no_context_of_an_answer_to_a_form_reaches_a_model_row(world: World) -> None:
    """What POSTs answer with a page: a token just made (the API panel with its rows), a
    refused setting, saved notes, refused standing orders, and the 404 page."""
    from games.models import Webhook

    player = _player(world)
    game = world.game
    Webhook.objects.create(user=world.seats[1], kind="json", url="https://example.com/hook")
    with templates_reached() as reached:
        answers = [
            player.post("/settings/tokens", {"name": "my script"}),
            player.post("/settings", {"display_name": ""}),
            player.post(
                f"/games/{game.pk}/notes", {"text": "keep the red"}, HTTP_HX_REQUEST="true"
            ),
            player.post(f"/games/{game.pk}/orders", {"war_attacker": "nonsense"}),
            player.post("/settings/orders", {"war_attacker": "nonsense"}),
            player.get("/players/999999/"),
        ]
    assert [a.status_code for a in answers] == [200, 200, 200, 400, 400, 404]
    assert {"accounts/_api.html", "accounts/settings.html", "404.html"} <= set(reached.templates)
    assert not reached.found, "\n".join(sorted(set(reached.found)))


def test_no_context_of_a_partial_rendered_ahead_reaches_a_model_row(world: World) -> None:
    """The worker renders each player's ``#game`` partial ahead of their poll (no request)."""
    from games.selectors.games import with_seats
    from games.web import prerender

    game = with_seats(Game.objects.filter(pk=world.game.pk)).get()
    with templates_reached() as reached:
        stored = prerender.partials_store(game, stamp="s")
    assert stored == 3 and "game" in reached.templates  # the partial "games/game.html#game"
    assert not reached.found, "\n".join(sorted(set(reached.found)))
