"""Email in bot games (issue 15): a person playing bots live gets no email a bot turn."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import time_machine

import engine
from games.core.states import game_state
from games.mail import deliver
from games.models import Delivery, Notification, NotificationKind
from games.play import bots, submit
from tests.games.bots_helpers import bot_game
from tests.games.playing import passing

pytestmark = pytest.mark.django_db

START = datetime(2026, 3, 2, 10, 0, tzinfo=UTC)


def _bot_turns(game: Any, human: Any, position: int, turns: int, capture: Any) -> Any:
    """Let the bot and the person (who passes) play ``turns`` times each; return the game."""
    for _turn in range(turns):
        game.refresh_from_db()
        while game.to_act_seat != position:
            with capture(execute=True):
                assert bots.bots_sweep() == 1
            game.refresh_from_db()
        with capture(execute=True):
            action = passing(engine.legal_actions(game_state(game)))
            submit.game_submit_action(
                game_id=game.pk, user=human, action=str(action), expected_version=game.version
            )
    game.refresh_from_db()
    return game


def test_a_live_game_against_a_bot_sends_no_email_a_bot_turn(
    django_capture_on_commit_callbacks: Any, mailoutbox: list[Any]
) -> None:
    with time_machine.travel(START, tick=False) as clock:
        with django_capture_on_commit_callbacks(execute=True):
            game, human, position = bot_game(("easy",))
        mailoutbox.clear()  # "the game started"
        game = _bot_turns(game, human, position, 4, django_capture_on_commit_callbacks)
        assert mailoutbox == []  # played live: not one "your move" email
        turns = Notification.objects.filter(user=human, kind=NotificationKind.YOUR_TURN)
        assert turns.count() >= 3  # one a bot turn (the first turn may be the start's)
        assert set(turns.values_list("delivery", flat=True)) == {Delivery.BATCHED}
        assert all(r.send_after == START + timedelta(minutes=15) for r in turns)
        # The bot replies; the person walks away: one email once the batch delay passed.
        while game.to_act_seat != position:
            with django_capture_on_commit_callbacks(execute=True):
                bots.bots_sweep()
            game.refresh_from_db()
        clock.shift(timedelta(minutes=16))
        assert deliver.groups_due_send(Delivery.BATCHED) == 1
    assert len(mailoutbox) == 1 and mailoutbox[0].to == [human.email]
    assert f"/games/{game.pk}/" in mailoutbox[0].body


def test_a_person_moving_again_within_the_delay_gets_no_email(
    django_capture_on_commit_callbacks: Any, mailoutbox: list[Any]
) -> None:
    with time_machine.travel(START, tick=False) as clock:
        with django_capture_on_commit_callbacks(execute=True):
            game, human, position = bot_game(("easy",))
        game = _bot_turns(game, human, position, 2, django_capture_on_commit_callbacks)
        mailoutbox.clear()
        clock.shift(timedelta(minutes=16))
        # Every row is about a turn the person took since; the game now waits on the bot.
        assert deliver.groups_due_send(Delivery.BATCHED) == 0
    assert mailoutbox == []
