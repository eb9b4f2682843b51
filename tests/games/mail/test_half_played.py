"""A player who walks away in the middle of a turn or a stretch of decisions (issue 33).

The delayed email goes out only if the game still waits on the player when the delay is
over. A player who plays the first action of their turn (or answers one decision of two, or
takes an action back) and leaves was never told: the game still waits on them, so they get
one email, once the delay has passed since their last action. The clock is driven with
time_machine; ``tasks.send_batched`` is beat's minute sweep.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import time_machine
from django.core import mail

import engine
from games import tasks
from games.models import Game, Notification, NotificationKind
from games.play import lifecycle
from games.play import submit as play_submit
from tests.engine.rules_helpers import position
from tests.games.factories import game_at_state, started_game
from tests.games.playing import passing, submit

pytestmark = pytest.mark.django_db(transaction=True)

START = datetime(2026, 3, 2, 10, 0, tzinfo=UTC)
DELAY = timedelta(minutes=15)  # the default delay of turn and decision emails


def quiet_tile(legal: tuple[engine.Action, ...]) -> engine.Action:
    """Pick a tile placement that starts nothing (an action that can be taken back)."""
    return next(a for a in legal if isinstance(a, engine.PlaceTile))


def sweep_for(clock: Any, span: timedelta) -> int:
    """Run beat's minute sweep of batched emails through ``span``; return emails sent."""
    sent = 0
    for _minute in range(int(span / timedelta(minutes=1))):
        clock.shift(timedelta(minutes=1))
        sent += tasks.send_batched()
    return sent


def turn_mails(to: Any) -> list[Any]:
    return [m for m in mail.outbox if m.to == [to.email] and "has started" not in m.subject]


def hand_over(game: Game, seats: dict[int, Any]) -> Game:
    """The seat to act passes until the game waits on another seat."""
    first = game.to_act_seat
    while game.to_act_seat == first:
        game = submit(game, seats, passing)
    return game


def test_one_action_played_then_away_for_the_delay_is_one_email_saying_one_action_left() -> None:
    with time_machine.travel(START, tick=False) as clock:
        game, seats = started_game(2)
        game = hand_over(game, seats)  # the second player's first turn: told after a delay
        me = seats[game.to_act_seat or 0]
        clock.shift(timedelta(minutes=5))
        game = submit(game, seats, quiet_tile)  # one action of two, then away
        assert game.to_act_seat is not None and seats[game.to_act_seat] == me
        assert sweep_for(clock, DELAY - timedelta(minutes=1)) == 0  # not yet: counted anew
        assert sweep_for(clock, timedelta(minutes=2)) == 1
        assert sweep_for(clock, DELAY * 4) == 0  # once
    [message] = turn_mails(me)
    assert message.subject == f"Game #{game.pk} — your move, 1 action left"
    assert "your move, 1 action left" in message.body
    rows = Notification.objects.filter(user=me, game=game).exclude(
        kind=NotificationKind.GAME_STARTED
    )
    assert sorted(rows.values_list("ply", "status")) == [
        (game.version - 1, Notification.Status.SKIPPED),
        (game.version, Notification.Status.SENT),
    ]


def test_a_turn_finished_within_the_delay_is_no_email() -> None:
    with time_machine.travel(START, tick=False) as clock:
        game, seats = started_game(2)
        game = hand_over(game, seats)
        me = seats[game.to_act_seat or 0]
        clock.shift(timedelta(minutes=5))
        game = submit(game, seats, quiet_tile)
        clock.shift(timedelta(minutes=5))
        game = hand_over(game, seats)  # the second action: the turn is over
        assert seats[game.to_act_seat or 0] != me
        sweep_for(clock, DELAY * 3)
    assert turn_mails(me) == []


def test_a_player_acting_live_through_the_whole_turn_gets_none() -> None:
    with time_machine.travel(START, tick=False) as clock:
        game, seats = started_game(2)
        game = hand_over(game, seats)
        me = seats[game.to_act_seat or 0]
        for _action in range(2):  # each action within the delay of the one before
            clock.shift(DELAY - timedelta(minutes=2))
            assert tasks.send_batched() == 0
            game = submit(game, seats, quiet_tile)
        assert seats[game.to_act_seat or 0] != me
        sweep_for(clock, DELAY * 3)
    assert turn_mails(me) == []


def test_one_decision_of_two_answered_then_away_is_one_email() -> None:
    # Seat 1's tile i8 brings i7 and n5 into the kingdom of seat 2's trader: two of three
    # treasures go, chosen one at a time by seat 2 on seat 1's turn (RULES.md §9, §15).
    kingdom = {"e10": "2T", "g10": "k", "h10": "k", "i10": "k", "i9": "b"}
    chain = {sq: "k" for sq in ("j8", "k8", "l8", "l7", "l6", "m6", "m5")}
    with time_machine.travel(START, tick=False) as clock:
        game, seats = game_at_state(position({**kingdom, **chain}, hands={1: "k"}))
        me = seats[2]
        play_submit.game_submit_action(
            game_id=game.pk, user=seats[1], action="tile black i8", expected_version=game.version
        )
        game.refresh_from_db()
        assert game.to_act_seat == 2
        clock.shift(timedelta(minutes=3))
        play_submit.game_submit_action(
            game_id=game.pk, user=me, action="treasure i7", expected_version=game.version
        )
        game.refresh_from_db()
        assert game.to_act_seat == 2  # the second treasure is still to choose
        assert sweep_for(clock, DELAY - timedelta(minutes=1)) == 0
        assert sweep_for(clock, timedelta(minutes=2)) == 1
        assert sweep_for(clock, DELAY * 4) == 0
    [message] = turn_mails(me)
    assert "choose your treasures" in message.subject


def test_an_action_taken_back_then_away_is_one_email() -> None:
    with time_machine.travel(START, tick=False) as clock:
        game, seats = started_game(2)
        game = hand_over(game, seats)
        me = seats[game.to_act_seat or 0]
        clock.shift(timedelta(minutes=5))
        game = submit(game, seats, quiet_tile)
        clock.shift(timedelta(minutes=5))
        play_submit.game_undo(game_id=game.pk, user=me, expected_version=game.version)
        game.refresh_from_db()
        assert seats[game.to_act_seat or 0] == me
        assert sweep_for(clock, DELAY - timedelta(minutes=1)) == 0
        assert sweep_for(clock, timedelta(minutes=2)) == 1
        assert sweep_for(clock, DELAY * 4) == 0
    [message] = turn_mails(me)
    assert message.subject == f"Game #{game.pk} — your move"  # two actions again


def test_the_batched_email_lists_a_half_played_game_like_any_other(user_factory: Any) -> None:
    me = user_factory()
    with time_machine.travel(START, tick=False) as clock:
        games = []
        for _game in range(2):
            other = user_factory()
            game = lifecycle.game_create(creator=other, num_players=2)
            lifecycle.game_join(game_id=game.pk, user=me)
            game.refresh_from_db()
            seats = {s.position: s.user for s in game.seats.all()}
            if seats[game.to_act_seat or 0] == me:
                game = hand_over(game, seats)
            game = hand_over(game, seats)
            games.append((game, seats))
        half, seats = games[0]
        clock.shift(timedelta(minutes=5))
        half = submit(half, seats, quiet_tile)  # one action in the first game, then away
        assert seats[half.to_act_seat or 0] == me
        mail.outbox.clear()
        assert sweep_for(clock, DELAY * 2) == 1
    [message] = mail.outbox
    assert message.to == [me.email]
    assert message.subject == "Your move in 2 games"
    assert all(f"/games/{g.pk}/" in message.body for g, _seats in games)
    assert "your move, 1 action left" in message.body
