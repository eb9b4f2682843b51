"""Standings and tie-breaks against hand-computed examples (issue 30)."""

from __future__ import annotations

from games.tournaments.standings import Result, TableResult, place_points, standings


def test_a_swiss_of_four_over_two_rounds_of_two_player_tables() -> None:
    # round 1: 1 beats 2 (score 9–5), 3 beats 4 (7–6); round 2: 1 beats 3 (8–4), 4 beats 2 (6–3)
    tables = [
        TableResult(1, (Result(1, 2, 9, 1), Result(2, 0, 5, 2))),
        TableResult(1, (Result(3, 2, 7, 1), Result(4, 0, 6, 2))),
        TableResult(2, (Result(1, 2, 8, 1), Result(3, 0, 4, 2))),
        TableResult(2, (Result(4, 2, 6, 1), Result(2, 0, 3, 2))),
    ]
    rows = standings([1, 2, 3, 4], tables)
    # points: 1→4, 3→2, 4→2, 2→0. Buchholz: 1: pts(2)+pts(3)=0+2=2; 3: pts(4)+pts(1)=2+4=6;
    # 4: pts(3)+pts(2)=2+0=2; 2: pts(1)+pts(4)=4+2=6. So 3 (Buchholz 6) before 4 (2).
    assert [(r.rank, r.player, r.points, r.buchholz) for r in rows] == [
        (1, 1, 4, 2),
        (2, 3, 2, 6),
        (3, 4, 2, 2),
        (4, 2, 0, 6),
    ]
    assert [r.game_points for r in rows] == [17, 11, 12, 8]


def test_game_points_break_an_equal_buchholz_and_byes_count_no_opponent() -> None:
    # a table of 3 (6/4/2… here points 4, 2, 0) and a bye worth 2
    tables = [
        TableResult(1, (Result(1, 4, 10, 1), Result(2, 2, 8, 2), Result(3, 0, 2, 3))),
        TableResult(1, (Result(4, 2),), bye=True),
    ]
    rows = standings([1, 2, 3, 4], tables)
    # 2 and 4 both have 2 points; Buchholz of 2 = 4 + 0 = 4, of 4 = 0 (a bye has none)
    assert [(r.player, r.points, r.buchholz, r.byes, r.played) for r in rows] == [
        (1, 4, 2, 0, 1),
        (2, 2, 4, 0, 1),
        (4, 2, 0, 1, 0),
        (3, 0, 6, 0, 1),
    ]


def test_players_equal_in_every_tie_break_share_the_rank_and_keep_seed_order() -> None:
    tables = [
        TableResult(1, (Result(1, 1, 5), Result(2, 1, 5))),  # a shared first place
    ]
    rows = standings([2, 1, 3], tables)
    assert [(r.rank, r.player) for r in rows] == [(1, 2), (1, 1), (3, 3)]


def test_place_points_past_the_list_score_the_last_value() -> None:
    assert place_points([6, 4, 2, 0], 2) == 4
    assert place_points([2, 0], 3) == 0
