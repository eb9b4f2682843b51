"""Seats in words: ``SeatInfo`` (the public facts of one seat) and its readable label."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ObjectDoesNotExist
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.text.words import DYNASTY_NAME, DYNASTY_SYMBOL


@dataclass(frozen=True)
class SeatInfo:
    """Public facts about one seat from the database: number, player name and dynasty.

    ``final_rank`` (1 best) and ``final_score`` (``{"colors": {colour: VP}, "score"}``)
    are set once the game is over; ``rating_before``/``rating_after`` once it is rated.
    """

    position: int
    username: str
    dynasty: str
    final_rank: int | None = None
    final_score: dict[str, Any] | None = None
    # A rated game's displayed rating before and after it (ratings.display_rating), once
    # rated; public, as on the profile.
    rating_before: float | None = None
    rating_after: float | None = None

    @property
    def symbol(self) -> str:
        """Return the dynasty's symbol (a character of common fonts)."""
        return DYNASTY_SYMBOL.get(self.dynasty, "")

    @property
    def label(self) -> str:
        """Return "Seat 2 (bob, Bull)"."""
        return _("Seat %(n)s (%(name)s, %(dynasty)s)") % {
            "n": self.position,
            "name": self.username,
            "dynasty": DYNASTY_NAME.get(self.dynasty, self.dynasty),
        }


def seat_label(seats: Mapping[int, SeatInfo], seat: int | None) -> str:
    """Return a seat's readable name, or "nobody" for None."""
    if seat is None:
        return _("nobody")
    info = seats.get(int(seat))
    return info.label if info else _("Seat %(n)s") % {"n": seat}


BOT_MARK = "\N{ROBOT FACE}"  # shown before every bot's name (issue 15)

# The bots' tiers in words (``Profile.BotTier``; the text room reads no model).
BOT_TIER_NAME = {
    "easy": gettext_lazy("easy"),
    "medium": gettext_lazy("medium"),
    "hard": gettext_lazy("hard"),
}


def bot_name(tier: str) -> str:
    """Return the name every page shows for the bot of ``tier``: "🤖 Bot (medium)"."""
    return _("%(mark)s Bot (%(tier)s)") % {
        "mark": BOT_MARK,
        "tier": BOT_TIER_NAME.get(tier, tier),
    }


def taken_over_name(name: str) -> str:
    """Return a person's name once the bot plays their dropped seat: "alice (bot)"."""
    return _("%(name)s (bot)") % {"name": name}


def display_name(user: Any) -> str:
    """Return the name shown for ``user``: the profile's display name, else the username.

    A bot account shows its mark and tier instead (``bot_name``), in the reader's language.
    Reads ``user.profile`` (prefetch it in lists: ``games.selectors.games.with_seats``).
    A page's ``Viewer`` (``games.web.viewer``, no row: allauth's ``{% user_display user %}``)
    gives its own ``display_name``.
    """
    if not hasattr(user, "get_username") and hasattr(user, "display_name"):
        return str(user.display_name)
    try:
        profile = user.profile
    except ObjectDoesNotExist:
        profile = None
    if profile is None:
        return str(user.get_username())
    return shown_name(
        user.get_username(), profile.display_name, is_bot=profile.is_bot, tier=profile.bot_tier
    )


def shown_name(username: str, name: str | None, *, is_bot: bool, tier: str) -> str:
    """Return the name shown for a person from their columns (``display_name``'s rule, for
    lists that read tuples, not rows: ``games.selectors.games.list_seats``): a bot's mark
    and tier (``bot_name``), else the profile's display ``name``, else the ``username``."""
    if is_bot:
        return bot_name(tier)
    return str(name or username)
