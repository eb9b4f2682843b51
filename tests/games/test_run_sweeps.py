"""``manage.py run_sweeps``: beat's sweeps in the embedded mode (``make run``), with no beat."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
import time_machine
from django.core.management import CommandError, call_command

from games.models import Move
from tests.games.factories import started_game

pytestmark = pytest.mark.django_db

START = datetime(2026, 3, 2, 10, 0, tzinfo=UTC)


def test_once_runs_every_sweep_so_a_missed_deadline_is_played(caplog: Any) -> None:
    with time_machine.travel(START, tick=False) as clock:
        game, _seats = started_game(2, days_per_move=1)
        assert game.deadline is not None
        call_command("run_sweeps", "--once")
        assert game.moves.count() == 0  # not due yet: nothing happens, nothing is logged
        assert not [r for r in caplog.records if r.name.endswith("run_sweeps")]
        clock.move_to(game.deadline)
        call_command("run_sweeps", "--once")
    (move,) = game.moves.all()
    assert move.source == Move.Source.TIMEOUT
    assert any("timeouts" in r.getMessage() for r in caplog.records)


def test_it_refuses_to_run_beside_a_broker(settings: Any) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = False
    with pytest.raises(CommandError, match="run Celery beat instead"):
        call_command("run_sweeps", "--once")


def test_beside_the_server_it_plays_the_bot_a_game_waits_on() -> None:
    """The embedded mode (issue 15): no task is queued by a move; this process plays bots."""
    import engine
    from games.core.states import game_state
    from games.play import submit
    from tests.games.bots_helpers import bot_game
    from tests.games.playing import passing

    game, human, position = bot_game(("easy",))
    while game.to_act_seat == position:  # the person passes until the bot must act
        action = passing(engine.legal_actions(game_state(game)))
        submit.game_submit_action(
            game_id=game.pk, user=human, action=str(action), expected_version=game.version
        )
        game.refresh_from_db()
    waiting = game.version
    call_command("run_sweeps", "--once")
    game.refresh_from_db()
    assert game.version == waiting + 1  # one action a run: a turn shows action by action
    assert Move.objects.get(game=game, ply=waiting + 1).source == Move.Source.BOT
