"""The engine's typed vocabularies and the rules it shows the site (issue 27).

Each ``Literal`` type and the tuple listing it agree; every action's ``kind`` is its
notation's first word; names read from JSON are checked; and the engine answers what the site
draws or writes: a move as each viewer reads it (a swap's colours hidden, RULES.md §14), the
river's banks (§1.1), the colour each leader stands for (§1.2), the squares a monument covers
(§8.2) and square order.
"""

from __future__ import annotations

from typing import get_args

import pytest

import engine
from engine import Action, Decision, Event, HiddenSwap, seen_action, square_coords, view_for
from engine.events import EVENT_CODES
from tests.engine.engine_helpers import random_states


@pytest.mark.parametrize(
    ("names", "kind"),
    [
        (engine.COLOR_NAMES, engine.Color),
        (engine.LEADER_NAMES, engine.Leader),
        (engine.MONUMENT_NAMES, engine.MonumentName),
        (engine.ACTION_KINDS, engine.ActionKind),
        (EVENT_CODES, engine.EventCode),
        (engine.DECISION_KINDS, engine.DecisionKind),
        (engine.CONFLICT_KINDS, engine.ConflictKind),
        (engine.PIECE_KINDS, engine.PieceKind),
        (engine.SIDES, engine.Side),
        (engine.END_REASONS, engine.EndReason),
    ],
)
def test_each_tuple_lists_its_type_in_order(names: tuple[str, ...], kind: object) -> None:
    assert names == get_args(kind)


def test_a_monument_is_named_by_its_two_colours_in_notation_order() -> None:
    """RULES.md §1.2: the names are written out for the type; they are the colour pairs."""
    for name, (a, b) in engine.MONUMENT_COLORS.items():
        assert name == f"{a}-{b}"
        assert engine.COLOR_NAMES.index(a) < engine.COLOR_NAMES.index(b)


@pytest.mark.parametrize(
    "text",
    [
        "tile red f7",
        "leader king e3",
        "withdraw trader",
        "catastrophe g5",
        "swap red blue",
        "pass",
        "commit 2",
        "war black",
        "monument red-blue g4",
        "decline monument",
        "treasure b2",
    ],
)
def test_an_actions_kind_is_its_notations_first_word(text: str) -> None:
    action = Action.parse(text)
    assert action.kind == text.split()[0]
    assert action.kind in engine.ACTION_KINDS


def test_actions_sort_by_kind_then_fields() -> None:
    """``legal_actions`` is sorted by ``sort_key``: the kind's rank, then the fields."""
    for state in random_states(30, seed=4):
        legal = engine.legal_actions(state)
        assert list(legal) == sorted(legal, key=lambda a: a.sort_key())
        for action in legal:
            assert action.sort_key()[0] == engine.ACTION_KINDS.index(action.kind)


def test_names_read_from_json_are_checked() -> None:
    """A stored snapshot with a name the engine does not know is refused, not carried on."""
    support = Decision(seat=1, kind="support", conflict="revolt", color="red", support_color="red")
    assert Decision.from_dict(support.to_dict()) == support
    with pytest.raises(ValueError, match="decision kind"):
        Decision.from_dict({**support.to_dict(), "kind": "supprot"})
    with pytest.raises(ValueError, match="colour"):
        Decision.from_dict({**support.to_dict(), "color": "purple"})
    with pytest.raises(ValueError, match="event"):
        Event.from_dict({"code": "vp_scroed", "params": {}})
    assert Event.from_dict({"code": "passed", "params": {"seat": 1}}).code == "passed"


def test_leaders_stand_for_their_colours() -> None:
    """RULES.md §1.2: king black, priest red, farmer blue, trader green."""
    assert engine.LEADER_COLORS == {
        "king": "black",
        "priest": "red",
        "farmer": "blue",
        "trader": "green",
    }


def test_a_swap_is_seen_by_its_player_alone_until_the_end() -> None:
    """RULES.md §11, §14: others read how many tiles were swapped, not their colours."""
    swap = "swap red red blue"
    assert seen_action(swap, player=2, viewer=2, game_over=False) == Action.parse(swap)
    for viewer in (1, 3, None):
        seen = seen_action(swap, player=2, viewer=viewer, game_over=False)
        assert seen == HiddenSwap(3)
        assert str(seen) == "swap 3" and seen.kind == "swap"
    assert seen_action(swap, player=2, viewer=None, game_over=True) == Action.parse(swap)
    tile = Action.parse("tile red f7")
    assert seen_action(tile, player=2, viewer=None, game_over=False) is tile
    with pytest.raises(ValueError):
        seen_action("undo", player=1, viewer=None, game_over=False)


def test_river_banks_are_where_a_river_square_meets_land() -> None:
    """RULES.md §1.1: a bank on each side of a river square whose neighbour is land."""
    view = view_for(engine.new_game(2, seed=1), None)
    squares = {sq.name: sq for sq in view.squares}
    assert squares["e1"].banks == ("w",)  # d1 is land, e2 and f1 are river, no north
    assert squares["i1"].banks == ("e", "s")  # j1 and i2 are land, h1 is river
    assert squares["a1"].banks == ()  # land has no banks
    for sq in view.squares:
        for side, step in zip(engine.SIDES, ((-1, 0), (0, 1), (1, 0), (0, -1)), strict=True):
            row, col = sq.row - 1 + step[0], sq.col + step[1]
            land_beside = 0 <= row < 11 and 0 <= col < 16 and not view.squares[row * 16 + col].river
            assert (side in sq.banks) == (sq.river and land_beside), (sq.name, side)


def test_a_monument_covers_the_two_by_two_block_below_and_right_of_its_square() -> None:
    """RULES.md §8.2: the block from the named square to the one diagonally below it."""
    assert Action.parse("monument red-blue g4").touched == ("g4", "h4", "g5", "h5")
    assert Action.parse("monument black-green o10").touched == ("o10", "p10", "o11", "p11")


def test_square_coords_read_column_then_row() -> None:
    """RULES.md §1.1: a1 to p11, columns a–p, rows 1–11."""
    assert square_coords("a1") == (0, 1)
    assert square_coords("b8") == (1, 8)
    assert square_coords("p11") == (15, 11)
    names = ["b10", "b9", "a11", "c1"]
    assert sorted(names, key=square_coords) == ["a11", "b9", "b10", "c1"]
    with pytest.raises(ValueError):
        square_coords("q1")
