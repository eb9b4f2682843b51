"""Every illegal action class is rejected with its code and message, state unchanged (issue 3)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from engine import ERROR_CODES, Action, GameState, IllegalActionError, apply, legal_actions

from .engine_helpers import play, position

# Seat 1: king h3 over temple h4, priest f5 over temple g5; seat 2: king j5 over temple i5.
# h5 touches all three kingdoms.
THREE = {"h4": "r", "h3": "1K", "g5": "r", "f5": "1P", "i5": "r", "j5": "2K", "a1": "x"}
BASE_HEADERS = "players: 2\nhand 1: r k b g\nhand 2: r r\ncatastrophes 2: 1"


def base() -> GameState:
    return position(BASE_HEADERS, THREE)


def revolt() -> GameState:
    # The king moves next to seat 2's king's kingdom: a revolt waits for seat 1's support.
    state = play(base(), "leader king i6")
    assert state.pending is not None and state.pending.kind == "support"
    return state


def war_order() -> GameState:
    cells = {"c6": "r", "b6": "1K", "c5": "1P", "e6": "r", "f6": "2K", "e5": "2P"}
    state = play(position("players: 2\nhand 1: r r", cells), "tile red d6")
    assert state.pending is not None and state.pending.kind == "war_order"
    return state


def monument() -> GameState:
    cells = {"j2": "r", "k2": "r", "j3": "r"}
    state = play(position("players: 2\nhand 1: r", cells), "tile red k3")
    assert state.pending is not None and state.pending.kind == "monument"
    return state


def treasure() -> GameState:
    cells = {sq: "r" for sq in ("g10", "h10", "i10", "j10", "k10")}
    state = play(position("players: 2", cells), "leader trader f11")
    assert state.pending is not None and state.pending.kind == "treasure"
    return state


def monument_block() -> GameState:
    cells = {"a10": "#", "b10": "#", "a11": "#", "b11": "#"}
    return position("players: 2\nmonument red-black: a10", cells)


def over() -> GameState:
    return position("players: 2\nover: bag")


def no_catastrophe() -> GameState:
    return position("players: 2\ncatastrophes 1: 0")


CASES: list[tuple[str, Callable[[], GameState], str, str]] = [
    ("tile_not_in_hand", lambda: position("hand 1: k b g"), "tile red a2", "§5.1"),
    ("square_occupied", base, "tile red k1", "§5.1"),
    ("farm_on_land", base, "tile blue a2", "§5.1"),
    ("tile_on_river", base, "tile black e1", "§5.1"),
    ("three_kingdoms", base, "tile red h5", "§5.1"),
    ("leader_same_square", base, "leader king h3", "§4.1"),
    ("square_occupied", base, "leader trader h4", "§4.2"),
    ("leader_on_river", base, "leader trader e2", "§4.2"),
    ("leader_no_temple", base, "leader trader a11", "§4.2"),
    ("leader_unites_kingdoms", base, "leader trader h5", "§4.2"),
    ("leader_not_on_board", base, "withdraw trader", "§4.1"),
    ("no_catastrophe_left", no_catastrophe, "catastrophe c3", "§10"),
    ("catastrophe_on_leader", base, "catastrophe h3", "§10"),
    ("catastrophe_on_catastrophe", base, "catastrophe a1", "§10"),
    ("catastrophe_on_monument", monument_block, "catastrophe a10", "§10"),
    ("catastrophe_on_treasure", base, "catastrophe k1", "§10"),
    ("swap_not_in_hand", base, "swap red red", "§11"),
    ("decision_pending", revolt, "pass", "§15"),
    ("decision_pending", revolt, "tile black a2", "§15"),
    ("no_decision_pending", base, "commit 0", "§15"),
    ("no_decision_pending", base, "decline monument", "§15"),
    ("wrong_decision", revolt, "war red", "§15"),
    ("wrong_decision", war_order, "commit 0", "§15"),
    ("support_not_in_hand", revolt, "commit 2", "§6.3"),
    ("war_not_possible", war_order, "war blue", "§7.2"),
    ("monument_not_possible", monument, "monument black-blue j2", "§8.1"),
    ("monument_not_possible", monument, "monument red-blue a1", "§8.1"),
    ("treasure_not_available", treasure, "treasure b2", "§9"),
    ("game_over", over, "pass", "§13.1"),
]


@pytest.mark.parametrize("code, make, move, rule", CASES, ids=[f"{c[0]}:{c[2]}" for c in CASES])
def test_illegal_action_is_rejected_with_its_code_and_rule(
    code: str, make: Callable[[], GameState], move: str, rule: str
) -> None:
    state = make()
    before = state.to_json()
    action = Action.parse(move)
    assert action not in legal_actions(state)
    with pytest.raises(IllegalActionError) as info:
        apply(state, action)
    error = info.value
    assert isinstance(error, ValueError)
    assert error.code == code
    assert f"RULES.md {rule}" in str(error)
    assert str(error)[0].islower() or str(error)[0].isdigit() or str(error)[0] in "'"
    import json

    json.dumps(error.params)
    assert state.to_json() == before


def test_every_error_code_is_exercised() -> None:
    # not_an_action has its own test below; every other listed code has a case here.
    codes = {c[0] for c in CASES}
    assert codes | {"not_an_action"} == set(ERROR_CODES)
    assert len(ERROR_CODES) == len(set(ERROR_CODES)) == 25


def test_an_unlisted_code_cannot_be_raised() -> None:
    with pytest.raises(ValueError, match="add it to ERROR_CODES"):
        IllegalActionError("made_up", "no such refusal")


def test_a_non_action_is_rejected() -> None:
    state = base()
    with pytest.raises(IllegalActionError) as info:
        apply(state, "tile red a2")  # type: ignore[arg-type]
    assert info.value.code == "not_an_action"


def test_the_scenario_positions_accept_their_legal_answers() -> None:
    # Guards the fixtures above: each pending decision has the answers we expect.
    assert [str(a) for a in legal_actions(revolt())] == ["commit 0", "commit 1"]
    assert [str(a) for a in legal_actions(war_order())] == ["war red", "war black"]
    assert [str(a) for a in legal_actions(monument())] == [
        "monument red-black j2",
        "monument red-blue j2",
        "monument red-green j2",
        "decline monument",
    ]
    assert [str(a) for a in legal_actions(treasure())] == ["treasure f10", "treasure k11"]
