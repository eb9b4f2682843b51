"""Table talk (issue 18): who reads and writes, limits, escaping, reports and mutes."""

from __future__ import annotations

import re
from typing import Any

import pytest
import time_machine
from django.core import mail
from django.test import Client

from games.community import chat
from games.community.errors import ChatRefused, ChatTooFast
from games.core.errors import NotAPlayer
from games.mail import notification as emails
from games.models import CHAT_MAX_LENGTH, ChatMessage, ChatReport, Game, Notification, Profile
from games.play import submit as play_submit
from tests.games.factories import UserFactory, client_for, started_game

pytestmark = pytest.mark.django_db

EVIL = "<script>alert('x')</script> & <b>bold</b>"
ESCAPED = "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt; &amp; &lt;b&gt;bold&lt;/b&gt;"


def _lines(page: bytes) -> list[str]:
    return re.findall(r'<span class="chat-text">([^<]*)</span>', page.decode())


def _send(client: Client, game: Game, text: str, **headers: Any) -> Any:
    return client.post(f"/games/{game.pk}/chat/send", {"text": text}, **headers)


def test_players_write_and_read_spectators_read_and_may_not_write() -> None:
    game, seats = started_game(2)
    alice, bob = client_for(seats[1]), client_for(seats[2])
    answer = _send(alice, game, "good luck", HTTP_HX_REQUEST="true")
    assert answer.status_code == 200 and _lines(answer.content) == ["good luck"]
    assert _lines(bob.get(f"/games/{game.pk}/").content) == ["good luck"]
    spectator = Client()
    page = spectator.get(f"/games/{game.pk}/").content
    assert _lines(page) == ["good luck"] and b'name="text"' not in page  # reads, no box
    stranger = client_for(UserFactory())
    refused = _send(stranger, game, "hello", HTTP_HX_REQUEST="true")
    assert refused.status_code == 403 and b"Only the players" in refused.content
    assert ChatMessage.objects.count() == 1


def test_the_creator_can_keep_the_chat_from_spectators() -> None:
    game, seats = started_game(2, chat_spectators=False)
    chat.chat_post(game_id=game.pk, user=seats[1], text="our secret plan")
    assert _lines(client_for(seats[2]).get(f"/games/{game.pk}/").content) == ["our secret plan"]
    for viewer in (Client(), client_for(UserFactory())):
        page = viewer.get(f"/games/{game.pk}/").content
        assert b"our secret plan" not in page and b"keep their chat to themselves" in page
        assert viewer.get(f"/games/{game.pk}/chat?after=0").status_code == 404


def test_the_chat_poll_answers_204_until_someone_writes() -> None:
    game, seats = started_game(2)
    bob = client_for(seats[2])
    assert bob.get(f"/games/{game.pk}/chat?after=0").status_code == 204
    message = chat.chat_post(game_id=game.pk, user=seats[1], text="your move")
    fresh = bob.get(f"/games/{game.pk}/chat?after=0")
    assert fresh.status_code == 200 and _lines(fresh.content) == ["your move"]
    assert f"after={message.pk}".encode() in fresh.content  # the next poll asks from here
    assert bob.get(f"/games/{game.pk}/chat?after={message.pk}").status_code == 204


def test_too_long_and_too_fast_are_refused_with_a_message_and_nothing_stored() -> None:
    game, seats = started_game(2)
    alice = client_for(seats[1])
    long = "x" * (CHAT_MAX_LENGTH + 1)
    refused = _send(alice, game, long, HTTP_HX_REQUEST="true")
    assert refused.status_code == 400
    assert f"at most {CHAT_MAX_LENGTH} characters".encode() in refused.content
    assert long.encode() in refused.content  # given back to be shortened
    assert not ChatMessage.objects.exists()
    with time_machine.travel("2026-03-01 12:00:00Z", tick=False):
        for n in range(chat.RATE_MESSAGES):
            assert _send(alice, game, f"line {n}", HTTP_HX_REQUEST="true").status_code == 200
        fast = _send(alice, game, "one more", HTTP_HX_REQUEST="true")
        assert fast.status_code == 429 and b"at most 5 messages a minute" in fast.content
    assert ChatMessage.objects.count() == chat.RATE_MESSAGES
    with time_machine.travel("2026-03-01 12:01:01Z", tick=False):
        assert _send(alice, game, "one more", HTTP_HX_REQUEST="true").status_code == 200
    with pytest.raises(ChatRefused):
        chat.chat_post(game_id=game.pk, user=seats[1], text="   ")


@pytest.mark.parametrize("text", ["\u202eevil", "ok \u2067abc\u2069", "bell\x07", "a\nb"])
def test_control_and_direction_characters_are_refused_and_nothing_stored(text: str) -> None:
    game, seats = started_game(2)
    refused = _send(client_for(seats[1]), game, text, HTTP_HX_REQUEST="true")
    assert refused.status_code == 400
    assert b"cannot contain control characters or characters that reverse text" in refused.content
    assert not ChatMessage.objects.exists()
    # Right-to-left scripts, emoji sequences (ZWJ) and ZWNJ need none of these: they pass.
    for fine in ("שלום עולם", "مرحبا", "👩\u200d👩\u200d👧", "می\u200cخواهم", "两河流域"):
        assert chat.chat_post(game_id=game.pk, user=seats[1], text=fine).text == fine


def test_a_double_submission_stores_the_message_once() -> None:
    game, seats = started_game(2)
    first = chat.chat_post(game_id=game.pk, user=seats[1], text="gg")
    again = chat.chat_post(game_id=game.pk, user=seats[1], text="gg")
    assert first.pk == again.pk and ChatMessage.objects.count() == 1


def test_a_message_is_escaped_on_the_page_the_poll_the_email_and_the_admin(
    admin_client: Client,
) -> None:
    game, seats = started_game(2)
    writer = game.to_act_seat or 1
    other = 2 if writer == 1 else 1

    def end_turn(seat: int) -> Game:
        game.refresh_from_db()
        while game.to_act_seat == seat:
            play_submit.game_submit_action(
                game_id=game.pk, user=seats[seat], action="pass", expected_version=game.version
            )
            game.refresh_from_db()
        return game

    chat.chat_post(game_id=game.pk, user=seats[writer], text="before")
    end_turn(writer)
    end_turn(other)  # the reader's last move: "before" is older, the next message newer
    chat.chat_post(game_id=game.pk, user=seats[writer], text=EVIL)
    game = end_turn(writer)
    reader = client_for(seats[other])
    pages = [
        reader.get(f"/games/{game.pk}/").content,
        reader.get(f"/games/{game.pk}/chat?after=0").content,
        Client().get(f"/games/{game.pk}/").content,
        admin_client.get("/admin/games/chatmessage/").content,
    ]
    ChatReport.objects.create(message=ChatMessage.objects.get(text=EVIL), reporter=seats[other])
    pages.append(admin_client.get("/admin/games/chatreport/").content)
    for page in pages:
        assert b"<script>alert" not in page and ESCAPED.encode() in page
    # "Since your last move" on the page names the message too, escaped.
    since = pages[0].decode().split('class="since"')[1].split("</ol>")[0]
    assert ESCAPED in since and "before" not in since
    row = Notification.objects.filter(game=game, user=seats[other], kind="your_turn").latest("ply")
    mail.outbox.clear()
    emails.notification_send(row)
    (message,) = mail.outbox
    html = str(message.alternatives[0].content)
    assert "<script>alert" not in html and ESCAPED in html
    assert EVIL in message.body  # plain text: shown as written, nothing to interpret
    # The preference turns the chat out of the turn email.
    Profile.objects.filter(user=seats[other]).update(chat_in_email=False)
    mail.outbox.clear()
    emails.notification_send(row)
    assert "alert" not in mail.outbox[0].body


def test_a_player_reports_a_message_once_and_the_admin_lists_it(admin_client: Client) -> None:
    game, seats = started_game(2)
    message = chat.chat_post(game_id=game.pk, user=seats[1], text="rude words")
    bob = client_for(seats[2])
    url = f"/games/{game.pk}/chat/{message.pk}/report"
    assert b"was reported" in bob.post(url, HTTP_HX_REQUEST="true").content
    bob.post(url, HTTP_HX_REQUEST="true")
    assert ChatReport.objects.filter(message=message, reporter=seats[2]).count() == 1
    assert b"rude words" in admin_client.get("/admin/games/chatreport/").content
    own = client_for(seats[1]).post(url, HTTP_HX_REQUEST="true")
    assert own.status_code == 400 and ChatReport.objects.count() == 1


def test_a_muted_players_messages_disappear_for_the_one_who_muted() -> None:
    game, seats = started_game(3)
    chat.chat_post(game_id=game.pk, user=seats[1], text="noise")
    chat.chat_post(game_id=game.pk, user=seats[2], text="signal")
    carol = client_for(seats[3])
    answer = carol.post(f"/games/{game.pk}/chat/mute/{seats[1].pk}", {"on": "1"})
    assert answer.status_code == 302
    assert _lines(carol.get(f"/games/{game.pk}/").content) == ["signal"]
    assert _lines(client_for(seats[2]).get(f"/games/{game.pk}/").content) == ["noise", "signal"]
    carol.post(f"/games/{game.pk}/chat/mute/{seats[1].pk}", {"on": "0"})
    assert _lines(carol.get(f"/games/{game.pk}/").content) == ["noise", "signal"]
    with pytest.raises(ChatRefused):
        chat.mute_set(user=seats[3], muted_id=seats[3].pk, on=True)


def test_bots_and_strangers_cannot_write_and_chat_never_moves_the_game() -> None:
    game, seats = started_game(2)
    version = game.version
    with pytest.raises(NotAPlayer):
        chat.chat_post(game_id=game.pk, user=UserFactory(), text="hi")
    chat.chat_post(game_id=game.pk, user=seats[1], text="tile red f7")
    game.refresh_from_db()
    assert game.version == version and game.moves.count() == 0
    with pytest.raises(ChatTooFast):
        for n in range(chat.RATE_MESSAGES + 1):
            chat.chat_post(game_id=game.pk, user=seats[2], text=f"m{n}")


def test_a_spectator_cannot_report_and_so_enumerate_a_players_only_chat() -> None:
    """Issue 28, finding 5: the same answer as for no message at all, and no report."""
    game, seats = started_game(2, chat_spectators=False)
    line = chat.chat_post(game_id=game.pk, user=seats[1], text="our secret plan")
    watcher = client_for(UserFactory())
    answers = [
        watcher.post(f"/games/{game.pk}/chat/{pk}/report", HTTP_HX_REQUEST="true")
        for pk in (line.pk, line.pk + 1000)
    ]
    assert [a.status_code for a in answers] == [400, 400]
    assert all(b"There is no such message." in a.content for a in answers)
    assert b"our secret plan" not in answers[0].content
    assert not ChatReport.objects.exists()
    assert chat.chat_report(message_id=line.pk, game_id=game.pk, user=seats[2]) is True


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("gg\u200b", "gg"),
        ("g\u2060g\ufeff", "gg"),
        ("soft\u00adhyphen", "softhyphen"),
        ("e\u0301", "\u00e9"),  # NFC
    ],
)
def test_chat_lines_are_kept_without_zero_width_characters(text: str, kept: str) -> None:
    """Issue 28, finding 5: normalised as names are, within reason (ZWJ, ZWNJ stay)."""
    game, seats = started_game(2)
    assert chat.chat_post(game_id=game.pk, user=seats[1], text=text).text == kept


@pytest.mark.parametrize("text", ["line\u2028break", "para\u2029graph", "z" + "\u0301" * 250])
def test_separators_and_stacked_marks_are_refused_in_both_languages(text: str) -> None:
    from django.utils import translation

    game, seats = started_game(2)
    with pytest.raises(ChatRefused) as refused:
        chat.chat_post(game_id=game.pk, user=seats[1], text=text)
    with translation.override("zh-hans"), pytest.raises(ChatRefused) as refused_zh:
        chat.chat_post(game_id=game.pk, user=seats[1], text=text)
    assert str(refused.value) != str(refused_zh.value)
    assert not ChatMessage.objects.exists()
    assert chat.chat_post(game_id=game.pk, user=seats[1], text="\u0e01\u0e34\u0e4a").text
