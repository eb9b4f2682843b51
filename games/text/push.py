"""The words of a browser push notification (issue 29): one short sentence a kind.

A push notification is small and shown on a lock screen: it names the game and what
kind of news it is, never a player's hand, points or a line of chat, never even a name.
Keys are ``NotificationKind`` values (``games.models``); pure: django.utils only.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

PUSH_WORDS: dict[str, Promise] = {
    "your_turn": gettext_lazy("It is your move."),
    "decision": gettext_lazy("A decision of yours is needed."),
    "game_started": gettext_lazy("The game has started."),
    "game_over": gettext_lazy("The game is over: see the final ranking."),
    "reminder": gettext_lazy("Your move is due soon."),
    "seat_dropped": gettext_lazy("A player's seat is now played automatically."),
    "game_expired": gettext_lazy("Nobody filled the game's seats: it expired."),
    "game_aborted": gettext_lazy("An administrator aborted the game."),
    "vacation_ended": gettext_lazy("Your vacation is over: your clocks are running again."),
    "invitation": gettext_lazy("You are invited to a game."),
    "timed_out": gettext_lazy("Your clock ran out: the site played for you."),
    "tournament_round": gettext_lazy("A new tournament round: your game has started."),
    "tournament_bye": gettext_lazy("You have a bye this tournament round."),
    "tournament_over": gettext_lazy("The tournament is over: see the final standings."),
    "tournament_invite": gettext_lazy("You are invited to a tournament."),
    "league_invite": gettext_lazy("You are invited to a league."),
    "season_over": gettext_lazy("The league season is over: see where you go next."),
}


def push_title(game_id: int | None) -> str:
    """Return a notification's title: "Game #12", or the site's name for account news."""
    if game_id is None:
        return _("Tigris & Euphrates")
    return _("Game #%(id)s") % {"id": game_id}


def push_body(kind: str) -> str:
    """Return the sentence of ``kind`` in the active language; raise ``KeyError`` if unknown."""
    return str(PUSH_WORDS[kind])


def push_batch_body(games: int) -> str:
    """Return the sentence of one notification gathering news of ``games`` games (≥ 2)."""
    return ngettext("News in %(n)s game.", "News in %(n)s games.", games) % {"n": games}
