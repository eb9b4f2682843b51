"""Action notation, parsing and ordering (issue 3: action notation)."""

from __future__ import annotations

import pytest

from engine import (
    Action,
    BuildMonument,
    ChooseWar,
    CommitSupport,
    DeclineMonument,
    Pass,
    PlaceCatastrophe,
    PlaceLeader,
    PlaceTile,
    SwapTiles,
    TakeTreasure,
    WithdrawLeader,
    legal_actions,
)
from engine.actions import (
    CATASTROPHE_ACTIONS,
    COMMIT_ACTIONS,
    LEADER_ACTIONS,
    MONUMENT_ACTIONS,
    SWAP_ACTIONS,
    TILE_ACTIONS,
    TREASURE_ACTIONS,
    WAR_ACTIONS,
    WITHDRAW_ACTIONS,
)
from engine.board import SQUARE_BY_NAME

from .engine_helpers import random_states


def test_examples_from_the_issue_read_and_write() -> None:
    f7 = SQUARE_BY_NAME["f7"]
    cases = {
        "tile red f7": PlaceTile(0, f7),
        "leader priest e3": PlaceLeader(0, SQUARE_BY_NAME["e3"]),
        "withdraw trader": WithdrawLeader(3),
        "catastrophe g5": PlaceCatastrophe(SQUARE_BY_NAME["g5"]),
        "swap red red blue": SwapTiles((2, 0, 1, 0)),
        "pass": Pass(),
        "commit 2": CommitSupport(2),
        "war black": ChooseWar(1),
        "monument red-blue e4": BuildMonument(1, SQUARE_BY_NAME["e4"]),
        "decline monument": DeclineMonument(),
        "treasure b2": TakeTreasure(SQUARE_BY_NAME["b2"]),
    }
    for text, action in cases.items():
        assert Action.parse(text) == action
        assert str(action) == text


def test_swap_and_monument_colours_are_written_in_order_and_read_in_any() -> None:
    assert str(Action.parse("swap black red black")) == "swap red black black"
    assert str(Action.parse("swap green blue red black")) == "swap red black blue green"
    assert str(Action.parse("monument blue-red e4")) == "monument red-blue e4"
    assert str(Action.parse("monument green-black a1")) == "monument black-green a1"
    assert str(Action.parse("  TILE Red F7 ")) == "tile red f7"


def test_every_interned_action_round_trips() -> None:
    every: list[Action] = [a for row in TILE_ACTIONS for a in row]
    every += [a for row in LEADER_ACTIONS for a in row]
    every += [a for row in MONUMENT_ACTIONS for a in row]
    every += [*WITHDRAW_ACTIONS, *CATASTROPHE_ACTIONS, *COMMIT_ACTIONS, *WAR_ACTIONS]
    every += [*TREASURE_ACTIONS, *SWAP_ACTIONS.values(), Pass(), DeclineMonument()]
    assert len(SWAP_ACTIONS) == 209  # non-empty multisets of at most six of four colours
    texts = [str(a) for a in every]
    assert len(set(texts)) == len(every)
    for action, text in zip(every, texts, strict=True):
        assert Action.parse(text) == action


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("", "empty"),
        ("tile purple f7", "colour"),
        ("tile red q7", "square"),
        ("tile red f12", "square"),
        ("tile red", "tile <colour> <square>"),
        ("leader queen e3", "leader"),
        ("swap", "1 to 6"),
        ("swap red red red red red red red", "1 to 6"),
        ("commit -1", "0 to 6"),
        ("commit 7", "0 to 6"),
        ("monument red e4", "two colours"),
        ("monument red-red e4", "different"),
        ("decline", "decline monument"),
        ("fly away", "unknown action"),
        ("pass now", "pass"),
    ],
)
def test_malformed_text_raises_value_error_naming_the_problem(text: str, fragment: str) -> None:
    with pytest.raises(ValueError, match=fragment):
        Action.parse(text)


def test_legal_actions_are_sorted_unique_and_deterministic() -> None:
    for state in random_states(150, seed=11):
        actions = legal_actions(state)
        assert actions, "a running game always has a legal action"
        keys = [a.sort_key() for a in actions]
        assert keys == sorted(keys)
        assert len(set(actions)) == len(actions)
        assert [str(a) for a in actions] == sorted(
            (str(a) for a in actions), key=lambda t: Action.parse(t).sort_key()
        )


def test_actions_are_immutable_values() -> None:
    action = Action.parse("tile red f7")
    with pytest.raises(AttributeError):
        action.square = 3  # type: ignore[misc]
    assert hash(action) == hash(PlaceTile(0, SQUARE_BY_NAME["f7"]))
