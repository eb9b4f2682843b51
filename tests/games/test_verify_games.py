"""``manage.py verify_games``: clean for real games, exit 1 naming a tampered one."""

from __future__ import annotations

import random

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from games.models import Game, Move
from tests.games.factories import play_random_plies, started_game

pytestmark = pytest.mark.django_db


def test_verify_is_clean_then_detects_tampering(capsys: pytest.CaptureFixture[str]) -> None:
    game, seats = started_game(2)
    game = play_random_plies(game, seats, 8, random.Random(11))
    other, other_seats = started_game(3)
    call_command("verify_games")
    assert "2 games verified" in capsys.readouterr().out

    state = dict(game.state or {})
    state["vp"] = [[9, 9, 9, 9]] + list(state["vp"][1:])
    Game.objects.filter(pk=game.pk).update(state=state)
    Move.objects.filter(game=other).delete()
    Game.objects.filter(pk=other.pk).update(version=1)
    with pytest.raises(CommandError) as info:
        call_command("verify_games")
    assert info.value.returncode == 1
    err = capsys.readouterr().err
    assert f"game #{game.pk}: snapshot differs" in err
    assert f"game #{other.pk}: version 1 but 0 moves" in err
