"""The bridge between engine values and the database: a replay keeps the started game's rules."""

from __future__ import annotations

import pytest

from games.core.states import replay
from games.models import Game
from tests.games.factories import started_game

pytestmark = pytest.mark.django_db


def test_replay_keeps_the_scoring_mode_the_game_started_with() -> None:
    game, _ = started_game(2)  # hidden scoring
    Game.objects.filter(pk=game.pk).update(open_scoring=True)  # an edit after the start
    game.refresh_from_db()
    assert replay(game).open_scoring is False
