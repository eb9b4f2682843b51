"""Game-log sentences read as English: one tile, two tiles."""

from __future__ import annotations

import pytest

from games.text.gamelog import sentence
from games.text.seats import SeatInfo

SEATS = {1: SeatInfo(1, "ann", "archer"), 2: SeatInfo(2, "bo", "bull")}


@pytest.mark.parametrize(
    ("event", "expected"),
    [
        ({"code": "tiles_swapped", "params": {"seat": 1, "count": 1}}, "swapped 1 tile."),
        ({"code": "tiles_swapped", "params": {"seat": 1, "count": 3}}, "swapped 3 tiles."),
        (
            {"code": "support_committed", "params": {"seat": 2, "count": 0, "color": "red"}},
            "committed 0 red tiles.",
        ),
        (
            {"code": "support_committed", "params": {"seat": 2, "count": 1, "color": "red"}},
            "committed 1 red tile.",
        ),
        (
            {"code": "tiles_removed", "params": {"count": 1, "color": "red", "squares": ["g4"]}},
            "1 red tile removed (g4).",
        ),
        (
            {
                "code": "tiles_removed",
                "params": {"count": 2, "color": "black", "squares": ["d5", "e5"]},
            },
            "2 black tiles removed (d5, e5).",
        ),
    ],
)
def test_counts_agree_with_their_nouns(event: dict[str, object], expected: str) -> None:
    text = sentence(event, SEATS)
    assert text is not None and text.endswith(expected)


def test_a_conflict_result_reads_like_a_score_winner_first() -> None:
    event = {
        "code": "conflict_resolved",
        "params": {
            "kind": "war",
            "color": "black",
            "winner": 2,
            "loser": 1,
            "attacker_strength": 2,
            "defender_strength": 3,
        },
    }
    text = sentence(event, SEATS)
    assert text is not None and "3–2" in text and "2–3" not in text


def test_monument_points_say_where_they_came_from() -> None:
    def vp(reason: str) -> str:
        params = {"seat": 2, "color": "blue", "amount": 1, "reason": reason}
        return str(sentence({"code": "vp_scored", "params": params}, SEATS))

    assert vp("monument").endswith("1 blue VP to Seat 2 (bo, Bull) from a monument.")
    assert vp("tile").endswith("1 blue VP to Seat 2 (bo, Bull).")
