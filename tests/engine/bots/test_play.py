"""Every tier plays games to the end with only legal actions, 2–4 players (issue 14)."""

from __future__ import annotations

import pytest

from engine import final_ranking

from .bot_helpers import play_out, random_positions

# Games per tier, and how near the end they start (a bag of fewer tiles than this): the
# slower tiers play fewer and later games so that the suite stays fast (`make test` within
# its 15 minutes); each count is a multiple of 3, as many games of 2, 3 and 4 players. The
# larger counts this test once played (100, 60, 40, 30) are bench/engine_soak.py's, and
# hundreds of whole games per tier bench/bot_sanity.py's.
LATE = {"random": 0, "easy": 30, "medium": 7, "hard": 7}
GAMES = {"random": 30, "easy": 15, "medium": 12, "hard": 9}


@pytest.mark.parametrize("tier", ["random", "easy", "medium", "hard"])
def test_tier_plays_random_positions_to_the_end(tier: str) -> None:
    played = 0
    players = set()
    for seen in random_positions(GAMES[tier], seed=len(tier), late=LATE[tier]):
        n = seen.state.num_players
        players.add(n)
        final, _ = play_out(seen, {s: tier for s in range(1, n + 1)})
        assert final.is_over
        assert len(final_ranking(final)) == n
        played += 1
    assert played == GAMES[tier]
    assert players == {2, 3, 4}


def test_mixed_table_plays_a_whole_game() -> None:
    from engine import new_game

    from .bot_helpers import Seen

    seen = Seen(new_game(4, 5), {s: [] for s in range(1, 5)})
    final, plies = play_out(seen, {1: "hard", 2: "medium", 3: "easy", 4: "random"})
    assert final.is_over and plies > 20
