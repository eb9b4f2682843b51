"""The typed parts of ``PlayerView`` and the engine's answers to what the site draws.

Squares, leaders, monuments and kingdom outlines come from ``view_for``; conflict outcomes,
event visibility and the squares an action touches from the engine's public API, so the
site never reads diagram tokens or board internals (issue 13).
"""

from __future__ import annotations

import random

import pytest

import engine
from engine import Action, Event, conflict_outcome, event_squares, event_visible, view_for
from tests.engine.engine_helpers import random_states
from tests.engine.rules_helpers import play, position

REVOLT_BOARD = {"f5": "r", "g5": "2K", "h5": "r", "h3": "r"}


def test_squares_follow_the_board_in_square_order() -> None:
    """RULES.md §1.1: 176 squares a1, b1, … p11, each with its terrain and piece."""
    state = position({"e5": "r", "f5": "1K", "g6": "g", "h6": "x"})
    view = view_for(state, 1)
    assert [sq.name for sq in view.squares[:3]] == ["a1", "b1", "c1"]
    assert len(view.squares) == 176 and view.squares[-1].name == "p11"
    assert view.square("e5").piece == "tile" and view.square("e5").color == "red"
    king = view.square("f5")
    assert (king.piece, king.seat, king.leader, king.color) == ("leader", 1, "king", "black")
    assert view.square("h6").piece == "catastrophe"
    assert view.square("e1").river and not view.square("a1").river
    assert view.square("b2").treasure and view.square("b2").special
    assert view.square("k1").treasure and not view.square("k1").special
    with pytest.raises(KeyError):
        view.square("q1")


def test_board_leaders_give_each_leaders_owner_and_colour() -> None:
    """RULES.md §1.2: a leader stands for the colour of its name."""
    state = position({"e5": "r", "f5": "1K", "e7": "r", "f7": "2P"})
    view = view_for(state, None)
    assert {(lv.seat, lv.leader, lv.color, lv.square) for lv in view.board_leaders} == {
        (1, "king", "black", "f5"),
        (2, "priest", "red", "f7"),
    }


def test_a_monument_covers_its_two_by_two_block() -> None:
    """RULES.md §8.2: the monument's four squares, top row first, and its two colours."""
    state = position({"f4": "r", "f5": "1K"}, monuments={"red-blue": "g4"})
    view = view_for(state, 2)
    (monument,) = view.monuments
    assert (monument.name, monument.colors, monument.top) == ("red-blue", ("red", "blue"), "g4")
    assert monument.squares == ("g4", "h4", "g5", "h5")
    assert {sq.name for sq in view.squares if sq.monument == monument} == set(monument.squares)
    assert view.square("g4").piece == "facedown"


def test_kingdom_edges_outline_each_kingdom() -> None:
    """RULES.md §3: a kingdom's outline runs where a neighbour is in another or none."""
    state = position({"e5": "r", "f5": "1K", "g5": "g"})
    view = view_for(state, 1)
    numbers = {sq.name: sq.kingdom for sq in view.squares if sq.kingdom}
    assert numbers == view.kingdoms
    assert view.square("e5").kingdom_edges == ("n", "s", "w")
    assert view.square("f5").kingdom_edges == ("n", "s")
    assert view.square("g5").kingdom_edges == ("n", "e", "s")
    assert view.square("a1").kingdom is None and view.square("a1").kingdom_edges == ()


def test_typed_actions_match_the_notation() -> None:
    """``actions`` holds the legal actions in order; the JSON writes them as notation."""
    for state in random_states(40, seed=3):
        if state.to_act is None:
            continue
        view = view_for(state, state.to_act)
        assert view.to_dict()["legal_actions"] == [str(a) for a in view.actions]
        assert view.actions == tuple(engine.legal_actions(state))
        other = view_for(state, None)
        assert other.actions == () and other.to_dict()["legal_actions"] == []


def test_pending_is_a_decision_and_to_dict_keeps_its_shape() -> None:
    """RULES.md §15: the pending decision is typed; the JSON view writes it as before."""
    state = play(position(REVOLT_BOARD, hands={1: "r r k", 2: "r b"}), "leader king h4")
    view = view_for(state, 2)
    assert isinstance(view.pending, engine.Decision)
    assert view.pending.kind == "support" and view.pending.seat == 1
    assert view.to_dict()["pending"] == state.pending.to_dict()


def test_placings_are_typed_after_the_end() -> None:
    """RULES.md §13.2: the final ranking as ``Placing`` values; the JSON writes them as dicts."""
    state = next(s for s in random_states(400, seed=9) if s.is_over)
    view = view_for(state, 1)
    assert [p.to_dict() for p in view.placings] == view.to_dict()["ranking"]
    assert view.placings == tuple(engine.final_ranking(state))
    assert view_for(engine.new_game(2, seed=1), 1).placings == ()


def test_repr_of_an_action_is_its_notation() -> None:
    """An action prints as the notation it is read from, and round-trips."""
    for text in ("tile red f7", "leader priest e3", "swap red red blue", "decline monument"):
        action = Action.parse(text)
        assert repr(action) == f"Action.parse({text!r})"
        assert eval(repr(action), {"Action": Action}) == action  # noqa: S307 - our own text


@pytest.mark.parametrize(
    ("text", "target", "touched"),
    [
        ("tile red f7", "f7", ("f7",)),
        ("leader king e3", "e3", ("e3",)),
        ("catastrophe g5", "g5", ("g5",)),
        ("treasure b2", "b2", ("b2",)),
        ("monument red-blue g4", "g4", ("g4", "h4", "g5", "h5")),
        ("withdraw trader", None, ()),
        ("swap red", None, ()),
        ("pass", None, ()),
        ("commit 2", None, ()),
        ("war black", None, ()),
        ("decline monument", None, ()),
    ],
)
def test_an_action_names_the_squares_it_touches(
    text: str, target: str | None, touched: tuple[str, ...]
) -> None:
    action = Action.parse(text)
    assert action.target == target
    assert action.touched == touched


def test_event_visibility_is_the_views_rule() -> None:
    """RULES.md §14: a private event is its seat's alone until the game is over."""
    private = Event("tiles_discarded", {"seat": 2, "colors": ["red"]}, private_to=2)
    public = Event("passed", {"seat": 1})
    for event in (private, private.to_dict()):
        assert event_visible(event, 2, game_over=False)
        assert not event_visible(event, 1, game_over=False)
        assert not event_visible(event, None, game_over=False)
        assert event_visible(event, None, game_over=True)
    assert event_visible(public.to_dict(), None, game_over=False)
    rng = random.Random(2)
    for state in random_states(60, seed=5):
        seat = rng.choice([None, *range(1, state.num_players + 1)])
        shown = [e.to_dict() for e in state.events if event_visible(e, seat, game_over=False)]
        if not state.is_over:
            assert list(view_for(state, seat).events) == shown


def resolved(attacker_commits: int, defender_commits: int) -> Event:
    """Return the ``conflict_resolved`` event of the standard revolt with these commits."""
    state = play(position(REVOLT_BOARD, hands={1: "r r k", 2: "r b"}), "leader king h4")
    state = play(state, f"commit {attacker_commits}", f"commit {defender_commits}")
    (event,) = [e for e in state.events if e.code == "conflict_resolved"]
    return event


def test_a_tied_revolt_goes_to_the_defender_in_its_outcome() -> None:
    """RULES.md §6.4: two temples and one tile each, 3–3, is a tie: the defender wins it."""
    event = resolved(1, 1)
    outcome = conflict_outcome(event)
    assert outcome.tie and not outcome.attacker_won
    assert (outcome.winner, outcome.loser) == (2, 1)
    assert (outcome.winner_strength, outcome.loser_strength) == (3, 3)
    assert conflict_outcome(event.to_dict()) == outcome


def test_a_won_revolt_gives_the_attackers_strength_first() -> None:
    """RULES.md §6.4: the attacker wins only with the greater strength."""
    outcome = conflict_outcome(resolved(2, 0))
    assert outcome.attacker_won and not outcome.tie
    assert (outcome.winner, outcome.winner_strength, outcome.loser_strength) == (1, 4, 2)
    with pytest.raises(ValueError, match="not a conflict_resolved"):
        conflict_outcome(Event("passed", {"seat": 1}))


def test_event_squares_name_what_the_events_touch() -> None:
    events = [
        Event("leader_moved", {"seat": 1, "leader": "king", "from_square": "e3", "square": "f3"}),
        {"code": "tiles_removed", "params": {"color": "red", "squares": ["g4", "g5"], "count": 2}},
        Event("passed", {"seat": 1}),
    ]
    assert event_squares(events) == {"e3", "f3", "g4", "g5"}


def test_actions_name_their_pieces() -> None:
    """Colours, leaders and monuments by name, as the notation writes them (RULES.md §1.2)."""
    assert Action.parse("tile green f7").color_name == "green"  # type: ignore[attr-defined]
    assert Action.parse("leader trader e3").leader_name == "trader"  # type: ignore[attr-defined]
    assert Action.parse("withdraw priest").leader_name == "priest"  # type: ignore[attr-defined]
    assert Action.parse("war blue").color_name == "blue"  # type: ignore[attr-defined]
    swap = Action.parse("swap green red red")
    assert swap.tile_colors == ("red", "red", "green")  # type: ignore[attr-defined]
    monument = Action.parse("monument blue-black g4")
    assert monument.monument_name == "black-blue"  # type: ignore[attr-defined]


def test_each_monument_is_named_by_its_two_colours() -> None:
    """RULES.md §1.2: six monuments, one per pair of colours, in notation order."""
    assert engine.MONUMENT_COLORS["red-blue"] == ("red", "blue")
    assert set(engine.MONUMENT_COLORS) == set(engine.MONUMENT_NAMES)
    assert all(a != b for a, b in engine.MONUMENT_COLORS.values())
