"""Table talk: a seated player's message, a report of one, a mute (issue 18).

Limits: ``CHAT_MAX_LENGTH`` characters a message and ``RATE_MESSAGES`` messages per
``RATE_SECONDS`` per player and game, counted in the database (so every web process agrees);
a refused message stores nothing. The same text sent again by the same player within
``REPEAT_SECONDS`` (a double click, a retried request) is the message already stored.
"""

from __future__ import annotations

import unicodedata
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.community.errors import ChatRefused, ChatTooFast
from games.core.errors import NotAPlayer
from games.models import CHAT_MAX_LENGTH, ChatMessage, ChatReport, Game, Mute, Seat
from games.play.access import UserLike, locked_game, user_id_of
from games.selectors.community import chat_readable, chat_recent_count
from games.text.names import MAX_STACKED_MARKS

RATE_MESSAGES = 5
RATE_SECONDS = 60
REPEAT_SECONDS = 30
CHAT_OPEN = (Game.Status.OPEN, Game.Status.ACTIVE, Game.Status.FINISHED)


# Unicode's bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069):
# in a chat line they would reorder what the others read ("\u202eevil" shows as "live") and
# what follows the line on their page or in their email. Plain right-to-left text needs none.
DIRECTION_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


# Zero-width characters that carry nothing a reader sees (issue 28); ZWJ and ZWNJ (U+200C,
# U+200D) stay: emoji sequences and Persian or Indic words need them.
DROPPED = dict.fromkeys(map(ord, "\u200b\u2060\ufeff\u00ad\u180e"))


def chat_normal(text: str) -> str:
    """Return ``text`` as a chat line is kept: NFC, outer spaces stripped, zero-width
    spaces, word joiners, byte-order marks and soft hyphens left out (names go further:
    ``games.text.names``; a chat line keeps its compatibility characters)."""
    return unicodedata.normalize("NFC", text).translate(DROPPED).strip()


def _stacks_marks(text: str) -> bool:
    """Return whether ``text`` piles more than ``MAX_STACKED_MARKS`` marks on one letter."""
    stacked = 0
    for ch in text:
        stacked = stacked + 1 if unicodedata.category(ch).startswith("M") else 0
        if stacked > MAX_STACKED_MARKS:
            return True
    return False


def _has_controls(text: str) -> bool:
    """Return whether ``text`` holds a control character (Cc) or a direction control."""
    return any(
        ch in DIRECTION_CONTROLS or unicodedata.category(ch) in ("Cc", "Zl", "Zp") for ch in text
    )


def chat_post(*, game_id: int, user: UserLike, text: str) -> ChatMessage:
    """Store ``user``'s message ``text`` in game ``game_id``'s chat and return it.

    Only a person seated in the game writes, while it is open, in progress or finished.
    Raises ``NotAPlayer`` (not seated, a bot, anonymous), ``ChatRefused`` (empty, longer
    than ``CHAT_MAX_LENGTH``, holding control or text-direction characters, game aborted or
    expired) or ``ChatTooFast`` (over the rate).
    """
    user_id = user_id_of(user)
    text = chat_normal(text)
    if not text:
        raise ChatRefused(_("Write a message first."))
    if _has_controls(text):
        raise ChatRefused(
            _("A message cannot contain control characters or characters that reverse text.")
        )
    if _stacks_marks(text):
        raise ChatRefused(
            _("A message cannot stack more than %(n)s marks on one letter.")
            % {"n": MAX_STACKED_MARKS}
        )
    if len(text) > CHAT_MAX_LENGTH:
        raise ChatRefused(
            _("A message has at most %(max)s characters; this one has %(n)s.")
            % {"max": CHAT_MAX_LENGTH, "n": len(text)}
        )
    with transaction.atomic():
        game = locked_game(game_id)  # one writer per game at a time: the count holds
        if not Seat.objects.filter(game=game, user_id=user_id, is_bot=False).exists():
            raise NotAPlayer(_("Only the players of this game can write in its chat."))
        if game.status not in CHAT_OPEN:
            raise ChatRefused(_("This game's chat is closed."))
        now = timezone.now()
        last = ChatMessage.objects.filter(game=game, author_id=user_id).order_by("-id").first()
        if (
            last is not None
            and last.text == text
            and last.created_at > now - timedelta(seconds=REPEAT_SECONDS)
        ):
            return last
        since = now - timedelta(seconds=RATE_SECONDS)
        if chat_recent_count(game_id=game.pk, user_id=user_id, since=since) >= RATE_MESSAGES:
            raise ChatTooFast(
                _("You are writing fast: at most %(n)s messages a minute. Wait a moment.")
                % {"n": RATE_MESSAGES}
            )
        return ChatMessage.objects.create(game=game, author_id=user_id, text=text)


def chat_report(*, message_id: int, game_id: int, user: UserLike) -> bool:
    """Report message ``message_id`` of game ``game_id`` to the operators.

    Returns whether a report was made now (False: ``user`` had reported it already).
    Raises ``ChatRefused`` for no such message, one ``user`` may not read (a players-only
    chat to a spectator: the same answer, so reports cannot enumerate its messages;
    issue 28), or one's own.
    """
    user_id = user_id_of(user)
    message = ChatMessage.objects.filter(pk=message_id, game_id=game_id).first()
    # the view checked the game is one ``user`` may see (``_viewable_game``)
    game = Game.objects.filter(pk=game_id).prefetch_related("seats").first()
    if message is None or game is None or not chat_readable(game, user):
        raise ChatRefused(_("There is no such message."))
    if message.author_id == user_id:
        raise ChatRefused(_("You cannot report your own message."))
    try:
        with transaction.atomic():
            ChatReport.objects.create(message=message, reporter_id=user_id)
    except IntegrityError:
        return False
    return True


def mute_set(*, user: UserLike, muted_id: int, on: bool) -> bool:
    """Mute (``on``) or unmute player ``muted_id`` for ``user``; return whether it changed.

    Raises ``ChatRefused`` for muting oneself.
    """
    user_id = user_id_of(user)
    if muted_id == user_id:
        raise ChatRefused(_("You cannot mute yourself."))
    if not get_user_model().objects.filter(pk=muted_id).exists():
        raise ChatRefused(_("There is no such player."))
    if not on:
        deleted, _rows = Mute.objects.filter(user_id=user_id, muted_id=muted_id).delete()
        return bool(deleted)
    _mute, created = Mute.objects.get_or_create(user_id=user_id, muted_id=muted_id)
    return created
