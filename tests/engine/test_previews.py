"""Previews of what an action starts, and which plies may be taken back (issue 16).

Positions are those of the rulebook scenario tests (RULES.md §6, §7, §8): the preview must
say what ``apply`` then does, from the same rules.
"""

from __future__ import annotations

import pytest

import engine
from engine.previews import ConflictPreview, Score, preview, undo_window, undoable_plies
from tests.engine.rules_helpers import play, position

REVOLT_BOARD = {"f5": "r", "g5": "2K", "h5": "r", "h3": "r"}
WAR_BOARD = {
    **{"c5": "r", "c6": "1K", "d5": "k", "e5": "k", "d6": "k"},
    **{"g5": "k", "h5": "k", "h6": "k", "i5": "r", "j5": "2K"},
}


def act(text: str) -> engine.Action:
    return engine.Action.parse(text)


def test_a_leader_beside_a_rival_previews_the_revolt_with_strengths_before_support() -> None:
    """RULES.md §6.2: 2 temples each (h5 shared); apply then waits for the attacker's support."""
    state = position(REVOLT_BOARD, hands={1: "r r k", 2: "r b"})
    got = preview(state, act("leader king h4"))
    assert got.conflict == ConflictPreview("revolt", "black", 1, 2, 2, 2)
    assert not got.undoable and not got.quiet
    after = engine.apply(state, act("leader king h4"))
    assert after.pending is not None and after.pending.kind == "support"


def test_a_unifying_tile_previews_its_war() -> None:
    """RULES.md §7.1–§7.2: f5 joins the two kingdoms: a war over black, 3 black each side."""
    state = position(WAR_BOARD, hands={1: "g k k r", 2: "k b"})
    got = preview(state, act("tile green f5"))
    assert got.wars == ("black",)
    assert got.conflict == ConflictPreview("war", "black", 1, 2, 3, 3)


def test_a_completed_block_previews_its_monuments_and_the_point() -> None:
    """RULES.md §5.2, §8.1: the red tile scores 1 red to the king's owner, then a monument."""
    state = position({"g4": "r", "h4": "r", "g5": "r", "e5": "r", "f5": "1K"}, hands={1: "r k"})
    got = preview(state, act("tile red h5"))
    assert got.scores == (Score(1, "red", 1),)
    assert {m.monument_name for m in got.monuments} == {"red-black", "red-blue", "red-green"}
    assert got.conflict is None and not got.undoable


def test_a_quiet_first_action_is_undoable_and_a_last_one_ends_the_turn() -> None:
    """The turn's end draws tiles (RULES.md §12): its last action cannot be taken back."""
    first = preview(position({"e5": "r", "f5": "1K"}, hands={1: "k k b"}), act("tile black a1"))
    assert first.quiet and first.undoable and not first.ends_turn
    state = position({"e5": "r", "f5": "1K"}, hands={1: "k k b"}, actions=1)
    last = preview(state, act("tile black a1"))
    assert last.quiet and last.ends_turn and not last.undoable


def test_preview_from_the_players_view_agrees_and_refuses_illegal_actions() -> None:
    state = position(REVOLT_BOARD, hands={1: "r r k", 2: "r b"})
    view = engine.view_for(state, 1)
    assert preview(view, act("leader king h4")) == preview(state, act("leader king h4"))
    with pytest.raises(engine.IllegalActionError, match="land square"):
        preview(state, act("tile black e1"))


def test_undoable_plies_stop_at_the_turns_start_and_at_any_barrier() -> None:
    """Only the active seat's own quiet plies, back to the first that revealed or asked."""
    state = position({"e5": "r", "f5": "1K"}, hands={1: "k k b"})
    a1, a2 = act("tile black a1"), act("tile black a2")
    s1 = engine.apply(state, a1)
    plies = [(2, act("pass"), [{"code": "turn_ended", "params": {}}]), (1, a1, list(s1.events))]
    assert undoable_plies(s1, plies) == 1
    assert undoable_plies(engine.view_for(s1, 2), plies) == 1
    s2 = engine.apply(s1, a2)
    assert s2.active_seat == 2  # the turn ended: nothing of it can be taken back
    assert undoable_plies(s2, [*plies, (1, a2, list(s2.events))]) == 0
    revolt = play(position(REVOLT_BOARD, hands={1: "r r k", 2: "r b"}), "leader king h4")
    assert undoable_plies(revolt, [(1, act("leader king h4"), list(revolt.events))]) == 0
    done = play(
        position(REVOLT_BOARD, hands={1: "r r k", 2: "r b"}),
        "leader king h4",
        "commit 0",
        "commit 0",
    )
    tail = [(1, act("commit 0"), list(done.events))]
    assert done.pending is None and undoable_plies(done, tail) == 0


def test_the_undo_window_is_the_active_seats_actions_of_this_turn() -> None:
    """RULES.md §2: two actions a turn; the site reads no more plies than the engine names."""
    state = position({"e5": "r", "f5": "1K"}, hands={1: "k k b"})
    assert undo_window(state) == 0  # a turn's start: nothing to read
    a1 = act("tile black a1")
    s1 = engine.apply(state, a1)
    assert undo_window(s1) == undo_window(engine.view_for(s1, 2)) == 1
    quiet = (1, a1, list(s1.events))
    # However long the history handed over, only the window counts.
    assert undoable_plies(s1, [quiet, quiet, quiet]) == 1
    s2 = engine.apply(s1, act("tile black a2"))
    assert s2.active_seat == 2 and undo_window(s2) == 0  # the turn ended
    revolt = play(position(REVOLT_BOARD, hands={1: "r r k", 2: "r b"}), "leader king h4")
    assert revolt.pending is not None and undo_window(revolt) == 0  # a decision waits


def test_a_catastrophe_previews_the_tile_it_destroys_and_the_kingdom_it_splits() -> None:
    """RULES.md §10: the black tile on d5 is destroyed; the kingdom c5–e6 falls in two."""
    board = {"c5": "r", "c6": "2P", "d5": "k", "e5": "r", "e6": "1K"}
    state = position(board, hands={1: "b b"})
    got = preview(state, act("catastrophe d5"))
    assert got.destroyed == "black" and got.split_into == 2 and got.leaders_lost == ()
    assert not got.quiet
    # What apply then does: two kingdoms, each with its leader beside its temple.
    after = engine.apply(state, act("catastrophe d5"))
    codes = [e.code for e in after.events]
    assert "catastrophe_placed" in codes and "leader_withdrawn" not in codes


def test_a_catastrophe_on_a_leaders_last_temple_previews_the_leader_it_removes() -> None:
    """RULES.md §10, §4.3: the king on f5 has no temple beside it once e5 is destroyed."""
    state = position({"e5": "r", "f5": "1K", "c5": "r", "c6": "2P"}, hands={1: "b b"})
    got = preview(state, act("catastrophe e5"))
    assert got.destroyed == "red"
    assert got.leaders_lost == (engine.LeaderLoss(1, "king", "f5", "no_temple"),)
    assert got.split_into == 0  # the kingdom e5–f5 is gone, not split
    empty = preview(state, act("catastrophe a1"))
    assert empty.destroyed is None and empty.quiet
