"""The site's tables, one module per room of concern; every name is importable from here.

games: ``Game``, ``Seat``, ``Move`` (the append-only history; the seed and the snapshot are
secrets); accounts: ``Profile``, notifications and their preferences, ``Vacation``; api: access
tokens and webhooks; community: chat, reports, mutes, notes, follows, invitations; orders:
``StandingOrders``. Migrations name ``games.models._new_seed`` and ``_new_invite_token``.
"""

from games.models.accounts import (
    CONSERVATIVE_RATING,
    PROVISIONAL_GAMES,
    TURN_KINDS,
    Delivery,
    Notification,
    NotificationKind,
    NotificationPreference,
    Profile,
    Vacation,
    conservative_rating,
)
from games.models.api import AccessToken, Webhook, WebhookDelivery
from games.models.community import (
    CHAT_MAX_LENGTH,
    NOTE_MAX_LENGTH,
    ChatMessage,
    ChatReport,
    Follow,
    Invitation,
    Mute,
    PrivateNote,
)
from games.models.games import Game, Move, MoveQuerySet, Seat, _new_invite_token, _new_seed
from games.models.orders import StandingOrders

__all__ = [
    "CHAT_MAX_LENGTH",
    "CONSERVATIVE_RATING",
    "NOTE_MAX_LENGTH",
    "PROVISIONAL_GAMES",
    "TURN_KINDS",
    "AccessToken",
    "ChatMessage",
    "ChatReport",
    "Delivery",
    "Follow",
    "Game",
    "Invitation",
    "Move",
    "MoveQuerySet",
    "Mute",
    "Notification",
    "NotificationKind",
    "NotificationPreference",
    "PrivateNote",
    "Profile",
    "Seat",
    "StandingOrders",
    "Vacation",
    "Webhook",
    "WebhookDelivery",
    "_new_invite_token",
    "_new_seed",
    "conservative_rating",
]
