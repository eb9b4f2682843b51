"""Invitation-only tournaments (issue 30): the creator names the players who may register.

Each invited player is told through the outbox (their preference, their language, a push
row when the email goes out) and sees the event in their list; anyone else is refused with
a clear message and nothing changes.
"""

from __future__ import annotations

from datetime import UTC, datetime, time
from typing import Any

import pytest
import time_machine
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
from tests.games.tournaments.helpers import creation_form, group_league, invite_only

pytestmark = pytest.mark.django_db


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
    tournament = invite_only(creator, ann)
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
        invite_only(UserFactory(), bot)
    assert not Tournament.objects.exists()


def test_the_invited_see_the_event_and_others_do_not() -> None:
    creator, ann, stranger = UserFactory(), UserFactory(), UserFactory()
    tournament = invite_only(creator, ann)
    assert [t.id for t in values.tournaments_list(ann)] == [tournament.pk]
    assert values.tournaments_list(stranger) == []
    assert client_for(ann).get(f"/api/v1/tournaments/{tournament.pk}").status_code == 404  # session
    page = client_for(ann).get(f"/tournaments/{tournament.pk}/")
    assert page.status_code == 200 and b'id="tournament-register"' in page.content
    assert b"Club Swiss" in client_for(ann).get("/tournaments/").content
    # a stranger, or the link without an invitation, is told it is by invitation only
    assert client_for(stranger).get(f"/tournaments/{tournament.pk}/").status_code == 403
    link = f"/tournaments/{tournament.pk}/?token={tournament.invite_token}"
    assert Client().get(link).status_code == 403
    assert client_for(stranger).get(f"/tournaments/{tournament.pk}/record").status_code == 404
    assert b"Club Swiss" not in client_for(stranger).get("/tournaments/").content


@pytest.mark.parametrize(
    ("language", "said"),
    [("en", "This tournament is by invitation only"), ("zh-hans", "这场锦标赛仅限受邀者参加：")],
)
def test_an_outsider_sees_the_events_header_and_that_it_is_by_invitation_only(
    language: str, said: str
) -> None:
    creator, ann, bob, stranger = UserFactory(), UserFactory(), UserFactory(), UserFactory()
    Profile.objects.update_or_create(
        user=ann, defaults={"display_name": "Ann Invited", "language": language}
    )
    Profile.objects.update_or_create(user=bob, defaults={"display_name": "Bob Registered"})
    Profile.objects.update_or_create(user=stranger, defaults={"language": language})
    tournament = invite_only(creator, ann, bob, days_per_move=2)
    services.tournament_register(tournament_id=tournament.pk, user=bob)
    for client in (client_for(stranger), Client(headers={"accept-language": language})):
        with templates_reached() as reached:
            response = client.get(f"/tournaments/{tournament.pk}/")
        assert not reached.found, reached.found
        assert response.status_code == 403
        page = response.content.decode()
        assert "Club Swiss" in page and 'id="tournament-settings"' in page
        assert said in page
        assert 'id="tournament-time-control"' in page
        # nobody's name, no standings, no rounds, no register button, no record link
        for hidden in ("Ann Invited", "Bob Registered", ann.username, bob.username):
            assert hidden not in page
        for part in ('id="standings"', 'id="tournament-register"', 'id="tournament-record"'):
            assert part not in page
    # a link-only event without its token stays unseen: 404
    link_only = services.tournament_create(
        creator=creator,
        settings=services.TournamentSettings(name="Quiet", access=Tournament.Access.LINK),
    )
    assert client_for(stranger).get(f"/tournaments/{link_only.pk}/").status_code == 404


def test_a_stranger_posting_register_is_told_and_nothing_changes() -> None:
    tournament = invite_only(UserFactory(), UserFactory())
    stranger = client_for(UserFactory())
    response = stranger.post(f"/tournaments/{tournament.pk}/register")
    assert response.status_code == 302  # back to the event's page, success or not: read it
    told = stranger.get(response["Location"]).content.decode()
    assert "by invitation only, and you are not invited" in told
    assert not TournamentPlayer.objects.exists()


def test_the_creator_sees_who_is_invited_and_the_page_reaches_no_row() -> None:
    creator, ann, bob = UserFactory(), UserFactory(), UserFactory()
    tournament = invite_only(creator, ann, bob)
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


def test_the_invitation_names_the_events_start_time_control_and_playing_hours(
    django_capture_on_commit_callbacks: Any,
) -> None:
    creator, ann, bob = UserFactory(), UserFactory(), UserFactory()
    Profile.objects.update_or_create(user=ann, defaults={"time_zone": "Europe/Paris"})
    Profile.objects.update_or_create(user=bob, defaults={"language": "zh-hans"})
    start = datetime(2026, 12, 10, 17, 0, tzinfo=UTC)
    mail.outbox.clear()
    with (
        time_machine.travel(datetime(2026, 12, 1, tzinfo=UTC), tick=False),
        django_capture_on_commit_callbacks(execute=True),
    ):
        invite_only(
            creator,
            ann,
            bob,
            starts_at=start,
            days_per_move=2,
            playing_start=time(9),
            playing_end=time(21),
            playing_zone="Europe/Paris",
        )
        group_league(creator, ann, bob, days_per_move=4, first_season_at=start)
    by_address: dict[str, list[Any]] = {}
    for message in mail.outbox:
        by_address.setdefault(message.to[0], []).append(message)
    tournament_mail, league_mail = by_address[ann.email]
    for text in (tournament_mail.body, tournament_mail.alternatives[0][0]):
        assert "It starts at 2026-12-10 18:00 CET." in text  # in her time zone
        assert "Time control: 2 days per move." in text
        assert "Playing hours: 09:00–21:00 (Europe/Paris) each day" in text
    assert "Its next season starts at 2026-12-10 18:00 CET." in league_mail.body
    assert "Time control: 4 days per move." in league_mail.body
    chinese_tournament, chinese_league = by_address[bob.email]
    assert "2026-12-10 17:00 UTC" in chinese_tournament.body
    assert "每步 2 天" in chinese_tournament.body and "09:00–21:00" in chinese_tournament.body
    assert "Time control" not in chinese_tournament.body
    assert (
        "Playing hours" not in chinese_tournament.body
        and "starts at" not in chinese_tournament.body
    )
    assert "每步 4 天" in chinese_league.body and "starts at" not in chinese_league.body
