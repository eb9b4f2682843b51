"""Standing orders on the game page and the settings page (issue 17); secret to their owner."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games.mail import notification as emails
from games.models import Move, Notification, NotificationKind, StandingOrders
from games.play import orders as play_orders
from tests.engine.rules_helpers import position
from tests.games.factories import UserFactory, client_for, game_at_state
from tests.games.leaks import assert_no_leak
from tests.games.play.test_standing_orders import REVOLT, act

pytestmark = pytest.mark.django_db


def form_data(**orders: str) -> dict[str, str]:
    data = {
        "revolt_attacker": "ask",
        "revolt_defender": "ask",
        "war_attacker": "ask",
        "war_defender": "ask",
        "war_order": "ask",
        "monument": "ask",
        "treasure": "ask",
    }
    return {**data, **orders}


def waiting_revolt() -> tuple[Any, dict[int, Any]]:
    """A game waiting on seat 2, the defender of a revolt."""
    game, seats = game_at_state(position(REVOLT, hands={1: "r r r", 2: "r r"}))
    return act(game, seats, "leader priest e6", "commit 0"), seats


def test_saving_an_order_on_the_page_answers_the_waiting_decision() -> None:
    game, seats = waiting_revolt()
    client = client_for(seats[2])
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert 'data-orders-seat="2"' in page and "Standing orders" in page
    response = client.post(f"/games/{game.pk}/orders", form_data(revolt_defender="all"))
    assert response.status_code == 302
    assert StandingOrders.objects.get(user=seats[2], game=game).orders == {"revolt_defender": "all"}
    game.refresh_from_db()
    assert game.to_act_seat == 1
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "answered the decision waiting" in page
    assert "Your standing order answered for you." in page


def test_bad_orders_and_strangers_are_refused_on_the_page() -> None:
    game, seats = waiting_revolt()
    bad = client_for(seats[2]).post(f"/games/{game.pk}/orders", form_data(revolt_defender="bribe"))
    assert bad.status_code == 400
    assert "These standing orders do not exist" in bad.content.decode()
    stranger = client_for(UserFactory()).post(
        f"/games/{game.pk}/orders", form_data(revolt_defender="all")
    )
    assert stranger.status_code == 403
    assert "You are not playing in this game." in stranger.content.decode()
    assert Client().post(f"/games/{game.pk}/orders", form_data()).status_code == 302  # log in
    assert not StandingOrders.objects.exists()
    game.refresh_from_db()
    assert game.to_act_seat == 2


def test_default_orders_in_the_settings() -> None:
    game, seats = waiting_revolt()
    client = client_for(seats[2])
    assert "Save my standing orders" in client.get("/settings").content.decode()
    bad = client.post("/settings/orders", form_data(monument="sometimes"))
    assert bad.status_code == 400
    assert "These standing orders do not exist" in bad.content.decode()
    assert not StandingOrders.objects.exists()
    response = client.post("/settings/orders", form_data(revolt_defender="enough"))
    assert response.status_code == 302
    row = StandingOrders.objects.get(user=seats[2], game=None)
    assert row.orders == {"revolt_defender": "enough"}
    assert Move.objects.filter(game=game).last().source == Move.Source.ORDER


def test_no_other_seat_page_partial_email_or_admin_shows_an_order(
    admin_client: Client,
) -> None:
    game, seats = game_at_state(position(REVOLT, hands={1: "r r r", 2: "r r"}))
    play_orders.game_orders_set(
        game_id=game.pk,
        user=seats[2],
        orders={"revolt_defender": "all", "treasure": "special_first"},
    )
    game = act(game, seats, "leader priest e6", "commit 0")
    assert Move.objects.filter(game=game, source=Move.Source.ORDER).count() == 1
    for viewer, client in ((1, client_for(seats[1])), (None, Client())):
        for url, extra in (
            (f"/games/{game.pk}/", {}),
            (f"/games/{game.pk}/", {"HTTP_HX_REQUEST": "true"}),
            (f"/games/{game.pk}/poll?version=-1", {}),
        ):
            response = client.get(url, **extra)  # (a diagram position has no replay)
            assert response.status_code == 200
            assert_no_leak(response.content, game, viewer)
            text = response.content.decode()
            assert 'data-orders-seat="2"' not in text
            assert 'value="special_first" selected' not in text  # seat 1's own form asks
    # Seat 1's turn email retells the revolt as seat 1's page does: no order in it.
    row = Notification.objects.get(game=game, user=seats[1], kind=NotificationKind.YOUR_TURN)
    emails.notification_send(row)
    from django.core import mail

    body = mail.outbox[-1].body + str(mail.outbox[-1].alternatives[0].content)
    assert "committed" in body or "revolt" in body.lower()
    assert "standing order" not in body.lower()
    # The admin: the move's source reads as the player's, the orders are not listed at all.
    move = Move.objects.get(game=game, source=Move.Source.ORDER)
    page = admin_client.get(f"/admin/games/move/{move.pk}/change/").content.decode()
    assert "standing order" not in page.lower() and "the player" in page
    assert admin_client.get("/admin/games/standingorders/").status_code == 404
    probe = admin_client.get("/admin/games/move/?source=order")  # no filtering on it
    assert probe.status_code == 400 or str(move.pk) not in probe.content.decode()


def test_kept_renderings_and_the_page_query_serve_each_seat_only_its_own() -> None:
    """Issue 31: the orders form is kept rendered per content and the notes and "since your
    last move" are read inside the game's query, per viewer: a seat rendered right after
    another never gets the other's orders, notes or last move."""
    from games.models import PrivateNote

    game, seats = waiting_revolt()
    play_orders.game_orders_set(
        game_id=game.pk,
        user=seats[2],
        orders={"revolt_defender": "all", "treasure": "special_first"},
    )
    PrivateNote.objects.create(game=game, user=seats[2], text="seat two's secret plan")
    two, one = client_for(seats[2]), client_for(seats[1])
    for _ in range(2):  # the second round is served from what the first kept
        mine = two.get(f"/games/{game.pk}/").content.decode()
        assert 'data-orders-seat="2"' in mine
        assert 'value="special_first" selected' in mine and 'value="all" selected' in mine
        assert "seat two&#x27;s secret plan" in mine
        theirs = one.get(f"/games/{game.pk}/").content.decode()
        assert 'data-orders-seat="1"' in theirs and 'data-orders-seat="2"' not in theirs
        assert 'value="special_first" selected' not in theirs
        assert 'value="all" selected' not in theirs
        assert "secret plan" not in theirs
        assert_no_leak(theirs.encode(), game, 1)
    # A change shows at once: the kept rendering is keyed by what it shows.
    play_orders.game_orders_set(game_id=game.pk, user=seats[2], orders={"treasure": "ask"})
    mine = two.get(f"/games/{game.pk}/").content.decode()
    assert 'value="special_first" selected' not in mine and 'value="all" selected' not in mine
