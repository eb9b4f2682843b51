"""Invitations by display name, rematches and follows (issue 18), end to end over HTTP."""

from __future__ import annotations

import inspect
from typing import Any

import pytest
from django.core import mail
from django.test import Client
from django.utils import timezone

from games.models import Game, Invitation, Notification, Profile, Seat
from games.play import lifecycle
from tests.games.factories import UserFactory, client_for, started_game

pytestmark = pytest.mark.django_db


def _named(name: str) -> Any:
    user = UserFactory()
    Profile.objects.update_or_create(user=user, defaults={"display_name": name})
    return user


def _create(client: Client, **fields: Any) -> Any:
    data = {"num_players": 3, "days_per_move": 3, "is_rated": "on", "is_public": "", **fields}
    return client.post("/games/new", data)


def test_an_invitation_by_name_emails_shows_in_my_games_and_is_accepted(
    django_capture_on_commit_callbacks: Any,
) -> None:
    host, mei, li = _named("Host"), _named("Mei"), _named("Li Wei")
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        answer = _create(client_for(host), invite="mei, Li Wei")
    assert answer.status_code == 302
    game = Game.objects.get()
    assert not game.is_public
    assert set(Invitation.objects.values_list("invitee_id", flat=True)) == {mei.pk, li.pk}
    assert {m.to[0] for m in mail.outbox} == {mei.email, li.email}
    for message in mail.outbox:  # who invites, to what game
        assert f"Host invites you to play Game #{game.pk}." in message.body
        assert "3 players · rated · hidden scoring · 3 days per move" in message.body
    guest = client_for(mei)
    lobby = guest.get("/").content.decode()
    assert "Host invites you to game #" in lobby
    page = guest.get(f"/games/{game.pk}/")  # private, but invited: the email's link
    assert page.status_code == 200 and b"/decline" in page.content
    invitation = Invitation.objects.get(invitee=mei)
    joined = guest.post(f"/invitations/{invitation.pk}/accept")
    assert joined.status_code == 302 and joined["Location"] == f"/games/{game.pk}/"
    assert Seat.objects.filter(game=game, user=mei).exists()
    guest.post(f"/invitations/{invitation.pk}/accept")  # again: the same seat, once
    assert Seat.objects.filter(game=game).count() == 2
    assert "invites you" not in guest.get("/").content.decode()


def test_declining_is_one_click_and_an_unknown_name_creates_nothing() -> None:
    host, mei = _named("Host"), _named("Mei")
    _create(client_for(host), invite="Mei")
    invitation = Invitation.objects.get()
    guest = client_for(mei)
    assert guest.post(f"/invitations/{invitation.pk}/decline").status_code == 302
    invitation.refresh_from_db()
    assert invitation.status == Invitation.Status.DECLINED
    assert "invites you" not in guest.get("/").content.decode()
    assert guest.get(f"/games/{invitation.game_id}/").status_code == 404  # private again
    refused = guest.post(f"/invitations/{invitation.pk}/accept", follow=True)
    assert "You declined this invitation." in refused.content.decode()
    assert not Seat.objects.filter(user=mei).exists()
    stranger = client_for(_named("Stranger"))
    assert stranger.post(f"/invitations/{invitation.pk}/decline", follow=True).status_code == 200
    invitation.refresh_from_db()
    assert invitation.status == Invitation.Status.DECLINED

    games, rows = Game.objects.count(), Notification.objects.count()
    answer = _create(client_for(host), invite="Mei, Nobody Here")
    assert answer.status_code == 400
    assert "No player is called “Nobody Here”: nothing was created." in answer.content.decode()
    assert Game.objects.count() == games and Invitation.objects.count() == 1
    assert Notification.objects.count() == rows
    mine = _create(client_for(host), invite="Host")
    assert mine.status_code == 400 and Game.objects.count() == games


def test_a_rematch_offers_the_same_players_the_same_settings_once() -> None:
    game, seats = started_game(3, is_rated=False, days_per_move=None, open_scoring=True)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED, finished_at=timezone.now())
    assert client_for(seats[1]).get(f"/games/{game.pk}/").content.count(b'id="rematch"') == 1
    answer = client_for(seats[1]).post(f"/games/{game.pk}/rematch")
    new = Game.objects.get(rematch_of=game)
    assert answer["Location"] == f"/games/{new.pk}/"
    same = ("num_players", "is_public", "is_rated", "open_scoring", "days_per_move")
    assert [getattr(new, f) for f in same] == [3, True, False, True, None]
    assert new.status == Game.Status.OPEN
    invited = set(Invitation.objects.filter(game=new).values_list("invitee_id", flat=True))
    assert invited == {seats[2].pk, seats[3].pk}
    # The second player's rematch is the same game: it seats them, nothing new is created.
    joined = client_for(seats[2]).post(f"/games/{game.pk}/rematch", follow=True)
    assert "You joined the rematch." in joined.content.decode()
    client_for(seats[2]).post(f"/games/{game.pk}/rematch")
    assert Game.objects.filter(rematch_of=game).count() == 1
    assert Seat.objects.filter(game=new).count() == 2
    refused = client_for(UserFactory()).post(f"/games/{game.pk}/rematch", follow=True)
    assert "Only the players of this game" in refused.content.decode()
    assert Game.objects.count() == 2


def test_a_follower_sees_the_followed_players_games_in_progress() -> None:
    game, seats = started_game(2)
    fan = client_for(UserFactory())
    assert fan.post(f"/players/{seats[1].pk}/follow", {"on": "1"}).status_code == 302
    lobby = fan.get("/").content.decode()
    assert "Games of players you follow" in lobby and f'href="/games/{game.pk}/"' in lobby
    profile = fan.get(f"/players/{seats[1].pk}/").content.decode()
    assert "Stop following" in profile
    fan.post(f"/players/{seats[1].pk}/follow", {"on": "0"})
    assert "Games of players you follow" not in fan.get("/").content.decode()
    private = lifecycle.game_create(creator=seats[1], num_players=2, is_public=False)
    fan.post(f"/players/{seats[1].pk}/follow", {"on": "1"})
    assert f'href="/games/{private.pk}/"' not in fan.get("/").content.decode()


def test_a_rematch_keeps_the_time_bank_and_quiet_hours_setting() -> None:
    game, seats = started_game(
        2, bank_days=5, bank_increment_hours=12, bank_cap_days=9, quiet_hours_allowed=False
    )
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED, finished_at=timezone.now())
    answer = client_for(seats[2]).post(f"/games/{game.pk}/rematch")
    new = Game.objects.get(rematch_of=game)
    assert answer["Location"] == f"/games/{new.pk}/"
    same = ("is_rated", "days_per_move", "bank_days", "bank_increment_hours", "bank_cap_days")
    assert [getattr(new, f) for f in same] == [True, None, 5, 12, 9]
    assert new.quiet_hours_allowed is False


def test_a_rematch_against_bots_seats_the_same_bots_and_starts_at_once() -> None:
    me = UserFactory()
    game = lifecycle.game_create(creator=me, num_players=3, bots=["easy", "hard"])
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED, finished_at=timezone.now())
    answer = client_for(me).post(f"/games/{game.pk}/rematch", follow=True)
    new = Game.objects.get(rematch_of=game)
    assert answer.redirect_chain[-1][0] == f"/games/{new.pk}/"
    assert "Rematch: the new game has started." in answer.content.decode()
    assert new.status == Game.Status.ACTIVE and not new.is_rated
    tiers = sorted(s.user.profile.bot_tier for s in new.seats.all() if s.is_bot)
    assert tiers == ["easy", "hard"]
    assert not Invitation.objects.filter(game=new).exists()  # nobody else to invite


def test_the_settings_a_rematch_copies_are_every_choice_of_game_create() -> None:
    # An event's playing hours (issue 30) are the event's rule: a rematch, a game of its
    # own outside the event, runs its clock around the clock.
    chosen = set(inspect.signature(lifecycle.game_create).parameters) - {
        "creator",
        "bots",
        "playing_hours",
    }
    assert set(Game.SETTINGS) == chosen  # a new setting cannot be forgotten by a rematch


def test_invitations_are_limited_per_invitee_and_per_day_and_refusals_create_nothing(
    monkeypatch: Any,
) -> None:
    """Issue 28, finding 5: 12 games inviting one player in seconds made 13 emails."""
    from django.utils import translation

    from games.community import invitations

    host, mei = _named("Host"), _named("Mei")
    client = client_for(host)
    answers = [_create(client, invite="Mei").status_code for _ in range(5)]
    assert answers == [302, 302, 302, 400, 400]
    assert Invitation.objects.filter(invitee=mei).count() == invitations.PENDING_PER_INVITEE
    emails = Notification.objects.filter(user=mei, kind="invitation").count()
    assert emails == invitations.PENDING_PER_INVITEE
    refused = _create(client, invite="Mei")
    assert "unanswered already" in refused.content.decode()
    with translation.override("zh-hans"), pytest.raises(invitations.InvitationRefused) as zh:
        invitations.invitations_allowed(inviter_id=host.pk, invitee_ids=[mei.pk])
    assert "邀请" in str(zh.value)
    # the day's limit, whoever is invited
    _named("Other")
    monkeypatch.setattr(invitations, "INVITATIONS_PER_DAY", 4)
    assert _create(client, invite="Other").status_code == 302  # the fourth today
    games = Game.objects.count()
    answer = _create(client, invite="Other")
    assert answer.status_code == 400 and Game.objects.count() == games
    assert "the most a day" in answer.content.decode()
