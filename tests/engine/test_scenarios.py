"""Engine scenarios for treasures, game end, refills and ranking (RULES.md §9, §12, §13)."""

from __future__ import annotations

from engine import final_ranking, legal_actions

from .engine_helpers import play, position

ALL_TREASURE_HEADERS = "players: 2\nhand 1: r r k k g g\nhand 2: r r k k g g"


def test_trader_owner_chooses_a_treasure_on_another_players_turn() -> None:
    # Seat 2's trader rules f10's kingdom; seat 1's temple joins k11's region to it (RULES.md §9).
    cells = {"f11": "2T", "g10": "r", "h10": "r", "i10": "r", "j10": "r", "k10": "."}
    state = play(position(ALL_TREASURE_HEADERS, cells), "tile red k10")
    assert (state.active_seat, state.to_act) == (1, 2)
    assert state.pending is not None and state.pending.kind == "treasure"
    assert state.pending.options == ("f10", "k11") and state.pending.count == 1
    state = play(state, "treasure k11")
    assert state.treasures_held == (0, 1) and state.to_act == 1 and state.actions_left == 1
    assert [e.code for e in state.events] == ["treasure_taken"]


def test_special_treasures_are_taken_first_without_asking() -> None:
    # The farm on e2 joins seat 1's trader kingdom (b2, special) to f3's region: b2 is forced.
    cells = {"c2": "r", "d2": "r", "c3": "1T", "f2": "g"}
    headers = "players: 2\nhand 1: r r k k g b"
    joined = play(position(headers, cells), "tile blue e2")
    assert joined.pending is None and joined.to_act == 1
    assert joined.treasures_held == (1, 0)
    taken = [e.params for e in joined.events if e.code == "treasure_taken"]
    assert taken == [{"seat": 1, "square": "b2", "special": True}]


def test_a_swap_the_bag_cannot_supply_ends_the_game_at_once() -> None:
    state = position("players: 2\nhand 1: r r k\nbag: r 1")
    after = play(state, "swap red red")
    assert after.is_over and after.end_reason == "bag" and after.to_act is None
    assert legal_actions(after) == ()
    assert after.hands[0] == (0, 1, 0, 0) and len(after.bag) == 1  # nothing drawn


def test_refills_go_active_first_then_around_and_a_short_bag_ends_the_game() -> None:
    # Seat 2 is active; seats 2 and 3 get the last two tiles, seat 1 cannot refill (RULES.md §12).
    headers = (
        "players: 3\nactive: 2\nhand 1: r r r r r\nhand 2: k k k k k k\nhand 3: g g g g g\nbag: b 2"
    )
    state = play(position(headers), "tile black a2", "pass")
    assert state.is_over and state.end_reason == "bag"
    assert [sum(h) for h in state.hands] == [5, 6, 6]


def test_treasure_end_comes_at_the_end_of_the_turn() -> None:
    # Only k1, b2, f3 keep treasures (7 held); seat 1's trader takes one of b2/f3 -> two remain.
    cells = {
        "p2": "r",
        "n5": "r",
        "i7": "r",
        "b8": "r",
        "o9": "r",
        "f10": "r",
        "k11": "r",
        "c2": "r",
        "d2": "r",
        "e2": "~",
        "f2": "g",
        "c3": "1T",
    }
    headers = "players: 2\nhand 1: b\nvp 2: red 0 treasures 7"
    state = play(position(headers, cells), "tile blue e2")
    assert len(state.treasures) == 2 and not state.is_over and state.actions_left == 1
    state = play(state, "pass")
    assert state.is_over and state.end_reason == "treasures"


def test_final_ranking_adds_treasures_to_the_lowest_and_breaks_ties_three_levels_deep() -> None:
    headers = (
        "players: 4\nover: bag\n"
        "vp 1: red 5 black 5 blue 5 green 3 treasures 2\n"  # 5 5 5 5
        "vp 2: red 5 black 6 blue 5 green 9 treasures 0\n"  # 5 5 6 9
        "vp 3: red 5 black 6 blue 5 green 8 treasures 0\n"  # 5 5 6 8
        "vp 4: red 9 black 5 blue 6 green 5 treasures 0"  # 5 5 6 9
    )
    ranking = final_ranking(position(headers))
    assert [(p.seat, p.rank) for p in ranking] == [(2, 1), (4, 1), (3, 3), (1, 4)]
    assert ranking[-1].colors == (5, 5, 5, 5) and ranking[0].score == 5


def test_final_ranking_treasure_goes_to_the_currently_lowest_colour() -> None:
    state = position("players: 2\nvp 1: red 2 black 0 blue 1 green 4 treasures 3")
    first = next(p for p in final_ranking(state) if p.seat == 1)
    assert first.colors == (2, 2, 2, 4)


def test_a_committed_defender_refills_only_at_the_end_of_the_turn() -> None:
    # Revolt: seat 1's king joins seat 2's king; seat 2 commits a red and waits to refill.
    cells = {"i5": "r", "j5": "2K"}
    state = position("players: 2\nhand 1: k k k k k k\nhand 2: r r r r r r", cells)
    state = play(state, "leader king i6", "commit 0", "commit 2")
    assert state.hands[1] == (4, 0, 0, 0) and state.actions_left == 1
    state = play(state, "pass")
    assert sum(state.hands[1]) == 6 and state.active_seat == 2
