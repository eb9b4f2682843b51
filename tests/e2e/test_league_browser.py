"""A player joins a league's season in the browser and sees their division (issue 30).

In each language: the player opens the league's page, joins the season, the season's
start comes (the sweep, by time travel in the test process) and the page shows the
division with the player's line, at desktop and phone width (screenshots).
"""

from __future__ import annotations

from datetime import time, timedelta
from pathlib import Path
from typing import Any

import pytest
import time_machine

from games.accounts.profiles import profile_get
from games.models import LeagueSeason
from games.tournaments import leagues, sweeps
from tests.e2e.test_browser import (  # noqa: F401
    DESKTOP,
    PASSWORD,
    PHONE,
    _with_password,
    enforced_csp,
)
from tests.games.factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

WORDS = {
    "en": {"joined": "You have joined the next season.", "division": "Division 1"},
    "zh-hans": {"joined": "你已报名下个赛季。", "division": "第 1 级"},
}


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_join_a_season_and_see_the_division(
    language: str, browser: Any, live_server: Any, screenshots: Path
) -> None:
    words = WORDS[language]
    league = leagues.league_create(
        creator=UserFactory(),
        settings=leagues.LeagueSettings(
            name="Larsa League",
            division_size=4,
            is_rated=False,
            bank_days=3,
            playing_start=time(9),
            playing_end=time(21),
            playing_zone="Asia/Shanghai",
        ),
    )
    player = _with_password(UserFactory())
    profile = profile_get(player)
    profile.language = language
    profile.save(update_fields=["language"])
    path = f"/leagues/{league.pk}/"
    context = browser.new_context(viewport=DESKTOP)
    context.set_default_timeout(10_000)
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/accounts/login/?next={path}")
        page.fill("input[name=login]", player.username)
        page.fill("input[name=password]", PASSWORD)
        page.click("form[action='/accounts/login/'] button[type=submit]")
        page.wait_for_url(f"**{path}")
        page.click("#league-join")
        page.wait_for_selector(f"text={words['joined']}")
        assert page.locator("#league-leave").count() == 1
        for _ in range(3):
            leagues.league_opt_in(league_id=league.pk, user=UserFactory())
        season = LeagueSeason.objects.get(league=league)
        with time_machine.travel(season.starts_at + timedelta(minutes=1)):
            sweeps.tournaments_sweep()
        page.goto(f"{live_server.url}{path}")
        assert words["division"] in (page.text_content("#division-1") or "")
        assert page.locator(f"table.standings tr[data-player='{player.pk}']").count() == 1
        assert "09:00–21:00" in (page.text_content("#league-playing-hours") or "")
        page.screenshot(
            path=str(screenshots / f"league-{language}.png"), full_page=True, caret="initial"
        )
        page.set_viewport_size(PHONE)
        page.screenshot(
            path=str(screenshots / f"league-{language}-phone.png"), full_page=True, caret="initial"
        )
    finally:
        context.close()


MANAGE_WORDS = {
    "en": {"closed": "Joining is closed.", "saved": "The next season's settings are saved."},
    "zh-hans": {"closed": "已关闭加入。", "saved": "下一赛季的设置已保存。"},
}


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_the_creator_closes_joining_and_sets_the_next_season(
    language: str, browser: Any, live_server: Any, screenshots: Path
) -> None:
    words = MANAGE_WORDS[language]
    creator = _with_password(UserFactory())
    profile = profile_get(creator)
    profile.language = language
    profile.save(update_fields=["language"])
    league = leagues.league_create(
        creator=creator, settings=leagues.LeagueSettings(name="Kish League", division_size=6)
    )
    path = f"/leagues/{league.pk}/manage"
    context = browser.new_context(viewport=PHONE)
    context.set_default_timeout(10_000)
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/accounts/login/?next={path}")
        page.fill("input[name=login]", creator.username)
        page.fill("input[name=password]", PASSWORD)
        page.click("form[action='/accounts/login/'] button[type=submit]")
        page.wait_for_url(f"**{path}")
        page.click("#league-close")
        page.wait_for_selector(f"text={words['closed']}")
        assert page.locator("#league-open").count() == 1
        # playing hours of one hour a day: refused beside the field, nothing saved
        page.fill("input[name=playing_start]", "09:00")
        page.fill("input[name=playing_end]", "10:00")
        page.click("#league-settings-form button[type=submit]")
        error = page.locator("input[name=playing_end] ~ .alert.error")
        error.wait_for()
        assert error.text_content()
        page.screenshot(
            path=str(screenshots / f"league-manage-hours-refused-{language}-phone.png"),
            full_page=True,
            caret="initial",
        )
        page.fill("input[name=playing_end]", "21:00")
        page.fill("input[name=division_size]", "4")
        page.click("#league-settings-form button[type=submit]")
        page.wait_for_selector(f"text={words['saved']}")
        page.screenshot(
            path=str(screenshots / f"league-manage-{language}-phone.png"),
            full_page=True,
            caret="initial",
        )
    finally:
        context.close()
    league.refresh_from_db()
    assert not league.registration_open and league.division_size == 4
