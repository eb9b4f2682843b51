"""Determinism: the same seed and actions give the same final state (issue 3, golden digests)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from engine import Action, apply, new_game
from engine.selfplay import play_random

DATA = json.loads((Path(__file__).parent / "data" / "golden_games.json").read_text())


@pytest.mark.parametrize("game", DATA["games"], ids=lambda g: f"{g['players']}p-seed{g['seed']}")
def test_recorded_game_replays_to_its_golden_digest(game: dict[str, Any]) -> None:
    state = new_game(game["players"], game["seed"])
    for text in game["actions"]:
        state = apply(state, Action.parse(text))
    assert state.is_over
    assert state.end_reason == game["end_reason"]
    assert hashlib.sha256(state.to_json().encode()).hexdigest() == game["sha256"]


def test_same_seed_same_game_and_different_seed_different_bag() -> None:
    a = play_random(3, 77, check=False)
    b = play_random(3, 77, check=False)
    assert a.actions == b.actions
    assert a.final.to_json() == b.final.to_json()
    assert new_game(2, 1).bag != new_game(2, 2).bag


def test_apply_never_mutates_its_input() -> None:
    record = play_random(2, 5, check=False)
    state = new_game(2, 5)
    for text in record.actions[:120]:
        before = state.to_json()
        after = apply(state, Action.parse(text))
        assert state.to_json() == before
        assert after is not state
        state = after
