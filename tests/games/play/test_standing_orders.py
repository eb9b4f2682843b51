"""Standing orders (issue 17): decisions answered at once through the submit service."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from games.core import errors as game_errors
from games.core.states import game_state
from games.models import Game, Move, StandingOrders
from games.play import orders as play_orders
from games.play import submit as play_submit
from games.selectors.games import seat_infos
from games.text.gamelog import log_entries
from tests.engine.rules_helpers import play, position
from tests.games.factories import UserFactory, game_at_state
from tests.games.playing import orders_answered

pytestmark = pytest.mark.django_db

# Seat 2's priest c6 (temples c5, d6: strength 2); seat 1's priest e6 (d6: 1) revolts.
REVOLT = {"c5": "r", "c6": "2P", "d6": "r"}
# Kings c6 (seat 1) and j5 (seat 2), 3 black supporters each: f5 makes a black war.
WAR = {
    **{"c5": "r", "c6": "1K", "d5": "k", "e5": "k", "d6": "k"},
    **{"g5": "k", "h5": "k", "h6": "k", "i5": "r", "j5": "2K"},
}
TWO_WARS = {**WAR, "b5": "1P", "i4": "2P"}
BLOCK = {"g4": "r", "h4": "r", "g5": "r", "e5": "r", "f5": "1K"}
TRADER_ROW = {"e10": "2T", "g10": "k", "h10": "k", "i10": "k", "j10": "k"}


def revolt_game() -> tuple[Game, dict[int, Any]]:
    return game_at_state(position(REVOLT, hands={1: "r r r", 2: "r r"}))


def act(game: Game, seats: dict[int, Any], *notations: str) -> Game:
    """Have the seat that must act play each of ``notations`` through the submit service."""
    for notation in notations:
        game.refresh_from_db()
        play_submit.game_submit_action(
            game_id=game.pk,
            user=seats[game.to_act_seat or 0],
            action=notation,
            expected_version=game.version,
        )
        orders_answered()  # in their own step, as the sweep would a moment later (issue 28)
    game.refresh_from_db()
    return game


def moves(game: Game) -> list[tuple[int, str, str]]:
    return [(m.seat, m.action, m.source) for m in Move.objects.filter(game=game).order_by("ply")]


def test_a_revolt_whose_defender_has_an_order_resolves_without_waiting() -> None:
    game, seats = revolt_game()
    play_orders.game_orders_set(game_id=game.pk, user=seats[2], orders={"revolt_defender": "all"})
    game = act(game, seats, "leader priest e6", "commit 0")
    assert moves(game) == [
        (1, "leader priest e6", "player"),
        (1, "commit 0", "player"),
        (2, "commit 2", "order"),
    ]
    state = game_state(game)
    assert state.pending is None and game.to_act_seat == 1 == state.to_act
    assert state.leader_square(1, 1) == -1  # the defender won: seat 1's priest went home


POSITIONS = {"revolt": REVOLT, "war": WAR, "two wars": TWO_WARS, "block": BLOCK, "row": TRADER_ROW}
R = {1: "r r r", 2: "r r"}
K = {1: "g k k k r", 2: "k"}


@pytest.mark.parametrize(
    ("where", "hands", "played", "seat", "orders", "answer"),
    [
        ("revolt", R, ["leader priest e6", "commit 2"], 2, {"revolt_defender": "all"}, "commit 2"),
        (
            "revolt",
            R,
            ["leader priest e6", "commit 2"],
            2,
            {"revolt_defender": "enough"},
            "commit 1",
        ),
        ("revolt", R, ["leader priest e6", "commit 2"], 2, {"revolt_defender": "none"}, "commit 0"),
        ("revolt", R, ["leader priest e6"], 1, {"revolt_attacker": "all"}, "commit 3"),
        ("war", K, ["tile green f5"], 1, {"war_attacker": "enough"}, "commit 1"),
        ("war", K, ["tile green f5", "commit 1"], 2, {"war_defender": "all"}, "commit 1"),
        ("two wars", {1: "g"}, ["tile green f5"], 1, {"war_order": "listed"}, "war red"),
        ("block", {1: "r k"}, ["tile red h5"], 1, {"monument": "build"}, "monument red-black g4"),
        ("block", {1: "r k"}, ["tile red h5"], 1, {"monument": "decline"}, "decline monument"),
        ("row", {1: "k"}, ["tile black k10"], 2, {"treasure": "special_first"}, "treasure f10"),
    ],
)
def test_each_order_answers_its_decision_at_once(
    where: str,
    hands: dict[int, str],
    played: list[str],
    seat: int,
    orders: dict[str, str],
    answer: str,
) -> None:
    start = position(POSITIONS[where], hands=hands)
    game, seats = game_at_state(start)
    play_orders.game_orders_set(game_id=game.pk, user=seats[seat], orders=orders)
    game = act(game, seats, *played)
    ordered = [m for m in moves(game) if m[2] == "order"]
    assert ordered == [(seat, answer, "order")]
    # The answer is the engine's own, applied at once: the game waits on what follows it.
    assert game_state(game) == play(start, *played, answer)


def test_an_order_is_never_applied_for_another_player() -> None:
    game, seats = revolt_game()
    every = {"revolt_defender": "all", "revolt_attacker": "none", "war_defender": "all"}
    play_orders.game_orders_set(game_id=game.pk, user=seats[1], orders=every)
    play_orders.default_orders_set(user=seats[1], orders=every)
    game = act(game, seats, "leader priest e6")
    assert moves(game)[-1] == (1, "commit 0", "order")  # seat 1's own decision only
    assert game.to_act_seat == 2 and game_state(game).pending.kind == "support"


def test_an_order_saved_while_the_decision_waits_answers_it() -> None:
    game, seats = revolt_game()
    game = act(game, seats, "leader priest e6", "commit 0")
    assert game.to_act_seat == 2
    # An order that does not cover it changes nothing; one that does answers at once.
    assert play_orders.game_orders_set(game_id=game.pk, user=seats[2], orders={}) == []
    done = play_orders.game_orders_set(
        game_id=game.pk, user=seats[2], orders={"revolt_defender": "enough"}
    )
    assert [(m.seat, m.action, m.source) for m in done] == [(2, "commit 0", "order")]
    game.refresh_from_db()
    assert game.to_act_seat == 1


def test_a_default_saved_while_a_decision_waits_answers_games_that_follow_it() -> None:
    following, seats = revolt_game()
    own, own_seats = revolt_game()
    following = act(following, seats, "leader priest e6", "commit 0")
    own = act(own, own_seats, "leader priest e6", "commit 0")
    play_orders.game_orders_set(game_id=own.pk, user=own_seats[2], orders={})  # "ask me" here
    play_orders.default_orders_set(user=own_seats[2], orders={"revolt_defender": "all"})
    assert moves(own)[-1][2] == "player"  # the game's own orders win over the default
    done = play_orders.default_orders_set(user=seats[2], orders={"revolt_defender": "all"})
    assert [(m.game_id, m.action) for m in done] == [(following.pk, "commit 2")]
    # Back to following the default: the waiting decision is answered by it.
    play_orders.game_orders_set(game_id=own.pk, user=own_seats[2], orders=None)
    assert moves(own)[-1] == (2, "commit 2", "order")


def test_bad_orders_and_another_players_game_are_refused_and_change_nothing() -> None:
    game, seats = revolt_game()
    game = act(game, seats, "leader priest e6", "commit 0")
    version = game.version
    with pytest.raises(play_orders.OrdersRefused, match="do not exist"):
        play_orders.game_orders_set(
            game_id=game.pk, user=seats[2], orders={"revolt_defender": "everything"}
        )
    with pytest.raises(play_orders.OrdersRefused):
        play_orders.default_orders_set(user=seats[2], orders={"bribe": "all"})
    with pytest.raises(game_errors.NotAPlayer):
        play_orders.game_orders_set(
            game_id=game.pk, user=UserFactory(), orders={"revolt_defender": "all"}
        )
    assert not StandingOrders.objects.exists()
    game.refresh_from_db()
    assert game.version == version and game.to_act_seat == 2


def test_only_the_owner_is_told_in_the_log() -> None:
    game, seats = revolt_game()
    play_orders.game_orders_set(game_id=game.pk, user=seats[2], orders={"revolt_defender": "all"})
    game = act(game, seats, "leader priest e6", "commit 0")
    rows = list(Move.objects.filter(game=game).order_by("ply"))
    told = {
        viewer: " ".join(
            e["text"] for e in log_entries(rows, seat_infos(game), viewer, game_over=False)
        )
        for viewer in (1, 2, None)
    }
    assert "Your standing order answered for you." in told[2]
    assert "standing order" not in told[1] and "standing order" not in told[None]


def test_the_decision_email_is_not_sent_once_an_order_answered(
    django_capture_on_commit_callbacks: Any, mailoutbox: list[Any]
) -> None:
    game, seats = revolt_game()
    play_orders.game_orders_set(game_id=game.pk, user=seats[2], orders={"revolt_defender": "all"})
    with django_capture_on_commit_callbacks(execute=True):
        act(game, seats, "leader priest e6", "commit 0")
    assert not [m for m in mailoutbox if seats[2].email in m.to]


def test_the_players_next_email_tells_of_the_orders_answer(mailoutbox: list[Any]) -> None:
    from games.mail import notification as emails
    from games.models import Notification, NotificationKind

    game, seats = revolt_game()
    play_orders.game_orders_set(game_id=game.pk, user=seats[2], orders={"revolt_defender": "all"})
    game = act(game, seats, "leader priest e6", "commit 0", "pass")
    row = Notification.objects.get(game=game, user=seats[2], kind=NotificationKind.YOUR_TURN)
    emails.notification_send(row)
    (message,) = [m for m in mailoutbox if seats[2].email in m.to]
    assert "Your standing order answered for you." in message.body
    assert "committed 2" in message.body or "commit" in message.body.lower()


def test_an_order_answers_in_its_own_step_and_its_owner_is_told_nothing_meanwhile() -> None:
    """Issue 28, finding 1: the answer waits a person-like delay; no decision notice is
    written for it; an order taken back meanwhile leaves the owner told, as if there."""
    from django.utils import timezone

    from games.models import Notification
    from games.play.orders import orders_sweep

    game, seats = revolt_game()
    play_orders.game_orders_set(game_id=game.pk, user=seats[2], orders={"revolt_defender": "all"})
    for version, notation in enumerate(("leader priest e6", "commit 0")):
        play_submit.game_submit_action(
            game_id=game.pk, user=seats[1], action=notation, expected_version=version
        )
    game.refresh_from_db()
    assert game.version == 2 and game.order_due_at is not None
    assert game.order_due_at - timezone.now() >= timedelta(seconds=4)
    assert orders_sweep() == 0  # not due yet
    assert (
        not Notification.objects.filter(user=seats[2], game=game)
        .exclude(kind="game_started")
        .exists()
    )
    Game.objects.filter(pk=game.pk).update(order_due_at=timezone.now())
    assert orders_sweep() == 1
    assert moves(game)[-1] == (2, "commit 2", "order")
    # another revolt: the owner takes the order back before it answers
    game, seats = revolt_game()
    play_orders.game_orders_set(game_id=game.pk, user=seats[2], orders={"revolt_defender": "all"})
    for version, notation in enumerate(("leader priest e6", "commit 0")):
        play_submit.game_submit_action(
            game_id=game.pk, user=seats[1], action=notation, expected_version=version
        )
    play_orders.game_orders_set(game_id=game.pk, user=seats[2], orders=None)
    Game.objects.filter(pk=game.pk).update(order_due_at=timezone.now())
    assert orders_sweep() == 0
    game.refresh_from_db()
    assert game.version == 2 and game.order_due_at is None
    assert Notification.objects.filter(user=seats[2], game=game, ply=2, kind="decision").exists()
