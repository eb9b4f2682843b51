"""A notification email says what is asked, on whose turn, and when the move is due."""

from __future__ import annotations

import re
from typing import Any

import pytest

from games.core.errors import GameNotActive
from games.mail import notification as emails
from games.models import Game, Notification, NotificationKind, Profile
from games.outbox import notifications
from games.play import lifecycle
from games.text.seats import display_name
from tests.engine.rules_helpers import play, position
from tests.games.factories import UserFactory, game_at_state, started_game

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


def test_an_aborted_games_players_are_each_told_once_in_their_language(
    mailoutbox: Any, django_capture_on_commit_callbacks: Any
) -> None:
    host, guest = UserFactory(), UserFactory()
    game = lifecycle.game_create(creator=host, num_players=3, bots=("easy",))
    lifecycle.game_join(game_id=game.pk, user=guest)  # two people and a bot: started
    assert game.seats.filter(is_bot=True).count() == 1
    Profile.objects.update_or_create(user=guest, defaults={"language": "zh-hans"})
    mailoutbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        lifecycle.game_abort(game_id=game.pk)
    english, chinese = host, guest
    rows = Notification.objects.filter(game=game, kind=NotificationKind.GAME_ABORTED)
    assert sorted(rows.values_list("user_id", flat=True)) == sorted([english.pk, chinese.pk])
    by_address = {m.to[0]: m for m in mailoutbox}
    assert set(by_address) == {english.email, chinese.email}  # the bot has no address
    told = by_address[english.email]
    assert told.subject == f"Game #{game.pk} was aborted by an administrator"
    assert f"An administrator aborted Game #{game.pk}: it is over and not rated." in told.body
    assert "本局" not in told.body
    for user in (english, chinese):  # the leak scan: no number but the game's, no seed
        message = by_address[user.email]
        body = message.body.split("\n-- \n")[0].replace(display_name(user), "")
        body = body.replace("http://127.0.0.1:8000", "")
        assert set(re.findall(r"\d+", body)) == {str(game.pk)}, body
        assert str(game.seed) not in message.body + message.alternatives[0].content
    assert by_address[chinese.email].subject == f"第 {game.pk} 局已被管理员中止"
    with pytest.raises(GameNotActive), django_capture_on_commit_callbacks(execute=True):
        lifecycle.game_abort(game_id=game.pk)  # refused: nobody is told twice
    assert len(mailoutbox) == 2 and rows.count() == 2
