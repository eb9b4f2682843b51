"""Display names (issue 20, items 1 and 2): what a name may hold, look-alikes, the database.

A name goes into other players' pages and email subjects, so separators that break a header
are refused (test_email_headers.py: an email never fails for a name already stored). Look-alike and
invisible names are refused against the confusable skeleton of every other name, and the
database itself refuses a second profile with the same key, however two sign-ups race.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.messages.storage.fallback import FallbackStorage
from django.db import IntegrityError, transaction
from django.test import Client, RequestFactory

from games.accounts import profiles
from games.models import Profile
from games.text.seats import display_name
from games.web.forms_accounts import SignupForm
from tests.games.factories import client_for, settings_form_data

pytestmark = pytest.mark.django_db

PASSWORD = "tigris-and-euphrates-2026"
TAKEN = "Tess One"
LOOK_ALIKES = [
    "Tess  One",  # two spaces
    "Tess\u00a0One",  # no-break space
    "Tess\u2003One",  # em space
    "\u0422\u0435ss One",  # Cyrillic Т and е
    "\uff34\uff45\uff53\uff53 \uff2f\uff4e\uff45",  # full-width
    "tess 0ne",  # lower case, a zero for the O
    " TESS ONE ",
]
SEPARATORS = ["Tess\u2028One", "Tess\u2029One", "Tess\u0085One", "Tess\u200bOne"]
INVISIBLE = [
    "\u3164",
    "\u2800",
    "\u3164\u3164",
    "\u115f",
    "Tess\u3164One",
    "...",
    "\u2800 \u2800",
    "Tess\u2800",  # blank braille beside letters (issue 28)
    "Tess \U0001d159One",  # a null notehead draws nothing (issue 28)
]


def _sign_up(display_name: str, email: str = "new@example.com") -> Any:
    return Client().post(
        "/accounts/signup/",
        {
            "email": email,
            "display_name": display_name,
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )


def _named(user_factory: Any, name: str) -> Any:
    user = user_factory()
    profiles.profile_update(
        user=user, display_name=name, language="en", time_zone="UTC", preferences={}
    )
    return user


@pytest.mark.parametrize("name", SEPARATORS)
def test_a_name_with_a_separator_or_control_character_is_refused(
    name: str, user_factory: Any
) -> None:
    response = _sign_up(name)
    assert response.status_code == 200
    assert "spaces other than the plain space" in response.content.decode()
    assert not get_user_model().objects.filter(email="new@example.com").exists()
    user = _named(user_factory, "Old Name")
    client = client_for(user)
    refused = client.post("/settings", {**settings_form_data(client), "display_name": name})
    assert "spaces other than the plain space" in refused.content.decode()
    assert Profile.objects.get(user=user).display_name == "Old Name"


@pytest.mark.parametrize("name", INVISIBLE)
def test_a_name_with_no_visible_letter_or_an_invisible_character_is_refused(name: str) -> None:
    response = _sign_up(name)
    assert response.status_code == 200
    text = response.content.decode()
    assert (
        "needs at least one visible letter or digit" in text
        or "cannot contain invisible characters" in text
        or "This field is required." in text  # nothing left once stripped
    ), text
    assert not get_user_model().objects.filter(email="new@example.com").exists()


def test_a_name_stacking_many_marks_on_a_letter_is_refused_and_real_scripts_pass() -> None:
    response = _sign_up("Z" + "\u0301\u0300\u0302\u0303\u0304\u0306\u0307\u0308\u030a\u030b\u030c")
    assert "cannot stack more than 4 marks on one letter" in response.content.decode()
    assert not get_user_model().objects.filter(email="new@example.com").exists()
    for n, name in enumerate(("Nguyễn Thị Ánh", "กิ่งแก้ว", "क्षत्रिय", "Zoë 测试")):
        assert _sign_up(name, email=f"ok{n}@example.com").status_code == 302, name


@pytest.mark.parametrize("name", LOOK_ALIKES)
def test_a_look_alike_of_another_players_name_is_refused(name: str, user_factory: Any) -> None:
    _named(user_factory, TAKEN)
    response = _sign_up(name)
    assert response.status_code == 200
    assert "Another player already uses this display name." in response.content.decode()
    assert not get_user_model().objects.filter(email="new@example.com").exists()
    other = _named(user_factory, "Someone Else")
    client = client_for(other)
    refused = client.post("/settings", {**settings_form_data(client), "display_name": name})
    assert "Another player already uses this display name." in refused.content.decode()
    assert Profile.objects.get(user=other).display_name == "Someone Else"


def test_a_name_is_kept_normalised_and_distinct_names_pass(user_factory: Any) -> None:
    _named(user_factory, TAKEN)
    assert _sign_up("\uff34\uff45\uff53\uff53  \uff34\uff57\uff4f").status_code == 302
    user = get_user_model().objects.get(email="new@example.com")
    assert Profile.objects.get(user=user).display_name == "Tess Two"
    assert _sign_up("李雷", email="li@example.com").status_code == 302
    # One's own name, even re-typed as a look-alike, is not "taken" by oneself.
    owner = Profile.objects.get(display_name=TAKEN).user
    client = client_for(owner)
    kept = client.post("/settings", {**settings_form_data(client), "display_name": "Tess  One"})
    assert kept.status_code == 302
    assert Profile.objects.get(user=owner).display_name == TAKEN


def test_the_database_refuses_a_second_profile_with_a_look_alike_name(
    user_factory: Any,
) -> None:
    _named(user_factory, TAKEN)
    for name in LOOK_ALIKES:
        with pytest.raises(IntegrityError), transaction.atomic():
            Profile.objects.create(user=user_factory(), display_name=name)
    # Empty names (the username shows) claim nothing.
    Profile.objects.create(user=user_factory(), display_name="")
    Profile.objects.create(user=user_factory(), display_name="")


def _validated_signup(name: str) -> SignupForm:
    form = SignupForm({"display_name": name})
    assert form.is_valid(), form.errors
    return form


def test_two_racing_sign_ups_with_look_alike_names_collide_in_the_database(
    user_factory: Any,
) -> None:
    """Both forms pass their check before either saves: the database keeps one name."""
    first, second = _validated_signup(TAKEN), _validated_signup("\u0422\u0435ss One")
    request = RequestFactory().post("/accounts/signup/")
    request.session = {}  # type: ignore[attr-defined]
    request._messages = FallbackStorage(request)  # type: ignore[attr-defined]
    winner, loser = user_factory(), user_factory()
    first.signup(request, winner)
    second.signup(request, loser)  # no 500: the account stands, with a numbered name
    assert Profile.objects.get(user=winner).display_name == TAKEN
    assert Profile.objects.get(user=loser).display_name == "\u0422\u0435ss One 2"
    assert display_name(loser) != loser.username  # never the email's local part (issue 28)
    shown = [str(m) for m in request._messages]  # type: ignore[attr-defined]
    assert any("choose another in your settings" in m for m in shown), shown
    # six sign-ups with one name at once: six names, none empty (issue 28, finding 5)
    racers = [_validated_signup("Same Name") for _ in range(6)]
    accounts = [user_factory() for _ in racers]
    for form, account in zip(racers, accounts, strict=True):
        form.signup(request, account)
    shown_names = [Profile.objects.get(user=a).display_name for a in accounts]
    assert shown_names == ["Same Name", *(f"Same Name {n}" for n in range(2, 7))]


def test_a_settings_race_for_a_look_alike_name_answers_with_the_form(
    user_factory: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check passed, then another player saved the look-alike first: a message, no 500."""
    user = _named(user_factory, "Old Name")
    client = client_for(user)
    data = {**settings_form_data(client), "display_name": TAKEN}
    from games.web import forms_accounts

    monkeypatch.setattr(forms_accounts, "unique_display_name", lambda name, **kw: name)
    _named(user_factory, "\u0422\u0435ss One")  # saved after the (skipped) check
    response = client.post("/settings", data)
    assert response.status_code == 200
    assert "Another player already uses this display name." in response.content.decode()
    assert Profile.objects.get(user=user).display_name == "Old Name"


def test_the_data_migration_keys_existing_names_and_renames_later_look_alikes() -> None:
    """Rows from before the key: the oldest keeps its name, a later look-alike is told apart.

    The migration's own function (0006's ``fill_keys``) runs with the historical models
    ``migrate`` gives it (the project as of 0005) over profiles as they stood before it —
    look-alike names side by side, every key empty — in today's schema, whose unique key
    (0007) refuses any key written twice. (Migrating the database back to 0005 and forward
    again cost 16–18 s a suite; each suite runs every migration forward as it creates its
    test database.)
    """
    from importlib import import_module

    from django.db import connection
    from django.db.migrations.loader import MigrationLoader

    fill = import_module("games.migrations.0006_profile_name_key_fill")
    before = ("games", "0005_profile_name_key")
    assert fill.Migration.dependencies == [before]
    old = MigrationLoader(connection).project_state(before).apps
    names = [TAKEN, "\u0422\u0435ss One", "Tess  One", "Ana", "", ""]
    made = []
    for n in range(len(names)):
        user = get_user_model().objects.create(username=f"old{n}", email=f"old{n}@example.com")
        made.append(profiles.profile_get(user).pk)
    # As before the key: the names written over the checks, no key kept.
    for pk, name in zip(made, names, strict=True):
        Profile.objects.filter(pk=pk).update(display_name=name, name_key="")
    fill.fill_keys(old, None)  # RunPython's schema editor, which it does not use
    rows = {p.pk: p for p in Profile.objects.filter(pk__in=made)}
    first, cyrillic, spaced, ana, empty1, empty2 = (rows[pk] for pk in made)
    assert (first.display_name, first.name_key) == (TAKEN, "tess one")
    assert cyrillic.display_name == f"\u0422\u0435ss One #{cyrillic.user_id}"
    assert spaced.display_name == f"Tess  One #{spaced.user_id}"
    assert len({first.name_key, cyrillic.name_key, spaced.name_key}) == 3
    assert ana.name_key == "ana"
    assert empty1.name_key == "" and empty2.name_key == ""
