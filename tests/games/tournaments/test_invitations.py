"""Invitation-only tournaments (issue 30): the creator names the players who may register.

Each invited player is told through the outbox (their preference, their language, a push
row when the email goes out) and sees the event in their list; anyone else is refused with
a clear message and nothing changes.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.core import mail
from django.test import Client

from games.accounts import profiles
from games.accounts.bots import bot_account
from games.models import (
    Delivery,
    Notification,
    NotificationKind,
    Profile,
    Tournament,
    TournamentPlayer,
)
from games.text import names
from games.text.push import push_body
from games.tournaments import services, values
from tests.games.factories import UserFactory, client_for
from tests.games.reach import templates_reached
from tests.games.tournaments.helpers import creation_form

pytestmark = pytest.mark.django_db


def _invite_only(creator: Any, *invited: Any, **settings: Any) -> Tournament:
    return services.tournament_create(
        creator=creator,
        settings=services.TournamentSettings(
            name="Club Swiss",
            access=Tournament.Access.INVITE,
            invited=tuple(u.username for u in invited),
            **settings,
        ),
    )


def test_each_invited_player_is_told_once_in_their_language(
    django_capture_on_commit_callbacks: Any,
) -> None:
    creator, ann, bob, quiet = UserFactory(), UserFactory(), UserFactory(), UserFactory()
    Profile.objects.update_or_create(user=bob, defaults={"language": "zh-hans"})
    profiles.preference_set(user_id=quiet.pk, kind="tournament_invite", delivery=Delivery.OFF)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        # a username in another case finds the same player, and a name twice invites once
        tournament = services.tournament_create(
            creator=creator,
            settings=services.TournamentSettings(
                name="Club Swiss",
                access=Tournament.Access.INVITE,
                invited=(ann.username.upper(), bob.username, quiet.username, ann.username),
            ),
        )
    assert set(tournament.invited.values_list("pk", flat=True)) == {ann.pk, bob.pk, quiet.pk}
    rows = Notification.objects.filter(kind=NotificationKind.TOURNAMENT_INVITE)
    assert sorted(r.user_id for r in rows) == [ann.pk, bob.pk]  # quiet turned the kind off
    assert all(r.tournament_id == tournament.pk and r.game_id is None for r in rows)
    by_address = {m.to[0]: m for m in mail.outbox}
    assert set(by_address) == {ann.email, bob.email}
    english = by_address[ann.email]
    assert english.subject == f"{creator.username} invites you to the tournament Club Swiss"
    assert f"/tournaments/{tournament.pk}/" in english.body
    assert "open only to the players invited" in english.body
    chinese = by_address[bob.email]
    assert "Club Swiss" in chinese.subject and "invites" not in chinese.subject
    assert "invited" not in chinese.body
    assert push_body("tournament_invite") == "You are invited to a tournament."


def test_only_the_invited_and_the_creator_may_register() -> None:
    creator, ann, stranger = UserFactory(), UserFactory(), UserFactory()
    tournament = _invite_only(creator, ann)
    with pytest.raises(services.TournamentRefused, match="by invitation only"):
        services.tournament_register(tournament_id=tournament.pk, user=stranger)
    # not even with the event's link
    with pytest.raises(services.TournamentRefused, match="by invitation only"):
        services.tournament_register(
            tournament_id=tournament.pk, user=stranger, invite_token=tournament.invite_token
        )
    assert not TournamentPlayer.objects.exists()
    services.tournament_register(tournament_id=tournament.pk, user=ann)
    services.tournament_register(tournament_id=tournament.pk, user=creator)
    assert set(TournamentPlayer.objects.values_list("user_id", flat=True)) == {ann.pk, creator.pk}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"invited": ()}, "Name at least one player to invite"),
        (
            {"invited": ("nobody-here", "nor-this-one")},
            "No player is called nobody-here, nor-this-one",
        ),
        ({"access": Tournament.Access.OPEN}, "Only an invitation-only tournament"),
        ({"max_players": 2, "invited": ("a1", "a2", "a3")}, "Invite 2 players at most"),
    ],
)
def test_bad_invitations_are_refused_and_create_nothing(
    change: dict[str, Any], message: str
) -> None:
    ann = UserFactory()
    for name in ("a1", "a2", "a3"):
        UserFactory(username=name)
    settings = {"access": Tournament.Access.INVITE, "invited": (ann.username,), **change}
    with pytest.raises(services.TournamentRefused, match=message):
        services.tournament_create(
            creator=UserFactory(),
            settings=services.TournamentSettings(name="Club Swiss", **settings),
        )
    assert not Tournament.objects.exists()
    assert not Notification.objects.exists()


def test_a_bot_account_cannot_be_invited() -> None:
    bot = bot_account("medium")
    with pytest.raises(services.TournamentRefused, match="bots cannot be invited"):
        _invite_only(UserFactory(), bot)
    assert not Tournament.objects.exists()


def test_the_invited_see_the_event_and_others_do_not() -> None:
    creator, ann, stranger = UserFactory(), UserFactory(), UserFactory()
    tournament = _invite_only(creator, ann)
    assert [t.id for t in values.tournaments_list(ann)] == [tournament.pk]
    assert values.tournaments_list(stranger) == []
    assert client_for(ann).get(f"/api/v1/tournaments/{tournament.pk}").status_code == 404  # session
    page = client_for(ann).get(f"/tournaments/{tournament.pk}/")
    assert page.status_code == 200 and b'id="tournament-register"' in page.content
    assert b"Club Swiss" in client_for(ann).get("/tournaments/").content
    # a stranger, or the link without an invitation, finds nothing
    assert client_for(stranger).get(f"/tournaments/{tournament.pk}/").status_code == 404
    link = f"/tournaments/{tournament.pk}/?token={tournament.invite_token}"
    assert Client().get(link).status_code == 404
    assert b"Club Swiss" not in client_for(stranger).get("/tournaments/").content


def test_a_stranger_posting_register_is_told_and_nothing_changes() -> None:
    tournament = _invite_only(UserFactory(), UserFactory())
    stranger = client_for(UserFactory())
    response = stranger.post(f"/tournaments/{tournament.pk}/register", follow=False)
    assert response.status_code == 302
    assert not TournamentPlayer.objects.exists()


def test_the_creator_sees_who_is_invited_and_the_page_reaches_no_row() -> None:
    creator, ann, bob = UserFactory(), UserFactory(), UserFactory()
    tournament = _invite_only(creator, ann, bob)
    with templates_reached() as reached:
        page = client_for(creator).get(f"/tournaments/{tournament.pk}/")
    assert not reached.found, reached.found
    text = page.content.decode()
    assert "By invitation only" in text or "by invitation only" in text
    assert f"{ann.username}, {bob.username}" in text
    # an invited player does not see the list of the others
    assert (
        bob.username not in client_for(ann).get(f"/tournaments/{tournament.pk}/").content.decode()
    )


def test_the_create_form_invites_by_username() -> None:
    ann, bob = UserFactory(), UserFactory()
    client = client_for(UserFactory())
    data = creation_form(
        name="Club Swiss",
        access="invite",
        invited=f"{ann.username}, {bob.username}\n",
    )
    response = client.post("/tournaments/new", data)
    tournament = Tournament.objects.get()
    assert response.status_code == 302
    assert set(tournament.invited.values_list("pk", flat=True)) == {ann.pk, bob.pk}
    bad = client.post("/tournaments/new", {**data, "invited": "ghost"})
    assert bad.status_code == 400 and "No player is called ghost" in bad.content.decode()
    assert Tournament.objects.count() == 1


def test_the_create_form_invites_by_the_names_players_see() -> None:
    """Players see display names, never usernames (a newcomer's report): a display name
    with a space, or a look-alike spelling of it, names the player; so does a username."""
    li, ann = UserFactory(), UserFactory()
    profile = profiles.profile_get(li)
    profile.display_name = "Li Wei"
    profile.name_key = names.name_key("Li Wei")
    profile.save(update_fields=["display_name", "name_key"])
    client = client_for(UserFactory())
    data = creation_form(name="Club Swiss", access="invite", invited=f"li wei\n{ann.username}")
    response = client.post("/tournaments/new", data)
    assert response.status_code == 302
    tournament = Tournament.objects.get()
    assert set(tournament.invited.values_list("pk", flat=True)) == {li.pk, ann.pk}
    bad = client.post("/tournaments/new", {**data, "invited": "Li, Wei"})
    assert bad.status_code == 400 and "No player is called Li, Wei" in bad.content.decode()
    assert Tournament.objects.count() == 1
