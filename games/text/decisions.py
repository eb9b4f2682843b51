"""What each kind of decision asks, in words: one table (RULES.md §15).

A decision is named where a move is refused ("Seat 2 must first commit support."), in the
turn email's subject ("your support is needed"), in the notification ("commit support in a
conflict") and on the page's status line ("Waiting for Bob to commit support in the red
revolt."). Each kind's words for all four live in ``DECISION_WORDS``, keyed by the engine's
``DecisionKind``; ``tests/games/text/test_kinds.py`` checks that every kind has them.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy

import engine


class DecisionWords(NamedTuple):
    """One kind of decision in words, lazily translated.

    ``task`` what it asks (``"commit support"``); ``asked`` the turn email's subject end
    (``"your support is needed"``); ``notice`` the notification's line (``"commit support in
    a conflict"``); ``waiting`` the status line, with ``%(who)s`` for the seat and, for
    support, ``%(color)s`` and ``%(conflict)s``.
    """

    task: Promise
    asked: Promise
    notice: Promise
    waiting: Promise


DECISION_WORDS: dict[engine.DecisionKind, DecisionWords] = {
    "support": DecisionWords(
        task=gettext_lazy("commit support"),
        asked=gettext_lazy("your support is needed"),
        notice=gettext_lazy("commit support in a conflict"),
        waiting=gettext_lazy(
            "Waiting for %(who)s to commit support in the %(color)s %(conflict)s."
        ),
    ),
    "war_order": DecisionWords(
        task=gettext_lazy("choose which war is fought next"),
        asked=gettext_lazy("choose the next war"),
        notice=gettext_lazy("choose the next war"),
        waiting=gettext_lazy("Waiting for %(who)s to choose which war is fought next."),
    ),
    "monument": DecisionWords(
        task=gettext_lazy("build a monument or decline"),
        asked=gettext_lazy("build a monument or decline"),
        notice=gettext_lazy("decide on a monument"),
        waiting=gettext_lazy("Waiting for %(who)s to build a monument or decline."),
    ),
    "treasure": DecisionWords(
        task=gettext_lazy("choose treasures"),
        asked=gettext_lazy("choose your treasures"),
        notice=gettext_lazy("choose treasures"),
        waiting=gettext_lazy("Waiting for %(who)s to choose treasures."),
    ),
}
# A kind this table does not know (a newer engine's): said without naming it.
SOME_DECISION = DecisionWords(
    task=gettext_lazy("make a decision"),
    asked=gettext_lazy("your decision is needed"),
    notice=gettext_lazy("make a decision"),
    waiting=gettext_lazy("Waiting for %(who)s."),
)


def decision_words(kind: Any) -> DecisionWords:
    """Return the words of decision ``kind`` (an engine ``DecisionKind``, or as stored)."""
    return DECISION_WORDS.get(kind, SOME_DECISION)
