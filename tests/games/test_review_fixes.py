"""Guards found by review and by the fresh-user trials: admin, names, emails, finished games."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from django.contrib.admin.sites import site
from django.core.management import CommandError, call_command
from django.test import Client, RequestFactory

from games.core.states import game_state, replay
from games.mail import notification as emails
from games.models import Game, NotificationKind, Profile
from games.outbox import notifications
from games.play import lifecycle
from tests.engine.rules_helpers import play, position
from tests.games.factories import (
    UserFactory,
    client_for,
    game_at_state,
    play_random_plies,
    settings_form_data,
    started_game,
)

pytestmark = pytest.mark.django_db


def section(body: str, marker: str, end: str) -> str:
    """Return ``body`` from ``marker`` to the first ``end`` after it."""
    start = body.index(marker)
    return body[start : body.index(end, start)]


def test_a_started_games_rules_are_read_only_in_the_admin() -> None:
    game, _ = started_game(2)
    admin = site._registry[Game]
    request = RequestFactory().get("/admin/")
    fields = admin.get_readonly_fields(request, game)
    for name in ("open_scoring", "is_rated", "days_per_move", "deadline"):
        assert name in fields
    open_game = Game.objects.create(creator=UserFactory(), num_players=3)
    assert "open_scoring" not in admin.get_readonly_fields(request, open_game)


def test_replay_keeps_the_scoring_mode_the_game_started_with() -> None:
    game, _ = started_game(2)  # hidden scoring
    Game.objects.filter(pk=game.pk).update(open_scoring=True)  # an edit after the start
    game.refresh_from_db()
    assert replay(game).open_scoring is False


def test_a_display_name_with_a_line_break_is_refused(user_factory: Any) -> None:
    user = user_factory()
    client = client_for(user)
    data = settings_form_data(client)
    data["display_name"] = "Eve\r\nBcc: x@evil.example"
    response = client.post("/settings", data)
    assert response.status_code == 200
    assert "cannot contain line breaks" in response.content.decode()
    assert "\n" not in Profile.objects.get(user=user).display_name


def test_sign_up_refuses_a_display_name_with_control_characters() -> None:
    response = Client().post(
        "/accounts/signup/",
        {
            "email": "eve@example.com",
            "display_name": "Eve\tEvil",
            "password1": "tigris-and-euphrates-2026",
            "password2": "tigris-and-euphrates-2026",
        },
    )
    assert response.status_code == 200
    assert "cannot contain line breaks" in response.content.decode()


def test_the_demo_seed_refuses_to_run_in_production(settings: Any) -> None:
    settings.DEBUG = False
    with pytest.raises(CommandError, match="published password"):
        call_command("seed_demo")
    assert not Profile.objects.exists() and not Game.objects.exists()


def test_a_monument_decision_offers_its_choices_inside_the_decision_panel() -> None:
    block = {"g4": "r", "h4": "r", "g5": "r", "e5": "r", "f5": "1K"}
    state = play(position(block, hands={1: "r k"}), "tile red h5")
    game, seats = game_at_state(state)
    body = client_for(seats[1]).get(f"/games/{game.pk}/").content.decode()
    panel = section(body, 'id="decision"', "</section>")
    for choice in ("monument red-blue g4", "monument red-black g4", "decline monument"):
        assert f'data-action="{choice}"' in panel
    assert "red/blue g4" in panel  # named by its colours


def test_the_admin_cannot_add_a_game(admin_client: Client) -> None:
    assert admin_client.get("/admin/games/game/add/").status_code == 403


def test_an_aborted_game_stays_readable_for_its_players_only() -> None:
    game, seats = started_game(2)
    lifecycle.game_abort(game_id=game.pk)
    page = client_for(seats[1]).get(f"/games/{game.pk}/")
    body = page.content.decode()
    assert page.status_code == 200 and "aborted by an administrator" in body
    assert "data-action=" not in body
    assert client_for(UserFactory()).get(f"/games/{game.pk}/").status_code == 404


def test_a_finished_game_names_the_winner_shows_treasures_and_charts_ratings() -> None:
    game, seats = started_game(2)
    game = play_random_plies(game, seats, 2000, random.Random(5))
    assert game.status == Game.Status.FINISHED
    body = client_for(seats[1]).get(f"/games/{game.pk}/").content.decode()

    status = section(body, 'class="status"', "</p>")
    winner = game.seats.get(final_rank=1)
    assert "wins." in status and winner.user.username in status

    final = section(body, 'id="final"', "</section>")
    assert "<th>Treasures</th>" in final
    held = game_state(game).treasures_held
    rows = re.findall(r"<tr><td>\d+</td><td>Seat (\d)[^<]*</td><td>(\d+)</td>", final)
    assert sorted((int(s), int(t)) for s, t in rows) == [(1, held[0]), (2, held[1])]

    player = game.seats.get(position=1).user
    profile = Client().get(f"/players/{player.pk}/").content.decode()
    points = profile.split('points="')[1].split('"')[0].split()
    assert len(points) == 2  # from the rating before the game to the rating after it


def test_a_finished_games_replay_shows_every_hand_but_an_unfinished_ones_does_not() -> None:
    game, seats = started_game(2)
    game = play_random_plies(game, seats, 6, random.Random(2))
    mid = client_for(seats[1]).get(f"/games/{game.pk}/replay?ply=3").content.decode()
    assert 'data-hand-seat="2"' not in mid
    game = play_random_plies(game, seats, 2000, random.Random(2))
    assert game.status == Game.Status.FINISHED
    after = client_for(seats[1]).get(f"/games/{game.pk}/replay?ply=3").content.decode()
    assert 'data-hand-seat="1"' in after and 'data-hand-seat="2"' in after


def email_for(user: Any, game: Game, kind: str, outbox: list[Any]) -> Any:
    """Write ``user``'s outbox row of ``kind`` for ``game`` now, send it, return the email."""
    row = notifications.notification_create(user_id=user.pk, game=game, ply=game.version, kind=kind)
    assert row is not None
    emails.notification_send(row)
    return outbox[-1]


def test_a_decision_email_says_what_is_asked_and_on_whose_turn(mailoutbox: Any) -> None:
    # Seat 1 places a second priest in seat 2's kingdom: a revolt; seat 1 commits, and seat 2
    # must answer on seat 1's turn.
    kingdom = {"c5": "r", "c6": "2P", "d6": "r"}
    state = play(position(kingdom, hands={1: "r", 2: "r"}), "leader priest e6", "commit 0")
    assert state.to_act == 2 and state.active_seat == 1
    game, seats = game_at_state(state)
    message = email_for(seats[2], game, NotificationKind.DECISION, mailoutbox)
    active = emails._names(game)[1]
    assert message.subject.endswith(f"your decision needed on {active}'s turn")
    assert "commit support in a conflict" in message.body


def test_a_your_move_email_says_when_the_move_is_due(mailoutbox: Any) -> None:
    game, seats = started_game(2)  # 3 days per move by default
    assert game.deadline is not None
    message = email_for(seats[game.to_act_seat or 1], game, NotificationKind.YOUR_TURN, mailoutbox)
    due = game.deadline.strftime("%Y-%m-%d %H:%M")
    assert f"Due by {due}" in message.body
    assert f"Due by {due}" in message.alternatives[0].content
