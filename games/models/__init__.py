"""The site's tables, one module per room of concern; every name is importable from here.

games: ``Game``, ``Seat``, ``Move`` (the append-only history; the seed and the snapshot are
secrets); accounts: ``Profile``, notifications and their preferences, ``Vacation``; api: access
tokens and webhooks; community: chat, reports, mutes, notes, follows, invitations; orders:
``StandingOrders``; push: browsers' push subscriptions and the push outbox; tournaments:
``Tournament`` and its players, rounds, tables and entries (issue 30); leagues: ``League``,
its seasons, divisions and members. Migrations name
``games.models._new_seed`` and ``_new_invite_token``.
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
from games.models.leagues import (
    LEAGUE_DIVISION_MAX,
    LEAGUE_DIVISION_MIN,
    LEAGUE_MAX_WEEKS,
    League,
    LeagueDivision,
    LeagueMember,
    LeagueSeason,
)
from games.models.orders import StandingOrders
from games.models.push import MAX_ENDPOINT_LENGTH, PushDelivery, PushSubscription
from games.models.records import BotRecordCount, PlayerRecordCount
from games.models.tournaments import (
    ROUND_ROBIN_MAX_PLAYERS,
    TOURNAMENT_MAX_PLAYERS,
    TOURNAMENT_MAX_ROUNDS,
    TOURNAMENT_NAME_MAX,
    Tournament,
    TournamentEntry,
    TournamentPlayer,
    TournamentRound,
    TournamentTable,
)

__all__ = [
    "BotRecordCount",
    "PlayerRecordCount",
    "CHAT_MAX_LENGTH",
    "CONSERVATIVE_RATING",
    "LEAGUE_DIVISION_MAX",
    "LEAGUE_DIVISION_MIN",
    "LEAGUE_MAX_WEEKS",
    "MAX_ENDPOINT_LENGTH",
    "NOTE_MAX_LENGTH",
    "PROVISIONAL_GAMES",
    "ROUND_ROBIN_MAX_PLAYERS",
    "TOURNAMENT_MAX_PLAYERS",
    "TOURNAMENT_MAX_ROUNDS",
    "TOURNAMENT_NAME_MAX",
    "TURN_KINDS",
    "AccessToken",
    "ChatMessage",
    "ChatReport",
    "Delivery",
    "Follow",
    "Game",
    "Invitation",
    "League",
    "LeagueDivision",
    "LeagueMember",
    "LeagueSeason",
    "Move",
    "MoveQuerySet",
    "Mute",
    "Notification",
    "NotificationKind",
    "NotificationPreference",
    "PrivateNote",
    "PushDelivery",
    "PushSubscription",
    "Profile",
    "Seat",
    "StandingOrders",
    "Tournament",
    "TournamentEntry",
    "TournamentPlayer",
    "TournamentRound",
    "TournamentTable",
    "Vacation",
    "Webhook",
    "WebhookDelivery",
    "_new_invite_token",
    "_new_seed",
    "conservative_rating",
]
