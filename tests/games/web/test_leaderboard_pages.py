"""The leaderboard in keyset pages (issue 31): none skipped or repeated, forged cursors refused."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from games.accounts import profiles
from games.models import Profile
from games.play import ratings
from games.selectors.profiles import BadCursor, leaders_page
from tests.games.factories import UserFactory

pytestmark = pytest.mark.django_db


def _ranked(mu: float, *, games: int = 10) -> Any:
    user = UserFactory()
    profiles.profile_get(user)
    Profile.objects.filter(user=user).update(
        rating_mu=mu, rating_sigma=2.0, rated_games=games, last_active_at=timezone.now()
    )
    return user


def test_pages_run_best_first_and_neither_skip_nor_repeat_under_inserts() -> None:
    users = [_ranked(10.0 + i) for i in range(7)]
    tied = [_ranked(30.0), _ranked(30.0)]  # a tie across a page boundary keeps both
    seen: list[int] = []
    page = leaders_page(size=3)
    while True:
        seen += [row.user_id for row in page.rows]
        # players rated above and below the cursor arrive between two pages
        _ranked(99.0)
        _ranked(-99.0 - len(seen))
        if page.next_cursor is None:
            break
        page = leaders_page(cursor=page.next_cursor, size=3)
    original = {u.pk for u in [*users, *tied]}
    kept = [pk for pk in seen if pk in original]
    assert sorted(kept) == sorted(original)  # every player once
    assert len(seen) == len(set(seen))  # nobody twice
    assert kept[:2] == sorted((u.pk for u in tied), reverse=True)
    assert kept[2:] == [u.pk for u in reversed(users)]


def test_ranks_count_on_across_pages_and_provisional_players_are_left_out() -> None:
    for i in range(5):
        _ranked(10.0 + i)
    _ranked(50.0, games=ratings.PROVISIONAL_GAMES - 1)
    first = leaders_page(size=2)
    second = leaders_page(cursor=first.next_cursor, size=2)
    third = leaders_page(cursor=second.next_cursor, size=2)
    assert [r.rank for r in first.rows + second.rows + third.rows] == [1, 2, 3, 4, 5]
    assert third.next_cursor is None
    assert all(r.rated_games >= ratings.PROVISIONAL_GAMES for r in first.rows)


def test_a_forged_cursor_is_refused_with_a_message_and_the_top_of_the_board() -> None:
    _ranked(20.0)
    with pytest.raises(BadCursor):
        leaders_page(cursor="WzEuMCwgMSwgNTBd:forged")
    answer = Client().get("/leaderboard", {"after": "WzEuMCwgMSwgNTBd:forged"})
    assert answer.status_code == 400
    assert b"That page of the leaderboard does not exist" in answer.content
    assert answer.context["rows"][0]["rank"] == 1


def test_the_page_links_the_next_players_and_shows_them() -> None:
    users = [_ranked(float(i)) for i in range(55)]
    top = Client().get("/leaderboard")
    assert len(top.context["rows"]) == 50
    cursor = top.context["next_cursor"]
    assert cursor and f"?after={cursor}".encode() in top.content.replace(b"%3A", b":")
    rest = Client().get("/leaderboard", {"after": cursor})
    assert [r["user_id"] for r in rest.context["rows"]] == [u.pk for u in reversed(users[:5])]
    assert [r["rank"] for r in rest.context["rows"]] == [51, 52, 53, 54, 55]
