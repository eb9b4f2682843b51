"""Who may see a game is one rule, and the web and the API agree on it (issue 27).

The rule (``games.selectors.visibility.games_visible_to``): a game's players always see it;
anyone else sees a public game, or a private one they are invited to (by name, while the
invitation is pending, or holding its link); an aborted game is its players' alone (and
staff's, when they could otherwise see it). Every path is asked for every pair of game and
viewer: the game page, its poll and its record, and the API's game, its moves and its list.
Before the rule was one, the API hid a private game from a player invited by name and showed
staff no aborted game, while the page did both.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games.accounts import tokens
from games.models import Game, Invitation
from games.selectors.visibility import games_visible_to
from tests.games.factories import UserFactory, client_for, started_game

pytestmark = pytest.mark.django_db

GAMES = ("public", "private", "public_aborted", "private_aborted")
VIEWERS = ("anonymous", "stranger", "player", "invited", "staff")
# Who sees what, written out: the rule of the module doc, row by row.
SEES = {
    "public": {"anonymous", "stranger", "player", "invited", "staff"},
    "private": {"player", "invited"},
    "public_aborted": {"player", "staff"},
    "private_aborted": {"player"},
}


@dataclass
class Table:
    """The four games and, for each viewer, the user (None: anonymous)."""

    games: dict[str, Game]
    users: dict[str, Any]


@pytest.fixture
def table() -> Table:
    stranger, invited = UserFactory(), UserFactory()
    staff = UserFactory(is_staff=True)
    player = UserFactory()
    games: dict[str, Game] = {}
    for name in GAMES:
        game, seats = started_game(2)
        Game.objects.filter(pk=game.pk).update(is_public=not name.startswith("private"))
        game.seats.filter(position=1).update(user=player)
        Invitation.objects.create(game=game, invitee=invited, inviter=seats[2])
        if name.endswith("aborted"):
            Game.objects.filter(pk=game.pk).update(status=Game.Status.ABORTED)
        games[name] = Game.objects.get(pk=game.pk)
    users = {
        "anonymous": None,
        "stranger": stranger,
        "player": player,
        "invited": invited,
        "staff": staff,
    }
    return Table(games, users)


def _web(user: Any) -> Client:
    return Client() if user is None else client_for(user)


def _api(user: Any) -> Client:
    if user is None:
        return Client()
    _row, secret = tokens.token_create(user=user, name="visibility")
    return Client(HTTP_AUTHORIZATION=f"Bearer {secret}")


def _web_sees(client: Client, game: Game) -> bool:
    page = client.get(f"/games/{game.pk}/").status_code
    poll = client.get(f"/games/{game.pk}/poll?version={game.version}").status_code
    record = client.get(f"/games/{game.pk}/record.json").status_code
    assert page in (200, 404) and record in (200, 404) and poll in (200, 204, 404)
    assert (page == 200) == (poll != 404) == (record == 200), (page, poll, record)
    return page == 200


def _api_sees(client: Client, game: Game) -> bool:
    detail = client.get(f"/api/v1/games/{game.pk}").status_code
    moves = client.get(f"/api/v1/games/{game.pk}/moves").status_code
    listed = {g["id"] for g in client.get("/api/v1/games?page_size=100").json()["results"]}
    assert detail in (200, 404) and moves in (200, 404)
    assert (detail == 200) == (moves == 200) == (game.pk in listed), (detail, moves)
    return detail == 200


@pytest.mark.parametrize("viewer", VIEWERS)
def test_the_web_and_the_api_follow_the_one_rule(table: Table, viewer: str) -> None:
    user = table.users[viewer]
    web, api = _web(user), _api(user)
    for name, game in table.games.items():
        wanted = viewer in SEES[name]
        assert _web_sees(web, game) == wanted, ("web", name, viewer)
        assert _api_sees(api, game) == wanted, ("api", name, viewer)
        queried = Game.objects.filter(games_visible_to(user or AnonymousUser()), pk=game.pk)
        assert queried.exists() == wanted, ("rule", name, viewer)


def test_an_invitation_link_opens_a_private_game_on_the_web_only(table: Table) -> None:
    """The link is remembered in the web session; the API reads no session (its tokens)."""
    guest = UserFactory()
    game = table.games["private"]
    client = client_for(guest)
    assert client.get(f"/games/{game.pk}/").status_code == 404
    client.get(f"/games/{game.pk}/invite/{game.invite_token}")
    assert _web_sees(client, game)
    assert not _api_sees(_api(guest), game)
    aborted = table.games["private_aborted"]
    client.get(f"/games/{aborted.pk}/invite/{aborted.invite_token}")
    assert not _web_sees(client, aborted)


def test_an_answered_invitation_no_longer_opens_a_private_game(table: Table) -> None:
    game = table.games["private"]
    Invitation.objects.filter(game=game).update(status=Invitation.Status.DECLINED)
    invited = table.users["invited"]
    assert not _web_sees(client_for(invited), game)
    assert not _api_sees(_api(invited), game)


def _seat_reads(sql: str) -> list[str]:
    """Return how the query ``sql`` (as run, its values written in) reads ``games_seat``.

    PostgreSQL: each scan of ``games_seat``'s index condition and filter (``EXPLAIN``), as
    text; SQLite: the plan's lines that
    search ``games_seat`` by one of its indexes (``EXPLAIN QUERY PLAN`` names the table by
    its alias, the index by its name: ``seat_…``, ``games_seat_…``).
    """
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # A test's tables are tiny, so the rows a plan reads depend on the planner's
            # whim (it may scan a dozen rows whatever the query). What is measured is the
            # query's shape: each scan of games_seat is restricted to the game at hand (its
            # index condition or filter names game_id), as the old rule's was not (a hashed
            # subplan over every seat of the player, by user_id alone).
            cursor.execute(f"EXPLAIN (FORMAT JSON) {sql}")
            plan = cursor.fetchone()[0]
            plan = json.loads(plan) if isinstance(plan, str) else plan
            reads, nodes = [], [plan[0]["Plan"]]
            while nodes:
                node = nodes.pop()
                nodes += node.get("Plans", [])
                if node.get("Relation Name") == "games_seat":
                    conditions = f"{node.get('Index Cond', '')} {node.get('Filter', '')}"
                    reads.append(conditions)
            return reads
        cursor.execute(f"EXPLAIN QUERY PLAN {sql}")
        lines = [row[-1] for row in cursor.fetchall()]
        return [line for line in lines if " INDEX seat_" in line or "games_seat" in line]


@pytest.mark.parametrize(
    "path",
    ["/games/{}/record.json", "/games/{}/chat", "/api/v1/games/{}", "/api/v1/games/{}/moves"],
)
def test_one_game_s_check_reads_only_the_player_s_seat_in_that_game(path: str) -> None:
    """A player with many games opening one reads their seat in it, not all their seats.

    Issue 31: the rule was ``id IN (every seat of the player)``, which PostgreSQL ran as a
    hashed subplan over all of them (the veteran's 728 seats at 0.72 of the full size) to
    check one game. The rule's query is the one that reads the invitations.
    """
    game, seats = started_game(2)
    veteran = seats[1]
    Game.objects.filter(pk=game.pk).update(is_public=False)  # only the seat lets them in
    for _ in range(12):
        other, _seats = started_game(2)
        other.seats.filter(position=1).update(user=veteran)
    client = _api(veteran) if path.startswith("/api/") else client_for(veteran)
    with CaptureQueriesContext(connection) as captured:
        assert client.get(path.format(game.pk)).status_code == 200
    rules = [q["sql"] for q in captured.captured_queries if "games_invitation" in q["sql"]]
    assert len(rules) == 1, rules
    reads = _seat_reads(rules[0])
    assert reads, "the rule reads the player's seats"
    if connection.vendor == "postgresql":
        assert all("game_id" in conditions for conditions in reads), reads
    else:
        assert all("game_id=?" in line for line in reads), reads
