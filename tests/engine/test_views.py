"""View safety and content: ``view_for`` shows a seat only what RULES.md §14 allows."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from engine import Event, GameState, legal_actions, new_game, view_for
from engine.selfplay import play_random

from .engine_helpers import random_states


def _scramble(state: GameState, viewer: int | None, rng: random.Random) -> GameState:
    """Change everything the viewer must not see: other hands, bag order, seed, hidden totals."""
    hands = []
    for i, hand in enumerate(state.hands):
        if i + 1 == viewer:
            hands.append(hand)
            continue
        size = sum(hand)
        counts = [0, 0, 0, 0]
        for _ in range(size):
            counts[rng.randrange(4)] += 1
        hands.append((counts[0], counts[1], counts[2], counts[3]))
    bag = list(state.bag)
    rng.shuffle(bag)
    vp = list(state.vp)
    held = list(state.treasures_held)
    if not state.open_scoring:
        for i in range(state.num_players):
            if i + 1 != viewer:
                vp[i] = (rng.randrange(30), rng.randrange(30), rng.randrange(30), rng.randrange(30))
                held[i] = rng.randrange(5)
    events = tuple(
        Event(e.code, {"secret": rng.random()}, e.private_to)
        if e.private_to is not None and e.private_to != viewer
        else e
        for e in state.events
    )
    return replace(
        state,
        hands=tuple(hands),
        bag=tuple(bag),
        seed=rng.randrange(10**9),
        vp=tuple(vp),
        treasures_held=tuple(held),
        events=events,
    )


def test_a_view_does_not_change_when_hidden_information_changes() -> None:
    rng = random.Random(4)
    checked = 0
    for state in random_states(250, seed=21):
        if state.is_over:
            continue
        for viewer in [None, *range(1, state.num_players + 1)]:
            before = view_for(state, viewer).to_json()
            assert view_for(_scramble(state, viewer, rng), viewer).to_json() == before
            checked += 1
    assert checked > 500


def test_a_view_never_holds_the_seed_or_the_bag_order() -> None:
    for state in random_states(60, seed=8):
        for viewer in [None, *range(1, state.num_players + 1)]:
            data = view_for(state, viewer).to_dict()
            assert "seed" not in data and "bag" not in data
            assert data["bag_size"] == len(state.bag)


def test_own_hand_and_totals_are_shown_but_not_others_in_hidden_scoring() -> None:
    state = new_game(3, 12)
    view = view_for(state, 2)
    assert view.hand == dict(zip(("red", "black", "blue", "green"), state.hands[1], strict=True))
    assert set(view.scores) == {2}
    assert view.hands is None
    assert view.hand_sizes == {1: 6, 2: 6, 3: 6}
    spectator = view_for(state, None)
    assert spectator.hand is None and spectator.scores == {}
    open_game = new_game(3, 12, open_scoring=True)
    assert set(view_for(open_game, None).scores) == {1, 2, 3}


def test_private_swap_colours_are_shown_only_to_the_swapper() -> None:
    state = new_game(2, 3)
    swap = next(a for a in legal_actions(state) if str(a).startswith("swap"))
    from engine import apply

    after = apply(state, swap)
    own = [e["code"] for e in view_for(after, 1).events]
    other = [e["code"] for e in view_for(after, 2).events]
    assert "tiles_discarded" in own and "tiles_swapped" in own
    assert "tiles_discarded" not in other and "tiles_swapped" in other


def test_legal_actions_only_for_the_viewer_who_must_act() -> None:
    state = new_game(2, 6)
    assert view_for(state, 1).actions == tuple(legal_actions(state))
    assert view_for(state, 2).actions == ()
    assert view_for(state, None).actions == ()


def test_after_the_end_everything_is_public() -> None:
    final = play_random(3, 44, check=False).final
    view = view_for(final, None)
    assert view.is_over and view.to_act is None
    assert set(view.scores) == {1, 2, 3}
    assert view.hands is not None and set(view.hands) == {1, 2, 3}
    assert sorted(p.seat for p in view.placings) == [1, 2, 3]
    json.loads(view.to_json())


def test_view_shows_what_a_ui_needs() -> None:
    state = new_game(4, 2)
    view = view_for(state, 1)
    board = view.to_dict()["board"]  # the JSON's diagram rows
    assert len(board) == 11 and all(len(row.split()) == 16 for row in board)
    assert board[0].split()[10] == "r*"  # k1 starts with a temple and a treasure
    k1 = view.square("k1")
    assert (k1.piece, k1.color, k1.treasure) == ("tile", "red", True)
    assert view.leaders[3] == {"priest": None, "king": None, "farmer": None, "trader": None}
    assert view.catastrophes == {1: 2, 2: 2, 3: 2, 4: 2}
    assert len(view.monuments_available) == 6 and view.monuments_built == {}
    assert view.bag_size == 143 - 24 and view.treasures_left == 10
    assert (view.active_seat, view.to_act, view.actions_left, view.pending) == (1, 1, 2, None)


def test_seat_out_of_range_is_refused() -> None:
    with pytest.raises(ValueError):
        view_for(new_game(2, 1), 3)


def test_the_unification_marker_is_shown_only_while_its_wars_are_pending() -> None:
    """RULES.md §7.1/§7.5: the marker lies on the uniting tile until no war remains."""
    from engine import view_for
    from tests.engine.rules_helpers import play, position

    kingdoms = {"c5": "r", "c6": "1K", "d5": "k", "e5": "k"}
    kingdoms |= {"g5": "k", "h5": "k", "i5": "r", "j5": "2K"}
    state = play(position(kingdoms, hands={1: "g k", 2: "b"}), "tile green f5")
    assert view_for(state, 1).unification == "f5"
    assert view_for(state, None).unification == "f5"
    state = play(state, "commit 0", "commit 0")
    assert state.pending is None
    assert view_for(state, 2).unification is None


def test_kingdoms_are_numbered_in_square_order_and_leaderless_regions_left_out() -> None:
    """RULES.md §3: a region with a leader is a kingdom; one without is not."""
    from engine import view_for
    from tests.engine.rules_helpers import position

    state = position({"c5": "r", "c6": "1K", "d5": "k", "i5": "r", "j5": "2K", "m6": "g"})
    kingdoms = view_for(state, None).kingdoms
    assert kingdoms == {"c5": 1, "d5": 1, "c6": 1, "i5": 2, "j5": 2}


def test_a_replay_of_an_ended_game_shows_every_hand_and_total_at_every_ply() -> None:
    """RULES.md §14: after the game ends, everything is public, also in its replay."""
    from engine import new_game, view_for

    state = new_game(3, 11)
    hidden = view_for(state, 1)
    assert hidden.hands is None and set(hidden.scores) == {1}
    shown = view_for(state, 1, game_ended=True)
    assert shown.hands is not None and set(shown.hands) == {1, 2, 3}
    assert sum(shown.hands[2].values()) == 6
    assert set(shown.scores) == {1, 2, 3}
    assert not shown.is_over and shown.placings == ()  # the position itself is mid-game
