"""Random self-play: 60 seeded games with every invariant checked after every action (issue 3).

Sixty games (20 each of 2, 3 and 4 players) already reach every feature's minimum below;
the 300 games this test once played are ``bench/engine_soak.py``'s (``--selfplay 300``).
"""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from engine.selfplay import check_invariants, play_random

GAMES = 60


@pytest.fixture(scope="module")
def features() -> Counter[str]:
    total: Counter[str] = Counter()
    for g in range(GAMES):
        record = play_random(2 + g % 3, 1000 + g, check=True)
        assert record.final.is_over
        assert record.final.end_reason in ("bag", "treasures")
        total += record.features
    return total


def test_sixty_random_games_keep_every_invariant(features: Counter[str]) -> None:
    # play_random raises InvariantError on the first broken invariant; reaching here means none.
    assert features["game_over"] == GAMES


@pytest.mark.parametrize(
    "feature, minimum",
    [
        ("revolt_started", 100),
        ("war_started", 50),
        ("multi_war", 10),
        ("war_order", 10),
        ("war_cancelled", 1),
        ("monument_built", 5),
        ("monument_declined", 1),
        ("catastrophe_placed", 100),
        ("treasure_taken", 50),
        ("treasure", 10),  # a real treasure choice was asked
        ("tiles_removed", 10),
        ("tiles_swapped", 100),
        ("end_bag", 50),  # of 60 games (100 of the 300 it once played)
        ("end_treasures", 1),
    ],
)
def test_random_games_exercise_every_feature(
    features: Counter[str], feature: str, minimum: int
) -> None:
    assert features[feature] >= minimum, f"{feature}: {features[feature]}"


def test_invariant_checker_catches_a_broken_state() -> None:
    from dataclasses import replace

    from engine import new_game
    from engine.selfplay import InvariantError

    state = new_game(2, 3)
    check_invariants(state)
    with pytest.raises(InvariantError, match="tiles"):
        check_invariants(replace(state, discarded=1))
    with pytest.raises(InvariantError, match="treasures"):
        check_invariants(replace(state, treasures_held=(1, 0)))
    with pytest.raises(InvariantError, match="catastrophes"):
        check_invariants(replace(state, catastrophes=(2, 1)))


def test_command_line_selfplay_prints_a_line_per_game_and_a_total() -> None:
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "engine",
            "selfplay",
            "--players",
            "3",
            "--games",
            "2",
            "--seed",
            "5",
        ],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    assert len(out) == 3
    assert out[0].startswith("game 1 seed 5: ") and "winner" in out[0] and "scores" in out[0]
    assert out[-1].startswith("total: 2 games")
