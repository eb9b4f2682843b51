"""Whole 2- and 3-player games played through the views to the final scores.

Each player reads the ``data-action`` values their own page offers and picks one at random
(as a bot or a screen reader would); the engine is never asked what to play. Along the
way every acting page is checked for leaks, and at the end every hand and score is shown
and ``verify_games`` is clean.
"""

from __future__ import annotations

import random

import pytest
from django.core.management import call_command
from django.test import Client

from games.core.states import game_state
from games.models import Game, Move
from games.records.replay import replay_record
from tests.games.factories import UserFactory, client_for, page_actions, page_version
from tests.games.leaks import assert_no_leak

pytestmark = pytest.mark.django_db

MAX_PLIES = 600  # random games end by the bag long before this


def check_the_final_page(game_id: int, num_players: int) -> None:
    """A finished game's page, to anyone: the final scores, every hand and every total, no
    action offered; its replay opens at the first ply."""
    final = Client().get(f"/games/{game_id}/").content.decode()
    assert "Final scores" in final
    assert final.count("data-hand-seat=") == num_players
    assert final.count("data-vp-seat=") == num_players
    assert page_actions(final.encode()) == []
    replay = Client().get(f"/games/{game_id}/replay?ply=1")
    assert replay.status_code == 200


# Four players: ``tests/e2e/test_whole_games.py::test_whole_game_embedded`` plays its whole
# game through the same views, picking among the ``data-action`` values each page offers,
# to ``verify_games``, the record's round trip and ``check_the_final_page``, on SQLite; the
# databases differ in what two writers at once meet (``test_concurrency``), not in a
# game played one request at a time, which two and three seats play here on PostgreSQL.
@pytest.mark.parametrize(("num_players", "open_scoring"), [(2, False), (3, True)])
def test_whole_game_through_the_views(num_players: int, open_scoring: bool) -> None:
    rng = random.Random(1000 + num_players)
    users = [UserFactory() for _ in range(num_players)]
    clients = [client_for(u) for u in users]
    form = {"num_players": str(num_players), "is_public": "on", "days_per_move": "2"}
    if open_scoring:
        form["open_scoring"] = "on"
    assert clients[0].post("/games/new", form).status_code == 302
    game = Game.objects.get(creator=users[0])
    for client in clients[1:]:
        assert client.post(f"/games/{game.pk}/join").status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    by_seat = {s.position: clients[users.index(s.user)] for s in game.seats.all()}

    page = None
    acting = None
    for _ply in range(MAX_PLIES):
        row = Game.objects.values("status", "to_act_seat").get(pk=game.pk)
        if row["status"] != Game.Status.ACTIVE:
            break
        seat = row["to_act_seat"]
        if page is None or acting != seat:
            page = by_seat[seat].get(f"/games/{game.pk}/", HTTP_HX_REQUEST="true").content
        acting = seat
        actions = page_actions(page)
        assert actions, f"seat {seat} must act but its page offers nothing"
        version = page_version(page)
        response = by_seat[seat].post(
            f"/games/{game.pk}/act",
            {"action": rng.choice(actions), "version": version},
            HTTP_HX_REQUEST="true",
        )
        assert response.status_code == 200, response.content[:300]
        page = response.content
        if version % 25 == 0:
            game.refresh_from_db()
            assert_no_leak(page, game, seat)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED, "the game did not end"
    assert game.version == Move.objects.filter(game=game).count() > 20

    ranks = sorted(game.seats.values_list("final_rank", flat=True))
    assert ranks[0] == 1 and all(r is not None for r in ranks)
    check_the_final_page(game.pk, num_players)
    call_command("verify_games")
    # Its record (issue 19) round-trips: export → import gives the same end and ranks.
    replayed = replay_record(Client().get(f"/games/{game.pk}/record.json").content)
    assert replayed.final == game_state(game)
    by_seat = dict(game.seats.values_list("position", "final_rank"))
    assert {p["seat"]: p["rank"] for p in replayed.ranking} == by_seat
