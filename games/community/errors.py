"""Refusals of the community services, each with a message a player can read."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games.core.errors import GameError


class ChatRefused(GameError):
    """A chat message, report or mute that cannot be taken (400)."""

    status = 400
    default_message = _("This message cannot be sent.")


class ChatTooFast(GameError):
    """Too many chat messages in a short time (429); nothing is stored."""

    status = 429


class NoteRefused(GameError):
    """Notes that cannot be saved (400 too long, 403 not a player)."""

    status = 400


class InvitationRefused(GameError):
    """An invitation that cannot be made, accepted or declined (400); nothing is created."""

    status = 400
