"""What a game page, its poll and a submit read: each fact once, in as few queries as it takes.

The viewer's games waiting, the chat's last line and the seats' vacations come with the
game's and the seats' own queries (issue 13); what they show stays what a query of its own
would show.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.accounts import vacations
from games.community import chat
from games.models import (
    Delivery,
    Game,
    Notification,
    NotificationKind,
    NotificationPreference,
    StandingOrders,
    Webhook,
)
from games.selectors import games as selectors
from games.selectors import orders, people
from tests.games.factories import client_for, page_actions, play_random_plies, started_game

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def _both_moved(rng_seed: int = 1) -> tuple[Game, dict[int, Any]]:
    """Return a 2-player game after both players' first turn, and seat → user."""
    game, seats = started_game(2)
    return play_random_plies(game, seats, 4, random.Random(rng_seed)), seats


def test_the_partial_reads_session_user_game_seats_and_moves_only(
    django_assert_max_num_queries: Any,
) -> None:
    game, seats = _both_moved()
    client = client_for(seats[game.to_act_seat or 0])
    client.get(f"/games/{game.pk}/", **HTMX)  # the session's language filled in once
    with django_assert_max_num_queries(5):  # session, user, game, seats, moves
        answer = client.get(f"/games/{game.pk}/", **HTMX)
    assert answer.status_code == 200


def test_a_changed_poll_reads_six_queries_at_most(django_assert_max_num_queries: Any) -> None:
    game, seats = _both_moved()
    waiter = next(u for n, u in seats.items() if n != game.to_act_seat)
    client = client_for(waiter)
    client.get(f"/games/{game.pk}/", **HTMX)
    with django_assert_max_num_queries(6):  # session, version, user, game, seats, moves
        answer = client.get(f"/games/{game.pk}/poll?version=0", **HTMX)
    assert answer.status_code == 200


def test_chat_since_my_last_move_is_still_shown_and_only_then() -> None:
    game, seats = started_game(2)
    game = play_random_plies(game, seats, 4, random.Random(2))
    mover = seats[1]
    other = seats[2]
    client = client_for(mover)
    page = client.get(f"/games/{game.pk}/", **HTMX).content.decode()
    assert 'class="since-chat"' not in page  # no chat yet: none read
    chat.chat_post(game_id=game.pk, user=other, text="well played")
    page = client.get(f"/games/{game.pk}/", **HTMX).content.decode()
    since = page[page.index('<ol class="since">') :]
    assert "well played" in since[: since.index("</ol>")]  # in "since your last move"
    # Read apart, the fact the page skipped the query on says the same.
    read = selectors.with_viewer_facts(Game.objects.all(), mover).get(pk=game.pk)
    assert read.chat_last_at is not None
    bare = selectors.with_viewer_facts(Game.objects.all(), mover).get(pk=started_game(2)[0].pk)
    assert bare.chat_last_at is None


def test_a_vacation_is_read_with_the_seats_and_an_ended_one_is_not() -> None:
    game, seats = started_game(2, vacation_allowed=True)
    away = seats[2]
    vacation = vacations.vacation_start(user_id=away.pk, days=3)
    read = selectors.with_seats(Game.objects.all()).get(pk=game.pk)
    until = selectors.seats_away_until(list(read.seats.all()))
    assert until == {away.pk: vacation.ends_at}
    vacations.vacation_end(vacation_id=vacation.pk)
    read = selectors.with_seats(Game.objects.all()).get(pk=game.pk)
    assert selectors.seats_away_until(list(read.seats.all())) == {}
    # Seats read without it: the caller is told to read the vacations itself.
    assert selectors.seats_away_until(list(Game.objects.get(pk=game.pk).seats.all())) is None


def test_the_waiting_facts_match_the_games_waiting_query() -> None:
    game, seats = started_game(2)
    me = seats[1]
    others = [started_game(2)[0] for _ in range(2)]
    for other in others:  # me in two more games, one waiting on me
        other.seats.filter(position=1).update(user=me)
    for g in (game, *others):
        read = selectors.with_viewer_facts(selectors.with_seats(Game.objects.all()), me).get(
            pk=g.pk
        )
        ids = selectors.games_waiting_ids(me)
        expected_next = None if g.pk in ids else next(iter(ids), None)
        assert selectors.waiting_for_viewer(read, me) == (len(ids), expected_next)


def _read_for_move(game: Game) -> dict[int, Any]:
    """Return position → seat of ``game`` read as the submit reads them, under no lock."""
    read = selectors.with_seats(Game.objects.all(), for_move=True).get(pk=game.pk)
    return {s.position: s for s in read.seats.all()}


def test_what_a_move_asks_of_a_seat_is_what_the_queries_of_their_own_answer() -> None:
    game, seats = started_game(2)
    me, other = seats[1], seats[2]
    StandingOrders.objects.create(user=me, game=None, orders={"revolt_defender": "all"})
    NotificationPreference.objects.create(
        user=me, kind=NotificationKind.DECISION, delivery=Delivery.IMMEDIATE, batch_minutes=7
    )
    Webhook.objects.create(user=me, kind="discord", url="https://example.org/hook")
    for round_ in range(2):
        by_seat = _read_for_move(game)
        for position, user in ((1, me), (2, other)):
            seat = by_seat[position]
            assert orders.seat_orders(seat) == orders.orders_for(user_id=user.pk, game_id=game.pk)
            for kind in selectors.TURN_KINDS:
                assert people.seat_preference(seat, kind) == people.preference_get(user.pk, kind)
            hooks = Webhook.objects.filter(user=user, is_active=True, on_turn=True).exists()
            assert seat.hooks_on_turn is hooks
        if round_ == 1:
            break
        # This game's own orders win over the default, as orders_for says.
        StandingOrders.objects.create(user=me, game=game, orders={"revolt_defender": "none"})
    # Seats read without them: the readers say so, and the callers query.
    plain = Game.objects.get(pk=game.pk).seats.get(position=1)
    assert orders.seat_orders(plain) is None
    assert people.seat_preference(plain, NotificationKind.YOUR_TURN) is None


def test_a_submit_runs_ten_queries_at_most_when_it_hands_the_turn_over(
    django_assert_max_num_queries: Any,
) -> None:
    game, seats = _both_moved()
    mover = seats[game.to_act_seat or 0]
    client = client_for(mover)
    page = client.get(f"/games/{game.pk}/", **HTMX).content.decode()
    assert "pass" in page_actions(page.encode())
    handed = False
    while not handed:
        game.refresh_from_db()
        with django_assert_max_num_queries(10):
            answer = client.post(
                f"/games/{game.pk}/act", {"action": "pass", "version": game.version}, **HTMX
            )
        assert answer.status_code == 200
        game.refresh_from_db()
        handed = seats[game.to_act_seat or 0] != mover
    assert Notification.objects.filter(game=game, ply=game.version).exists()
