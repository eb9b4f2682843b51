"""Email subjects that say what happened and what is asked (issue 17).

"Game #2 · Bob started a war over black — your support is needed", "Game #5 · Ann built a
monument — your move", "Your move in 3 games". Pure: reads the ``Move`` rows and the public
decision it is given (RULES.md §14: only events the recipient may see; §15: a pending
decision is public), queries nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

import engine
from games.text.decisions import decision_words
from games.text.words import color_word, conflict_name

# The events worth a subject, most telling first; a ply's other events are bookkeeping.
_TELLING: tuple[engine.EventCode, ...] = (
    "conflict_resolved",
    "revolt_started",
    "war_started",
    "monument_built",
    "treasure_taken",
    "catastrophe_placed",
)


def _event_headline(event: Mapping[str, Any], mover: str, names: Mapping[int, str]) -> str:
    code = event.get("code")
    p: Mapping[str, Any] = event.get("params", {})

    def who(key: str = "seat") -> str:
        return names.get(int(p.get(key) or 0), mover)

    if code == "conflict_resolved":
        outcome = engine.conflict_outcome(event)
        return _("%(winner)s won the %(color)s %(conflict)s against %(loser)s") % {
            "winner": who("winner"),
            "loser": who("loser"),
            "color": color_word(outcome.color),
            "conflict": conflict_name(outcome.kind),
        }
    if code in ("revolt_started", "war_started"):
        return started_headline(
            who("attacker"), "revolt" if code == "revolt_started" else "war", p.get("color")
        )
    if code == "monument_built":
        return _("%(who)s built a monument") % {"who": who()}
    if code == "treasure_taken":
        return _("%(who)s took a treasure") % {"who": who()}
    return _("%(who)s placed a catastrophe") % {"who": who()}


def started_headline(attacker: str, conflict: str | None, color: str | None) -> str:
    """Return "Bob started a war over black" (or a revolt, RULES.md §6, §7)."""
    if conflict == "revolt":
        return _("%(who)s started a revolt over %(color)s") % {
            "who": attacker,
            "color": color_word(color),
        }
    return _("%(who)s started a war over %(color)s") % {"who": attacker, "color": color_word(color)}


def headline(
    moves: Iterable[Any],
    names: Mapping[int, str],
    *,
    viewer: int,
    pending: engine.Decision | None = None,
) -> str:
    """Return what happened since ``viewer``'s last move, in a few words, or ``""``.

    ``moves`` are the ``Move`` rows since then (``seat``, ``events``, ``source``), in ply
    order; ``names`` maps seats to display names; ``pending`` is the decision the game
    waits on, when it waits on ``viewer`` out of turn. A support decision names the
    conflict that asks it; otherwise the last telling event (a conflict won, a monument,
    a treasure, a catastrophe), else who moved last ("Bob played", "Bob passed").
    """
    if pending is not None and pending.kind == "support" and pending.seat == viewer:
        attacker = names.get(pending.attacker or 0, "")
        return started_headline(attacker, pending.conflict, pending.color)
    last_mover: Any = None
    telling: tuple[Mapping[str, Any], str] | None = None
    for move in moves:
        if move.seat == viewer:
            continue
        last_mover = move
        mover = names.get(move.seat, "")
        for event in engine.visible_events(move.events, viewer, game_over=False):
            if event.get("code") in _TELLING:
                telling = (event, mover)
    if telling is not None:
        return _event_headline(telling[0], telling[1], names)
    if last_mover is None:
        return ""
    who = names.get(last_mover.seat, "")
    if getattr(last_mover, "source", "player") in ("timeout", "dropped"):
        return _("%(who)s's clock played for them") % {"who": who}
    if any(e.get("code") == "passed" for e in last_mover.events):
        return _("%(who)s passed") % {"who": who}
    return _("%(who)s played") % {"who": who}


def ask_text(kind: str, pending: engine.Decision | None, *, actions_left: int = 2) -> str:
    """Return what the email asks: "your move", "your support is needed" (RULES.md §15).

    ``actions_left`` is how many actions of the turn are still to play (RULES.md §2): a
    turn half played says so ("your move, 1 action left", issue 33).
    """
    if kind != "decision" or pending is None:
        if actions_left == 1:
            return _("your move, 1 action left")
        return _("your move")
    return str(decision_words(pending.kind).asked)


def turn_subject(game_label: str, happened: str, asked: str) -> str:
    """Return "Game #2 · Bob started a war over black — your support is needed"."""
    if not happened:
        return _("%(game)s — %(asked)s") % {"game": game_label, "asked": asked}
    return _("%(game)s · %(happened)s — %(asked)s") % {
        "game": game_label,
        "happened": happened,
        "asked": asked,
    }


def batch_subject(count: int) -> str:
    """Return the subject of one email listing ``count`` games waiting: "Your move in 3 games"."""
    return ngettext("Your move in %(n)s game", "Your move in %(n)s games", count) % {"n": count}
