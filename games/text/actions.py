"""Actions in words, for the confirm step and the buttons' titles (RULES.md §2, §15).

Reads the engine's typed actions (``engine.PlaceTile``, …) by type and fields, never their
notation. Cached per language: a turn offers up to ~600 actions, and translating each
one's words anew was a fifth of the game partial's rendering time (bench/page_cost.py).
"""

from __future__ import annotations

from functools import lru_cache

from django.utils.functional import Promise
from django.utils.translation import get_language, gettext_lazy, ngettext
from django.utils.translation import gettext as _

import engine
from games.text.words import (
    COLOR_NAME,
    LEADER_NAME,
    TILE_NAME,
    color_word,
    list_text,
    monument_name,
)

# Stands for the target square in a group's words (``"Place a red temple on @"``).
SQUARE_MARK = "@"


def action_words(
    action: engine.Action,
    *,
    from_square: str | None = None,
    support_color: engine.Color | None = None,
    square: str | None = None,
) -> str:
    """Return ``action`` in words (``"Place a red temple on f7"``) in the active language.

    ``from_square`` is where a moved leader stands now (else it is placed), ``support_color``
    the colour a commit gives (the pending decision's), ``square`` what to write for the
    target square instead of its name (a group's ``SQUARE_MARK``).
    """
    return _words(get_language(), action, from_square, support_color, square)


@lru_cache(maxsize=8192)
def _words(
    language: str | None,
    action: engine.Action,
    from_square: str | None,
    support_color: engine.Color | None,
    square: str | None,
) -> str:
    at = square or action.target
    if isinstance(action, engine.PlaceTile):
        return _("Place a %(tile)s on %(square)s") % {
            "tile": TILE_NAME[action.color_name],
            "square": at,
        }
    if isinstance(action, engine.PlaceLeader):
        leader = LEADER_NAME[action.leader_name]
        if from_square:
            return _("Move your %(leader)s from %(from)s to %(square)s") % {
                "leader": leader,
                "from": from_square,
                "square": at,
            }
        return _("Place your %(leader)s on %(square)s") % {"leader": leader, "square": at}
    if isinstance(action, engine.WithdrawLeader):
        return _("Withdraw your %(leader)s") % {"leader": LEADER_NAME[action.leader_name]}
    if isinstance(action, engine.PlaceCatastrophe):
        return _("Place a catastrophe on %(square)s") % {"square": at}
    if isinstance(action, engine.SwapTiles):
        colors = action.tile_colors
        n = len(colors)
        return ngettext("Swap %(n)s tile: %(tiles)s", "Swap %(n)s tiles: %(tiles)s", n) % {
            "n": n,
            "tiles": list_text(COLOR_NAME[c] for c in colors),
        }
    if isinstance(action, engine.Pass):
        return _("Pass and end your turn")
    if isinstance(action, engine.CommitSupport):
        n = action.count
        return ngettext(
            "Commit %(n)s %(color)s tile as support", "Commit %(n)s %(color)s tiles as support", n
        ) % {"n": n, "color": color_word(support_color)}
    if isinstance(action, engine.ChooseWar):
        return _("Fight the %(color)s war next") % {"color": COLOR_NAME[action.color_name]}
    if isinstance(action, engine.BuildMonument):
        return _("Build the %(name)s monument on the 2×2 square %(block)s") % {
            "name": monument_name(action.monument_name),
            "block": block_words(action),
        }
    if isinstance(action, engine.DeclineMonument):
        return _("Decline to build a monument")
    if isinstance(action, engine.TakeTreasure):
        return _("Take the treasure on %(square)s") % {"square": at}
    return str(action)


def block_words(monument: engine.BuildMonument) -> str:
    """Return the 2×2 block ``monument`` would cover in words: ``"b5–c6"``.

    A monument is named by its top-left square in the notation (RULES.md §8.2); players
    read the block it covers, from that square to the one diagonally below it (the engine's
    ``touched``, top row first).
    """
    squares = monument.touched
    return f"{squares[0]}–{squares[-1]}"


# Each kind of action's heading in the list of the viewer's actions (``Action.kind``); a
# tile's or a leader's group is headed by its piece instead (None here), pass and decline
# are the others.
ACTION_TITLES: dict[engine.ActionKind, Promise | None] = {
    "tile": None,
    "leader": None,
    "withdraw": gettext_lazy("withdraw a leader"),
    "catastrophe": gettext_lazy("catastrophe"),
    "swap": gettext_lazy("swap tiles"),
    "pass": gettext_lazy("other"),
    "commit": gettext_lazy("commit support"),
    "war": gettext_lazy("choose the next war"),
    "monument": gettext_lazy("build a monument"),
    "decline": gettext_lazy("other"),
    "treasure": gettext_lazy("take a treasure"),
}


def action_title(action: engine.Action) -> str:
    """Return the heading of the group ``action`` belongs to, in the active language.

    A tile's group is headed by the tile (``"red temple"``), a leader's by the leader.
    """
    if isinstance(action, engine.PlaceTile):
        return str(TILE_NAME[action.color_name])
    if isinstance(action, engine.PlaceLeader):
        return str(LEADER_NAME[action.leader_name])
    return str(ACTION_TITLES[action.kind] or action.kind)
