"""The board draws what the view says, including the unification marker (games.web.board)."""

from __future__ import annotations

import re
from typing import Any

import engine
from games.text.seats import SeatInfo
from games.web.board import board_rows
from tests.engine.rules_helpers import play, position

SEATS = {1: SeatInfo(1, "ann", "archer"), 2: SeatInfo(2, "bo", "bull")}


def cells_by_square(view: engine.PlayerView, **options: Any) -> dict[str, dict[str, Any]]:
    """Return square name → what the page draws there: the cell's parts and its ``html``."""
    out = {}
    for row in board_rows(view, SEATS, **options):
        for cell, html in zip(row.cells, row.cell_html, strict=True):
            out[cell.square.name] = {
                "unification": cell.square.unification,
                "label": cell.label,
                "kingdom_edges": list(cell.square.kingdom_edges),
                "html": str(html),
            }
    return out


def test_the_unification_marker_is_drawn_and_labelled_while_wars_are_pending() -> None:
    kingdoms = {"c5": "r", "c6": "1K", "d5": "k", "e5": "k"}
    kingdoms |= {"g5": "k", "h5": "k", "i5": "r", "j5": "2K"}
    state = play(position(kingdoms, hands={1: "g k", 2: "b"}), "tile green f5")
    cells = cells_by_square(engine.view_for(state, 2))
    assert cells["f5"]["unification"] is True
    assert cells["f5"]["label"] == "f5, land, green market, unification marker: wars pending"
    assert [name for name, cell in cells.items() if cell["unification"]] == ["f5"]

    after = play(state, "commit 0", "commit 0")
    assert not any(
        cell["unification"] for cell in cells_by_square(engine.view_for(after, 2)).values()
    )


def test_kingdom_edges_are_drawn_where_a_kingdom_ends() -> None:
    state = position({"c5": "r", "c6": "1K", "d5": "k", "m6": "g"})
    cells = cells_by_square(engine.view_for(state, 1))
    assert cells["c5"]["kingdom_edges"] == ["n", "w"]
    assert cells["d5"]["kingdom_edges"] == ["n", "e", "s"]
    assert cells["c6"]["kingdom_edges"] == ["e", "s", "w"]
    assert cells["m6"]["kingdom_edges"] == []  # a region without a leader is no kingdom
    assert 'class="sq land k-tile kb-n kb-w"' in cells["c5"]["html"]


def test_monuments_are_named_by_their_colours_in_the_viewers_language() -> None:
    from django.utils import translation

    from games.text.words import monument_name

    assert monument_name("red-black") == "red/black"
    with translation.override("zh-hans"):
        assert monument_name("blue-green") != "blue-green"
        assert "/" in monument_name("blue-green")


def test_swapping_one_tile_is_singular() -> None:
    from games.text.actions import action_words

    assert action_words(engine.Action.parse("swap red")) == "Swap 1 tile: red"
    assert action_words(engine.Action.parse("swap red blue")) == "Swap 2 tiles: red, blue"


def test_the_viewers_own_leader_that_may_move_is_picked_on_the_board() -> None:
    from games.web.action_groups import action_groups, board_picks

    state = position({"c5": "r", "c6": "1K", "i5": "r", "j5": "2K"})

    def html(seat: int) -> dict[str, str]:
        view = engine.view_for(state, seat)
        picks = board_picks(view, action_groups(view))
        return {name: cell["html"] for name, cell in cells_by_square(view, picks=picks).items()}

    mine = html(1)
    assert re.search(r'class="[^"]*\bpick\b', mine["c6"])
    assert 'data-group="leader-king"' in mine["c6"]
    assert "data-group" not in mine["j5"]  # the other seat's king
    # Seat 2 does not act now: no legal actions, nothing to pick.
    assert all("data-group" not in cell for cell in html(2).values())


def test_a_built_monument_is_one_piece_in_its_two_colours_named_on_each_square() -> None:
    """Issue 16: drawn once, across its 2×2 from the top-left square; each square says it."""
    block = ("a10", "b10", "a11", "b11")
    state = position(dict.fromkeys(block, "#"), monuments={"red-black": "a10"})
    cells = cells_by_square(engine.view_for(state, 1))
    for square in block:
        assert "red/black monument" in cells[square]["label"]
    drawn = [name for name, cell in cells.items() if "mon-piece" in str(cell["html"])]
    assert drawn == ["a10"]
    assert '<svg class="mon-piece a-red b-black"' in cells["a10"]["html"]


def test_pieces_are_drawn_from_the_sprite_sheet_and_rivers_have_banks_only_at_land() -> None:
    state = position({"e5": "r", "f5": "1K", "e1": "b", "a5": "k"})
    cells = cells_by_square(engine.view_for(state, 1))
    assert '<use href="#p-temple"/>' in cells["e5"]["html"]
    assert '<use href="#p-farm"/>' in cells["e1"]["html"]
    assert '<use href="#p-settlement"/>' in cells["a5"]["html"]
    assert '<use href="#p-king"/>' in cells["f5"]["html"]
    assert "treasure special" in cells["b2"]["html"] and "#p-special" in cells["b2"]["html"]
    assert "#p-treasure" in cells["k1"]["html"]
    # e1 (river) lies between river e2 and land d1: a bank on its west side, none south.
    assert "rb-w" in cells["e1"]["html"] and "rb-s" not in cells["e1"]["html"]
