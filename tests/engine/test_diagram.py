"""Diagrams: exact format, round trip and errors naming the line (issue 3)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine import DiagramError, apply, legal_actions, new_game
from engine.diagram import parse, render

from .engine_helpers import grid, position, random_states

EXAMPLE = """players: 3
active: 1
actions: 2
hand 1: r r k b g g
hand 2: r b
vp 1: red 3 black 0 blue 2 green 1 treasures 0
catastrophes 2: 1
monument red-blue: e5
bag: r 40 k 20 b 30 g 25
seed: 7

"""


def test_the_issue_example_headers_parse() -> None:
    # 40 red in the bag + 10 temples + 3 in hands + 4 under the monument = all 57.
    cells = {"e5": "#", "f5": "#", "e6": "#", "f6": "#", "j1": "2P"}
    state = parse(EXAMPLE + grid(cells))
    assert state.num_players == 3 and state.active_seat == 1 and state.actions_left == 2
    assert state.hands == ((2, 1, 1, 2), (1, 0, 1, 0), (0, 0, 0, 0))
    assert state.vp[0] == (3, 0, 2, 1) and state.treasures_held == (0, 0, 0)
    assert state.catastrophes == (2, 1, 2)
    assert state.monuments[1] >= 0 and sum(1 for m in state.monuments if m >= 0) == 1
    assert sorted(state.bag) == [0] * 40 + [1] * 20 + [2] * 30 + [3] * 25
    assert state.seed == 7
    assert state.leader_square(2, 0) >= 0


def test_defaults_fill_the_bag_with_the_rest_of_the_153_tiles() -> None:
    state = position("hand 1: r r k", {"a2": "k", "e1": "b"})
    assert state.num_players == 2 and state.actions_left == 2 and state.catastrophes == (2, 2)
    counts = [state.bag.count(c) for c in range(4)]
    assert counts == [57 - 10 - 2, 30 - 1 - 1, 36 - 1, 30]
    assert state.discarded == 0


def test_render_then_parse_round_trips_random_positions() -> None:
    checked = 0
    for state in random_states(200, seed=2):
        if state.pending is not None:
            assert "to_act:" in render(state) and "pending:" in render(state)
            continue
        back = parse(render(state))
        assert replace(back, bag=state.bag, events=state.events) == state
        assert sorted(back.bag) == sorted(state.bag)
        assert render(back) == render(state)
        checked += 1
    assert checked > 100


def test_render_writes_every_header_and_the_grid_layout() -> None:
    text = render(new_game(2, 5))
    lines = text.splitlines()
    for key in ("players: 2", "active: 1", "actions: 2", "seed: 5", "bag: r "):
        assert any(line.startswith(key) for line in lines), key
    assert sum(line.startswith("hand ") for line in lines) == 2
    assert sum(line.startswith("vp ") for line in lines) == 2
    assert "    a  b  c  d  e  f  g  h  i  j  k  l  m  n  o  p" in lines
    assert " 1  .  .  .  .  ~  ~  ~  ~  ~  . r*  .  ~  .  .  ." in lines
    assert lines[-1].startswith("11 ")


def test_cells_without_row_numbers_or_column_line_also_parse() -> None:
    rows = [line.split()[1:] for line in grid().splitlines()]
    state = parse("players: 2\n" + "\n".join(" ".join(r) for r in rows))
    assert state.board == new_game(2, 0).board


@pytest.mark.parametrize(
    "cells, headers, fragment",
    [
        ({"a2": "b"}, "", "farm"),
        ({"e1": "r"}, "", "river"),
        ({"e1": "."}, "", "river on the map"),
        ({"a2": "~"}, "", "land on the map"),
        ({"a2": "q"}, "", "unknown cell"),
        ({"e2": "1K"}, "", "river"),
        ({"a11": "1K"}, "", "no face-up temple"),
        ({"j1": "1K", "l1": "2K"}, "", "two kings in one kingdom"),
        ({"j1": "1K", "l1": "1K"}, "", "twice"),
        ({"j1": "3K"}, "players: 2", "only 2 players"),
        ({"a2": "k*"}, "", "treasure"),
        ({"a2": "#"}, "", "under no monument"),
        ({}, "bag: r 50", "more red tiles than exist"),
        ({}, "hand 1: r r r r r r r", "at most 6"),
        ({}, "players: 5", "players"),
        ({}, "active: 3", "active"),
        ({}, "colour: red", "unknown header"),
        ({}, "monument red-purple: a1", "unknown monument"),
    ],
)
def test_inconsistent_positions_are_refused_with_the_reason(
    cells: dict[str, str], headers: str, fragment: str
) -> None:
    with pytest.raises(DiagramError, match=fragment):
        position(headers, cells)


def test_errors_name_the_line() -> None:
    text = "players: 2\n\n" + grid({"a3": "b"})
    with pytest.raises(DiagramError) as info:
        parse(text)
    assert info.value.line == 5 and str(info.value).startswith("line 5: ")
    with pytest.raises(DiagramError, match="11 rows"):
        parse("players: 2\n" + "\n".join(grid().splitlines()[:10]))


def test_a_parsed_position_plays_on() -> None:
    state = position("hand 1: r r k b g g", {"j1": "1K"})
    actions = {str(a) for a in legal_actions(state)}
    assert "tile red l1" in actions and "withdraw king" in actions
    after = apply(state, legal_actions(state)[0])
    assert after.actions_left == 1
