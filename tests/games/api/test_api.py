"""The read API (issue 19): its schema, who sees what, tokens, pages, limits and errors."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client, override_settings
from openapi_spec_validator import validate

from games.accounts import tokens
from games.api.schemas import schema_of
from games.core.states import game_state
from games.models import AccessToken, Game
from games.play import lifecycle
from games.tournaments.league_values import LeagueHeader
from tests.games.api.conftest import World, token_client
from tests.games.factories import UserFactory
from tests.games.leaks import assert_json_no_leak

pytestmark = pytest.mark.django_db

API = "/api/v1"


def get(client: Client, path: str, **extra: Any) -> tuple[int, Any]:
    response = client.get(f"{API}{path}", **extra)
    assert response["Content-Type"].startswith("application/json"), (path, response.content)
    return response.status_code, json.loads(response.content)


# Every endpoint with what the anonymous visitor and the token owner get; the wrong token
# gets 401 on each. ``{public}``, ``{private}``, ``{owner}`` and ``{tournament}`` (a link-only
# tournament the owner is in) are filled from the world.
ENDPOINTS = [
    ("/games", 200, 200),
    ("/games/{public}", 200, 200),
    ("/games/{private}", 404, 200),
    ("/games/{public}/moves", 200, 200),
    ("/games/{private}/moves", 404, 200),
    ("/games/{public}/record", 409, 409),
    ("/games/{private}/record", 404, 409),
    ("/players/{owner}", 200, 200),
    ("/players/{owner}/rating", 200, 200),
    ("/players/{owner}/games", 200, 200),
    ("/leaderboard", 200, 200),
    ("/me", 401, 200),
    ("/me/waiting", 401, 200),
    ("/tournaments", 200, 200),
    ("/tournaments/{tournament}", 404, 200),
    ("/tournaments/{tournament}/standings", 404, 200),
    ("/tournaments/{tournament}/rounds", 404, 200),
    ("/leagues", 200, 200),
    ("/leagues/{league}", 200, 200),
    ("/leagues/{league}/seasons/1", 404, 404),  # a season not started yet
]


def fill(path: str, world: World) -> str:
    return path.format(
        public=world.public.pk,
        private=world.private.pk,
        owner=world.seats[1].pk,
        tournament=world.tournament.pk,
        league=world.league.pk,
    )


def test_the_schema_is_valid_openapi_and_every_path_is_tested() -> None:
    status, schema = get(Client(), "/openapi.json")
    assert status == 200
    validate(schema)  # raises on an invalid OpenAPI 3.1 document
    documented = {p.removeprefix(API) for p in schema["paths"]}
    tested = {
        p.replace("{public}", "{game_id}").replace("{private}", "{game_id}")
        for p, *_rest in ENDPOINTS
    }
    tested = {
        p.replace("{owner}", "{user_id}").replace("{tournament}", "{tournament_id}") for p in tested
    }
    tested = {
        p.replace("{league}", "{league_id}").replace("/seasons/1", "/seasons/{number}")
        for p in tested
    }
    assert documented == tested
    assert schema["components"]["securitySchemes"]["TokenAuth"]["scheme"] == "bearer"
    # a token is optional everywhere but on /me…
    security = {p: ops["get"]["security"] for p, ops in schema["paths"].items()}
    assert security[f"{API}/me"] == [{"TokenAuth": []}]
    assert security[f"{API}/games"] == [{}, {"TokenAuth": []}]


@pytest.mark.parametrize(("path", "anonymous", "owner"), ENDPOINTS)
def test_each_endpoint_for_anonymous_token_and_wrong_token(
    world: World, path: str, anonymous: int, owner: int
) -> None:
    url = fill(path, world)
    status, body = get(world.anon, url)
    assert status == anonymous, body
    status, body = get(world.owner, url)
    assert status == owner, body
    status, body = get(world.wrong, url)
    assert status == 401 and body["code"] == "bad_token"
    # a stranger's valid token sees what an anonymous visitor sees of others' games
    status, body = get(world.stranger, url)
    if "{private}" in path:
        assert status == 404 and body == {"detail": "There is no such game.", "code": "not_found"}


def test_a_private_game_is_no_game_to_anyone_but_its_players(world: World) -> None:
    for client in (world.anon, world.stranger):
        _status, listing = get(client, "/games")
        ids = {g["id"] for g in listing["results"]}
        assert world.public.pk in ids and world.private.pk not in ids
        _status, theirs = get(client, f"/players/{world.seats[1].pk}/games")
        assert [g["id"] for g in theirs["results"]] == [world.public.pk]
    _status, mine = get(world.owner, "/games")
    assert {world.public.pk, world.private.pk} <= {g["id"] for g in mine["results"]}
    # the same 404 as a game that does not exist
    assert get(world.anon, f"/games/{world.private.pk}") == get(world.anon, "/games/999999")


def test_a_token_reads_its_owners_hidden_view_and_nobody_elses(world: World) -> None:
    game = world.public
    _status, spectator = get(world.anon, f"/games/{game.pk}")
    assert spectator["viewer_seat"] is None and spectator["view"]["hand"] is None
    assert_json_no_leak(spectator, game, None)
    _status, mine = get(world.owner, f"/games/{game.pk}")
    assert mine["viewer_seat"] == 1 and sum(mine["view"]["hand"].values()) == 6
    assert_json_no_leak(mine, game, 1)
    assert mine["game"]["seats"][0]["player"]["id"] == world.seats[1].pk
    # The scan itself: seat 1's view is not seat 2's. Its hand tells them apart, unless both
    # hands hold the same tiles (a deal of random games): then its hidden totals do.
    seat_two = dict(zip(("red", "black", "blue", "green"), game_state(game).hands[1], strict=True))
    told_by = "hand" if mine["view"]["hand"] != seat_two else "seat 1's totals"
    with pytest.raises(AssertionError, match=f"{told_by} leaked"):
        assert_json_no_leak(mine, game, 2)


def test_games_waiting_for_me(world: World) -> None:
    from tests.games.playing import passing, submit

    while world.public.to_act_seat != 1:  # make the public game wait on its seat 1
        world.public = submit(world.public, world.seats, passing)
    _status, waiting = get(world.owner, "/me/waiting")
    owner = world.seats[1]
    expected = {
        g.pk
        for g in Game.objects.filter(pk__in=[world.public.pk, world.private.pk])
        if g.seats.get(user=owner).position == g.to_act_seat
    }
    assert expected and {g["id"] for g in waiting["results"]} == expected
    _status, me = get(world.owner, "/me")
    assert me["player"]["id"] == world.seats[1].pk
    assert me["token"]["name"] == "my tool" and me["token"]["scope"] == "read"
    assert world.secret not in json.dumps(me)


def test_the_filters_and_the_cursor_walk_every_game_once() -> None:
    creator = UserFactory()
    made = [lifecycle.game_create(creator=creator, num_players=2).pk for _ in range(5)]
    seen: list[int] = []
    url: str | None = f"{API}/games?status=open&page_size=2"
    pages = 0
    while url:
        body = json.loads(Client().get(url).content)
        seen += [g["id"] for g in body["results"]]
        assert all(g["status"] == "open" for g in body["results"])
        url = body["next"]
        pages += 1
    assert seen == sorted(made, reverse=True) and pages == 3
    _status, none = get(Client(), "/games?status=finished")
    assert none["results"] == []
    status, bad = get(Client(), "/games?status=won")
    assert status == 422 and bad["code"] == "invalid" and bad["errors"][0]["loc"][-1] == "status"
    status, bad = get(Client(), "/games?cursor=not-a-cursor")
    assert status == 422 and bad["errors"]


def test_moves_hide_a_swaps_colours_from_everyone_but_the_swapper(world: World) -> None:
    from tests.games.playing import submit

    game = submit(
        world.public, world.seats, lambda legal: next(a for a in legal if str(a).startswith("swap"))
    )
    swapper = game.moves.order_by("-ply").first()
    assert swapper is not None
    _status, mine = get(
        token_client(tokens.token_create(user=world.seats[swapper.seat], name="t")[1]),
        f"/games/{game.pk}/moves",
    )
    _status, theirs = get(world.anon, f"/games/{game.pk}/moves")
    assert mine["results"][-1]["action"] == swapper.action
    assert theirs["results"][-1]["action"] == f"swap {len(swapper.action.split()) - 1}"
    assert [m["ply"] for m in theirs["results"]] == list(range(1, game.version + 1))
    assert_json_no_leak(theirs, game, None)
    with pytest.raises(AssertionError, match="swap's colours leaked"):
        assert_json_no_leak(mine, game, None)  # the scan itself: the swapper's answer is theirs


def test_a_finished_games_record(world: World) -> None:
    game = world.public
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    status, record = get(world.anon, f"/games/{game.pk}/record")
    assert status == 200, record
    assert record["seed"] == game.seed and len(record["moves"]) == game.version
    assert [p["seat"] for p in record["players"]] == [1, 2]


def test_tokens_are_stored_hashed_and_revoked_ones_fail(world: World) -> None:
    row = AccessToken.objects.get(user=world.seats[1])
    assert world.secret not in {row.key_hash, row.prefix, row.name}
    assert row.key_hash == tokens.token_hash(world.secret) and len(row.key_hash) == 64
    assert world.secret.startswith(row.prefix) and len(world.secret) >= 40
    assert get(world.owner, "/me")[0] == 200
    assert tokens.token_revoke(user=world.seats[1], token_id=row.pk)
    status, body = get(world.owner, "/me")
    assert status == 401 and body["code"] == "bad_token"
    assert not tokens.token_revoke(user=world.seats[1], token_id=row.pk)  # once only


@override_settings(API_RATE_ANON="3/min", API_RATE_TOKEN="2/min")
def test_rate_limits_per_address_and_per_token_answer_429(world: World) -> None:
    assert [get(world.anon, "/leaderboard")[0] for _ in range(3)] == [200, 200, 200]
    status, body = get(world.anon, "/leaderboard")
    assert status == 429 and body["code"] == "rate_limited" and body["retry_after"] > 0
    response = world.anon.get(f"{API}/leaderboard")
    assert int(response["Retry-After"]) > 0
    # another address is counted apart, a token apart from its address
    assert get(world.anon, "/leaderboard", REMOTE_ADDR="10.1.2.3")[0] == 200
    assert [get(world.owner, "/me")[0] for _ in range(3)] == [200, 200, 429]
    assert get(world.stranger, "/me")[0] == 200
    # wrong tokens count against their address
    assert get(world.wrong, "/me", REMOTE_ADDR="10.9.9.9")[0] == 401


def test_every_refusal_is_json(world: World) -> None:
    assert get(world.anon, "/nowhere") == (
        404,
        {"detail": "There is nothing here.", "code": "not_found"},
    )
    response = world.owner.post(f"{API}/games")
    assert response.status_code == 405 and json.loads(response.content)["code"] == (
        "method_not_allowed"
    )
    status, body = get(world.anon, "/games", HTTP_AUTHORIZATION="Basic abc")
    assert status == 401 and body["code"] == "bad_token"
    assert get(world.anon, "/players/999999")[0] == 404


def test_the_leaderboard_pages_people_by_rating() -> None:
    from django.utils import timezone

    from games.models import Profile

    users = [UserFactory() for _ in range(3)]
    for n, user in enumerate(users):
        Profile.objects.create(
            user=user,
            rated_games=9,
            rating_mu=20 + n,
            rating_sigma=2,
            last_active_at=timezone.now(),
        )
    body = json.loads(Client().get(f"{API}/leaderboard?page_size=2").content)
    second = json.loads(Client().get(body["next"]).content)
    ids = [r["player"]["id"] for r in body["results"] + second["results"]]
    assert ids == [u.pk for u in reversed(users)]
    assert body["results"][0]["rating"] == 1500 + 40 * (22 - 6)


def _cursor(text: str) -> str:
    import base64

    return base64.b64encode(text.encode()).decode()


LEADERBOARD_POSITIONS = {
    "cursor=" + _cursor(p) for p in ("p=9223372036854775808", "p=-9223372036854775809", "p=1.5")
}


@pytest.mark.parametrize(
    "query",
    [
        "cursor=" + _cursor("o=-1&p=1"),
        "cursor=" + _cursor("p=abc"),
        "cursor=" + _cursor("o=1e9"),
        "cursor=" + _cursor("o=999999999999"),
        "cursor=" + _cursor("p=9223372036854775808"),
        "cursor=" + _cursor("p=-9223372036854775809"),
        "cursor=" + _cursor("p=1.5"),
        "cursor=" + _cursor("p=nan"),
        "cursor=" + _cursor("p=inf"),
        "cursor=" + _cursor("r=maybe"),
        "cursor=%FF%FE",
        "cursor=not-base64!",
        "page_size=0",
        "page_size=-3",
        "page_size=101",
        "page_size=abc",
        "player=9223372036854775808",
        "player=-1",
        "num_players=9223372036854775808",
    ],
)
def test_forged_cursors_and_parameters_answer_a_json_422_on_every_page(
    world: World, query: str
) -> None:
    """Issue 28 finding 6 (and 9: page_size): a JSON refusal, never a 500 or an HTML page."""
    owner = world.seats[1].pk
    for path in (
        "/games",
        f"/games/{world.public.pk}/moves",
        f"/players/{owner}/rating",
        f"/players/{owner}/games",
        "/leaderboard",
        "/me/waiting",
    ):
        if query.startswith(("player=", "num_players=")) and path != "/games":
            continue
        status, body = get(world.owner, f"{path}?{query}")
        if path == "/leaderboard" and query in LEADERBOARD_POSITIONS:
            # the leaderboard is ordered by a rating, a number: these are positions on it
            assert status == 200, body
            continue
        assert status == 422 and body["code"] == "invalid", (path, query, body)


@pytest.mark.parametrize(
    "path", ["/games/9223372036854775808", "/players/9223372036854775808", "/games/-1/moves"]
)
def test_ids_out_of_range_answer_json(world: World, path: str) -> None:
    status, body = get(world.owner, path)
    assert status in (404, 422) and body["code"] in ("not_found", "invalid"), body


def test_the_schema_documents_every_refusal_and_bounds_the_page_parameters() -> None:
    """Issue 28, finding 9: 401, 404, 409, 422 and 429 where they can come; cursor and
    page_size described as they are checked."""
    _status, schema = get(Client(), "/openapi.json")
    wanted = {
        "/games": {200, 401, 422, 429},
        "/games/{game_id}": {200, 401, 404, 422, 429},
        "/games/{game_id}/moves": {200, 401, 404, 422, 429},
        "/games/{game_id}/record": {200, 401, 404, 409, 422, 429},
        "/players/{user_id}": {200, 401, 404, 422, 429},
        "/players/{user_id}/rating": {200, 401, 404, 422, 429},
        "/players/{user_id}/games": {200, 401, 404, 422, 429},
        "/leaderboard": {200, 401, 422, 429},
        "/me": {200, 401, 429},
        "/me/waiting": {200, 401, 422, 429},
    }
    for path, codes in wanted.items():
        responses = schema["paths"][f"{API}{path}"]["get"]["responses"]
        assert {int(c) for c in responses} == codes, path
        for code in codes - {200}:
            ref = responses[str(code)]["content"]["application/json"]["schema"]["$ref"]
            shape = schema["components"]["schemas"][ref.rsplit("/", 1)[1]]
            assert {"detail", "code"} <= set(shape["properties"]), (path, code)
    params = {p["name"]: p for p in schema["paths"][f"{API}/games"]["get"]["parameters"]}
    size = params["page_size"]["schema"]["anyOf"][0]
    assert (size["minimum"], size["maximum"]) == (1, 100)
    cursor = params["cursor"]["schema"]["anyOf"][0]
    assert cursor["maxLength"] == 200 and cursor["pattern"]


def test_an_events_schema_is_its_pages_header_less_the_words_and_the_private() -> None:
    """``TournamentOut`` and ``LeagueOut`` are made from the headers (``schema_of``): the
    fields the API documents and answers, with their descriptions, named here once."""
    _status, schema = get(Client(), "/openapi.json")
    parts = schema["components"]["schemas"]
    tournament = parts["TournamentOut"]["properties"]
    assert set(tournament) == {
        *[
            "id",
            "name",
            "kind",
            "status",
            "table_size",
            "min_table_size",
            "rounds",
            "current_round",
            "players",
        ],
        *[
            "max_players",
            "points_by_rank",
            "bye_points",
            "is_rated",
            "bots_fill_seats",
            "days_per_move",
        ],
        *["time_control", "bank_days", "bank_increment_hours", "bank_cap_days", "playing_start"],
        *["playing_end", "playing_zone", "max_game_days", "starts_at"],
    }
    assert set(parts["TournamentOut"]["required"]) == set(tournament)
    assert tournament["points_by_rank"]["type"] == "array"
    assert tournament["playing_zone"]["description"] == "The playing hours' time zone (IANA)"
    league = parts["LeagueOut"]["properties"]
    assert set(league) == {
        *["id", "name", "table_size", "division_size", "promote", "season_weeks", "opt_in_days"],
        *["days_per_move", "is_rated", "bots_fill_seats", "access", "registration_open", "season"],
        *["time_control", "bank_days", "bank_increment_hours", "bank_cap_days", "playing_start"],
        *["playing_end", "playing_zone", "season_status", "season_starts_at", "members"],
    }
    assert set(parts["LeagueOut"]["required"]) == set(league)
    assert league["playing_zone"]["description"] == "The playing hours' time zone (IANA)"
    assert league["access"]["description"].startswith('"open", or "invite"')
    assert parts["LeagueOut"]["description"].startswith("A league's settings")


def test_schema_of_refuses_a_field_the_value_lacks() -> None:
    with pytest.raises(KeyError, match="creator"):
        schema_of(LeagueHeader, leave_out=("creator",))
