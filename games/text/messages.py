"""Write the engine's refusals in the viewer's language (``IllegalActionError.code``).

The engine raises ``IllegalActionError(code, english_message, **params)`` (``engine/checks.py``);
its English sentence cites RULES.md, a file players do not have. The site shows instead the
sentence below for the code, translated with gettext and filled in from ``params``: colours,
leaders and decisions are named in the viewer's language, squares stay as notation (``f7``).

Every code the engine can raise has an entry here; ``tests/games/test_i18n.py`` reads the codes
from ``engine/checks.py`` and checks that each one renders in English and in Chinese.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.text.decisions import decision_words
from games.text.words import color_word, leader_word


def _color(params: Mapping[str, Any]) -> str:
    return color_word(params.get("color", ""))


def _leader(params: Mapping[str, Any]) -> str:
    return leader_word(params.get("leader", ""))


def decision_name(kind: Any) -> str:
    """Return what a pending decision asks for (``"commit support"``), in the viewer's language."""
    return str(decision_words(kind).task)


def _decision_pending(p: Mapping[str, Any]) -> str:
    return _("Seat %(seat)s must first %(decision)s.") % {
        "seat": p.get("seat"),
        "decision": decision_name(p.get("kind")),
    }


def _support_not_in_hand(p: Mapping[str, Any]) -> str:
    count = int(p.get("count") or 0)
    return ngettext(
        "You cannot commit %(n)s %(color)s tile: you do not hold that many.",
        "You cannot commit %(n)s %(color)s tiles: you do not hold that many.",
        count,
    ) % {"n": count, "color": _color(p)}


# code → sentence; each takes the error's params. Keep the sentences short, addressed to the
# player who tried the action, ending with a period (the act endpoint shows them as they are).
SENTENCES: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "not_an_action": lambda p: _("That is not an action of this game."),
    "game_over": lambda p: _("The game is over: no more actions can be taken."),
    "decision_pending": _decision_pending,
    "no_decision_pending": lambda p: _("That answers a decision, but no decision is pending."),
    "wrong_decision": lambda p: (
        _("That does not answer the pending decision: %(decision)s.")
        % {"decision": decision_name(p.get("kind"))}
    ),
    "support_not_in_hand": _support_not_in_hand,
    "war_not_possible": lambda p: _("There is no %(color)s war to fight.") % {"color": _color(p)},
    "monument_not_possible": lambda p: (
        _(
            "No monument can be built on %(square)s: it needs a completed 2×2 block of one of its "
            "colours and must still be available."
        )
        % {"square": p.get("square")}
    ),
    "treasure_not_available": lambda p: (
        _(
            "The treasure on %(square)s cannot be taken now: special treasures come first, "
            "and only treasures of the trader's kingdom can be taken."
        )
        % {"square": p.get("square")}
    ),
    "tile_not_in_hand": lambda p: _("You have no %(color)s tile in hand.") % {"color": _color(p)},
    "square_occupied": lambda p: (
        _("The square %(square)s is not empty.") % {"square": p.get("square")}
    ),
    "farm_on_land": lambda p: _("A farm must be placed on a river square."),
    "tile_on_river": lambda p: _("Temples, settlements and markets must be placed on land."),
    "three_kingdoms": lambda p: _("A tile may not touch three or more kingdoms."),
    "leader_same_square": lambda p: (
        _("Your leader already stands on %(square)s: moving it there is not an action.")
        % {"square": p.get("square")}
    ),
    "leader_on_river": lambda p: _("A leader must be placed on a land square."),
    "leader_no_temple": lambda p: _("A leader must be placed next to a face-up red temple."),
    "leader_unites_kingdoms": lambda p: _("A leader may not touch two kingdoms."),
    "leader_not_on_board": lambda p: (
        _("Your %(leader)s is not on the board.") % {"leader": _leader(p)}
    ),
    "no_catastrophe_left": lambda p: _("You have no catastrophe left."),
    "catastrophe_on_leader": lambda p: _("A catastrophe may not be placed on a leader."),
    "catastrophe_on_catastrophe": lambda p: _(
        "A catastrophe may not be placed on another catastrophe."
    ),
    "catastrophe_on_monument": lambda p: _(
        "A catastrophe may not be placed on a tile under a monument."
    ),
    "catastrophe_on_treasure": lambda p: _(
        "A catastrophe may not be placed on a tile holding a treasure."
    ),
    "swap_not_in_hand": lambda p: _("You can only swap tiles you hold."),
}


def engine_error_text(code: str, params: Mapping[str, Any] | None = None) -> str | None:
    """Return the sentence for engine error ``code`` in the active language, or None if unknown.

    ``params`` are the error's ``params`` (JSON values: seat numbers, colour, leader and
    decision names in English, squares as notation).
    """
    sentence = SENTENCES.get(code)
    return sentence(params or {}) if sentence is not None else None


def malformed_action_text(text: str) -> str:
    """Return why typed notation was refused, without the engine's English parser message."""
    return _(
        "Not a valid action: “%(text)s”. Actions are written like “tile red f7”, "
        "“leader king e5”, “catastrophe c3”, “swap red blue” or “pass”."
    ) % {"text": text}
