"""A player's private notes on a game: one box per player and game, saved as they type.

The notes are a secret of their author (RULES.md §14): only ``games.selectors.community
.note_of`` reads them, for the author alone.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.community.errors import NoteRefused
from games.core.errors import NotAPlayer
from games.models import NOTE_MAX_LENGTH, PrivateNote, Seat
from games.play.access import UserLike, user_id_of


def note_save(*, game_id: int, user: UserLike, text: str) -> PrivateNote:
    """Save ``text`` as ``user``'s notes on game ``game_id`` (the last save wins).

    Raises ``NotAPlayer`` (no seat, anonymous) or ``NoteRefused`` (over ``NOTE_MAX_LENGTH``
    characters: nothing is saved). Saving the same text again changes nothing.
    """
    user_id = user_id_of(user)
    if len(text) > NOTE_MAX_LENGTH:
        raise NoteRefused(
            _("Notes have at most %(max)s characters; these have %(n)s.")
            % {"max": NOTE_MAX_LENGTH, "n": len(text)}
        )
    if not Seat.objects.filter(game_id=game_id, user_id=user_id, is_bot=False).exists():
        raise NotAPlayer(_("Only the players of this game keep notes on it."))
    note, _created = PrivateNote.objects.update_or_create(
        game_id=game_id, user_id=user_id, defaults={"text": text}
    )
    return note
