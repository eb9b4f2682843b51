"""Guards found by review: the admin, display names in email headers, the demo seed."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.admin.sites import site
from django.core.management import CommandError, call_command
from django.test import Client, RequestFactory

from games.models import Game, Profile
from games.states import replay
from tests.games.factories import UserFactory, client_for, started_game

pytestmark = pytest.mark.django_db


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
    form = client.get("/settings").context["form"]
    data = {k: v for k, v in form.initial.items() if v is not None}
    for name, field in form.fields.items():
        data.setdefault(name, field.initial)
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


def _game_at(state: Any) -> tuple[Game, dict[int, Any]]:
    from games.states import state_to_db

    game, seats = started_game(state.num_players)
    Game.objects.filter(pk=game.pk).update(state=state_to_db(state), to_act_seat=state.to_act)
    game.refresh_from_db()
    return game, seats


def test_a_monument_decision_offers_its_choices_inside_the_decision_panel() -> None:
    from tests.engine.rules_helpers import play, position

    block = {"g4": "r", "h4": "r", "g5": "r", "e5": "r", "f5": "1K"}
    state = play(position(block, hands={1: "r k"}), "tile red h5")
    game, seats = _game_at(state)
    body = client_for(seats[1]).get(f"/games/{game.pk}/").content.decode()
    start = body.index('id="decision"')
    panel = body[start : body.index("</section>", start)]
    for choice in ("monument red-blue g4", "monument red-black g4", "decline monument"):
        assert f'data-action="{choice}"' in panel
    assert "red/blue g4" in panel  # named by its colours


def test_the_admin_cannot_add_a_game(admin_client: Client) -> None:
    assert admin_client.get("/admin/games/game/add/").status_code == 403


def test_an_aborted_game_stays_readable_for_its_players_only() -> None:
    from games import services

    game, seats = started_game(2)
    services.game_abort(game_id=game.pk)
    page = client_for(seats[1]).get(f"/games/{game.pk}/")
    body = page.content.decode()
    assert page.status_code == 200 and "aborted by an administrator" in body
    assert "data-action=" not in body
    assert client_for(UserFactory()).get(f"/games/{game.pk}/").status_code == 404


def test_the_status_line_names_the_winner_when_the_game_is_over() -> None:
    import random

    from tests.games.factories import play_random_plies

    game, seats = started_game(2)
    game = play_random_plies(game, seats, 2000, random.Random(5))
    assert game.status == Game.Status.FINISHED
    body = client_for(seats[1]).get(f"/games/{game.pk}/").content.decode()
    status = body[body.index('class="status"') : body.index("</p>", body.index('class="status"'))]
    winner = game.seats.get(final_rank=1)
    assert "wins." in status and winner.user.username in status


def test_a_finished_games_replay_shows_every_hand_but_an_unfinished_ones_does_not() -> None:
    import random

    from tests.games.factories import play_random_plies

    game, seats = started_game(2)
    game = play_random_plies(game, seats, 6, random.Random(2))
    mid = client_for(seats[1]).get(f"/games/{game.pk}/replay?ply=3").content.decode()
    assert 'data-hand-seat="2"' not in mid
    game = play_random_plies(game, seats, 2000, random.Random(2))
    assert game.status == Game.Status.FINISHED
    after = client_for(seats[1]).get(f"/games/{game.pk}/replay?ply=3").content.decode()
    assert 'data-hand-seat="1"' in after and 'data-hand-seat="2"' in after


def test_the_final_scores_show_each_players_treasures() -> None:
    import random

    from tests.games.factories import play_random_plies

    game, seats = started_game(2)
    game = play_random_plies(game, seats, 2000, random.Random(5))
    body = client_for(seats[1]).get(f"/games/{game.pk}/").content.decode()
    final = body[body.index('id="final"') : body.index("</section>", body.index('id="final"'))]
    assert "<th>Treasures</th>" in final
    import re

    from games.states import game_state

    held = game_state(game).treasures_held
    rows = re.findall(r"<tr><td>\d+</td><td>Seat (\d)[^<]*</td><td>(\d+)</td>", final)
    assert sorted((int(s), int(t)) for s, t in rows) == [(1, held[0]), (2, held[1])]


def test_a_decision_email_says_what_is_asked_and_on_whose_turn(mailoutbox: Any) -> None:
    from games import emails
    from games.models import Notification, NotificationKind
    from tests.engine.rules_helpers import play, position

    # Seat 1 places a second priest in seat 2's kingdom: a revolt; seat 1 commits, and seat 2
    # must answer on seat 1's turn.
    kingdom = {"c5": "r", "c6": "2P", "d6": "r"}
    state = play(position(kingdom, hands={1: "r", 2: "r"}), "leader priest e6", "commit 0")
    assert state.to_act == 2 and state.active_seat == 1
    game, seats = _game_at(state)
    from django.utils import timezone

    row = Notification.objects.create(
        user=seats[2],
        game=game,
        ply=game.version,
        kind=NotificationKind.DECISION,
        send_after=timezone.now(),
    )
    emails.notification_send(row)
    message = mailoutbox[-1]
    active = emails._names(game)[1]
    assert message.subject.endswith(f"your decision needed on {active}'s turn")
    assert "commit support in a conflict" in message.body


def test_a_your_move_email_says_when_the_move_is_due(mailoutbox: Any) -> None:
    from django.utils import timezone

    from games import emails
    from games.models import Notification, NotificationKind

    game, seats = started_game(2)  # 3 days per move by default
    assert game.deadline is not None
    row = Notification.objects.create(
        user=seats[game.to_act_seat or 1],
        game=game,
        ply=game.version,
        kind=NotificationKind.YOUR_TURN,
        send_after=timezone.now(),
    )
    emails.notification_send(row)
    message = mailoutbox[-1]
    due = game.deadline.strftime("%Y-%m-%d %H:%M")
    assert f"Due by {due}" in message.body
    assert f"Due by {due}" in message.alternatives[0].content


def test_the_rating_chart_draws_a_line_after_one_rated_game() -> None:
    import random

    from tests.games.factories import play_random_plies

    game, seats = started_game(2)
    play_random_plies(game, seats, 2000, random.Random(5))
    seat = game.seats.get(position=1)
    body = Client().get(f"/players/{seat.user.pk}/").content.decode()
    points = body.split('points="')[1].split('"')[0].split()
    assert len(points) == 2  # from the rating before the game to the rating after it
