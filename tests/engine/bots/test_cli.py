"""``python -m engine bot --tier T --seat N --seed S`` answers for a diagram on stdin (issue 14)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from engine import Action, legal_actions
from engine.diagram import parse
from tests.services import ROOT

from ..engine_helpers import grid

DIAGRAM = "players: 2\nhand 1: r r k b g g\nhand 2: r b k k g g\n\n" + grid(
    {"g3": "1K", "g4": "k", "h3": "g"}
)


def _run(*args: str, text: str = DIAGRAM) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", "bot", *args],
        input=text,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )


@pytest.mark.parametrize("tier", ["random", "easy", "medium", "hard"])
def test_bot_prints_a_legal_action_for_the_diagram(tier: str) -> None:
    result = _run("--tier", tier, "--seat", "1", "--seed", "4", "--iterations", "8")
    assert result.returncode == 0, result.stderr
    action = Action.parse(result.stdout.strip())
    assert action in legal_actions(parse(DIAGRAM))


def test_bot_is_deterministic_for_a_seed() -> None:
    first = _run("--tier", "medium", "--seat", "1", "--seed", "9")
    again = _run("--tier", "medium", "--seat", "1", "--seed", "9")
    assert first.stdout == again.stdout != ""


def test_bot_refuses_a_seat_not_to_act_and_a_bad_diagram() -> None:
    result = _run("--tier", "easy", "--seat", "2")
    assert result.returncode == 2 and "not to act" in result.stderr
    result = _run("--tier", "easy", "--seat", "1", text="players: 2\n")
    assert result.returncode == 2 and "error" in result.stderr
