"""The game page: the decision panel, aborted and finished games, the replay of a finished one."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games.core.history import colours_by_ply
from games.core.states import game_state
from games.play import lifecycle
from games.play.submit import game_submit_action
from tests.engine.rules_helpers import play, position
from tests.games.factories import (
    UserFactory,
    client_for,
    game_at_state,
    started_game,
)
from tests.games.records.helpers import one_ply_from_the_end

pytestmark = pytest.mark.django_db


def section(body: str, marker: str, end: str) -> str:
    """Return ``body`` from ``marker`` to the first ``end`` after it."""
    start = body.index(marker)
    return body[start : body.index(end, start)]


def test_a_monument_decision_offers_its_choices_inside_the_decision_panel() -> None:
    block = {"g4": "r", "h4": "r", "g5": "r", "e5": "r", "f5": "1K"}
    state = play(position(block, hands={1: "r k"}), "tile red h5")
    game, seats = game_at_state(state)
    body = client_for(seats[1]).get(f"/games/{game.pk}/").content.decode()
    panel = section(body, 'id="decision"', "</section>")
    for choice in ("monument red-blue g4", "monument red-black g4", "decline monument"):
        assert f'data-action="{choice}"' in panel
    assert "red/blue · g4–h5" in panel  # named by its colours and the 2×2 it covers


def test_a_spectator_gets_no_empty_tray_but_sees_a_decision_being_answered() -> None:
    game, _seats = started_game(2)
    assert 'id="tray"' not in Client().get(f"/games/{game.pk}/").content.decode()
    revolt = {"c5": "r", "c6": "2P", "d6": "r"}
    state = play(position(revolt, hands={1: "r", 2: "r"}), "leader priest e6", "commit 0")
    deciding, _seats = game_at_state(state)
    body = Client().get(f"/games/{deciding.pk}/").content.decode()
    assert 'id="tray"' in body and 'id="hand"' in body
    assert "revolt over the red leaders" in section(body, 'id="decision"', "</section>").lower()


def test_an_aborted_game_stays_readable_for_its_players_only() -> None:
    game, seats = started_game(2)
    lifecycle.game_abort(game_id=game.pk)
    page = client_for(seats[1]).get(f"/games/{game.pk}/")
    body = page.content.decode()
    assert page.status_code == 200 and "aborted by an administrator" in body
    assert "data-action=" not in body
    assert client_for(UserFactory()).get(f"/games/{game.pk}/").status_code == 404


def test_a_finished_game_names_the_winner_shows_treasures_and_charts_ratings() -> None:
    game, seats, finish = one_ply_from_the_end(2, seed=5)
    game = finish()  # the last ply through the submit service: ranks and ratings as in play
    body = client_for(seats[1]).get(f"/games/{game.pk}/").content.decode()

    status = section(body, 'class="status"', "</p>")
    winner = game.seats.get(final_rank=1)
    assert "wins." in status and winner.user.username in status

    final = section(body, 'id="final"', "</section>")
    assert "<th>Treasures</th>" in final
    held = game_state(game).treasures_held
    rows = re.findall(r"<tr><td>\d+</td><td>Seat (\d)[^<]*</td><td>(\d+)</td>", final)
    assert sorted((int(s), int(t)) for s, t in rows) == [(1, held[0]), (2, held[1])]

    # Each player's four colours over the game (issue 18): one pygal chart per seat, the
    # lines ending at the seat's colours before treasures, on the result and replay pages.
    charts = section(body, 'id="colour-charts"', "</section>")
    images = re.findall(r'<img src="([^"]+)"', charts)
    assert images == [f"/games/{game.pk}/colours/1.svg", f"/games/{game.pk}/colours/2.svg"]
    replay = client_for(seats[2]).get(f"/games/{game.pk}/replay").content.decode()
    assert re.findall(r'<img src="([^"]+)"', section(replay, 'id="colour-charts"', "</section>"))
    svg = Client().get(images[0])
    assert svg["Content-Type"].startswith("image/svg+xml") and "script-src" not in svg.get(
        "Content-Security-Policy", ""
    )
    # Four lines (one per colour), each ending at seat 1's colours before treasures.
    final = game_state(game).vp[0]
    assert svg.content.decode().count('class="line reactive nofill"') == 4
    assert colours_by_ply(game)[1][-1] == tuple(final) and len(colours_by_ply(game)[1]) == (
        game.version + 1
    )

    player = game.seats.get(position=1).user
    profile = Client().get(f"/players/{player.pk}/").content.decode()
    assert f'src="/players/{player.pk}/rating.svg"' in profile
    chart = Client().get(f"/players/{player.pk}/rating.svg").content.decode()
    assert len(re.findall(r'<circle[^>]*class="dot ', chart)) == 1  # one per rated game


def test_a_finished_games_replay_shows_every_hand_but_an_unfinished_ones_does_not() -> None:
    game, seats, finish = one_ply_from_the_end(2, seed=2)
    mid = client_for(seats[1]).get(f"/games/{game.pk}/replay?ply=3").content.decode()
    assert 'data-hand-seat="2"' not in mid  # running: the other seat's hand is hidden
    game = finish()
    after = client_for(seats[1]).get(f"/games/{game.pk}/replay?ply=3").content.decode()
    assert 'data-hand-seat="1"' in after and 'data-hand-seat="2"' in after


def test_log_lines_name_the_player_in_every_clause_in_their_dynastys_colour_and_sign() -> None:
    """Issue 16, then 32: every mention is the sign and the name ("1 red VP to ana"), never
    the sign alone."""
    game, seats = game_at_state(position({"e5": "r", "f5": "1K"}, hands={1: "r r k", 2: "b"}))
    game_submit_action(game_id=game.pk, user=seats[1], action="tile red e6", expected_version=0)
    body = client_for(seats[2]).get(f"/games/{game.pk}/").content.decode()
    item = section(body, '<li value="1"', "</li>")
    dynasty = game.seats.get(position=1).dynasty
    name = seats[1].username
    assert item.count(f'<b class="who d-{dynasty}">{name}</b>') == 2, item
    assert f'1 red VP to <b class="who d-{dynasty}">{name}</b>' in item
    assert "who sign" not in item and "Seat 1" not in item


def test_the_waiting_room_counts_seats_taken_and_offers_to_copy_the_invitation() -> None:
    """Issue 16's words: "1 of 2 seats taken", a copy button, 《两河流域》 in the title."""
    creator = UserFactory()
    game = lifecycle.game_create(creator=creator, num_players=2, is_public=False)
    client = client_for(creator)
    body = client.get(f"/games/{game.pk}/").content.decode()
    assert "1 of 2 seats taken" in body
    assert 'data-copy="invite-link"' in body and f"/invite/{game.invite_token}" in body
    client.post("/i18n/setlang/", {"language": "zh-hans"})
    body = client.get(f"/games/{game.pk}/").content.decode()
    assert "《两河流域》</title>" in body and "已占 1/2 个座位" in body
