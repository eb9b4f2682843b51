"""The tournament and league creation forms report every error at once, beside its field.

A newcomer's report: an unknown invited name and the playing hours' minimum came only
after the other fields' errors were fixed, the hours as a banner over the form. Each
error now stands in its field's row (``.field`` holds the label, the input and its
error), in the reader's language, and nothing is created.
"""

from __future__ import annotations

import re

import pytest

from games.accounts.bots import bot_account
from games.models import League, Profile, Tournament
from games.selectors.people import people_named
from tests.games.factories import UserFactory, client_for
from tests.games.tournaments.helpers import creation_form, league_form

pytestmark = pytest.mark.django_db

FIELD_ROW = re.compile(r'<div class="field">(.*?)</div>', re.S)


def _errors_beside(content: bytes) -> dict[str, str]:
    """Return each form row's error text by its input's name (rows with an error only)."""
    found = {}
    for row in FIELD_ROW.findall(content.decode()):
        name = re.search(r'name="([a-z_]+)"', row)
        error = re.search(r'<span class="alert error" role="alert">(.*?)</span>', row, re.S)
        if name and error:
            found[name.group(1)] = error.group(1)
    return found


def _refused(path: str, data: dict[str, str], language: str = "en") -> dict[str, str]:
    """Post ``data`` to ``path`` as a new player reading ``language``; return the errors
    beside each field, after checking the form came back (400), with no banner over it."""
    user = UserFactory()
    Profile.objects.update_or_create(user=user, defaults={"language": language})
    response = client_for(user).post(path, data)
    assert response.status_code == 400
    assert '<p class="alert error"' not in response.content.decode()  # the form's banner
    return _errors_beside(response.content)


def test_field_errors_unknown_names_and_short_playing_hours_come_together() -> None:
    UserFactory(username="ann")
    errors = _refused(
        "/tournaments/new",
        creation_form(
            rounds="",  # a field error
            access="invite",
            invited="ann, Nobody Here",
            playing_start="09:00",
            playing_end="10:00",
            playing_zone="Europe/Paris",
        ),
    )
    assert set(errors) == {"rounds", "invited", "playing_end"}
    assert "required" in errors["rounds"]
    assert errors["invited"] == "No player is called Nobody Here."
    assert "2 hours a day at least" in errors["playing_end"]
    assert not Tournament.objects.exists()


def test_the_services_checks_stand_beside_their_fields_all_at_once() -> None:
    settings = {"max_players": "4", "start_when_full": "6", "min_rating": "1500"}
    errors = _refused(
        "/tournaments/new",
        creation_form(**settings, max_rating="1200", bots_fill_seats="on", is_rated="on"),
    )
    assert set(errors) == {"start_when_full", "max_rating", "bots_fill_seats"}
    assert "between the smallest table and the most players" in errors["start_when_full"]
    assert not Tournament.objects.exists()


def test_the_errors_are_in_the_readers_language() -> None:
    bot = bot_account("easy")
    errors = _refused(
        "/tournaments/new",
        creation_form(
            name="",
            access="invite",
            invited=f"Nobody Here, {bot.username}",
            playing_start="09:00",
            playing_end="09:30",
        ),
        "zh-hans",
    )
    assert set(errors) == {"name", "invited", "playing_end"}
    for text in errors.values():
        assert re.search(r"[\u4e00-\u9fff]", text), text
        assert "player" not in text and "hours" not in text and "bots" not in text
    assert "Nobody Here" in errors["invited"] and bot.username in errors["invited"]
    assert not Tournament.objects.exists()


def test_the_league_form_names_unknown_players_beside_the_field_with_the_others() -> None:
    errors = _refused("/leagues/new", league_form(name="", access="invite", invited="Nobody Here"))
    assert set(errors) == {"name", "invited"}
    assert errors["invited"] == "No player is called Nobody Here."
    assert not League.objects.exists()


def test_the_league_services_checks_stand_beside_their_fields_all_at_once() -> None:
    UserFactory(username="ann")
    errors = _refused("/leagues/new", league_form(bots_fill_seats="on", invited="ann"))
    assert set(errors) == {"bots_fill_seats", "invited"}
    assert "unrated league" in errors["bots_fill_seats"]
    assert "Only a league for invited players has invited players." in errors["invited"]
    assert not League.objects.exists()


def test_names_are_found_as_the_site_shows_them_or_by_username() -> None:
    li = UserFactory(username="liwei88")
    Profile.objects.update_or_create(user=li, defaults={"display_name": "Li Wei"})
    ann = UserFactory(username="ann")
    gone = UserFactory(username="gone", is_active=False)
    bot = bot_account("medium")
    found = people_named(["li wei", "ANN", " ", "Li Wei", gone.username, bot.username, "zed"])
    assert found.ids == (li.pk, ann.pk)  # in order, once each; blank skipped
    assert found.unknown == ("gone", "zed")  # an inactive account is nobody
    assert found.bots == (bot.username,)
    assert people_named([]).ids == ()
