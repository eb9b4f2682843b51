"""The finished games' list (issue 32): filters, keyset pages, and only what a visitor may see."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone, translation

from games.models import Game, Profile
from games.templatetags import games_tags
from tests.games.factories import UserFactory, client_for, started_game

pytestmark = pytest.mark.django_db


def _finished(*, rated: bool = True, public: bool = True, days_ago: int = 0) -> tuple[Game, Any]:
    """A 2-player game marked finished (seat 1 first), without replaying it."""
    game, seats = started_game(2, is_rated=rated)
    game.is_public = public
    game.status = Game.Status.FINISHED
    game.finished_at = timezone.now() - timedelta(days=days_ago)
    game.save(update_fields=["is_public", "status", "finished_at"])
    for seat in game.seats.all():
        seat.final_rank = seat.position
        seat.final_score = {"score": 10 - (seat.position or 0), "colors": {}}
        seat.save(update_fields=["final_rank", "final_score"])
    return game, seats


def _listed(page: Any) -> list[int]:
    body = page.content.decode()
    return [int(n) for n in __import__("re").findall(r'<tr data-game="(\d+)">', body)]


def test_the_list_shows_public_finished_games_newest_first_and_hides_private_ones() -> None:
    old, _ = _finished(days_ago=3)
    new, _ = _finished(days_ago=1)
    private, private_seats = _finished(public=False)
    started_game(2)  # in progress: not listed
    assert _listed(Client().get("/games/finished")) == [new.pk, old.pk]
    assert _listed(client_for(UserFactory()).get("/games/finished")) == [new.pk, old.pk]
    # Its players see their private game; no one else learns it exists.
    assert _listed(client_for(private_seats[1]).get("/games/finished")) == [
        private.pk,
        new.pk,
        old.pk,
    ]


def test_the_filters_player_result_date_and_rated() -> None:
    won, seats = _finished(days_ago=5)
    unrated, _ = _finished(rated=False, days_ago=1)
    Profile.objects.update_or_create(user=seats[1], defaults={"display_name": "Ana of Ur"})
    client = Client()
    assert _listed(client.get("/games/finished", {"player": "ana of ur"})) == [won.pk]
    assert _listed(client.get("/games/finished", {"player": "Ana of Ur", "result": "won"})) == [
        won.pk
    ]
    assert _listed(client.get("/games/finished", {"player": "Ana of Ur", "result": "lost"})) == []
    assert _listed(
        client.get("/games/finished", {"player": seats[2].username, "result": "lost"})
    ) == [won.pk]
    assert _listed(client.get("/games/finished", {"rated": "no"})) == [unrated.pk]
    since = (timezone.now() - timedelta(days=2)).date().isoformat()
    assert _listed(client.get("/games/finished", {"since": since})) == [unrated.pk]
    until = (timezone.now() - timedelta(days=4)).date().isoformat()
    assert _listed(client.get("/games/finished", {"until": until})) == [won.pk]
    page = client.get("/games/finished", {"player": "Ana of Ur"}).content.decode()
    assert "1. Ana of Ur (9)" in page


def test_bad_filters_are_refused_with_a_message_and_list_nothing() -> None:
    _finished()
    bad = Client().get("/games/finished", {"since": "yesterday"})
    assert bad.status_code == 400 and _listed(bad) == []
    assert "Enter a valid date." in bad.content.decode()
    backwards = Client().get("/games/finished", {"since": "2026-05-02", "until": "2026-05-01"})
    assert backwards.status_code == 400
    assert "The last date comes before the first." in backwards.content.decode()


def test_pages_follow_by_keyset(monkeypatch: pytest.MonkeyPatch) -> None:
    from games.selectors import finished

    monkeypatch.setattr(finished, "FINISHED_PAGE", 2)
    monkeypatch.setattr(
        finished.games_finished,
        "__kwdefaults__",
        {**finished.games_finished.__kwdefaults__, "limit": 2},
    )
    games = [_finished(days_ago=n)[0] for n in range(5)]  # newest first: games[0]
    client = Client()
    seen: list[int] = []
    url = "/games/finished?rated=yes"
    for _page in range(4):
        page = client.get(url)
        seen += _listed(page)
        body = page.content.decode()
        if 'id="finished-next"' not in body:
            break
        url = "/games/finished" + __import__("html").unescape(
            body.split('id="finished-next"')[0].rsplit('href="', 1)[1].split('"')[0]
        )
    assert seen == [g.pk for g in games]


def test_the_finish_is_written_as_the_sites_event_dates_in_both_languages() -> None:
    game, _seats = _finished()
    game.finished_at = datetime(2026, 12, 10, 18, 0, tzinfo=UTC)
    game.save(update_fields=["finished_at"])
    english = Client().get("/games/finished").content.decode()
    assert (
        f'<time datetime="{game.finished_at.isoformat()}">10 Dec 2026, 18:00 UTC</time>' in english
    )
    assert "12/10/2026" not in english
    chinese = Client(headers={"accept-language": "zh-hans"}).get("/games/finished")
    assert ">2026年12月10日 18:00 UTC</time>" in chinese.content.decode()


def test_the_date_filters_follow_the_language_and_the_time_zone() -> None:
    when = datetime(2026, 12, 10, 23, 30, tzinfo=UTC)
    with timezone.override("Asia/Shanghai"):
        assert games_tags.event_time(when) == "11 Dec 2026, 07:30 CST"
        assert games_tags.event_day(when) == "11 Dec 2026"
        with translation.override("zh-hans"):
            assert games_tags.event_time(when) == "2026年12月11日 07:30 CST"
            assert games_tags.event_day(when) == "2026年12月11日"
    assert games_tags.event_time(None) == games_tags.event_day(None) == ""
