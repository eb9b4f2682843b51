"""Private notes (issue 18): one box per player and game, for its author's eyes only."""

from __future__ import annotations

import pytest
from django.core import mail
from django.test import Client
from django.utils import timezone

from games.community.errors import NoteRefused
from games.community.notes import note_save
from games.core.errors import NotAPlayer
from games.mail import notification as emails
from games.models import NOTE_MAX_LENGTH, Game, Notification, PrivateNote
from games.play import submit as play_submit
from tests.games.factories import UserFactory, client_for, started_game

pytestmark = pytest.mark.django_db

NOTE = "watch the blue farmer at f7 — plan: <war> & monument"


def test_notes_are_saved_as_typed_and_shown_back_to_their_author_only() -> None:
    game, seats = started_game(2)
    alice = client_for(seats[1])
    saved = alice.post(f"/games/{game.pk}/notes", {"text": NOTE}, HTTP_HX_REQUEST="true")
    assert saved.status_code == 200 and b"Saved at" in saved.content
    alice.post(f"/games/{game.pk}/notes", {"text": NOTE + "!"}, HTTP_HX_REQUEST="true")
    assert PrivateNote.objects.get(game=game, user=seats[1]).text == NOTE + "!"  # last wins
    assert PrivateNote.objects.count() == 1
    mine = alice.get(f"/games/{game.pk}/").content.decode()
    assert "watch the blue farmer at f7 — plan: &lt;war&gt; &amp; monument!" in mine
    for other in (client_for(seats[2]), Client(), client_for(UserFactory())):
        for path in ("/", "/replay", "/poll?version=-1", "/chat?after=0"):
            page = other.get(f"/games/{game.pk}{path}").content.decode()
            assert "blue farmer" not in page, path
    refused = client_for(UserFactory()).post(f"/games/{game.pk}/notes", {"text": "mine"})
    assert refused.status_code == 302 and PrivateNote.objects.count() == 1
    with pytest.raises(NotAPlayer):
        note_save(game_id=game.pk, user=UserFactory(), text="x")


def test_notes_over_the_limit_are_refused_and_the_saved_ones_kept() -> None:
    game, seats = started_game(2)
    note_save(game_id=game.pk, user=seats[1], text=NOTE)
    too_long = "y" * (NOTE_MAX_LENGTH + 1)
    answer = client_for(seats[1]).post(
        f"/games/{game.pk}/notes", {"text": too_long}, HTTP_HX_REQUEST="true"
    )
    assert answer.status_code == 400 and f"at most {NOTE_MAX_LENGTH}".encode() in answer.content
    assert PrivateNote.objects.get(game=game, user=seats[1]).text == NOTE
    with pytest.raises(NoteRefused):
        note_save(game_id=game.pk, user=seats[1], text=too_long)


def test_the_replay_shows_the_author_their_notes_only_after_the_end(admin_client: Client) -> None:
    game, seats = started_game(2)
    note_save(game_id=game.pk, user=seats[1], text=NOTE)
    note_save(game_id=game.pk, user=seats[2], text="bob's secret")
    alice = client_for(seats[1])
    assert "blue farmer" not in alice.get(f"/games/{game.pk}/replay").content.decode()
    # Nor in any email (the turn email of either player) or the admin.
    while (
        game.status == Game.Status.ACTIVE
        and not Notification.objects.filter(game=game, kind="your_turn").exists()
    ):
        play_submit.game_submit_action(
            game_id=game.pk,
            user=seats[game.to_act_seat or 1],
            action="pass",
            expected_version=game.version,
        )
        game.refresh_from_db()
    mail.outbox.clear()
    for row in Notification.objects.filter(game=game):
        emails.notification_send(row)
    assert mail.outbox
    for message in mail.outbox:
        text = message.body + str(message.alternatives[0].content)
        assert "blue farmer" not in text and "bob's secret" not in text
    assert admin_client.get("/admin/games/privatenote/").status_code == 404
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED, finished_at=timezone.now())
    after = alice.get(f"/games/{game.pk}/replay").content.decode()
    assert "watch the blue farmer at f7" in after and "bob&#x27;s secret" not in after
    assert "bob" not in client_for(UserFactory()).get(f"/games/{game.pk}/replay").content.decode()
