"""A notification email says what is asked, on whose turn, and when the move is due."""

from __future__ import annotations

from typing import Any

import pytest

from games.mail import notification as emails
from games.models import Game, Notification, NotificationKind
from games.outbox import notifications
from tests.engine.rules_helpers import play, position
from tests.games.factories import game_at_state, started_game

pytestmark = pytest.mark.django_db


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
    assert message.subject == (
        f"Game #{game.pk} · {active} started a revolt over red — your support is needed"
    )
    assert "commit support in a conflict" in message.body


def test_a_your_move_email_says_when_the_move_is_due(mailoutbox: Any) -> None:
    game, seats = started_game(2)  # 3 days per move by default
    assert game.deadline is not None
    message = email_for(seats[game.to_act_seat or 1], game, NotificationKind.YOUR_TURN, mailoutbox)
    due = game.deadline.strftime("%Y-%m-%d %H:%M")
    assert f"Due by {due}" in message.body
    assert f"Due by {due}" in message.alternatives[0].content


def test_the_game_started_email_says_your_move_to_the_player_who_moves_first(
    mailoutbox: Any,
) -> None:
    game, seats = started_game(2)
    Notification.objects.filter(kind=NotificationKind.GAME_STARTED).delete()  # written again
    first = game.to_act_seat or 0
    other = 3 - first
    theirs = email_for(seats[other], game, NotificationKind.GAME_STARTED, mailoutbox)
    mine = email_for(seats[first], game, NotificationKind.GAME_STARTED, mailoutbox)
    name = emails._names(game)[first]
    assert theirs.subject == f"Game #{game.pk} has started: {name}'s move"
    assert f"{name} moves first." in theirs.body
    assert mine.subject == f"Game #{game.pk} has started: your move"
    assert "You move first." in mine.body and name not in mine.subject
