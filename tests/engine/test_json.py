"""JSON: exact round trip with a stable key order (issue 3)."""

from __future__ import annotations

import json

import pytest

from engine import GameState, new_game

from .engine_helpers import random_states


def test_round_trip_is_exact_for_random_states_including_pending_decisions() -> None:
    kinds = set()
    for state in random_states(400, seed=3):
        text = state.to_json()
        back = GameState.from_json(text)
        assert back == state
        assert back.to_json() == text
        if state.pending is not None:
            kinds.add(state.pending.kind)
    assert "support" in kinds  # decisions round-trip too


def test_keys_are_sorted_and_the_text_is_stable() -> None:
    state = new_game(3, 9, open_scoring=True)
    data = json.loads(state.to_json())
    assert list(data) == sorted(data)
    assert data["open_scoring"] is True
    assert GameState.from_json(state.to_json()).open_scoring is True
    assert state.to_json() == new_game(3, 9, open_scoring=True).to_json()


def test_malformed_json_raises_value_error() -> None:
    with pytest.raises(ValueError):
        GameState.from_json('{"num_players": 2}')
    with pytest.raises(ValueError):
        GameState.from_json("not json")
