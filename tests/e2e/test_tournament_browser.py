"""Two accounts register for a tournament, play round 1, see the standings and round 2 (issue 30).

In each language: both register through the event's page, the creator starts it, the
player to act opens round 1's game from the event's page and places a tile with the mouse;
then the game reaches the event's maximum duration and the sweep ends it as the position
stands (``game_end_at_limit``, what ``sweep_tournaments`` does), which starts round 2.
Both pages then show the standings and round 2's game.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from games.accounts.profiles import profile_get
from games.models import Game, Tournament
from games.play import limits
from games.tournaments import services
from tests.e2e.test_browser import (  # noqa: F401
    DESKTOP,
    PASSWORD,
    _with_password,
    enforced_csp,
)
from tests.games.factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

WORDS = {
    "en": {"standings": "Standings", "round2": "Round 2", "registered": "You are registered."},
    "zh-hans": {"standings": "排名", "round2": "第 2 轮", "registered": "你已报名。"},
}


def _log_in(browser: Any, base_url: str, user: Any, next_path: str) -> tuple[Any, Any]:
    context = browser.new_context(viewport=DESKTOP)
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.goto(f"{base_url}/accounts/login/?next={next_path}")
    page.fill("input[name=login]", user.username)
    page.fill("input[name=password]", PASSWORD)
    page.click("form[action='/accounts/login/'] button[type=submit]")
    page.wait_for_url(f"**{next_path}")
    return context, page


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_register_play_round_one_and_see_the_standings_and_round_two(
    language: str, browser: Any, live_server: Any, screenshots: Path
) -> None:
    words = WORDS[language]
    creator = UserFactory()
    tournament = services.tournament_create(
        creator=creator,
        settings=services.TournamentSettings(name="Babylon Open", rounds=2, is_rated=False),
    )
    players = [_with_password(UserFactory()) for _ in range(2)]
    for user in players:
        profile = profile_get(user)
        profile.language = language
        profile.save(update_fields=["language"])
    path = f"/tournaments/{tournament.pk}/"
    sessions = [_log_in(browser, live_server.url, user, path) for user in players]
    try:
        for _context, page in sessions:
            page.click("#tournament-register")
            page.wait_for_selector(f"text={words['registered']}")
        assert tournament.players.count() == 2
        services.tournament_start(tournament_id=tournament.pk, user=creator)
        game = Game.objects.get(tournament_table__round__tournament=tournament)
        to_act = game.seats.get(position=game.to_act_seat).user_id
        _context, page = sessions[[u.pk for u in players].index(to_act)]
        page.goto(f"{live_server.url}{path}")
        page.click(f"#round-1 + ul a[href='/games/{game.pk}/']")
        page.wait_for_selector("#game[data-version]")
        _place_any_tile(page)
        limits.game_end_at_limit(game_id=game.pk)  # the maximum duration, as the sweep ends it
        tournament.refresh_from_db()
        assert tournament.current_round == 2
        for _context, page in sessions:
            page.goto(f"{live_server.url}{path}")
            assert words["standings"] in (page.text_content("#tournament h2") or "")
            assert page.locator("#standings tbody tr").count() == 2
            assert words["round2"] in (page.text_content("#round-2") or "")
            (game2,) = Game.objects.filter(
                tournament_table__round__tournament=tournament, tournament_table__round__number=2
            )
            assert page.locator(f"#round-2 + ul a[href='/games/{game2.pk}/']").count() == 1
        sessions[0][1].screenshot(
            path=str(screenshots / f"tournament-{language}.png"), full_page=True, caret="initial"
        )
        assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.RUNNING
    finally:
        for context, _page in sessions:
            context.close()


def _place_any_tile(page: Any) -> None:
    """Place the first tile on the first highlighted square and confirm (any language)."""
    before = int(page.get_attribute("#game", "data-version"))
    page.locator("#hand .tiles button.pick").first.click()
    target = page.locator("#board .sq.target").first
    target.wait_for(state="visible")
    target.click()
    page.locator("#confirm").wait_for(state="visible")
    page.click("#confirm-ok")
    page.wait_for_selector(f"#game[data-version='{before + 1}']")
